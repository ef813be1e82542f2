package entitytest

import (
	"regexp"
	"runtime"
	"testing"
	"unicode/utf8"
)

func TestRegexSamples(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		lo, hi  int
	}{
		{"literal", `^abc$`, 0, maxSampleLen},
		{"class", `^[A-Z]{3}-[0-9]{4}$`, 0, maxSampleLen},
		{"negated class", `^[^a-zA-Z0-9]+$`, 0, maxSampleLen},
		{"alternation", `^(cat|dog)s?$`, 0, maxSampleLen},
		{"optional groups", `^[a-z0-9]+(-[a-z0-9]+)*$`, 0, maxSampleLen},
		{"unanchored", `[0-9]`, 0, maxSampleLen},
		{"empty", ``, 0, maxSampleLen},
		{"any char", `^.{5}$`, 0, maxSampleLen},
		{"case folding", `(?i)^hello$`, 0, maxSampleLen},
		{"escapes", `^\d{3}\.\d{2}\s\w+$`, 0, maxSampleLen},
		{"unicode class", `^\p{Greek}+$`, 0, maxSampleLen},
		{"word boundary", `\bgo\b`, 5, maxSampleLen},
		{"length from min", `^[a-z]+$`, 20, maxSampleLen},
		{"length within range", `^x*$`, 4, 6},
		{"bounded repeat and max", `^a{2,}$`, 0, 3},
		{"email-like", `^[a-z]+@[a-z]+\.[a-z]{2,}$`, 0, maxSampleLen},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			re := regexp.MustCompile(tt.pattern)
			got := regexSamples(tt.pattern, tt.lo, tt.hi)
			for _, s := range got {
				if n := utf8.RuneCountInString(s); re.MatchString(s) && tt.lo <= n && n <= tt.hi {
					return
				}
			}
			t.Errorf("no sample matches /%s/ with %d to %d runes: %q", tt.pattern, tt.lo, tt.hi, got)
		})
	}
}

func TestRegexSamplesNone(t *testing.T) {
	for _, p := range []string{`[`, `[^\x00-\x{10FFFF}]`} {
		for _, s := range regexSamples(p, 0, maxSampleLen) {
			if re, err := regexp.Compile(p); err == nil && re.MatchString(s) {
				t.Errorf("/%s/ matches %q", p, s)
			}
		}
	}
}

// TestRegexSamplesBounded checks that nested repetitions, which multiply,
// stay within the sample's total budget of bytes.
func TestRegexSamplesBounded(t *testing.T) {
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
			got := regexSamples(tt.pattern, 0, maxSampleLen)
			runtime.ReadMemStats(&after)
			if len(got) == 0 {
				t.Errorf("no sample of /%s/", tt.pattern)
			}
			for _, s := range got {
				if len(s) > maxRegexSample {
					t.Errorf("a sample of %d bytes, want at most %d", len(s), maxRegexSample)
				}
			}
			if a := after.TotalAlloc - before.TotalAlloc; a > 1<<20 {
				t.Errorf("allocated %d bytes, want at most 1 MiB", a)
			}
		})
	}
}
