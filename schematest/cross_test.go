package schematest

import (
	"sort"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity/schema"
)

// combos returns every object of the keys given, each absent (unless
// always) or one of its JSON values: the inputs that tell a cross-field
// rule's sides apart.
func combos(values map[string][]string, always bool) []string {
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := []string{""}
	for _, k := range keys {
		var next []string
		for _, prefix := range out {
			if !always {
				next = append(next, prefix) // absent
			}
			for _, v := range values[k] {
				sep := ""
				if prefix != "" {
					sep = ","
				}
				next = append(next, prefix+sep+`"`+k+`":`+v)
			}
		}
		out = next
	}
	for i, o := range out {
		out[i] = "{" + o + "}"
	}
	return out
}

// TestCrossRuleSchemasAgree: the schemas say each cross-field rule as the
// library judges it, in both directions: present means there and not null,
// a request's default fills a field, and where neither may be null the
// rule is a plain dependentRequired or anyOf of required.
func TestCrossRuleSchemasAgree(t *testing.T) {
	tests := []struct {
		name   string
		decl   []string
		values map[string][]string
		// requestOnly: the values are in the wire form (groups nested,
		// keys renamed), which server data is not.
		requestOnly bool
	}{
		{"required_if", []string{
			"delivery", "string", "in ship pickup",
			"ship", "string", "required_if delivery ship",
		}, map[string][]string{"delivery": {`"ship"`, `"pickup"`, "null"}, "ship": {`"x"`, "null"}}, false},
		{"required_if of several values", []string{
			"kind", "string", "",
			"n", "number", "required_if kind a b",
		}, map[string][]string{"kind": {`"a"`, `"b"`, `"c"`, "null"}, "n": {"1", "null"}}, false},
		{"required_if on a default that is one of the values", []string{
			"delivery", "string", "in ship pickup | default ship",
			"ship", "string", "required_if delivery ship",
		}, map[string][]string{"delivery": {`"ship"`, `"pickup"`, "null"}, "ship": {`"x"`, "null"}}, false},
		{"required_if on a default that is not", []string{
			"delivery", "string", "in ship pickup | default pickup",
			"ship", "string", "required_if delivery ship",
		}, map[string][]string{"delivery": {`"ship"`, `"pickup"`, "null"}, "ship": {`"x"`, "null"}}, false},
		{"required_with", []string{
			"a", "string", "",
			"b", "string", "",
			"c", "string", "required_with a b",
		}, map[string][]string{"a": {`"x"`, "null"}, "b": {`"x"`, "null"}, "c": {`"x"`, "null"}}, false},
		{"required_with on a required sibling", []string{
			"a", "string", "req",
			"c", "string", "req | required_with a",
		}, map[string][]string{"a": {`"x"`, "null"}, "c": {`"x"`, "null"}}, false},
		{"required_with of a field a default fills", []string{
			"a", "string", "default 'x'",
			"c", "string", "required_with a",
		}, map[string][]string{"a": {`"y"`, "null"}, "c": {`"x"`, "null"}}, false},
		{"required_without", []string{
			"phone", "string", "required_without email",
			"email", "string", "",
		}, map[string][]string{"phone": {`"1"`, "null"}, "email": {`"a@b"`, "null"}}, false},
		{"required_without of several", []string{
			"a", "string", "required_without b c",
			"b", "string", "",
			"c", "number", "",
		}, map[string][]string{"a": {`"1"`, "null"}, "b": {`"x"`, "null"}, "c": {"1", "null"}}, false},
		{"excluded_with", []string{
			"a", "string", "",
			"b", "string", "excluded_with a",
		}, map[string][]string{"a": {`"x"`, "null"}, "b": {`"y"`, "null"}}, false},
		{"excluded_with a field a default fills", []string{
			"a", "string", "default 'x'",
			"b", "string", "excluded_with a",
		}, map[string][]string{"a": {`"x"`, "null"}, "b": {`"y"`, "null"}}, false},
		{"each other's excluded", []string{
			"a", "string", "excluded_with b",
			"b", "string", "excluded_with a",
		}, map[string][]string{"a": {`"x"`, "null"}, "b": {`"y"`, "null"}}, false},
		{"in a group", []string{
			"g", "{", "",
			"a", "number", "",
			"b", "number", "required_with a",
			"g", "}", "",
		}, map[string][]string{"g": {`{}`, `{"a":1}`, `{"a":1,"b":2}`, `{"b":null,"a":1}`, `{"a":null}`}}, true},
		{"renamed keys", []string{
			"delivery", "string", "rename 'how'",
			"ship", "string", "rename 'to' | required_if delivery ship",
		}, map[string][]string{"how": {`"ship"`, `"pickup"`}, "to": {`"x"`, "null"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := mixedRegistry(t, [][]string{append([]string{"e"}, tt.decl...)})
			probe(t, reg.Lookup("e"), schema.Request, combos(tt.values, false))
			if !tt.requestOnly && !strings.Contains(strings.Join(tt.decl, " "), "default") {
				// Server data as a response writes it: every key there (a
				// default would write another value than the input's).
				probe(t, reg.Lookup("e"), schema.Response, combos(tt.values, true))
			}
			s, _ := schema.JSON(reg.Lookup("e"), schema.Request)
			if !strings.Contains(string(s), `"description"`) && !strings.Contains(string(s), "dependentRequired") {
				t.Errorf("the schema says nothing of the rule:\n%s", s)
			}
		})
	}
}
