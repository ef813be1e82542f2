package schema_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
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

// documentedRequest returns what the OpenAPI document of one route of
// method on /r says a request holds: its parameters, as "in name", and
// the keys of its body's schema at every depth, as paths ("g.by").
func documentedRequest(t *testing.T, method string, e *entity.Entity) (params, keys []string) {
	t.Helper()
	doc, err := schema.OpenAPI(schema.Info{Title: "t", Version: "1"}, []schema.Route{{Method: method, Path: "/r", Request: e}})
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Paths map[string]map[string]struct {
			Parameters  []schema.Parameter
			RequestBody *struct {
				Content map[string]struct {
					Schema struct {
						Ref string `json:"$ref"`
					}
				}
			}
		}
		Components struct{ Schemas map[string]json.RawMessage }
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	op := d.Paths["/r"][strings.ToLower(method)]
	for _, p := range op.Parameters {
		params = append(params, p.In+" "+p.Name)
	}
	if op.RequestBody == nil {
		return params, nil
	}
	var walk func(prefix string, s json.RawMessage)
	walk = func(prefix string, s json.RawMessage) {
		var o struct {
			Ref        string `json:"$ref"`
			AnyOf      []json.RawMessage
			Properties map[string]json.RawMessage
		}
		json.Unmarshal(s, &o)
		if o.Ref != "" {
			walk(prefix, d.Components.Schemas[strings.TrimPrefix(o.Ref, "#/components/schemas/")])
		}
		for _, a := range o.AnyOf {
			walk(prefix, a)
		}
		for k, p := range o.Properties {
			keys = append(keys, prefix+k)
			walk(prefix+k+".", p)
		}
	}
	for _, c := range op.RequestBody.Content {
		walk("", json.RawMessage(`{"$ref":"`+c.Schema.Ref+`"}`))
	}
	slices.Sort(keys)
	return params, keys
}

// TestQueryParametersAreWhatARequestReads: on a method whose requests
// read their body fields from the query (GET), the document lists as
// query parameters exactly the fields MakeRequest reads from the query:
// the top-level value fields (a typed list too) and those of a merged
// entity; never a group's fields, nor a reference's, which a query
// cannot hold.
func TestQueryParametersAreWhatARequestReads(t *testing.T) {
	reg := entity.NewRegistry()
	reg.MustExpose("person", "name", "string", "")
	reg.MustExpose("filter", "status", "string", "")
	e := reg.MustExpose("search",
		"q", "string", "",
		"tags", "[]string", "",
		"page", "{", "",
		"size", "string", "",
		"page", "}", "",
		"owner", "$person", "",
		"flt", "$filter", "merge",
		"X-Trace", "string", "",
	)
	params, keys := documentedRequest(t, "GET", e)
	want := []string{"query q", "query tags", "query status", "header X-Trace"}
	if !slices.Equal(params, want) || keys != nil {
		t.Errorf("GET's parameters %q and body %q, want %q and none", params, keys, want)
	}
	for _, key := range []string{"q", "tags", "size", "status", "name", "page.size", "owner.name"} {
		r := httptest.NewRequest("GET", "/r?"+url.Values{key: {"zq1"}}.Encode(), nil)
		o, err := e.MakeRequest(r)
		read := err == nil && strings.Contains(o.String(), "zq1")
		if documented := slices.Contains(params, "query "+key); read != documented {
			t.Errorf("?%s=zq1: MakeRequest reads it %v (%v), the document lists it %v", key, read, err, documented)
		}
	}
}

// TestMergedParametersAreParameters: the path, query, header and cookie
// fields of an entity merged at the top level are parameters of the
// operation, never keys of its body, and a request made as the document
// says is read whole; merged into a group, where a request reads them
// from nowhere, they are neither.
func TestMergedParametersAreParameters(t *testing.T) {
	reg := entity.NewRegistry()
	reg.MustExpose("audit",
		"X-User", "string", "req",
		"trace", "string", "query",
		"sid", "string", "cookie",
		"by", "string", "",
	)
	reg.MustExpose("stamp", "id", "number", "path", "at", "string", "")
	e := reg.MustExpose("doc",
		"title", "string", "req",
		"audit", "$audit", "merge",
		"g", "{", "",
		"stamp", "$stamp", "merge",
		"g", "}", "",
	)
	params, keys := documentedRequest(t, "POST", e)
	if want := []string{"header X-User", "query trace", "cookie sid"}; !slices.Equal(params, want) {
		t.Errorf("parameters %q, want %q", params, want)
	}
	if want := []string{"by", "g", "g.at", "title"}; !slices.Equal(keys, want) {
		t.Errorf("the body's keys %q, want %q", keys, want)
	}
	r := httptest.NewRequest("POST", "/r?trace=t1", strings.NewReader(`{"title":"x","by":"b1","g":{"at":"a1"}}`))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-User", "u1")
	r.AddCookie(&http.Cookie{Name: "sid", Value: "s1"})
	o, err := e.MakeRequest(r)
	if err != nil {
		t.Fatalf("a request made as the document says: %v", err)
	}
	for _, v := range []string{"x", "b1", "a1", "u1", "t1", "s1"} {
		if !strings.Contains(o.String(), `"`+v+`"`) {
			t.Errorf("the request's %q is not read: %s", v, o)
		}
	}
}
