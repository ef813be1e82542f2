package schematest

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// jsonTypesBodies are request bodies for the entity of TestJSONTypes: the
// JSON types a registry of JSONTypes takes, and the text and numbers a
// registry without it converts, which it refuses.
var jsonTypesBodies = []struct{ name, body string }{
	{"every JSON type", `{"i":3,"f":1.5,"b":true,"d":"2026-12-01T09:30:00Z","ns":[1,2],"g":{"gi":4},"s":"x"}`},
	{"an integer written 3.0", `{"i":3.0}`},
	{"a date with an offset and a fraction", `{"d":"2026-12-01T09:30:00.25+09:00"}`},
	{"nulls", `{"i":null,"b":null,"d":null}`},
	{"an integer as text", `{"i":"3"}`},
	{"a float as text", `{"f":"1.5"}`},
	{"a bool as text", `{"b":"true"}`},
	{"a bool as a number", `{"b":1}`},
	{"a date as milliseconds", `{"d":0}`},
	{"a date with slashes", `{"d":"2026/12/1"}`},
	{"a date alone", `{"d":"2026-12-01"}`},
	{"a list's element as text", `{"ns":[1,"2"]}`},
	{"a group's integer as text", `{"g":{"gi":"4"}}`},
	{"an integer out of its bounds", `{"i":0}`},
}

// TestJSONTypes: in a registry of JSONTypes, ajv (strict, formats
// asserted) and jsonschema/v6 compile the request and patch schemas and
// accept exactly the bodies MakeRequest accepts; the OpenAPI document of
// its routes, whose parameters are text as in every registry, is valid
// for @seriousme's validator and libopenapi, its bodies' schemas without
// an alternative or a pattern.
func TestJSONTypes(t *testing.T) {
	decl := []string{"i", "number", "min 1", "f", "float", "", "b", "bool", "", "d", "date", "",
		"ns", "[]number", "", "g", "{", "", "gi", "number", "", "g", "}", "", "s", "string", "",
		"id", "number", "path", "limit", "number", "query"}
	e := entity.NewRegistry(entity.JSONTypes()).MustExpose("order", decl...)
	plain := entity.NewRegistry().MustExpose("order", decl...)

	var b ajvBatch
	for _, mode := range []schema.Mode{schema.Request, schema.Patch} {
		s, err := schema.JSON(e, mode)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(s), "anyOf") || strings.Contains(string(s), "pattern") {
			t.Errorf("%v schema: an alternative or a pattern:\n%s", mode, s)
		}
		b.schema(mode.String(), s)
		goSchema := compile(t, mode.String(), s)
		for _, c := range jsonTypesBodies {
			r := httptest.NewRequest(http.MethodPost, "/orders/1", strings.NewReader(c.body))
			r.Header.Set("Content-Type", "application/json")
			r.SetPathValue("id", "1")
			_, err := e.MakeRequest(r)
			accepted := err == nil
			var ve *entity.ValidationError
			if err != nil && !errors.As(err, &ve) {
				t.Fatalf("%s: %v", c.name, err)
			}
			if mode == schema.Patch && c.body == `{"i":null,"b":null,"d":null}` {
				accepted = true // a patch's null removes the key
			}
			b.check(mode.String(), []byte(c.body), accepted, mode.String()+": "+c.name)
			if got := validate(goSchema, []byte(c.body)) == nil; got != accepted {
				t.Errorf("jsonschema/v6: %v: %s: valid %v, MakeRequest accepts %v", mode, c.name, got, accepted)
			}
		}
	}
	if n := b.run(t, 20); n != 2*len(jsonTypesBodies) {
		t.Errorf("%d instances checked, want %d", n, 2*len(jsonTypesBodies))
	}

	docs := map[string][]byte{}
	params := map[string]string{}
	for name, x := range map[string]*entity.Entity{"typed": e, "plain": plain} {
		doc, err := schema.OpenAPI(schema.Info{Title: "orders", Version: "1"}, []schema.Route{
			{Method: "POST", Path: "/orders/{id}", Request: x, Response: x, Status: 201},
			{Method: "PATCH", Path: "/orders/{id}", Request: x, Response: x},
		})
		if err != nil {
			t.Fatal(err)
		}
		docs[name+".json"] = doc
		var d struct {
			Paths map[string]map[string]struct {
				Parameters json.RawMessage
			}
			Components struct{ Schemas map[string]json.RawMessage }
		}
		if err := json.Unmarshal(doc, &d); err != nil {
			t.Fatal(err)
		}
		params[name] = string(d.Paths["/orders/{id}"]["post"].Parameters)
		if name == "typed" {
			for comp, s := range d.Components.Schemas {
				if strings.HasPrefix(comp, "order") && (strings.Contains(string(s), "anyOf") || strings.Contains(string(s), "pattern")) {
					t.Errorf("the component %s holds an alternative or a pattern: %s", comp, s)
				}
			}
		}
	}
	if params["typed"] == "" || params["typed"] != params["plain"] {
		t.Errorf("the parameters differ under JSONTypes:\n%s\n%s", params["typed"], params["plain"])
	}
	checkOpenAPI(t, docs)
}
