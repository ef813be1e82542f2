package bench

import (
	"bytes"
	"embed"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/expose-go/expose/entity"
)

// The request side's shape: a create request, an order with a name, an
// email, an age, tags, an address group and order lines, declared in
// testdata/orders.entity and sent as an *http.Request. OrderBody gives its
// JSON body with 3 lines (about 280 bytes) or 130 lines (about 4 KB); the
// baselines in requests_baseline.go read the same bodies with the same
// rules, and requests_equal_test.go checks that they accept and refuse the
// same bodies before anything is timed.

//go:generate go run github.com/expose-go/expose/cmd/expose gen -f testdata/orders.entity -package bench -o orders_gen.go

//go:embed testdata/orders.entity
var orderFiles embed.FS

// LineCounts are the two sizes of the request benchmarks: 3 order lines
// (a body of about 280 bytes) and 130 (about 4 KB).
var LineCounts = []int{3, 130}

// NewOrderRegistry returns a registry holding testdata/orders.entity's
// entities, `order` and `line`.
func NewOrderRegistry() *entity.Registry {
	reg := entity.NewRegistry()
	if err := reg.LoadFS(orderFiles, "testdata/orders.entity"); err != nil {
		panic(err)
	}
	return reg
}

// OrderBody returns the JSON body of a valid create request with lines
// order lines, deterministically.
func OrderBody(lines int) []byte {
	b := []byte(`{"name":"Maria Garcia","email":"maria.garcia@example.com","age":34,"tags":["new","priority","gift"],` +
		`"address":{"street":"12 Harbour Road, Flat 3","city":"Lisbon","zip":"1100-148"},"lines":[`)
	for i := range lines {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendLine(b, i)
	}
	return append(b, "]}"...)
}

// appendLine appends the i-th order line: a SKU of 10 to 11 characters and
// a quantity from 1 to 99.
func appendLine(b []byte, i int) []byte {
	b = append(b, `{"sku":"SKU-`...)
	b = strconv.AppendInt(b, int64(100000+i*37), 10)
	b = append(b, `","qty":`...)
	b = strconv.AppendInt(b, int64(1+i*7%99), 10)
	return append(b, '}')
}

// FailingOrderBody returns OrderBody(lines) with 3 fields that fail: the
// email (no domain), the age (over 150) and the SKU of the second line
// (lower case).
func FailingOrderBody(lines int) []byte {
	b := OrderBody(lines)
	b = bytes.Replace(b, []byte(`"maria.garcia@example.com"`), []byte(`"maria.garcia"`), 1)
	b = bytes.Replace(b, []byte(`"age":34`), []byte(`"age":340`), 1)
	return bytes.Replace(b, []byte(`"sku":"SKU-100037"`), []byte(`"sku":"sku-100037"`), 1)
}

// FailingOrderPaths are the paths of FailingOrderBody's failing fields, in
// the body's order.
var FailingOrderPaths = []string{"email", "age", "lines[1].sku"}

// OrderPatch is the merge patch of 3 fields: the name, the age and the
// address's city.
const OrderPatch = `{"name":"Maria Garcia Lopes","age":35,"address":{"city":"Porto"}}`

// OrderPatchTouched are the paths Patch reports for OrderPatch.
var OrderPatchTouched = []string{"name", "age", "address.city"}

// StoredOrder returns the value OrderBody(lines) creates, as the server
// stores it: the struct Make reads.
func StoredOrder(lines int) *Order {
	age := int64(34)
	o := &Order{Name: "Maria Garcia", Email: "maria.garcia@example.com", Age: &age, Tags: []string{"new", "priority", "gift"},
		Street: "12 Harbour Road, Flat 3", City: "Lisbon", Zip: "1100-148", Lines: make([]Line, lines)}
	for i := range o.Lines {
		o.Lines[i] = Line{Sku: "SKU-" + strconv.Itoa(100000+i*37), Qty: int64(1 + i*7%99)}
	}
	return o
}

// Request is an *http.Request whose body can be read again: Reset puts the
// body back at its start, so that a benchmark sends the same request on
// every iteration without building one.
type Request struct {
	*http.Request
	body []byte
	rd   *bytes.Reader
	rc   io.ReadCloser
}

// NewRequest returns a request of the method to /orders with the body and
// its Content-Type, as a server hands it to a handler.
func NewRequest(method, contentType string, body []byte) *Request {
	u, _ := url.Parse("/orders")
	rd := bytes.NewReader(body)
	rc := io.NopCloser(rd)
	r := &http.Request{Method: method, URL: u, RequestURI: "/orders", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {contentType}, "Accept": {"application/json"}}, Host: "example.com",
		Body: rc, ContentLength: int64(len(body)), RemoteAddr: "192.0.2.1:1234"}
	return &Request{Request: r, body: body, rd: rd, rc: rc}
}

// Reset rewinds the body and returns the request.
func (r *Request) Reset() *http.Request {
	r.rd.Reset(r.body)
	r.Request.Body = r.rc
	return r.Request
}

// OrderMap returns StoredOrder(lines) as a map, server data read by the
// declared names (the address group's fields beside their siblings): what
// a handler holding a document or a row as a map gives AppendJSON.
func OrderMap(lines int) map[string]any {
	o := StoredOrder(lines)
	list := make([]any, len(o.Lines))
	for i, l := range o.Lines {
		list[i] = map[string]any{"sku": l.Sku, "qty": l.Qty}
	}
	return map[string]any{"name": o.Name, "email": o.Email, "age": *o.Age, "tags": []any{"new", "priority", "gift"},
		"street": o.Street, "city": o.City, "zip": o.Zip, "lines": list}
}
