package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/expose-go/expose/api"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// An API on the application's own mux: each handler registered with what
// its operation reads and answers. The document is made from the routes:
// {id} is an integer because the entity that reads it says so; an unknown
// path and a wrong method answer problem details.
func ExampleNew() {
	reg := entity.NewRegistry()
	ref := reg.MustExpose("customer_ref", "id", "number", "path | min 1")
	customer := reg.MustExpose("customer",
		"id", "number", "readonly",
		"name", "string", "req | min 1 | max 100 | doc 'the full name'",
	)

	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "shop", Version: "1.0.0"}})
	a.HandleFunc("GET /customers/{id}", func(w http.ResponseWriter, r *http.Request) {
		o, err := ref.MakeRequest(r)
		if err != nil {
			entity.WriteError(w, err)
			return
		}
		id, _ := o.Get("id")
		customer.Write(w, map[string]any{"id": id, "name": "Ann Lee"})
	}, api.Operation{
		Summary:  "a customer",
		Request:  ref,
		Response: customer,
		Errors:   []schema.ErrorResponse{{Status: http.StatusNotFound, Description: "no customer has this id"}},
	})

	for _, target := range []string{"GET /customers/42", "DELETE /customers/42", "GET /orders"} {
		var method, path string
		fmt.Sscan(target, &method, &path)
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
		fmt.Println(target, rec.Code, rec.Header().Get("Allow"), rec.Body.String())
	}

	doc, _ := a.OpenAPI(api.Audience{})
	var d struct {
		Paths map[string]map[string]struct {
			OperationID string
			Parameters  []struct {
				Name   string
				Schema struct{ Type string }
			}
		}
	}
	json.Unmarshal(doc, &d)
	op := d.Paths["/customers/{id}"]["get"]
	fmt.Println(op.OperationID, op.Parameters[0].Name, op.Parameters[0].Schema.Type)
	// Output:
	// GET /customers/42 200  {"id":42,"name":"Ann Lee"}
	// DELETE /customers/42 405 GET, HEAD {"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"the method is not allowed"}
	// GET /orders 404  {"type":"about:blank","title":"Not Found","status":404,"detail":"not found"}
	// getCustomersById id integer
}
