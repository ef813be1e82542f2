package schematest

import (
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// unionOrder declares an order whose payment is a card or an invoice,
// told by method, and whose history is a list of them.
func unionOrder(t testing.TB) *entity.Entity {
	t.Helper()
	reg := entity.NewRegistry()
	for _, d := range [][]string{
		{"card", "token", "string", "writeonly | req", "last4", "string", "readonly"},
		{"invoice", "po_number", "string", "req | range 1 40"},
		{"order", "payment", "$card|$invoice", "req | by 'method'", "history", "[]$card|$invoice", "by 'method'"},
	} {
		if _, err := reg.Expose(d[0], d[1:]...); err != nil {
			t.Fatal(err)
		}
	}
	return reg.Lookup("order")
}

// TestUnionSchemasAgree: the schemas of a union accept what the library
// accepts, and refuse what it refuses (a missing or unknown key, a key
// of the other variant's fields, a variant's own failure), with the Go
// validator and ajv (strict), which know no discriminator: each variant's
// const key decides.
func TestUnionSchemasAgree(t *testing.T) {
	e := unionOrder(t)
	probe(t, e, schema.Request, []string{
		`{"payment":{"method":"card","token":"t"}}`,
		`{"payment":{"method":"invoice","po_number":"PO-1"}}`,
		`{"payment":{"method":"invoice","po_number":"PO-1"},"history":[{"method":"card","token":"t"},{"method":"invoice","po_number":"x"}]}`,
		`{"payment":{"method":"invoice","po_number":""}}`,
		`{"payment":{"method":"card"}}`,
		`{"payment":{"po_number":"PO-1"}}`,
		`{"payment":{"method":"cash","po_number":"PO-1"}}`,
		`{"payment":{"method":7}}`,
		`{"payment":"card"}`,
		`{"payment":{"method":"invoice","po_number":"PO-1"},"history":[{"method":"nope"}]}`,
	})
	probe(t, e, schema.Response, []string{
		`{"payment":{"method":"card","last4":"1234"},"history":null}`,
		`{"payment":{"method":"invoice","po_number":"PO-1"},"history":[{"method":"card","last4":null}]}`,
		`{"payment":{"method":"invoice","po_number":""},"history":null}`,
		`{"payment":{"method":"cash"},"history":null}`,
		`{"payment":{"last4":"1234"},"history":null}`,
	})
}

// TestUnionOpenAPIValid: a document whose operations read and write a
// union, with its discriminator, is valid OpenAPI 3.1 for both validators.
func TestUnionOpenAPIValid(t *testing.T) {
	e := unionOrder(t)
	doc, err := schema.OpenAPI(schema.Info{Title: "unions", Version: "1"}, []schema.Route{
		{Method: "POST", Path: "/orders", Request: e, Response: e, Status: 201},
		{Method: "PATCH", Path: "/orders/{id}", Request: e, Response: e},
	})
	if err != nil {
		t.Fatal(err)
	}
	checkOpenAPI(t, map[string][]byte{"unions": doc})
}
