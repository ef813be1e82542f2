package entity_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// writesPath reports whether the JSON value v holds the dotted path of
// keys (in any element of a list on the way), and whether that can be
// told: a null on the way hides what it would have held.
func writesPath(v any, path []string) (has, known bool) {
	switch x := v.(type) {
	case []any:
		known = true
		for _, el := range x {
			h, k := writesPath(el, path)
			if h {
				return true, true
			}
			known = known && k
		}
		return false, known
	case map[string]any:
		sub, ok := x[path[0]]
		switch {
		case !ok:
			return false, true
		case len(path) == 1:
			return true, true
		case sub == nil:
			return false, false
		}
		return writesPath(sub, path[1:])
	}
	return false, true
}

// selectedPaths are the paths TestSelectedIsWhatIsWritten asks about:
// every field of shapeRegistry's users at a few depths, and paths it does
// not have.
var selectedPaths = []string{
	"offset", "limit", "list", "list.number", "list.name", "list.details", "list.details.age",
	"list.details.mail", "list.details.notes", "list.details.notes.text", "list.code", "list.token",
	"list.nick", "list.amount", "list.beta", "list.friends", "list.friends.number",
	"list.friends.details.mail", "list.friends.friends.name", "audit", "audit.name", "audit.details.mail",
	// Not declared: an input name, a typo, a step into a value field, under a group.
	"list.id", "list.orders", "nope", "offset.x", "list.details.nope", "list..name",
}

// TestSelectedIsWhatIsWritten checks Selected against the output itself:
// for every path and call, Selected is true exactly when MakeJSON of an
// input holding every field writes the path (selections, lazy fields,
// flags, versions), and false for every path of a call that fails.
func TestSelectedIsWhatIsWritten(t *testing.T) {
	reg := shapeRegistry(t)
	users := reg.Lookup("users")
	in := shapeInput()
	in["audit"] = map[string]any{"id": 5, "name": "auditor", "age": 50, "mail": "a@x.io"}
	tests := []struct {
		name string
		opts []entity.Option
	}{
		{"no options", nil},
		{"a list's fields", []entity.Option{entity.Select("list(number,name)")}},
		{"a lazy field named", []entity.Option{entity.Select("list(details(mail))")}},
		{"a group whole leaves its lazy field out", []entity.Option{entity.Select("list/friends/details")}},
		{"a lazy ref named, with its flag", []entity.Option{entity.Select("offset,audit"), entity.With("admin")}},
		{"a lazy ref named, without its flag", []entity.Option{entity.Select("offset,list")}},
		{"a star", []entity.Option{entity.Select("*,list(*,details(mail))")}},
		{"flag staff", []entity.Option{entity.With("staff")}},
		{"flag admin", []entity.Option{entity.With("admin")}},
		{"flag guest", []entity.Option{entity.With("guest")}},
		{"flags from the context", []entity.Option{entity.WithContext(entity.NewContext(t.Context(), "staff", "other"))}},
		{"version v1", []entity.Option{entity.Version("v1")}},
		{"version v2.10", []entity.Option{entity.Version("v2.10")}},
		{"Only", []entity.Option{entity.Only("list.friends.name", "list.details.mail")}},
		{"Except", []entity.Option{entity.Except("list.details", "offset")}},
		{"Select and Except", []entity.Option{entity.Select("list(name,details)"), entity.Except("list.details.age")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := users.MakeJSON(in, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(out, &v); err != nil {
				t.Fatal(err)
			}
			for _, p := range selectedPaths {
				has, known := writesPath(v, strings.Split(p, "."))
				if got := users.Selected(p, tt.opts...); known && got != has {
					t.Errorf("Selected(%q) = %v, but the output %s it: %s", p, got, map[bool]string{true: "has", false: "has not"}[has], out)
				}
			}
		})
	}
	failing := []struct {
		name string
		opts []entity.Option
	}{
		{"a spec that does not parse", []entity.Option{entity.Select("list(")}},
		{"a spec naming no field", []entity.Option{entity.Select("list(orders)")}},
		{"an undeclared flag", []entity.Option{entity.With("root")}},
		{"a malformed version", []entity.Option{entity.Version("two")}},
		{"an unknown Only path", []entity.Option{entity.Only("list.orders")}},
		{"Select and Only", []entity.Option{entity.Select("list"), entity.Only("offset")}},
	}
	for _, tt := range failing {
		t.Run("fails: "+tt.name, func(t *testing.T) {
			if _, err := users.MakeJSON(in, tt.opts...); err == nil {
				t.Fatal("the call does not fail")
			}
			for _, p := range selectedPaths {
				if users.Selected(p, tt.opts...) {
					t.Errorf("Selected(%q) in a call that fails", p)
				}
			}
		})
	}
}

// TestSelectedSkipsUnselectedJoins is the handler's case: with
// fields=list(id,name), the orders of each user are not selected, so that
// their query can be skipped.
func TestSelectedSkipsUnselectedJoins(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "order", "id", "number", "", "total", "float", "")
	expose(t, reg, "customer", "id", "number", "", "name", "string", "", "orders", "$order", "",
		"details", "{", "", "mail", "string", "", "details", "}", "")
	page := expose(t, reg, "page", "list", "$customer", "", "next", "string", "")
	tests := []struct {
		fields string
		path   string
		want   bool
	}{
		{"", "list.orders", true},
		{"", "list.orders.total", true},
		{"list(id,name)", "list.orders", false},
		{"list(id,name)", "list.name", true},
		{"list(id,name)", "list", true},
		{"list(id,name)", "next", false},
		{"list(orders(id))", "list.orders.total", false},
		{"list(orders(id))", "list.orders.id", true},
		{"list/details/mail", "list.details.mail", true},
		{"list/details/mail", "list.details", true},
		{"list/details/mail", "list.id", false},
		{"list(", "list", false},
	}
	for _, tt := range tests {
		t.Run(tt.fields+" "+tt.path, func(t *testing.T) {
			if got := page.Selected(tt.path, entity.Select(tt.fields)); got != tt.want {
				t.Errorf("Selected(%q) with fields=%s: %v, want %v", tt.path, tt.fields, got, tt.want)
			}
		})
	}
}

// TestSelectedReadsMergesAndKeys checks paths through a merged $ref (its
// keys are the object's own), through a renamed and key-cased field, a
// key holding a dot, and a writeonly field (never written, whatever Only
// or Except name): output keys, as written.
func TestSelectedReadsMergesAndKeys(t *testing.T) {
	reg := entity.NewRegistry(entity.KeyCase(entity.CamelCase))
	expose(t, reg, "address", "street_name", "string", "", "city", "string", "")
	e := expose(t, reg, "user",
		"name", "string", "",
		"addr", "$address", "merge",
		"a.b", "string", "",
		"old_name", "string", "rename 'display_name'",
		"password", "string", "writeonly",
	)
	tests := []struct {
		path string
		opts []entity.Option
		want bool
	}{
		{"streetName", nil, true},
		{"city", []entity.Option{entity.Select("city")}, true},
		{"streetName", []entity.Option{entity.Select("city")}, false},
		{"addr", nil, false},
		{"addr.city", nil, false},
		{`a\.b`, nil, true},
		{"a.b", nil, false},
		{"display_name", nil, true}, // a rename is the key as written
		{"displayName", nil, false},
		{"oldName", nil, false},
		{"street_name", nil, false},
		{"password", nil, false},
		{"password", []entity.Option{entity.Only("password")}, false},
		{"name", []entity.Option{entity.Only("password")}, false},
		{"name", []entity.Option{entity.Except("password")}, true},
		{"password", []entity.Option{entity.Except("password")}, false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := e.Selected(tt.path, tt.opts...); got != tt.want {
				t.Errorf("Selected(%q): %v, want %v", tt.path, got, tt.want)
			}
		})
	}
}

// TestSelectedPathsCheckAtStart checks the start-up check Selected's doc
// gives: Only refuses a path the entity does not have with an error
// wrapping ErrUnknownField that names it, and takes every declared one
// (lazy, conditional and versioned fields too), whatever else the empty
// input fails.
func TestSelectedPathsCheckAtStart(t *testing.T) {
	reg := shapeRegistry(t)
	users := reg.Lookup("users")
	login := expose(t, entity.NewRegistry(), "login", "name", "string", "req", "password", "string", "writeonly")
	tests := []struct {
		name  string
		e     *entity.Entity
		paths []string
		want  string // what the error says; "": no ErrUnknownField
	}{
		{"declared", users, []string{"offset", "list.details.mail", "list.details.notes.text", "audit.token", "list.amount", "list.beta", "list.friends.friends.name"}, ""},
		{"declared, with an empty input that fails", login, []string{"name"}, ""},
		{"an input name", users, []string{"list.id"}, `no field at "list.id": no "id" here`},
		{"a typo", users, []string{"offset", "list.ordrs"}, `"list.ordrs"`},
		{"a step into a value", users, []string{"list.name.first"}, `"list.name.first"`},
		{"a writeonly field: declared", login, []string{"name", "password"}, ""},
		{"a step into a writeonly value", login, []string{"password.x"}, `no field at "password.x"`},
		{"a typo of a writeonly field", login, []string{"pasword"}, `no field at "pasword"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.e.MakeJSON(nil, entity.Only(tt.paths...))
			if got := errors.Is(err, entity.ErrUnknownField); got != (tt.want != "") {
				t.Fatalf("error %v: ErrUnknownField %v, want %v", err, got, tt.want != "")
			}
			if tt.want != "" && !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
		})
	}
}

// TestSelectedAllocs checks that Selected costs no allocation for a
// selection already compiled (and none without one), so that a handler
// may ask per request.
func TestSelectedAllocs(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	reg := shapeRegistry(t)
	users := reg.Lookup("users")
	ctx := entity.NewContext(t.Context(), "staff")
	tests := []struct {
		name string
		path string
		opts []entity.Option
	}{
		{"no options", "list.friends.details.age", nil},
		{"a selection", "list.details.mail", []entity.Option{entity.Select("list(number,name,details(mail))")}},
		{"a selection and flags", "list.details.notes.text", []entity.Option{entity.Select("list/details/notes"), entity.WithContext(ctx)}},
		{"a version", "list.amount", []entity.Option{entity.Version("v2")}},
		{"a path not selected", "list.orders", []entity.Option{entity.Select("list(number,name)")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			users.Selected(tt.path, tt.opts...) // compiles the selection
			if n := testing.AllocsPerRun(100, func() { users.Selected(tt.path, tt.opts...) }); n != 0 {
				t.Errorf("Selected(%q): %v allocations, want 0", tt.path, n)
			}
		})
	}
}

// TestSelectedInsideAUnion: a path into a union's variants is selected
// when a variant the call writes has it, as the output of a list holding
// each variant shows.
func TestSelectedInsideAUnion(t *testing.T) {
	order := unionRegistry(t)
	in := map[string]any{"id": 1, "payment": map[string]any{"method": "card", "last4": "4242"},
		"history": []any{map[string]any{"method": "card", "last4": "1111"}, map[string]any{"method": "invoice", "po_number": "A-1"}}}
	paths := []string{"history", "history.method", "history.last4", "history.po_number", "history.token", "history.nope", "payment.last4"}
	for _, tt := range []struct {
		name string
		opts []entity.Option
	}{
		{"no options", nil},
		{"one variant's field", []entity.Option{entity.Select("history(last4)")}},
		{"the other's", []entity.Option{entity.Select("id,history(po_number)")}},
		{"the union whole", []entity.Option{entity.Select("history,payment")}},
		{"not the union", []entity.Option{entity.Select("id")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := order.MakeJSON(in, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(out, &v); err != nil {
				t.Fatal(err)
			}
			for _, p := range paths {
				has, known := writesPath(v, strings.Split(p, "."))
				if got := order.Selected(p, tt.opts...); known && got != has {
					t.Errorf("Selected(%q) = %v, but the output %s it: %s", p, got, map[bool]string{true: "has", false: "has not"}[has], out)
				}
			}
		})
	}
}
