package schema_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
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
	return reg.MustLookup("order")
}

// TestUnionSchema: a union's schema is oneOf its variants, each requiring
// the key as a const of the variant's name; OpenAPI adds the
// discriminator and its mapping, JSON Schema (which has no such keyword)
// does not; a patch's variants leave the key optional, under anyOf.
func TestUnionSchema(t *testing.T) {
	e := unionOrder(t)
	tests := []struct {
		name string
		mode schema.Mode
		want []string // substrings of the document
		not  []string
	}{
		{"response", schema.Response, []string{
			`"payment":{"oneOf":[{"$ref":"#/$defs/card.by_method"},{"$ref":"#/$defs/invoice.by_method"}]}`,
			`"card.by_method":{"additionalProperties":false,"properties":{"last4":{"readOnly":true,"type":["string","null"]},"method":{"const":"card"`,
			`"required":["last4","method"]`,
			`"history":{"items":{"anyOf":[{"oneOf":[{"$ref":"#/$defs/card.by_method"},{"$ref":"#/$defs/invoice.by_method"}]},{"type":"null"}]},"type":["array","null"]}`,
		}, []string{"discriminator", "token"}},
		{"request", schema.Request, []string{
			`"payment":{"oneOf":[{"$ref":"#/$defs/card.by_method"},{"$ref":"#/$defs/invoice.by_method"}]}`,
			`"required":["method","token"]`,
			`"required":["method","po_number"]`,
		}, []string{"discriminator", "last4"}},
		{"patch", schema.Patch, []string{
			`"payment":{"anyOf":[{"$ref":"#/$defs/card.by_method"}`,
			`"card.by_method":{"properties":{"method":{"const":"card","description":"The variant: \"card\".","type":"string"},"token":{"type":"string","writeOnly":true}},"type":"object"}`,
			`"history":{"items":{"oneOf":[{"$ref":"#/$defs/card.request.by_method"}`,
		}, []string{"discriminator"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := schema.JSON(e, tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			s := compact(doc)
			for _, w := range tt.want {
				if !strings.Contains(s, w) {
					t.Errorf("want %s in\n%s", w, s)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(s, w) {
					t.Errorf("want no %s in\n%s", w, s)
				}
			}
		})
	}
	c := schema.NewComponents()
	if _, err := c.Ref(e, schema.Response); err != nil {
		t.Fatal(err)
	}
	var order map[string]any
	if err := json.Unmarshal(c.Schemas()["order"], &order); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(order["properties"].(map[string]any)["payment"])
	if want := `{"discriminator":{"mapping":{"card":"#/components/schemas/card.by_method","invoice":"#/components/schemas/invoice.by_method"},"propertyName":"method"},"oneOf":[{"$ref":"#/components/schemas/card.by_method"},{"$ref":"#/components/schemas/invoice.by_method"}]}`; string(b) != want {
		t.Errorf("OpenAPI payment:\n%s\nwant\n%s", b, want)
	}
}

// TestUnionSample: a union's sample is its first variant's object, the
// key first, which Make (a response's) and MakeRequest (a request's)
// accept.
func TestUnionSample(t *testing.T) {
	e := unionOrder(t)
	tests := []struct {
		mode schema.Mode
		want string
	}{
		{schema.Response, `"payment":{"method":"card","last4":`},
		{schema.Request, `"payment":{"method":"card","token":`},
	}
	for _, tt := range tests {
		t.Run(tt.mode.String(), func(t *testing.T) {
			b := schema.Sample(e, tt.mode)
			if !strings.Contains(string(b), tt.want) {
				t.Errorf("Sample: %s, want %s in it", b, tt.want)
			}
			var err error
			if tt.mode == schema.Response {
				_, err = e.MakeJSON(json.RawMessage(b), entity.Strict())
			} else {
				r := httptest.NewRequest("POST", "/", strings.NewReader(string(b)))
				r.Header.Set("Content-Type", "application/json")
				_, err = e.MakeRequest(r)
			}
			if err != nil {
				t.Errorf("the sample %s fails: %v", b, err)
			}
		})
	}
}
