package entity_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
)

// shapeRegistry declares the entities the shaping tests use: the seed's
// user with a lazy field, conditional fields, a key shared by version, a
// group inside, and recursive friends; users lists them.
func shapeRegistry(t testing.TB) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin", "staff", "guest"); err != nil {
		t.Fatal(err)
	}
	expose(t, reg, "user",
		"id", "number", "num | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email | lazy",
		"notes", "{", "if 'staff'",
		"text", "string", "",
		"notes", "}", "",
		"details", "}", "",
		"code", "string", "default 'unknown'",
		"token", "string", "if 'admin' 'staff'",
		"nick", "string", "unless 'guest'",
		"amount", "string", "until 'v2'",
		"amount", "number", "since 'v2'",
		"beta", "bool", "since 'v2.10'",
		"friends", "$user", "",
	)
	expose(t, reg, "users",
		"offset", "number", "default 0",
		"limit", "number", "default 0",
		"list", "$user", "",
		"audit", "$user", "if 'admin' | lazy",
	)
	if err := reg.Verify(); err != nil {
		t.Fatal(err)
	}
	return reg
}

// shapeInput is a users input: two users, the first with a friend who has
// a friend.
func shapeInput() map[string]any {
	deep := map[string]any{"id": 3, "name": "deep", "age": 3, "mail": "d@x.io", "text": "n3", "amount": 3, "nick": "d"}
	friend := map[string]any{"id": 2, "name": "friend", "age": 2, "mail": "f@x.io", "text": "n2", "amount": 2, "nick": "f", "friends": []any{deep}}
	return map[string]any{"limit": 2, "list": []any{
		map[string]any{"id": "12", "name": "maachang", "age": 40, "mail": "maachang@maachang.com", "text": "n1", "token": "t", "nick": "m", "amount": "7", "beta": true, "friends": []any{friend}},
		map[string]any{"id": "21", "name": "saito", "age": 27, "mail": "saito@maachang.com", "amount": 9},
	}}
}

// inputForms returns the input as a map, as raw JSON and as structs.
func inputForms(t testing.TB, in map[string]any) map[string]any {
	t.Helper()
	js, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"map": in, "raw JSON": js, "json.RawMessage": json.RawMessage(js), "struct": toStruct(t, js)}
}

// shapeUser and shapeUsers are the structs of shapeInput.
type shapeUser struct {
	ID      any          `json:"id"`
	Name    string       `json:"name"`
	Age     int          `json:"age"`
	Mail    string       `json:"mail"`
	Text    *string      `json:"text,omitempty"`
	Token   *string      `json:"token,omitempty"`
	Nick    *string      `json:"nick,omitempty"`
	Amount  any          `json:"amount"`
	Beta    *bool        `json:"beta,omitempty"`
	Friends *[]shapeUser `json:"friends,omitempty"`
}

type shapeUsers struct {
	Offset int         `json:"offset,omitempty"`
	Limit  int         `json:"limit"`
	List   []shapeUser `json:"list"`
}

func toStruct(t testing.TB, js []byte) shapeUsers {
	var s shapeUsers
	if err := json.Unmarshal(js, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// shapeAll makes v with every output entry point under opts and checks
// they agree: MakeJSON, AppendJSON, Make's Object (its bytes and Get of
// each key it wrote).
func shapeAll(t testing.TB, e *entity.Entity, v any, opts ...entity.Option) (string, error) {
	t.Helper()
	out, err := e.MakeJSON(v, opts...)
	app, aerr := e.AppendJSON([]byte("x"), v, opts...)
	obj, merr := e.Make(v, opts...)
	if (err == nil) != (aerr == nil) || (err == nil) != (merr == nil) {
		t.Fatalf("MakeJSON: %v, AppendJSON: %v, Make: %v", err, aerr, merr)
	}
	if err != nil {
		if aerr.Error() != err.Error() || merr.Error() != err.Error() {
			t.Errorf("errors differ:\n%v\n%v\n%v", err, aerr, merr)
		}
		return "", err
	}
	if !json.Valid(out) {
		t.Fatalf("invalid JSON: %s", out)
	}
	if string(app) != "x"+string(out) {
		t.Errorf("AppendJSON %s, MakeJSON %s", app, out)
	}
	mj, _ := obj.MarshalJSON()
	if !bytes.Equal(mj, out) {
		t.Errorf("Make %s, MakeJSON %s", mj, out)
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(out, &m) == nil {
		for k := range m {
			if _, ok := obj.Get(k); !ok {
				t.Errorf("Object.Get(%q): not found in %s", k, out)
			}
		}
	}
	return string(out), nil
}

func TestSelect(t *testing.T) {
	reg := shapeRegistry(t)
	users := reg.Lookup("users")
	tests := []struct {
		name string
		opts []entity.Option
		want string
	}{
		{"no options: lazy and conditional fields left out, the latest amount",
			nil,
			`{"offset":0,"limit":2,"list":[{"number":12,"name":"maachang","details":{"age":40},"code":"unknown","nick":"m","amount":7,"beta":true,"friends":[{"number":2,"name":"friend","details":{"age":2},"code":"unknown","nick":"f","amount":2,"beta":null,"friends":[{"number":3,"name":"deep","details":{"age":3},"code":"unknown","nick":"d","amount":3,"beta":null,"friends":null}]}]},{"number":21,"name":"saito","details":{"age":27},"code":"unknown","nick":null,"amount":9,"beta":null,"friends":null}]}`},
		{"top-level fields", []entity.Option{entity.Select("offset,limit")}, `{"offset":0,"limit":2}`},
		{"order is the declaration's", []entity.Option{entity.Select("limit,offset")}, `{"offset":0,"limit":2}`},
		{"the empty spec is no selection", []entity.Option{entity.Select("")}, ""},
		{"sub-selection through a list of refs", []entity.Option{entity.Select("list(name)")},
			`{"list":[{"name":"maachang"},{"name":"saito"}]}`},
		{"the issue's spec", []entity.Option{entity.Select("offset,list(name,details(mail))")},
			`{"offset":0,"list":[{"name":"maachang","details":{"mail":"maachang@maachang.com"}},{"name":"saito","details":{"mail":"saito@maachang.com"}}]}`},
		{"slash path", []entity.Option{entity.Select("list/details/age")},
			`{"list":[{"details":{"age":40}},{"details":{"age":27}}]}`},
		{"a group selected whole leaves its lazy field out", []entity.Option{entity.Select("list(details)")},
			`{"list":[{"details":{"age":40}},{"details":{"age":27}}]}`},
		{"a lazy field named is written", []entity.Option{entity.Select("list(details(age,mail))")},
			`{"list":[{"details":{"age":40,"mail":"maachang@maachang.com"}},{"details":{"age":27,"mail":"saito@maachang.com"}}]}`},
		{"star at the top", []entity.Option{entity.Select("*")}, ""},
		{"star inside", []entity.Option{entity.Select("list(*)"), entity.Except("list.friends")},
			`{"list":[{"number":12,"name":"maachang","details":{"age":40},"code":"unknown","nick":"m","amount":7,"beta":true},{"number":21,"name":"saito","details":{"age":27},"code":"unknown","nick":null,"amount":9,"beta":null}]}`},
		{"star and a sub-selection add up, in any order", []entity.Option{entity.Select("list(details(mail),name)")},
			`{"list":[{"name":"maachang","details":{"mail":"maachang@maachang.com"}},{"name":"saito","details":{"mail":"saito@maachang.com"}}]}`},
		{"recursive references, three levels", []entity.Option{entity.Select("list(name,friends(name,friends(name,details/age)))")},
			`{"list":[{"name":"maachang","friends":[{"name":"friend","friends":[{"name":"deep","details":{"age":3}}]}]},{"name":"saito","friends":null}]}`},
		{"a recursive reference selected whole", []entity.Option{entity.Select("list(friends)")},
			`{"list":[{"friends":[{"number":2,"name":"friend","details":{"age":2},"code":"unknown","nick":"f","amount":2,"beta":null,"friends":[{"number":3,"name":"deep","details":{"age":3},"code":"unknown","nick":"d","amount":3,"beta":null,"friends":null}]}]},{"friends":null}]}`},
		{"renamed key", []entity.Option{entity.Select("list(number)")}, `{"list":[{"number":12},{"number":21}]}`},
		{"selection with a flag", []entity.Option{entity.Select("list(name,token)"), entity.With("admin")},
			`{"list":[{"name":"maachang","token":"t"},{"name":"saito","token":null}]}`},
		{"a group behind a flag, inside a group", []entity.Option{entity.Select("list/details"), entity.With("staff")},
			`{"list":[{"details":{"age":40,"notes":{"text":"n1"}}},{"details":{"age":27,"notes":{"text":null}}}]}`},
		{"Select, With and Version together, three levels deep", []entity.Option{entity.Select("list(amount,friends(amount,token,friends(amount)))"), entity.With("staff"), entity.Version("v1.5")},
			`{"list":[{"amount":"7","friends":[{"token":null,"amount":"2","friends":[{"amount":"3"}]}]},{"amount":"9","friends":null}]}`},
		{"a lazy ref needs its flag and its name", []entity.Option{entity.Select("offset,audit"), entity.With("admin")}, `{"offset":0,"audit":null}`},
		{"Only", []entity.Option{entity.Only("offset", "list.details.mail")},
			`{"offset":0,"list":[{"details":{"mail":"maachang@maachang.com"}},{"details":{"mail":"saito@maachang.com"}}]}`},
		{"Only with a star", []entity.Option{entity.Only("list.details.*")},
			`{"list":[{"details":{"age":40}},{"details":{"age":27}}]}`},
		{"Except", []entity.Option{entity.Except("offset", "list.details", "list.friends", "list.code", "list.nick", "list.amount", "list.beta")},
			`{"limit":2,"list":[{"number":12,"name":"maachang"},{"number":21,"name":"saito"}]}`},
		{"Except inside a selection", []entity.Option{entity.Select("list(name,details(age,mail))"), entity.Except("list.details.age")},
			`{"list":[{"name":"maachang","details":{"mail":"maachang@maachang.com"}},{"name":"saito","details":{"mail":"saito@maachang.com"}}]}`},
		{"Except through recursion", []entity.Option{entity.Only("list.name", "list.friends"), entity.Except("list.friends.friends", "list.friends.details", "list.friends.code", "list.friends.nick", "list.friends.amount", "list.friends.number", "list.friends.beta")},
			`{"list":[{"name":"maachang","friends":[{"name":"friend"}]},{"name":"saito","friends":null}]}`},
		{"several Except options add up", []entity.Option{entity.Select("offset,limit"), entity.Except("offset"), entity.Except("limit")}, `{}`},
	}
	full, err := shapeAll(t, users, shapeInput())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		for form, in := range inputForms(t, shapeInput()) {
			t.Run(tt.name+"/"+form, func(t *testing.T) {
				want := tt.want
				if want == "" {
					want = full
				}
				got, err := shapeAll(t, users, in, tt.opts...)
				if err != nil {
					t.Fatal(err)
				}
				if !jsonEqual([]byte(got), []byte(want)) {
					t.Errorf("\n got %s\nwant %s", got, want)
				}
			})
		}
	}
}

func TestSelectErrors(t *testing.T) {
	reg := shapeRegistry(t)
	users := reg.Lookup("users")
	tests := []struct {
		name   string
		spec   string
		offset int
		msg    string
	}{
		{"unknown top-level name", "offset,nmae", 7, `no field here has that name`},
		{"unknown nested name", "list(name,details(mial))", 18, `no field here has that name (there are "age", "mail")`},
		{"input name instead of the output name", "list(id)", 5, `no field here has that name`},
		{"sub-selection of a value field", "offset(a)", 0, `the field is of type number: it has no fields to select`},
		{"path through a value field", "list/name/x", 5, `the field is of type string`},
		{"unclosed paren", "list(name", 9, "expected ')' to close the '(' at byte 4"},
		{"stray close paren", "list)", 4, "a ')' closes no '('"},
		{"empty name", "offset,,limit", 7, "expected a field name"},
		{"trailing comma", "offset,", 7, "expected a field name"},
		{"empty parens", "list()", 5, "expected a field name"},
		{"star with a sub-selection", "*(a)", 0, "* selects every field of its level"},
		{"star in the middle of a path", "*/name", 0, "* selects every field of its level"},
		{"too long", strings.Repeat("a,", 2100), 4096, "longer than 4096 bytes"},
		{"a field behind a flag the call lacks does not exist", "offset,audit", 7, `no field here has that name (there are "offset", "limit", "list")`},
		{"nor is it listed", "list(nmae)", 5, `(there are "number", "name", "details", "code", "nick", "amount", "beta", "friends")`},
		{"too deep", strings.Repeat("list(", 70) + "name" + strings.Repeat(")", 70), 320, "nests more than 64 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := users.MakeJSON(shapeInput(), entity.Select(tt.spec))
			var ie *entity.InputError
			if !errors.As(err, &ie) || !errors.Is(err, entity.ErrInvalidFields) {
				t.Fatalf("got %v, want an InputError wrapping ErrInvalidFields", err)
			}
			if ie.StatusCode() != http.StatusBadRequest || !ie.HasOffset() || ie.Offset != tt.offset {
				t.Errorf("status %d, offset %d (%v), want 400 at %d", ie.StatusCode(), ie.Offset, ie.HasOffset(), tt.offset)
			}
			if !strings.Contains(ie.Msg, tt.msg) || !strings.Contains(ie.Msg, fmt.Sprintf("at byte %d", tt.offset)) {
				t.Errorf("message %q, want it to hold %q and the offset", ie.Msg, tt.msg)
			}
			rec := httptest.NewRecorder()
			users.Write(rec, shapeInput(), entity.Select(tt.spec))
			if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `"offset":`+fmt.Sprint(tt.offset)) {
				t.Errorf("Write: %d %s", rec.Code, rec.Body)
			}
		})
	}
}

func TestOnlyExceptErrors(t *testing.T) {
	reg := shapeRegistry(t)
	users := reg.Lookup("users")
	tests := []struct {
		name string
		opt  entity.Option
		msg  string
	}{
		{"unknown Only path", entity.Only("list.nmae"), `no field at "list.nmae": no "nmae" here`},
		{"unknown Except path", entity.Except("list.details.mial"), `no "mial" here`},
		{"Except path under a field left out already", entity.Except("list.details.mail.x"), `"mail" is a string field: it has no fields`},
		{"Except of an unknown path under a hidden field", entity.Except("audit.nope"), `no "nope" here`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := users.MakeJSON(shapeInput(), tt.opt)
			if !errors.Is(err, entity.ErrUnknownField) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("got %v, want ErrUnknownField holding %q", err, tt.msg)
			}
			var ie *entity.InputError
			if errors.As(err, &ie) {
				t.Errorf("an InputError: a programming error must answer 500")
			}
			rec := httptest.NewRecorder()
			users.Write(rec, shapeInput(), tt.opt)
			if rec.Code != http.StatusInternalServerError || strings.Contains(rec.Body.String(), "nmae") {
				t.Errorf("Write: %d %s", rec.Code, rec.Body)
			}
		})
	}
	t.Run("a field unless hides is unknown to Select, known to Only", func(t *testing.T) {
		_, err := users.MakeJSON(shapeInput(), entity.Select("list(name,nick)"), entity.With("guest"))
		if !errors.Is(err, entity.ErrInvalidFields) || !strings.Contains(err.Error(), `no field here has that name (there are "number", "name", "details", "code", "amount"`) {
			t.Errorf("Select: got %v", err)
		}
		out, err := users.MakeJSON(shapeInput(), entity.Only("list.name", "list.nick"), entity.With("guest"))
		if err != nil || string(out) != `{"list":[{"name":"maachang"},{"name":"saito"}]}` {
			t.Errorf("Only: got %s, %v", out, err)
		}
	})
	t.Run("Select and Only together", func(t *testing.T) {
		if _, err := users.MakeJSON(shapeInput(), entity.Select("offset"), entity.Only("limit")); err == nil || !strings.Contains(err.Error(), "one Select or Only") {
			t.Errorf("got %v", err)
		}
	})
}

func TestFlags(t *testing.T) {
	reg := shapeRegistry(t)
	user := reg.Lookup("user")
	in := map[string]any{"name": "n", "token": "secret-ish", "nick": "k", "text": "note"}
	tests := []struct {
		name string
		opts []entity.Option
		want string // the keys of the output, in order
	}{
		{"no flags", nil, "number,name,details,code,nick,amount,beta,friends"},
		{"if: one of its flags", []entity.Option{entity.With("staff")}, "number,name,details,code,token,nick,amount,beta,friends"},
		{"if: the other flag", []entity.Option{entity.With("admin")}, "number,name,details,code,token,nick,amount,beta,friends"},
		{"unless hides", []entity.Option{entity.With("guest")}, "number,name,details,code,amount,beta,friends"},
		{"unless wins over if", []entity.Option{entity.With("admin", "guest")}, "number,name,details,code,token,amount,beta,friends"},
		{"several With add up", []entity.Option{entity.With("admin"), entity.With("guest")}, "number,name,details,code,token,amount,beta,friends"},
		{"from the context", []entity.Option{entity.WithContext(entity.NewContext(context.Background(), "admin"))}, "number,name,details,code,token,nick,amount,beta,friends"},
		{"a context without flags", []entity.Option{entity.WithContext(context.Background())}, "number,name,details,code,nick,amount,beta,friends"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := shapeAll(t, user, in, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(keysOf(t, out), ","); got != tt.want {
				t.Errorf("keys %s, want %s (%s)", got, tt.want, out)
			}
		})
	}
	t.Run("NewContext adds to the flags it holds", func(t *testing.T) {
		ctx := entity.NewContext(entity.NewContext(context.Background(), "staff", "admin"), "guest", "admin")
		if got := strings.Join(entity.FlagsFromContext(ctx), ","); got != "admin,guest,staff" {
			t.Errorf("flags %s", got)
		}
	})
	t.Run("With of an undeclared flag", func(t *testing.T) {
		_, err := user.MakeJSON(in, entity.With("amdin"))
		if !errors.Is(err, entity.ErrUnknownFlag) || !strings.Contains(err.Error(), `"amdin"`) {
			t.Errorf("got %v", err)
		}
		rec := httptest.NewRecorder()
		user.Write(rec, in, entity.With("amdin"))
		if rec.Code != http.StatusInternalServerError {
			t.Errorf("Write: %d", rec.Code)
		}
	})
}

// keysOf returns the keys of a JSON object in order.
func keysOf(t testing.TB, js string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(js))
	var keys []string
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", js)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestFlagDeclarations(t *testing.T) {
	tests := []struct {
		name    string
		declare []string // before Expose; nil: none
		rules   string
		expose  string // Expose's error, "" for none
		check   string // Check's error, "" for none
	}{
		{"declared", []string{"admin"}, "if 'admin'", "", ""},
		{"undeclared once some are", []string{"admin"}, "if 'amdin'", `if: flag "amdin" is not declared (the registry declares admin)`, ""},
		{"unless undeclared", []string{"admin"}, "unless 'x'", `unless: flag "x" is not declared`, ""},
		{"no flags declared: Check refuses", nil, "if 'admin'", "", `flag "admin" is not declared`},
		{"no flag named", nil, "if", `rule "if" takes at least one argument, a flag`, ""},
		{"empty flag", nil, "if ''", "a flag is a non-empty name", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			if tt.declare != nil {
				if err := reg.DeclareFlags(tt.declare...); err != nil {
					t.Fatal(err)
				}
			}
			_, err := reg.Expose("e", "a", "string", tt.rules)
			if tt.expose != "" {
				if err == nil || !strings.Contains(err.Error(), tt.expose) {
					t.Fatalf("Expose: %v, want %q", err, tt.expose)
				}
				return
			}
			if err != nil {
				t.Fatalf("Expose: %v", err)
			}
			err = reg.Verify()
			if tt.check == "" && err != nil || tt.check != "" && (err == nil || !strings.Contains(err.Error(), tt.check)) {
				t.Fatalf("Check: %v, want %q", err, tt.check)
			}
		})
	}
	t.Run("a registry knows at most 64 flags", func(t *testing.T) {
		reg := entity.NewRegistry()
		var names []string
		for i := range 64 {
			names = append(names, fmt.Sprint("f", i))
		}
		if err := reg.DeclareFlags(names...); err != nil {
			t.Fatal(err)
		}
		if err := reg.DeclareFlags("one-more"); err == nil || !strings.Contains(err.Error(), "at most 64") {
			t.Errorf("got %v", err)
		}
		if err := reg.DeclareFlags("f3"); err != nil {
			t.Errorf("declaring a flag again: %v", err)
		}
		if got := len(reg.DeclaredFlags()); got != 64 {
			t.Errorf("%d flags declared", got)
		}
	})
}

func TestVersions(t *testing.T) {
	reg := shapeRegistry(t)
	user := reg.Lookup("user")
	in := map[string]any{"name": "n", "amount": 12, "beta": true}
	tests := []struct {
		version string
		want    string
	}{
		{"", `{"amount":12,"beta":true}`},
		{"v1", `{"amount":"12"}`},
		{"1.9", `{"amount":"12"}`},
		{"v2", `{"amount":12}`},
		{"V2.0.0", `{"amount":12}`},
		{"v2.9", `{"amount":12}`},
		{"v2.10", `{"amount":12,"beta":true}`},
		{"v3", `{"amount":12,"beta":true}`},
	}
	for _, tt := range tests {
		t.Run("version "+tt.version, func(t *testing.T) {
			out, err := shapeAll(t, user, in, entity.Version(tt.version), entity.Only("amount", "beta"))
			if err != nil {
				t.Fatal(err)
			}
			if out != tt.want {
				t.Errorf("got %s, want %s", out, tt.want)
			}
		})
	}
	t.Run("Get reads the amount each version wrote", func(t *testing.T) {
		for v, want := range map[string]any{"v1": "12", "v2": int64(12)} {
			o, err := user.Make(in, entity.Version(v))
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := o.Get("amount"); got != want {
				t.Errorf("%s: Get = %#v, want %#v", v, got, want)
			}
		}
	})
	for _, bad := range []string{"v", "2.", ".2", "v2..1", "2.x", "v1.2.3.4.5", "1234567890", "-1", "v 2"} {
		t.Run("malformed "+bad, func(t *testing.T) {
			_, err := user.MakeJSON(in, entity.Version(bad))
			var ie *entity.InputError
			if !errors.As(err, &ie) || !errors.Is(err, entity.ErrInvalidVersion) || ie.StatusCode() != 400 {
				t.Errorf("got %v, want a 400 InputError wrapping ErrInvalidVersion", err)
			}
		})
	}
}

func TestVersionDeclarations(t *testing.T) {
	tests := []struct {
		name string
		decl []string
		err  string
	}{
		{"disjoint ranges share a key", []string{"a", "string", "until 'v2'", "a", "number", "since 'v2'"}, ""},
		{"three disjoint ranges", []string{"a", "string", "until 'v2'", "a", "number", "since 'v2' | until 'v3'", "a", "bool", "since 'v3'"}, ""},
		{"a rename into a versioned key", []string{"a", "string", "until 'v2'", "b", "number", "since 'v2' | rename 'a'"}, ""},
		{"overlapping ranges", []string{"a", "string", "until 'v3'", "a", "number", "since 'v2'"}, `output key "a" is already written by field "a" (triple 1): fields may share a key only when their since/until version ranges are disjoint`},
		{"one side unversioned", []string{"a", "string", "", "a", "number", "since 'v2'"}, "version ranges are disjoint"},
		{"empty range", []string{"a", "string", "since 'v3' | until 'v2'"}, "since v3 and until v2 leave no version"},
		{"malformed version", []string{"a", "string", "since 'two'"}, `since: "two" is not a version`},
		{"no version", []string{"a", "string", "until"}, `rule "until" takes one argument`},
		{"lazy takes no argument", []string{"a", "string", "lazy 1"}, `rule "lazy" takes no arguments`},
		{"on a group", []string{"g", "{", "since 'v2' | lazy | if 'x'", "a", "string", "", "g", "}", ""}, ""},
		{"on a ref", []string{"r", "$e", "until 'v2' | unless 'x'"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := entity.NewRegistry().Expose("e", tt.decl...)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("got %v, want %q", err, tt.err)
			}
		})
	}
}

// TestShapeRequest: a selection on a request shapes the answer, and every
// declared field is still read and checked, lazy ones and those the
// selection leaves out.
func TestShapeRequest(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "signup",
		"name", "string", "req",
		"mail", "string", "req | email",
		"info", "{", "",
		"age", "number", "req | min 18",
		"info", "}", "",
		"bio", "string", "lazy | max 5",
	)
	tests := []struct {
		name  string
		body  string
		spec  string
		want  string
		fails []string // the failing paths
	}{
		{"valid, selection shapes the answer", `{"name":"n","mail":"a@b.io","info":{"age":20},"bio":"hi"}`, "name", `{"name":"n"}`, nil},
		{"lazy named", `{"name":"n","mail":"a@b.io","info":{"age":20},"bio":"hi"}`, "name,bio", `{"name":"n","bio":"hi"}`, nil},
		{"no selection: lazy left out but checked", `{"name":"n","mail":"a@b.io","info":{"age":20},"bio":"too long"}`, "", "", []string{"bio"}},
		{"unselected req still required", `{"name":"n"}`, "name", "", []string{"mail", "info.age"}},
		{"unselected group still checked", `{"name":"n","mail":"a@b.io","info":{"age":3}}`, "name", "", []string{"info.age"}},
		{"unselected lazy still checked", `{"name":"n","mail":"a@b.io","info":{"age":20},"bio":"too long"}`, "name", "", []string{"bio"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/?fields=x", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			o, err := e.MakeRequest(req, entity.Select(tt.spec))
			if tt.fails != nil {
				var paths []string
				for _, fe := range fieldErrors(t, err) {
					paths = append(paths, fe.Path)
				}
				if strings.Join(paths, ",") != strings.Join(tt.fails, ",") {
					t.Errorf("failing %q, want %q", paths, tt.fails)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := o.MarshalJSON(); string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	t.Run("a bad selection fails before the body is read", func(t *testing.T) {
		req := httptest.NewRequest("POST", "/", strings.NewReader(`{"name":`))
		req.Header.Set("Content-Type", "application/json")
		_, err := e.MakeRequest(req, entity.Select("nope"))
		if !errors.Is(err, entity.ErrInvalidFields) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("a nil request is a request", func(t *testing.T) {
		_, err := e.MakeRequest(nil, entity.Select("name"))
		if got := len(fieldErrors(t, err)); got != 3 {
			t.Errorf("%d field errors, want 3 (name, mail, age): %v", got, err)
		}
	})
	t.Run("Bind", func(t *testing.T) {
		req := httptest.NewRequest("POST", "/", strings.NewReader(`{"name":"n"}`))
		req.Header.Set("Content-Type", "application/json")
		var dst struct{ Name string }
		if err := e.Bind(req, &dst, entity.Select("name")); len(fieldErrors(t, err)) != 2 {
			t.Errorf("got %v", err)
		}
	})
}

// TestShapeObjectInput: an Object made whole is shaped again by a call
// with a selection, and returned as it is by one without.
func TestShapeObjectInput(t *testing.T) {
	reg := shapeRegistry(t)
	user := reg.Lookup("user")
	o, err := user.Make(map[string]any{"name": "n", "age": 3, "mail": "m@x.io"})
	if err != nil {
		t.Fatal(err)
	}
	if same, _ := user.Make(o); same != o {
		t.Errorf("Make(o) without options made another Object")
	}
	got, err := user.MakeJSON(o, entity.Select("name"))
	if err != nil || string(got) != `{"name":"n"}` {
		t.Errorf("got %s, %v", got, err)
	}
}

// TestShapeObjectInputKeepsText: an Object made again writes the none,
// list and object values it holds as their text (numbers as spelled, keys
// in order, escapes kept), as raw JSON input passes them through.
func TestShapeObjectInputKeepsText(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "e", "o", "object", "", "l", "list", "", "x", "none", "", "n", "none", "")
	other := expose(t, reg, "other", "o", "object", "", "x", "none", "")
	for _, tt := range []struct {
		name string
		make *entity.Entity
		in   any
		want string
	}{
		{"the largest uint64", e, map[string]any{"o": map[string]any{"n": uint64(math.MaxUint64)}},
			`{"o":{"n":18446744073709551615},"l":null,"x":null,"n":null}`},
		{"numbers as spelled", e, []byte(`{"o":{"f":1.50,"e":1E3},"l":[18446744073709551615,0.10],"x":-0.0}`),
			`{"o":{"f":1.50,"e":1E3},"l":[18446744073709551615,0.10],"x":-0.0,"n":null}`},
		{"keys in order, escapes kept", e, []byte(`{"o":{"b":"\u00e9","a":"<"},"x":{"z":1,"y":[]}}`),
			`{"o":{"b":"\u00e9","a":"\u003c"},"l":null,"x":{"z":1,"y":[]},"n":null}`},
		{"an Object of another entity", other, []byte(`{"o":{"n":18446744073709551615,"a":1},"x":[1.50]}`),
			`{"o":{"n":18446744073709551615,"a":1},"l":null,"x":[1.50],"n":null}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, err := tt.make.Make(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if tt.make == e && o.String() != tt.want {
				t.Errorf("made: %s, want %s", o, tt.want)
			}
			for what, opt := range map[string]entity.Option{"Version": entity.Version("v1"), "Select": entity.Select("o,l,x,n"), "Strict": entity.Strict()} {
				if got, err := e.MakeJSON(o, opt); err != nil || string(got) != tt.want {
					t.Errorf("%s: got %s, %v; want %s", what, got, err, tt.want)
				}
			}
		})
	}
}

// TestShapeObjectInputJudgedAsRead: the checks of a none or list field
// judge the values of an Object made again as raw JSON input's are
// judged: a string as a string, a number as a number, a list by its
// length (here, the checks of another version than the Object's).
func TestShapeObjectInputJudgedAsRead(t *testing.T) {
	for _, tt := range []struct {
		name, typ, rules string
		in               any
		fails            string // the code of the one error, if any
	}{
		{"a numeric string, num", "none", "num", "-3.9", ""},
		{"a string, regex", "none", "regex '^[a-z]+$'", "abc", ""},
		{"a string, regex failing", "none", "regex '^[a-z]+$'", "ab1", "regex"},
		{"a number, min", "none", "min 2", 2.5, ""},
		{"a number, min failing", "none", "min 2", 1.5, "min"},
		{"a list, len", "list", "len 2", []any{1, "a"}, ""},
		{"a list, len failing", "list", "len 3", []any{1, "a"}, "len"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := expose(t, entity.NewRegistry(), "e", "v", tt.typ, "until 'v2'", "v", tt.typ, "since 'v2' | "+tt.rules)
			o, err := e.Make(map[string]any{"v": tt.in}, entity.Version("v1"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.MakeJSON(o, entity.Version("v2"))
			got := ""
			if fs := fieldErrorsOrNone(err); len(fs) == 1 {
				got = fs[0].Code
			} else if err != nil {
				t.Fatalf("got %v", err)
			}
			if got != tt.fails {
				t.Errorf("got %q, want %q", got, tt.fails)
			}
		})
	}
}

// TestShapeObjectInputErrorsAtKeys: an Object made again is read by its
// keys, and its errors are at them: a renamed or key-cased field's, a
// group's, a reference's, as the paths of a request are.
func TestShapeObjectInputErrorsAtKeys(t *testing.T) {
	reg := entity.NewRegistry(entity.KeyCase(entity.CamelCase))
	expose(t, reg, "city", "zip_code", "string", "until 'v2'", "zip_code", "string", "since 'v2' | min 5")
	e := expose(t, reg, "e",
		"n", "string", "until 'v2' | rename 'label'",
		"n", "string", "since 'v2' | rename 'label' | min 5",
		"user_name", "string", "until 'v2'",
		"user_name", "string", "since 'v2' | min 5",
		"the_group", "{", "",
		"home_city", "$city", "",
		"the_group", "}", "",
	)
	o, err := e.Make(map[string]any{"n": "abc", "user_name": "abc", "home_city": map[string]any{"zip_code": "abc"}}, entity.Version("v1"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.MakeJSON(o, entity.Version("v2"), entity.DenyUnknown())
	var got []string
	for _, f := range fieldErrorsOrNone(err) {
		got = append(got, f.Path+" "+f.Pointer+" "+f.Code)
	}
	slices.Sort(got)
	want := []string{"label /label min", "theGroup.homeCity.zipCode /theGroup/homeCity/zipCode min", "userName /userName min"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestObjectUnderAReferenceUsedAsItIs: an Object that an entity made for
// a response, given under a reference to that entity (in a list too), is
// used as it is in a call without shaping, as Make returns one: not made
// again, nor judged by Strict or DenyUnknown; a call with shaping makes it
// again.
func TestObjectUnderAReferenceUsedAsItIs(t *testing.T) {
	reg := entity.NewRegistry()
	item := expose(t, reg, "item", "tags", "[]$tag", "", "n", "number", "")
	expose(t, reg, "tag", "k", "string", "")
	e := expose(t, reg, "e", "one", "$item", "", "many", "$item", "", "typed", "[]$item", "")
	o, err := item.Make(map[string]any{"tags": []any{nil}, "n": 1.5})
	if err != nil {
		t.Fatal(err)
	}
	const made = `{"tags":[null],"n":1}`
	if o.String() != made {
		t.Fatalf("made %s, want %s", o, made)
	}
	in := map[string]any{"one": o, "many": []*entity.Object{o}, "typed": []any{o}}
	for _, tt := range []struct {
		name string
		opts []entity.Option
		want string // the output, or "!" and the errors' paths
	}{
		{"as it is", nil, `{"one":` + made + `,"many":[` + made + `],"typed":[` + made + `]}`},
		{"strictly, as it is", []entity.Option{entity.Strict(), entity.DenyUnknown()}, `{"one":` + made + `,"many":[` + made + `],"typed":[` + made + `]}`},
		{"made again under shaping", []entity.Option{entity.Version("v1"), entity.Strict()}, "!many[0].tags[0] one.tags[0] typed[0].tags[0]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := e.MakeJSON(in, tt.opts...)
			if paths, ok := strings.CutPrefix(tt.want, "!"); ok {
				var got []string
				for _, f := range fieldErrorsOrNone(err) {
					got = append(got, f.Path)
				}
				slices.Sort(got)
				if strings.Join(got, " ") != paths {
					t.Errorf("got %q (%v), want %s", got, err, paths)
				}
				return
			}
			if err != nil || string(out) != tt.want {
				t.Errorf("got %s, %v; want %s", out, err, tt.want)
			}
		})
	}
}

// TestOnlyExceptThroughVersionedKeys: an Only or Except path through a key
// that fields share by version ranges goes into each of them that has the
// rest of the path, whatever the call's version: it is refused only when
// none has.
func TestOnlyExceptThroughVersionedKeys(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "money", "n", "string", "", "c", "string", "")
	e := expose(t, reg, "e", "a", "string", "", "amount", "string", "until 'v2'", "amount", "$money", "since 'v2'")
	in := map[string]any{"a": "x", "amount": map[string]any{"n": "7", "c": "EUR"}}
	for _, tt := range []struct {
		name string
		opts []entity.Option
		want string // the output, or "!" and the error's text
	}{
		{"Only into the v2 field, a v1 call", []entity.Option{entity.Only("amount.n"), entity.Version("v1")}, `{}`},
		{"Only into the v2 field, a v2 call", []entity.Option{entity.Only("amount.n"), entity.Version("v2")}, `{"amount":{"n":"7"}}`},
		{"Only into the v2 field, the latest", []entity.Option{entity.Only("amount.n")}, `{"amount":{"n":"7"}}`},
		{"Except into the v2 field, a v1 call", []entity.Option{entity.Except("amount.n"), entity.Version("v1")}, `{"a":"x","amount":null}`},
		{"Except into the v2 field, a v2 call", []entity.Option{entity.Except("amount.n"), entity.Version("v2")}, `{"a":"x","amount":{"c":"EUR"}}`},
		{"a path none of them has", []entity.Option{entity.Only("amount.x")}, `!no "x" here`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := e.MakeJSON(in, tt.opts...)
			if msg, ok := strings.CutPrefix(tt.want, "!"); ok {
				if err == nil || !strings.Contains(err.Error(), msg) {
					t.Errorf("got %s, %v; want an error with %s", out, err, msg)
				}
				return
			}
			if err != nil || string(out) != tt.want {
				t.Errorf("got %s, %v; want %s", out, err, tt.want)
			}
		})
	}
}

// TestMaskCacheMemoryBounded: a client sending endless different specs
// costs a compile each, and the cache's memory stays bounded (the engine's
// TestMaskCacheBounded counts what it holds).
func TestMaskCacheMemoryBounded(t *testing.T) {
	reg := shapeRegistry(t)
	users := reg.Lookup("users")
	in := shapeInput()
	var before, after runtimeMem
	before.read()
	for i := range 20000 {
		spec := fmt.Sprintf("offset,list(name,details(age),friends(name%s))", strings.Repeat(",name", i%50+1))
		if i%2 == 0 {
			spec = fmt.Sprintf("list(number),%s", strings.Repeat("limit,", i%97+1)) + "offset"
		}
		if _, err := users.MakeJSON(in, entity.Select(spec+strings.Repeat(" ", i/200))); err != nil {
			t.Fatal(err)
		}
	}
	after.read()
	if grown := after.heap - before.heap; grown > 16<<20 {
		t.Errorf("heap grew by %d bytes over 20000 specs", grown)
	}
}

// runtimeMem is the live heap after a collection.
type runtimeMem struct{ heap int64 }

func (m *runtimeMem) read() {
	runtime.GC()
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	m.heap = int64(s.HeapAlloc)
}

// FuzzSelect: any spec either fails with a 400 InputError whose offset
// lies within it, or writes valid JSON holding only keys of the whole
// output; it never panics.
func FuzzSelect(f *testing.F) {
	for _, s := range []string{"offset", "list(name,details(mail))", "list/friends/friends(name)", "*", "list(*)", "a(", "list)", ",", "list(details/*)", " list ( name ) "} {
		f.Add(s, "v2")
	}
	f.Add(strings.Repeat("next/", 60)+"name", "")
	reg := shapeRegistry(f)
	users := reg.Lookup("users")
	in := shapeInput()
	full, err := users.MakeJSON(in, entity.With("admin", "staff"))
	if err != nil {
		f.Fatal(err)
	}
	// A recursive $ref shared by two version ranges: a selection through it
	// must stay linear in the spec (it once doubled at each step).
	node := expose(f, reg, "node", "name", "string", "", "next", "$node", "until 'v2'", "next", "$node", "since 'v2'")
	chain := map[string]any{"name": "a", "next": map[string]any{"name": "b", "next": map[string]any{"name": "c"}}}
	f.Fuzz(func(t *testing.T, spec, version string) {
		start := time.Now()
		if _, err := node.MakeJSON(chain, entity.Select(spec), entity.Version(version)); err != nil && !errors.Is(err, entity.ErrInvalidFields) && !errors.Is(err, entity.ErrInvalidVersion) {
			t.Fatalf("node: Select(%q): %v", spec, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("node: Select(%q) took %v", spec, d)
		}
		out, err := users.MakeJSON(in, entity.Select(spec), entity.Version(version), entity.With("admin", "staff"))
		if err != nil {
			var ie *entity.InputError
			if !errors.As(err, &ie) || ie.StatusCode() != 400 {
				t.Fatalf("Select(%q) Version(%q): %v, want a 400 InputError", spec, version, err)
			}
			if errors.Is(err, entity.ErrInvalidFields) && (!ie.HasOffset() || ie.Offset < 0 || ie.Offset > len(spec)) {
				t.Fatalf("Select(%q): offset %d out of the spec", spec, ie.Offset)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("Select(%q): invalid JSON %s", spec, out)
		}
		if version == "" && spec == "" && !bytes.Equal(out, full) {
			t.Fatalf("no selection: %s, want %s", out, full)
		}
		for _, k := range keysOf(t, string(out)) {
			if !bytes.Contains(full, []byte(`"`+k+`":`)) {
				t.Fatalf("Select(%q) wrote key %q, not in the whole output", spec, k)
			}
		}
	})
}

// Per-call shaping where keys are shared, cached and hidden.

// TestShapeSharedKeyRecursionBlowup: a recursive $ref declared twice
// under one key (disjoint version ranges, as the README invites for
// versioned shapes) doubles the mask at every step of a Select path, since
// selectTerm walks every node named(key) returns and builds a separate
// sub-mask for each: `next/next/…/name` n deep builds 2^n entries. 18
// steps (94 bytes) take ~1 s; 22 steps did not finish in 5 s; the 64
// levels a spec may nest are forever, from one anonymous GET.
func TestShapeSharedKeyRecursionBlowup(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "node",
		"name", "string", "",
		"next", "$node", "until 'v2'",
		"next", "$node", "since 'v2'",
	)
	for _, opt := range []func(int) entity.Option{
		func(n int) entity.Option { return entity.Select(strings.Repeat("next/", n) + "name") },
		func(n int) entity.Option {
			return entity.Select(strings.Repeat("next(", n) + "name" + strings.Repeat(")", n))
		},
	} {
		start := time.Now()
		done := make(chan error, 1)
		go func() {
			_, err := e.MakeJSON(map[string]any{"name": "x"}, opt(18))
			done <- err
		}()
		select {
		case err := <-done:
			if d := time.Since(start); d > 50*time.Millisecond {
				t.Errorf("an 18-step spec took %v (err %v): the mask is exponential in the spec's depth", d, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("an 18-step spec did not compile in 10s")
		}
	}
}

// TestShapeMaskCacheKeyCollision: the cache key is 'S'+spec, 'E'+path+NUL
// …, so Select("name")+Except("secret") and Select("nameEsecret\x00") share
// a key: a spec naming no field is served the other call's mask (200)
// instead of a 400. (shape.go, r.shape's key: no length prefix.)
func TestShapeMaskCacheKeyCollision(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "u", "name", "string", "", "secret", "string", "")
	in := map[string]any{"name": "n", "secret": "s"}
	if _, err := e.MakeJSON(in, entity.Select("name"), entity.Except("secret")); err != nil {
		t.Fatal(err)
	}
	out, err := e.MakeJSON(in, entity.Select("nameEsecret\x00"))
	if !errors.Is(err, entity.ErrInvalidFields) {
		t.Errorf("Select(%q) after a Select+Except call: %s, %v; want ErrInvalidFields", "nameEsecret\x00", out, err)
	}
}

// TestShapeSharedKeySubSelection: a key shared by version between a
// value field and a $ref ("amount" a string until v2, a $money since v2:
// the README's own use case, a shape that changes by version) cannot be
// sub-selected by a v2 client: selectTerm fails on the first node named
// (the string) before trying the $ref. Only/Except alike.
func TestShapeSharedKeySubSelection(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "money", "value", "number", "", "currency", "string", "")
	e := expose(t, reg, "u",
		"amount", "string", "until 'v2'",
		"amount", "$money", "since 'v2'",
	)
	in := map[string]any{"amount": map[string]any{"value": 3, "currency": "EUR"}}
	for _, opt := range []entity.Option{entity.Select("amount(currency)"), entity.Select("amount/currency"), entity.Only("amount.currency")} {
		out, err := e.MakeJSON(in, opt, entity.Version("v3"))
		if err != nil || string(out) != `{"amount":{"currency":"EUR"}}` {
			t.Errorf("%+v at v3: %s, %v; want {\"amount\":{\"currency\":\"EUR\"}}", opt, out, err)
		}
	}
}

// TestShapeSharedKeyGetDecodesAsWriter: README "Object.Get decodes a
// shared key as the field that wrote it". It decodes it as the first field
// whose JSON kind matches (memberIter.next, node.writes): a float field of
// v2 writing 12 is read back as the number field of v1, int64(12).
func TestShapeSharedKeyGetDecodesAsWriter(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "u",
		"f", "number", "until 'v2'",
		"f", "float", "since 'v2'",
	)
	o, err := e.Make(map[string]any{"f": 12.0}, entity.Version("v3"))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := o.Get("f"); fmt.Sprintf("%T", v) != "float64" {
		t.Errorf("v3 Get(f) of %s = %T %v, want float64 (the float field wrote it)", o, v, v)
	}
}

// TestShapeShadowedFieldHiddenByFlag: "amount" a string until v2 and a
// number since v2 behind `if 'admin'`. A call without a version and
// without admin writes neither (the v1 field is shadowed, the v2 one
// hidden), and Select("amount") is accepted and writes {}: a selected,
// visible field silently missing.
func TestShapeShadowedFieldHiddenByFlag(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	e := expose(t, reg, "u",
		"amount", "string", "until 'v2'",
		"amount", "number", "since 'v2' | if 'admin'",
	)
	for _, opts := range [][]entity.Option{nil, {entity.Select("amount")}} {
		out, err := e.MakeJSON(map[string]any{"amount": 5}, opts...)
		if err != nil || !strings.Contains(string(out), `"amount"`) {
			t.Errorf("%+v: %s, %v; want the key amount (the one field the call may see)", opts, out, err)
		}
	}
}

// TestShapeDenyUnknownRevealsHiddenFields: a field hidden by the call's
// flags "does not exist for a selection", but DenyUnknown tells a client
// whether a name is a hidden field: 200 for "role" (if 'admin'), 400 for
// a name that is no field, on a request and a response alike.
func TestShapeDenyUnknownRevealsHiddenFields(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	e := expose(t, reg, "u", "name", "string", "", "role", "string", "if 'admin'")
	outcome := func(body string) string {
		r := httptest.NewRequest("POST", "/", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		_, err := e.MakeRequest(r, entity.DenyUnknown())
		_, err2 := e.MakeJSON([]byte(body), entity.DenyUnknown())
		return fmt.Sprint(err == nil, err2 == nil)
	}
	if hidden, none := outcome(`{"name":"n","role":"r"}`), outcome(`{"name":"n","zzzz":"r"}`); hidden != none {
		t.Errorf("a non-admin tells a hidden field from no field: ok=%s for role, ok=%s for zzzz", hidden, none)
	}
}

// TestShapeObjectReuseSkipsShaping: "an *Object the same entity made is
// used as it is" (entity.go Make/AppendJSON: madeBy ignores how it was
// made). An Object made With("admin") and written by a call without flags
// writes the admin-only field; one made with Select comes back valid
// although it lacks a req field.
func TestShapeObjectReuseSkipsShaping(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	e := expose(t, reg, "u", "name", "string", "", "token", "string", "if 'admin'", "id", "string", "req")
	adminView, err := e.Make(map[string]any{"name": "n", "token": "T", "id": "1"}, entity.With("admin"))
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	if err := e.Write(rec, adminView); err != nil || strings.Contains(rec.Body.String(), "token") {
		t.Errorf("a call without flags wrote %s (%v): the if 'admin' field", rec.Body, err)
	}
	partial, err := e.Make(map[string]any{"name": "n"}, entity.Select("name"))
	if err != nil {
		t.Fatal(err)
	}
	if o, err := e.Make(partial); err == nil {
		t.Errorf("Make of a selected Object without id (req): %s, nil error", o)
	}
}

// TestShapeSpecErrorText: messages of bad specs, table-driven.
func TestShapeSpecErrorText(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "u", "name", "string", "", "x", "string", "rename 'a\xffb'")
	for _, c := range []struct{ name, spec, want string }{
		// Nothing of the spec is quoted: the offset says where.
		{"non-ASCII byte after ')'", "name(x)é", "at byte 7, expected ',' after the sub-selection"},
	} {
		_, err := e.MakeJSON(map[string]any{}, entity.Select(c.spec))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Select(%q): %v, want %q in it", c.name, c.spec, err, c.want)
		}
	}
}

// TestShapeSelectKeyAsWritten: a key with invalid UTF-8 is written with
// U+FFFD (README), and the duplicate check compares keys "as a client reads
// them", but a selection matches the raw bytes: the client cannot select
// the key it reads, and the error lists "a\xffb", a key it never saw.
func TestShapeSelectKeyAsWritten(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "u", "name", "string", "", "x", "string", "rename 'a\xffb'")
	out, err := e.MakeJSON(map[string]any{"x": "y"}, entity.Select("a\ufffdb"))
	if err != nil || string(out) != `{"a\ufffdb":"y"}` {
		t.Errorf("Select of the key as written: %s, %v", out, err)
	}
}

// TestShapeFailedExposeConsumesFlags: condRule stores every flag a rule
// names into the registry's table while compiling, even when the Expose
// then fails: 64 failed declarations (a typo loop in a config reload, a
// test) fill the table and DeclareFlags refuses the real flag.
func TestShapeFailedExposeConsumesFlags(t *testing.T) {
	reg := entity.NewRegistry()
	for i := range 70 {
		if _, err := reg.Expose("bad", "a", "string", fmt.Sprintf("if 'f%d' | nosuchrule", i)); err == nil {
			t.Fatal("no declaration error")
		}
	}
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Errorf("DeclareFlags after failed Exposes: %v", err)
	}
}

// TestShapeRepeatedVersionRule: `since 'v3' | since 'v1'` is accepted
// and the last wins silently (condRule overwrites), as do two untils; a
// repeated bound is almost certainly a mistake and should be a
// declaration error, as `since` after `until` that leaves nothing is.
func TestShapeRepeatedVersionRule(t *testing.T) {
	for _, rules := range []string{"since 'v3' | since 'v1'", "until 'v1' | until 'v3'"} {
		if _, err := entity.NewRegistry().Expose("u", "x", "string", rules); err == nil {
			t.Errorf("%q: no declaration error", rules)
		}
	}
}

// TestShapeLongSpecAllocates: "a call with a spec already seen allocates
// nothing for it" (Select's doc, README): r.shape builds the cache key in a
// [256]byte array, so a spec past ~246 bytes allocates on every call.
func TestShapeLongSpecAllocates(t *testing.T) {
	reg := entity.NewRegistry()
	var decl, names []string
	for i := range 30 {
		decl = append(decl, fmt.Sprintf("field_number_%02d", i), "string", "")
		names = append(names, fmt.Sprintf("field_number_%02d", i))
	}
	e := expose(t, reg, "u", decl...)
	opt := entity.Select(strings.Join(names, ","))
	in := map[string]any{"field_number_00": "x"}
	buf := make([]byte, 0, 8192)
	if n := testing.AllocsPerRun(100, func() { buf, _ = e.AppendJSON(buf[:0], in, opt) }); n != 0 {
		t.Errorf("a cached %d-byte spec: %v allocations per call, want 0", len(strings.Join(names, ",")), n)
	}
}

// TestShapeContextFlagsUnknownToRegistry: middleware sets roles once for
// the whole server (README); an entity of a registry that declares no
// flags, or other ones, fails every call of an admin with a 500 when the
// handler passes WithContext. With's typo guard makes sense for code; a
// context's flags are the server's, not this registry's.
func TestShapeContextFlagsUnknownToRegistry(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "u", "name", "string", "")
	ctx := entity.NewContext(context.Background(), "admin")
	rec := httptest.NewRecorder()
	if err := e.Write(rec, map[string]any{"name": "x"}, entity.WithContext(ctx)); err != nil || rec.Code != 200 {
		t.Errorf("Write with a context flag the registry does not know: %d %v", rec.Code, err)
	}
}
