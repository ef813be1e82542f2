package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/openapi.json")

// TestOpenAPIServed: GET /openapi.json serves the document, which is
// testdata/openapi.json (go test -run OpenAPIServed -update rewrites it;
// the schematest module parses that file with libopenapi), and which
// describes every API route.
func TestOpenAPIServed(t *testing.T) {
	rec := get(newMux(), "/openapi.json")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("GET /openapi.json: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	got := rec.Body.Bytes()
	const path = "testdata/openapi.json"
	if *update {
		if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(append(got, '\n'), want) {
		t.Errorf("GET /openapi.json differs from %s (run with -update to rewrite it)", path)
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
	for _, rt := range apiRoutes {
		t.Run(rt.Method+" "+rt.Path, func(t *testing.T) {
			if _, ok := doc.Paths[rt.Path][map[string]string{"GET": "get", "POST": "post"}[rt.Method]]; !ok {
				t.Errorf("the document has no operation %s %s", rt.Method, rt.Path)
			}
		})
	}
}
