package main

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity/entitytest"
)

// orderEntity is the order entity as responses write it (the handle the
// server checks requests with is its own).
var orderEntity = reg.MustLookup("order")

// items returns the JSON of n line items.
func items(n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat(`{"sku":"TEA-1","quantity":2},`, n), ",") + "]"
}

// TestCreateOrder: POST /orders answers 201 with the order, status
// pending, its items; the order is there for GET /orders/{id}, which
// takes fields=.
func TestCreateOrder(t *testing.T) {
	h := withCustomers(t, ann)
	tests := []struct{ name, body string }{
		{"shipped", `{"customer_id":1,"items":[{"sku":"TEA-1","quantity":2}],"delivery":"ship","ship":{"city":"Kyoto","zip":"600-8216"},"payment":{"method":"card","token":"tok_4242"}}`},
		{"picked up", `{"customer_id":1,"items":[{"sku":"TEA-1","quantity":1000}],"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`},
		{"fifty items", `{"customer_id":1,"items":` + items(50) + `,"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := call(t, h, "POST", "/orders", tt.body)
			entitytest.CheckResponse(t, rec, orderEntity, http.StatusCreated)
			o := decode(t, rec.Body.Bytes())
			if o["id"] != float64(i+1) || o["status"] != "pending" || o["customer_id"] != float64(1) {
				t.Errorf("order %s: want id %d, status pending, customer 1", rec.Body, i+1)
			}
			got := call(t, h, "GET", rec.Header().Get("Location"), "")
			entitytest.CheckResponse(t, got, orderEntity, http.StatusOK)
			entitytest.Equal(t, got.Body.Bytes(), rec.Body.Bytes())
		})
	}
	rec := call(t, h, "GET", "/orders/1?fields=id,status,items(quantity)", "")
	entitytest.CheckResponse(t, rec, orderEntity, http.StatusOK, entitytest.Partial())
	entitytest.Equal(t, rec.Body.Bytes(), `{"id":1,"status":"pending","items":[{"quantity":2}]}`)
	for _, target := range []string{"/orders/4", "/orders/x", "/orders/1?fields=nope"} {
		rec := call(t, h, "GET", target, "")
		if rec.Code/100 != 4 || rec.Header().Get("Content-Type") != "application/problem+json" {
			t.Errorf("GET %s: %d %s, want a 4xx problem", target, rec.Code, rec.Header().Get("Content-Type"))
		}
	}
}

// TestCreateOrderErrors: every failing field by pointer, the handler's
// check of the customer at /customer_id among the library's, in one
// problem.
func TestCreateOrderErrors(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"no items", `{"customer_id":1,"items":[],"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/items min"}},
		{"items absent", `{"customer_id":1,"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/items required"}},
		{"51 items", `{"customer_id":1,"items":` + items(51) + `,"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/items max"}},
		{"a null item", `{"customer_id":1,"items":[null],"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/items/0 type"}},
		{"items an object", `{"customer_id":1,"items":{"sku":"a","quantity":1},"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/items type"}},
		{"quantity 0", `{"customer_id":1,"items":[{"sku":"TEA-1","quantity":0}],"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/items/0/quantity range"}},
		{"quantity 1001 and no sku", `{"customer_id":1,"items":[{"sku":"A","quantity":1},{"quantity":1001}],"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`,
			[]string{"/items/1/sku required", "/items/1/quantity range"}},
		{"ship missing", `{"customer_id":1,"items":[{"sku":"TEA-1","quantity":1}],"delivery":"ship","payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/ship required_if"}},
		{"ship null", `{"customer_id":1,"items":[{"sku":"TEA-1","quantity":1}],"delivery":"ship","ship":null,"payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/ship required_if"}},
		{"ship without zip", `{"customer_id":1,"items":[{"sku":"TEA-1","quantity":1}],"delivery":"ship","ship":{"city":"Kyoto"},"payment":{"method":"invoice","po_number":"PO-1"}}`,
			[]string{"/ship/zip required"}},
		{"delivery by drone", `{"customer_id":1,"items":[{"sku":"TEA-1","quantity":1}],"delivery":"drone","payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/delivery in"}},
		{"no such customer", `{"customer_id":2,"items":[{"sku":"TEA-1","quantity":1}],"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/customer_id no_customer"}},
		{"customer 0", `{"customer_id":0,"items":[{"sku":"TEA-1","quantity":1}],"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/customer_id no_customer"}},
		{"customer not a number", `{"customer_id":"one","items":[{"sku":"TEA-1","quantity":1}],"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/customer_id type"}},
		// The registry is made with JSONTypes: a number is a JSON number,
		// never its text (the query's limit=2 is text, and a number).
		{"customer id as text", `{"customer_id":"1","items":[{"sku":"TEA-1","quantity":1}],"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/customer_id type"}},
		{"quantity as text", `{"customer_id":1,"items":[{"sku":"TEA-1","quantity":"2"}],"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/items/0/quantity type"}},
		// The handler's check runs whether the declared rules passed or
		// not: its error joins theirs, in one answer.
		{"no customer, bad items", `{"customer_id":2,"items":[],"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`, []string{"/items min", "/customer_id no_customer"}},
		{"no customer, a bad quantity", `{"customer_id":2,"items":[{"sku":"TEA-1","quantity":0}],"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`,
			[]string{"/items/0/quantity range", "/customer_id no_customer"}},
		{"empty", `{}`, []string{"/customer_id required", "/items required", "/delivery required", "/payment required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := withCustomers(t, ann)
			rec := call(t, h, "POST", "/orders", tt.body)
			entitytest.CheckResponse(t, rec, orderEntity, http.StatusBadRequest)
			if got := where(readProblem(t, rec)); !slices.Equal(got, tt.want) {
				t.Errorf("errors at %q, want %q", got, tt.want)
			}
			if rec := call(t, h, "GET", "/orders/1", ""); rec.Code != http.StatusNotFound {
				t.Errorf("a refused order was stored: %d %s", rec.Code, rec.Body)
			}
		})
	}
}

// TestCreateOrderJapanese: the handler's own error is in Japanese too.
func TestCreateOrderJapanese(t *testing.T) {
	rec := call(t, newServer(), "POST", "/orders", `{"customer_id":1,"items":[{"sku":"TEA-1","quantity":1}],"delivery":"ship","ship":{"city":"Kyoto","zip":"1"},"payment":{"method":"invoice","po_number":"PO-1"}}`,
		"Accept-Language", "ja-JP, en;q=0.5")
	entitytest.CheckResponse(t, rec, orderEntity, http.StatusBadRequest)
	entitytest.Golden(t, "order-ja.json", rec.Body.Bytes())
}

// TestCreateOrderBothErrors: a bad quantity and an unknown customer are
// answered in one 400, in the client's language.
func TestCreateOrderBothErrors(t *testing.T) {
	const body = `{"customer_id":999,"items":[{"sku":"TEA-1","quantity":0}],"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`
	tests := []struct {
		lang     string
		messages []string
	}{
		{"en", []string{"must be between 1 and 1000", "names no customer"}},
		{"ja", []string{"1以上1000以下の値にしてください", "該当する顧客がいません"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			rec := call(t, withCustomers(t, ann), "POST", "/orders", body, "Accept-Language", tt.lang)
			entitytest.CheckResponse(t, rec, orderEntity, http.StatusBadRequest)
			p := readProblem(t, rec)
			var messages []string
			for _, e := range p.Errors {
				messages = append(messages, e.Message)
			}
			if got := where(p); !slices.Equal(got, []string{"/items/0/quantity range", "/customer_id no_customer"}) || !slices.Equal(messages, tt.messages) {
				t.Errorf("errors at %q, messages %q; want both, %q", got, messages, tt.messages)
			}
			if cl := rec.Header().Get("Content-Language"); cl != tt.lang {
				t.Errorf("Content-Language %q, want %q", cl, tt.lang)
			}
		})
	}
}

// TestOrderPayment: an order's payment is a card or an invoice, told by
// method: a card's token is read, never written back, and the server
// writes its last four characters; an invoice's po_number is 1 to 40
// characters; a missing or unknown method is a 400 at /payment/method.
func TestOrderPayment(t *testing.T) {
	tests := []struct {
		name, payment string
		want          string   // the payment answered
		errs          []string // or the errors
	}{
		{"a card", `{"method":"card","token":"tok_visa_4242"}`, `{"method":"card","last4":"4242"}`, nil},
		{"an invoice", `{"po_number":"PO-77","method":"invoice"}`, `{"method":"invoice","po_number":"PO-77"}`, nil},
		{"a card's last4 is the server's", `{"method":"card","token":"tok_1234","last4":"9999"}`, `{"method":"card","last4":"1234"}`, nil},
		{"no token", `{"method":"card"}`, "", []string{"/payment/token required"}},
		{"a short token", `{"method":"card","token":"abc"}`, "", []string{"/payment/token min"}},
		{"a long po_number", `{"method":"invoice","po_number":"` + strings.Repeat("9", 41) + `"}`, "", []string{"/payment/po_number max"}},
		{"no method", `{"po_number":"PO-1"}`, "", []string{"/payment/method in"}},
		{"an unknown method", `{"method":"cash"}`, "", []string{"/payment/method in"}},
		{"no payment", `null`, "", []string{"/payment required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := withCustomers(t, ann)
			rec := call(t, h, "POST", "/orders", `{"customer_id":1,"items":[{"sku":"TEA-1","quantity":1}],"delivery":"pickup","payment":`+tt.payment+`}`)
			if tt.errs != nil {
				entitytest.CheckResponse(t, rec, orderEntity, http.StatusBadRequest)
				if got := where(readProblem(t, rec)); !slices.Equal(got, tt.errs) {
					t.Errorf("errors at %q, want %q", got, tt.errs)
				}
				if strings.Contains(rec.Body.String(), "cash") || strings.Contains(rec.Body.String(), "abc") {
					t.Errorf("the problem quotes the value sent: %s", rec.Body)
				}
				return
			}
			entitytest.CheckResponse(t, rec, orderEntity, http.StatusCreated)
			var o struct{ Payment json.RawMessage }
			if err := json.Unmarshal(rec.Body.Bytes(), &o); err != nil {
				t.Fatal(err)
			}
			entitytest.Equal(t, o.Payment, tt.want)
			if strings.Contains(rec.Body.String(), "tok_") {
				t.Errorf("the token is written back: %s", rec.Body)
			}
			entitytest.Equal(t, call(t, h, "GET", "/orders/1?fields=payment", "").Body.Bytes(), `{"payment":`+tt.want+`}`)
		})
	}
}
