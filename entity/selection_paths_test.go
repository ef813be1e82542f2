package entity_test

import (
	"errors"
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
