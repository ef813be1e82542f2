package entity_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/schema")

// schemaCorpus declares the test corpus (testdata/corpus.json, shared with
// entitytest and the schematest module) in a registry of its own, with its
// custom rules: even and caps, which have no Schema hook.
func schemaCorpus(t testing.TB) (*entity.Registry, []string) {
	t.Helper()
	b, err := os.ReadFile("testdata/corpus.json")
	if err != nil {
		t.Fatal(err)
	}
	var decls []struct {
		Name string   `json:"name"`
		Decl []string `json:"decl"`
	}
	if err := json.Unmarshal(b, &decls); err != nil {
		t.Fatal(err)
	}
	reg := entity.NewRegistry()
	for _, name := range []string{"even", "caps"} {
		err := reg.RegisterRule(rules.Def{Name: name, Types: rules.Kinds(rules.Int, rules.String),
			Compile: func([]string, rules.Kind) (rules.Checker, error) {
				return rules.CheckFunc(func(rules.Value) error { return nil }), nil
			}})
		if err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for _, d := range decls {
		expose(t, reg, d.Name, d.Decl...)
		names = append(names, d.Name)
	}
	return reg, names
}

// TestJSONSchemaGolden: the schema of every entity of the corpus, in both
// modes, is the golden file testdata/schema/NAME.MODE.json (go test -run
// JSONSchemaGolden -update rewrites them), and the same bytes every time.
func TestJSONSchemaGolden(t *testing.T) {
	reg, names := schemaCorpus(t)
	for _, name := range names {
		if name == "undeclared" {
			continue // TestJSONSchemaErrors
		}
		for _, mode := range []entity.SchemaMode{entity.OutputSchema, entity.InputSchema} {
			t.Run(name+"/"+mode.String(), func(t *testing.T) {
				got, err := reg.JSONSchema(name, mode)
				if err != nil {
					t.Fatal(err)
				}
				if again, _ := reg.JSONSchema(name, mode); !bytes.Equal(got, again) {
					t.Fatalf("two calls give two schemas")
				}
				if !json.Valid(got) {
					t.Fatalf("not JSON: %s", got)
				}
				golden(t, filepath.Join("testdata", "schema", name+"."+mode.String()+".json"), got)
			})
		}
	}
}

// golden compares got with the file at path, or writes it under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	got = append(append([]byte(nil), got...), '\n')
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update to rewrite it):\n%s", path, got)
	}
}

func TestJSONSchemaErrors(t *testing.T) {
	reg, _ := schemaCorpus(t)
	tests := []struct {
		name   string
		entity string
		mode   entity.SchemaMode
		want   string
		is     error
	}{
		{"a $ref to nothing", "undeclared", entity.OutputSchema, `entity: schema of "undeclared": field "ghost": $nobody names no entity`, nil},
		{"a $ref to nothing, input", "undeclared", entity.InputSchema, `entity: schema of "undeclared": field "ghost": $nobody names no entity`, nil},
		{"no such mode", "user", entity.SchemaMode(7), "entity: SchemaMode(7) is no schema mode: use OutputSchema or InputSchema", nil},
		{"no such entity", "nobody", entity.OutputSchema, `entity: unknown entity: "nobody" is not exposed`, entity.ErrUnknownEntity},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := reg.JSONSchema(tt.entity, tt.mode)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("JSONSchema = %s, %v; want the error %q", b, err, tt.want)
			}
			if b != nil {
				t.Errorf("JSONSchema returned %s with its error", b)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.is)
			}
		})
	}
	var nilEntity *entity.Entity
	if _, err := nilEntity.JSONSchema(entity.OutputSchema); err == nil {
		t.Errorf("a nil Entity's JSONSchema gave no error")
	}
}

func TestSchemaWarnings(t *testing.T) {
	reg, _ := schemaCorpus(t)
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"an entity's", reg.Lookup("custom").SchemaWarnings(), []string{
			`entity "custom", field "m": rule "even" has no Schema hook: the schema does not say what it checks`,
			`entity "custom", field "n": rule "even" has no Schema hook: the schema does not say what it checks`,
			`entity "custom", field "s": rule "caps" has no Schema hook: the schema does not say what it checks`,
		}},
		{"none", reg.Lookup("user").SchemaWarnings(), nil},
		{"a registry's", reg.SchemaWarnings(), []string{
			`entity "custom", field "m": rule "even" has no Schema hook: the schema does not say what it checks`,
			`entity "custom", field "n": rule "even" has no Schema hook: the schema does not say what it checks`,
			`entity "custom", field "s": rule "caps" has no Schema hook: the schema does not say what it checks`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.Join(tt.got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("SchemaWarnings() =\n%s\nwant\n%s", strings.Join(tt.got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestJSONSchemaProperties: the schema of one field "v", declared with
// the type and rules given, in each mode (its property, compacted), and
// whether it is required.
func TestJSONSchemaProperties(t *testing.T) {
	tests := []struct {
		name, typ, rules string
		mode             entity.SchemaMode
		want             string
		required         bool
	}{
		{"a string may be null", "string", "", entity.OutputSchema, `{"type":["string","null"]}`, true},
		{"req: never null", "string", "req", entity.OutputSchema, `{"type":"string"}`, true},
		{"a default: never null", "number", "default 3", entity.OutputSchema, `{"type":"integer"}`, true},
		{"a null default on none", "none", "default null", entity.OutputSchema, `{}`, true},
		{"none with req: anything but null", "none", "req", entity.OutputSchema, `{"type":["array","boolean","number","object","string"]}`, true},
		{"a date", "date", "", entity.OutputSchema, `{"format":"date-time","type":["string","null"]}`, true},
		{"an enum and null", "number", "bool", entity.OutputSchema, `{"anyOf":[{"enum":[0,1],"type":"integer"},{"type":"null"}]}`, true},
		{"rules clash: allOf", "string", "regex '^a' | regex 'b$'", entity.OutputSchema,
			`{"anyOf":[{"allOf":[{"pattern":"b$"}],"pattern":"^a","type":"string"},{"type":"null"}]}`, true},
		{"rules of different keywords hold together", "none", "num | bool", entity.OutputSchema,
			`{"anyOf":[{"anyOf":[{"type":"boolean"},{"enum":[0,1]},{"pattern":"^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[Oo][Nn]|[Oo][Ff][Ff]|1|0)$","type":"string"}],"pattern":"^-?[0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$","type":["number","string"]},{"type":"null"}]}`, true},
		{"bounds: the tighter", "string", "min 2 | min 4 | max 9 | range 1 7", entity.OutputSchema, `{"maxLength":7,"minLength":4,"type":["string","null"]}`, true},
		{"a regex ECMA-262 reads otherwise", "string", "regex '(?i)^a'", entity.OutputSchema,
			`{"$comment":"regex /(?i)^a/ is RE2 syntax that ECMA-262 reads otherwise: not written as a pattern","type":["string","null"]}`, true},
		{"input: req", "string", "req", entity.InputSchema, `{"type":"string"}`, true},
		{"input: req with a default", "string", "req | default 'x'", entity.InputSchema, `{"default":"x","type":["string","null"]}`, false},
		{"input: a float or its text", "float", "range 0 1", entity.InputSchema,
			`{"anyOf":[{"maximum":1,"minimum":0,"type":"number"},{"pattern":"^-?[0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$","type":"string"},{"type":"null"}]}`, false},
		{"input: a bool", "bool", "req", entity.InputSchema,
			`{"anyOf":[{"type":"boolean"},{"enum":[0,1]},{"pattern":"^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[Oo][Nn]|[Oo][Ff][Ff]|1|0)$","type":"string"}]}`, true},
		{"input: a date's millis", "date", "req", entity.InputSchema, "", true},
		{"lazy: not required", "string", "req | lazy", entity.OutputSchema, `{"type":"string"}`, false},
		{"if: not required", "string", "if 'admin'", entity.OutputSchema, `{"type":["string","null"]}`, false},
		{"omitnil: not required", "string", "omitnil", entity.OutputSchema, `{"type":["string","null"]}`, false},
		{"readonly", "string", "readonly", entity.OutputSchema, `{"readOnly":true,"type":["string","null"]}`, true},
		{"writeonly: never written", "string", "writeonly", entity.OutputSchema, "-", false},
		{"input: readonly, never read", "string", "readonly | req", entity.InputSchema, "-", false},
		{"input: writeonly", "string", "writeonly | req", entity.InputSchema, `{"type":"string","writeOnly":true}`, true},
		{"input: read only under a flag", "string", "if 'admin'", entity.InputSchema, "-", false},
		{"input: a lazy field is read", "string", "lazy | req", entity.InputSchema, `{"type":"string"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := exposeOne(t, tt.typ, tt.rules)
			b, err := e.JSONSchema(tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			var s struct {
				Properties map[string]json.RawMessage
				Required   []string
			}
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			json.Compact(&got, s.Properties["v"])
			if _, there := s.Properties["v"]; tt.want == "-" && there {
				t.Errorf("property v = %s, want none", got.String())
			} else if tt.want != "" && tt.want != "-" && got.String() != tt.want {
				t.Errorf("property v = %s\nwant         %s", got.String(), tt.want)
			}
			if tt.want == "" && !strings.Contains(got.String(), `{"exclusiveMaximum":253402300800000,"exclusiveMinimum":-62167219200001,"type":"number"}`) {
				t.Errorf("property v = %s, without the millis of the years 0000-9999", got.String())
			}
			if req := len(s.Required) == 1 && s.Required[0] == "v"; req != tt.required {
				t.Errorf("required = %v, want v required: %v", s.Required, tt.required)
			}
		})
	}
}

// TestJSONSchemaKeyCase: output properties are the cased keys, input
// properties the declared names.
func TestJSONSchemaKeyCase(t *testing.T) {
	reg := entity.NewRegistry(entity.KeyCase(entity.CamelCase))
	expose(t, reg, "u", "user_id", "number", "req", "contact_info", "{", "", "mail_address", "string", "", "contact_info", "}", "")
	for _, tt := range []struct {
		mode entity.SchemaMode
		want []string
	}{
		{entity.OutputSchema, []string{`"userId"`, `"contactInfo"`, `"mailAddress"`}},
		{entity.InputSchema, []string{`"user_id"`, `"mail_address"`}},
	} {
		t.Run(tt.mode.String(), func(t *testing.T) {
			b, err := reg.JSONSchema("u", tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !bytes.Contains(b, []byte(w)) {
					t.Errorf("no %s in %s", w, b)
				}
			}
		})
	}
}

// TestSchemaRefNames: an entity name with bytes a URI fragment or a
// component name may not hold is escaped in each.
func TestSchemaRefNames(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "top", "x", "$a b/c~é", "")
	expose(t, reg, "a b/c~é", "y", "string", "")
	b, err := reg.JSONSchema("top", entity.OutputSchema)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"$ref": "#/$defs/a%20b~1c~0%C3%A9"`, `"a b/c~é": {`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("no %s in %s", want, b)
		}
	}
	b, err = reg.OpenAPIComponents()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"$ref": "#/components/schemas/a_20b_2fc_7e_c3_a9"`, `"a_20b_2fc_7e_c3_a9.input": {`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("no %s in the components", want)
		}
	}
}

// TestSchemaWarningsFrom: a field read at a path of the input (from) is
// not in the input schema, and SchemaWarnings says so.
func TestSchemaWarningsFrom(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "f", "city", "string", "from 'addr.city'", "name", "string", "")
	b, err := e.JSONSchema(entity.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(`"city"`)) || bytes.Contains(b, []byte(`"addr"`)) {
		t.Errorf("the input schema describes the from path: %s", b)
	}
	want := `entity "f", field "city": read from "addr.city": the input schema does not describe the path`
	if got := e.SchemaWarnings(); len(got) != 1 || got[0] != want {
		t.Errorf("SchemaWarnings() = %q, want %q", got, want)
	}
}

// TestJSONSchemaInOnDates: in on a date is an enum of the RFC 3339 texts
// Make writes, and, since a request may give the date in any text or
// number the conversion reads, no enum in the input schema.
func TestJSONSchemaInOnDates(t *testing.T) {
	e := exposeOne(t, "date", "in 2024-01-15")
	for _, tt := range []struct {
		mode entity.SchemaMode
		want string
		has  bool
	}{
		{entity.OutputSchema, `"enum"`, true},
		{entity.OutputSchema, `"2024-01-15T00:00:00Z"`, true},
		{entity.InputSchema, `"enum"`, false},
		{entity.InputSchema, `"$comment": "its rules judge the date, not the text or number that gives it"`, true},
	} {
		b, err := e.JSONSchema(tt.mode)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(tt.want)) != tt.has {
			t.Errorf("%v: %s in %s: %v, want %v", tt.mode, tt.want, b, !tt.has, tt.has)
		}
	}
}
