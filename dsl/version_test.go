package dsl_test

import (
	"testing"

	"github.com/expose-go/expose/dsl"
)

// TestParseVersion: the version grammar, its canonical text and its
// order.
func TestParseVersion(t *testing.T) {
	tests := []struct {
		name, in, want string // want "" for no version
	}{
		{"major", "v2", "v2"},
		{"upper-case V", "V2", "v2"},
		{"no v", "2", "v2"},
		{"trailing zeros", "v2.0.0", "v2"},
		{"leading zeros", "v02.010", "v2.10"},
		{"four parts", "1.2.3.4", "v1.2.3.4"},
		{"zero", "v0", "v0"},
		{"nine digits", "v123456789", "v123456789"},
		{"empty", "", ""},
		{"v alone", "v", ""},
		{"five parts", "1.2.3.4.5", ""},
		{"ten digits", "v1234567890", ""},
		{"empty part", "v2..1", ""},
		{"trailing dot", "v2.", ""},
		{"sign", "v-1", ""},
		{"letters", "v2a", ""},
		{"space", " v2", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := dsl.ParseVersion(tt.in)
			switch {
			case tt.want == "" && (ok || v.IsSet()):
				t.Errorf("ParseVersion(%q) = %v, want no version", tt.in, v)
			case tt.want != "" && (!ok || v.String() != tt.want):
				t.Errorf("ParseVersion(%q) = %v %v, want %s", tt.in, v, ok, tt.want)
			}
		})
	}
}

// TestVersionCompare: numbers compare numerically, missing ones are 0.
func TestVersionCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"v2.10", "v2.9", 1},
		{"v2", "v2.0", 0},
		{"v1.9.9", "v2", -1},
		{"v3", "v3.0.0.1", -1},
	}
	for _, tt := range tests {
		a, _ := dsl.ParseVersion(tt.a)
		b, _ := dsl.ParseVersion(tt.b)
		if got := a.Compare(b); got != tt.want {
			t.Errorf("%s vs %s: %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
