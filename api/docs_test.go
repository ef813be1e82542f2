package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/expose-go/expose/api"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// TestDocsPage: the page served at /docs holds every operation (its path,
// its operationId, its parameters, body fields and error answers) and
// every schema, their descriptions, examples and rules in words; it has a
// viewport meta tag, no script, no reference to another host, nothing of
// a secret field's values, and a Content Security Policy that lets it
// load nothing.
func TestDocsPage(t *testing.T) {
	mux, _ := shopAPI(t, api.Config{})
	rec := serve(mux, "GET", "/docs")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET /docs: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'none'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	page := rec.Body.String()
	for _, want := range []string{
		`<meta name="viewport" content="width=device-width, initial-scale=1">`,
		`id="op-getCustomer"`, `id="op-patchCustomersById"`, `id="op-postOrders"`, `id="op-getOrdersById"`, `id="op-postCustomers"`, `id="op-getCustomers"`,
		`id="schema-customer"`, `id="schema-customer.request"`, `id="schema-customer.patch"`, `id="schema-Problem"`,
		`<code>application/merge-patch&#43;json</code>`,
		`a stream of <a href="#schema-customer">customer</a> <span class="tag">application/x-ndjson</span>`,
		"The full name.", `Example: <code>&#34;Ann Lee&#34;</code>`, // a description and an example
		"1–100 characters", "from 1 to 1000", "1–50 items", // rules in words
		`one of <code>&#34;bronze&#34;</code>, <code>&#34;silver&#34;</code>, <code>&#34;gold&#34;</code>`,
		`&#34;ship&#34; is required when &#34;delivery&#34; is &#34;ship&#34;`, // a cross-field rule
		"no customer has this id", "a customer has this e-mail address", // the handlers' own errors
		"bearer: HTTP bearer (JWT) — a token of the shop&#39;s staff",
		`<a href="./openapi.json">`,
		"Created<br><code>Location</code> header: the URI of the resource created", // a 201's header
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	for _, p := range shopPaths {
		if !strings.Contains(page, "<code>"+p+"</code>") {
			t.Errorf("the page does not show the path %s", p)
		}
	}
	for _, bad := range []string{"<script", "correct horse", "loyalty_points"} {
		if strings.Contains(page, bad) {
			t.Errorf("the public page holds %q", bad)
		}
	}
	refs := regexp.MustCompile(`(?i)(?:src|href)\s*=\s*"([^"]*)"|url\(\s*['"]?([^'")\s]*)|@import\s+['"]?([^'";\s]*)`)
	for _, m := range refs.FindAllStringSubmatch(page, -1) {
		u := m[1] + m[2] + m[3]
		if absoluteURL.MatchString(u) {
			t.Errorf("an absolute URL: %s", m[0])
		}
	}
}

// TestDocumentsHideWhatASecretReferenceHolds: /openapi.json and /docs
// publish nothing of the values of an entity held under a secret
// reference (its in values, pattern, example, default), while its fields
// are listed.
func TestDocumentsHideWhatASecretReferenceHolds(t *testing.T) {
	reg := entity.NewRegistry()
	reg.MustExpose("card",
		"number", "string", "req | regex '^4[0-9]{15}zz$' | example '4111111111111111zz'",
		"kind", "string", "in 'visa-gold' 'amex-black' | default 'visa-gold'",
	)
	payment := reg.MustExpose("payment", "amount", "number", "req", "card", "$card", "secret | req")
	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "pay", Version: "1"}})
	a.HandleFunc("POST /payments", func(http.ResponseWriter, *http.Request) {}, api.Operation{Request: payment, Response: payment})
	for _, path := range []string{"/openapi.json", "/docs"} {
		rec := serve(mux, "GET", path)
		if rec.Code != 200 {
			t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
		body := rec.Body.String()
		for _, v := range []string{"4[0-9]", "4111", "visa-gold", "amex-black"} {
			if strings.Contains(body, v) {
				t.Errorf("%s publishes %q of a secret reference's entity", path, v)
			}
		}
		if !strings.Contains(body, "number") || !strings.Contains(body, "kind") {
			t.Errorf("%s does not list the fields of the secret reference's entity", path)
		}
	}
}

// TestDocsStream: the docs page says that an operation's answer is a
// stream of its entity, in each media type it is sent as.
func TestDocsStream(t *testing.T) {
	tests := []struct {
		name   string
		stream schema.Stream
		want   string
	}{
		{"NDJSON", schema.StreamNDJSON, `a stream of <a href="#schema-event">event</a> <span class="tag">application/x-ndjson</span>`},
		{"a JSON array", schema.StreamArray, `a stream of <a href="#schema-event">event</a> <span class="tag">application/json</span>`},
		{"either", schema.StreamArray | schema.StreamNDJSON,
			`a stream of <a href="#schema-event">event</a> <span class="tag">application/json, application/x-ndjson</span>`},
		{"no stream", 0, `<td data-label="Body"><a href="#schema-event">event</a> <span class="tag">application/json</span>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			event := reg.MustExpose("event", "id", "number", "req")
			a := api.New(http.NewServeMux(), api.Config{Info: schema.Info{Title: "events", Version: "1"}})
			a.HandleFunc("GET /events", func(http.ResponseWriter, *http.Request) {}, api.Operation{Response: event, Stream: tt.stream})
			page, err := a.Docs(api.Audience{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(page), tt.want) {
				t.Errorf("the page does not say %s", tt.want)
			}
			if tt.stream == 0 && strings.Contains(string(page), "a stream of") {
				t.Error("the page says a stream of a single object")
			}
		})
	}
}

// TestDocsUnion: the page says a union field is one of its variants, each
// a link to its schema, and which key tells them apart; the variants'
// schemas are on the page.
func TestDocsUnion(t *testing.T) {
	reg := entity.NewRegistry()
	reg.MustExpose("card", "token", "string", "writeonly | req", "last4", "string", "readonly")
	reg.MustExpose("invoice", "po_number", "string", "req | min 1 | max 40")
	orders := reg.MustExpose("order", "payment", "$card|$invoice", "req | by 'method'")
	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "unions", Version: "1"}, Registry: reg})
	a.HandleFunc("POST /orders", func(http.ResponseWriter, *http.Request) {}, api.Operation{Request: orders, Response: orders, Status: http.StatusCreated})
	page := serve(mux, "GET", "/docs").Body.String()
	for _, want := range []string{
		`one of <a href="#schema-card.by_method">card.by_method</a> or <a href="#schema-invoice.by_method">invoice.by_method</a>`,
		`one of <a href="#schema-card.request.by_method">card.request.by_method</a> or <a href="#schema-invoice.request.by_method">invoice.request.by_method</a>`,
		`the variant is told by the value of its key <code>method</code>`,
		`id="schema-card.by_method"`, `id="schema-invoice.request.by_method"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}
