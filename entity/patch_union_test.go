package entity_test

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestPatchUnion: a merge patch that keeps a union's key (or names none)
// merges into the variant the current value holds; one that changes it
// replaces the variant whole, read as a request reads it (its req fields
// required, the old variant's fields gone).
func TestPatchUnion(t *testing.T) {
	e := unionRegistry(t)
	current := map[string]any{"id": 1, "payment": map[string]any{"method": "card", "token": "tok_1234", "last4": "1234"}}
	invoiced := map[string]any{"id": 1, "payment": map[string]any{"method": "invoice", "po_number": "PO-1"}}
	tests := []struct {
		name    string
		current map[string]any
		patch   string
		want    string // the merged value's Map()["payment"], rendered, or the failures
		touched []string
	}{
		{"keeps the key", invoiced, `{"payment":{"method":"invoice","po_number":"PO-2"}}`, "method=invoice po_number=PO-2", []string{"payment.po_number"}},
		{"names no key", invoiced, `{"payment":{"po_number":"PO-3"}}`, "method=invoice po_number=PO-3", []string{"payment.po_number"}},
		{"a merged variant is judged", invoiced, `{"payment":{"po_number":""}}`, "payment.po_number range", nil},
		{"changes the variant", current, `{"payment":{"method":"invoice","po_number":"PO-9"}}`, "method=invoice po_number=PO-9", []string{"payment"}},
		{"a new variant is read whole", invoiced, `{"payment":{"method":"card"}}`, "payment.token required", nil},
		{"an unknown variant", invoiced, `{"payment":{"method":"cash"}}`, "payment.method in", nil},
		{"a readonly field of a kept card", current, `{"payment":{"last4":"0000","token":"tok_9999"}}`, "last4=1234 method=card token=tok_9999", []string{"payment.token"}},
		{"cleared", invoiced, `{"payment":null}`, "payment required", nil},
		{"a repeated key, its last value keeping the variant", current, `{"payment":{"method":"invoice","method":"card","token":"tok_5678"}}`, "last4=1234 method=card token=tok_5678", []string{"payment.token"}},
		{"a repeated key, its last value changing the variant", current, `{"payment":{"method":"card","method":"invoice","po_number":"PO-4"}}`, "method=invoice po_number=PO-4", []string{"payment"}},
		{"a list replaced, read as a request", invoiced, `{"history":[{"method":"card"}]}`, "history[0].token required", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("PATCH", "/orders/1", strings.NewReader(tt.patch))
			req.Header.Set("Content-Type", "application/merge-patch+json")
			obj, touched, err := e.Patch(req, tt.current)
			var got string
			if err != nil {
				got = unionOutcome(t, nil, err)
			} else {
				m, _ := obj.Map()["payment"].(map[string]any)
				var l []string
				for k, v := range m {
					l = append(l, k+"="+v.(string))
				}
				slices.Sort(l)
				got = strings.Join(l, " ")
				if !slices.Equal(touched, tt.touched) {
					t.Errorf("touched %q, want %q", touched, tt.touched)
				}
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestPatchReadOnlyUnion: a readonly union is the server's in a merge
// patch: what the patch gives for it is ignored, the current value's
// variant kept as it is.
func TestPatchReadOnlyUnion(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "card", "last4", "string", "req")
	expose(t, reg, "invoice", "po_number", "string", "req")
	e := expose(t, reg, "order", "note", "string", "", "paid", "$card|$invoice", "readonly | by 'method'")
	current := map[string]any{"note": "a", "paid": map[string]any{"method": "card", "last4": "1234"}}
	req := httptest.NewRequest("PATCH", "/orders/1", strings.NewReader(`{"note":"b","paid":{"method":"invoice","po_number":"X"}}`))
	req.Header.Set("Content-Type", "application/merge-patch+json")
	obj, _, err := e.Patch(req, current)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := obj.String(), `{"note":"b","paid":{"method":"card","last4":"1234"}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
