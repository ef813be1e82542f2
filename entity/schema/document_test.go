package schema_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
	"github.com/expose-go/expose/internal/testkit"
)

// at is the shared JSON path helper (internal/testkit).
var at = testkit.At

// TestDescriptionsAndExamples: a field's doc is its schema's description,
// its example its examples, in every mode; never a secret field's example,
// nor in a request a formatted field's (what its format writes).
func TestDescriptionsAndExamples(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "e",
		"name", "string", "req | doc 'the full name' | example 'Ann Lee'",
		"pin", "string", "secret | doc 'the PIN' | example '1234'",
		"born", "date", "format 'date' | example '2001-02-03T00:00:00Z'",
		"addr", "{", "doc 'where the customer lives'",
		"city", "string", "example 'Oslo'",
		"addr", "}", "",
	)
	tests := []struct {
		mode schema.Mode
		path []string
		want string
	}{
		{schema.Response, []string{"properties", "name", "description"}, `"the full name"`},
		{schema.Response, []string{"properties", "name", "examples"}, `["Ann Lee"]`},
		{schema.Request, []string{"properties", "name", "examples"}, `["Ann Lee"]`},
		{schema.Patch, []string{"properties", "name", "examples"}, `["Ann Lee"]`},
		{schema.Response, []string{"properties", "pin", "description"}, `"the PIN"`},
		{schema.Response, []string{"properties", "pin", "examples"}, `null`},
		{schema.Request, []string{"properties", "pin", "examples"}, `null`},
		{schema.Response, []string{"properties", "born", "examples"}, `["2001-02-03"]`},
		{schema.Request, []string{"properties", "born", "examples"}, `null`},
		{schema.Response, []string{"properties", "addr", "description"}, `"where the customer lives"`},
		{schema.Request, []string{"properties", "addr", "properties", "city", "examples"}, `["Oslo"]`},
	}
	for _, tt := range tests {
		t.Run(tt.mode.String()+"/"+strings.Join(tt.path, "/"), func(t *testing.T) {
			doc, err := schema.JSON(e, tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			if got := at(t, doc, tt.path...); got != tt.want {
				t.Errorf("= %s, want %s", got, tt.want)
			}
		})
	}
}

// TestPatchSchema: the body of a JSON Merge Patch: no readonly key, none
// required, null where clearing is accepted, a $name's patch and a
// []$name's request elements, no default.
func TestPatchSchema(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "addr", "city", "string", "req")
	e := expose(t, reg, "customer",
		"id", "number", "readonly",
		"name", "string", "req",
		"tier", "string", "default 'bronze'",
		"address", "$addr", "req",
		"old", "[]$addr", "",
		"pref", "{", "",
		"lang", "string", "req",
		"pref", "}", "",
		"X-Trace", "string", "",
	)
	doc, err := schema.JSON(e, schema.Patch)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path []string
		want string
	}{
		{"no readonly key", []string{"properties", "id"}, `null`},
		{"no parameter", []string{"properties", "X-Trace"}, `null`},
		{"nothing required", []string{"required"}, `null`},
		{"a req field is not null", []string{"properties", "name"}, `{"type":"string"}`},
		{"a default's field may be cleared, and has no default", []string{"properties", "tier"}, `{"type":["string","null"]}`},
		{"a $name merges", []string{"properties", "address"}, `{"$ref":"#/$defs/addr"}`},
		{"a []$name is replaced", []string{"properties", "old"}, `{"items":{"$ref":"#/$defs/addr.request"},"type":["array","null"]}`},
		{"a group holding a req field is not null", []string{"properties", "pref", "type"}, `"object"`},
		{"the referenced entity's patch", []string{"$defs", "addr", "required"}, `null`},
		{"the referenced entity's request", []string{"$defs", "addr.request", "required"}, `["city"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := at(t, doc, tt.path...); got != tt.want {
				t.Errorf("%s = %s, want %s", strings.Join(tt.path, "/"), got, tt.want)
			}
		})
	}
}

// TestParametersBySource: a request's path, query, header and cookie
// fields are parameters under the names a request gives them, typed as
// the values their text stands for, with their descriptions; never keys
// of the body.
func TestParametersBySource(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "e",
		"id", "number", "path | doc 'the customer'",
		"limit", "number", "query | range 1 100 | default 20",
		"lang", "string", "header 'Accept-Language'",
		"session", "string", "cookie 'sid' | req",
		"X-Trace", "string", "",
		"name", "string", "req",
	)
	c := schema.NewComponents()
	ps, err := c.Parameters(e, false)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(ps)
	want := `[{"description":"the customer","in":"path","name":"id","required":true,"schema":{"format":"int64","maximum":9223372036854775807,"minimum":-9223372036854775808,"type":"integer"}},` +
		`{"in":"query","name":"limit","schema":{"default":20,"format":"int64","maximum":100,"minimum":1,"type":"integer"}},` +
		`{"in":"header","name":"Accept-Language","schema":{"type":"string"}},` +
		`{"in":"cookie","name":"sid","required":true,"schema":{"type":"string"}},` +
		`{"in":"header","name":"X-Trace","schema":{"type":"string"}}]`
	if string(got) != want {
		t.Errorf("Parameters = %s\nwant %s", got, want)
	}
	if _, err := c.Ref(e, schema.Request); err != nil {
		t.Fatal(err)
	}
	if body, want := string(c.Schemas()["e.request"]), `{"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"}`; body != want {
		t.Errorf("the Request schema = %s, want %s", body, want)
	}
}

// TestOpenAPIOperationRecords: what a route records reaches its operation:
// operationId, summary, description, tags, security, the typed path
// parameters of its Params entity (and of a patched entity's own path
// field), a PATCH's merge patch body, its own error responses.
func TestOpenAPIOperationRecords(t *testing.T) {
	reg := entity.NewRegistry()
	ref := expose(t, reg, "customer_ref", "id", "number", "path | min 1")
	customer := expose(t, reg, "customer", "id", "number", "readonly", "name", "string", "req")
	item := expose(t, reg, "item", "id", "number", "path | min 1", "name", "string", "req") // Patch reads its path field too
	bearer := schema.SecurityScheme{Name: "bearer", Type: "http", Scheme: "bearer", BearerFormat: "JWT"}
	doc, err := schema.OpenAPI(schema.Info{Title: "shop", Version: "1"}, []schema.Route{
		{Method: "GET", Path: "/customers/{id}", OperationID: "getCustomer", Tags: []string{"customers"},
			Summary: "a customer", Description: "The customer of an id.", Request: ref, Response: customer,
			Errors: []schema.ErrorResponse{{Status: 404, Description: "no customer has this id"}}},
		{Method: "PATCH", Path: "/customers/{id}", OperationID: "patchCustomer", Params: ref, Request: customer, Response: customer,
			Errors: []schema.ErrorResponse{{Status: 404}, {Status: 409}}, Security: []schema.Security{{Scheme: bearer}}},
		{Method: "PATCH", Path: "/items/{id}", OperationID: "patchItem", Request: item, Response: item},
	})
	if err != nil {
		t.Fatal(err)
	}
	get := []string{"paths", "/customers/{id}", "get"}
	patch := []string{"paths", "/customers/{id}", "patch"}
	tests := []struct {
		name string
		path []string
		want string
	}{
		{"operationId", append(get, "operationId"), `"getCustomer"`},
		{"tags", append(get, "tags"), `["customers"]`},
		{"summary", append(get, "summary"), `"a customer"`},
		{"description", append(get, "description"), `"The customer of an id."`},
		{"a typed path parameter", append(get, "parameters"), `[{"in":"path","name":"id","required":true,"schema":{"format":"int64","maximum":9223372036854775807,"minimum":1,"type":"integer"}}]`},
		{"the Params entity's path parameter", append(patch, "parameters", "0", "schema", "type"), `"integer"`},
		{"an error response of its own words", append(get, "responses", "404"),
			`{"content":{"application/problem+json":{"schema":{"$ref":"#/components/schemas/Problem"}}},"description":"no customer has this id"}`},
		{"an error response of the status's words", append(patch, "responses", "409"), `{"$ref":"#/components/responses/Problem409"}`},
		{"its component", []string{"components", "responses", "Problem409", "description"}, `"Conflict: RFC 9457 problem details"`},
		{"a merge patch body", append(patch, "requestBody", "content"), `{"application/merge-patch+json":{"schema":{"$ref":"#/components/schemas/customer.patch"}}}`},
		{"the patch component", []string{"components", "schemas", "customer.patch"}, `{"properties":{"name":{"type":"string"}},"type":"object"}`},
		{"a patch's 415", append(patch, "responses", "415"), `{"$ref":"#/components/responses/Problem415"}`},
		{"security", append(patch, "security"), `[{"bearer":[]}]`},
		{"a patched entity's own path parameter", []string{"paths", "/items/{id}", "patch", "parameters"}, `[{"in":"path","name":"id","required":true,"schema":{"format":"int64","maximum":9223372036854775807,"minimum":1,"type":"integer"}}]`},
		{"a patch body without the parameter", []string{"components", "schemas", "item.patch"}, `{"properties":{"name":{"type":"string"}},"type":"object"}`},
		{"a merge patch is required", append(patch, "requestBody", "required"), `true`},
		{"no security where none is given", append(get, "security"), `null`},
		{"the security scheme", []string{"components", "securitySchemes"}, `{"bearer":{"bearerFormat":"JWT","scheme":"bearer","type":"http"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := at(t, doc, tt.path...); got != tt.want {
				t.Errorf("%s = %s\nwant %s", strings.Join(tt.path, "/"), got, tt.want)
			}
		})
	}
}

// TestDescriptionsFromFiles: in an .entity file the comment lines above an
// entity and a field are the descriptions of their schemas.
func TestDescriptionsFromFiles(t *testing.T) {
	reg := entity.NewRegistry()
	fsys := fstest.MapFS{"shop.entity": {Data: []byte("# A customer of the shop.\ncustomer {\n  # The full name.\n  name  string  req\n}\n")}}
	if err := reg.LoadFS(fsys, "*.entity"); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []schema.Mode{schema.Response, schema.Request, schema.Patch} {
		doc, err := schema.JSON(reg.MustLookup("customer"), mode)
		if err != nil {
			t.Fatal(err)
		}
		if got := at(t, doc, "description"); got != `"A customer of the shop."` {
			t.Errorf("%s: the entity's description %s", mode, got)
		}
		if got := at(t, doc, "properties", "name", "description"); got != `"The full name."` {
			t.Errorf("%s: the field's description %s", mode, got)
		}
	}
}

// TestOpenAPIRequestMediaTypes: a request body lists the media types
// MakeRequest reads of its entity: application/json, and the form types
// only for an entity whose methods hold the word form; a merge patch its
// own type whatever the entity reads.
func TestOpenAPIRequestMediaTypes(t *testing.T) {
	reg := entity.NewRegistry()
	login := expose(t, reg, "login", "POST|PATCH form", "user", "string", "req")
	signup := expose(t, reg, "signup", "POST", "user", "string", "req")
	doc, err := schema.OpenAPI(schema.Info{Title: "t", Version: "1"}, []schema.Route{
		{Method: "POST", Path: "/login", Request: login},
		{Method: "PATCH", Path: "/login", Request: login},
		{Method: "POST", Path: "/signup", Request: signup},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path []string
		want []string
	}{
		{[]string{"paths", "/login", "post"}, []string{"application/json", "application/x-www-form-urlencoded", "multipart/form-data"}},
		{[]string{"paths", "/login", "patch"}, []string{"application/merge-patch+json"}},
		{[]string{"paths", "/signup", "post"}, []string{"application/json"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.path, "/"), func(t *testing.T) {
			var content map[string]json.RawMessage
			if err := json.Unmarshal([]byte(at(t, doc, append(tt.path, "requestBody", "content")...)), &content); err != nil {
				t.Fatal(err)
			}
			var got []string
			for mt, s := range content {
				got = append(got, mt)
				if want := at(t, doc, append(tt.path, "requestBody", "content", tt.want[0], "schema")...); string(s) != `{"schema":`+want+`}` {
					t.Errorf("%s: %s, want the schema of %s", mt, s, tt.want[0])
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("media types %q, want %q", got, tt.want)
			}
		})
	}
}
