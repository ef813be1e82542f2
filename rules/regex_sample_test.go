package rules

import (
	"regexp"
	"runtime"
	"testing"
)

// TestSampleRegexBounded checks that nested repetitions, which multiply,
// stay within the sample's total budget of bytes (a 29-byte pattern once
// took 3.4 GB).
func TestSampleRegexBounded(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
	}{
		{"nested stars", `(((((((((a*)*)*)*)*)*)*)*)*)*`},
		{"nested open repeats", `(((a{2,}){3,}){4,}){5,}`},
		{"nested plus in a concat", `^x((b+)+(c+)+)+y$`},
		{"wide runes", `(((é*)*)*)*`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			s, ok := sampleRegex(tt.pattern)
			runtime.ReadMemStats(&after)
			if !ok {
				t.Fatalf("no sample of /%s/", tt.pattern)
			}
			if !regexp.MustCompile(tt.pattern).MatchString(s) {
				t.Errorf("sample %q does not match /%s/", s, tt.pattern)
			}
			if len(s) > maxSampleLen {
				t.Errorf("a sample of %d bytes, want at most %d", len(s), maxSampleLen)
			}
			if a := after.TotalAlloc - before.TotalAlloc; a > 1<<20 {
				t.Errorf("allocated %d bytes, want at most 1 MiB", a)
			}
		})
	}
}
