package schematest

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/expose-go/expose/api"
	"github.com/expose-go/expose/entity/schema"
)

// TestAPIShopDocumentsValid: the documents package api serves for its
// shop (kept as the package's golden files by its own test), the public
// one and the staff's, are valid OpenAPI 3.1 for both validators; every
// operation has an operationId, every {id} is an integer, the public one
// has no admin-only field.
func TestAPIShopDocumentsValid(t *testing.T) {
	docs := map[string][]byte{}
	for _, name := range []string{"shop.openapi.json", "shop-admin.openapi.json"} {
		b, err := os.ReadFile("../api/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		docs[name] = b
		var d struct {
			Paths map[string]map[string]struct {
				OperationID string `json:"operationId"`
				Parameters  []struct {
					Name, In string
					Schema   struct{ Type string }
				}
			}
		}
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		for path, ops := range d.Paths {
			for method, op := range ops {
				if op.OperationID == "" {
					t.Errorf("%s: %s %s has no operationId", name, method, path)
				}
				for _, p := range op.Parameters {
					if p.In == "path" && p.Name == "id" && p.Schema.Type != "integer" {
						t.Errorf("%s: %s %s: {id} is a %q", name, method, path, p.Schema.Type)
					}
				}
			}
		}
		if has := strings.Contains(string(b), `"loyalty_points"`); has != (name == "shop-admin.openapi.json") {
			t.Errorf("%s lists the admin-only loyalty_points: %v", name, has)
		}
	}
	checkOpenAPI(t, docs)
}

// TestAPIMixedDocumentsValid: an API of routes over the mixed
// declarations, each read by GET (query parameters), POST (a body), PATCH
// (a merge patch, its path read by another entity) and answered with the
// handlers' own errors and security, is valid OpenAPI 3.1 for both
// validators, for each audience.
func TestAPIMixedDocumentsValid(t *testing.T) {
	reg := mixedRegistry(t, append([][]string{{"ref", "id", "number", "path | min 1"}}, mixedDecls...))
	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "mixed", Version: "1"}})
	ok := func(http.ResponseWriter, *http.Request) {}
	key := schema.SecurityScheme{Name: "key", Type: "apiKey", In: "header", Param: "X-Key"}
	for _, d := range mixedDecls {
		e := reg.Lookup(d[0])
		a.HandleFunc("GET /"+d[0], ok, api.Operation{Request: e, Response: e, Tags: []string{"get"}})
		a.HandleFunc("POST /"+d[0], ok, api.Operation{Request: e, Response: e, Status: http.StatusCreated,
			Errors: []schema.ErrorResponse{{Status: http.StatusConflict}}, Security: []schema.Security{{Scheme: key}}})
		a.HandleFunc("PATCH /"+d[0]+"/{id}", ok, api.Operation{Params: reg.Lookup("ref"), Request: e, Response: e,
			Errors: []schema.ErrorResponse{{Status: http.StatusNotFound, Description: "no such " + d[0]}}})
	}
	docs := map[string][]byte{}
	for name, aud := range map[string]api.Audience{"public": {}, "admin": {Flags: []string{"admin"}}, "v1": {Version: "v1"}} {
		doc, err := a.OpenAPI(aud)
		if err != nil {
			t.Fatal(err)
		}
		docs[name] = doc
	}
	checkOpenAPI(t, docs)
}
