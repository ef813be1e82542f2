package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/openapi*.json")

// TestOpenAPIServed: GET /openapi.json serves the public document, which
// is testdata/openapi.json, and with X-Role: admin the admin's,
// testdata/openapi-admin.json (go test -run OpenAPIServed -update rewrites
// them; the schematest module validates them), each describing every API
// route; only the admin's lists the admin-only score, and the answer says
// it varies with X-Role.
func TestOpenAPIServed(t *testing.T) {
	for _, tt := range []struct {
		name, role, path string
		score            bool
	}{
		{"public", "", "testdata/openapi.json", false},
		{"admin", "admin", "testdata/openapi-admin.json", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/openapi.json", nil)
			if tt.role != "" {
				req.Header.Set("X-Role", tt.role)
			}
			rec := httptest.NewRecorder()
			newMux().ServeHTTP(rec, req)
			if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" || rec.Header().Get("Vary") != "X-Role" {
				t.Fatalf("GET /openapi.json: %d %q, Vary %q", rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Vary"))
			}
			got := rec.Body.Bytes()
			if *update {
				if err := os.WriteFile(tt.path, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(append(got, '\n'), want) {
				t.Errorf("GET /openapi.json differs from %s (run with -update to rewrite it)", tt.path)
			}
			if has := bytes.Contains(got, []byte(`"score"`)); has != tt.score {
				t.Errorf("the document lists score: %v, want %v", has, tt.score)
			}
			var doc struct {
				OpenAPI string                    `json:"openapi"`
				Paths   map[string]map[string]any `json:"paths"`
			}
			if err := json.Unmarshal(got, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.OpenAPI != "3.1.0" {
				t.Errorf("openapi = %q", doc.OpenAPI)
			}
			for _, rt := range apiRoutes() {
				if _, ok := doc.Paths[rt.Path][map[string]string{http.MethodGet: "get", http.MethodPost: "post"}[rt.Method]]; !ok {
					t.Errorf("the document has no operation %s %s", rt.Method, rt.Path)
				}
			}
		})
	}
}
