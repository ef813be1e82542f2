package rules

import (
	"math"
	"testing"
)

// TestCheckIntMatchesCheck: every built-in IntChecker gives, for an
// integer, what Check gives for IntValue of it, at and around its bounds
// and beyond float64's exact range.
func TestCheckIntMatchesCheck(t *testing.T) {
	tests := []struct {
		rule string
		args []string
	}{
		{"min", []string{"3"}},
		{"max", []string{"150"}},
		{"range", []string{"0", "150"}},
		{"range", []string{"-5", "-5"}},
		{"min", []string{"9007199254740993"}},
		{"range", []string{"1.5", "2.5"}}, // no integer but 2 within
		{"range", []string{"0.1", "0.9"}}, // no integer within
	}
	ints := []int64{math.MinInt64, -6, -5, -4, -1, 0, 1, 2, 3, 4, 149, 150, 151, 9007199254740992, 9007199254740993, math.MaxInt64}
	for _, tt := range tests {
		c := mustCompile(t, tt.rule, Int, tt.args...)
		ic, ok := c.(IntChecker)
		if !ok {
			t.Errorf("%s %v: not an IntChecker", tt.rule, tt.args)
			continue
		}
		for _, i := range ints {
			if got, want := errText(ic.CheckInt(i)), errText(c.Check(IntValue(i))); got != want {
				t.Errorf("%s %v: CheckInt(%d) = %q, Check(IntValue(%d)) = %q", tt.rule, tt.args, i, got, i, want)
			}
		}
	}
}
