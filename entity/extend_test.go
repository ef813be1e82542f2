package entity_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

func TestExtend(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "user", "POST",
		"id", "number", "",
		"name", "string", "req",
		"mail", "string", "email",
	)
	admin, err := reg.Extend("admin", "user",
		"mail", "", "unexpose",
		"role", "string", "default 'admin'",
	)
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]any{"id": 1, "name": "n", "mail": "m@x.io", "role": "root"}
	t.Run("base's fields, minus the unexposed, then its own", func(t *testing.T) {
		if out, err := shapeAll(t, admin, in); err != nil || out != `{"id":1,"name":"n","role":"root"}` {
			t.Errorf("got %s, %v", out, err)
		}
		_, err := admin.MakeJSON(map[string]any{})
		if fe := fieldErrors(t, err); len(fe) != 1 || fe[0].Path != "name" {
			t.Errorf("base's req: %v", err)
		}
	})
	t.Run("base's methods", func(t *testing.T) {
		if got := admin.Decl().Methods; len(got) != 1 || got[0] != "POST" {
			t.Errorf("methods %q", got)
		}
	})
	t.Run("exposing base again compiles the extension again", func(t *testing.T) {
		expose(t, reg, "user", "id", "number", "", "name", "string", "req", "mail", "string", "", "nick", "string", "")
		if out, err := reg.MakeJSON("admin", in); err != nil || string(out) != `{"id":1,"name":"n","nick":null,"role":"root"}` {
			t.Errorf("got %s, %v", out, err)
		}
		if err := reg.Check(); err != nil {
			t.Errorf("Check: %v", err)
		}
	})
	t.Run("what no longer fits is reported by Check, and the extension keeps its form", func(t *testing.T) {
		expose(t, reg, "user", "id", "number", "", "name", "string", "req", "role", "string", "")
		var l dsl.ErrorList
		if err := reg.Check(); !errors.As(err, &l) {
			t.Fatalf("Check: %v", err)
		}
		var msgs []string
		for _, e := range l {
			msgs = append(msgs, e.Error())
		}
		all := strings.Join(msgs, "\n")
		if !strings.Contains(all, `unexpose: "user" has no field "mail"`) || !strings.Contains(all, `field "role" is a field of "user"`) {
			t.Errorf("Check: %s", all)
		}
		if out, err := reg.MakeJSON("admin", in); err != nil || string(out) != `{"id":1,"name":"n","nick":null,"role":"root"}` {
			t.Errorf("got %s, %v", out, err)
		}
		expose(t, reg, "user", "id", "number", "", "name", "string", "req", "mail", "string", "")
		if err := reg.Check(); err != nil {
			t.Errorf("Check after a fitting base: %v", err)
		}
	})
	t.Run("extensions of extensions follow", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "a", "x", "string", "")
		reg.MustExtend("b", "a", "y", "string", "")
		reg.MustExtend("c", "b", "z", "string", "")
		expose(t, reg, "a", "w", "string", "", "x", "string", "")
		if out, err := reg.MakeJSON("c", map[string]any{"w": 1, "x": 2, "y": 3, "z": 4}); err != nil || string(out) != `{"w":"1","x":"2","y":"3","z":"4"}` {
			t.Errorf("got %s, %v", out, err)
		}
	})
	t.Run("Expose of an extension's name ends it", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "a", "x", "string", "")
		reg.MustExtend("b", "a", "y", "string", "")
		expose(t, reg, "b", "only", "string", "")
		expose(t, reg, "a", "x2", "string", "")
		if out, err := reg.MakeJSON("b", map[string]any{}); err != nil || string(out) != `{"only":null}` {
			t.Errorf("got %s, %v", out, err)
		}
	})
}

func TestExtendErrors(t *testing.T) {
	for _, tt := range []struct {
		name, base string
		decl       []string
		err        string
	}{
		{"redeclared without unexpose", "user", []string{"name", "number", ""}, `field "name" is a field of "user": unexpose it first`},
		{"unexpose of nothing", "user", []string{"nope", "", "unexpose"}, `unexpose: "user" has no field "nope"`},
		{"unexpose with other rules", "user", []string{"name", "", "unexpose | req"}, "write it alone"},
		{"no base", "nobody", []string{"x", "string", ""}, `no entity "nobody" to extend`},
		{"itself", "ext", []string{"x", "string", ""}, "cannot extend itself"},
		{"a syntax error", "user", []string{"x", "nmber", ""}, `unknown type "nmber"`},
		{"unexpose then redeclare is fine", "user", []string{"name", "", "unexpose", "name", "number", ""}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			expose(t, reg, "user", "name", "string", "")
			_, err := reg.Extend("ext", tt.base, tt.decl...)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("got %v, want %q", err, tt.err)
			}
		})
	}
	t.Run("a cycle of extensions", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "a", "x", "string", "")
		reg.MustExtend("b", "a", "y", "string", "")
		if _, err := reg.Extend("a", "b", "z", "string", ""); err == nil || !strings.Contains(err.Error(), "cannot extend itself") {
			t.Errorf("got %v", err)
		}
	})
}

// TestExtendReportsEveryError: a syntax error in Extend's triples hides
// none of the compiler's errors in the others, as in Expose.
func TestExtendReportsEveryError(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "user", "id", "number", "")
	_, err := reg.Extend("admin", "user",
		"role", "string", "msg 'unclosed",
		"level", "number", "rnge 1 5",
	)
	var list dsl.ErrorList
	if !errors.As(err, &list) || len(list) != 2 {
		t.Fatalf("Extend = %v, want 2 errors", err)
	}
	if !strings.Contains(list[0].Msg, "unclosed quote") || list[1].Msg != `unknown rule "rnge" (did you mean "range"?)` {
		t.Errorf("errors %q, %q", list[0].Msg, list[1].Msg)
	}
}
