package schema_test

import (
	"bytes"

	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
	"github.com/expose-go/expose/rules"
)

// TestJSONGolden: the schema of every entity of the corpus, in both
// modes, is the golden file testdata/NAME.MODE.json (go test -run
// JSONGolden -update rewrites them), and the same bytes every time.
func TestJSONGolden(t *testing.T) {
	reg, names := corpus(t)
	for _, name := range names {
		if name == "undeclared" {
			continue // TestJSONErrors
		}
		for _, mode := range []schema.Mode{schema.Response, schema.Request} {
			t.Run(name+"/"+mode.String(), func(t *testing.T) {
				e := reg.Lookup(name)
				got, err := schema.JSON(e, mode)
				if err != nil {
					t.Fatal(err)
				}
				if again, _ := schema.JSON(e, mode); !bytes.Equal(got, again) {
					t.Fatalf("two calls give two schemas")
				}
				golden(t, filepath.Join("testdata", name+"."+mode.String()+".json"), got)
			})
		}
	}
}

// TestJSONGoldenAudiences: the schemas of the corpus's shaped entity for
// each audience (flags, versions) are golden files too.
func TestJSONGoldenAudiences(t *testing.T) {
	reg, _ := corpus(t)
	e := reg.Lookup("shaped")
	for _, tt := range []struct {
		name string
		opts []entity.Option
	}{
		{"admin", []entity.Option{entity.With("admin")}},
		{"guest-v1", []entity.Option{entity.With("guest"), entity.Version("v1")}},
		{"v3", []entity.Option{entity.Version("v3")}},
	} {
		for _, mode := range []schema.Mode{schema.Response, schema.Request} {
			t.Run(tt.name+"/"+mode.String(), func(t *testing.T) {
				got, err := schema.JSON(e, mode, tt.opts...)
				if err != nil {
					t.Fatal(err)
				}
				golden(t, filepath.Join("testdata", "shaped-"+tt.name+"."+mode.String()+".json"), got)
			})
		}
	}
}

func TestJSONErrors(t *testing.T) {
	reg, _ := corpus(t)
	tests := []struct {
		name string
		e    *entity.Entity
		mode schema.Mode
		want string
	}{
		{"a $ref to nothing", reg.Lookup("undeclared"), schema.Response, `schema: entity "undeclared": field "ghost": $nobody names no entity`},
		{"a $ref to nothing, request", reg.Lookup("undeclared"), schema.Request, `schema: entity "undeclared": field "ghost": $nobody names no entity`},
		{"no such mode", reg.Lookup("user"), schema.Mode(7), "schema: Mode(7) is no mode: use Response, Request or Patch"},
		{"a nil entity", reg.Lookup("nobody"), schema.Response, "schema: a nil *entity.Entity (Lookup finds nothing under a name that is not exposed)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := schema.JSON(tt.e, tt.mode)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("JSON = %s, %v; want the error %q", b, err, tt.want)
			}
			if b != nil {
				t.Errorf("JSON returned %s with its error", b)
			}
		})
	}
}

func TestWarnings(t *testing.T) {
	reg, _ := corpus(t)
	hookless := []string{
		`entity "custom", field "m": rule "even" has no Schema hook: the schema does not say what it checks`,
		`entity "custom", field "n": rule "even" has no Schema hook: the schema does not say what it checks`,
		`entity "custom", field "s": rule "caps" has no Schema hook: the schema does not say what it checks`,
	}
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"hookless rules", schema.Warnings(reg.Lookup("custom")), hookless},
		{"none", schema.Warnings(reg.Lookup("user")), nil},
		{"a nil entity", schema.Warnings(nil), nil},
		{"a float's bounds and a transform", schema.Warnings(reg.Lookup("typedlists")), []string{
			`entity "typedlists", field "tags[]": rule "len": it judges the value once transformed by "upper": the request schema says it in its description, not in keywords`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.Join(tt.got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Warnings() =\n%s\nwant\n%s", strings.Join(tt.got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestJSONProperties: the schema of one field "v", declared with the type
// and rules given, in each mode (its property, compacted), and whether it
// is required. "-" wants no property.
func TestJSONProperties(t *testing.T) {
	tests := []struct {
		name, typ, rules string
		mode             schema.Mode
		want             string
		required         bool
	}{
		{"a string may be null", "string", "", schema.Response, `{"type":["string","null"]}`, true},
		{"req: never null", "string", "req", schema.Response, `{"type":"string"}`, true},
		{"a default: never null", "number", "default 3", schema.Response, `{"format":"int64","type":"integer"}`, true},
		{"a null default on none", "none", "default null", schema.Response, `{}`, true},
		{"none with req: anything but null", "none", "req", schema.Response, `{"type":["array","boolean","number","object","string"]}`, true},
		{"a date", "date", "", schema.Response, `{"format":"date-time","type":["string","null"]}`, true},
		{"an enum and null", "number", "bool", schema.Response, `{"anyOf":[{"enum":[0,1],"format":"int64","type":"integer"},{"type":"null"}]}`, true},
		{"rules clash: allOf", "string", "regex '^a' | regex 'b$'", schema.Response,
			`{"anyOf":[{"allOf":[{"pattern":"b$"}],"pattern":"^a","type":"string"},{"type":"null"}]}`, true},
		{"bounds: the tighter", "string", "min 2 | min 4 | max 9 | range 1 7", schema.Response, `{"maxLength":7,"minLength":4,"type":["string","null"]}`, true},
		{"a regex with no ECMA-262 form", "string", "regex '(?m)^a'", schema.Response,
			`{"$comment":"regex: not written as a pattern: its line anchors ((?m) ^ or $) have no ECMA-262 form without a flag","type":["string","null"]}`, true},
		{"a regex with case folding", "string", "regex '(?i)^ab'", schema.Response, `{"pattern":"^[Aa][Bb]","type":["string","null"]}`, true},
		{"a formatted date", "date", "format unix", schema.Response, `{"format":"int64","type":["integer","null"]}`, true},
		{"a fixed float", "float", "format fixed 2 | req", schema.Response, `{"type":"number"}`, true},
		{"a date layout", "date", "format date | req", schema.Response, `{"type":"string"}`, true},
		{"request: req", "string", "req", schema.Request, `{"type":"string"}`, true},
		{"request: req with a default", "string", "req | default 'x'", schema.Request, `{"default":"x","type":["string","null"]}`, false},
		{"request: a bool", "bool", "req", schema.Request,
			`{"anyOf":[{"type":"boolean"},{"enum":[0,1]},{"pattern":"^(?:[Tt][Rr][Uu][Ee]|[Oo][Nn]|1|[Ff][Aa][Ll][Ss][Ee]|[Oo][Ff][Ff]|0)$","type":"string"}]}`, true},
		{"lazy: not required", "string", "req | lazy", schema.Response, `{"type":"string"}`, false},
		{"omitnil: not required", "string", "omitnil", schema.Response, `{"type":["string","null"]}`, false},
		{"omitempty: not required", "string", "omitempty", schema.Response, `{"type":["string","null"]}`, false},
		{"since, the latest version: required", "string", "since 'v2'", schema.Response, `{"type":["string","null"]}`, true},
		{"readonly", "string", "readonly", schema.Response, `{"readOnly":true,"type":["string","null"]}`, true},
		{"writeonly: never written", "string", "writeonly", schema.Response, "-", false},
		{"request: readonly, never read", "string", "readonly | req", schema.Request, "-", false},
		{"request: writeonly", "string", "writeonly | req", schema.Request, `{"type":"string","writeOnly":true}`, true},
		{"request: a lazy field is read", "string", "lazy | req", schema.Request, `{"type":"string"}`, true},
		{"request: a format is not read", "date", "format unix | req", schema.Request, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := schema.JSON(exposeOne(t, tt.typ, tt.rules), tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			got, req := property(t, b, "v")
			switch {
			case tt.want == "-" && got != "":
				t.Errorf("property v = %s, want none", got)
			case tt.want == "" && !strings.Contains(got, `{"exclusiveMaximum":253402300800000,"exclusiveMinimum":-62167219200001,"type":"number"}`):
				t.Errorf("property v = %s, without the millis of the years 0000-9999", got)
			case tt.want != "" && tt.want != "-" && got != tt.want:
				t.Errorf("property v = %s\nwant         %s", got, tt.want)
			}
			if req != tt.required {
				t.Errorf("required: %v, want %v", req, tt.required)
			}
		})
	}
}

// TestJSONKeyCase: both directions' properties are the keys a client sees,
// after the registry's key case: a request reads the keys a response
// writes.
func TestJSONKeyCase(t *testing.T) {
	reg := entity.NewRegistry(entity.KeyCase(entity.CamelCase))
	e := expose(t, reg, "u", "user_id", "number", "req", "contact_info", "{", "", "mail_address", "string", "", "contact_info", "}", "")
	for _, mode := range []schema.Mode{schema.Response, schema.Request} {
		t.Run(mode.String(), func(t *testing.T) {
			b, err := schema.JSON(e, mode)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []string{`"userId"`, `"contactInfo"`, `"mailAddress"`} {
				if !bytes.Contains(b, []byte(w)) {
					t.Errorf("no %s in %s", w, b)
				}
			}
			if bytes.Contains(b, []byte("_")) {
				t.Errorf("a declared name in %s", b)
			}
		})
	}
}

// TestRefNames: an entity name with bytes a URI fragment or a component
// name may not hold is escaped in each.
func TestRefNames(t *testing.T) {
	reg := entity.NewRegistry()
	top := expose(t, reg, "top", "x", "$a b/c~é", "")
	expose(t, reg, "a b/c~é", "y", "string", "")
	b, err := schema.JSON(top, schema.Response)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"$ref": "#/$defs/a%20b~1c~0%C3%A9"`, `"a b/c~é": {`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("no %s in %s", want, b)
		}
	}
	c := schema.NewComponents()
	for _, mode := range []schema.Mode{schema.Response, schema.Request} {
		if _, err := c.Ref(top, mode); err != nil {
			t.Fatal(err)
		}
	}
	b, _ = c.MarshalJSON()
	for _, want := range []string{`"$ref":"#/components/schemas/a_20b_2fc_7e_c3_a9"`, `"a_20b_2fc_7e_c3_a9.request":{`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("no %s in the components %s", want, b)
		}
	}
}

// TestJSONInOnDates: in on a date is an enum of the RFC 3339 texts a
// response writes; since a request may give the date in any text or
// number the conversion reads, the request schema has no enum, and says
// so.
func TestJSONInOnDates(t *testing.T) {
	e := exposeOne(t, "date", "in 2024-01-15")
	for _, tt := range []struct {
		mode schema.Mode
		want string
		has  bool
	}{
		{schema.Response, `"enum"`, true},
		{schema.Response, `"2024-01-15T00:00:00Z"`, true},
		{schema.Request, `"enum"`, false},
		{schema.Request, `"$comment": "rule \"in\": the request schema does not say it: its keywords describe the value once converted, which no form a request sends it in is"`, true},
	} {
		b, err := schema.JSON(e, tt.mode)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(tt.want)) != tt.has {
			t.Errorf("%v: %s in %s: %v, want %v", tt.mode, tt.want, b, !tt.has, tt.has)
		}
	}
}

// TestSchemasPublishNoSecretValues: the schemas of a secret field, in both
// modes and as OpenAPI components, hold none of its `in` values, its
// pattern or its default, and no warning quotes them.
func TestSchemasPublishNoSecretValues(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "login",
		"user", "string", "req",
		"pin", "string", "secret | in 'hunter22' 'swordfish'",
		"password", "string", "secret | regex '^hunter[0-9]+$' | default 'hunter22'",
		"code", "number", "secret | in 4711 | default 4711",
		"codes", "[]string", "secret | each 'regex \"^zz(top)$\"'",
	)
	docs := map[string][]byte{}
	for _, mode := range []schema.Mode{schema.Response, schema.Request} {
		b, err := schema.JSON(e, mode)
		if err != nil {
			t.Fatal(err)
		}
		docs[mode.String()] = b
	}
	c := schema.NewComponents()
	for _, mode := range []schema.Mode{schema.Response, schema.Request} {
		if _, err := c.Ref(e, mode); err != nil {
			t.Fatal(err)
		}
	}
	docs["components"], _ = c.MarshalJSON()
	doc, err := schema.OpenAPI(schema.Info{Title: "t", Version: "1"}, []schema.Route{{Method: "POST", Path: "/login", Request: e}, {Method: "GET", Path: "/login", Request: e}})
	if err != nil {
		t.Fatal(err)
	}
	docs["openapi"] = doc
	docs["warnings"] = []byte(strings.Join(schema.Warnings(e), "\n"))
	for what, text := range docs {
		for _, secret := range []string{"hunter", "swordfish", "4711", "zz", "top"} {
			if bytes.Contains(text, []byte(secret)) {
				t.Errorf("the %s publishes %q of a secret field:\n%s", what, secret, text)
			}
		}
	}
	if len(schema.Warnings(e)) == 0 {
		t.Errorf("no warning says what the schemas leave out")
	}
}

// TestPublicSchemaHidesFlaggedFields: a document made without flags lists
// no field that only flagged calls see; one made with the flag lists it,
// and a version's document lists that version's field of a shared key.
func TestPublicSchemaHidesFlaggedFields(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	e := expose(t, reg, "member",
		"name", "string", "req",
		"score", "number", "if 'admin'",
		"nick", "string", "unless 'admin'",
		"id", "string", "until 'v2'",
		"id", "number", "since 'v2'",
	)
	tests := []struct {
		name     string
		opts     []entity.Option
		mode     schema.Mode
		has, not []string
	}{
		{"public", nil, schema.Response, []string{`"nick"`, `"id": {"format": "int64", "type": ["integer"`}, []string{`"score"`}},
		{"public", nil, schema.Request, []string{`"nick"`, `"id": {"anyOf": [{"format": "int64", "maximum"`}, []string{`"score"`}},
		{"admin", []entity.Option{entity.With("admin")}, schema.Response, []string{`"score"`}, []string{`"nick"`}},
		{"admin", []entity.Option{entity.With("admin")}, schema.Request, []string{`"score"`}, []string{`"nick"`}},
		{"v1", []entity.Option{entity.Version("v1")}, schema.Response, []string{`"id": {"type": ["string"`}, []string{`"score"`, `"integer"`}},
		{"v1", []entity.Option{entity.Version("v1")}, schema.Request, []string{`"id": {"type": ["string"`}, []string{`"score"`, `"integer"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.mode.String(), func(t *testing.T) {
			b, err := schema.JSON(e, tt.mode, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			flat := compactSpaced(b)
			for _, w := range tt.has {
				if !strings.Contains(flat, w) {
					t.Errorf("no %s in %s", w, flat)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(flat, w) {
					t.Errorf("%s in %s", w, flat)
				}
			}
			if _, req := property(t, b, "name"); !req {
				t.Errorf("name is not required")
			}
		})
	}
	doc, err := schema.OpenAPI(schema.Info{Title: "t", Version: "1"}, []schema.Route{{Method: "GET", Path: "/m", Response: e}})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(doc, []byte(`"score"`)) {
		t.Errorf("the public OpenAPI document lists score")
	}
}

// compactSpaced returns JSON compacted, with a space after each colon and
// comma, for tests that look for fragments.
func compactSpaced(b []byte) string {
	s := compact(b)
	return strings.NewReplacer(`":`, `": `, `,"`, `, "`, `,{`, `, {`).Replace(s)
}

// TestRequestSchemaFollowsRequestFields: the request schema is the object
// a client sends, as RequestFields gives it: a group (its fields read
// `from` anywhere in server data) is a nested object under its key, its
// required fields required inside it, no top-level key for them; no
// warning about `from`.
func TestRequestSchemaFollowsRequestFields(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "shipment",
		"name", "string", "req",
		"addr", "{", "from 'address'",
		"city", "string", "req",
		"zip", "string", "",
		"addr", "}", "",
		"town", "string", "from 'place.town'",
	)
	b, err := schema.JSON(e, schema.Request)
	if err != nil {
		t.Fatal(err)
	}
	addr, req := property(t, b, "addr")
	if want := `{"properties":{"city":{"type":"string"},"zip":{"type":["string","null"]}},"required":["city"],"type":"object"}`; addr != want || !req {
		t.Errorf("addr = %s, required %v; want %s, required", addr, req, want)
	}
	for _, key := range []string{"city", "address", "place"} {
		if got, _ := property(t, b, key); got != "" {
			t.Errorf("a top-level %s: %s", key, got)
		}
	}
	if got, _ := property(t, b, "town"); got != `{"type":["string","null"]}` {
		t.Errorf("town = %s, want its key", got)
	}
	if w := schema.Warnings(e); len(w) > 0 {
		t.Errorf("Warnings = %q", w)
	}
}

// TestNoDuplicateNullType: a nullable field with a registered format (whose
// schema has null already) names null once in its type, in the JSON
// Schema and in the OpenAPI components.
func TestNoDuplicateNullType(t *testing.T) {
	reg := entity.NewRegistry()
	err := reg.RegisterFormat("cents", rules.Kinds(rules.Float), func(v rules.Value, _ []string) (any, error) { return int64(v.Float * 100), nil })
	if err != nil {
		t.Fatal(err)
	}
	e := expose(t, reg, "price", "amount", "float", "format cents")
	b, err := schema.JSON(e, schema.Response)
	if err != nil {
		t.Fatal(err)
	}
	c := schema.NewComponents()
	if _, err := c.Ref(e, schema.Response); err != nil {
		t.Fatal(err)
	}
	comps, _ := c.MarshalJSON()
	for what, text := range map[string]string{"JSON Schema": compact(b), "components": string(comps)} {
		if strings.Count(text, `"null"`) != 1 {
			t.Errorf("the %s names null %d times: %s", what, strings.Count(text, `"null"`), text)
		}
	}
}

// TestNestedRepetitionWarning: a pattern with nested repetitions, which a
// backtracking validator may take exponential time on, is kept and warned
// about.
func TestNestedRepetitionWarning(t *testing.T) {
	e := exposeOne(t, "string", "regex '^(a+)+$'")
	b, _ := schema.JSON(e, schema.Response)
	if got, _ := property(t, b, "v"); !strings.Contains(got, `"pattern":"^(?:a+)+$"`) {
		t.Errorf("v = %s, without its pattern", got)
	}
	want := `entity "one", field "v": regex: its pattern repeats a repetition, which a backtracking validator may take exponential time to match`
	if w := schema.Warnings(e); len(w) != 1 || w[0] != want {
		t.Errorf("Warnings = %q, want %q", w, want)
	}
}

// TestUnsaidLimitsWarn: a limit the request schema cannot state on every
// form of a value (bounds of a float's text, in on a float) is a warning;
// what it can state (in on a number or a bool) is not.
func TestUnsaidLimitsWarn(t *testing.T) {
	tests := []struct{ typ, rules, want string }{
		{"float", "range 0 1", `entity "one", field "v": rule "range": the request schema says it of the JSON number only, not of the other forms a request may send it in`},
		{"float", "in 1.5 2.5", `entity "one", field "v": rule "in": the request schema says it of the JSON number only, not of the other forms a request may send it in`},
		{"number", "in 1 2 3 | range 0 9", ""},
		{"bool", "in true", ""},
	}
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.rules, func(t *testing.T) {
			got := strings.Join(schema.Warnings(exposeOne(t, tt.typ, tt.rules)), "\n")
			if got != tt.want {
				t.Errorf("Warnings = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRequestFormsOfInOnNumberAndBool: in a request schema, `in 1 2 3` on
// a number takes "2" but not "7" as text, and `in true` on a bool takes 1
// and "on" but not 0 or "off".
func TestRequestFormsOfInOnNumberAndBool(t *testing.T) {
	for _, tt := range []struct {
		typ, rules string
		pass, fail []string
	}{
		{"number", "in 1 2 3", []string{"2", "02", "3.0"}, []string{"7", "0", "12"}},
		{"bool", "in true", []string{"true", "ON", "1"}, []string{"false", "off", "0"}},
	} {
		b, err := schema.JSON(exposeOne(t, tt.typ, tt.rules), schema.Request)
		if err != nil {
			t.Fatal(err)
		}
		text := textForm(t, b)
		for _, s := range tt.pass {
			if !text(s) {
				t.Errorf("%s %s: the text form refuses %q", tt.typ, tt.rules, s)
			}
		}
		for _, s := range tt.fail {
			if text(s) {
				t.Errorf("%s %s: the text form accepts %q", tt.typ, tt.rules, s)
			}
		}
		if tt.typ == "bool" && !strings.Contains(compact(b), `{"allOf":[{"enum":[1]}],"enum":[0,1]}`) {
			t.Errorf("the 0 or 1 form is not [1]: %s", compact(b))
		}
	}
}

// textForm returns whether the text form of property v of a request
// schema (every "pattern" of its string alternative) matches a string.
func textForm(t *testing.T, doc []byte) func(string) bool {
	t.Helper()
	p, _ := property(t, doc, "v")
	i := strings.Index(p, `"type":"string"`)
	if i < 0 {
		t.Fatalf("no text form in %s", p)
	}
	start := strings.LastIndex(p[:i], `{"allOf"`)
	if start < 0 {
		start = strings.LastIndex(p[:i], `{"pattern"`)
	}
	var patterns []*regexp.Regexp
	for _, m := range regexp.MustCompile(`"pattern":"((?:[^"\\]|\\.)*)"`).FindAllStringSubmatch(p[start:i], -1) {
		patterns = append(patterns, regexp.MustCompile(strings.ReplaceAll(m[1], `\\`, `\`)))
	}
	return func(s string) bool {
		for _, re := range patterns {
			if !re.MatchString(s) {
				return false
			}
		}
		return true
	}
}

// TestNoneRulesStateTheirTypes: on a none field, min and len state the
// JSON types they measure, so that {"w":true} for `max 2` fails the
// schema as it fails the rule.
func TestNoneRulesStateTheirTypes(t *testing.T) {
	for _, tt := range []struct{ rules, want string }{
		{"max 2", `{"maxItems":2,"maxLength":2,"maximum":2,"type":["array","number","string","null"]}`},
		{"len 2", `{"maxItems":2,"maxLength":2,"maxProperties":2,"minItems":2,"minLength":2,"minProperties":2,"type":["array","object","string","null"]}`},
		{"email", `{"pattern":`},
		{"min 1 | regex 'a'", `{"anyOf":[{"allOf":[{"pattern":"a","type":"string"}],"minItems":1,"minLength":1,"minimum":1,"type":["array","number","string"]},{"type":"null"}]}`},
	} {
		b, _ := schema.JSON(exposeOne(t, "none", tt.rules), schema.Response)
		if got, _ := property(t, b, "v"); !strings.HasPrefix(got, tt.want) {
			t.Errorf("none %s = %s, want %s", tt.rules, got, tt.want)
		}
	}
}

// TestURLSchemaIsItsPattern: the url rule is stated by its pattern alone:
// format uri refuses international URLs the rule accepts.
func TestURLSchemaIsItsPattern(t *testing.T) {
	b, _ := schema.JSON(exposeOne(t, "string", "url | req"), schema.Response)
	got, _ := property(t, b, "v")
	if strings.Contains(got, `"format"`) || !strings.Contains(got, `"pattern":"^[Hh][Tt][Tt][Pp][Ss]?://`) {
		t.Errorf("url = %.120s…", got)
	}
}

// TestSchemaHookOfAUserRule: a user's rule with a Schema hook adds its
// keywords; one whose hook panics is named in a comment and a warning.
func TestSchemaHookOfAUserRule(t *testing.T) {
	reg := entity.NewRegistry()
	pass := func([]string, rules.Kind) (rules.Checker, error) {
		return rules.CheckFunc(func(rules.Value) error { return nil }), nil
	}
	for _, d := range []rules.Def{
		{Name: "even", Types: rules.Kinds(rules.Int), Compile: pass,
			Schema: func([]string, rules.Kind) map[string]any { return map[string]any{"multipleOf": int64(2)} }},
		{Name: "boom", Types: rules.Kinds(rules.Int), Compile: pass,
			Schema: func([]string, rules.Kind) map[string]any { panic("boom") }},
	} {
		if err := reg.RegisterRule(d); err != nil {
			t.Fatal(err)
		}
	}
	e := expose(t, reg, "n", "v", "number", "req | even | boom")
	b, _ := schema.JSON(e, schema.Response)
	if got, _ := property(t, b, "v"); got != `{"$comment":"rule \"boom\": its Schema hook panicked: the schema does not say what it checks","format":"int64","multipleOf":2,"type":"integer"}` {
		t.Errorf("v = %s", got)
	}
	w := strings.Join(schema.Warnings(e), "\n")
	for _, want := range []string{`rule "boom": its Schema hook panicked`, `rule "even": the request schema says it of the JSON number only`} {
		if !strings.Contains(w, want) {
			t.Errorf("Warnings = %s, without %s", w, want)
		}
	}
}

func TestModeString(t *testing.T) {
	for m, want := range map[schema.Mode]string{schema.Response: "response", schema.Request: "request", 9: "Mode(9)"} {
		if m.String() != want {
			t.Errorf("%d.String() = %q, want %q", uint8(m), m.String(), want)
		}
	}
}

// TestIntegersAreInt64: a number field, a typed list's element and an
// integer parameter are integers of format int64 (what a generator needs
// to pick a 64-bit type) in the response, the request and the
// parameters, and so is a date a response writes as Unix seconds; a
// float is none.
func TestIntegersAreInt64(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "e",
		"id", "number", "path",
		"n", "number", "",
		"ns", "[]number", "",
		"at", "date", "format unix",
		"f", "float", "",
	)
	for _, mode := range []schema.Mode{schema.Response, schema.Request} {
		b, err := schema.JSON(e, mode)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"n", "ns", "at", "f"} {
			if key == "at" && mode == schema.Request {
				continue // a request sends a date, as text or milliseconds, not what the format writes
			}
			p, _ := property(t, b, key)
			if int64 := strings.Contains(p, `"format":"int64"`); int64 != (key != "f") || p == "" {
				t.Errorf("%s: %s = %s", mode, key, p)
			}
		}
	}
	ps, err := schema.NewComponents().Parameters(e, false)
	if err != nil || len(ps) != 1 || !strings.Contains(string(ps[0].Schema), `"format":"int64"`) {
		t.Errorf("Parameters = %+v, %v", ps, err)
	}
}

// TestTransformedRulesAreStated: a request schema states the rules of a
// transformed field (`trim | min 1 | max 100`), which judge the value once
// transformed, in its description, after the field's own; its $comment
// and Warnings name each such rule (one whose Schema hook panicked too).
// The response schema keeps them as keywords.
func TestTransformedRulesAreStated(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "e", "name", "string", "trim | min 1 | max 100 | doc 'The name.'")
	b, err := schema.JSON(e, schema.Request)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"$comment":"rule \"min\": it judges the value once transformed by \"trim\": the request schema says it in its description, not in keywords; ` +
		`rule \"max\": it judges the value once transformed by \"trim\": the request schema says it in its description, not in keywords",` +
		`"description":"The name. Judged once transformed by \"trim\": minLength 1, maxLength 100.","type":["string","null"]}`
	if got, _ := property(t, b, "name"); got != want {
		t.Errorf("request: name = %s\nwant %s", got, want)
	}
	w := strings.Join(schema.Warnings(e), "\n")
	for _, rule := range []string{"min", "max"} {
		if !strings.Contains(w, `rule "`+rule+`": it judges the value once transformed by "trim"`) {
			t.Errorf("Warnings do not name rule %s:\n%s", rule, w)
		}
	}
	b, _ = schema.JSON(e, schema.Response)
	if got, _ := property(t, b, "name"); !strings.Contains(got, `"maxLength":100,"minLength":1`) {
		t.Errorf("response: name = %s", got)
	}
	reg := entity.NewRegistry()
	err = reg.RegisterRule(rules.Def{Name: "boom", Types: rules.Kinds(rules.String),
		Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(rules.Value) error { return nil }), nil
		},
		Schema: func([]string, rules.Kind) map[string]any { panic("boom") }})
	if err != nil {
		t.Fatal(err)
	}
	boom := expose(t, reg, "b", "v", "string", "trim | boom")
	if w := strings.Join(schema.Warnings(boom), "\n"); !strings.Contains(w, `field "v": rule "boom": its Schema hook panicked`) {
		t.Errorf("a transformed field's panicking hook is not named: %s", w)
	}
}

// TestHookUnsaidInRequestIsWarned: a rule's Schema hook whose keywords no
// form of a request's value can hold (a date's, sent as text or a number)
// is not said to be stated there: the request schema leaves the hook's
// own comment out and Warnings name the rule; the response states it.
func TestHookUnsaidInRequestIsWarned(t *testing.T) {
	reg := entity.NewRegistry()
	err := reg.RegisterRule(rules.Def{Name: "weekday", Types: rules.Kinds(rules.Time),
		Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(rules.Value) error { return nil }), nil
		},
		Schema: func([]string, rules.Kind) map[string]any {
			return map[string]any{"x-weekday": true, "$comment": "stated as x-weekday"}
		}})
	if err != nil {
		t.Fatal(err)
	}
	e := expose(t, reg, "e", "at", "date", "weekday")
	b, _ := schema.JSON(e, schema.Request)
	got, _ := property(t, b, "at")
	if strings.Contains(got, "x-weekday") || !strings.Contains(got, `rule \"weekday\": the request schema does not say it`) {
		t.Errorf("request: at = %s", got)
	}
	if w := strings.Join(schema.Warnings(e), "\n"); !strings.Contains(w, `field "at": rule "weekday": the request schema does not say it`) {
		t.Errorf("Warnings = %s", w)
	}
	b, _ = schema.JSON(e, schema.Response)
	if got, _ := property(t, b, "at"); !strings.Contains(got, `"x-weekday":true`) || !strings.Contains(got, "stated as x-weekday") {
		t.Errorf("response: at = %s", got)
	}
}

// TestSingleRefSchemaIsOneObject: in a registry of SingleRefs a response's
// $name is one object (or null where it may be), never msful's list of
// them; a []$name stays a list, and without SingleRefs a $name is an
// object or a list.
func TestSingleRefSchemaIsOneObject(t *testing.T) {
	for _, tt := range []struct {
		name       string
		opts       []entity.RegistryOption
		ship, list string
	}{
		{"SingleRefs", []entity.RegistryOption{entity.SingleRefs()},
			`{"anyOf":[{"$ref":"#/$defs/address"},{"type":"null"}]}`,
			`{"items":{"anyOf":[{"$ref":"#/$defs/address"},{"type":"null"}]},"type":["array","null"]}`},
		{"msful's", nil,
			`{"anyOf":[{"$ref":"#/$defs/address"},{"items":{"$ref":"#/$defs/address"},"type":"array"},{"type":"null"}]}`,
			`{"items":{"anyOf":[{"$ref":"#/$defs/address"},{"type":"null"}]},"type":["array","null"]}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry(tt.opts...)
			expose(t, reg, "address", "city", "string", "")
			e := expose(t, reg, "order", "ship", "$address", "", "stops", "[]$address", "", "home", "$address", "req")
			b, err := schema.JSON(e, schema.Response)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := property(t, b, "ship"); got != tt.ship {
				t.Errorf("ship = %s\nwant %s", got, tt.ship)
			}
			if got, _ := property(t, b, "stops"); got != tt.list {
				t.Errorf("stops = %s\nwant %s", got, tt.list)
			}
			if got, _ := property(t, b, "home"); tt.opts != nil && got != `{"$ref":"#/$defs/address"}` {
				t.Errorf("home = %s, want one address", got)
			}
		})
	}
}
