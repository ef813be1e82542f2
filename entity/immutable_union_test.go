package entity_test

// Union values read back (Get, Value), and immutable values held by a
// union's variant, past float64's integers and in a transformed field.

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// unionOrders exposes an order whose payment is a card (a writeonly token,
// a readonly last4, an immutable number) or an invoice, and a list of them.
func unionOrders(t *testing.T) *entity.Entity {
	t.Helper()
	reg := entity.NewRegistry()
	reg.MustExpose("card", "token", "string", "writeonly | req", "last4", "string", "readonly", "number", "string", "immutable")
	reg.MustExpose("invoice", "po_number", "string", "req | min 1 | max 40")
	return reg.MustExpose("order",
		"payment", "$card|$invoice", "by 'method'",
		"pays", "[]$card|$invoice", "by 'method'",
	)
}

func unionPost(body string) *http.Request {
	r := httptest.NewRequest("POST", "/orders", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}

// TestPatchUnionVariantSwitchClearsImmutable: a null for a union, or a
// patch naming another variant, removes the stored variant's immutable
// values as a null for a $name does: a 400 of code immutable at each, the
// variant kept as stored (docs/requests.md, Fields set once).
func TestPatchUnionVariantSwitchClearsImmutable(t *testing.T) {
	orders := unionOrders(t)
	current := map[string]any{"payment": map[string]any{"method": "card", "token": "tok", "last4": "4242", "number": "4111"}}
	for _, tc := range []struct{ name, patch string }{
		{name: "another variant", patch: `{"payment":{"method":"invoice","po_number":"PO-1"}}`},
		{name: "a null for the union", patch: `{"payment":null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			merged, _, err := orders.Patch(patchRequest(tc.patch), current)
			var ve *entity.ValidationError
			if !errors.As(err, &ve) || len(ve.Fields) == 0 || ve.Fields[0].Code != "immutable" {
				b, _ := merged.MarshalJSON()
				t.Fatalf("Patch(%s) = %s, %v; want a 400 of code immutable at /payment/number", tc.patch, b, err)
			}
		})
	}
}

// TestValueReadsUnionKey: Value reads a union's key, which the Object
// holds as a member, as Get does.
func TestValueReadsUnionKey(t *testing.T) {
	orders := unionOrders(t)
	var got string
	var gotErr error
	checked := orders.Checked(func(ctx context.Context, o *entity.Object) error {
		got, _, gotErr = entity.Value[string](o, "payment.method")
		return nil
	})
	if _, err := checked.MakeRequest(unionPost(`{"payment":{"method":"card","token":"t"}}`)); err != nil {
		t.Fatal(err)
	}
	if gotErr != nil || got != "card" {
		t.Fatalf(`Value[string](o, "payment.method") = %q, %v; want "card", nil`, got, gotErr)
	}
}

// TestGetListOfUnionsGivesObjects: Get of a []$a|$b gives []*Object, as
// for a []$name, each element read by its variant; Value reads through it.
func TestGetListOfUnionsGivesObjects(t *testing.T) {
	orders := unionOrders(t)
	o, err := orders.MakeRequest(unionPost(`{"pays":[{"method":"invoice","po_number":"q"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := o.Get("pays"); v != nil {
		if _, isObjects := v.([]*entity.Object); !isObjects {
			t.Errorf(`Get("pays") = %T; want []*entity.Object`, v)
		}
	}
	if _, _, err := entity.Value[[]*entity.Object](o, "pays"); err != nil {
		t.Errorf(`Value[[]*entity.Object](o, "pays"): %v`, err)
	}
	if v, ok, err := entity.Value[string](o, "pays[0].po_number"); err != nil || !ok || v != "q" {
		t.Errorf(`Value[string](o, "pays[0].po_number") = %q, %v, %v; want "q", true, nil`, v, ok, err)
	}
}

// TestPatchImmutableNumberBeyondFloat64: two numbers are compared exactly,
// past float64's integers: 2^53+1 stored, 2^53 sent, is a change.
func TestPatchImmutableNumberBeyondFloat64(t *testing.T) {
	reg := entity.NewRegistry()
	accounts := reg.MustExpose("account", "serial", "number", "immutable", "name", "string", "")
	current := map[string]any{"serial": int64(9007199254740993), "name": "ann"}
	merged, _, err := accounts.Patch(patchRequest(`{"serial":9007199254740992}`), current)
	var ve *entity.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Code != "immutable" {
		b, _ := merged.MarshalJSON()
		t.Fatalf("Patch = %s, %v; want a 400 of code immutable at /serial", b, err)
	}
}

// TestPatchImmutableAcceptsItsResponseForm: a patch that sends back what a
// response showed of an immutable transformed field (trimmed, lowered)
// sends the same value: accepted.
func TestPatchImmutableAcceptsItsResponseForm(t *testing.T) {
	reg := entity.NewRegistry()
	accounts := reg.MustExpose("account", "handle", "string", "immutable | trim", "code", "string", "immutable | lower")
	current := map[string]any{"handle": " ann ", "code": "ABC"}
	got, err := accounts.MakeJSON(current)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"handle":"ann","code":"abc"}` {
		t.Fatalf("the GET's form %s", got)
	}
	// The client sends back what the GET answered.
	if _, _, err := accounts.Patch(patchRequest(string(got)), current); err != nil {
		t.Fatalf("Patch of the GET's own representation %s: %v; want it accepted", got, err)
	}
}
