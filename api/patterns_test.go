package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/expose-go/expose/api"
	"github.com/expose-go/expose/entity/schema"
)

// registerAll registers each pattern with a handler answering 299, and
// reports whether Handle panicked.
func registerAll(t *testing.T, patterns []string) (*http.ServeMux, *api.API, any) {
	t.Helper()
	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "t", Version: "1"}})
	var refused any
	func() {
		defer func() { refused = recover() }()
		for _, p := range patterns {
			a.HandleFunc(p, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(299) }, api.Operation{})
		}
	}()
	return mux, a, refused
}

// TestDocumentedOperationsReachTheirHandlers: the package's promise is that
// "the document cannot drift from the handlers". When Handle accepts a
// pattern, each operation the document lists must be one the router
// serves: a request of the documented method to the documented path
// reaches the handler. "get /i" is accepted (http.ServeMux takes any token
// as a method, case-sensitively), documented as paths./i.get — an
// OpenAPI "get" is the HTTP method GET — yet GET /i answers 405 with
// "Allow: POST, get".
func TestDocumentedOperationsReachTheirHandlers(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
		method   string // the HTTP method of the documented operation
		path     string
	}{
		{name: "lowercase get", patterns: []string{"get /i", "POST /i"}, method: "GET", path: "/i"},
		{name: "mixed case delete", patterns: []string{"Delete /d"}, method: "DELETE", path: "/d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mux, a, refused := registerAll(t, tt.patterns)
			if refused != nil {
				return // refusing the pattern at start-up is a fine answer
			}
			doc, err := a.OpenAPI(api.Audience{})
			if err != nil {
				t.Fatalf("OpenAPI: %v", err)
			}
			var d struct {
				Paths map[string]map[string]json.RawMessage `json:"paths"`
			}
			if err := json.Unmarshal(doc, &d); err != nil {
				t.Fatal(err)
			}
			if _, ok := d.Paths[tt.path][strings.ToLower(tt.method)]; !ok {
				return // not documented as that method: no drift
			}
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, nil))
			if rec.Code != 299 {
				t.Errorf("the document lists %s %s (patterns %q), but %s %s answers %d, Allow %q",
					tt.method, tt.path, tt.patterns, tt.method, tt.path, rec.Code, rec.Header()["Allow"])
			}
		})
	}
}

// TestDocumentPathsAreDistinctTemplates: OpenAPI 3.1, Paths Object:
// "Templated paths with the same hierarchy but different templated names
// MUST NOT exist as they are identical." http.ServeMux takes "GET
// /x/{a}" and "POST /x/{b}"; the API's document must still be a valid
// OpenAPI 3.1 document (one path item, or Handle refuses the second).
func TestDocumentPathsAreDistinctTemplates(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
	}{
		{name: "two methods, two wildcard names", patterns: []string{"GET /x/{a}", "POST /x/{b}"}},
		{name: "nested", patterns: []string{"GET /y/{a}/z", "DELETE /y/{b}/z"}},
	}
	wildcard := regexp.MustCompile(`\{[^}]*\}`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, a, refused := registerAll(t, tt.patterns)
			if refused != nil {
				return
			}
			doc, err := a.OpenAPI(api.Audience{})
			if err != nil {
				t.Fatalf("OpenAPI: %v", err)
			}
			var d struct {
				Paths map[string]json.RawMessage `json:"paths"`
			}
			if err := json.Unmarshal(doc, &d); err != nil {
				t.Fatal(err)
			}
			seen := map[string][]string{}
			for p := range d.Paths {
				k := wildcard.ReplaceAllString(p, "{}")
				seen[k] = append(seen[k], p)
			}
			for _, ps := range seen {
				if len(ps) > 1 {
					sort.Strings(ps)
					t.Errorf("the document has identical templated paths %q (OpenAPI 3.1 forbids them)", ps)
				}
			}
		})
	}
}

// TestAcceptedRoutesKeepTheDocumentServable: Handle refuses at start-up
// what would break the document (a second operation of one ID, an entity
// path field without a wildcard: "as http.ServeMux.Handle does", and a
// refused route leaves the document as it was). "GET /a/{$}" and "GET
// /a/" are two patterns the router takes, but both are documented as GET
// /a/, and from then on every /openapi.json and /docs answers 500
// ("two routes for GET /a/"): the whole API loses its documents at run
// time for a route Handle accepted.
func TestAcceptedRoutesKeepTheDocumentServable(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
	}{
		{name: "exact and subtree of one path", patterns: []string{"GET /a/{$}", "GET /a/"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mux, _, refused := registerAll(t, tt.patterns)
			if refused != nil {
				return
			}
			for _, u := range []string{"/openapi.json", "/docs"} {
				rec := httptest.NewRecorder()
				mux.ServeHTTP(rec, httptest.NewRequest("GET", u, nil))
				if rec.Code != http.StatusOK {
					t.Errorf("Handle accepted %q, but GET %s answers %d %s", tt.patterns, u, rec.Code, rec.Body)
				}
			}
		})
	}
}
