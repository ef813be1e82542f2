package schematest

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// strictAudiences are the call shapes whose schemas the strict compile
// exports: no flag, each flag, a version, and both.
var strictAudiences = [][]entity.Option{nil, {entity.With("admin")}, {entity.With("guest"), entity.Version("v1")}, {entity.Version("v3")}}

// strictDecls are declarations whose schemas hold what strict mode is
// strict about: cross-field rules (a "required" in an "if", a "not", an
// "anyOf") on fields that may be null or not, with defaults, in groups and
// merged; none fields with the rules of every type; secret and merged
// references.
var strictDecls = [][]string{
	{"cross", "delivery", "string", "in ship pickup", "ship", "string", "required_if delivery ship",
		"kind", "none", "", "n", "number", "req | required_if kind 1 'a' true",
		"a", "string", "default 'x'", "c", "string", "required_with a delivery", "d", "string", "req | required_with delivery",
		"phone", "none", "required_without email a", "email", "string", "excluded_with phone",
		"x", "none", "excluded_with kind", "y", "none", "req | excluded_with x",
		"g", "{", "", "ga", "number", "", "gb", "none", "required_with ga | excluded_with ga", "g", "}", "",
		"m", "$cross_merged", "merge"},
	{"cross_merged", "ma", "string", "", "mb", "string", "required_with ma"},
	{"nones", "a", "none", "min 3", "b", "none", "email", "c", "none", "in 2 'x' true", "d", "none", "regex '^a'",
		"e", "none", "max 2 | req", "f", "none", "len 2", "g", "none", "range 1 5", "h", "none", "url",
		"i", "none", "default 'text' | min 1", "j", "none", "date", "k", "none", "time", "l", "none", "secret | in 'p'"},
	{"secretref", "n", "$nones", "secret", "l", "[]$nones", "secret", "m", "$cross_merged", "secret | merge"},
}

// TestEveryExportedSchemaCompilesInStrictMode: every schema the library
// exports for the corpus and the mixed declarations (in every key case),
// in the three modes and for each audience, and the components of their
// OpenAPI documents (the partial and secret variants among them), and
// the corpus's in a registry of JSONTypes, compile
// in ajv's strict mode with union types allowed: no unknown keyword or
// format, no type a sibling keyword contradicts, no "required" without
// its "properties".
func TestEveryExportedSchemaCompilesInStrictMode(t *testing.T) {
	requireNode(t)
	var b ajvBatch
	add := func(reg *entity.Registry, prefix string, names []string) {
		var routes []schema.Route
		for _, name := range names {
			e := reg.Lookup(name)
			for _, mode := range []schema.Mode{schema.Response, schema.Request, schema.Patch} {
				for i, opts := range strictAudiences {
					s, err := schema.JSON(e, mode, opts...)
					if err != nil {
						t.Fatal(err)
					}
					b.schema(fmt.Sprintf("%s%s/%s/%d", prefix, name, mode, i), s)
				}
			}
			routes = append(routes,
				schema.Route{Method: "GET", Path: "/" + name, Request: e, Response: e, Select: "fields"},
				schema.Route{Method: "POST", Path: "/" + name, Request: e, Response: e, Status: 201},
				schema.Route{Method: "PATCH", Path: "/" + name, Request: e, Response: e})
		}
		for i, opts := range strictAudiences {
			doc, err := schema.OpenAPI(schema.Info{Title: "t", Version: "1"}, routes, opts...)
			if err != nil {
				t.Fatal(err)
			}
			for comp, s := range componentSchemas(t, doc) {
				b.schema(fmt.Sprintf("%sopenapi/%d#%s", prefix, i, comp), s)
			}
		}
	}
	reg, names, checked := loadCorpus(t)
	var ok []string
	for _, n := range names {
		if checked(n) {
			ok = append(ok, n)
		}
	}
	add(reg, "corpus/", ok)
	for _, kc := range []entity.KeyCaseStyle{entity.AsDeclared, entity.CamelCase, entity.KebabCase} {
		decls := append(slices.Clone(mixedDecls), strictDecls...)
		reg := mixedRegistry(t, decls, entity.KeyCase(kc))
		var names []string
		for _, d := range decls {
			names = append(names, d[0])
		}
		add(reg, "mixed-"+kc.String()+"/", names)
	}
	// and the corpus in a registry of JSONTypes, whose request schemas are
	// the JSON types alone
	reg, names, checked = loadCorpus(t, entity.JSONTypes())
	ok = ok[:0]
	for _, n := range names {
		if checked(n) {
			ok = append(ok, n)
		}
	}
	add(reg, "jsontypes/", ok)
	res := runNode(t, b.job)
	var failed []string
	for name, why := range res.Compile {
		if why != "" {
			failed = append(failed, name+": "+why)
		}
	}
	sort.Strings(failed)
	if len(failed) > 0 {
		t.Errorf("%d of %d schemas do not compile in strict mode:\n%s", len(failed), len(res.Compile), strings.Join(failed, "\n"))
	}
	t.Logf("%d schemas compiled in strict mode", len(res.Compile))
}

// componentSchemas returns each component schema of an OpenAPI document
// as a JSON Schema of its own: a $ref to it among all of them as $defs.
func componentSchemas(t testing.TB, doc []byte) map[string][]byte {
	t.Helper()
	var d struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	all, _ := json.Marshal(d.Components.Schemas)
	defs := strings.ReplaceAll(string(all), `"#/components/schemas/`, `"#/$defs/`)
	out := map[string][]byte{}
	for comp := range d.Components.Schemas {
		out[comp] = []byte(`{"$schema":"` + schema.Dialect + `","$defs":` + defs + `,"$ref":"#/$defs/` + comp + `"}`)
	}
	return out
}
