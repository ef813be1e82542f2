package entity_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/expose-go/expose/entity"
)

// A union: an order's payment is a card or an invoice, told by its key
// method. A response writes the key first; a request's unknown key fails
// at the key, naming the variants, never the value sent.
func Example_union() {
	reg := entity.NewRegistry()
	reg.MustExpose("card", "token", "string", "writeonly | req", "last4", "string", "readonly")
	reg.MustExpose("invoice", "po_number", "string", "req | min 1 | max 40")
	orders := reg.MustExpose("order", "payment", "$card|$invoice", "req | by 'method'")

	b, _ := orders.MakeJSON(map[string]any{"payment": map[string]any{"last4": "4242", "method": "card"}})
	fmt.Println(string(b))

	r := httptest.NewRequest("POST", "/orders", strings.NewReader(`{"payment":{"method":"cash"}}`))
	r.Header.Set("Content-Type", "application/json")
	_, err := orders.MakeRequest(r)
	fmt.Println(err)
	// Output:
	// {"payment":{"method":"card","last4":"4242"}}
	// entity "order": 1 field failed: payment.method: must be one of card, invoice (in)
}
