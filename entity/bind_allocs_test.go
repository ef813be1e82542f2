package entity_test

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/expose-go/expose/entity"
)

// bindOrderLine and bindOrderDst are the struct expose gen writes for the
// request benchmarks' order (bench/testdata/orders.entity).
type bindOrderLine struct {
	Sku string `json:"sku"`
	Qty int64  `json:"qty"`
}

type bindOrderDst struct {
	Name   string          `json:"name"`
	Email  string          `json:"email"`
	Age    *int64          `json:"age"`
	Tags   []string        `json:"tags"`
	Street string          `json:"street"`
	City   string          `json:"city"`
	Zip    string          `json:"zip"`
	Lines  []bindOrderLine `json:"lines"`
}

// TestBindAllocs: Bind's writer allocates one block per slice and per
// pointer it fills, nothing per string (a string is a view of the made
// Object's text) nor per element of a list of structs: what MakeRequest
// allocates, then 3 (the tags, the lines, the age), whatever the number of
// lines.
func TestBindAllocs(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	reg := entity.NewRegistry()
	expose(t, reg, "line", "sku", "string", "req | regex '^[A-Z0-9-]{3,20}$'", "qty", "number", "req | range 1 99")
	orders := expose(t, reg, "order",
		"name", "string", "req | min 1 | max 100",
		"email", "string", "req | email",
		"age", "number", "range 0 150",
		"tags", "[]string", "each 'min 1 | max 20' | max 10",
		"address", "{", "",
		"street", "string", "req",
		"city", "string", "req",
		"zip", "string", "req",
		"address", "}", "",
		"lines", "[]$line", "max 200",
	)
	for _, tt := range []struct {
		lines, max int // the bounds: at most one per string value and one per slice or map
	}{{3, 15}, {130, 150}} {
		t.Run(strconv.Itoa(tt.lines)+" lines", func(t *testing.T) {
			body := []byte(`{"name":"Maria Garcia","email":"maria.garcia@example.com","age":34,"tags":["new","priority","gift"],` +
				`"address":{"street":"12 Harbour Road","city":"Lisbon","zip":"1100-148"},"lines":[`)
			for i := range tt.lines {
				if i > 0 {
					body = append(body, ',')
				}
				body = append(body, `{"sku":"SKU-`+strconv.Itoa(100000+i)+`","qty":`+strconv.Itoa(1+i%99)+`}`...)
			}
			body = append(body, "]}"...)
			rd := bytes.NewReader(body)
			u, _ := url.Parse("/orders")
			r := &http.Request{Method: "POST", URL: u, Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(rd), ContentLength: int64(len(body))}
			var dst bindOrderDst
			bind := testing.AllocsPerRun(50, func() {
				rd.Reset(body)
				dst = bindOrderDst{}
				if err := orders.Bind(r, &dst); err != nil {
					t.Fatal(err)
				}
			})
			if len(dst.Lines) != tt.lines || dst.Lines[tt.lines-1].Sku == "" || dst.Age == nil || len(dst.Tags) != 3 {
				t.Fatalf("Bind filled %+v", dst)
			}
			made := testing.AllocsPerRun(50, func() {
				rd.Reset(body)
				if _, err := orders.MakeRequest(r); err != nil {
					t.Fatal(err)
				}
			})
			if bind > made+3 {
				t.Errorf("Bind: %v allocations, MakeRequest %v: want at most 3 more (the tags, the lines, the age)", bind, made)
			}
			if bind > float64(tt.max) {
				t.Errorf("Bind: %v allocations, want at most %d", bind, tt.max)
			}
		})
	}
}
