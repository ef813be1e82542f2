package entitytest

import (
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestConformUnion: Conform checks a union's object against the variant
// its first key names, and reports a missing or unknown key, a key out of
// place, and a variant's field that fails.
func TestConformUnion(t *testing.T) {
	reg := entity.NewRegistry()
	reg.MustExpose("card", "last4", "string", "readonly | len 4", "token", "string", "writeonly")
	reg.MustExpose("invoice", "po_number", "string", "req")
	e := reg.MustExpose("order", "payment", "$card|$invoice", "req | by 'method'", "history", "[]$card|$invoice", "by 'method'")
	tests := []struct {
		name, payload string
		want          string // a substring of the first error, or "" for none
	}{
		{"a card", `{"payment":{"method":"card","last4":"1234"},"history":null}`, ""},
		{"a list of both", `{"payment":{"method":"invoice","po_number":"A"},"history":[{"method":"card","last4":"1234"},null,{"method":"invoice","po_number":"B"}]}`, ""},
		{"no key", `{"payment":{"po_number":"A"},"history":null}`, "payment.method: want the first key"},
		{"an unknown key", `{"payment":{"method":"cash"},"history":null}`, "payment.method: want the first key"},
		{"the key after a field", `{"payment":{"po_number":"A","method":"invoice"},"history":null}`, "payment.method: want the first key"},
		{"a variant's failure", `{"payment":{"method":"card","last4":"12"},"history":null}`, "payment.last4"},
		{"another variant's field", `{"payment":{"method":"card","last4":"1234","po_number":"A"},"history":null}`, "po_number"},
		{"no object", `{"payment":"card","history":null}`, "want object ($card|$invoice)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ft := &fakeTB{}
			Conform(ft, e, []byte(tt.payload))
			switch {
			case tt.want == "" && len(ft.errors) > 0:
				t.Errorf("errors %q, want none", ft.errors)
			case tt.want != "" && (len(ft.errors) == 0 || !strings.Contains(strings.Join(ft.errors, "\n"), tt.want)):
				t.Errorf("errors %q, want one saying %q", ft.errors, tt.want)
			}
		})
	}
}
