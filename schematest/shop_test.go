package schematest

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity/schema"
)

// TestShopOpenAPI: the documents the shop example serves (its golden
// files, kept by its own test), the public one and the staff's, are
// valid OpenAPI 3.1 for both validators, every component compiles in
// ajv, and the problem bodies the example keeps as golden files are
// valid against the document's Problem schema; only the staff's lists
// loyalty_points.
func TestShopOpenAPI(t *testing.T) {
	const dir = "../examples/shop/testdata/"
	docs := map[string][]byte{}
	for _, name := range []string{"openapi.json", "openapi-admin.json"} {
		b, err := os.ReadFile(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		docs[name] = b
		if has := strings.Contains(string(b), `"loyalty_points"`); has != (name == "openapi-admin.json") {
			t.Errorf("%s lists the admin-only loyalty_points: %v", name, has)
		}
	}
	checkOpenAPI(t, docs)

	var d struct {
		Components struct {
			Schemas json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(docs["openapi.json"], &d); err != nil {
		t.Fatal(err)
	}
	defs := strings.ReplaceAll(string(d.Components.Schemas), `"#/components/schemas/`, `"#/$defs/`)
	var b ajvBatch
	b.schema("problem", []byte(`{"$schema":"`+schema.Dialect+`","$defs":`+defs+`,"$ref":"#/$defs/`+schema.ProblemName+`"}`))
	for _, name := range []string{"customer-ja.json", "order-ja.json"} {
		body, err := os.ReadFile(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		b.check("problem", body, true, name)
	}
	if n := b.run(t, 10); n != 2 {
		t.Errorf("%d problem bodies checked, want 2", n)
	}
}
