package schema_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// member returns the compacted member key of a JSON object document, ""
// when it has none.
func member(t testing.TB, doc []byte, key string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	if v, ok := m[key]; ok {
		return compact(v)
	}
	return ""
}

// TestCrossRulesInSchemas: each cross-field rule is a constraint of its
// object, said with "required" and, where the field may be null, a
// constraint that refuses null; dependentRequired and anyOf of required
// where they are exact; nothing where the rule is not judged for the
// audience, and a comment where the schema cannot say it.
func TestCrossRulesInSchemas(t *testing.T) {
	tests := []struct {
		name    string
		decl    []string
		mode    schema.Mode
		opts    []entity.Option
		key     string // the member of the object schema
		want    string
		comment string // a property's $comment holds it
	}{
		{"required_if, nullable", []string{"d", "string", "in ship pickup", "s", "string", "required_if d ship"}, schema.Response, nil, "allOf",
			`[{"description":"\"s\" is required when \"d\" is \"ship\"","if":{"properties":{"d":{"const":"ship"}},"required":["d"]},"then":{"properties":{"s":{"not":{"type":"null"}}},"required":["s"]}}]`, ""},
		{"required_if of two values", []string{"d", "number", "", "s", "string", "req | required_if d 1 2"}, schema.Response, nil, "allOf",
			`[{"description":"\"s\" is required when \"d\" is one of 1, 2","if":{"properties":{"d":{"enum":[1,2]}},"required":["d"]},"then":{"properties":{"s":{}},"required":["s"]}}]`, ""},
		{"required_if on a request's default among the values", []string{"d", "string", "default 'ship'", "s", "string", "required_if d ship"}, schema.Request, nil, "allOf",
			`[{"description":"\"s\" is required when \"d\" is \"ship\"","if":{"properties":{"d":{"anyOf":[{"const":"ship"},{"type":"null"}]}}},"then":{"properties":{"s":{"not":{"type":"null"}}},"required":["s"]}}]`, ""},
		{"required_with where neither may be null", []string{"a", "string", "req", "b", "string", "req | required_with a"}, schema.Response, nil, "dependentRequired",
			`{"a":["b"]}`, ""},
		{"required_with a field a default fills", []string{"a", "string", "default 'x'", "b", "string", "required_with a"}, schema.Request, nil, "allOf",
			`[{"description":"\"b\" is required when \"a\" is present","properties":{"b":{"not":{"type":"null"}}},"required":["b"]}]`, ""},
		{"required_without, none nullable", []string{"a", "string", "req | required_without b", "b", "string", "req"}, schema.Response, nil, "allOf",
			`[{"anyOf":[{"properties":{"a":{}},"required":["a"]},{"properties":{"b":{}},"required":["b"]}],"description":"\"a\" is required when \"b\" is absent or null"}]`, ""},
		{"excluded_with", []string{"a", "string", "", "b", "string", "excluded_with a"}, schema.Request, nil, "allOf",
			`[{"description":"\"b\" must be absent or null when \"a\" is present","if":{"properties":{"a":{"not":{"type":"null"}}},"required":["a"]},"then":{"not":{"properties":{"b":{"not":{"type":"null"}}},"required":["b"]}}}]`, ""},
		{"a field the audience does not see", []string{"a", "string", "if 'admin'", "b", "string", "required_with a"}, schema.Response, nil, "allOf", "", ""},
		{"the same, for the admin", []string{"a", "string", "if 'admin'", "b", "string", "required_with a"}, schema.Response, []entity.Option{entity.With("admin")}, "allOf",
			`[{"description":"\"b\" is required when \"a\" is present","if":{"properties":{"a":{"not":{"type":"null"}}},"required":["a"]},"then":{"properties":{"b":{"not":{"type":"null"}}},"required":["b"]}}]`, ""},
		{"a lazy field in a response", []string{"a", "string", "lazy", "b", "string", "required_with a"}, schema.Response, nil, "allOf", "", ""},
		{"a parameter", []string{"a", "string", "query", "b", "string", "required_with a"}, schema.Request, nil, "allOf", "",
			`required_with: \"a\" is a parameter (query), which the body's schema does not hold`},
		{"a secret field's values", []string{"a", "string", "secret", "b", "string", "required_if a x"}, schema.Request, nil, "allOf", "",
			`publishes nothing of the secret field \"a\"'s values`},
		{"a number's value in a request", []string{"a", "number", "", "b", "string", "required_if a 1"}, schema.Request, nil, "allOf",
			`[{"description":"\"b\" is required when \"a\" is 1","if":{"properties":{"a":{"const":1}},"required":["a"]},"then":{"properties":{"b":{"not":{"type":"null"}}},"required":["b"]}}]`,
			`compares \"a\" as the JSON value a request sends`},
		{"no cross-field rule in a patch", []string{"a", "string", "", "b", "string", "required_with a"}, schema.Patch, nil, "allOf", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			if err := reg.DeclareFlags("admin"); err != nil {
				t.Fatal(err)
			}
			e := expose(t, reg, "e", tt.decl...)
			doc, err := schema.JSON(e, tt.mode, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got := member(t, doc, tt.key); got != tt.want {
				t.Errorf("%s = %s\nwant %s", tt.key, got, tt.want)
			}
			if tt.comment != "" && !strings.Contains(compact(doc), tt.comment) {
				t.Errorf("no $comment holds %s:\n%s", tt.comment, doc)
			}
		})
	}
}

// TestCrossRuleInAGroup: a group's rules are constraints of the group's
// object schema, naming its keys.
func TestCrossRuleInAGroup(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "e", "g", "{", "", "a", "number", "req", "b", "number", "req | required_with a", "g", "}", "")
	doc, err := schema.JSON(e, schema.Request)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := property(t, doc, "g")
	if want := `"dependentRequired":{"a":["b"]}`; !strings.Contains(g, want) {
		t.Errorf("the group's schema %s lacks %s", g, want)
	}
}
