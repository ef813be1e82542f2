package entity_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestSelectionPathsThroughMerges: a path of Only or Except that reaches a
// key a merged $ref writes is checked to its end, also when the merged
// object is already left out (Except "*"). Code's paths name what is
// declared: a merge the call's flags hide still declares its keys, as a
// field the flags hide is still declared (a client's Select is judged by
// what the call shows).
func TestSelectionPathsThroughMerges(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	expose(t, reg, "inner", "c", "{", "", "mail", "string", "", "c", "}", "")
	e := expose(t, reg, "outer", "n", "string", "", "m", "$inner", "merge")
	hidden := expose(t, reg, "hiddenmerge", "n", "string", "", "h", "$inner", "merge | if 'admin'")
	tests := []struct {
		name    string
		e       *entity.Entity
		opts    []entity.Option
		unknown bool
	}{
		{"a path into a merged group", e, []entity.Option{entity.Except("c.mail")}, false},
		{"a path past a merged group's field", e, []entity.Option{entity.Except("c.mailx")}, true},
		{"after *, a path past it", e, []entity.Option{entity.Except("*", "c.mailx")}, true},
		{"after *, a path into it", e, []entity.Option{entity.Except("*", "c.mail")}, false},
		{"a merge the flags hide", hidden, []entity.Option{entity.Except("c.mail")}, false},
		{"past a merge the flags hide", hidden, []entity.Option{entity.Except("c.mailx")}, true},
		{"a merge the flags show", hidden, []entity.Option{entity.Except("c.mail"), entity.With("admin")}, false},
		{"Only through a hidden merge", hidden, []entity.Option{entity.Only("c")}, false},
		{"Select through a hidden merge", hidden, []entity.Option{entity.Select("c")}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.e.MakeJSON(map[string]any{"n": "x", "c": map[string]any{"mail": "a@b.c"}}, tt.opts...)
			// Only and Except fail with ErrUnknownField, a client's Select with ErrInvalidFields.
			if got := errors.Is(err, entity.ErrUnknownField) || errors.Is(err, entity.ErrInvalidFields); got != tt.unknown {
				t.Errorf("MakeJSON: %v; want the path refused: %v", err, tt.unknown)
			}
		})
	}
}

// TestStarKeepsALazySubSelection: `*` selects every field of its level but
// the lazy ones, so a lazy field named with a sub-selection keeps it,
// before or after the star: selections add up, whatever their order.
func TestStarKeepsALazySubSelection(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "e", "n", "string", "", "g", "{", "lazy", "a", "string", "", "b", "string", "", "g", "}", "")
	in := map[string]any{"n": "x", "a": "1", "b": "2"}
	const want = `{"n":"x","g":{"a":"1"}}`
	tests := []struct {
		name string
		opt  entity.Option
	}{
		{"Only, the star last", entity.Only("g.a", "*")},
		{"Only, the star first", entity.Only("*", "g.a")},
		{"Select, the star last", entity.Select("g/a,*")},
		{"Select, the star first", entity.Select("*,g/a")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := e.MakeJSON(in, tt.opt); err != nil || string(got) != want {
				t.Errorf("MakeJSON = %s, %v; want %s", got, err, want)
			}
		})
	}
}

// TestSelectionPathsToTheOtherDirection: code's Only and Except paths name
// what is declared, so a writeonly field of a response (and a readonly one
// of a request) is a valid path that selects nothing, as a field the flags
// hide is: Except of it changes nothing, Only of it alone writes `{}`; a
// path past it must still exist. Its value is never written. A client's
// Select that names it fails as one naming an undeclared field does, in
// the same words, so that a client cannot learn it exists.
func TestSelectionPathsToTheOtherDirection(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	expose(t, reg, "cred", "pin", "string", "writeonly", "who", "string", "")
	e := expose(t, reg, "user",
		"name", "string", "",
		"password", "string", "writeonly",
		"score", "number", "if 'admin'",
		"id", "number", "readonly",
		"secret", "{", "writeonly", "token", "string", "", "secret", "}", "",
		"c", "$cred", "merge",
		"key", "$cred", "writeonly",
	)
	in := map[string]any{"name": "ann", "password": "hunter2", "score": 7, "id": 3, "token": "hunter2",
		"c": map[string]any{"pin": "hunter2", "who": "w"}, "key": map[string]any{"pin": "hunter2", "who": "z"}}
	const whole = `{"name":"ann","id":3,"who":"w"}`
	tests := []struct {
		name string
		opts []entity.Option
		want string // the output, or "unknown": ErrUnknownField
	}{
		{"Only of a field the flags hide", []entity.Option{entity.Only("score")}, `{}`},
		{"Only of a writeonly field", []entity.Option{entity.Only("password")}, `{}`},
		{"Only of a writeonly field and another", []entity.Option{entity.Only("name", "password")}, `{"name":"ann"}`},
		{"Except of a writeonly field", []entity.Option{entity.Except("password")}, whole},
		{"Except of a writeonly field after Only", []entity.Option{entity.Only("name", "id"), entity.Except("password")}, `{"name":"ann","id":3}`},
		{"Only into a writeonly group", []entity.Option{entity.Only("secret.token")}, `{}`},
		{"Except of a writeonly group's field", []entity.Option{entity.Except("secret.token")}, whole},
		{"Only of a writeonly group's star", []entity.Option{entity.Only("secret.*")}, `{}`},
		{"Only of a writeonly field of a merged $ref", []entity.Option{entity.Only("pin")}, `{}`},
		{"Except of a writeonly field of a merged $ref", []entity.Option{entity.Except("pin")}, whole},
		{"Only into a writeonly $ref", []entity.Option{entity.Only("key.who")}, `{}`},
		{"Only of a writeonly $ref's writeonly field", []entity.Option{entity.Only("key.pin")}, `{}`},
		{"a readonly field in a response", []entity.Option{entity.Only("id")}, `{"id":3}`},
		{"past a writeonly value", []entity.Option{entity.Except("password.x")}, "unknown"},
		{"past a writeonly group's fields", []entity.Option{entity.Only("secret.tokn")}, "unknown"},
		{"past a writeonly $ref's fields", []entity.Option{entity.Only("key.x")}, "unknown"},
		{"a typo of a writeonly field", []entity.Option{entity.Except("pasword")}, "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := e.MakeJSON(in, tt.opts...)
			switch {
			case tt.want == "unknown":
				if !errors.Is(err, entity.ErrUnknownField) {
					t.Errorf("MakeJSON = %s, %v; want an error wrapping ErrUnknownField", out, err)
				}
			case err != nil || string(out) != tt.want:
				t.Errorf("MakeJSON = %s, %v; want %s", out, err, tt.want)
			}
			if strings.Contains(string(out), "hunter2") {
				t.Errorf("MakeJSON wrote a writeonly value: %s", out)
			}
		})
	}

	t.Run("a request's readonly field", func(t *testing.T) {
		for _, tt := range []struct {
			name string
			opt  entity.Option
			want []string // the keys of the Object
		}{
			{"Only", entity.Only("id"), nil},
			{"Except", entity.Except("id"), []string{"name", "password", "secret", "pin", "who", "key"}},
		} {
			o, err := e.MakeRequest(jsonRequest(t, `{"name":"ann","password":"p","id":4}`), tt.opt)
			if err != nil {
				t.Errorf("%s: MakeRequest: %v", tt.name, err)
				continue
			}
			if got := o.Keys(); !slices.Equal(got, tt.want) {
				t.Errorf("%s: keys %q, want %q", tt.name, got, tt.want)
			}
		}
	})

	t.Run("a client's Select", func(t *testing.T) {
		for _, tt := range []struct {
			name, spec string
		}{
			{"a writeonly field", "password"},
			{"a writeonly field of a merged $ref", "pin"},
			{"a writeonly group", "secret"},
			{"a field the flags hide", "score"},
		} {
			_, err := e.MakeJSON(in, entity.Select(tt.spec))
			_, undeclared := e.MakeJSON(in, entity.Select(strings.Repeat("x", len(tt.spec))))
			if !errors.Is(err, entity.ErrInvalidFields) || undeclared == nil || err.Error() != undeclared.Error() {
				t.Errorf("%s: Select(%q): %v; want the error of an undeclared field, %v", tt.name, tt.spec, err, undeclared)
			}
			if strings.Contains(err.Error(), tt.spec) {
				t.Errorf("%s: the error names the field: %v", tt.name, err)
			}
		}
	})
}
