package rules

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestCompileSimple(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		simple  bool
	}{
		{"a class with a count", `^[A-Z0-9-]{3,20}$`, true},
		{"a class with a plus", `^[a-z]+$`, true},
		{"a class with a star", `^[a-z]*$`, true},
		{"an optional class", `^[a-z]?$`, true},
		{"an open count", `^[a-z]{2,}$`, true},
		{"an exact count", `^[0-9]{5}$`, true},
		{"a digit escape", `^\d+$`, true},
		{"a word escape inside a class", `^[\w.-]{1,64}$`, true},
		{"white space", `^\s*$`, true},
		{"a negated class", `^[^<>]+$`, true},
		{"a POSIX class", `^[[:alpha:]]+$`, true},
		{"a Unicode class", `^\p{Greek}+$`, true},
		{"a dot", `^.{1,50}$`, true},
		{"a dot that matches newlines", `(?s)^.{1,50}$`, true},
		{"case folding", `(?i)^[a-z]+$`, true},
		{"\\A and \\z", `\A[a-z]+\z`, true},
		{"a literal prefix", `^SKU-[0-9]+$`, true},
		{"a literal suffix", `^[a-z]+\.txt$`, true},
		{"a fixed piece before the varying one", `^[a-z][a-z0-9_]*$`, true},
		{"fixed pieces only", `^\d{4}-\d{2}-\d{2}$`, true},
		{"an optional literal", `^#?[0-9a-fA-F]{6}$`, true},
		{"a group around the whole", `^([a-z]+)$`, true},
		{"an alternation of runes", `^(a|b|c)+$`, true},
		{"a literal with case folding", `(?i)^id-[0-9]+$`, true},
		{"the empty string only", `^$`, true},
		{"two varying pieces", `^[a-z]+[0-9]+$`, false},
		{"an email-like pattern", `^[a-z0-9._%+-]+@[a-z0-9.-]+$`, false},
		{"not anchored", `[a-z]+`, false},
		{"anchored at the start only", `^[a-z]+`, false},
		{"anchored at the end only", `[a-z]+$`, false},
		{"line anchors", `(?m)^[a-z]+$`, false},
		{"a repeated group", `^(ab)+$`, false},
		{"an alternation of words", `^(yes|no)$`, false},
		{"a word boundary", `^\b[a-z]+$`, false},
		{"not RE2", `^[a-z+$`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := compileSimple(tt.pattern) != nil; got != tt.simple {
				t.Errorf("compileSimple(%q) != nil is %v, want %v", tt.pattern, got, tt.simple)
			}
		})
	}
}

// sameAsRegexp checks that the regex rule of pattern (its simple matcher,
// when it has one) gives regexp's answer on every string.
func sameAsRegexp(t *testing.T, pattern string, strs []string) {
	t.Helper()
	re := regexp.MustCompile(pattern)
	p := compileSimple(pattern)
	if p == nil {
		t.Fatalf("/%s/ is not a simple pattern", pattern)
	}
	for _, s := range strs {
		if got, want := p.match(s), re.MatchString(s); got != want {
			t.Errorf("/%s/ on %q: %v, regexp says %v", pattern, s, got, want)
		}
	}
}

func TestSimplePatternMatches(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		strs    []string
	}{
		{"the SKU pattern", `^[A-Z0-9-]{3,20}$`, []string{"", "AB", "ABC", "SKU-100037", "sku-100037", strings.Repeat("A", 20), strings.Repeat("A", 21), "AB C", "ABC\n", "\nABC", "ＡＢＣ"}},
		{"$ is the end of the text, not before a final newline", `^[a-z]+$`, []string{"abc", "abc\n", "abc\r\n", "ab\nc"}},
		{"invalid UTF-8 is U+FFFD, one byte each", `^[^a]{2}$`, []string{"\xff\xfe", "\xff", "\xc3", "\xc3\xa9", "\xe2\x82", "\xe2\x82\xac\xff", "\xed\xa0\x80"}},
		{"a literal U+FFFD matches an invalid byte", "^x\uFFFDy$", []string{"x\uFFFDy", "x\xffy", "x\xc3y", "xy", "x\xc3\xa9y"}},
		{"a class of U+FFFD and ASCII", "^[a\uFFFD]+$", []string{"a\xff", "\xf0\x9f\x98", "a\uFFFD", "ab"}},
		{"case folding reaches the Kelvin sign and the long s", `(?i)^[a-z]+$`, []string{"abc", "ABC", "\u212a", "\u017f", "é"}},
		{"a folded literal", `(?i)^k[0-9]$`, []string{"k1", "K1", "\u212a1", "x1"}},
		{"\\d is ASCII", `^\d+$`, []string{"123", "١٢٣", "１２３", ""}},
		{"\\w is ASCII", `^\w+$`, []string{"a_1", "é", "a-b"}},
		{"\\s is ASCII white space", `^\s+$`, []string{" \t\n\r\f", "\v", "\u00a0", "\u2028"}},
		{"the dot stops at a newline", `^.{1,3}$`, []string{"a", "abc", "abcd", "a\nb", "é\r", "\xff"}},
		{"(?s) lets the dot take a newline", `(?s)^.{1,3}$`, []string{"a\nb", "\n", "abcd"}},
		{"a dot's run counts runes, an invalid byte one", `^.{2,3}$`, []string{"é", "éé", "日本語", "日本語x", "\xff\xfe", "\xe2\x82", "a\n", ""}},
		{"a class of all but one byte runs as a dot does", `^[^x]{2,4}$`, []string{"ab", "axb", "日本", "\n\n", "xx", "abcde", "\xffy"}},
		{"a class of every rune", `(?s)^[\x00-\x{10FFFF}]*x$`, []string{"x", "ax", "\nx", "a"}},
		{"a fixed narrow pattern is as long as its pieces", `^[a-c]{2}-[0-9]$`, []string{"ab-1", "ab-12", "a-1", "ab\xff1", "éb-1", "AB-1"}},
		{"a literal suffix after the varying piece", `^[a-z]*\.txt$`, []string{".txt", "a.txt", "a.txt.txt", "atxt", "é.txt", "a.tx"}},
		{"a literal suffix the varying piece can take", `^[a-z.]+\.txt$`, []string{".txt", "a.txt", "..txt", "a.txt.txt", "atxt"}},
		{"fixed pieces around the varying one", `^[a-z][a-z0-9_]{0,3}[0-9]$`, []string{"a1", "ab1", "abcd1", "abcde1", "a_1", "1a1", "a"}},
		{"a date-like pattern", `^\d{4}-\d{2}-\d{2}$`, []string{"2024-01-31", "2024-1-31", "2024-01-311", "２024-01-31"}},
		{"an optional literal", `^#?[0-9a-fA-F]{6}$`, []string{"#a0b1c2", "a0b1c2", "##a0b1c2", "#a0b1c"}},
		{"a Unicode class", `^\p{Greek}{2,4}$`, []string{"αβ", "αβγδε", "ab", "αb"}},
		{"a wide class, binary searched", `^\pL+$`, []string{"abc", "日本語", "ÿ", "a1", "\U0001D400", "\U000E0001"}},
		{"the empty string only", `^$`, []string{"", "a", "\n"}},
		{"a zero count", `^a[b]{0}c$`, []string{"ac", "abc"}},
		{"a class matching nothing", `^[^\x00-\x{10FFFF}]*$`, []string{"", "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { sameAsRegexp(t, tt.pattern, tt.strs) })
	}
}

// randomPattern returns a pattern of the shapes simplePattern takes, or
// (one time in five) of shapes close to them that it does not.
func randomPattern(r *rand.Rand) string {
	sets := []string{`[A-Z0-9-]`, `[a-z]`, `[^a-z]`, `\d`, `\w`, `\s`, `\D`, `[\w.-]`, `.`, `[[:alpha:]]`, `\pL`,
		`\p{Greek}`, `[é-ü]`, `a`, `é`, `-`, `\.`, `K`, "\uFFFD", `[a\x{FFFD}]`, `(?:x|y)`, `[^\n]`}
	counts := []string{"", "", "*", "+", "?", "{2}", "{0,3}", "{1,4}", "{2,}", "{0}"}
	var b strings.Builder
	if r.IntN(4) == 0 {
		b.WriteString([]string{"(?i)", "(?s)", "(?is)"}[r.IntN(3)])
	}
	b.WriteString([]string{"^", `\A`}[r.IntN(2)])
	varying := false
	for range r.IntN(5) {
		b.WriteString(sets[r.IntN(len(sets))])
		c := counts[r.IntN(len(counts))]
		if c != "" && c != "{2}" && c != "{0}" {
			if varying && r.IntN(5) != 0 {
				c = "{2}" // at most one varying piece, mostly
			}
			varying = true
		}
		b.WriteString(c)
	}
	if r.IntN(6) == 0 {
		b.WriteString("lit")
	}
	b.WriteString([]string{"$", `\z`}[r.IntN(2)])
	return b.String()
}

// randomString returns a string of runes and bytes the random patterns'
// sets tell apart: ASCII of each kind, white space, Latin, Greek, the
// Kelvin sign and the long s, U+FFFD and invalid UTF-8.
func randomString(r *rand.Rand) string {
	parts := []string{"a", "z", "A", "K", "0", "9", "-", "_", ".", " ", "\n", "\r", "\t", "é", "ü", "α", "日",
		"\u212a", "\u017f", "\uFFFD", "\xff", "\xc3", "\xe2\x82", "\x00", "x", "y", "l", "i", "t", "\U0001F600"}
	var b strings.Builder
	for range r.IntN(12) {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	return b.String()
}

// TestSimplePatternRandom is the differential test: random patterns of the
// supported shapes and their neighbours, each on random strings and on
// strings the pattern's own sample gives, through the regex rule, against
// regexp.
func TestSimplePatternRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	patterns, simple := 3000, 0
	for range patterns {
		pattern := randomPattern(r)
		re, err := regexp.Compile(pattern)
		if err != nil {
			t.Fatalf("/%s/: %v", pattern, err)
		}
		c, err := compileRegex([]string{pattern}, String)
		if err != nil {
			t.Fatalf("/%s/: %v", pattern, err)
		}
		if c.(*regexCheck).simple != nil {
			simple++
		}
		strs := []string{""}
		if s, ok := sampleRegex(pattern); ok {
			strs = append(strs, s, s+"\n", s+s, s[:len(s)/2])
		}
		for range 40 {
			strs = append(strs, randomString(r))
		}
		for _, s := range strs {
			want := re.MatchString(s)
			if got := c.Check(StringValue(s)) == nil; got != want {
				t.Errorf("/%s/ on %q: %v, regexp says %v", pattern, s, got, want)
			}
		}
	}
	if simple < patterns/2 {
		t.Errorf("%d of %d random patterns matched without regexp, want at least half", simple, patterns)
	}
}

// TestSimplePatternJSONTestSuite runs simple patterns on the JSONTestSuite
// corpus: every file's text (valid and invalid UTF-8, escapes, controls,
// long runs) whole and line by line.
func TestSimplePatternJSONTestSuite(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "internal", "jsontape", "testdata", "jsontestsuite", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no JSONTestSuite files: %v", err)
	}
	var strs []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		strs = append(strs, string(b), strings.Trim(string(b), `[]"`), filepath.Base(f))
		strs = append(strs, strings.Split(string(b), "\n")...)
	}
	for _, pattern := range []string{`^[A-Z0-9-]{3,20}$`, `^[a-z]+$`, `^.*$`, `(?s)^.+$`, `^[^"]*$`, `^\S+$`,
		`^[\x00-\x7f]*$`, `^[^\x00-\x1f]{0,100}$`, `^\[.*\]$`, `^[0-9.eE+-]+$`, `(?i)^[a-z_]+\.json$`, "^[\uFFFD]+$", `^\pL*$`} {
		t.Run(pattern, func(t *testing.T) { sameAsRegexp(t, pattern, strs) })
	}
}

// FuzzSimplePattern checks the simple matcher against regexp on any
// pattern it takes and any string.
func FuzzSimplePattern(f *testing.F) {
	f.Add(`^[A-Z0-9-]{3,20}$`, "SKU-100037")
	f.Add(`^[a-z]+$`, "abc\n")
	f.Add(`(?i)^k+$`, "\u212a")
	f.Add(`^[a-z]*\.txt$`, "a.txt")
	f.Add("^x\uFFFDy$", "x\xffy")
	f.Add(`^.{1,3}$`, "\xe2\x82")
	f.Add(`^\d{4}-\d{2}-\d{2}$`, "2024-01-31")
	f.Add(`^[^q]{1,9}$`, "日本\xffq")
	f.Fuzz(func(t *testing.T, pattern, s string) {
		p := compileSimple(pattern)
		if p == nil {
			return
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			t.Fatalf("/%s/ is simple but regexp refuses it: %v", pattern, err)
		}
		if got, want := p.match(s), re.MatchString(s); got != want {
			t.Errorf("/%s/ on %q: %v, regexp says %v", pattern, s, got, want)
		}
	})
}
