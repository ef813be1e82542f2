package entity_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// seedAPI declares the example server's entities in a new registry, and
// its routes.
func seedAPI(t testing.TB) (*entity.Registry, []entity.Route) {
	t.Helper()
	reg := entity.NewRegistry()
	exposeSeed(t, reg)
	expose(t, reg, "newuser", "POST",
		"name", "string", "req",
		"mail", "string", "req | email",
		"age", "number", "range 0 150",
		"X-Request-Id", "string", "rename requestId",
	)
	expose(t, reg, "usersquery", "GET",
		"n", "number", "req | range 1 10000",
		"tags", "list", "",
		"X-Trace", "string", "req",
	)
	return reg, []entity.Route{
		{Method: "GET", Path: "/api/test", Response: "users", Summary: "the seed's payload"},
		{Method: "GET", Path: "/api/users", Request: "usersquery", Response: "users"},
		{Method: "POST", Path: "/api/users", Request: "newuser", Response: "user", Status: 201},
		{Method: "DELETE", Path: "/api/users/{id}", Status: 204},
	}
}

var seedInfo = entity.APIInfo{Title: "seed", Version: "1.0.0", Description: "msful's load test, in Go"}

// TestOpenAPIGolden: the document of the seed's routes and the registry's
// components are their golden files, testdata/schema/openapi*.json.
func TestOpenAPIGolden(t *testing.T) {
	reg, routes := seedAPI(t)
	doc, err := reg.OpenAPI(seedInfo, routes)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "schema", "openapi.json"), doc)
	comps, err := reg.OpenAPIComponents()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "schema", "openapi-components.json"), comps)
}

// TestOpenAPIOperations checks what each operation of the seed's document
// says, by JSON Pointer-like paths into it.
func TestOpenAPIOperations(t *testing.T) {
	reg, routes := seedAPI(t)
	b, err := reg.OpenAPI(seedInfo, routes)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path []string
		want string
	}{
		{"version", []string{"openapi"}, `"3.1.0"`},
		{"a header parameter", []string{"paths", "/api/users", "post", "parameters"},
			`[{"in":"header","name":"X-Request-Id","schema":{"type":"string"}}]`},
		{"the body without the header", []string{"paths", "/api/users", "post", "requestBody", "content", "application/json", "schema", "properties", "X-Request-Id"}, `null`},
		{"the body's required", []string{"paths", "/api/users", "post", "requestBody", "content", "application/json", "schema", "required"}, `["mail","name"]`},
		{"the success response", []string{"paths", "/api/users", "post", "responses", "201", "content", "application/json", "schema"}, `{"$ref":"#/components/schemas/user"}`},
		{"a body's problems", []string{"paths", "/api/users", "post", "responses", "415"}, `{"$ref":"#/components/responses/Problem415"}`},
		{"405 where the entity names its methods", []string{"paths", "/api/users", "post", "responses", "405"}, `{"$ref":"#/components/responses/Problem405"}`},
		{"GET fields are query parameters", []string{"paths", "/api/users", "get", "parameters"},
			`[{"in":"query","name":"n","required":true,"schema":{"anyOf":[{"maximum":10000,"minimum":1,"type":"integer"},{"pattern":"^-?[0-9]+(?:\\.0+)?$","type":"string"}]}},` +
				`{"explode":true,"in":"query","name":"tags","schema":{"type":"array"}},` +
				`{"in":"header","name":"X-Trace","required":true,"schema":{"type":"string"}}]`},
		{"GET has no body", []string{"paths", "/api/users", "get", "requestBody"}, `null`},
		{"GET has no 415", []string{"paths", "/api/users", "get", "responses", "415"}, `null`},
		{"a path parameter", []string{"paths", "/api/users/{id}", "delete", "parameters"}, `[{"in":"path","name":"id","required":true,"schema":{"type":"string"}}]`},
		{"204 has no content", []string{"paths", "/api/users/{id}", "delete", "responses", "204"}, `{"description":"No Content"}`},
		{"every operation answers 500", []string{"paths", "/api/test", "get", "responses", "500"}, `{"$ref":"#/components/responses/Problem500"}`},
		{"problems are problem+json", []string{"components", "responses", "Problem400", "content", "application/problem+json", "schema"}, `{"$ref":"#/components/schemas/Problem"}`},
		{"problem types", []string{"components", "schemas", "Problem", "properties", "type", "enum"}, `["about:blank","/problems/invalid-json","/problems/unsupported-media-type","/problems/validation","/problems/invalid-fields","/problems/invalid-version"]`},
		{"an input component keeps its headers", []string{"components", "schemas", "newuser.input", "properties", "X-Request-Id"}, `{"type":["string","null"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v any = doc
			for _, k := range tt.path {
				m, _ := v.(map[string]any)
				v = m[k]
			}
			got, _ := json.Marshal(v)
			if string(got) != tt.want {
				t.Errorf("%s = %s, want %s", strings.Join(tt.path, "/"), got, tt.want)
			}
		})
	}
}

func TestOpenAPIErrors(t *testing.T) {
	reg, _ := seedAPI(t)
	tests := []struct {
		name   string
		info   entity.APIInfo
		routes []entity.Route
		want   string
	}{
		{"no title", entity.APIInfo{Version: "1"}, nil, "entity: OpenAPI: the info needs a Title and a Version"},
		{"a method", seedInfo, []entity.Route{{Method: "FETCH", Path: "/x"}}, `entity: OpenAPI: "FETCH" is not an HTTP method OpenAPI describes`},
		{"a path", seedInfo, []entity.Route{{Method: "GET", Path: "x"}}, `entity: OpenAPI: path "x" does not start with /`},
		{"a path parameter", seedInfo, []entity.Route{{Method: "GET", Path: "/x/{}"}}, `entity: OpenAPI: path "/x/{}" has a { without a name and }`},
		{"a status", seedInfo, []entity.Route{{Method: "GET", Path: "/x", Status: 404}}, "entity: OpenAPI: GET /x: status 404 is no success status"},
		{"twice", seedInfo, []entity.Route{{Method: "GET", Path: "/x"}, {Method: "get", Path: "/x"}}, "entity: OpenAPI: two routes for get /x"},
		{"an entity", seedInfo, []entity.Route{{Method: "GET", Path: "/x", Response: "nobody"}}, `entity: unknown entity: "nobody" is not exposed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := reg.OpenAPI(tt.info, tt.routes)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("OpenAPI = %.80s, %v; want the error %q", b, err, tt.want)
			}
		})
	}

	t.Run("a $ref to nothing", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "a", "b", "$b", "")
		_, err := reg.OpenAPIComponents()
		if want := `entity: schema of "a": field "b": $b names no entity`; err == nil || err.Error() != want {
			t.Errorf("OpenAPIComponents: %v, want %q", err, want)
		}
	})
	t.Run("one component name", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "a b", "x", "string", "")
		expose(t, reg, "a_20b", "x", "string", "")
		_, err := reg.OpenAPIComponents()
		if want := `entity: OpenAPI: the output schema of entity "a b" and the output schema of entity "a_20b" are both the component "a_20b"`; err == nil || err.Error() != want {
			t.Errorf("OpenAPIComponents: %v, want %q", err, want)
		}
	})
}
