package entity_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// ReadJSON reads a value's JSON back as its field holds it: the inverse of
// what Make writes, and what the test kit checks payloads with.
func TestFieldReadJSON(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "all",
		"s", "string", "", "n", "number", "", "f", "float", "", "b", "bool", "",
		"d", "date", "", "l", "list", "", "o", "object", "", "x", "none", "",
		"g", "{", "", "g", "}", "",
	)
	field := map[string]*entity.Field{}
	for _, f := range e.Fields() {
		field[f.Key] = f
	}
	cases := []struct {
		name, field, text string
		want              rules.Value
		why               string
		ok                bool
	}{
		{"string", "s", `"a\nb"`, rules.Value{Kind: rules.String, Str: "a\nb"}, "", true},
		{"string with white space", "s", " \"x\"\n", rules.Value{Kind: rules.String, Str: "x"}, "", true},
		{"a number on a string", "s", `12`, rules.Value{}, "", false},
		{"int", "n", `-12`, rules.Value{Kind: rules.Int, Int: -12}, "", true},
		{"int with a fraction", "n", `1.5`, rules.Value{}, ": not an integer", false},
		{"int out of range", "n", `9223372036854775808`, rules.Value{}, ": out of the int64 range", false},
		{"a string on an int", "n", `"1"`, rules.Value{}, "", false},
		{"float", "f", `1e3`, rules.Value{Kind: rules.Float, Float: 1000}, "", true},
		{"float out of range", "f", `1e400`, rules.Value{}, ": out of the float64 range", false},
		{"bool", "b", `true`, rules.Value{Kind: rules.Bool, Bool: true}, "", true},
		{"not a bool", "b", `1`, rules.Value{}, "", false},
		{"date", "d", `"2020-01-02T03:04:05+09:00"`, rules.Value{Kind: rules.Time, Time: time.Date(2020, 1, 1, 18, 4, 5, 0, time.UTC)}, "", true},
		{"not a date", "d", `"2020-01-02"`, rules.Value{}, ": not an RFC 3339 date", false},
		{"list", "l", `[1,"a"]`, rules.Value{Kind: rules.List, Len: 2, Any: []any{1.0, "a"}}, "", true},
		{"an object on a list", "l", `{}`, rules.Value{}, "", false},
		{"object", "o", `{"k":null}`, rules.Value{Kind: rules.Object, Len: 1, Any: map[string]any{"k": nil}}, "", true},
		{"none integer", "x", `7`, rules.Value{Kind: rules.Int, Int: 7, Any: 7.0}, "", true},
		{"none float", "x", `7.5`, rules.Value{Kind: rules.Float, Float: 7.5, Any: 7.5}, "", true},
		{"none string", "x", `"s"`, rules.Value{Kind: rules.String, Str: "s", Any: "s"}, "", true},
		{"none null", "x", `null`, rules.Value{}, "", true},
		{"a group is no value", "g", `{}`, rules.Value{}, "", false},
		{"empty text", "s", ``, rules.Value{}, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, why, ok := field[c.field].ReadJSON([]byte(c.text))
			if ok != c.ok || why != c.why {
				t.Fatalf("ReadJSON(%s) = %t %q, want %t %q", c.text, ok, why, c.ok, c.why)
			}
			if diff := cmp.Diff(c.want, v); ok && diff != "" {
				t.Errorf("ReadJSON(%s) (-want +got):\n%s", c.text, diff)
			}
		})
	}
}
