package schema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// seedAPI declares the example server's entities in a new registry, and
// its routes.
func seedAPI(t testing.TB) []schema.Route {
	t.Helper()
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	expose(t, reg, "user",
		"id", "number", "num | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown'",
		"score", "number", "if 'admin'",
	)
	users := expose(t, reg, "users", "offset", "number", "default 0", "limit", "number", "default 0", "list", "$user", "")
	newUser := expose(t, reg, "newuser", "POST",
		"name", "string", "req",
		"mail", "string", "req | email",
		"age", "number", "range 0 150",
		"X-Request-Id", "string", "rename requestId",
	)
	query := expose(t, reg, "usersquery", "GET",
		"n", "number", "req | range 1 10000",
		"tags", "list", "",
		"X-Trace", "string", "req",
	)
	return []schema.Route{
		{Method: "GET", Path: "/api/test", Response: users, Summary: "the seed's payload"},
		{Method: "GET", Path: "/api/users", Request: query, Response: users},
		{Method: "POST", Path: "/api/users", Request: newUser, Response: reg.Lookup("user"), Status: 201},
		{Method: "DELETE", Path: "/api/users/{id}", Status: 204},
	}
}

var seedInfo = schema.Info{Title: "seed", Version: "1.0.0", Description: "msful's load test, in Go"}

// TestOpenAPIGolden: the document of the seed's routes, public and for
// admins, are golden files, testdata/openapi*.json.
func TestOpenAPIGolden(t *testing.T) {
	routes := seedAPI(t)
	for _, tt := range []struct {
		file string
		opts []entity.Option
	}{
		{"openapi.json", nil},
		{"openapi-admin.json", []entity.Option{entity.With("admin")}},
	} {
		doc, err := schema.OpenAPI(seedInfo, routes, tt.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := schema.OpenAPI(seedInfo, routes, tt.opts...); !bytes.Equal(doc, again) {
			t.Errorf("two calls give two documents")
		}
		golden(t, filepath.Join("testdata", tt.file), doc)
		if admin := bytes.Contains(doc, []byte(`"score"`)); admin != (tt.opts != nil) {
			t.Errorf("%s lists score: %v", tt.file, admin)
		}
	}
}

// TestOpenAPIOperations checks what each operation of the seed's document
// says, by paths into it.
func TestOpenAPIOperations(t *testing.T) {
	b, err := schema.OpenAPI(seedInfo, seedAPI(t))
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
		{"the body", []string{"paths", "/api/users", "post", "requestBody"}, `{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/newuser.request"}}},"required":true}`},
		{"the body without the header", []string{"components", "schemas", "newuser.request", "properties", "requestId"}, `null`},
		{"the body's required", []string{"components", "schemas", "newuser.request", "required"}, `["mail","name"]`},
		{"the success response", []string{"paths", "/api/users", "post", "responses", "201", "content", "application/json", "schema"}, `{"$ref":"#/components/schemas/user"}`},
		{"a 201's Location", []string{"paths", "/api/users", "post", "responses", "201", "headers"},
			`{"Location":{"description":"the URI of the resource created","schema":{"format":"uri-reference","type":"string"}}}`},
		{"no Location but for a 201", []string{"paths", "/api/users", "get", "responses", "200", "headers"}, `null`},
		{"a body's problems", []string{"paths", "/api/users", "post", "responses", "415"}, `{"$ref":"#/components/responses/Problem415"}`},
		{"405 where the entity names its methods", []string{"paths", "/api/users", "post", "responses", "405"}, `{"$ref":"#/components/responses/Problem405"}`},
		{"GET fields are query parameters, typed as the values their text stands for", []string{"paths", "/api/users", "get", "parameters"},
			`[{"in":"query","name":"n","required":true,"schema":{"format":"int64","maximum":10000,"minimum":1,"type":"integer"}},` +
				`{"in":"query","name":"tags","schema":{"type":"array"}},` +
				`{"in":"header","name":"X-Trace","required":true,"schema":{"type":"string"}}]`},
		{"GET has no body", []string{"paths", "/api/users", "get", "requestBody"}, `null`},
		{"GET has no 415", []string{"paths", "/api/users", "get", "responses", "415"}, `null`},
		{"a path parameter", []string{"paths", "/api/users/{id}", "delete", "parameters"}, `[{"in":"path","name":"id","required":true,"schema":{"type":"string"}}]`},
		{"204 has no content", []string{"paths", "/api/users/{id}", "delete", "responses", "204"}, `{"description":"No Content"}`},
		{"every operation answers 500", []string{"paths", "/api/test", "get", "responses", "500"}, `{"$ref":"#/components/responses/Problem500"}`},
		{"problems are problem+json", []string{"components", "responses", "Problem400", "content", "application/problem+json", "schema"}, `{"$ref":"#/components/schemas/Problem"}`},
		{"problem types", []string{"components", "schemas", "Problem", "properties", "type"}, `{"format":"uri-reference","type":"string"}`},
		{"the public user has no score", []string{"components", "schemas", "user", "properties", "score"}, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v any = doc
			for _, k := range tt.path {
				m, _ := v.(map[string]any)
				v = m[k]
			}
			var got bytes.Buffer
			enc := json.NewEncoder(&got)
			enc.SetEscapeHTML(false)
			enc.Encode(v)
			if s := strings.TrimSpace(got.String()); s != tt.want {
				t.Errorf("%s = %s, want %s", strings.Join(tt.path, "/"), s, tt.want)
			}
		})
	}
}

func TestOpenAPIErrors(t *testing.T) {
	routes := seedAPI(t)
	tests := []struct {
		name   string
		info   schema.Info
		routes []schema.Route
		want   string
	}{
		{"no title", schema.Info{Version: "1"}, nil, "schema: OpenAPI: the info needs a Title and a Version"},
		{"a method", seedInfo, []schema.Route{{Method: "FETCH", Path: "/x"}}, `schema: OpenAPI: "FETCH" is not an HTTP method OpenAPI describes`},
		{"a path", seedInfo, []schema.Route{{Method: "GET", Path: "x"}}, `schema: OpenAPI: path "x" does not start with /`},
		{"a path parameter", seedInfo, []schema.Route{{Method: "GET", Path: "/x/{}"}}, `schema: OpenAPI: path "/x/{}" has a { without a name and }`},
		{"a status", seedInfo, []schema.Route{{Method: "GET", Path: "/x", Status: 404}}, "schema: OpenAPI: GET /x: status 404 is no success status"},
		{"twice", seedInfo, []schema.Route{{Method: "GET", Path: "/x"}, {Method: "get", Path: "/x"}}, "schema: OpenAPI: two routes for GET /x"},
		{"a $ref to nothing", seedInfo, []schema.Route{{Method: "GET", Path: "/x", Response: expose(t, entity.NewRegistry(), "a", "b", "$b", "")}},
			`schema: entity "a": field "b": $b names no entity`},
		{"one operationId twice", seedInfo, []schema.Route{{Method: "GET", Path: "/x", OperationID: "x"}, {Method: "POST", Path: "/x", OperationID: "x"}},
			`schema: OpenAPI: GET /x and POST /x are both operation "x"`},
		{"a path parameter the path lacks", seedInfo, []schema.Route{{Method: "GET", Path: "/x", Request: expose(t, entity.NewRegistry(), "p", "id", "number", "path")}},
			`schema: OpenAPI: GET /x: an entity reads path parameter "id", which the path does not hold`},
		{"an error response of no error status", seedInfo, []schema.Route{{Method: "GET", Path: "/x", Errors: []schema.ErrorResponse{{Status: 302}}}},
			"schema: OpenAPI: GET /x: response status 302 is no error status"},
		{"two error responses of one status", seedInfo, []schema.Route{{Method: "GET", Path: "/x", Errors: []schema.ErrorResponse{{Status: 404}, {Status: 404}}}},
			"schema: OpenAPI: GET /x: two responses of status 404"},
		{"a security scheme of no type", seedInfo, []schema.Route{{Method: "GET", Path: "/x", Security: []schema.Security{{Scheme: schema.SecurityScheme{Name: "k", Type: "key"}}}}},
			`schema: OpenAPI: GET /x: security scheme "k": type "key" is not http, apiKey, mutualTLS or openIdConnect`},
		{"an apiKey scheme without its parameter", seedInfo, []schema.Route{{Method: "GET", Path: "/x", Security: []schema.Security{{Scheme: schema.SecurityScheme{Name: "k", Type: "apiKey", In: "header"}}}}},
			`schema: OpenAPI: GET /x: security scheme "k": an apiKey scheme names its Param and where it is (In: header, query or cookie)`},
		{"two security schemes of one name", seedInfo, []schema.Route{
			{Method: "GET", Path: "/x", Security: []schema.Security{{Scheme: schema.SecurityScheme{Name: "k", Type: "http", Scheme: "bearer"}}}},
			{Method: "POST", Path: "/x", Security: []schema.Security{{Scheme: schema.SecurityScheme{Name: "k", Type: "http", Scheme: "basic"}}}}},
			`schema: OpenAPI: POST /x: security scheme "k": two schemes have this name`},
	}
	_ = routes
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := schema.OpenAPI(tt.info, tt.routes)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("OpenAPI = %.80s, %v; want the error %q", b, err, tt.want)
			}
		})
	}
	t.Run("one component name", func(t *testing.T) {
		reg := entity.NewRegistry()
		c := schema.NewComponents()
		if _, err := c.Ref(expose(t, reg, "a b", "x", "string", ""), schema.Response); err != nil {
			t.Fatal(err)
		}
		_, err := c.Ref(expose(t, reg, "a_20b", "x", "string", ""), schema.Response)
		if want := `schema: the response schema of entity "a b" and the response schema of entity "a_20b" are both the component "a_20b"`; err == nil || err.Error() != want {
			t.Errorf("Ref: %v, want %q", err, want)
		}
	})
}

// TestComponents: the pieces an API package assembles a document from.
func TestComponents(t *testing.T) {
	routes := seedAPI(t)
	newUser, users := routes[2].Request, routes[0].Response
	c := schema.NewComponents()
	tests := []struct {
		name string
		got  func() (any, error)
		want string
	}{
		{"a reference", func() (any, error) { return c.Ref(users, schema.Response) }, `{"$ref":"#/components/schemas/users"}`},
		{"a request's reference", func() (any, error) { return c.Ref(users, schema.Request) }, `{"$ref":"#/components/schemas/users.request"}`},
		{"a request schema holds no header", func() (any, error) {
			_, err := c.Ref(newUser, schema.Request)
			b := c.Schemas()["newuser.request"]
			var s struct {
				Properties map[string]any
				Required   []string
			}
			json.Unmarshal(b, &s)
			_, header := s.Properties["requestId"]
			return fmt.Sprintf("%d properties, requestId %v, required %v", len(s.Properties), header, s.Required), err
		}, "3 properties, requestId false, required [mail name]"},
		{"header parameters", func() (any, error) { return c.Parameters(newUser, false) }, `[{"in":"header","name":"X-Request-Id","schema":{"type":"string"}}]`},
		{"the problem", func() (any, error) { return c.Problem("https://api.example.com/problems/") }, `{"$ref":"#/components/schemas/Problem"}`},
		{"a nil entity", func() (any, error) { return c.Ref(nil, schema.Response) }, "schema: a nil *entity.Entity (Lookup finds nothing under a name that is not exposed)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := tt.got()
			got := ""
			if s, ok := v.(string); ok {
				got = s
			} else if err != nil {
				got = err.Error()
			} else {
				var b bytes.Buffer
				enc := json.NewEncoder(&b)
				enc.SetEscapeHTML(false)
				enc.Encode(v)
				got = strings.TrimSpace(b.String())
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	names := []string{}
	for name := range c.Schemas() {
		names = append(names, name)
	}
	if want := "Problem,ProblemFieldError,newuser.request,user,user.request,users,users.request"; strings.Join(sorted(names), ",") != want {
		t.Errorf("components %v, want %s", sorted(names), want)
	}
	s := c.Schemas()
	s["users"][0] = 'x'
	if b, _ := c.MarshalJSON(); !json.Valid(b) {
		t.Errorf("Schemas returned the components' own bytes")
	}
	if b, _ := c.MarshalJSON(); !bytes.Contains(b, []byte("https://api.example.com/problems/")) {
		t.Errorf("the problem's description does not name the type base")
	}
}

func sorted(l []string) []string {
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && l[j] < l[j-1]; j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
	return l
}

// TestRequestBodyRequired: an operation's request body is required where
// a request without one is refused: a merge patch always (Patch refuses
// a request without one), another body when its schema requires a key
// (no body reads as an empty object); and a request without a body is
// refused exactly there.
func TestRequestBodyRequired(t *testing.T) {
	reg := entity.NewRegistry()
	named := expose(t, reg, "named", "name", "string", "req")
	optional := expose(t, reg, "optional", "name", "string", "", "X-Id", "string", "req")
	tests := []struct {
		name     string
		method   string
		e        *entity.Entity
		required bool
	}{
		{"a POST of a required key", "POST", named, true},
		{"a PUT of a required key", "PUT", named, true},
		{"a POST of optional keys", "POST", optional, false},
		{"a PATCH of a required key", "PATCH", named, true},
		{"a PATCH of optional keys", "PATCH", optional, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := schema.OpenAPI(seedInfo, []schema.Route{{Method: tt.method, Path: "/r", Request: tt.e}})
			if err != nil {
				t.Fatal(err)
			}
			want := "null"
			if tt.required {
				want = "true"
			}
			if got := at(t, doc, "paths", "/r", strings.ToLower(tt.method), "requestBody", "required"); got != want {
				t.Errorf("requestBody.required = %s, want %s", got, want)
			}
			r := httptest.NewRequest(tt.method, "/r", nil)
			r.Header.Set("X-Id", "1")
			if tt.method == "PATCH" {
				_, _, err = tt.e.Patch(r, map[string]any{"name": "a"})
			} else {
				_, err = tt.e.MakeRequest(r)
			}
			if refused := err != nil; refused != tt.required {
				t.Errorf("a request without a body: %v, refused %v, want %v", err, refused, tt.required)
			}
		})
	}
}

// TestEveryComponentIsReferenced: a document declares no component that
// nothing references: each schema and each problem response is named by
// a $ref of an operation or of another component used (no Problem405
// where no entity names its methods, no Problem where there is no
// operation); and what is referenced is declared.
func TestEveryComponentIsReferenced(t *testing.T) {
	reg := entity.NewRegistry()
	a := expose(t, reg, "a", "b", "$b", "", "n", "number", "")
	expose(t, reg, "b", "c", "string", "")
	routes := map[string][]schema.Route{
		"the seed":     seedAPI(t),
		"no methods":   {{Method: "GET", Path: "/a", Response: a}, {Method: "POST", Path: "/a", Request: a, Response: a}},
		"a selection":  {{Method: "GET", Path: "/a", Response: a, Select: "fields"}},
		"no operation": nil,
	}
	for name, rs := range routes {
		t.Run(name, func(t *testing.T) {
			doc, err := schema.OpenAPI(seedInfo, rs)
			if err != nil {
				t.Fatal(err)
			}
			var d struct {
				Components struct {
					Schemas, Responses map[string]json.RawMessage
				}
			}
			if err := json.Unmarshal(doc, &d); err != nil {
				t.Fatal(err)
			}
			declared := map[string]bool{}
			for n := range d.Components.Schemas {
				declared["#/components/schemas/"+n] = true
			}
			for n := range d.Components.Responses {
				declared["#/components/responses/"+n] = true
			}
			// What is used: the $refs reachable from the paths.
			var paths struct{ Paths json.RawMessage }
			json.Unmarshal(doc, &paths)
			used := map[string]bool{}
			queue := []json.RawMessage{paths.Paths}
			for len(queue) > 0 {
				text := string(queue[0])
				queue = queue[1:]
				for _, part := range strings.Split(text, `"$ref":`)[1:] {
					var ref string
					json.NewDecoder(strings.NewReader(part)).Decode(&ref)
					if used[ref] {
						continue
					}
					used[ref] = true
					if c, ok := d.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")]; ok {
						queue = append(queue, c)
					}
					if c, ok := d.Components.Responses[strings.TrimPrefix(ref, "#/components/responses/")]; ok {
						queue = append(queue, c)
					}
				}
			}
			for ref := range declared {
				if !used[ref] {
					t.Errorf("%s is declared and never used", ref)
				}
			}
			for ref := range used {
				if !declared[ref] {
					t.Errorf("%s is used and never declared", ref)
				}
			}
		})
	}
}
