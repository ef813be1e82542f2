package entity_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// keeper is a custom rule that keeps every string it is given, copied with
// strings.Clone as rules.Value's doc says it must be.
type keeper struct {
	mu   sync.Mutex
	kept []string
}

func (k *keeper) Check(v rules.Value) error {
	k.mu.Lock()
	k.kept = append(k.kept, strings.Clone(v.Str))
	k.mu.Unlock()
	return nil
}

// TestRuleKeepsClonedStr checks the way to keep a string a rule is lent:
// Value.Str may view a scratch buffer reused for the next value (numbers
// written as strings) or the caller's bytes (raw JSON, []byte values),
// which the caller may reuse too; a strings.Clone'd copy stays as it was.
func TestRuleKeepsClonedStr(t *testing.T) {
	tests := []struct {
		name string
		in   func() (v any, reuse func())
	}{
		{"numbers written as strings", func() (any, func()) {
			return map[string]any{"rows": []any{
				map[string]any{"id": 111}, map[string]any{"id": 222}, map[string]any{"id": 333},
			}}, func() {}
		}},
		{"raw JSON numbers written as strings", func() (any, func()) {
			b := []byte(`{"rows":[{"id":111},{"id":222},{"id":333}]}`)
			return b, func() { copy(b, strings.Repeat("9", len(b))) }
		}},
		{"raw JSON strings, the buffer reused", func() (any, func()) {
			b := []byte(`{"rows":[{"id":"111"},{"id":"222"},{"id":"333"}]}`)
			return b, func() { copy(b, strings.Repeat("9", len(b))) }
		}},
		{"[]byte values, reused", func() (any, func()) {
			b := []byte("111222333")
			return map[string]any{"rows": []any{
				map[string]any{"id": b[0:3]}, map[string]any{"id": b[3:6]}, map[string]any{"id": b[6:9]},
			}}, func() { copy(b, "999999999") }
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := &keeper{}
			reg := entity.NewRegistry()
			if err := reg.RegisterRule(rules.Def{Name: "keep", Types: rules.Kinds(rules.String),
				Compile: func([]string, rules.Kind) (rules.Checker, error) { return k, nil }}); err != nil {
				t.Fatal(err)
			}
			expose(t, reg, "row", "id", "string", "keep")
			e := expose(t, reg, "rows", "rows", "$row", "")
			v, reuse := tt.in()
			got, err := e.MakeJSON(v)
			if err != nil || string(got) != `{"rows":[{"id":"111"},{"id":"222"},{"id":"333"}]}` {
				t.Fatalf("MakeJSON: %s, %v", got, err)
			}
			reuse()
			if got := strings.Join(k.kept, ","); got != "111,222,333" {
				t.Errorf("the rule kept %s, want 111,222,333", got)
			}
		})
	}
}
