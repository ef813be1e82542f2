package api_test

import (
	"net/http"
	"os"
	"testing"

	"github.com/expose-go/expose/api"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// The shop: a small API of customers and orders, with an admin-only field,
// a secret writeonly one, a PATCH, a cross-field rule, a secured
// operation and an NDJSON stream, which the tests of the package serve.

// shopEntities declares the shop's entities (testdata/shop.entity) in a
// new registry.
func shopEntities(t testing.TB) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	if err := reg.LoadFS(os.DirFS("testdata"), "shop.entity"); err != nil {
		t.Fatal(err)
	}
	return reg
}

// shopInfo is the shop's document's info.
var shopInfo = schema.Info{Title: "shop", Version: "1.0.0", Description: "Customers and their orders."}

// bearer is the shop's security scheme.
var bearer = schema.SecurityScheme{Name: "bearer", Type: "http", Scheme: "bearer", BearerFormat: "JWT", Description: "a token of the shop's staff"}

// shopAPI returns the shop's API on a new mux: its handlers answer 204,
// for the routing tests; the documents are what the tests read.
func shopAPI(t testing.TB, cfg api.Config) (*http.ServeMux, *api.API) {
	t.Helper()
	reg := shopEntities(t)
	if cfg.Info.Title == "" {
		cfg.Info = shopInfo
	}
	mux := http.NewServeMux()
	a := api.New(mux, cfg)
	ok := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }
	notFound := schema.ErrorResponse{Status: http.StatusNotFound, Description: "no customer has this id"}
	a.HandleFunc("POST /customers", ok, api.Operation{
		Summary: "create a customer", Tags: []string{"customers"},
		Request: reg.MustLookup("customer"), Response: reg.MustLookup("customer"), Status: http.StatusCreated,
		Errors: []schema.ErrorResponse{{Status: http.StatusConflict, Description: "a customer has this e-mail address"}},
	})
	a.HandleFunc("GET /customers", ok, api.Operation{
		Summary: "the customers, in the order they were created", Tags: []string{"customers"},
		Request: reg.MustLookup("customer_query"), Response: reg.MustLookup("customer_list"), Select: "fields",
	})
	a.HandleFunc("GET /customers/export", ok, api.Operation{
		Summary: "every customer, one a line", Tags: []string{"customers"},
		Response: reg.MustLookup("customer"), Stream: schema.StreamNDJSON,
	})
	a.HandleFunc("GET /customers/{id}", ok, api.Operation{
		ID: "getCustomer", Summary: "a customer", Tags: []string{"customers"},
		Request: reg.MustLookup("customer_ref"), Response: reg.MustLookup("customer"),
		Errors: []schema.ErrorResponse{notFound},
	})
	a.HandleFunc("PATCH /customers/{id}", ok, api.Operation{
		Summary: "change a customer", Description: "A JSON Merge Patch: a key left out keeps its value, null clears it.",
		Tags: []string{"customers"}, Params: reg.MustLookup("customer_ref"),
		Request: reg.MustLookup("customer"), Response: reg.MustLookup("customer"),
		Errors: []schema.ErrorResponse{notFound},
	})
	a.HandleFunc("POST /orders", ok, api.Operation{
		Summary: "place an order", Tags: []string{"orders"},
		Request: reg.MustLookup("order"), Response: reg.MustLookup("order"), Status: http.StatusCreated,
		Security: []schema.Security{{Scheme: bearer}},
	})
	a.HandleFunc("GET /orders/{id}", ok, api.Operation{
		Summary: "an order", Tags: []string{"orders"},
		Request: reg.MustLookup("order_ref"), Response: reg.MustLookup("order"),
		Errors: []schema.ErrorResponse{{Status: http.StatusNotFound, Description: "no order has this id"}},
	})
	return mux, a
}

// shopPaths are the paths of the shop's operations, as the document
// templates them.
var shopPaths = []string{"/customers", "/customers/export", "/customers/{id}", "/orders", "/orders/{id}"}
