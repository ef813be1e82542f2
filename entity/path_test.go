package entity_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
)

// TestFieldErrorPaths checks Path (where the value was read) and OutputPath
// (where it would be written) at depth, through groups, renames and lists
// whose non-object elements are skipped; and their notation: a key holding
// '.', '[' or ']' is written ["…"], in Path and OutputPath alike.
func TestFieldErrorPaths(t *testing.T) {
	reg := entity.NewRegistry()
	exposeSeed(t, reg)
	expose(t, reg, "renamed",
		"id", "number", "num | rename 'number'",
		"name", "string", "req | rn who",
		"details", "{", "rename info",
		"age", "number", "num",
		"mail", "string", "email | rename email",
		"details", "}", "",
	)
	expose(t, reg, "page",
		"items", "$renamed", "rename list",
		"owner", "$user", "",
		"deep", "{", "",
		"more", "{", "",
		"flag", "bool", "req",
		"more", "}", "",
		"deep", "}", "",
	)
	expose(t, reg, "leaf", "a.b", "string", "req", "ok", "string", "req | rename 'x[1]'")
	expose(t, reg, "root", "list", "$leaf", "", "g.h", "{", "", "inner", "$leaf", "", "g.h", "}", "")
	good := map[string]any{"id": 1, "name": "ok", "age": 1, "mail": "ok@ok.ok"}
	bad := map[string]any{"id": 2, "age": 3, "mail": "nope"}
	type fe struct{ Path, OutputPath, Rule string }
	cases := []struct {
		name   string
		entity string
		in     any
		want   []fe
	}{
		{"seed list, a skipped element", "users",
			map[string]any{"list": []any{good, 42, bad}},
			[]fe{{"list[2].name", "list[1].name", "req"}, {"list[2].mail", "list[1].details.mail", "email"}}},
		{"seed list, several skipped", "users",
			map[string]any{"list": []any{nil, "x", bad, []any{}, good, bad}},
			[]fe{
				{"list[2].name", "list[0].name", "req"}, {"list[2].mail", "list[0].details.mail", "email"},
				{"list[5].name", "list[2].name", "req"}, {"list[5].mail", "list[2].details.mail", "email"},
			}},
		{"top-level group", "user", bad,
			[]fe{{"name", "name", "req"}, {"mail", "details.mail", "email"}}},
		{"renames", "page",
			map[string]any{"items": []any{true, bad}, "owner": bad, "flag": "maybe"},
			[]fe{
				{"items[1].name", "list[0].who", "req"},
				{"items[1].mail", "list[0].info.email", "email"},
				{"owner.name", "owner.name", "req"},
				{"owner.mail", "owner.details.mail", "email"},
				{"flag", "deep.more.flag", "req"},
			}},
		{"top-level list", "user",
			[]any{good, 7, bad},
			[]fe{{"[2].name", "[1].name", "req"}, {"[2].mail", "[1].details.mail", "email"}}},
		{"keys holding '.', '[' and ']'", "root",
			map[string]any{"list": []any{map[string]any{"ok": "y"}, map[string]any{"a.b": "y"}}, "inner": map[string]any{"a.b": "z"}},
			[]fe{
				{`list[0]["a.b"]`, `list[0]["a.b"]`, "req"},
				{"list[1].ok", `list[1]["x[1]"]`, "req"},
				{"inner.ok", `["g.h"].inner["x[1]"]`, "req"},
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := reg.Lookup(c.entity)
			_, err := e.MakeJSON(c.in)
			if err == nil {
				t.Fatal("MakeJSON succeeded")
			}
			var got []fe
			for _, f := range fieldErrors(t, err) {
				got = append(got, fe{f.Path, f.OutputPath, canonicalRule(f.Rule)})
				if f.Message == "" {
					t.Errorf("%s: empty Message", f.Path)
				}
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("field errors (-want +got):\n%s", diff)
			}
			var ve *entity.ValidationError
			errors.As(err, &ve)
			if ve.Entity != c.entity {
				t.Errorf("Entity = %q, want %q", ve.Entity, c.entity)
			}
			msg := err.Error()
			if !strings.Contains(msg, `"`+c.entity+`"`) {
				t.Errorf("Error() = %q does not name the entity %q", msg, c.entity)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w.Path) {
					t.Errorf("Error() = %q does not name the path %q", msg, w.Path)
				}
			}
			if _, isList := c.in.([]any); !isList {
				// Make reports the same errors.
				_, merr := e.Make(c.in)
				if merr == nil || merr.Error() != err.Error() {
					t.Errorf("Make error %v, want %v", merr, err)
				}
			}
		})
	}
}
