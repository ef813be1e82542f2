package entity_test

import (
	"fmt"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestAllocs checks the spec's "allocates nothing per field on success":
// AppendJSON into a buffer with room allocates nothing, and Make allocates
// per object, not per field.
func TestAllocs(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	reg := entity.NewRegistry()
	exposeSeed(t, reg)
	users := reg.Lookup("users")
	in := seedUsers()
	buf := make([]byte, 0, 1024)
	if n := testing.AllocsPerRun(100, func() {
		var err error
		if buf, err = users.AppendJSON(buf[:0], in); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("AppendJSON of the seed into a roomy buffer: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := users.MakeJSON(in); err != nil {
			t.Fatal(err)
		}
	}); n > 1 {
		t.Errorf("MakeJSON of the seed: %v allocations, want at most 1 (the result)", n)
	}

	// Make: the same number of allocations for 1 field as for 30, of every
	// scalar type.
	allocs := func(fields int) float64 {
		var decl []string
		row := map[string]any{}
		for i := range fields {
			k := fmt.Sprint("f", i)
			typ := []string{"string", "number", "float", "bool", "date"}[i%5]
			decl = append(decl, k, typ, "")
			row[k] = []any{"text", 42, 1.5, true, "2020-01-02"}[i%5]
		}
		e := expose(t, entity.NewRegistry(), "wide", decl...)
		return testing.AllocsPerRun(100, func() {
			if _, err := e.Make(row); err != nil {
				t.Fatal(err)
			}
		})
	}
	if one, many := allocs(1), allocs(30); many > one {
		t.Errorf("Make allocates per field: %v allocations for 1 field, %v for 30", one, many)
	}
}
