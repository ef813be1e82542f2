package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/api"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// problem is what the tests read of problem details.
type problem struct {
	Type, Title, Detail string
	Status              int
}

// readProblem checks that rec holds problem details of status and
// returns them.
func readProblem(t *testing.T, rec *httptest.ResponseRecorder, status int) problem {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status %d, want %d: %s", rec.Code, status, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type %q, want application/problem+json: %s", ct, rec.Body)
	}
	var p problem
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	if p.Status != status {
		t.Errorf("the body's status %d, want %d", p.Status, status)
	}
	return p
}

// serve answers one request with h.
func serve(h http.Handler, method, target string, header ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

// TestRoutesReachTheirHandlers: the handlers registered answer their
// routes, GET ones HEAD too; the API's own routes answer theirs.
func TestRoutesReachTheirHandlers(t *testing.T) {
	mux, _ := shopAPI(t, api.Config{})
	tests := []struct {
		method, target string
		status         int
	}{
		{"POST", "/customers", 204},
		{"GET", "/customers", 204},
		{"GET", "/customers/42", 204},
		{"HEAD", "/customers/42", 204},
		{"PATCH", "/customers/42", 204},
		{"POST", "/orders", 204},
		{"GET", "/orders/7", 204},
		{"GET", "/openapi.json", 200},
		{"GET", "/docs", 200},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.target, func(t *testing.T) {
			if rec := serve(mux, tt.method, tt.target); rec.Code != tt.status {
				t.Errorf("status %d, want %d", rec.Code, tt.status)
			}
		})
	}
}

// TestUnknownPathsAndMethodsAnswerProblems: a path no route takes is a 404,
// a method no route of the path takes a 405 with Allow naming those that
// do (the application's own routes on the mux included), both problem
// details with the registry's problem type base, in the request's
// language.
func TestUnknownPathsAndMethodsAnswerProblems(t *testing.T) {
	mux, _ := shopAPI(t, api.Config{})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {})
	tests := []struct {
		name, method, target string
		status               int
		allow                string
	}{
		{"an unknown path", "GET", "/nothing", 404, ""},
		{"an unknown path under a route's", "GET", "/customers/42/orders", 404, ""},
		{"the root", "GET", "/", 404, ""},
		{"a method no route takes", "DELETE", "/customers", 405, "GET, HEAD, POST"},
		{"a method of a wildcard path", "POST", "/customers/42", 405, "GET, HEAD, PATCH"},
		{"a method of the document's path", "POST", "/openapi.json", 405, "GET, HEAD"},
		{"a method of an application's route", "POST", "/healthz", 405, "GET, HEAD"},
	}
	titles := map[string]map[int]string{ // the status's title in the request's language
		"en": {404: "Not Found", 405: "Method Not Allowed"},
		"ja": {404: "見つかりません", 405: "許可されていないメソッドです"},
	}
	for _, tt := range tests {
		for _, lang := range []string{"en", "ja"} {
			t.Run(tt.name+", "+lang, func(t *testing.T) {
				rec := serve(mux, tt.method, tt.target, "Accept-Language", lang)
				p := readProblem(t, rec, tt.status)
				if got := rec.Header().Get("Allow"); got != tt.allow {
					t.Errorf("Allow %q, want %q", got, tt.allow)
				}
				if p.Type != "about:blank" || p.Title != titles[lang][tt.status] {
					t.Errorf("type %q, title %q, want %q", p.Type, p.Title, titles[lang][tt.status])
				}
				if h := rec.Header(); h.Get("Content-Language") != lang || h.Get("Vary") != "Accept-Language" {
					t.Errorf("Content-Language %q, Vary %q", h.Get("Content-Language"), h.Get("Vary"))
				}
			})
		}
	}
}

// TestNoFallbackLeavesTheRoot: with NoFallback the application serves "/"
// and calls Fallback for what it does not serve.
func TestNoFallbackLeavesTheRoot(t *testing.T) {
	mux, a := shopAPI(t, api.Config{NoFallback: true})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			w.Write([]byte("home"))
			return
		}
		a.Fallback(w, r)
	})
	if rec := serve(mux, "GET", "/"); rec.Body.String() != "home" {
		t.Errorf("GET / = %d %q, want the application's", rec.Code, rec.Body)
	}
	readProblem(t, serve(mux, "GET", "/nothing"), 404)
	if rec := serve(mux, "PUT", "/orders"); readProblem(t, rec, 405).Status == 405 && rec.Header().Get("Allow") != "POST" {
		t.Errorf("Allow %q", rec.Header().Get("Allow"))
	}
}

// TestHandleRefusesBadRoutes: Handle panics on what cannot be an
// operation, as http.ServeMux.Handle panics on what cannot be a route.
func TestHandleRefusesBadRoutes(t *testing.T) {
	reg := shopEntities(t)
	ok := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	tests := []struct {
		name    string
		pattern string
		h       http.Handler
		op      api.Operation
		want    string
	}{
		{"no method", "/customers", ok, api.Operation{}, `api: pattern "/customers": it names no method: an operation is "METHOD /path"`},
		{"a host", "GET example.com/customers", ok, api.Operation{}, `api: pattern "GET example.com/customers": its path does not start with / (an operation's pattern names no host)`},
		{"a bad method", "GE(T /x", ok, api.Operation{}, `api: pattern "GE(T /x": its method is not one`},
		{"a path field the pattern lacks", "GET /customers", ok, api.Operation{Request: reg.MustLookup("customer_ref")},
			`api: Handle GET /customers: entity "customer_ref" reads the path value "id", which the pattern has no wildcard for`},
		{"a PATCH's path field the pattern lacks", "PATCH /customers", ok, api.Operation{Request: reg.MustLookup("customer_ref")},
			`api: Handle PATCH /customers: entity "customer_ref" reads the path value "id", which the pattern has no wildcard for`},
		{"a merged path field the pattern lacks", "POST /notes", ok, api.Operation{Request: reg.MustExpose("note", "at", "$customer_ref", "merge")},
			`api: Handle POST /notes: entity "note" reads the path value "id", which the pattern has no wildcard for`},
		{"a selection of no response", "GET /other", ok, api.Operation{Request: reg.MustLookup("customer_query"), Select: "fields"},
			`api: Handle GET /other: Select names the parameter "fields", but the operation has no Response entity to select from`},
		{"a selection whose default selects nothing", "GET /other", ok, api.Operation{Request: reg.MustExpose("q", "fields", "string", "query | default 'nope'"),
			Response: reg.MustLookup("customer"), Select: "fields"},
			`api: Handle GET /other: entity "q" reads the selection "fields" with a default that is no selection of entity "customer"`},
		{"an ID twice", "GET /other", ok, api.Operation{ID: "getCustomer"}, `api: Handle GET /other: another operation has ID "getCustomer"`},
		{"a nil handler", "GET /other", nil, api.Operation{}, "api: Handle GET /other: a nil handler"},
		{"a pattern the router refuses", "GET /customers/{id}", ok, api.Operation{}, "conflicts with pattern"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, a := shopAPI(t, api.Config{})
			before, _ := a.OpenAPI(api.Audience{})
			defer func() {
				r := recover()
				msg, _ := r.(string)
				if err, ok := r.(error); ok {
					msg = err.Error()
				}
				if !strings.Contains(msg, tt.want) {
					t.Errorf("panic %v, want %q", r, tt.want)
				}
				if after, _ := a.OpenAPI(api.Audience{}); string(after) != string(before) {
					t.Errorf("a refused route changed the document")
				}
			}()
			a.Handle(tt.pattern, tt.h, tt.op)
		})
	}
}

// TestOperationIDsDerived: an operation without an ID gets one from its
// pattern, unique among the API's.
func TestOperationIDsDerived(t *testing.T) {
	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "t", Version: "1"}})
	ok := func(http.ResponseWriter, *http.Request) {}
	tests := []struct{ pattern, id, want string }{
		{"GET /customers", "", "getCustomers"},
		{"GET /customers/{id}", "", "getCustomersById"},
		{"DELETE /customers/{id}/orders/{n}", "", "deleteCustomersByIdOrdersByN"},
		{"GET /files/{path...}", "", "getFilesByPath"},
		{"GET /a/{$}", "", "getA"},
		{"GET /{$}", "", "get"},
		{"GET /line-items", "", "getLineItems"},
		{"GET /line_items", "", "getLineItems2"},
		{"POST /getLineItems3", "getLineItems3", "getLineItems3"},
		{"PUT /line.items", "", "putLineItems"},
		{"PATCH /line%20items", "", "patchLine20items"},
	}
	for _, tt := range tests {
		a.HandleFunc(tt.pattern, ok, api.Operation{ID: tt.id})
	}
	doc, err := a.OpenAPI(api.Audience{})
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Paths map[string]map[string]struct{ OperationID string }
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		method, path, _ := strings.Cut(tt.pattern, " ")
		path = strings.ReplaceAll(strings.ReplaceAll(path, "{$}", ""), "...", "")
		if got := d.Paths[path][strings.ToLower(method)].OperationID; got != tt.want {
			t.Errorf("%s: operationId %q, want %q", tt.pattern, got, tt.want)
		}
	}
}

// TestOperationsReachTheDocument: what an operation records is in its
// document: operationId, tags, summary, description, security, its own
// error answers, typed path parameters, a PATCH's merge patch body.
func TestOperationsReachTheDocument(t *testing.T) {
	_, a := shopAPI(t, api.Config{})
	doc, err := a.OpenAPI(api.Audience{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path []string
		want string
	}{
		{"the info", []string{"info"}, `{"description":"Customers and their orders.","title":"shop","version":"1.0.0"}`},
		{"a given operationId", []string{"paths", "/customers/{id}", "get", "operationId"}, `"getCustomer"`},
		{"a derived operationId", []string{"paths", "/customers/{id}", "patch", "operationId"}, `"patchCustomersById"`},
		{"tags", []string{"paths", "/orders", "post", "tags"}, `["orders"]`},
		{"a typed path parameter", []string{"paths", "/customers/{id}", "get", "parameters", "0"},
			`{"description":"The customer.","in":"path","name":"id","required":true,"schema":{"format":"int64","maximum":9223372036854775807,"minimum":1,"type":"integer"}}`},
		{"the PATCH's path from its Params entity", []string{"paths", "/customers/{id}", "patch", "parameters", "0", "schema", "minimum"}, `1`},
		{"a merge patch body", []string{"paths", "/customers/{id}", "patch", "requestBody", "content"},
			`{"application/merge-patch+json":{"schema":{"$ref":"#/components/schemas/customer.patch"}}}`},
		{"the 404 of an unknown id", []string{"paths", "/customers/{id}", "get", "responses", "404", "description"}, `"no customer has this id"`},
		{"a 409", []string{"paths", "/customers", "post", "responses", "409", "description"}, `"a customer has this e-mail address"`},
		{"a 201", []string{"paths", "/customers", "post", "responses", "201", "content", "application/json", "schema"}, `{"$ref":"#/components/schemas/customer"}`},
		{"security", []string{"paths", "/orders", "post", "security"}, `[{"bearer":[]}]`},
		{"the security scheme", []string{"components", "securitySchemes", "bearer"},
			`{"bearerFormat":"JWT","description":"a token of the shop's staff","scheme":"bearer","type":"http"}`},
		{"query parameters of a GET", []string{"paths", "/customers", "get", "parameters", "0", "name"}, `"limit"`},
		{"a cross-field rule", []string{"components", "schemas", "order.request", "allOf", "0", "description"}, `"\"ship\" is required when \"delivery\" is \"ship\""`},
		{"no admin-only field in the public document", []string{"components", "schemas", "customer", "properties", "loyalty_points"}, `null`},
		{"no secret example", []string{"components", "schemas", "customer.request", "properties", "password", "examples"}, `null`},
		{"a description", []string{"components", "schemas", "customer", "properties", "name", "description"}, `"The full name."`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := at(t, doc, tt.path...); got != tt.want {
				t.Errorf("%s = %s\nwant %s", strings.Join(tt.path, "/"), got, tt.want)
			}
		})
	}
}

// TestDocumentServerError: a document that cannot be made (a $ref to no
// entity) is a 500 whose error the registry's log hook gets.
func TestDocumentServerError(t *testing.T) {
	var logged error
	reg := entity.NewRegistry(entity.ServerErrors(func(id string, err error) { logged = err }))
	e := reg.MustExpose("broken", "x", "$nothing", "")
	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "t", Version: "1"}})
	a.HandleFunc("GET /broken", func(http.ResponseWriter, *http.Request) {}, api.Operation{Response: e})
	if _, err := a.OpenAPI(api.Audience{}); err == nil {
		t.Errorf("OpenAPI made a document of a $ref to no entity")
	}
	for _, path := range []string{"/openapi.json", "/docs"} {
		logged = nil
		rec := serve(mux, "GET", path)
		readProblem(t, rec, 500)
		if logged == nil || !strings.Contains(logged.Error(), "$nothing names no entity") {
			t.Errorf("%s: the log hook got %v", path, logged)
		}
		if rec.Header().Get("Content-Security-Policy") != "" {
			t.Errorf("%s: a problem with the docs page's policy", path)
		}
	}
}

// TestEntityDescriptions: the comment above an entity in its file is its
// component schema's description, in every mode, and on the docs page.
func TestEntityDescriptions(t *testing.T) {
	_, a := shopAPI(t, api.Config{})
	doc, err := a.OpenAPI(api.Audience{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"customer", "customer.request", "customer.patch", "address", "order.request", "customer_list.partial"} {
		if got := at(t, doc, "components", "schemas", name, "description"); got == "null" {
			t.Errorf("component %s has no description", name)
		}
	}
	docs, _ := a.Docs(api.Audience{})
	if !strings.Contains(string(docs), "A customer of the shop.") {
		t.Errorf("the docs page lacks the customer's description")
	}
}
