package rules

import (
	"regexp"
	"testing"
)

func TestECMAPattern(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		want    string
		ok      bool
	}{
		{"plain", "^[A-Z]{3}-[0-9]{4}$", "^[A-Z]{3}-[0-9]{4}$", true},
		{"classes and groups", `^(?:yes|no)\d+\w*\b$`, `^(?:yes|no)\d+\w*\b$`, true},
		{"open repetition", "^a{2,}$", "^a{2,}$", true},
		{"dot", "^a.b$", `^a[^\n]b$`, true},
		{"dot in a class is a dot", "^[.]$", "^[.]$", true},
		{"white space", `^\s+\S$`, `^[\t\n\f\r ]+[^\t\n\f\r ]$`, true},
		{"white space in a class", `^[\sa]$`, `^[\t\n\f\r a]$`, true},
		{"escaped punctuation", `^\#\-\@$`, `^#-@$`, true},
		{"escaped hyphen in a class", `^[a\-z]$`, `^[a\-z]$`, true},
		{"syntax characters stay escaped", `^\.\*\+\?\(\)\[\]\{\}\|\\\/\^\$`, `^\.\*\+\?\(\)\[\]\{\}\|\\\/\^\$`, true},
		{"literal brace", "a{,3}", `a\{,3\}`, true},
		{"hex escape", `^\x41$`, `^\x41$`, true},
		{"bell", `\a`, `\x07`, true},
		{"negated class", "^[^A-Z0-9]+$", "^[^A-Z0-9]+$", true},
		{"flags", "(?i)abc", "", false},
		{"named group", "(?P<x>a)", "", false},
		{"end of text", `a\z`, "", false},
		{"start of text", `\Aa`, "", false},
		{"unicode class", `\pL`, "", false},
		{"quoted", `\Qa.b\E`, "", false},
		{"posix class", "[[:alpha:]]", "", false},
		{"class starting with ]", "[]a]", "", false},
		{"negated class starting with ]", "[^]a]", "", false},
		{"braced hex", `\x{41}`, "", false},
		{"octal", `\01`, "", false},
		{"not white space in a class", `[\S]`, "", false},
		{"not RE2", "a(", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ECMAPattern(tt.pattern)
			if got != tt.want || ok != tt.ok {
				t.Errorf("ECMAPattern(%q) = %q, %v; want %q, %v", tt.pattern, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestRegexSchemaComment(t *testing.T) {
	got := regexSchema([]string{"(?i)^abc$"}, String)
	if _, ok := got["pattern"]; ok {
		t.Errorf("regexSchema gave a pattern for (?i): %v", got)
	}
	if c, _ := got["$comment"].(string); c == "" {
		t.Errorf("regexSchema(%q) = %v, want a $comment", "(?i)^abc$", got)
	}
}

// FuzzECMAPattern: a pattern that ECMAPattern rewrites matches, read as
// RE2 too, exactly the strings the original matches (the rewriting changes
// the syntax, never the meaning), and compiles.
func FuzzECMAPattern(f *testing.F) {
	for _, s := range []string{"^a.b$", `\s+`, `[\sa]`, `\#{`, "a{,3}", "^[^]]$", `x{2}`, `\x41.`} {
		f.Add(s, "a\nb \r\u2028#{,3}x")
	}
	f.Fuzz(func(t *testing.T, pattern, input string) {
		want, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		p, ok := ECMAPattern(pattern)
		if !ok {
			return
		}
		got, err := regexp.Compile(p)
		if err != nil {
			t.Fatalf("ECMAPattern(%q) = %q, which does not compile: %v", pattern, p, err)
		}
		for _, s := range []string{input, "", pattern, p} {
			if got.MatchString(s) != want.MatchString(s) {
				t.Fatalf("ECMAPattern(%q) = %q: they disagree on %q", pattern, p, s)
			}
		}
	})
}
