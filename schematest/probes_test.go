package schematest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
	"github.com/expose-go/expose/rules"
)

// Probes: inputs on both sides of one rule, each judged by the library
// and by the schema in the Go validator and in ajv, which must agree.

// probe checks each input against the library and the schema of e in
// mode: MakeJSON (strict) accepts it exactly when the Response schema
// takes it as what a response wrote (for inputs in the written form), or
// MakeRequest accepts it exactly when the Request schema takes it.
func probe(t *testing.T, e *entity.Entity, mode schema.Mode, cases []string) {
	t.Helper()
	s, err := schema.JSON(e, mode)
	if err != nil {
		t.Fatal(err)
	}
	sch := compile(t, e.Name()+"."+mode.String(), s)
	var js ajvBatch
	js.schema("probe", s)
	accepted := 0
	for _, in := range cases {
		var err error
		if mode == schema.Response {
			_, err = e.MakeJSON([]byte(in), entity.Strict())
		} else {
			r := httptest.NewRequest("POST", "/", strings.NewReader(in))
			r.Header.Set("Content-Type", "application/json")
			_, err = e.MakeRequest(r)
		}
		ok := err == nil
		if ok {
			accepted++
		}
		if verr := validate(sch, []byte(in)); (verr == nil) != ok {
			t.Errorf("%s: the library accepts %s: %v (%v); the Go validator: %v", mode, in, ok, err, verr)
		}
		js.check("probe", []byte(in), ok, fmt.Sprintf("%s: the library accepts it: %v", mode, ok))
	}
	if accepted == 0 || accepted == len(cases) {
		t.Errorf("%d of %d probes accepted: the probes miss a side", accepted, len(cases))
	}
	js.run(t, 20)
}

// objects returns {"key": v} for each JSON value v.
func objects(key string, values ...string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = `{"` + key + `":` + v + `}`
	}
	return out
}

// quoted returns each string as JSON text.
func quoted(ss ...string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		b, _ := json.Marshal(s)
		out[i] = string(b)
	}
	return out
}

// TestClassEscapeBeforeHyphenAgrees: [\s-z] and [a\s-z] mean white space,
// "-", "z" (and "a") in the rule and in both validators: a range from
// space to z in ECMA-262 would take "m" and "!".
func TestClassEscapeBeforeHyphenAgrees(t *testing.T) {
	reg := mixedRegistry(t, [][]string{{"c", "r", "string", `regex '^[\s-z]+$'`}, {"d", "r", "string", `regex '^[a\s-z]+$'`}})
	values := quoted(" ", "\t", "-", "z", "z-z ", "a", "m", "!", "y", "\v", "\u00a0")
	probe(t, reg.Lookup("c"), schema.Response, objects("r", values...))
	probe(t, reg.Lookup("d"), schema.Response, objects("r", values...))
}

// TestRE2OnlyPatternsAgree: patterns RE2 reads and ECMA-262 with u refuses
// as written (^[\w-.]+$, ^[\d-z]+$) compile in ajv, as the whole schema
// does, and mean there what the rule means.
func TestRE2OnlyPatternsAgree(t *testing.T) {
	reg := mixedRegistry(t, [][]string{{"w", "r", "string", `regex '^[\w-.]+$'`}, {"d", "r", "string", `regex '^[\d-z]+$'`}})
	probe(t, reg.Lookup("w"), schema.Response, objects("r", quoted("a-b.c_9", "-", ".", "a b", "é", "a+b", "a@b")...))
	probe(t, reg.Lookup("d"), schema.Response, objects("r", quoted("9-z", "-", "z", "a", "y", "9")...))
}

// TestLoneBracketPatternAgrees: RE2 reads a ] outside a class as a
// literal; ECMA-262 with the u flag refuses a lone ], so the schema's
// pattern escapes it.
func TestLoneBracketPatternAgrees(t *testing.T) {
	reg := mixedRegistry(t, [][]string{{"r", "tok", "string", "regex 'a]b'"}})
	probe(t, reg.Lookup("r"), schema.Response, objects("tok", quoted("a]b", "xa]by", "ab", "a\\]b")...))
}

// urlProbes are URLs on both sides of the url rule's grammar, international
// ones among them.
var urlProbes = []string{
	"http://example.com", "https://example.com/a/b?q=1&r=2#frag", "HTTPS://EXAMPLE.COM/", "http://localhost:65535",
	"http://localhost:65536", "http://host:99999/", "http://h:00080/", "https://user:p%40ss@example.com/", "http://a@b@c/",
	"http://[::1]/", "http://[2001:db8::8a2e:370:7334]:443/x", "http://[::ffff:192.0.2.1]/", "http://[1::2::3]/",
	"http://[fe80::1%25en0]/", "https://例え.jp/", "https://例え.jp/パス?q=値#節", "https://bücher.example/straße",
	"http://пример.рф/", "https://fr.wikipedia.org/wiki/École", "http://snow☃man.example/", "http://%41.com/",
	"http://h/<>", "http://h/{}", "http://h/|", `http://h/\`, "http://h/^", "http://h/`", `http://h/"`, "http://h/a#b#c",
	"http://h/a%20b", "http://h/%zz", "http://h/a b", "http://h/\u00a0", "http://h/\u2028", "http://h/[x]",
	"http://h/a:b@c;d=e,f!$&'()*+", "ftp://example.com", "http://", "example.com", "http://h:/", "http://-a.com",
}

// TestURLSchemaAgreesWithRule: the url rule's schema takes exactly the
// URLs the rule accepts, international ones included, in both directions
// and both validators (format uri would refuse https://例え.jp/ and take
// http://host:99999/).
func TestURLSchemaAgreesWithRule(t *testing.T) {
	reg := mixedRegistry(t, [][]string{{"u", "site", "string", "url | req"}})
	probe(t, reg.Lookup("u"), schema.Response, objects("site", quoted(urlProbes...)...))
	probe(t, reg.Lookup("u"), schema.Request, objects("site", quoted(urlProbes...)...))
}

// TestNoneRulesAgreeOnKinds: on a none field, min, max, range, len, regex
// and email take in the schema the JSON kinds the rule takes: {"w":true}
// fails max 2 in both.
func TestNoneRulesAgreeOnKinds(t *testing.T) {
	kinds := []string{`"ab"`, `2`, `2.5`, `true`, `false`, `[1,2]`, `{"a":1,"b":2}`, `"user@example.com"`}
	for _, rule := range []string{"min 2", "max 2", "range 1 3", "len 2", "regex 'a'", "email", "in 2 'ab' true"} {
		t.Run(rule, func(t *testing.T) {
			reg := mixedRegistry(t, [][]string{{"n", "w", "none", rule}})
			probe(t, reg.Lookup("n"), schema.Response, objects("w", kinds...))
		})
	}
}

// TestNumberTextBeyondFloat64Refused: text of a number beyond float64
// ("1e400"), on a float field or a string field with num, is refused by
// the library and by the request schema's pattern, in both validators.
func TestNumberTextBeyondFloat64Refused(t *testing.T) {
	reg := mixedRegistry(t, [][]string{{"f", "x", "float", ""}, {"s", "s", "string", "num"}})
	texts := quoted("1e400", "-1e309", "2e308", "1.8e308", "1.5", "1e307", "-0.5e-3", "1e308", "1.7976931348623157e308")
	probe(t, reg.Lookup("f"), schema.Request, objects("x", texts...))
	probe(t, reg.Lookup("s"), schema.Request, objects("s", texts...))
	probe(t, reg.Lookup("s"), schema.Response, objects("s", texts...))
}

// TestInOnNumberAndBoolAgrees: `in 1 2 3` on a number refuses "7" (and 7)
// in a request's text form as the library does, and `in true` on a bool
// refuses 0 and "off", in both validators.
func TestInOnNumberAndBoolAgrees(t *testing.T) {
	reg := mixedRegistry(t, [][]string{{"n", "v", "number", "in 1 2 3"}, {"b", "v", "bool", "in true"}})
	probe(t, reg.Lookup("n"), schema.Request, objects("v", `"7"`, `7`, `"2"`, `"02"`, `"3.0"`, `3`, `"0"`, `"-1"`))
	probe(t, reg.Lookup("b"), schema.Request, objects("v", `0`, `1`, `"off"`, `"ON"`, `"true"`, `false`, `true`, `"0"`))
}

// TestRequestSchemaOfGroupReadFrom: the request schema of a group read
// `from 'addr'` in server data is the group as a client sends it: a nested
// object under the group's key, with its required fields; a top-level
// city is not what it asks for. MakeRequest is held to it once it reads
// groups in the wire form.
func TestRequestSchemaOfGroupReadFrom(t *testing.T) {
	reg := mixedRegistry(t, [][]string{{"s", "name", "string", "req", "where", "{", "from 'addr'", "city", "string", "req", "where", "}", ""}})
	e := reg.Lookup("s")
	s, err := schema.JSON(e, schema.Request)
	if err != nil {
		t.Fatal(err)
	}
	sch := compile(t, "s.request", s)
	var js ajvBatch
	js.schema("s", s)
	for _, tt := range []struct {
		body  string
		valid bool
	}{
		{`{"name":"a","where":{"city":"x"}}`, true},
		{`{"name":"a","city":"x"}`, false},
		{`{"name":"a","addr":{"city":"x"}}`, false},
		{`{"name":"a","where":{}}`, false},
	} {
		if err := validate(sch, []byte(tt.body)); (err == nil) != tt.valid {
			t.Errorf("%s: valid %v, want %v", tt.body, err == nil, tt.valid)
		}
		js.check("s", []byte(tt.body), tt.valid, "the request schema of a group")
	}
	js.run(t, 10)
	if gap := wireFormGap(t, e); gap == "" {
		probe(t, e, schema.Request, []string{`{"name":"a","where":{"city":"x"}}`, `{"name":"a","city":"x"}`, `{"name":"a","where":{}}`})
	}
}

// TestNullableRegisteredFormatCompiles: a nullable field with a registered
// format names null once in its type (twice is refused by validators), in
// the JSON Schema (ajv compiles it) and in an OpenAPI document's components
// (the OpenAPI validator takes it).
func TestNullableRegisteredFormatCompiles(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.RegisterFormat("cents", rules.Kinds(rules.Float), func(v rules.Value, _ []string) (any, error) { return int64(v.Float * 100), nil }); err != nil {
		t.Fatal(err)
	}
	e := reg.MustExpose("price", "amount", "float", "format cents")
	s, err := schema.JSON(e, schema.Response)
	if err != nil {
		t.Fatal(err)
	}
	var js ajvBatch
	js.schema("price", s)
	out, err := e.MakeJSON(map[string]any{"amount": 1.5})
	if err != nil {
		t.Fatal(err)
	}
	js.check("price", out, true, "what MakeJSON wrote")
	js.check("price", []byte(`{"amount":null}`), true, "a null amount")
	js.run(t, 10)
	doc, err := schema.OpenAPI(schema.Info{Title: "t", Version: "1"}, []schema.Route{{Method: "GET", Path: "/p", Response: e}})
	if err != nil {
		t.Fatal(err)
	}
	checkOpenAPI(t, map[string][]byte{"price": doc})
}

// TestSecretValuesNotPublished: a secret field's values "never appear in
// an error, nor in the test kit's output", nor in the schemas: no in
// values, pattern or default in the request schema, the response schema or
// the OpenAPI document an API serves.
func TestSecretValuesNotPublished(t *testing.T) {
	reg := mixedRegistry(t, [][]string{{"login", "user", "string", "req",
		"password", "string", "secret | default 'hunter22'", "pin", "string", "secret | in 'swordfish' | regex '^sw'"}})
	e := reg.Lookup("login")
	texts := map[string][]byte{}
	for _, mode := range []schema.Mode{schema.Response, schema.Request} {
		texts[mode.String()], _ = schema.JSON(e, mode)
	}
	texts["openapi"], _ = schema.OpenAPI(schema.Info{Title: "t", Version: "1"}, []schema.Route{{Method: "POST", Path: "/login", Request: e, Response: e}})
	for what, text := range texts {
		for _, secret := range []string{"hunter22", "swordfish", "^sw"} {
			if bytes.Contains(text, []byte(secret)) {
				t.Errorf("the %s publishes %q", what, secret)
			}
		}
	}
}

// TestNoneInAcceptsText: `in 2 3` on a none field accepts the text "2"
// (in compares a none value's text with the values' texts), and Make
// writes "2"; so does the schema's enum. Likewise `in true` and "true".
func TestNoneInAcceptsText(t *testing.T) {
	reg := mixedRegistry(t, [][]string{{"n", "x", "none", "in 2 3", "b", "none", "in true"}})
	var js ajvBatch
	for _, d := range disagreements(t, reg, "n", 0, 0, nil, &js, `{"x":"2"}`, `{"b":"true"}`, `{"x":4}`, `{"b":false}`) {
		t.Error(d)
	}
	js.run(t, 10)
}

// TestIntegerBoundWrittenExactly: `max 9007199254740993.0` on a number
// field: the rule compares integers exactly (9007199254740993 passes), and
// so does the schema, whose maximum is the integer, not the bound's
// float64. (ajv reads numbers as JavaScript's, so only the Go validator
// sees this one.)
func TestIntegerBoundWrittenExactly(t *testing.T) {
	reg := mixedRegistry(t, [][]string{{"b", "n", "number", "max 9007199254740993.0", "m", "number", "min -9007199254740993.0"}})
	var js ajvBatch
	for _, d := range disagreements(t, reg, "b", 0, 0, nil, &js, `{"n":9007199254740993}`, `{"m":-9007199254740993}`, `{"n":"9007199254740994"}`) {
		t.Error(d)
	}
}

// TestProblemSchemaHoldsForWriteError: the Problem component describes
// what WriteError writes: a validation problem, a bad selection or version,
// a body that is not JSON, a server error, by the Go validator and ajv.
func TestProblemSchemaHoldsForWriteError(t *testing.T) {
	reg := mixedRegistry(t, mixedDecls)
	c := schema.NewComponents()
	if _, err := c.Problem(reg.ProblemTypeBase()); err != nil {
		t.Fatal(err)
	}
	problem := componentSchema(t, c, schema.ProblemName)
	sch := compile(t, "problem", problem)
	var js ajvBatch
	js.schema("problem", problem)
	var errs []error
	for i, opt := range []entity.Option{entity.Select("(("), entity.Version("!!"), entity.Strict()} {
		in := `{}`
		if i == 2 {
			in = `{"age":"x"}`
		}
		_, err := reg.Lookup("mix").MakeJSON([]byte(in), opt)
		errs = append(errs, err)
	}
	r := httptest.NewRequest("POST", "/", strings.NewReader("{"))
	r.Header.Set("Content-Type", "application/json")
	_, err := reg.Lookup("mix").MakeRequest(r)
	errs = append(errs, err, fmt.Errorf("a database error"))
	for _, err := range errs {
		if err == nil {
			t.Fatal("no error")
		}
		w := httptest.NewRecorder()
		reg.WriteError(w, err)
		if err := validate(sch, w.Body.Bytes()); err != nil {
			t.Errorf("WriteError wrote %s, which the Problem component refuses: %v", w.Body.Bytes(), err)
		}
		js.check("problem", w.Body.Bytes(), true, "what WriteError wrote")
	}
	js.run(t, 10)
}

// componentSchema returns a JSON Schema document for the component name of
// c: the components as $defs, their references rewritten to them.
func componentSchema(t testing.TB, c *schema.Components, name string) []byte {
	t.Helper()
	comps, err := c.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	defs := strings.ReplaceAll(string(comps), `"#/components/schemas/`, `"#/$defs/`)
	return []byte(`{"$schema":"` + schema.Dialect + `","$defs":` + defs + `,"$ref":"#/$defs/` + name + `"}`)
}

// TestOpenAPINoDuplicateParameters: a group's field and a top-level field
// that read one query key ("id") are one parameter: "The list MUST NOT
// include duplicated parameters" (OpenAPI 3.1, 4.8.10).
func TestOpenAPINoDuplicateParameters(t *testing.T) {
	reg := mixedRegistry(t, [][]string{{"q", "id", "number", "req", "g", "{", "", "id", "string", "", "g", "}", ""}})
	doc, err := schema.OpenAPI(schema.Info{Title: "t", Version: "1"}, []schema.Route{{Method: "GET", Path: "/q", Request: reg.Lookup("q")}})
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
	checkOpenAPI(t, map[string][]byte{"q": doc})
}

// TestWarningForHooklessRuleOnFormattedDate: a custom rule without a
// Schema hook on a date field written with a format is named in both
// schemas and in the warnings: no rule is ever dropped silently.
func TestWarningForHooklessRuleOnFormattedDate(t *testing.T) {
	reg := entity.NewRegistry()
	weekday := rules.Def{Name: "weekday", Types: rules.Kinds(rules.Time),
		Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(rules.Value) error { return nil }), nil
		}}
	if err := reg.RegisterRule(weekday); err != nil {
		t.Fatal(err)
	}
	e := reg.MustExpose("w", "d", "date", "format unix | weekday")
	if w := strings.Join(schema.Warnings(e), "\n"); !strings.Contains(w, `"weekday"`) {
		t.Errorf("Warnings = %q, nothing about rule weekday", w)
	}
	for _, m := range []schema.Mode{schema.Response, schema.Request} {
		if b, _ := schema.JSON(e, m); !bytes.Contains(b, []byte("weekday")) {
			t.Errorf("the %v schema names weekday nowhere:\n%s", m, b)
		}
	}
}

// TestRefListCountsAgree: the rules on a []$name's count of elements (min,
// max, range, len) are its schema's minItems and maxItems, in both
// directions.
func TestRefListCountsAgree(t *testing.T) {
	reg := mixedRegistry(t, [][]string{
		{"item", "sku", "string", "req"},
		{"order", "items", "[]$item", "req | range 1 2"},
		{"pair", "items", "[]$item", "len 2"},
	})
	lists := []string{`[]`, `[{"sku":"a"}]`, `[{"sku":"a"},{"sku":"b"}]`, `[{"sku":"a"},{"sku":"b"},{"sku":"c"}]`}
	for _, name := range []string{"order", "pair"} {
		for _, mode := range []schema.Mode{schema.Response, schema.Request} {
			probe(t, reg.Lookup(name), mode, objects("items", lists...))
		}
	}
}
