package entity_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestOneValuePath: the same rules and transforms give the same output and
// the same errors on a field, on a typed-list element and on a field of a
// []$ref's element: every value goes through one path (convert, strict
// type check, input checks, transforms, checks, format, write).
func TestOneValuePath(t *testing.T) {
	cases := []struct {
		typ, rules string
		inputs     []string // JSON values
	}{
		{"string", "trim | lower | min 2 | max 5", []string{`" AB "`, `"a"`, `"toolongvalue"`, `12`, `true`, `null`, `"  "`}},
		{"string", "email", []string{`"a@b.io"`, `"nope"`, `3`}},
		{"string", "regex '^[a-z]+$' | upper", []string{`"abc"`, `"ab1"`}},
		{"number", "range 1 10", []string{`5`, `0`, `"7"`, `"x"`, `12.7`, `1e3`, `"12.5"`}},
		{"number", "in 1 2 3", []string{`2`, `4`, `"3"`}},
		{"float", "min 0.5 | format fixed 2", []string{`1`, `0.25`, `"1.5"`, `"abc"`}},
		{"bool", "", []string{`true`, `"on"`, `1`, `2`, `"yes"`}},
		{"date", "format unix", []string{`"2018-05-17T14:49:34Z"`, `1526568574000`, `"nope"`}},
		{"date", "format date", []string{`"2018-05-17T14:49:34Z"`, `"2018/5/17"`}},
		{"string", "secret | min 3", []string{`"ab"`, `"abcd"`}},
	}
	for _, c := range cases {
		reg := entity.NewRegistry()
		field := expose(t, reg, "field", "v", c.typ, c.rules)
		elemRules, listRules := c.rules, ""
		if r, ok := strings.CutPrefix(c.rules, "secret | "); ok { // a directive of the list, its elements' too
			elemRules, listRules = r, "secret | "
		}
		list := expose(t, reg, "list", "v", "[]"+c.typ, listRules+"each '"+strings.ReplaceAll(elemRules, "'", "''")+"'")
		expose(t, reg, "wrap", "v", c.typ, c.rules)
		refs := expose(t, reg, "refs", "v", "[]$wrap", "")
		for _, strict := range []bool{false, true} {
			var opts []entity.Option
			if strict {
				opts = []entity.Option{entity.Strict()}
			}
			for _, in := range c.inputs {
				name := fmt.Sprintf("%s %s / %s / strict %v", c.typ, c.rules, in, strict)
				fOut, fErr := field.MakeJSON([]byte(`{"v":`+in+`}`), opts...)
				lOut, lErr := list.MakeJSON([]byte(`{"v":[`+in+`]}`), opts...)
				rOut, rErr := refs.MakeJSON([]byte(`{"v":[{"v":`+in+`}]}`), opts...)
				fv, lv, rv := value(fOut, "v"), elem(lOut), elem(rOut)
				if rv != nil {
					rv = value(rv, "v")
				}
				if string(fv) != string(lv) || string(fv) != string(rv) {
					t.Errorf("%s: outputs differ: field %s, list element %s, []$ref element %s", name, fv, lv, rv)
				}
				want := errorsAt(fErr, "v")
				if got := errorsAt(lErr, "v[0]"); got != want {
					t.Errorf("%s: list element errors %q, field errors %q", name, got, want)
				}
				if got := errorsAt(rErr, "v[0].v"); got != want {
					t.Errorf("%s: []$ref element errors %q, field errors %q", name, got, want)
				}
			}
		}
	}
}

// value returns the JSON of key in the object text b, or nil.
func value(b []byte, key string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m["v"]
}

// elem returns the first element of the list under "v" in b, or nil.
func elem(b []byte) json.RawMessage {
	var l []json.RawMessage
	if json.Unmarshal(value(b, "v"), &l) != nil || len(l) == 0 {
		return nil
	}
	return l[0]
}

// errorsAt renders err's field errors at path as "code: message; …".
func errorsAt(err error, path string) string {
	var parts []string
	for _, f := range fieldErrorsOrNone(err) {
		if f.Path != path {
			parts = append(parts, "elsewhere "+f.Path)
			continue
		}
		parts = append(parts, f.Code+": "+f.Message)
	}
	return strings.Join(parts, "; ")
}
