package schema_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// selectionRegistry declares a response with a required key, a group, a
// reference and a cross-field rule, and the parameters of a selection.
func selectionRegistry(t testing.TB) (reg *entity.Registry, item *entity.Entity) {
	t.Helper()
	reg = entity.NewRegistry()
	expose(t, reg, "owner", "name", "string", "req", "mail", "string", "req")
	item = expose(t, reg, "item",
		"id", "number", "req",
		"kind", "string", "req",
		"size", "string", "required_if 'kind' 'box'",
		"dims", "{", "",
		"w", "number", "req",
		"dims", "}", "",
		"owner", "$owner", "req",
	)
	return reg, item
}

// TestSelectionParameter: an operation that names its selection parameter
// (Route.Select) documents it with the grammar and the response's keys,
// an example and a default that select from the response (a declared
// example that does not is replaced), and added when no entity reads it.
func TestSelectionParameter(t *testing.T) {
	reg, item := selectionRegistry(t)
	byID := expose(t, reg, "by_id", "id", "number", "path", "fields", "string", "query | default '' | example 'list(id)'")
	doc, err := schema.OpenAPI(seedInfo, []schema.Route{
		{Method: "GET", Path: "/items/{id}", Request: byID, Response: item, Select: "fields"},
		{Method: "GET", Path: "/items", Response: item, Select: "f"},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		param      int
		want       string
	}{
		{"a declared parameter", "/items/{id}", 1, `{"in":"query","name":"fields","schema":{"default":"","description":"A selection of the response's fields: ` +
			`keys separated by commas, a(b,c) for the keys b and c of the object a, a/b for its key b alone, * for every key of a level; empty for every field. ` +
			`The keys: id, kind, size, dims(w), owner(name, mail).","examples":["id,dims(w)"],"type":"string"}}`},
		{"a parameter no entity reads", "/items", 0, `{"in":"query","name":"f","schema":{"description":"A selection of the response's fields: ` +
			`keys separated by commas, a(b,c) for the keys b and c of the object a, a/b for its key b alone, * for every key of a level; empty for every field. ` +
			`The keys: id, kind, size, dims(w), owner(name, mail).","examples":["id,dims(w)"],"type":"string"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := at(t, doc, "paths", tt.path, "get", "parameters", string(rune('0'+tt.param))); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	if _, err := item.MakeJSON(map[string]any{}, entity.Select("id,dims(w)")); errors.Is(err, entity.ErrInvalidFields) {
		t.Errorf("the example is no selection: %v", err)
	}
}

// TestSelectedResponseRequiresNothing: the success response of an
// operation that takes a selection is the partial variant of its schema,
// and of those it references: no key required, no cross-field rule, so
// that a response a selection shaped validates; an operation without one
// keeps the full schema.
func TestSelectedResponseRequiresNothing(t *testing.T) {
	_, item := selectionRegistry(t)
	doc, err := schema.OpenAPI(seedInfo, []schema.Route{
		{Method: "GET", Path: "/items", Response: item, Select: "fields"},
		{Method: "POST", Path: "/items", Response: item},
	})
	if err != nil {
		t.Fatal(err)
	}
	content := []string{"responses", "200", "content", "application/json", "schema", "$ref"}
	if got := at(t, doc, append([]string{"paths", "/items", "get"}, content...)...); got != `"#/components/schemas/item.partial"` {
		t.Errorf("the selected response is %s", got)
	}
	if got := at(t, doc, append([]string{"paths", "/items", "post"}, content...)...); got != `"#/components/schemas/item"` {
		t.Errorf("the full response is %s", got)
	}
	var d struct {
		Components struct{ Schemas map[string]json.RawMessage }
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"item.partial", "owner.partial"} {
		s := compact(d.Components.Schemas[name])
		if s == "" || strings.Contains(s, `"required"`) || strings.Contains(s, `"allOf"`) || !strings.Contains(s, `"additionalProperties":false`) {
			t.Errorf("%s = %s, want its keys, none required, no cross-field rule", name, s)
		}
	}
	if s := compact(d.Components.Schemas["item"]); !strings.Contains(s, `"required"`) || !strings.Contains(s, `"allOf"`) {
		t.Errorf("item = %s, want its required keys and rule", s)
	}
}

// TestSelectionErrors: a selection of no response, a default that selects
// nothing of the response (every request without the parameter would
// fail), and a parameter read as no string are refused.
func TestSelectionErrors(t *testing.T) {
	reg, item := selectionRegistry(t)
	badDefault := expose(t, reg, "bad_default", "fields", "string", "query | default 'id,nope'")
	number := expose(t, reg, "number_fields", "fields", "number", "query")
	tests := []struct {
		name  string
		route schema.Route
		want  string
	}{
		{"no response", schema.Route{Method: "GET", Path: "/x", Select: "fields"},
			`schema: OpenAPI: GET /x: Select names a parameter, but the route has no Response entity to select from`},
		{"a default that is no selection", schema.Route{Method: "GET", Path: "/x", Request: badDefault, Response: item, Select: "fields"},
			`schema: OpenAPI: GET /x: the selection parameter "fields" has a default that is no selection of the response: every request without it would fail`},
		{"a number", schema.Route{Method: "GET", Path: "/x", Request: number, Response: item, Select: "fields"},
			`schema: OpenAPI: GET /x: the selection parameter "fields" is read by a field that is no string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := schema.OpenAPI(seedInfo, []schema.Route{tt.route}); err == nil || err.Error() != tt.want {
				t.Errorf("OpenAPI: %v\nwant %s", err, tt.want)
			}
		})
	}
}
