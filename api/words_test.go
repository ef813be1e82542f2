package api

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestSchemaWords: the docs page says each schema as it states itself:
// its type, each keyword as a rule.
func TestSchemaWords(t *testing.T) {
	tests := []struct {
		name, schema string
		typ          string
		rules        []string
	}{
		{"a string's length", `{"type":"string","minLength":1,"maxLength":100}`, "string", []string{"1–100 characters"}},
		{"an exact length", `{"type":"string","minLength":5,"maxLength":5}`, "string", []string{"exactly 5 characters"}},
		{"a lower bound", `{"type":"string","minLength":8,"writeOnly":true}`, "string",
			[]string{"at least 8 characters", "write-only: requests send it, responses never write it"}},
		{"one character", `{"type":"string","maxLength":1}`, "string", []string{"at most 1 character"}},
		{"nullable", `{"type":["integer","null"]}`, "integer or null", nil},
		{"nullable by anyOf", `{"anyOf":[{"type":"string","enum":["a","b"]},{"type":"null"}],"default":"a"}`, "string or null",
			[]string{`one of "a", "b"`, `default "a"`}},
		{"a number's bounds", `{"type":"integer","minimum":1,"maximum":99}`, "integer", []string{"from 1 to 99"}},
		{"a 64-bit integer says no bounds", `{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}`, "integer", nil},
		{"one bound of a 64-bit integer", `{"type":"integer","minimum":1,"maximum":9223372036854775807}`, "integer", []string{"at least 1"}},
		{"exclusive bounds", `{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1.5}`, "number", []string{"more than 0, less than 1.5"}},
		{"a request's forms", `{"anyOf":[{"type":"integer","minimum":1},{"type":"string","pattern":"^[1-9]$"},{"type":"null"}]}`,
			"integer (or sent as text) or null", []string{"at least 1"}},
		{"a date", `{"type":"string","format":"date-time"}`, "string (date-time)", nil},
		{"a pattern, what shows nothing escaped", "{\"type\":\"string\",\"pattern\":\"^[^\\u0000 \\u00a0]+$\"}", "string",
			[]string{`matches the pattern ^[^\u0000 \u00A0]+$`}},
		{"a list of references", `{"type":"array","items":{"$ref":"#/components/schemas/item"},"minItems":1,"maxItems":50}`, "list of item", []string{"1–50 items"}},
		{"a list's elements", `{"type":"array","items":{"type":["string","null"],"maxLength":3}}`, "list of string or null", []string{"each: at most 3 characters"}},
		{"a response's object or list", `{"anyOf":[{"$ref":"#/components/schemas/a"},{"type":"array","items":{"$ref":"#/components/schemas/a"}}]}`, "a or list of a", nil},
		{"a const", `{"const":"x"}`, "any value", []string{`exactly "x"`}},
		{"allOf's rules", `{"type":"string","allOf":[{"pattern":"^a"},{"pattern":"b$"}]}`, "string",
			[]string{"matches the pattern ^a", "matches the pattern b$"}},
		{"a comment", `{"type":"string","$comment":"rule \"even\" has no Schema hook"}`, "string", []string{`note: rule "even" has no Schema hook`}},
		{"read-only", `{"type":"integer","readOnly":true}`, "integer", []string{"read-only: responses write it, requests do not send it"}},
		{"a multiple", `{"type":"number","multipleOf":0.01}`, "number", []string{"a multiple of 0.01"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := describe(decode(t, tt.schema), "", 0)
			if got := d.Type.String(); got != tt.typ {
				t.Errorf("type %q, want %q", got, tt.typ)
			}
			var rules []string
			for _, r := range d.Rules {
				rules = append(rules, r.String())
			}
			if strings.Join(rules, "|") != strings.Join(tt.rules, "|") {
				t.Errorf("rules %q, want %q", rules, tt.rules)
			}
		})
	}
}

// TestObjectWords: an object schema's fields are rows, in key order, an
// inline object's under it; its cross-field rules are said.
func TestObjectWords(t *testing.T) {
	d := describe(decode(t, `{"type":"object","required":["b"],
		"properties":{"b":{"type":"string","description":"bee","examples":["x"]},"a":{"type":"object","properties":{"c":{"type":"integer"}},"required":["c"]}},
		"allOf":[{"description":"\"b\" is required when \"a\" is present","if":{},"then":{}}],
		"dependentRequired":{"a":["b"]}}`), "", 0)
	var rows []string
	for _, r := range d.Fields {
		rows = append(rows, strings.Repeat(">", r.Depth)+r.Name+":"+r.Type.String()+map[bool]string{true: "!"}[r.Required]+" "+r.Desc+" "+strings.Join(r.Examples, ","))
	}
	if want := `a:object  |>a.c:integer!  |b:string! bee "x"`; strings.Join(rows, "|") != want {
		t.Errorf("rows %q, want %q", strings.Join(rows, "|"), want)
	}
	var checks []string
	for _, c := range d.Checks {
		checks = append(checks, c.String())
	}
	if want := `"b" is required when "a" is present|"b" required when "a" is present`; strings.Join(checks, "|") != want {
		t.Errorf("checks %q, want %q", checks, want)
	}
}

// TestRelativeHref: the page names the document by a reference relative
// to itself, never by a host.
func TestRelativeHref(t *testing.T) {
	tests := []struct{ from, to, want string }{
		{"/docs", "/openapi.json", "./openapi.json"},
		{"/api/docs", "/api/openapi.json", "./openapi.json"},
		{"/api/docs", "/openapi.json", "../openapi.json"},
		{"/a/b/docs", "/a/c/openapi.json", "../c/openapi.json"},
		{"/docs/", "/docs/openapi.json", "./openapi.json"},
	}
	for _, tt := range tests {
		if got := relative(tt.from, tt.to); got != tt.want {
			t.Errorf("relative(%q, %q) = %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
}

// TestCanonicalVersion: the versions a call does not tell apart are one.
func TestCanonicalVersion(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"v2", "v2", true}, {"2", "v2", true}, {"V2.0", "v2", true}, {"v2.10", "v2.10", true}, {"v02.1.0", "v2.1", true},
		{"v0", "v0", true}, {"1.2.3.4", "v1.2.3.4", true},
		{"", "", false}, {"v", "", false}, {"latest", "", false}, {"1.", "", false}, {"1.2.3.4.5", "", false}, {"1234567890", "", false}, {"vv1", "", false},
	}
	for _, tt := range tests {
		got, ok := canonicalVersion(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("canonicalVersion(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
