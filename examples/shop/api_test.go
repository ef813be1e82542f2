package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity/entitytest"
)

// TestFallback: a method no route of a path takes is a 405 with Allow, an
// unknown path a 404, both problem details.
func TestFallback(t *testing.T) {
	tests := []struct {
		method, target string
		status         int
		allow          string
	}{
		{"DELETE", "/customers", 405, "GET, HEAD, POST"},
		{"PUT", "/customers/1", 405, "GET, HEAD, PATCH"},
		{"DELETE", "/orders/1", 405, "GET, HEAD"},
		{"GET", "/orders", 405, "POST"},
		{"GET", "/nope", 404, ""},
		{"GET", "/customers/1/orders", 404, ""},
		{"POST", "/", 404, ""},
	}
	h := newServer()
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.target, func(t *testing.T) {
			rec := call(t, h, tt.method, tt.target, "")
			entitytest.CheckResponse(t, rec, customers, tt.status)
			if got := rec.Header().Get("Allow"); got != tt.allow {
				t.Errorf("Allow %q, want %q", got, tt.allow)
			}
		})
	}
}

// openAPI is what the tests read of an OpenAPI document.
type openAPI struct {
	OpenAPI string `json:"openapi"`
	Paths   map[string]map[string]struct {
		OperationID string `json:"operationId"`
		Parameters  []struct {
			Name, In string
			Schema   struct{ Type string }
		}
		Responses map[string]json.RawMessage
	}
	Components struct {
		Schemas map[string]struct {
			Description string
			Properties  map[string]struct {
				Type  any
				Ref   string `json:"$ref"`
				AnyOf json.RawMessage
			}
		}
	}
}

// TestOpenAPI: the public document and the staff's are OpenAPI 3.1
// (the schematest module validates these golden files), every operation
// with an operationId, {id} an integer, the 404 of GET /customers/{id},
// a customer's address one object and an order's one object or null (the
// registry's SingleRefs: never msful's list of them), a description on
// every component, loyalty_points only in the staff's; the answers vary
// by X-Role.
func TestOpenAPI(t *testing.T) {
	h := newServer()
	for _, tt := range []struct{ role, golden string }{{"", "openapi.json"}, {"admin", "openapi-admin.json"}} {
		t.Run(tt.golden, func(t *testing.T) {
			rec := call(t, h, "GET", "/openapi.json", "", "X-Role", tt.role)
			if rec.Code != 200 || !strings.Contains(rec.Header().Get("Vary"), "X-Role") {
				t.Fatalf("%d, Vary %q: want 200, Vary X-Role", rec.Code, rec.Header().Get("Vary"))
			}
			entitytest.Golden(t, tt.golden, rec.Body.Bytes())
			var doc openAPI
			if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if doc.OpenAPI != "3.1.0" {
				t.Errorf("openapi %q", doc.OpenAPI)
			}
			ops := 0
			for path, byMethod := range doc.Paths {
				for method, op := range byMethod {
					ops++
					if op.OperationID == "" {
						t.Errorf("%s %s has no operationId", method, path)
					}
					for _, p := range op.Parameters {
						if p.In == "path" && p.Schema.Type != "integer" {
							t.Errorf("%s %s: {%s} is a %q", method, path, p.Name, p.Schema.Type)
						}
					}
				}
			}
			if ops != 7 {
				t.Errorf("%d operations, want 7", ops)
			}
			if _, ok := doc.Paths["/customers/{id}"]["get"].Responses["404"]; !ok {
				t.Error("GET /customers/{id} documents no 404")
			}
			for name, s := range doc.Components.Schemas {
				if s.Description == "" {
					t.Errorf("component %s has no description", name)
				}
			}
			addr := doc.Components.Schemas["customer"].Properties["address"]
			if addr.Ref != "#/components/schemas/address" || addr.AnyOf != nil {
				t.Errorf("customer's address: $ref %q, anyOf %s; want an address", addr.Ref, addr.AnyOf)
			}
			ship := doc.Components.Schemas["order"].Properties["ship"]
			if want := `[{"$ref":"#/components/schemas/address"},{"type":"null"}]`; compactJSON(ship.AnyOf) != want {
				t.Errorf("order's ship: anyOf %s, want %s", ship.AnyOf, want)
			}
			_, has := doc.Components.Schemas["customer"].Properties["loyalty_points"]
			if has != (tt.role == "admin") || strings.Contains(rec.Body.String(), `"loyalty_points"`) != (tt.role == "admin") {
				t.Errorf("loyalty_points in the document for role %q: %v", tt.role, has)
			}
		})
	}
}

// TestDocs: /docs is one HTML page naming every operation's path, for
// each audience, and varies by X-Role.
func TestDocs(t *testing.T) {
	h := newServer()
	for _, role := range []string{"", "admin"} {
		rec := call(t, h, "GET", "/docs", "", "X-Role", role)
		if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Fatalf("GET /docs: %d %s", rec.Code, rec.Header().Get("Content-Type"))
		}
		if !strings.Contains(rec.Header().Get("Vary"), "X-Role") {
			t.Errorf("Vary %q, want X-Role", rec.Header().Get("Vary"))
		}
		page := rec.Body.String()
		for _, path := range []string{"/customers", "/customers/{id}", "/orders", "/orders/{id}"} {
			if !strings.Contains(page, path) {
				t.Errorf("the page has no %s", path)
			}
		}
		if strings.Contains(page, "loyalty_points") != (role == "admin") {
			t.Errorf("loyalty_points on the page for role %q: %v", role, role != "admin")
		}
		if strings.Contains(page, "http://") || strings.Contains(page, "https://") {
			t.Errorf("the page names another host")
		}
	}
}

// compactJSON returns JSON text without its white space.
func compactJSON(b []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return string(b)
	}
	return buf.String()
}
