// Command shop is a small shop's HTTP API built with expose: customers and
// their orders, kept in memory (the store starts empty). The entities are
// declared in schemas/shop.entity, their Go types generated from it, and the
// routes registered with package api, which serves the OpenAPI document
// (/openapi.json) and a docs page (/docs) made from them. The API answers
// GET /customers/{id} with an ETag (If-None-Match: a 304), PATCH checks
// If-Match (a stale one is a 412), and GET /customers/export streams the
// customers as NDJSON. An order's payment is a union: a card (its token
// read, never written back; the server keeps its last four characters) or
// an invoice, told by its key method.
//
//	cd examples && go run ./shop -addr 127.0.0.1:8080
//	curl -i -H 'Content-Type: application/json' -d '{"name":"Ann","email":"ann@example.com",
//	     "password":"s3cret-pw","address":{"city":"Kyoto","zip":"600-8216"}}' http://127.0.0.1:8080/customers
package main

//go:generate go run github.com/expose-go/expose/cmd/expose gen -flags admin -f schemas/shop.entity -package main -o entities_gen.go

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/expose-go/expose/api"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

//go:embed schemas/*.entity
var schemas embed.FS

// reg holds the shop's entities, loaded from schemas/; each $address holds
// one object (SingleRefs), never msful's list of them, and a JSON body
// gives numbers, bools and dates as their JSON types (JSONTypes): "2" is
// no quantity, and the request schemas say integer, with no text form.
var reg = func() *entity.Registry {
	reg := entity.NewRegistry(entity.SingleRefs(), entity.JSONTypes(), entity.ServerErrors(func(id string, err error) { log.Printf("%s: %v", id, err) }))
	if err := errors.Join(reg.DeclareFlags("admin"), reg.LoadFS(schemas, "schemas/*.entity"),
		reg.DeclareCode("no_customer", map[string]string{"en": "names no customer", "ja": "該当する顧客がいません"}),
		reg.DeclareCode("unknown_id", map[string]string{"en": "no resource has this id", "ja": "この ID のリソースはありません"})); err != nil {
		panic(err)
	}
	return reg
}()

var customers, byID, customerQuery, customerPage = reg.MustLookup("customer"), reg.MustLookup("by_id"), reg.MustLookup("customer_query"), reg.MustLookup("customer_page")

// record is a customer as the store keeps it: with the password, which no
// response writes.
type record struct {
	Customer
	Password string `json:"password"`
}

// store is the shop's data, in memory. An id is its index plus one.
type store struct {
	// changing: one PATCH at a time (the value its If-Match checked is
	// the one it changes).
	mu, changing sync.Mutex
	customers    []record
	orders       []Order
	order        *entity.Entity // the order entity, with the store's check
}

// newServer returns the shop's routes, over an empty store.
func newServer() http.Handler {
	s := &store{}
	s.order = reg.MustLookup("order").Checked(s.checkOrder)
	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "shop", Version: "1.0.0"}, Registry: reg, Vary: []string{"X-Role"}})
	notFound := []schema.ErrorResponse{{Status: http.StatusNotFound, Description: "no resource has this id"}}
	a.HandleFunc("POST /customers", s.createCustomer, api.Operation{Summary: "Create a customer",
		Request: customers, Response: customers, Status: http.StatusCreated})
	a.HandleFunc("GET /customers", s.listCustomers, api.Operation{Summary: "List the customers",
		Request: customerQuery, Response: customerPage, Select: "fields"})
	a.HandleFunc("GET /customers/export", s.exportCustomers, api.Operation{Summary: "Every customer, one a line",
		Response: customers, Stream: schema.StreamNDJSON})
	a.HandleFunc("GET /customers/{id}", s.getCustomer, api.Operation{Summary: "Get a customer",
		Request: byID, Response: customers, Errors: notFound, Select: "fields"})
	a.HandleFunc("PATCH /customers/{id}", s.patchCustomer, api.Operation{Summary: "Change a customer",
		Params: byID, Request: customers, Response: customers, Errors: notFound, Select: "fields", IfMatch: true})
	a.HandleFunc("POST /orders", s.createOrder, api.Operation{Summary: "Place an order",
		Request: s.order, Response: s.order, Status: http.StatusCreated})
	a.HandleFunc("GET /orders/{id}", s.getOrder, api.Operation{Summary: "Get an order",
		Request: byID, Response: s.order, Errors: notFound, Select: "fields"})
	return roles(mux)
}

// roles marks the staff's requests with the flag admin, which shows them
// the fields declared `if 'admin'`. In production an authenticating proxy
// sets X-Role (and drops the one a client sends): the header is never to
// be trusted from a client, as this example does for its tests.
func roles(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Role") == "admin" {
			r = r.WithContext(entity.NewContext(r.Context(), "admin"))
		}
		h.ServeHTTP(w, r)
	})
}

// find reads the {id} of r's path and the fields of its query, and returns
// the element of list the id names. When there is none it answers r itself:
// 400 for an id that is not one, 404 for one that names nothing, in the
// client's language.
func find[T any](w http.ResponseWriter, r *http.Request, s *store, list *[]T) (q ByIDRequest, v T, ok bool) {
	if err := byID.Bind(r, &q); err != nil { // parameters only: a PATCH's body stays for Patch
		reg.WriteError(w, err)
		return q, v, false
	}
	s.mu.Lock()
	if ok = q.ID <= int64(len(*list)); ok {
		v = (*list)[q.ID-1]
	}
	s.mu.Unlock()
	if !ok {
		reg.WriteRequestError(w, r, &entity.InputError{Status: http.StatusNotFound, Code: "unknown_id"})
	}
	return q, v, ok
}

func (s *store) createCustomer(w http.ResponseWriter, r *http.Request) {
	var c record
	if err := customers.Bind(r, &c); err != nil {
		reg.WriteError(w, err)
		return
	}
	s.mu.Lock()
	c.ID, c.CreatedAt = int64(len(s.customers)+1), time.Now().UTC()
	s.customers = append(s.customers, c)
	s.mu.Unlock()
	w.Header().Set("Location", fmt.Sprintf("/customers/%d", c.ID))
	customers.WriteStatus(w, http.StatusCreated, c, entity.WithContext(r.Context()))
}

func (s *store) getCustomer(w http.ResponseWriter, r *http.Request) {
	if q, c, ok := find(w, r, s, &s.customers); ok {
		customers.Write(w, c, entity.WithContext(r.Context()), entity.Select(q.Fields))
	}
}

// patchCustomer changes a customer: the API answers its ETag, and a
// stale If-Match is a 412 (Precondition) that changes nothing.
func (s *store) patchCustomer(w http.ResponseWriter, r *http.Request) {
	s.changing.Lock()
	defer s.changing.Unlock()
	q, c, ok := find(w, r, s, &s.customers)
	if !ok {
		return
	}
	opts := []entity.Option{entity.WithContext(r.Context()), entity.Select(q.Fields)}
	err := api.Precondition(r, customers, c, opts...) // the ETag of the GET of the same caller and fields
	var merged *entity.Object
	if err == nil {
		merged, _, err = customers.Patch(r, c)
	}
	if err == nil {
		err = merged.Bind(&c)
	}
	var out *entity.Object
	if err == nil {
		out, err = customers.Make(c, opts...) // the answer before the store: a bad fields= changes nothing
	}
	if err != nil {
		reg.WriteError(w, err)
		return
	}
	s.mu.Lock()
	s.customers[c.ID-1] = c
	s.mu.Unlock()
	customers.Write(w, out, opts...)
}

func (s *store) listCustomers(w http.ResponseWriter, r *http.Request) {
	var q CustomerQueryRequest
	if err := customerQuery.Bind(r, &q); err != nil {
		reg.WriteError(w, err)
		return
	}
	s.mu.Lock()
	from := min(q.Offset, int64(len(s.customers)))
	list := slices.Clone(s.customers[from:min(from+q.Limit, int64(len(s.customers)))])
	s.mu.Unlock()
	customerPage.Write(w, map[string]any{"offset": q.Offset, "limit": q.Limit, "list": list}, entity.WithContext(r.Context()), entity.Select(q.Fields))
}

// exportCustomers streams every customer as NDJSON, in the caller's
// audience: EncodeSeq makes each as Write would.
func (s *store) exportCustomers(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	list := slices.Clone(s.customers)
	s.mu.Unlock()
	w.Header().Set("Content-Type", schema.NDJSONType)
	seq := func(yield func(record, error) bool) {
		for i := 0; i < len(list) && yield(list[i], nil); i++ {
		}
	}
	if err := entity.EncodeSeq(w, customers, seq, entity.WithContext(r.Context()), entity.Lang(reg.RequestLang(r))); err != nil {
		log.Printf("GET /customers/export: %v", err)
	}
}

// checkOrder is the check of an order that the declaration cannot make:
// its customer exists. It runs even when the declared rules failed, so
// that a bad quantity and an unknown customer are answered in one 400.
func (s *store) checkOrder(_ context.Context, o *entity.Object) error {
	id, ok, err := entity.Value[int64](o, "customer_id")
	if err != nil || !ok {
		return err // no valid id: the declared rules say so
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 1 || id > int64(len(s.customers)) {
		return entity.NewFieldError("/customer_id", "no_customer", nil)
	}
	return nil
}

// createOrder places an order. A card's token is charged, never stored:
// the order keeps its last four characters (last4, readonly).
func (s *store) createOrder(w http.ResponseWriter, r *http.Request) {
	var o Order
	obj, err := s.order.MakeRequest(r)
	if err == nil {
		err = obj.Bind(&o) // o.Payment is a *Card or an *Invoice
	}
	if err != nil {
		reg.WriteError(w, err)
		return
	}
	if token, ok, _ := entity.Value[string](obj, "payment.token"); ok { // a card's, of 4 characters or more (min 4)
		o.Payment.(*Card).Last4 = new(token[len(token)-4:])
	}
	s.mu.Lock()
	o.ID, o.Status = int64(len(s.orders)+1), "pending"
	s.orders = append(s.orders, o)
	s.mu.Unlock()
	w.Header().Set("Location", fmt.Sprintf("/orders/%d", o.ID))
	s.order.WriteStatus(w, http.StatusCreated, o)
}

func (s *store) getOrder(w http.ResponseWriter, r *http.Request) {
	if q, o, ok := find(w, r, s, &s.orders); ok {
		s.order.Write(w, o, entity.Select(q.Fields))
	}
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "the address to listen on (port 0: any free port)")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("shop listening on %s", ln.Addr()) // the port chosen, with port 0
	log.Fatal((&http.Server{Handler: newServer(), ReadHeaderTimeout: 5 * time.Second}).Serve(ln))
}
