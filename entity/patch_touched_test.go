package entity_test

import (
	"slices"
	"testing"
)

// TestPatchTouchedInPatchOrder: Patch returns "the paths of the fields
// the patch set or cleared …, in the order the patch gives them".
func TestPatchTouchedInPatchOrder(t *testing.T) {
	e := patchEntity(t)
	current := patchCurrent{ID: 1, Name: "Ann", Email: "ann@example.com", Tier: "gold", City: "Tokyo", Zip: "100"}
	tests := []struct {
		name, patch string
		want        []string
	}{
		{"two fields", `{"tier":"silver","name":"Bo"}`, []string{"tier", "name"}},
		{"a group's fields", `{"address":{"zip":"200","city":"Kyoto"}}`, []string{"address.zip", "address.city"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, touched, err := e.Patch(patchRequest(tt.patch), current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if !slices.Equal(touched, tt.want) {
				t.Errorf("touched = %q, want %q (the patch's order)", touched, tt.want)
			}
		})
	}
}
