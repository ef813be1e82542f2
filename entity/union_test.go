package entity_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// unionRegistry declares a card, an invoice and an order whose payment is
// one of them, told by method, and whose history is a list of them.
func unionRegistry(t testing.TB, opts ...entity.RegistryOption) *entity.Entity {
	t.Helper()
	reg := entity.NewRegistry(opts...)
	expose(t, reg, "card", "token", "string", "writeonly | req", "last4", "string", "readonly")
	expose(t, reg, "invoice", "po_number", "string", "req | range 1 40")
	return expose(t, reg, "order", "id", "number", "", "payment", "$card|$invoice", "req | by 'method'", "history", "[]$card|$invoice", "by 'method'")
}

// outcome renders what a call gave: its output, or each failure's path
// and code.
func unionOutcome(t testing.TB, out []byte, err error) string {
	t.Helper()
	if err == nil {
		return string(out)
	}
	var l []string
	for _, fe := range fieldErrors(t, err) {
		l = append(l, fe.Path+" "+fe.Code)
	}
	return strings.Join(l, "; ")
}

// TestUnionResponse: a response writes the key first, with the variant's
// name, then the variant's fields, from a map, raw JSON and a struct; a
// missing or unknown key is the server's error at the key.
func TestUnionResponse(t *testing.T) {
	e := unionRegistry(t)
	type card struct {
		Method string `json:"method"`
		Last4  string `json:"last4"`
	}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"a card from a map", map[string]any{"id": 1, "payment": map[string]any{"method": "card", "token": "tok_1234", "last4": "1234"}},
			`{"id":1,"payment":{"method":"card","last4":"1234"},"history":null}`},
		{"an invoice from raw JSON", json.RawMessage(`{"id":2,"payment":{"po_number":"PO-7","method":"invoice"}}`),
			`{"id":2,"payment":{"method":"invoice","po_number":"PO-7"},"history":null}`},
		{"a struct holding a struct", struct {
			ID      int `json:"id"`
			Payment any `json:"payment"`
		}{3, card{"card", "9876"}}, `{"id":3,"payment":{"method":"card","last4":"9876"},"history":null}`},
		{"a list of both", map[string]any{"id": 4, "payment": map[string]any{"method": "invoice", "po_number": "A"},
			"history": []any{map[string]any{"method": "card", "last4": "1"}, map[string]any{"method": "invoice", "po_number": "B"}}},
			`{"id":4,"payment":{"method":"invoice","po_number":"A"},"history":[{"method":"card","last4":"1"},{"method":"invoice","po_number":"B"}]}`},
		{"a list from raw JSON", json.RawMessage(`{"id":5,"payment":{"method":"invoice","po_number":"A"},"history":[{"method":"card"},{"method":"cash"}]}`),
			"history[1].method in"},
		{"no key", map[string]any{"id": 6, "payment": map[string]any{"po_number": "A"}}, "payment.method in"},
		{"an unknown key", map[string]any{"id": 7, "payment": map[string]any{"method": "cash"}}, "payment.method in"},
		{"a variant's own failure", map[string]any{"id": 8, "payment": map[string]any{"method": "invoice", "po_number": ""}}, "payment.po_number range"},
		{"missing", map[string]any{"id": 9}, "payment required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := e.MakeJSON(tt.in)
			if got := unionOutcome(t, out, err); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestUnionDeclarationErrors: a union needs by, by needs a union, each
// variant is an entity (Verify) that does not declare the key, and the
// type has no spaces.
func TestUnionDeclarationErrors(t *testing.T) {
	tests := []struct {
		name   string
		decl   []string
		verify bool // the error is Verify's, not Expose's
		want   string
	}{
		{"by missing", []string{"payment", "$card|$invoice", "req"}, false, "has no key: say which key names the variant with by 'key'"},
		{"by without a key", []string{"payment", "$card|$invoice", "by"}, false, `rule "by" takes one argument`},
		{"by on a reference", []string{"payment", "$card", "by 'method'"}, false, "by names the key that tells a union's variants apart: it applies only to a union"},
		{"by on a value", []string{"payment", "string", "by 'method'"}, false, "it applies only to a union"},
		{"spaces inside", []string{"payment", "$card | $invoice", "by 'method'"}, false, "has white space inside"},
		{"a variant twice", []string{"payment", "$card|$card", "by 'method'"}, false, "names $card twice"},
		{"a variant that is no reference", []string{"payment", "$card|invoice", "by 'method'"}, false, "has a variant that is not a reference"},
		{"a default", []string{"payment", "$card|$invoice", "by 'method' | default"}, false, `rule "default" cannot apply to a union`},
		{"merge", []string{"payment", "$card|$invoice", "by 'method' | merge"}, false, `rule "merge" cannot apply to a union`},
		{"a variant that is no entity", []string{"payment", "$card|$cheque", "by 'method'"}, true, "variant $cheque names no entity"},
		{"a variant that declares the key", []string{"payment", "$card|$invoice", "by 'kind'"}, false, `variant $invoice declares field "kind", the union's key`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			expose(t, reg, "card", "token", "string", "")
			expose(t, reg, "invoice", "kind", "string", "")
			_, err := reg.Expose("order", tt.decl...)
			if tt.verify {
				if err != nil {
					t.Fatalf("Expose: %v", err)
				}
				err = reg.Verify()
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v\nwant it to say %q", err, tt.want)
			}
		})
	}
}

// TestUnionRequest: a request reads the key to pick the variant; a
// missing or unknown key is a 400 at the key, code in, params the
// variants' names and never the value; every other error is the
// variant's at its path; the Object holds the key, which Get, Map, Bind
// and a response of it see first.
func TestUnionRequest(t *testing.T) {
	e := unionRegistry(t)
	tests := []struct {
		name string
		body string
		want string // the Object's JSON, or the failures
	}{
		{"a card", `{"id":1,"payment":{"token":"tok_1234","method":"card"}}`, `{"id":1,"payment":{"method":"card"},"history":null}`},
		{"an invoice", `{"id":1,"payment":{"method":"invoice","po_number":"PO-1"}}`, `{"id":1,"payment":{"method":"invoice","po_number":"PO-1"},"history":null}`},
		{"readonly ignored", `{"id":1,"payment":{"method":"card","token":"t","last4":"9999"}}`, `{"id":1,"payment":{"method":"card"},"history":null}`},
		{"no key", `{"id":1,"payment":{"po_number":"PO-1"}}`, "payment.method in"},
		{"an unknown key", `{"id":1,"payment":{"method":"cash<script>"}}`, "payment.method in"},
		{"a key that is no string", `{"id":1,"payment":{"method":7}}`, "payment.method in"},
		{"the variant's error", `{"id":1,"payment":{"method":"invoice","po_number":""}}`, "payment.po_number range"},
		{"the variant's req", `{"id":1,"payment":{"method":"card"}}`, "payment.token required"},
		{"no payment", `{"id":1}`, "payment required"},
		{"no object", `{"id":1,"payment":"card"}`, "payment type"},
		{"a list", `{"id":1,"payment":{"method":"card","token":"t"},"history":[{"method":"invoice","po_number":"A"},{"method":"nope"}]}`, "history[1].method in"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/orders", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			obj, err := e.MakeRequest(req)
			var got string
			if err != nil {
				got = unionOutcome(t, nil, err)
				var ve *entity.ValidationError
				if errors.As(err, &ve) && strings.Contains(tt.want, "method in") {
					fe := ve.Fields[0]
					if l, _ := fe.Params["values"].([]any); len(l) != 2 || l[0] != "card" || l[1] != "invoice" {
						t.Errorf("params %v, want the variants' names", fe.Params)
					}
					if strings.Contains(fe.Error(), "cash") || strings.Contains(fe.Message, "cash") {
						t.Errorf("the error quotes the value: %q", fe.Message)
					}
				}
			} else {
				b, _ := obj.MarshalJSON() // a response: no writeonly token
				got = string(b)
				if _, ok := obj.Get("payment"); !ok {
					t.Error("Get(payment) holds nothing")
				}
				m, _ := obj.Map()["payment"].(map[string]any)
				if m["method"] == nil || strings.Contains(tt.body, `"token"`) && m["token"] == nil || m["last4"] != nil {
					t.Errorf("Map()[payment] = %v: want the key and what the request sent but readonly fields", m)
				}
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestUnionRequestRoundTrip: the Object a request made writes the key
// first when made again as a response, Bind gives the variant's members
// and the key to a map or an interface field, and DenyUnknown knows the
// key.
func TestUnionRequestRoundTrip(t *testing.T) {
	e := unionRegistry(t)
	body := `{"id":1,"payment":{"po_number":"PO-1","method":"invoice"},"history":[{"method":"card","token":"t"}]}`
	newReq := func() *http.Request {
		req := httptest.NewRequest("POST", "/orders", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		return req
	}
	obj, err := e.MakeRequest(newReq(), entity.DenyUnknown())
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.MakeJSON(obj)
	if want := `{"id":1,"payment":{"method":"invoice","po_number":"PO-1"},"history":[{"method":"card","last4":null}]}`; err != nil || string(out) != want {
		t.Errorf("MakeJSON(Object) = %s, %v\nwant %s", out, err, want)
	}
	var dst struct {
		ID      int64 `json:"id"`
		Payment any   `json:"payment"`
		History []map[string]any
	}
	if err := e.Bind(newReq(), &dst); err != nil {
		t.Fatal(err)
	}
	if m, _ := dst.Payment.(map[string]any); m["method"] != "invoice" || m["po_number"] != "PO-1" {
		t.Errorf("Bind: payment %#v", dst.Payment)
	}
	unknown := strings.Replace(body, `"method":"invoice"`, `"method":"invoice","extra":1`, 1)
	req := httptest.NewRequest("POST", "/orders", strings.NewReader(unknown))
	req.Header.Set("Content-Type", "application/json")
	if _, err := e.MakeRequest(req, entity.DenyUnknown()); unionOutcome(t, nil, err) != "payment.extra unknown" {
		t.Errorf("DenyUnknown: %v, want payment.extra unknown", err)
	}
}

// payment is a union's field as a Go program holds it: a value of a
// variant's type, which says its variant.
type payment interface{ Variant() string }

type cardValue struct {
	Last4 string `json:"last4"`
}

func (*cardValue) Variant() string { return "card" }

type invoiceValue struct {
	PONumber string `json:"po_number"`
}

func (invoiceValue) Variant() string { return "invoice" }

// TestUnionVariantValues: a struct's field of an interface type holding a
// Variant is written as its variant, key first; a nil one is null.
func TestUnionVariantValues(t *testing.T) {
	e := unionRegistry(t)
	type order struct {
		ID      int64     `json:"id"`
		Payment payment   `json:"payment"`
		History []payment `json:"history"`
	}
	tests := []struct {
		name string
		in   order
		want string
	}{
		{"a card", order{1, &cardValue{"1234"}, nil}, `{"id":1,"payment":{"method":"card","last4":"1234"},"history":[]}`},
		{"an invoice by value, a list of both", order{2, invoiceValue{"PO-1"}, []payment{&cardValue{"1"}, invoiceValue{"X"}}},
			`{"id":2,"payment":{"method":"invoice","po_number":"PO-1"},"history":[{"method":"card","last4":"1"},{"method":"invoice","po_number":"X"}]}`},
		{"a nil card", order{3, (*cardValue)(nil), nil}, "payment required"},
		{"none", order{4, nil, nil}, "payment required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := e.MakeJSON(tt.in)
			if got := unionOutcome(t, out, err); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestUnionSelect: a selection inside a union applies to each variant
// that has the fields it names, the key always written; a name no variant
// has is unknown, and the error lists every variant's.
func TestUnionSelect(t *testing.T) {
	e := unionRegistry(t)
	in := map[string]any{"id": 1, "payment": map[string]any{"method": "card", "last4": "1234"},
		"history": []any{map[string]any{"method": "invoice", "po_number": "A"}, map[string]any{"method": "card", "last4": "9"}}}
	tests := []struct{ sel, want string }{
		{"payment", `{"payment":{"method":"card","last4":"1234"}}`},
		{"payment(method,last4)", `{"payment":{"method":"card","last4":"1234"}}`},
		{"payment(method)", `{"payment":{"method":"card"}}`},
		{"payment(po_number)", `{"payment":{"method":"card"}}`},
		{"payment(*)", `{"payment":{"method":"card","last4":"1234"}}`},
		{"history(po_number)", `{"history":[{"method":"invoice","po_number":"A"},{"method":"card"}]}`},
		{"id,history(last4)", `{"id":1,"history":[{"method":"invoice"},{"method":"card","last4":"9"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.sel, func(t *testing.T) {
			out, err := e.MakeJSON(in, entity.Select(tt.sel))
			if err != nil || string(out) != tt.want {
				t.Errorf("got %s, %v\nwant %s", out, err, tt.want)
			}
		})
	}
	_, err := e.MakeJSON(in, entity.Select("payment(nope)"))
	if err == nil || !strings.Contains(err.Error(), `"method", "last4", "po_number"`) {
		t.Errorf("payment(nope): %v, want the names of every variant", err)
	}
}

// TestUnionVariantShaping: flags and versions inside a variant shape its
// object as they shape the entity's own; a secret variant field's failure
// quotes nothing of it, and a secret union's variants are secret whole.
func TestUnionVariantShaping(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	expose(t, reg, "card", "last4", "string", "", "risk", "number", "if 'admin'", "brand", "string", "since 'v2'",
		"pin", "string", "secret | writeonly | len 4")
	expose(t, reg, "invoice", "po_number", "string", "req")
	e := expose(t, reg, "order", "payment", "$card|$invoice", "req | by 'method'")
	in := map[string]any{"payment": map[string]any{"method": "card", "last4": "1234", "risk": 3, "brand": "visa"}}
	for _, tt := range []struct {
		name string
		opts []entity.Option
		want string
	}{
		{"v1", []entity.Option{entity.Version("v1")}, `{"payment":{"method":"card","last4":"1234"}}`},
		{"admin v1", []entity.Option{entity.With("admin"), entity.Version("v1")}, `{"payment":{"method":"card","last4":"1234","risk":3}}`},
		{"v2", []entity.Option{entity.Version("v2")}, `{"payment":{"method":"card","last4":"1234","brand":"visa"}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := e.MakeJSON(in, tt.opts...)
			if err != nil || string(out) != tt.want {
				t.Errorf("got %s, %v\nwant %s", out, err, tt.want)
			}
		})
	}
	req := httptest.NewRequest("POST", "/orders", strings.NewReader(`{"payment":{"method":"card","pin":"98765"}}`))
	req.Header.Set("Content-Type", "application/json")
	_, err := e.MakeRequest(req)
	if got := unionOutcome(t, nil, err); got != "payment.pin len" || strings.Contains(err.Error(), "98765") {
		t.Errorf("a secret variant field: %v, want payment.pin len quoting nothing", err)
	}
}
