package entity_test

import (
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestPatchOfAMergedRef: a merged $ref's keys are the object's own keys,
// in the wire form a response writes and a request reads: Patch keeps
// them when the patch leaves them out and sets them when it gives them,
// whatever the current value holds.
func TestPatchOfAMergedRef(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "cred", "login", "string", "", "password", "string", "writeonly")
	e := expose(t, reg, "user", "name", "string", "", "c", "$cred", "merge")
	tests := []struct {
		name    string
		current any
		patch   string
		want    string // the merged value's response form
	}{
		{"a patch of another key keeps it", map[string]any{"name": "n", "c": map[string]any{"login": "l"}}, `{"name":"m"}`, `{"name":"m","login":"l"}`},
		{"a patch of its key sets it", map[string]any{"name": "n", "c": map[string]any{"login": "l"}}, `{"login":"k"}`, `{"name":"n","login":"k"}`},
		{"a current value without it", map[string]any{"name": "n"}, `{"login":"k"}`, `{"name":"n","login":"k"}`},
		{"no current value", nil, `{"name":"m","login":"k"}`, `{"name":"m","login":"k"}`},
		{"its writeonly key", map[string]any{"name": "n"}, `{"password":"hunter2"}`, `{"name":"n","login":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(tt.patch), tt.current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if got := o.String(); got != tt.want {
				t.Errorf("merged = %s, want %s", got, tt.want)
			}
			if strings.Contains(o.String(), "hunter2") {
				t.Errorf("merged %s writes a writeonly value", o)
			}
		})
	}
}
