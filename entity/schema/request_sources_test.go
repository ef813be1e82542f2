package schema_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// TestRequestSchemaHasOnlyBodyFields: a Request schema says what a
// request's body holds; a field read from the path, the query, a header
// or a cookie is a parameter (Components.Parameters), never a property of
// the body, let alone a required one: a body without it is what
// MakeRequest reads, and one with it is refused by DenyUnknown.
func TestRequestSchemaHasOnlyBodyFields(t *testing.T) {
	reg := entity.NewRegistry()
	e := reg.MustExpose("sourced",
		"id", "number", "path | req",
		"page", "number", "query",
		"tok", "string", "header 'Authorization' | req",
		"sid", "string", "cookie",
		"X-Tenant", "string", "req",
		"name", "string", "req",
	)
	b, err := schema.JSON(e, schema.Request)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties map[string]any `json:"properties"`
		Required   []string       `json:"required"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, key string }{
		{"a path field", "id"},
		{"a query field", "page"},
		{"a header field, by its header name", "Authorization"},
		{"a header field, by its name", "tok"},
		{"a cookie field", "sid"},
		{"an X- field", "X-Tenant"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := s.Properties[tt.key]; ok || slices.Contains(s.Required, tt.key) {
				t.Errorf("the request body's schema has %q (required: %q), a key no body supplies", tt.key, s.Required)
			}
		})
	}
}

// TestParametersFollowSources: Parameters lists what a request reads
// outside its body, where it reads it: a `path` field as a path parameter
// (required, as OpenAPI wants every path parameter), a `header` field
// under its header name, a `cookie` field as a cookie, a `query` field
// as a query parameter even for a request with a body.
func TestParametersFollowSources(t *testing.T) {
	reg := entity.NewRegistry()
	e := reg.MustExpose("sourced",
		"id", "number", "path",
		"page", "number", "query",
		"tok", "string", "header 'Authorization' | req",
		"sid", "string", "cookie",
		"name", "string", "req",
	)
	ps, err := schema.NewComponents().Parameters(e, false)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]schema.Parameter{}
	for _, p := range ps {
		got[p.In+" "+p.Name] = p
	}
	tests := []struct {
		name, in, param string
		required        bool
	}{
		{"a path field", "path", "id", true},
		{"a query field, with a body", "query", "page", false},
		{"a header field", "header", "Authorization", true},
		{"a cookie field", "cookie", "sid", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := got[tt.in+" "+tt.param]
			if !ok || p.Required != tt.required {
				t.Errorf("Parameters = %+v, want %s in %s (required %v)", ps, tt.param, tt.in, tt.required)
			}
		})
	}
}
