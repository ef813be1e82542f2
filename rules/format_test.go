package rules

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/expose-go/expose/internal/textconv"
)

func TestURL(t *testing.T) {
	const bad = "must be a valid URL"
	runChecks(t, mustCompile(t, "url", Any), []checkTest{
		{"http", StringValue("http://example.com"), ""},
		{"https with path", StringValue("https://example.com/a/b?q=1&r=2#frag"), ""},
		{"upper-case scheme", StringValue("HTTPS://EXAMPLE.COM/"), ""},
		{"mixed-case scheme", StringValue("HtTp://example.com"), ""},
		{"port", StringValue("http://localhost:8080/health"), ""},
		{"highest port", StringValue("http://localhost:65535"), ""},
		{"user-info", StringValue("https://user:p%40ss@example.com/"), ""},
		{"IPv4 host", StringValue("http://192.168.0.1/"), ""},
		{"IPv6 host", StringValue("http://[::1]/"), ""},
		{"IPv6 host and port", StringValue("http://[2001:db8::8a2e:370:7334]:443/x"), ""},
		{"IPv6 full", StringValue("http://[1:2:3:4:5:6:7:8]"), ""},
		{"IPv6 with IPv4", StringValue("http://[::ffff:192.0.2.1]/"), ""},
		{"internationalized host", StringValue("https://bücher.example/"), ""},
		{"query without path", StringValue("http://example.com?x=1"), ""},
		{"fragment without path", StringValue("http://example.com#top"), ""},
		{"escapes in path", StringValue("http://example.com/a%20b"), ""},
		{"underscore and tilde in host", StringValue("http://my_host~1.example"), ""},
		{"international host and path", StringValue("https://例え.jp/パス?q=値#節"), ""},
		{"non-ASCII in a path", StringValue("https://fr.wikipedia.org/wiki/École"), ""},
		{"sub-delims and colons in a path", StringValue("http://h/a:b@c;d=e,f!$&'()*+"), ""},
		{"slash and question mark in a query", StringValue("http://h/?a=/b?c"), ""},
		{"port with leading zeros", StringValue("http://h:00080/"), ""},

		{"empty", StringValue(""), bad},
		{"no scheme", StringValue("example.com"), bad},
		{"relative", StringValue("/path"), bad},
		{"scheme-relative", StringValue("//example.com"), bad},
		{"ftp", StringValue("ftp://example.com"), bad},
		{"mailto", StringValue("mailto:a@example.com"), bad},
		{"httpx", StringValue("httpx://example.com"), bad},
		{"one slash", StringValue("http:/example.com"), bad},
		{"scheme only", StringValue("http://"), bad},
		{"empty host with path", StringValue("http:///path"), bad},
		{"empty host with port", StringValue("http://:80/"), bad},
		{"host of dots", StringValue("http://../"), bad},
		{"empty user-info host", StringValue("http://user@/"), bad},
		{"space in host", StringValue("http://exa mple.com"), bad},
		{"space in path", StringValue("http://example.com/a b"), bad},
		{"tab", StringValue("http://example.com/\t"), bad},
		{"newline", StringValue("http://example.com/\n"), bad},
		{"DEL", StringValue("http://example.com/\x7f"), bad},
		{"no-break space", StringValue("http://example.com/\u00a0"), bad},
		{"C1 control", StringValue("http://example.com/\u0085"), bad},
		{"invalid UTF-8", StringValue("http://example.com/\xff"), bad},
		{"leading space", StringValue(" http://example.com"), bad},
		{"port not a number", StringValue("http://example.com:http/"), bad},
		{"empty port", StringValue("http://example.com:/"), bad},
		{"port too large", StringValue("http://example.com:65536/"), bad},
		{"port too long", StringValue("http://example.com:000080/"), bad},
		{"bad escape", StringValue("http://example.com/%zz"), bad},
		{"truncated escape", StringValue("http://example.com/%4"), bad},
		{"bad character in host", StringValue("http://exa!mple.com/"), bad},
		{"bad character in user-info", StringValue("http://us<er@example.com/"), bad},
		{"unclosed IPv6", StringValue("http://[::1/"), bad},
		{"not IPv6", StringValue("http://[zz]/"), bad},
		{"IPv6 two ellipses", StringValue("http://[1::2::3]/"), bad},
		{"IPv6 nine groups", StringValue("http://[1:2:3:4:5:6:7:8:9]/"), bad},
		{"IPv6 seven groups", StringValue("http://[1:2:3:4:5:6:7]/"), bad},
		{"IPv6 long group", StringValue("http://[12345::]/"), bad},
		{"IPv6 trailing colon", StringValue("http://[1:2:3:4:5:6:7:]/"), bad},
		{"IPv6 with zone", StringValue("http://[fe80::1%25en0]/"), bad},
		{"IPv6 bad IPv4", StringValue("http://[::ffff:192.0.2.256]/"), bad},
		{"IPv4 in brackets", StringValue("http://[192.0.2.1]/"), bad},
		{"IPv6 IPv4 with leading zero", StringValue("http://[::ffff:192.0.2.01]/"), bad},
		{"IPv6 IPv4 with three parts", StringValue("http://[::ffff:192.0.2]/"), bad},
		{"IPv6 IPv4 with five parts", StringValue("http://[::ffff:192.0.2.1.1]/"), bad},
		{"symbol in host", StringValue("http://snow☃man.example/"), bad},
		{"junk after IPv6", StringValue("http://[::1]x/"), bad},
		{"escape in host", StringValue("http://%41.com/"), bad},
		{"port far too large", StringValue("http://host:99999/"), bad},
		{"at sign in user-info", StringValue("http://a@b@example.com/"), bad},
		{"angle brackets", StringValue("http://h/<a>"), bad},
		{"braces", StringValue("http://h/{a}"), bad},
		{"pipe", StringValue("http://h/a|b"), bad},
		{"backslash", StringValue(`http://h/a\b`), bad},
		{"caret", StringValue("http://h/a^b"), bad},
		{"backtick", StringValue("http://h/a`b"), bad},
		{"double quote", StringValue(`http://h/a"b`), bad},
		{"second #", StringValue("http://h/a#b#c"), bad},
		{"bracket in a path", StringValue("http://h/a[1]"), bad},
		{"ideographic space", StringValue("http://h/a\u3000b"), bad},
		{"number", IntValue(1), "must be a string"},
	})
}

func TestEmail(t *testing.T) {
	const bad = "must be a valid email address"
	runChecks(t, mustCompile(t, "email", Any), []checkTest{
		{"simple", StringValue("ann@example.com"), ""},
		{"dots and plus", StringValue("ann.lee+news@mail.example.co.uk"), ""},
		{"digits and hyphens", StringValue("a1@my-host2.example"), ""},
		{"one-letter labels", StringValue("a@b.c"), ""},
		{"upper case", StringValue("ANN@EXAMPLE.COM"), ""},
		{"non-ASCII local part", StringValue("josé@example.com"), ""},
		{"symbols in local part", StringValue("!#$%&'*+/=?^_`{|}~-@example.com"), ""},

		{"empty", StringValue(""), bad},
		{"no at", StringValue("ann.example.com"), bad},
		{"two ats", StringValue("ann@lee@example.com"), bad},
		{"empty local part", StringValue("@example.com"), bad},
		{"empty domain", StringValue("ann@"), bad},
		{"no dot in domain", StringValue("ann@localhost"), bad},
		{"leading dot in domain", StringValue("ann@.example.com"), bad},
		{"trailing dot in domain", StringValue("ann@example.com."), bad},
		{"double dot in domain", StringValue("ann@example..com"), bad},
		{"label starts with hyphen", StringValue("ann@-example.com"), bad},
		{"label ends with hyphen", StringValue("ann@example-.com"), bad},
		{"last label ends with hyphen", StringValue("ann@example.com-"), bad},
		{"underscore in domain", StringValue("ann@ex_ample.com"), bad},
		{"non-ASCII domain", StringValue("ann@bücher.example"), bad},
		{"space in local part", StringValue("ann lee@example.com"), bad},
		{"tab in local part", StringValue("ann\t@example.com"), bad},
		{"control in local part", StringValue("ann\x00@example.com"), bad},
		{"invalid UTF-8 in local part", StringValue("ann\xff@example.com"), bad},
		{"space in domain", StringValue("ann@exa mple.com"), bad},
		{"leading space", StringValue(" ann@example.com"), bad},
		{"trailing space", StringValue("ann@example.com "), bad},
		{"display name", StringValue("Ann <ann@example.com>"), bad},
		{"list", Value{Kind: List, Len: 1}, "must be a string"},
	})
}

func TestDate(t *testing.T) {
	const bad = "must be a valid date (YYYY-MM-DD or YYYY/M/D)"
	runChecks(t, mustCompile(t, "date", Any), []checkTest{
		{"ISO", StringValue("2023-07-14"), ""},
		{"one-digit month and day", StringValue("2023-7-4"), ""},
		{"slashes", StringValue("2023/07/14"), ""},
		{"slashes one-digit", StringValue("2023/7/4"), ""},
		{"leap day", StringValue("2024-02-29"), ""},
		{"leap day 2000", StringValue("2000-02-29"), ""},
		{"December 31", StringValue("2023-12-31"), ""},
		{"year zero", StringValue("0000-01-01"), ""},

		{"leap day in a common year", StringValue("2023-02-29"), bad},
		{"leap day 1900", StringValue("1900-02-29"), bad},
		{"February 30", StringValue("2024-02-30"), bad},
		{"June 31", StringValue("2023-06-31"), bad},
		{"month 13", StringValue("2023-13-01"), bad},
		{"month 0", StringValue("2023-00-10"), bad},
		{"day 0", StringValue("2023-01-00"), bad},
		{"day 32", StringValue("2023-01-32"), bad},
		{"mixed separators", StringValue("2023-07/14"), bad},
		{"dots", StringValue("2023.07.14"), bad},
		{"day first", StringValue("14-07-2023"), bad},
		{"two-digit year", StringValue("23-07-14"), bad},
		{"three-digit day", StringValue("2023-07-014"), bad},
		{"with time", StringValue("2023-07-14T00:00:00Z"), bad},
		{"empty", StringValue(""), bad},
		{"trailing space", StringValue("2023-07-14 "), bad},
		{"time value", TimeValue(time.Date(2023, 7, 14, 0, 0, 0, 0, time.UTC)), "must be a string"},
	})
}

func TestTime(t *testing.T) {
	const bad = "must be a valid time (HH:mm)"
	runChecks(t, mustCompile(t, "time", Any), []checkTest{
		{"HH:mm", StringValue("09:05"), ""},
		{"H:mm", StringValue("9:05"), ""},
		{"midnight", StringValue("00:00"), ""},
		{"midnight one digit", StringValue("0:00"), ""},
		{"last minute", StringValue("23:59"), ""},

		{"hour 24", StringValue("24:00"), bad},
		{"one-digit minute", StringValue("9:5"), bad},
		{"minute 60", StringValue("09:60"), bad},
		{"three-digit hour", StringValue("009:00"), bad},
		{"seconds", StringValue("09:05:00"), bad},
		{"no colon", StringValue("0905"), bad},
		{"dot", StringValue("09.05"), bad},
		{"am", StringValue("9:05am"), bad},
		{"empty", StringValue(""), bad},
		{"colon only", StringValue(":"), bad},
		{"no hour", StringValue(":05"), bad},
		{"negative", StringValue("-1:00"), bad},
		{"bool", BoolValue(true), "must be a string"},
	})
}

func TestFormatCompileErrors(t *testing.T) {
	runCompileErrors(t, []compileTest{
		{"url with an argument", "url", []string{"x"}, "url: takes 0 arguments, got 1"},
		{"email with an argument", "email", []string{"x"}, "email: takes 0 arguments, got 1"},
		{"date with two arguments", "date", []string{"x", "y"}, "date: takes 0 arguments, got 2"},
		{"time with an argument", "time", []string{""}, "time: takes 0 arguments, got 1"},
	})
}

func TestFormatAllocs(t *testing.T) {
	tests := []struct {
		name string
		rule string
		v    Value
	}{
		{"url passes", "url", StringValue("https://user@example.com:8080/a?b#c")},
		{"url fails", "url", StringValue("https://exa mple.com/")},
		{"url IPv6 fails", "url", StringValue("http://[1::2::3]/")},
		{"email passes", "email", StringValue("josé@mail.example.com")},
		{"email fails", "email", StringValue("ann@example..com")},
		{"date passes", "date", StringValue("2024/2/29")},
		{"date fails", "date", StringValue("2023-02-29")},
		{"time passes", "time", StringValue("23:59")},
		{"time fails", "time", StringValue("24:00")},
		{"not a string", "email", IntValue(3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCompile(t, tt.rule, Any)
			if n := testing.AllocsPerRun(100, func() { _ = c.Check(tt.v) }); n != 0 {
				t.Errorf("%g allocations, want 0", n)
			}
		})
	}
}

// dateSyntax is the syntax of the date rule: a four-digit year and a month
// and day of one or two digits, separated by '-' or '/'.
var dateSyntax = regexp.MustCompile(`^([0-9]{4})([-/])([0-9]{1,2})([-/])([0-9]{1,2})$`)

// normalizeDate rewrites a string of the date rule's syntax as YYYY-MM-DD.
// It reports false when s is not of that syntax.
func normalizeDate(s string) (string, bool) {
	m := dateSyntax.FindStringSubmatch(s)
	if m == nil || m[2] != m[4] {
		return "", false
	}
	pad := func(s string) string { return strings.Repeat("0", 2-len(s)) + s }
	return m[1] + "-" + pad(m[3]) + "-" + pad(m[5]), true
}

func FuzzDate(f *testing.F) {
	for _, s := range []string{
		"2024-02-29", "2023-02-29", "2024/2/9", "2024-2/9", "2023-13-01",
		"2023-00-10", "0000-02-29", "1900-02-29", "2000-2-29", "99-1-1",
	} {
		f.Add(s)
	}
	c := mustCompile(f, "date", String)
	f.Fuzz(func(t *testing.T, s string) {
		got := c.Check(StringValue(s)) == nil
		want := false
		if norm, ok := normalizeDate(s); ok {
			_, err := time.Parse("2006-01-02", norm)
			want = err == nil
		}
		if got != want {
			t.Fatalf("date %q: passes = %t, want %t", s, got, want)
		}
	})
}

func FuzzEmail(f *testing.F) {
	for _, s := range []string{
		"ann@example.com", "a@b.c", "@example.com", "ann@", "ann@@example.com",
		"ann@-a.com", "ann@a-.com", "josé@example.com", "a b@example.com", "ann@\xff.com",
	} {
		f.Add(s)
	}
	c := mustCompile(f, "email", String)
	f.Fuzz(func(t *testing.T, s string) {
		if c.Check(StringValue(s)) != nil {
			return
		}
		local, domain, _ := strings.Cut(s, "@")
		if local == "" || strings.Contains(domain, "@") || !strings.Contains(domain, ".") {
			t.Fatalf("email %q passes", s)
		}
	})
}

// FuzzURL checks that every URL the url rule accepts, url.Parse accepts as
// an absolute http or https URL with a host.
func FuzzURL(f *testing.F) {
	for _, s := range []string{
		"http://example.com", "HTTPS://user:pw@example.com:443/a?b#c", "http://[::1]:80/",
		"http://[::ffff:1.2.3.4]/", "http://bücher.example/", "http://a/%zz", "http://:80",
	} {
		f.Add(s)
	}
	c := mustCompile(f, "url", String)
	f.Fuzz(func(t *testing.T, s string) {
		if c.Check(StringValue(s)) != nil {
			return
		}
		u, err := url.Parse(s)
		if err != nil {
			t.Fatalf("url %q passes, but url.Parse fails: %v", s, err)
		}
		if scheme := strings.ToLower(u.Scheme); scheme != "http" && scheme != "https" || u.Hostname() == "" {
			t.Fatalf("url %q passes, but url.Parse reads scheme %q, host %q", s, u.Scheme, u.Host)
		}
	})
}

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
		{"timestamp", timestampPattern, func(s string) bool { _, ok := textconv.ParseTime(s); return ok }, stamps},
		{"decimal", floatTextPattern, func(s string) bool { _, ok := textconv.ParseFloat(s); return ok }, numbers},
		{"bool", boolPattern, func(s string) bool { _, ok := textconv.ParseBool(s); return ok }, bools},
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

// urlProbes are URLs on both sides of every part of the url rule's
// grammar, for the tests of its pattern (here, and in ECMA-262 by the
// schematest module).
var urlProbes = []string{
	"http://example.com", "https://example.com/a/b?q=1&r=2#frag", "HTTPS://EXAMPLE.COM/", "HtTp://example.com",
	"http://localhost:8080/health", "http://localhost:65535", "http://localhost:65536", "http://h:0/", "http://h:00080/", "http://h:000080/",
	"https://user:p%40ss@example.com/", "http://user@/", "http://a@b@c/", "http://us<er@h/", "http://:pw@h/", "http://蓁@h/",
	"http://[::1]/", "http://[2001:db8::8a2e:370:7334]:443/x", "http://[1:2:3:4:5:6:7:8]", "http://[::ffff:192.0.2.1]/",
	"http://[1::2::3]/", "http://[1:2:3:4:5:6:7:8:9]/", "http://[1:2:3:4:5:6:7]/", "http://[12345::]/", "http://[::]/",
	"http://[1:2:3:4:5:6:7::]/", "http://[::2:3:4:5:6:7:8]/", "http://[1:2:3:4:5:6:1.2.3.4]/", "http://[1:2:3:4:5:6:7:1.2.3.4]/",
	"http://[fe80::1%25en0]/", "http://[::ffff:192.0.2.256]/", "http://[192.0.2.1]/", "http://[::ffff:192.0.2.01]/", "http://[::1]x/",
	"https://bücher.example/", "https://例え.jp/パス", "http://пример.рф/", "http://snow☃man.example/", "http://%41.com/",
	"http://-a.com", "http://../", "http://a_b.com/", "http://my_host~1.example", "http://exa!mple.com/",
	"http://example.com?x=1", "http://example.com#top", "http://h/a%20b", "http://h/%zz", "http://h/%4", "http://h/é",
	"http://h/a b", "http://h/\t", "http://h/\x7f", "http://h/\u00a0", "http://h/\u0085", "http://h/\u2028", "http://h/\xff",
	"http://h/<>", "http://h/{}", "http://h/|", "http://h/\\", "http://h/^", "http://h/`", "http://h/\"", "http://h/#a#b",
	"http://h/[x]", "http://h/?a=/b?c#d/e?f", "http://h/a:b@c;d=e,f!$&'()*+", "ftp://example.com", "http://", "http:///path",
	"http:/example.com", "//example.com", "example.com", "", " http://h", "http://h:/", "http://h:x/",
}

// TestURLPatternIsTheRule: the url rule's pattern matches exactly the
// URLs the rule accepts, so that a schema can state the rule with it alone.
// (Text that is not UTF-8 never reaches a schema: JSON text is UTF-8.)
func TestURLPatternIsTheRule(t *testing.T) {
	re := regexp.MustCompile(urlPattern)
	accepted := 0
	for _, s := range urlProbes {
		if !utf8.ValidString(s) {
			continue
		}
		if got, want := re.MatchString(s), isURL(s); got != want {
			t.Errorf("%q: the pattern matches %v, the rule accepts %v", s, got, want)
		}
		if isURL(s) {
			accepted++
		}
	}
	if accepted < 20 || accepted > len(urlProbes)-20 {
		t.Errorf("%d of %d probes accepted: the probes miss a side", accepted, len(urlProbes))
	}
}

// FuzzURLPattern: the pattern and the rule agree on any string.
func FuzzURLPattern(f *testing.F) {
	for _, s := range urlProbes {
		f.Add(s)
	}
	re := regexp.MustCompile(urlPattern)
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		if got, want := re.MatchString(s), isURL(s); got != want {
			t.Fatalf("%q: the pattern matches %v, the rule accepts %v", s, got, want)
		}
	})
}

// TestEmailScanners: printable and isDomain, which read eight bytes at a
// time or without a label slice, accept exactly what a plain loop over
// runes and labels accepts, on every string of a few bytes drawn from the
// bytes that matter and on longer ones around each word boundary.
func TestEmailScanners(t *testing.T) {
	refPrintable := func(s string) bool {
		if !utf8.ValidString(s) {
			return false
		}
		for _, r := range s {
			if r <= ' ' || r == 0x7f || unicode.IsSpace(r) || unicode.IsControl(r) {
				return false
			}
		}
		return true
	}
	refDomain := func(s string) bool {
		labels := strings.Split(s, ".")
		if len(labels) < 2 {
			return false
		}
		for _, l := range labels {
			if l == "" || l[0] == '-' || l[len(l)-1] == '-' {
				return false
			}
			for i := 0; i < len(l); i++ {
				if !isAlnum(l[i]) && l[i] != '-' {
					return false
				}
			}
		}
		return true
	}
	// Letters, digits, hyphen and dot, and their neighbours in the byte
	// table and in lower case (CR is '-' but for bit 5, DLE is '0'…).
	alphabet := []string{"a", "z", "A", "Z", "0", "9", "-", ".", " ", "\t", "\r", "\x0e", "\x10", "\x19", "\x00", "\x1f",
		"!", "~", "`", "{", "[", "/", ":", ",", "\x7f", "\x80", "é", "\u00a0", "\u2028", "\xff", "_", "@"}
	var inputs []string
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		inputs = append(inputs, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(prefix+c, n-1)
		}
	}
	gen("", 3)
	for _, c := range alphabet {
		for n := 0; n <= 17; n++ { // the odd byte at each place of two words and their tails
			for _, base := range []string{"abcdefgh", "a.b-c.de"} {
				long := strings.Repeat(base, 3)[:n]
				inputs = append(inputs, long+c, c+long, long+c+long)
			}
		}
	}
	for _, s := range inputs {
		if got, want := printable(s), refPrintable(s); got != want {
			t.Errorf("printable(%q) = %t, want %t", s, got, want)
		}
		if got, want := isDomain(s), refDomain(s); got != want {
			t.Errorf("isDomain(%q) = %t, want %t", s, got, want)
		}
	}
}
