package rules

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// dateForms returns every way of writing the dates of the given years
// with months 0 to 13 and days 0 to 32, with one or two digits, with each
// pair of separators.
func dateForms(years ...string) []string {
	var out []string
	num := func(n int) []string {
		if n < 10 {
			return []string{strconv.Itoa(n), "0" + strconv.Itoa(n)}
		}
		return []string{strconv.Itoa(n)}
	}
	for _, y := range years {
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				for _, ms := range num(m) {
					for _, ds := range num(d) {
						for _, seps := range []string{"--", "//", "-/", ".."} {
							out = append(out, y+seps[:1]+ms+seps[1:]+ds)
						}
					}
				}
			}
		}
	}
	return out
}

var years = []string{"0000", "0004", "0100", "0400", "1900", "2000", "2023", "2024", "2100", "9996", "9999", "123", "12345", "20a4"}

// TestPatternsExact: the patterns accept exactly what the rules accept.
func TestPatternsExact(t *testing.T) {
	times := []string{"", "T", "T12:30:00", "T12:30:00Z", "T23:59:59.123456789Z", "T24:00:00Z", "T12:60:00Z",
		"T12:30:60Z", "T12:30:00+01:00", "T12:30:00-23:59", "T12:30:00+24:00", "T12:30:00+01:60", "T12:30:00.Z",
		"t12:30:00z", " 12:30:00", " 12:30:00.5", " 12:30:00Z", "T12:30Z", "T1:30:00Z", "T12:30:00+0100"}
	var stamps []string
	dates := []string{"0000-02-29", "1900-02-29", "2000-02-29", "2023-02-29", "2024-02-29", "2024-04-31"}
	for m := 1; m <= 12; m++ {
		for _, d := range []string{"01", "1", "28", "30", "31"} {
			dates = append(dates, "2023-"+strconv.Itoa(m)+"-"+d, "2023-"+strconv.Itoa(m + 100)[1:]+"-"+d, "2023/"+strconv.Itoa(m)+"/"+d)
		}
	}
	for _, d := range dates {
		for _, tm := range times {
			stamps = append(stamps, d+tm)
		}
	}
	var clocks []string
	for h := 0; h <= 100; h++ {
		for _, m := range []string{"00", "0", "5", "59", "60", "99", "000", "5a"} {
			clocks = append(clocks, strconv.Itoa(h)+":"+m, "0"+strconv.Itoa(h)+":"+m)
		}
	}
	clocks = append(clocks, "", ":", "12", "12:30:00", " 12:30", "12.30")
	numbers := []string{"0", "-0", "12", "-12", "007", "1.5", "-1.5", "1.", ".5", "1e5", "1E-5", "1e+5", "1.5e10",
		"+1", "1e", "1e+", "--1", "1,5", " 1", "1 ", "0x10", "Inf", "NaN", "", "-", "12a", "１"}
	bools := []string{"true", "TRUE", "True", "false", "FaLsE", "on", "ON", "off", "Off", "1", "0", "",
		"yes", "no", "t", "f", "10", "01", "true ", " on", "falſe", "tru", "offf"}
	tests := []struct {
		name    string
		pattern string
		accepts func(string) bool
		inputs  []string
	}{
		{"date", datePattern, isDateString, dateForms(years...)},
		{"time", clockPattern, isClock, clocks},
		{"timestamp", timestampPattern, func(s string) bool { _, ok := ParseTime(s); return ok }, stamps},
		{"decimal", decimalPattern, func(s string) bool { _, ok := ParseFloat(s); return ok }, numbers},
		{"bool", boolPattern, func(s string) bool { _, ok := ParseBool(s); return ok }, bools},
		{"email", emailPattern, isEmail, emails},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			re := regexp.MustCompile(tt.pattern)
			for _, s := range tt.inputs {
				if got, want := re.MatchString(s), tt.accepts(s); got != want {
					t.Errorf("%q: pattern matches %t, rule accepts %t", s, got, want)
				}
			}
		})
	}
}

var emails = []string{
	"user@example.com", "a@b.co", "first.last+tag@sub.example.org", "ü@example.com", "a@b", "@example.com",
	"a@@example.com", "a@b@example.com", "a b@example.com", "a\tb@example.com", "a\u00a0b@example.com",
	"a\u2028b@example.com", "a\u0085b@example.com", "a@-example.com", "a@example-.com", "a@exa-mple.com",
	"a@example..com", "a@.example.com", "a@example.com.", "a@exam_ple.com", "a@例え.jp", "a@1.2", "\x7f@a.b",
	"a@a.b-c.d", "\"quoted\"@example.com", "a@EXAMPLE.COM", "",
}

// TestPrintableClass: the class that the email and url patterns exclude is
// exactly the runes printable rejects: every rune up to U+3100 (past the
// last rune the class names), then a spread of the others.
func TestPrintableClass(t *testing.T) {
	re := regexp.MustCompile("^[^" + notPrintable + "]$")
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if r > 0x3100 {
			r += 96
		}
		if !utf8.ValidRune(r) {
			continue
		}
		s := string(r)
		if got, want := re.MatchString(s), printable(s); got != want {
			t.Fatalf("%U: pattern matches %t, printable %t", r, got, want)
		}
	}
}

// TestURLPattern: every URL that url accepts matches the pattern, and
// the pattern rejects what lacks the scheme or a host.
func TestURLPattern(t *testing.T) {
	re := regexp.MustCompile(urlPattern)
	good := []string{"http://example.com", "https://example.com/a/b?q=1&r=2#frag", "HTTPS://EXAMPLE.COM/",
		"HtTp://example.com", "http://localhost:8080/health", "https://user:p%40ss@example.com/",
		"http://[::1]/", "http://[2001:db8::8a2e:370:7334]:443/x", "https://bücher.example/",
		"http://example.com?x=1", "http://example.com#top", "http://my_host~1.example"}
	for _, s := range good {
		if !isURL(s) {
			t.Fatalf("isURL(%q) = false: fix the corpus", s)
		}
		if !re.MatchString(s) {
			t.Errorf("%q: url accepts it, the pattern does not", s)
		}
	}
	for _, s := range []string{"", "example.com", "//example.com", "ftp://example.com", "http://", "http:///path",
		"http://exa mple.com", "https://example.com/a b", "http:/example.com"} {
		if re.MatchString(s) {
			t.Errorf("%q: the pattern matches", s)
		}
		if isURL(s) {
			t.Errorf("isURL(%q) = true: fix the corpus", s)
		}
	}
	if !strings.HasPrefix(urlPattern, "^") || !strings.HasSuffix(urlPattern, "$") {
		t.Errorf("urlPattern is not anchored")
	}
}
