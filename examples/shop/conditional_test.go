package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity/entitytest"
)

// TestCustomerETag: GET /customers/{id} answers a strong ETag, another per
// audience and selection, and If-None-Match of it is a 304 with no body;
// a customer's answers say Vary: X-Role, since the staff see
// loyalty_points.
func TestCustomerETag(t *testing.T) {
	h := withCustomers(t, ann)
	public := call(t, h, "GET", "/customers/1", "")
	tag := public.Header().Get("ETag")
	if public.Code != 200 || !strings.HasPrefix(tag, `"`) || public.Header().Get("Vary") != "X-Role" {
		t.Fatalf("GET: %d, ETag %q, Vary %q", public.Code, tag, public.Header().Get("Vary"))
	}
	tests := []struct {
		name    string
		target  string
		headers []string
		status  int
		sameTag bool
	}{
		{"its tag", "/customers/1", []string{"If-None-Match", tag}, 304, true},
		{"its tag, weak", "/customers/1", []string{"If-None-Match", "W/" + tag}, 304, true},
		{"another tag", "/customers/1", []string{"If-None-Match", `"x"`}, 200, true},
		{"the staff", "/customers/1", []string{"If-None-Match", tag, "X-Role", "admin"}, 200, false},
		{"a selection", "/customers/1?fields=name", []string{"If-None-Match", tag}, 200, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := call(t, h, "GET", tt.target, "", tt.headers...)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d", rec.Code, tt.status)
			}
			if got := rec.Header().Get("ETag"); (got == tag) != tt.sameTag || got == "" {
				t.Errorf("ETag %q; the public one %q", got, tag)
			}
			if tt.status == 304 && rec.Body.Len() > 0 {
				t.Errorf("a 304 with a body: %s", rec.Body)
			}
		})
	}
}

// TestPatchCustomerIfMatch: PATCH /customers/{id} with a stale If-Match
// is a 412 that changes nothing; with the current tag it changes the
// customer and answers the tag of the next GET.
func TestPatchCustomerIfMatch(t *testing.T) {
	h := withCustomers(t, ann)
	tag := call(t, h, "GET", "/customers/1", "").Header().Get("ETag")
	patch := func(ifMatch, body string) *http.Response {
		return call(t, h, "PATCH", "/customers/1", body, "Content-Type", "application/merge-patch+json", "If-Match", ifMatch).Result()
	}
	if res := patch(`"stale"`, `{"name":"Eve"}`); res.StatusCode != http.StatusPreconditionFailed {
		t.Fatalf("a stale If-Match: %d, want 412", res.StatusCode)
	}
	if got := call(t, h, "GET", "/customers/1", ""); got.Header().Get("ETag") != tag || decode(t, got.Body.Bytes())["name"] != "Ann" {
		t.Fatalf("a 412 changed the customer: %s", got.Body)
	}
	rec := call(t, h, "PATCH", "/customers/1", `{"name":"Eve"}`, "Content-Type", "application/merge-patch+json", "If-Match", tag)
	entitytest.CheckResponse(t, rec, customers, http.StatusOK)
	next := call(t, h, "GET", "/customers/1", "")
	if got := rec.Header().Get("ETag"); got == tag || got != next.Header().Get("ETag") {
		t.Errorf("the PATCH's ETag %q: the old one %q, the next GET's %q", got, tag, next.Header().Get("ETag"))
	}
	if res := patch(tag, `{"name":"Zed"}`); res.StatusCode != http.StatusPreconditionFailed {
		t.Errorf("the tag before the change: %d, want 412", res.StatusCode)
	}
}

// TestExportCustomers: GET /customers/export streams every customer as
// NDJSON, one a line, in the caller's audience, never a password; its
// document and its docs page say so.
func TestExportCustomers(t *testing.T) {
	h := withCustomers(t, ann, bob, cid)
	tests := []struct {
		name, role string
		staffField bool
	}{
		{"the public", "", false},
		{"the staff", "admin", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := call(t, h, "GET", "/customers/export", "", "X-Role", tt.role)
			if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/x-ndjson" {
				t.Fatalf("%d %q", rec.Code, rec.Header().Get("Content-Type"))
			}
			lines := strings.Split(strings.TrimSuffix(rec.Body.String(), "\n"), "\n")
			if len(lines) != 3 || strings.Contains(rec.Body.String(), "s3cret") {
				t.Fatalf("%d lines, want 3, no password:\n%s", len(lines), rec.Body)
			}
			for i, line := range lines {
				c := decode(t, []byte(line))
				if _, ok := c["loyalty_points"]; ok != tt.staffField || c["id"] != float64(i+1) {
					t.Errorf("line %d: %s", i, line)
				}
			}
		})
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]struct {
				Content map[string]struct {
					Schema struct {
						Ref         string `json:"$ref"`
						Description string
					}
				}
			}
		}
	}
	if err := json.Unmarshal(call(t, h, "GET", "/openapi.json", "").Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Paths["/customers/export"]["get"].Responses["200"].Content["application/x-ndjson"].Schema
	if s.Ref != "#/components/schemas/customer" || !strings.Contains(s.Description, "one JSON value per line") {
		t.Errorf("the stream's schema: %+v", s)
	}
	if page := call(t, h, "GET", "/docs", "").Body.String(); !strings.Contains(page, `a stream of <a href="#schema-customer">customer</a>`) {
		t.Error("the docs page does not say the export is a stream of customers")
	}
}
