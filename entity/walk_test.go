package entity_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// depthCheck is a number rule whose every check fails with an error
// wrapping ErrDepth, as a rule that walks a value of its own and meets the
// limit reports it.
type depthCheck struct{}

func (depthCheck) Check(rules.Value) error { return fmt.Errorf("deep: %w", entity.ErrDepth) }
func (depthCheck) CheckInt(int64) error    { return fmt.Errorf("deep: %w", entity.ErrDepth) }

// TestDepthFailureEndsTheWalk: a field's failure that wraps ErrDepth ends
// the walk there (as the depth limit does), whatever Go type the map holds
// for a number field: an int or an int64 as a numeric string or raw JSON,
// with no field after it read or judged.
func TestDepthFailureEndsTheWalk(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.RegisterRule(rules.Def{Name: "deep", Types: rules.Kinds(rules.Int), NoPanic: true,
		Compile: func([]string, rules.Kind) (rules.Checker, error) { return depthCheck{}, nil }}); err != nil {
		t.Fatal(err)
	}
	flat := []string{"n", "number", "deep", "after", "string", "req"}
	grouped := []string{"g", "{", "", "n", "number", "deep", "m", "number", "deep", "g", "}", "", "after", "string", "req"}
	for _, tt := range []struct {
		name string
		decl []string
		in   any
	}{
		{"an int in a map", flat, map[string]any{"n": 1}},
		{"an int64 in a map", flat, map[string]any{"n": int64(1)}},
		{"an int in a map of a list", flat, []any{map[string]any{"n": 1}}},
		{"an int in a map, in a group", grouped, map[string]any{"n": 1, "m": 2}},
		{"a numeric string in a map", flat, map[string]any{"n": "1"}},
		{"raw JSON", flat, []byte(`{"n":1}`)},
		{"an int field of a struct", flat, struct {
			N int `json:"n"`
		}{1}},
		{"an int64 field of a struct, in a group", grouped, struct {
			N int64 `json:"n"`
			M int   `json:"m"`
		}{1, 2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := expose(t, reg, "one", tt.decl...)
			_, err := e.MakeJSON(tt.in)
			var ve *entity.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("MakeJSON: %v, want a *ValidationError", err)
			}
			if len(ve.Fields) != 1 || ve.Fields[0].Code != "depth" {
				t.Errorf("errors %v, want the one depth failure of n: the walk ends there, judging nothing after it", err)
			}
		})
	}
}
