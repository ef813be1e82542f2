package schematest

import (
	"os"
	"testing"

	"github.com/pb33f/libopenapi"
)

// TestSeedServerOpenAPI: libopenapi reads the example server's document
// (the bytes GET /openapi.json serves, kept as the example's golden file
// by its own test) as OpenAPI 3.1, with no error, every reference
// resolved.
func TestSeedServerOpenAPI(t *testing.T) {
	b, err := os.ReadFile("../examples/seedserver/testdata/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := libopenapi.NewDocument(b)
	if err != nil {
		t.Fatal(err)
	}
	if v := doc.GetVersion(); v != "3.1.0" {
		t.Errorf("version %q", v)
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		t.Fatalf("BuildV3Model: %v", err)
	}
	if errs := model.Index.GetReferenceIndexErrors(); len(errs) > 0 {
		t.Errorf("reference errors: %v", errs)
	}
	if errs := model.Index.GetResolver().GetResolvingErrors(); len(errs) > 0 {
		t.Errorf("resolving errors: %v", errs)
	}
	paths := model.Model.Paths.PathItems
	for _, p := range []string{"/api/test", "/api/users", "/api/db/users"} {
		item, ok := paths.Get(p)
		if !ok {
			t.Errorf("no path %s", p)
			continue
		}
		for _, op := range item.GetOperations().FromOldest() {
			if op.Responses == nil || op.Responses.Codes.GetOrZero("500") == nil {
				t.Errorf("%s: an operation without its 500 problem response", p)
			}
		}
	}
	if s, ok := model.Model.Components.Schemas.Get("newuser.input"); !ok || s.Schema() == nil {
		t.Errorf("no schema newuser.input")
	}
}
