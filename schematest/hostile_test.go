package schematest

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// hostileDecls combine the features the schemas describe: groups, renames,
// recursive and merged references, typed lists with each, in, len, bounds,
// regexes RE2 and ECMA-262 read apart, the formats, omitnil/omitempty,
// lazy/if/since/until with a key shared by versions, readonly/writeonly,
// X- fields, secret defaults, from, custom rules.
var hostileDecls = [][]string{
	{"mix", "first_name", "string", "req | min 2 | max 5", "age", "number", "range 0 150 | default 7",
		"score", "float", "min 0.5", "tags", "[]string", "each 'len 3' | max 3", "nums", "[]number", "each 'in 2 4'",
		"when", "date", "in 2024-01-15", "kind", "string", "in 'a' 'b' 'c'", "flag", "bool", "in true",
		"anymin", "none", "min 3", "anylen", "none", "len 2",
		"opt", "string", "omitnil", "emp", "number", "omitempty", "lz", "string", "lazy",
		"adm", "string", "if 'admin'", "old", "string", "until 'v2'", "old", "number", "since 'v2'",
		"ro", "string", "readonly", "wo", "string", "writeonly", "X-Trace", "string", "",
		"sec", "string", "secret | default 'hunter22'", "d", "date", "format unix", "fx", "float", "format fixed 2",
		"lay", "date", "format '2006-01-02'", "fr", "string", "from 'deep.x'"},
	{"node", "name", "string", "req", "kids", "[]$node", "", "next", "$node", "", "up", "$leaf", "merge", "g", "{", "rename 'G'",
		"inner", "$leaf", "", "gx", "number", "req", "g", "}", ""},
	{"leaf", "lname", "string", "regex '^[a-z]+$'", "lnum", "number", "even | range 2 10"},
	{"fmts", "mail", "string", "email", "site", "string", "url", "day", "string", "date", "at", "string", "time",
		"ts", "string", "timestamp", "nm", "string", "num", "bo", "string", "bool", "nb", "number", "bool", "ft", "float", "timestamp",
		"at2", "none", "timestamp", "bn", "none", "bool", "nn", "none", "num"},
	{"upx", "u", "string", "upper | in 'AB' 'CD'", "l", "string", "lower | regex '^[a-z]+$'", "t", "string", "trim | len 3",
		"ul", "[]string", "each 'upper | len 2'"},
	{"rx", "r1", "string", "regex '^a.b$'", "r2", "string", "regex '^\\s+$'", "r3", "string", "regex '^[\\s]+$'",
		"r4", "string", "regex 'x{,3}'", "r5", "string", "regex '^\\w+$'", "r6", "string", "regex '^[^a]$'",
		"r7", "string", "regex '\\bé'", "r8", "string", "regex '^.{3}$'", "r10", "string", "regex '^\\d$'",
		"r11", "string", "regex '(?i)abc'"},
	{"outer", "name", "string", "", "p", "$inner", "merge", "q", "$inner2", "merge | default", "lst", "[]$inner", "", "one", "$inner", "req"},
	{"inner", "city", "string", "req", "zip", "number", "default 5", "grp", "{", "", "gg", "string", "req", "grp", "}", "",
		"wo", "string", "writeonly", "nested", "$inner2", ""},
	{"inner2", "k", "string", "req | default 'kk'", "v", "bool", "omitempty"},
}

// TestHostileCorpusAgrees: the schemas of hostileDecls, in every key case
// and call shape, hold for what MakeJSON (lax and strict) writes and agree
// with what MakeRequest accepts and refuses for 3000 generated inputs
// each. It passes: a regression guard.
func TestHostileCorpusAgrees(t *testing.T) {
	for _, kc := range []entity.KeyCaseStyle{entity.AsDeclared, entity.CamelCase, entity.KebabCase} {
		reg := hostileRegistry(t, hostileDecls, entity.KeyCase(kc))
		for i, d := range hostileDecls {
			t.Run(kc.String()+"/"+d[0], func(t *testing.T) {
				shapes := [][]entity.Option{nil, {entity.With("admin")}, {entity.Version("v1")}, {entity.Version("v3")}, {entity.Select("*,lz")}}
				for j, x := range disagreements(t, reg, d[0], uint64(i), 3000, shapes) {
					if j < 3 {
						t.Error(x)
					}
				}
			})
		}
	}
}

// TestNoneInAcceptsTextTheEnumRefuses: `in 2 3` on a none field accepts
// the text "2" (in compares a none value's text with the values' texts),
// and Make writes "2", but both schemas' enum is [2, 3]: a string is
// refused. Likewise `in true` and "true".
func TestNoneInAcceptsTextTheEnumRefuses(t *testing.T) {
	reg := hostileRegistry(t, [][]string{{"n", "x", "none", "in 2 3", "b", "none", "in true"}})
	ds := disagreements(t, reg, "n", 0, 0, nil, `{"x":"2"}`, `{"b":"true"}`)
	for _, d := range ds {
		t.Error(d)
	}
}

// TestECMAPatternLoneBracket: RE2 reads a ] outside a class as a literal;
// ECMA-262 with the u flag (JSON Schema's dialect) refuses a lone ] ("Lone
// quantifier brackets", node 22: new RegExp("a]b", "u")), so a validator
// that compiles patterns as ECMA-262 (ajv, hyperjump) cannot compile the
// schema. ECMAPattern returns it unchanged.
func TestECMAPatternLoneBracket(t *testing.T) {
	for _, p := range []string{`a]b`, `^a]$`, `[a]]`} {
		got, ok := rules.ECMAPattern(p)
		if !ok {
			continue // refused: a $comment, which is right
		}
		if lone := loneCloseBracket(got); lone >= 0 {
			t.Errorf("ECMAPattern(%q) = %q, which has a ] outside a class at byte %d: a syntax error in ECMA-262 with u", p, got, lone)
		}
	}
	// Through an entity: the schema carries the invalid pattern.
	reg := hostileRegistry(t, [][]string{{"r", "tok", "string", "regex 'a]b'"}})
	b, _ := reg.JSONSchema("r", entity.OutputSchema)
	if bytes.Contains(b, []byte(`"pattern": "a]b"`)) {
		t.Errorf("the output schema has pattern a]b, invalid in ECMA-262 with u:\n%s", b)
	}
}

// loneCloseBracket returns the offset of the first unescaped ] outside a
// class in an ECMA-262 pattern, or -1.
func loneCloseBracket(p string) int {
	inClass := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case c == '[':
			inClass = true
		case c == ']' && inClass:
			inClass = false
		case c == ']':
			return i
		}
	}
	return -1
}

// TestIntegerBoundWrittenExactly: `max 9007199254740993.0` on a number
// field: the rule compares integers exactly (floorDecimal: 9007199254740993
// passes), and MakeRequest accepts 9007199254740993, but the schema's
// maximum is the bound's float64, 9007199254740992, which refuses it.
func TestIntegerBoundWrittenExactly(t *testing.T) {
	reg := hostileRegistry(t, [][]string{{"b", "n", "number", "max 9007199254740993.0", "m", "number", "min -9007199254740993.0"}})
	for _, d := range disagreements(t, reg, "b", 0, 0, nil, `{"n":9007199254740993}`, `{"m":-9007199254740993}`) {
		t.Error(d)
	}
}

// TestProblemSchemaHoldsForWriteError: the Problem component of the
// OpenAPI document describes what WriteError writes. A bad field selection
// or version is answered with type /problems/invalid-fields or
// /problems/invalid-version, which the component's "type" enum does not
// list.
func TestProblemSchemaHoldsForWriteError(t *testing.T) {
	reg := hostileRegistry(t, hostileDecls)
	doc, err := reg.OpenAPI(entity.APIInfo{Title: "t", Version: "1"}, []entity.Route{{Method: "GET", Path: "/m", Request: "mix", Response: "mix"}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	const url = "https://schematest.invalid/openapi.json"
	if err := c.AddResource(url, v); err != nil {
		t.Fatal(err)
	}
	problem, err := c.Compile(url + "#/components/schemas/Problem")
	if err != nil {
		t.Fatal(err)
	}
	for i, opt := range []entity.Option{entity.Select("(("), entity.Version("!!"), entity.Strict()} {
		in := `{}`
		if i == 2 {
			in = `{"age":"x"}` // a validation problem, for contrast
		}
		_, merr := reg.MakeJSON("mix", []byte(in), opt)
		if merr == nil {
			t.Fatal("no error")
		}
		w := httptest.NewRecorder()
		reg.WriteError(w, merr)
		if err := validate(problem, w.Body.Bytes()); err != nil {
			t.Errorf("WriteError wrote %s, which the Problem component refuses: %v", w.Body.Bytes(), err)
		}
	}
}

// TestOpenAPINoDuplicateParameters: a group's field and a top-level field
// that read one input key ("id") become two query parameters named id: "The
// list MUST NOT include duplicated parameters. A unique parameter is
// defined by a combination of a name and location" (OpenAPI 3.1, 4.8.10).
// The JSON body schema combines them with allOf; the parameters do not.
func TestOpenAPINoDuplicateParameters(t *testing.T) {
	reg := hostileRegistry(t, [][]string{{"q", "id", "number", "req", "g", "{", "", "id", "string", "", "g", "}", ""}})
	doc, err := reg.OpenAPI(entity.APIInfo{Title: "t", Version: "1"}, []entity.Route{{Method: "GET", Path: "/q", Request: "q"}})
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Paths map[string]map[string]struct {
			Parameters []struct{ Name, In string }
		}
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range d.Paths["/q"]["get"].Parameters {
		key := p.In + " " + p.Name
		if seen[key] {
			t.Errorf("parameter %s listed twice", key)
		}
		seen[key] = true
	}
}

// TestWarningForHooklessRuleOnFormattedDate: a custom rule without a
// Schema hook on a date field written with a format is named nowhere:
// OutputSchema skips the rules of a formatted field, InputSchema those of a
// date with checks, and SchemaWarnings sees neither. The README promises
// such a rule is "never silently dropped".
func TestWarningForHooklessRuleOnFormattedDate(t *testing.T) {
	reg := entity.NewRegistry()
	weekday := rules.Def{Name: "weekday", Types: rules.Kinds(rules.Time),
		Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(rules.Value) error { return nil }), nil
		}}
	if err := reg.RegisterRule(weekday); err != nil {
		t.Fatal(err)
	}
	reg.MustExpose("w", "d", "date", "format unix | weekday")
	found := false
	for _, w := range reg.SchemaWarnings() {
		found = found || strings.Contains(w, `"weekday"`)
	}
	if !found {
		t.Errorf("SchemaWarnings = %q, nothing about rule weekday", reg.SchemaWarnings())
	}
	for _, m := range []entity.SchemaMode{entity.OutputSchema, entity.InputSchema} {
		b, _ := reg.JSONSchema("w", m)
		if !bytes.Contains(b, []byte("weekday")) {
			t.Errorf("%v schema names weekday nowhere:\n%s", m, b)
		}
	}
}

// TestSecretDefaultNotPublished: a secret field's value "never appears in
// an error, nor in the test kit's output", but its default is published in
// the input schema and in the OpenAPI document ("default": "hunter22"),
// which an API's public /openapi.json serves.
func TestSecretDefaultNotPublished(t *testing.T) {
	reg := hostileRegistry(t, [][]string{{"login", "user", "string", "req", "password", "string", "secret | default 'hunter22'"}})
	b, _ := reg.JSONSchema("login", entity.InputSchema)
	doc, _ := reg.OpenAPI(entity.APIInfo{Title: "t", Version: "1"}, []entity.Route{{Method: "POST", Path: "/login", Request: "login"}})
	for what, text := range map[string][]byte{"input schema": b, "OpenAPI": doc} {
		if bytes.Contains(text, []byte("hunter22")) {
			t.Errorf("the %s publishes the secret field's default", what)
		}
	}
}
