package schematest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/expose-go/expose/api"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
)

// selectionServer serves customers whose fields a selection shapes: GET
// /customers/{id} names its selection parameter (api.Operation.Select),
// GET /full/{id} does not, though its handler applies one all the same.
func selectionServer(t testing.TB) *httptest.Server {
	t.Helper()
	reg := entity.NewRegistry()
	for _, d := range [][]string{
		{"address", "city", "string", "req | min 1", "zip", "string", "req"},
		{"customer", "id", "number", "req", "name", "string", "req | min 1", "tier", "string", "req | in bronze gold",
			"contact", "{", "", "mail", "string", "req | email", "contact", "}", "",
			"address", "$address", "req", "note", "string", "required_if 'tier' 'gold'"},
		{"by_id", "id", "number", "path | min 1", "fields", "string", "query | default ''"},
	} {
		if _, err := reg.Expose(d[0], d[1:]...); err != nil {
			t.Fatal(err)
		}
	}
	customer, byID := reg.Lookup("customer"), reg.Lookup("by_id")
	row := map[string]any{"id": 1, "name": "Ann", "tier": "gold", "note": "vip", "mail": "ann@example.com",
		"address": map[string]any{"city": "Kyoto", "zip": "600-8216"}}
	get := func(w http.ResponseWriter, r *http.Request) {
		var q struct {
			ID     int64  `json:"id"`
			Fields string `json:"fields"`
		}
		if err := byID.Bind(r, &q); err != nil {
			reg.WriteError(w, err)
			return
		}
		customer.Write(w, row, entity.Select(q.Fields))
	}
	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "selection", Version: "1"}})
	a.HandleFunc("GET /customers/{id}", get, api.Operation{Request: byID, Response: customer, Select: "fields"})
	a.HandleFunc("GET /full/{id}", get, api.Operation{Request: byID, Response: customer})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// newValidator returns libopenapi-validator's validator of the document
// srv serves at /openapi.json, and the document.
func newValidator(t testing.TB, srv *httptest.Server) (validator.Validator, []byte) {
	t.Helper()
	res, err := http.Get(srv.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	doc, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	d, err := libopenapi.NewDocument(doc)
	if err != nil {
		t.Fatal(err)
	}
	v, errs := validator.NewValidator(d)
	if len(errs) > 0 {
		t.Fatalf("libopenapi-validator: %v", errs)
	}
	if ok, errs := v.ValidateDocument(); !ok {
		t.Fatalf("the document is not valid: %v", errs)
	}
	return v, doc
}

// TestSelectedResponsesValidate: what a selection leaves out of a 200
// (fields=name answers {"name":"Ann"}) validates, request and response,
// against the served document with libopenapi-validator, for every
// selection tried, the document's example and default among them; the
// same responses fail an operation that does not say it takes a
// selection, so the validator does judge what is required.
func TestSelectedResponsesValidate(t *testing.T) {
	srv := selectionServer(t)
	v, doc := newValidator(t, srv)
	var d struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name   string
				Schema struct{ Examples []string }
			}
		}
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	var example string
	for _, p := range d.Paths["/customers/{id}"]["get"].Parameters {
		if p.Name == "fields" && len(p.Schema.Examples) == 1 {
			example = p.Schema.Examples[0]
		}
	}
	if example == "" {
		t.Fatalf("the selection parameter has no example:\n%s", doc)
	}
	specs := []string{"", "name", "id,contact(mail)", "address/city", "tier,address(zip)", "*", example}
	for _, spec := range specs {
		for _, path := range []string{"/customers/1", "/full/1"} {
			t.Run(fmt.Sprintf("%s?fields=%s", path, spec), func(t *testing.T) {
				target := srv.URL + path
				if spec != "" {
					target += "?" + url.Values{"fields": {spec}}.Encode()
				}
				req, err := http.NewRequest("GET", target, nil)
				if err != nil {
					t.Fatal(err)
				}
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				res.Body = io.NopCloser(strings.NewReader(string(body)))
				if res.StatusCode != 200 {
					t.Fatalf("%d %s", res.StatusCode, body)
				}
				req.URL.Host, req.URL.Scheme = "", "" // the document names no server
				ok, errs := v.ValidateHttpRequestResponse(req, res)
				whole := spec == "" || spec == "*"
				switch {
				case path == "/customers/1" && !ok:
					t.Errorf("%s is refused: %v", body, errs)
				case path == "/full/1" && ok != whole:
					t.Errorf("%s: valid %v against the full schema, want %v: %v", body, ok, whole, errs)
				}
			})
		}
	}
}
