package unions

// The tests of the types expose gen writes for unions.entity (unions_gen.go,
// its golden file): package tool's TestGeneratedCode runs them with go test.

import (
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
)

func load(t *testing.T) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry()
	if err := reg.LoadFS(os.DirFS("."), "*.entity"); err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestGeneratedTypesPassCheckStruct: the generated structs hold every field
// of their entity in their direction.
func TestGeneratedTypesPassCheckStruct(t *testing.T) {
	reg := load(t)
	for name, types := range map[string][2]any{"card": {Card{}, CardRequest{}}, "invoice": {Invoice{}, InvoiceRequest{}}, "order": {Order{}, OrderRequest{}}} {
		entitytest.CheckStruct(t, reg.Lookup(name), types[0])
		entitytest.CheckStruct(t, reg.Lookup(name), types[1], entitytest.Request())
	}
}

// TestBindGivesVariants: Bind fills each union with its variant's type,
// which a handler switches on, and Make writes it back key first.
func TestBindGivesVariants(t *testing.T) {
	orders := load(t).Lookup("order")
	body := `{"payment":{"method":"invoice","po_number":"PO-1"},"history":[{"method":"card","token":"tok_1234"},{"method":"invoice","po_number":"PO-0"}]}`
	req := httptest.NewRequest("POST", "/orders", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	var o OrderRequest
	if err := orders.Bind(req, &o); err != nil {
		t.Fatal(err)
	}
	switch p := o.Payment.(type) {
	case *InvoiceRequest:
		if p.PoNumber != "PO-1" {
			t.Errorf("po_number %q", p.PoNumber)
		}
	default:
		t.Fatalf("payment is a %T", o.Payment)
	}
	if c, ok := o.History[0].(*CardRequest); !ok || c.Token != "tok_1234" {
		t.Errorf("history[0] is %#v", o.History[0])
	}
	out, err := orders.MakeJSON(Order{ID: 7, Payment: &Card{Last4: new(string)}, History: []OrderHistory{&Invoice{PoNumber: "PO-0"}}})
	if want := `{"id":7,"payment":{"method":"card","last4":""},"history":[{"method":"invoice","po_number":"PO-0"}]}`; err != nil || string(out) != want {
		t.Errorf("MakeJSON = %s, %v\nwant %s", out, err, want)
	}
	req = httptest.NewRequest("POST", "/orders", strings.NewReader(`{"payment":{"method":"cash"}}`))
	req.Header.Set("Content-Type", "application/json")
	if err := orders.Bind(req, &o); err == nil || !strings.Contains(err.Error(), "payment.method") {
		t.Errorf("Bind of an unknown variant: %v", err)
	}
}
