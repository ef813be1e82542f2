package schematest

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
	"github.com/pb33f/libopenapi"
)

// checkOpenAPI validates OpenAPI documents, by name, with libopenapi (every
// reference resolved) and with @seriousme/openapi-schema-validator (the
// OpenAPI 3.1 schema, its JSON Schema dialect included), and compiles every
// component schema in ajv.
func checkOpenAPI(t *testing.T, docs map[string][]byte) {
	t.Helper()
	job := nodeJob{OpenAPI: map[string]json.RawMessage{}, Schemas: map[string]json.RawMessage{}}
	for name, b := range docs {
		job.OpenAPI[name] = b
		doc, err := libopenapi.NewDocument(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v := doc.GetVersion(); v != schema.OpenAPIVersion {
			t.Errorf("%s: version %q", name, v)
		}
		model, err := doc.BuildV3Model()
		if err != nil {
			t.Fatalf("%s: BuildV3Model: %v", name, err)
		}
		if errs := model.Index.GetReferenceIndexErrors(); len(errs) > 0 {
			t.Errorf("%s: reference errors: %v", name, errs)
		}
		if errs := model.Index.GetResolver().GetResolvingErrors(); len(errs) > 0 {
			t.Errorf("%s: resolving errors: %v", name, errs)
		}
		var d struct {
			Components struct {
				Schemas map[string]json.RawMessage `json:"schemas"`
			} `json:"components"`
		}
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		all, _ := json.Marshal(d.Components.Schemas)
		// The components as $defs (their names hold only letters, digits,
		// ".", "-" and "_": each is a JSON Pointer token as it is).
		defs := strings.ReplaceAll(string(all), `"#/components/schemas/`, `"#/$defs/`)
		for comp := range d.Components.Schemas {
			job.Schemas[name+"#"+comp] = []byte(`{"$schema":"` + schema.Dialect + `","$defs":` + defs + `,"$ref":"#/$defs/` + comp + `"}`)
		}
	}
	res := runNode(t, job)
	for name, why := range res.OpenAPI {
		if why != "" {
			t.Errorf("the OpenAPI validator refuses %s: %s", name, why)
		}
	}
	for name, why := range res.Compile {
		if why != "" {
			t.Errorf("ajv does not compile the component %s: %s", name, why)
		}
	}
}

// TestSeedServerOpenAPI: the example server's documents (the bytes GET
// /openapi.json serves to the public and to an admin, kept as the
// example's golden files by its own test) are valid OpenAPI 3.1 for both
// validators, every operation with its 500 problem response; the public
// one lists no admin-only field.
func TestSeedServerOpenAPI(t *testing.T) {
	docs := map[string][]byte{}
	for _, name := range []string{"openapi.json", "openapi-admin.json"} {
		b, err := os.ReadFile("../examples/seedserver/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		docs[name] = b
		var d struct {
			Paths map[string]map[string]struct {
				Responses map[string]any `json:"responses"`
			} `json:"paths"`
		}
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/api/test", "/api/users", "/api/db/users"} {
			ops, ok := d.Paths[p]
			if !ok {
				t.Errorf("%s: no path %s", name, p)
			}
			for method, op := range ops {
				if op.Responses["500"] == nil {
					t.Errorf("%s: %s %s without its 500 problem response", name, method, p)
				}
			}
		}
		if has := strings.Contains(string(b), `"score"`); has != (name == "openapi-admin.json") {
			t.Errorf("%s lists the admin-only score: %v", name, has)
		}
	}
	checkOpenAPI(t, docs)
}

// TestMixedOpenAPIValid: documents of routes over mixedDecls, for each
// audience and key case, are valid OpenAPI 3.1 for both validators.
func TestMixedOpenAPIValid(t *testing.T) {
	docs := map[string][]byte{}
	for _, kc := range []entity.KeyCaseStyle{entity.AsDeclared, entity.KebabCase} {
		reg := mixedRegistry(t, mixedDecls, entity.KeyCase(kc))
		var routes []schema.Route
		for _, d := range mixedDecls {
			e := reg.Lookup(d[0])
			routes = append(routes,
				schema.Route{Method: "GET", Path: "/" + d[0], Request: e, Response: e},
				schema.Route{Method: "POST", Path: "/" + d[0] + "/{id}", Request: e, Response: e, Status: 201})
		}
		for name, opts := range map[string][]entity.Option{"public": nil, "admin": {entity.With("admin")}, "v1": {entity.Version("v1")}} {
			doc, err := schema.OpenAPI(schema.Info{Title: "mixed", Version: "1"}, routes, opts...)
			if err != nil {
				t.Fatal(err)
			}
			docs[kc.String()+"-"+name] = doc
		}
	}
	checkOpenAPI(t, docs)
}
