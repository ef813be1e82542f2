package entity_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// A create request of the shape the request benchmarks use: a name, an
// email, an age, tags, an address group and order lines, the lines'
// skus judged by a regex.
type benchLine struct {
	SKU string `json:"sku"`
	Qty int    `json:"qty"`
}

type benchCustomer struct {
	Name  string      `json:"name"`
	Email string      `json:"email"`
	Age   int         `json:"age"`
	Tags  []string    `json:"tags"`
	City  string      `json:"city"`
	Zip   string      `json:"zip"`
	Lines []benchLine `json:"lines"`
}

func benchCustomerEntity(tb testing.TB) *entity.Entity {
	reg := entity.NewRegistry()
	expose(tb, reg, "line",
		"sku", "string", `req | regex '^[A-Z0-9-]{3,20}$'`,
		"qty", "number", "req | range 1 99",
	)
	return expose(tb, reg, "customer", "POST|PATCH",
		"name", "string", "req | min 1 | max 100",
		"email", "string", "req | email",
		"age", "number", "range 0 150",
		"tags", "[]string", "each 'min 1 | max 20' | max 10",
		"address", "{", "",
		"city", "string", "",
		"zip", "string", "",
		"address", "}", "",
		"lines", "[]$line", "",
	)
}

func benchCustomerValue(lines int) benchCustomer {
	c := benchCustomer{Name: "Ann Lee", Email: "ann@example.com", Age: 41, Tags: []string{"vip", "early"}, City: "Tokyo", Zip: "100-0001"}
	for i := range lines {
		c.Lines = append(c.Lines, benchLine{SKU: fmt.Sprintf("SKU-%05d", i), Qty: i%9 + 1})
	}
	return c
}

// BenchmarkPatch measures a patch of three fields applied to a stored
// customer with 130 order lines (its JSON about 4 KB), beside
// MakeRequest of the whole body.
func BenchmarkPatch(b *testing.B) {
	e := benchCustomerEntity(b)
	current := benchCustomerValue(130)
	full, err := e.MakeJSON(current)
	if err != nil {
		b.Fatal(err)
	}
	const patch = `{"name":"Ann Mori","age":42,"address":{"city":"Osaka"}}`
	req := func(method, ct, body string) *http.Request {
		r := httptest.NewRequest(method, "/customers/1", strings.NewReader(body))
		r.Header.Set("Content-Type", ct)
		return r
	}
	b.Run("Patch", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := e.Patch(req("PATCH", entity.MergePatchType, patch), current); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Patch+Bind", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			o, _, err := e.Patch(req("PATCH", entity.MergePatchType, patch), current)
			if err != nil {
				b.Fatal(err)
			}
			c := current
			if err := o.Bind(&c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MakeRequest", func(b *testing.B) {
		b.ReportAllocs()
		body := string(full)
		for b.Loop() {
			if _, err := e.MakeRequest(req("POST", "application/json", body)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Request", func(b *testing.B) { // what building the request costs, to subtract
		b.ReportAllocs()
		for b.Loop() {
			req("PATCH", entity.MergePatchType, patch)
		}
	})
}
