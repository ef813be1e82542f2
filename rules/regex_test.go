package rules

import (
	"regexp"
	"runtime"
	"strings"
	"testing"
)

func TestRegex(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		checks  []checkTest
	}{
		{"anchored", "^[a-z]+$", []checkTest{
			{"lower case", StringValue("abc"), ""},
			{"upper case", StringValue("ABC"), "must match /^[a-z]+$/"},
			{"partly lower case", StringValue("abC"), "must match /^[a-z]+$/"},
			{"empty", StringValue(""), "must match /^[a-z]+$/"},
			{"number", IntValue(1), "must be a string"},
		}},
		{"unanchored", "[0-9]", []checkTest{
			{"digit inside", StringValue("a1b"), ""},
			{"no digit", StringValue("abc"), "must match /[0-9]/"},
		}},
		{"empty pattern matches everything", "", []checkTest{
			{"empty", StringValue(""), ""},
			{"text", StringValue("anything"), ""},
		}},
		{"flags", "(?i)^yes$", []checkTest{
			{"upper case", StringValue("YES"), ""},
			{"other", StringValue("no"), "must match /(?i)^yes$/"},
		}},
		{"Unicode classes", `^\p{Greek}+$`, []checkTest{
			{"Greek", StringValue("αβγ"), ""},
			{"Latin", StringValue("abc"), `must match /^\p{Greek}+$/`},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runChecks(t, mustCompile(t, "regex", String, tt.pattern), tt.checks)
		})
	}
}

func TestRegexCompileErrors(t *testing.T) {
	runCompileErrors(t, []compileTest{
		{"unclosed group", "regex", []string{"(a"}, "regex: error parsing regexp: missing closing ): `(a`"},
		{"nested repetition", "regex", []string{"a**"}, "regex: error parsing regexp: invalid nested repetition operator: `**`"},
		{"lookbehind", "regex", []string{"(?<=a)b"}, "regex: error parsing regexp: invalid named capture: `(?<=a)b`"},
		{"backreference", "regex", []string{`(a)\1`}, "regex: error parsing regexp: invalid escape sequence: `\\1`"},
		{"too long", "regex", []string{strings.Repeat("a", 1025)}, "regex: pattern is 1025 bytes long, more than the limit of 1024"},
		{"no argument", "regex", nil, "regex: takes 1 argument, got 0"},
		{"two arguments", "regex", []string{"a", "b"}, "regex: takes 1 argument, got 2"},
	})
}

func TestRegexLongestPattern(t *testing.T) {
	p := strings.Repeat("a", 1024)
	c := mustCompile(t, "regex", String, p)
	if err := c.Check(StringValue(p)); err != nil {
		t.Errorf("Check = %v, want nil", err)
	}
}

func TestRegexAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("regexp's matchers come from a sync.Pool, which the race detector makes drop entries")
	}
	tests := []struct {
		name    string
		pattern string
		v       Value
	}{
		{"passes", "^[a-z0-9._%+-]+@[a-z0-9.-]+$", StringValue("ann.lee@example.com")},
		{"fails", "^[a-z0-9._%+-]+@[a-z0-9.-]+$", StringValue("ann lee at example.com")},
		{"unanchored passes", "[0-9]{3}", StringValue("abc 123 def")},
		{"unanchored fails", "[0-9]{3}", StringValue("abc 12 def")},
		{"not a string", "x", IntValue(1)},
		{"simple passes", "^[A-Z0-9-]{3,20}$", StringValue("SKU-100037")},
		{"simple fails", "^[A-Z0-9-]{3,20}$", StringValue("sku-100037")},
		{"simple, wide runes", `^\pL{1,10}$`, StringValue("日本語")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCompile(t, "regex", Any, tt.pattern)
			if n := testing.AllocsPerRun(100, func() { _ = c.Check(tt.v) }); n != 0 {
				t.Errorf("%g allocations, want 0", n)
			}
		})
	}
}

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
