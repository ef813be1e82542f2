package entity_test

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestPatchReadsReferencesAsARequestDoes: the merged value is judged as a
// request: a null element of a []$line is a type error at its index, and
// a list for a $name (one object) a type error at its key, as MakeRequest
// answers for the same body.
func TestPatchReadsReferencesAsARequestDoes(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "line", "sku", "string", "req", "qty", "number", "range 1 10")
	e := expose(t, reg, "order",
		"items", "[]$line", "",
		"ship", "$line", "",
	)
	current := map[string]any{"items": []any{map[string]any{"sku": "a", "qty": 1}}}
	tests := []struct{ name, patch, path string }{
		{"a null element of a []$line", `{"items":[null]}`, "items[0]"},
		{"a null element after a good one", `{"items":[{"sku":"a"},null]}`, "items[1]"},
		{"a list for a $name", `{"ship":[]}`, "ship"},
		{"a list of objects for a $name", `{"ship":[{"sku":"a"}]}`, "ship"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, reqErr := e.MakeRequest(bindRequest("POST", "/", tt.patch))
			if reqErr == nil {
				t.Fatalf("MakeRequest of %s: no error; the case expects a type error", tt.patch)
			}
			o, _, err := e.Patch(patchRequest(tt.patch), current)
			if err == nil {
				t.Fatalf("Patch of %s = %s, want a type error at %s (MakeRequest: %v)", tt.patch, o, tt.path, reqErr)
			}
			fes := fieldErrors(t, err)
			if len(fes) != 1 || fes[0].Path != tt.path || fes[0].Code != "type" {
				t.Errorf("Patch of %s: %v, want one type error at %s", tt.patch, err, tt.path)
			}
		})
	}
}
