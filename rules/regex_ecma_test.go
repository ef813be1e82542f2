package rules

import (
	"regexp"
	"strings"
	"testing"
)

func TestECMAPattern(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		want    string
		nested  bool
		why     string
	}{
		{"plain", "^[A-Z]{3}-[0-9]{4}$", "^[A-Z]{3}-[0-9]{4}$", false, ""},
		{"classes spelled out", `^(?:yes|no)\d+\w*\b$`, `^(?:yes|no)[0-9]+[0-9A-Z_a-z]*\b$`, false, ""},
		{"open repetition", "^a{2,}$", "^a{2,}$", false, ""},
		{"dot", "^a.b$", `^a[^\n]b$`, false, ""},
		{"dot in a class is a dot", "^[.]$", `^\.$`, false, ""},
		{"white space", `^\s+\S$`, `^[\t\n\f\r ]+[^\t\n\f\r ]$`, false, ""},
		{"white space in a class", `^[\sa]$`, `^[\t\n\f\r a]$`, false, ""},
		{"not white space in a class", `[\S]`, `[^\t\n\f\r ]`, false, ""},
		{"escaped punctuation", `^\#\-\@$`, `^#-@$`, false, ""},
		{"escaped hyphen in a class", `^[a\-z]$`, `^[\-az]$`, false, ""},
		{"syntax characters stay escaped", `^\.\*\+\?\(\)\[\]\{\}\|\\\/\^\$`, `^\.\*\+\?\(\)\[\]\{\}\|\\\/\^\$`, false, ""},
		{"literal brace", "a{,3}", `a\{,3\}`, false, ""},
		{"lone bracket", "a]b", `a\]b`, false, ""},
		{"class starting with ]", "[]a]", `[\]a]`, false, ""},
		{"negated class starting with ]", "[^]a]", `[^\]a]`, false, ""},
		{"hex escapes", `^\x41\x{42}$`, `^AB$`, false, ""},
		{"bell and controls", "\\a\x01\u0085", `\x07\x01\x85`, false, ""},
		{"octal", `\01`, `\x01`, false, ""},
		{"negated class", "^[^A-Z0-9]+$", "^[^0-9A-Z]+$", false, ""},
		{"case folding", "(?i)abk", "[Aa][Bb][Kk\u212a]", false, ""},
		{"dot of (?s)", "(?s).", `[\s\S]`, false, ""},
		{"named group", "(?P<x>a)", "(?:a)", false, ""},
		{"text anchors", `\Aa\z`, "^a$", false, ""},
		{"quoted", `\Qa.b\E`, `a\.b`, false, ""},
		{"posix class", "[[:alpha:]]", "[A-Za-z]", false, ""},
		{"empty alternative", "a|b|", "[ab]|(?:)", false, ""},
		{"lazy", "x*?y", "x*?y", false, ""},
		{"beyond the BMP", `\x{1F600}`, "\U0001F600", false, ""},
		{"nested repetition", "^(a+)+$", "^(?:a+)+$", true, ""},
		{"nested star", `^(\w+\s?)*$`, `^(?:[0-9A-Z_a-z]+[\t\n\f\r ]?)*$`, true, ""},
		{"fixed count inside a repetition", "^(ab{2})+$", "^(?:ab{2})+$", false, ""},
		{"line anchors", "(?m)^a$", "", false, "its line anchors ((?m) ^ or $) have no ECMA-262 form without a flag"},
		{"not RE2", "a(", "", false, "it is not RE2 syntax"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, nested, why := ecmaPattern(tt.pattern)
			if got != tt.want || nested != tt.nested || why != tt.why {
				t.Errorf("ecmaPattern(%q) = %q, %v, %q; want %q, %v, %q", tt.pattern, got, nested, why, tt.want, tt.nested, tt.why)
			}
		})
	}
}

// TestECMAPatternClassEscapeBeforeHyphen: in RE2, a hyphen after a class
// escape inside a class is a literal ([\s-z] is white space, "-" and "z"),
// so the pattern written for ECMA-262 holds no range from the escape's last
// rune.
func TestECMAPatternClassEscapeBeforeHyphen(t *testing.T) {
	for _, tt := range []struct{ pattern, want string }{
		{`[\s-z]`, `[\t\n\f\r \-z]`},
		{`[a\s-z]`, `[\t\n\f\r \-az]`},
	} {
		got, _, why := ecmaPattern(tt.pattern)
		if got != tt.want || why != "" {
			t.Errorf("ecmaPattern(%q) = %q, %q; want %q", tt.pattern, got, why, tt.want)
		}
		re := regexp.MustCompile("^(?:" + got + ")$")
		for _, s := range []string{" ", "\t", "-", "z"} {
			if !re.MatchString(s) {
				t.Errorf("%q does not match %q", got, s)
			}
		}
		for _, s := range []string{"!", "m", "y", "\v"} { // between space and z, or not RE2's white space
			if re.MatchString(s) {
				t.Errorf("%q matches %q", got, s)
			}
		}
	}
}

// TestECMAPatternRE2OnlyClasses: classes that RE2 reads and ECMA-262 with
// the u flag refuses (a range from a class escape: [\w-.], [\d-z]) are
// written as the runes RE2 means, with no escape next to a hyphen.
func TestECMAPatternRE2OnlyClasses(t *testing.T) {
	for _, tt := range []struct{ pattern, want string }{
		{`^[\w-.]+$`, `^[\-.0-9A-Z_a-z]+$`},
		{`^[\d-z]+$`, `^[\-0-9z]+$`},
	} {
		got, _, why := ecmaPattern(tt.pattern)
		if got != tt.want || why != "" {
			t.Errorf("ecmaPattern(%q) = %q, %q; want %q", tt.pattern, got, why, tt.want)
		}
	}
}

// TestECMAPatternLength: a pattern whose classes spell out to more than
// maxECMALen bytes is refused, saying why.
func TestECMAPatternLength(t *testing.T) {
	p, _, why := ecmaPattern(`\pL\pN\pP\pS\pM`)
	if p != "" || !strings.Contains(why, "longer than") {
		t.Errorf("ecmaPattern = %d bytes, %q; want none, too long", len(p), why)
	}
}

func TestRegexSchemaComment(t *testing.T) {
	tests := []struct {
		name, pattern string
		hasPattern    bool
	}{
		{"no ECMA-262 form", "(?m)^abc$", false},
		{"nested repetition", "^(a+)+$", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := regexSchema([]string{tt.pattern}, String)
			if _, ok := got["pattern"]; ok != tt.hasPattern {
				t.Errorf("regexSchema(%q) = %v: pattern there %v, want %v", tt.pattern, got, ok, tt.hasPattern)
			}
			c, _ := got["$comment"].(string)
			if c == "" {
				t.Errorf("regexSchema(%q) = %v, want a $comment", tt.pattern, got)
			}
			if strings.Contains(c, tt.pattern) || strings.Contains(c, "abc") {
				t.Errorf("the $comment %q quotes the pattern", c)
			}
		})
	}
}

// FuzzECMAPattern: a pattern that ecmaPattern writes again matches, read as
// RE2 too, exactly the strings the original matches (the writing changes
// the syntax, never the meaning), and compiles. (The schematest module
// checks the same patterns in ECMA-262, with node.)
func FuzzECMAPattern(f *testing.F) {
	for _, s := range []string{"^a.b$", `\s+`, `[\sa]`, `\#{`, "a{,3}", "^[^]]$", `x{2}`, `\x41.`, `[\s-z]`, `[\w-.]`, "(?i)k", `[^\d]`} {
		f.Add(s, "a\nb \r\u2028#{,3}x-zK\u212a")
	}
	f.Fuzz(func(t *testing.T, pattern, input string) {
		want, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		p, _, why := ecmaPattern(pattern)
		if why != "" {
			return
		}
		got, err := regexp.Compile(p)
		if err != nil {
			t.Fatalf("ecmaPattern(%q) = %q, which does not compile: %v", pattern, p, err)
		}
		for _, s := range []string{input, "", pattern, p} {
			if got.MatchString(s) != want.MatchString(s) {
				t.Fatalf("ecmaPattern(%q) = %q: they disagree on %q", pattern, p, s)
			}
		}
	})
}
