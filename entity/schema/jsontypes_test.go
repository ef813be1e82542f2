package schema_test

import (
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// TestJSONTypesSchema: in a registry of JSONTypes a request's number,
// float, bool and date fields are their JSON types, with no text
// alternative, their rules said of the value itself; a parameter, a
// string and a formatted field are what they are in any registry; a
// response is the same in both.
func TestJSONTypesSchema(t *testing.T) {
	decl := []string{
		"i", "number", "min 1 | max 10", "f", "float", "min 0.5", "b", "bool", "", "d", "date", "",
		"di", "date", "in 2024-01-15", "bi", "bool", "in true",
		"s", "string", "min 1", "u", "date", "format unix", "ns", "[]number", "each 'min 0'",
		"g", "{", "", "gi", "number", "", "g", "}", "", "p", "number", "query",
	}
	typed := expose(t, entity.NewRegistry(entity.JSONTypes()), "x", decl...)
	plain := expose(t, entity.NewRegistry(), "x", decl...)
	cases := []struct {
		name, key string
		want      string // the property in the request schema under JSONTypes ("": not said here)
		same      bool   // as in the registry without it
	}{
		{"an integer", "i", `{"format":"int64","maximum":10,"minimum":1,"type":["integer","null"]}`, false},
		{"a float", "f", `{"maximum":1.7976931348623157e+308,"minimum":0.5,"type":["number","null"]}`, false},
		{"a bool", "b", `{"type":["boolean","null"]}`, false},
		{"a date", "d", `{"format":"date-time","type":["string","null"]}`, false},
		{"a date's enum is no spelling of its instant", "di", `{"$comment":"rule \"in\": the request schema does not say it: its keywords describe the value once converted, which no form a request sends it in is","format":"date-time","type":["string","null"]}`, false},
		{"a bool's enum", "bi", `{"anyOf":[{"enum":[true],"type":"boolean"},{"type":"null"}]}`, false},
		{"a string", "s", `{"minLength":1,"type":["string","null"]}`, true},
		{"a formatted date", "u", "", true},
		{"a typed list", "ns", `{"items":{"format":"int64","maximum":9223372036854775807,"minimum":0,"type":"integer"},"type":["array","null"]}`, false},
		{"a group's integer", "g", `{"properties":{"gi":{"format":"int64","maximum":9223372036854775807,"minimum":-9223372036854775808,"type":["integer","null"]}},"type":["object","null"]}`, false},
	}
	for _, mode := range []schema.Mode{schema.Request, schema.Patch} {
		doc, err := schema.JSON(typed, mode)
		if err != nil {
			t.Fatal(err)
		}
		old, err := schema.JSON(plain, mode)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			t.Run(mode.String()+": "+c.name, func(t *testing.T) {
				got, _ := property(t, doc, c.key)
				was, _ := property(t, old, c.key)
				if mode == schema.Request && c.want != "" && got != c.want {
					t.Errorf("%s\nwant %s", got, c.want)
				}
				if !c.same && (strings.Contains(got, `"pattern"`) || strings.Contains(got, "anyOf") && !strings.Contains(got, `{"type":"null"}]`)) {
					t.Errorf("an alternative or a pattern: %s", got)
				}
				if (got == was) != c.same {
					t.Errorf("%s, and without JSONTypes %s: same %v, want %v", got, was, got == was, c.same)
				}
			})
		}
	}
	for _, mode := range []schema.Mode{schema.Response} {
		doc, _ := schema.JSON(typed, mode)
		old, _ := schema.JSON(plain, mode)
		if string(doc) != string(old) {
			t.Errorf("%v: the response schema differs under JSONTypes:\n%s\n%s", mode, doc, old)
		}
	}
}
