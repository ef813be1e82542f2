package entity_test

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestPatchReadsCurrentInTheCallsVersion: Patch judges "the merged value
// as the entity judges a request", in the call's version: where two
// fields share a key by version range, the current value is read with the
// field of the call's range, so that a key the patch leaves out "keeps
// its value" as that range reads it, not as the latest range would.
func TestPatchReadsCurrentInTheCallsVersion(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "p",
		"n", "string", "",
		"k", "string", "until 'v2'",
		"k", "number", "since 'v3'",
	)
	tests := []struct {
		name    string
		current map[string]any
		version string
		want    string
	}{
		{"v1 keeps a numeric string", map[string]any{"k": "1"}, "v1", `{"n":"x","k":"1"}`},
		{"v1 keeps a string", map[string]any{"k": "abc"}, "v1", `{"n":"x","k":"abc"}`},
		{"v3 keeps a number", map[string]any{"k": 7}, "v3", `{"n":"x","k":7}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(`{"n":"x"}`), tt.current, entity.Version(tt.version))
			if err != nil {
				t.Fatalf("Patch(%v) in %s: %v", tt.current, tt.version, err)
			}
			if got := o.String(); got != tt.want {
				t.Errorf("Patch(%v) in %s = %s, want %s", tt.current, tt.version, got, tt.want)
			}
		})
	}
}
