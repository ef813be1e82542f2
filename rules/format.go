package rules

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/expose-go/expose/internal/textconv"
)

// stringKinds are the declared types that the string rules apply to.
var stringKinds = Kinds(String, Any)

// errNotString is what a string rule says of another kind of value, which
// only a field declared `none` can hold.
var errNotString = errors.New("must be a string")

// format is a compiled string format rule: `url`, `email`, `date`, `time`.
type format struct {
	valid func(string) bool
	err   error
}

// Check implements Checker.
func (f *format) Check(v Value) error {
	if v.Kind != String {
		return errNotString
	}
	if !f.valid(v.Str) {
		return f.err
	}
	return nil
}

// CheckString implements StringChecker.
func (f *format) CheckString(s string) error {
	if !f.valid(s) {
		return f.err
	}
	return nil
}

// formatRule returns the Compile function of a format rule. The rule takes
// no arguments, so every use shares one Checker.
func formatRule(name string, valid func(string) bool, msg string) func([]string, Kind) (Checker, error) {
	c := &format{valid: valid, err: errors.New(msg)}
	return func(args []string, _ Kind) (Checker, error) {
		if err := wantArgs(name, args, 0); err != nil {
			return nil, err
		}
		return c, nil
	}
}

// isURL reports whether s is an absolute http or https URL with a host,
// as RFC 3986 writes one, extended to the non-ASCII characters an IRI
// (RFC 3987) holds, so that international names and paths are accepted as
// people write them (https://例え.jp/パス, https://bücher.example/straße):
//
//	url       = scheme "://" [ userinfo "@" ] host [ ":" port ] path [ "?" query ] [ "#" fragment ]
//	scheme    = "http" / "https", in any case
//	userinfo  = *( unreserved / pct-encoded / sub-delims / ":" )    ASCII only, as in RFC 3986
//	host      = "[" IPv6address "]" / name
//	name      = 1*( unreserved / ucs-alnum ), holding at least one ASCII letter or digit or one ucs-alnum
//	port      = 1*5DIGIT, at most 65535
//	path      = *( "/" / pchar )    starting with "/" when not empty
//	query     = *( pchar / "/" / "?" )
//	fragment  = *( pchar / "/" / "?" )
//	pchar     = unreserved / pct-encoded / sub-delims / ":" / "@" / ucschar
//
// where unreserved is an ASCII letter, a digit, "-", ".", "_" or "~";
// sub-delims one of !$&'()*+,;=; pct-encoded "%" and two hexadecimal
// digits; ucs-alnum a non-ASCII letter, mark or decimal digit (Unicode's L,
// M and Nd); ucschar any non-ASCII character that is neither white space
// nor a control. An IPv6 address has no zone. So a space, a control,
// invalid UTF-8, any of "<>\^`{|}, a second "#", a "%" without two
// hexadecimal digits, a "%" in the host, a port above 65535 and a host
// without a letter or digit are refused. Every URL that isURL accepts,
// url.Parse accepts too, with a host. urlPattern says exactly the same.
func isURL(s string) bool {
	var rest string
	switch {
	case len(s) > len("http://") && strings.EqualFold(s[:len("http://")], "http://"):
		rest = s[len("http://"):]
	case len(s) > len("https://") && strings.EqualFold(s[:len("https://")], "https://"):
		rest = s[len("https://"):]
	default:
		return false
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	host, tail := rest[:end], rest[end:]
	if at := strings.IndexByte(host, '@'); at >= 0 {
		if !urlPart(host[:at], ":", false) {
			return false
		}
		host = host[at+1:]
	}
	if !isURLHost(host) {
		return false
	}
	path, fragment, hasFragment := strings.Cut(tail, "#")
	path, query, _ := strings.Cut(path, "?")
	return urlPart(path, ":@/", true) && urlPart(query, ":@/?", true) && (!hasFragment || urlPart(fragment, ":@/?", true))
}

// isURLHost reports whether s is the host and optional port of a URL as
// isURL describes it.
func isURLHost(s string) bool {
	if strings.HasPrefix(s, "[") {
		i := strings.IndexByte(s, ']')
		return i > 0 && isIPv6(s[1:i]) && isPort(s[i+1:])
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		if !isPort(s[i:]) {
			return false
		}
		s = s[:i]
	}
	return isHostName(s)
}

// urlPart reports whether s is made of unreserved characters, escapes,
// sub-delims, the ASCII bytes of extra and, when ucs, any non-ASCII
// character that is neither white space nor a control: what isURL allows
// in its user-info (extra ":", ASCII only), path (":@/"), query and
// fragment (":@/?").
func urlPart(s, extra string, ucs bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			if !ucs {
				return false
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 || unicode.IsSpace(r) || unicode.IsControl(r) {
				return false
			}
			i += size
			continue
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 3
			continue
		case isAlnum(c) || strings.IndexByte(urlUnreserved+urlSubDelims, c) >= 0 || strings.IndexByte(extra, c) >= 0:
		default:
			return false
		}
		i++
	}
	return true
}

// The ASCII punctuation a URL holds as itself (RFC 3986's unreserved and
// sub-delims), for isURL and urlPattern.
const (
	urlUnreserved = "-._~"
	urlSubDelims  = "!$&'()*+,;="
)

// isHostName reports whether s is a host name as isURL describes it.
func isHostName(s string) bool {
	alnum := false
	for _, r := range s {
		switch {
		case r >= utf8.RuneSelf:
			if !unicode.IsLetter(r) && !unicode.Is(unicode.Nd, r) && !unicode.IsMark(r) {
				return false
			}
			alnum = true
		case isAlnum(byte(r)):
			alnum = true
		case strings.ContainsRune(urlUnreserved, r):
		default:
			return false
		}
	}
	return alnum
}

// isPort reports whether s is empty or a colon followed by a port number:
// one to five digits, at most 65535.
func isPort(s string) bool {
	if s == "" {
		return true
	}
	if s[0] != ':' || len(s) < 2 || len(s) > 6 {
		return false
	}
	n := 0
	for i := 1; i < len(s); i++ {
		if !textconv.IsDigit(s[i]) {
			return false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n <= 65535
}

// isIPv6 reports whether s is an IPv6 address: eight groups of one to four
// hexadecimal digits separated by colons, at most one "::" standing for one
// or more groups of zeros, and optionally a dotted IPv4 address in place of
// the last two groups. Zones are not accepted.
func isIPv6(s string) bool {
	groups := 0
	ellipsis := false
	i := 0
	if strings.HasPrefix(s, "::") {
		ellipsis = true
		i = 2
	}
	for i < len(s) {
		j := i
		for j < len(s) && j-i < 5 && isHex(s[j]) {
			j++
		}
		if j < len(s) && s[j] == '.' {
			if !isIPv4(s[i:]) {
				return false
			}
			groups += 2
			break
		}
		if j == i || j-i > 4 {
			return false
		}
		groups++
		i = j
		if i == len(s) {
			break
		}
		if s[i] != ':' {
			return false
		}
		i++
		switch {
		case i < len(s) && s[i] == ':':
			if ellipsis {
				return false
			}
			ellipsis = true
			i++
		case i == len(s):
			return false // a single trailing colon
		}
	}
	if ellipsis {
		return groups < 8
	}
	return groups == 8
}

// isIPv4 reports whether s is a dotted IPv4 address: four decimal numbers
// from 0 to 255 without leading zeros.
func isIPv4(s string) bool {
	for part := range 4 {
		if part > 0 {
			if s == "" || s[0] != '.' {
				return false
			}
			s = s[1:]
		}
		n := textconv.SkipDigits(s, 0)
		if n == 0 || n > 3 || (n > 1 && s[0] == '0') {
			return false
		}
		v := 0
		for _, c := range []byte(s[:n]) {
			v = v*10 + int(c-'0')
		}
		if v > 255 {
			return false
		}
		s = s[n:]
	}
	return s == ""
}

// isEmail reports whether s is an email address: exactly one '@', a
// non-empty local part without spaces, control characters or invalid UTF-8,
// and a domain of at least two dot-separated labels, each made of ASCII
// letters, digits and hyphens and neither starting nor ending with a hyphen.
func isEmail(s string) bool {
	at := strings.IndexByte(s, '@')
	return at > 0 && printable(s[:at]) && isDomain(s[at+1:]) // a second '@' fails isDomain
}

// isDomain reports whether s is a domain as isEmail describes it.
func isDomain(s string) bool {
	dots, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			if i == start || s[start] == '-' || s[i-1] == '-' {
				return false // an empty label, or one that starts or ends with a hyphen
			}
			dots++
			start = i + 1
		case !labelByte[c]:
			return false
		}
	}
	return dots > 0 && start < len(s) && s[start] != '-' && s[len(s)-1] != '-'
}

// isDateString reports whether s is a calendar date written YYYY-M-D or
// YYYY/M/D, the month and day having one or two digits.
func isDateString(s string) bool {
	_, _, _, ok := textconv.ParseDate(s)
	return ok
}

// isClock reports whether s is a time of day written H:mm or HH:mm, from
// 0:00 to 23:59.
func isClock(s string) bool {
	h, i := textconv.OneOrTwoDigits(s, 0)
	if i < 0 || h > 23 || len(s) != i+3 || s[i] != ':' {
		return false
	}
	_, ok := textconv.TwoDigits(s[i+1:], 59)
	return ok
}

// printable reports whether s is valid UTF-8 without spaces or control
// characters.
func printable(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 { // printable ASCII, eight bytes at a time
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		del := x ^ (lo8 * 0x7f)
		// The high bit of a byte that is not ASCII, at most a space, or DEL.
		if (x|(x-lo8*0x21)&^x|(del-lo8)&^del)&hi8 != 0 {
			break
		}
	}
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unicode.IsSpace(r) || unicode.IsControl(r) {
			return false
		}
		i += size
	}
	return true
}

// lo8 and hi8 are the low and the high bit of each byte of a word.
const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// labelByte holds the bytes of a domain label: ASCII letters, digits and
// hyphens.
var labelByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isAlnum(byte(c)) || c == '-'
	}
	return
}()

func isAlnum(c byte) bool {
	return textconv.IsDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isHex(c byte) bool {
	return textconv.IsDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// The hooks of the string formats (url, email, date, time) and the
// patterns that the format and type-check rules put in a JSON Schema. Each
// pattern is written in the syntax that RE2 (package regexp) and
// ECMA-262 (JSON Schema's dialect) read alike: no \d, \s or \x escapes
// (characters outside printable ASCII are written as themselves), no
// lookaround, no inline flags.

// notPrintable is the class body of the characters that printable
// rejects: ASCII controls and space, DEL, the C1 controls and Unicode's
// other white space.
const notPrintable = "\x00- \x7f-\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"

// Patterns for exactly the strings the rules accept.
var (
	urlPattern = urlPatternOf()

	emailPattern = "^[^@" + notPrintable + "]+@" +
		"(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$"

	datePattern = "^(?:" + dateBody("-", "0?") + "|" + dateBody("/", "0?") + ")$"

	clockPattern = "^(?:[01]?[0-9]|2[0-3]):[0-5][0-9]$"

	// ParseTime's forms: a date alone, or an RFC 3339 date and time, or a
	// date and time with a space and no offset.
	timestampPattern = "^(?:" + dateBody("-", "0?") + "|" + dateBody("/", "0?") + "|" +
		dateBody("-", "0") + "(?:[Tt]" + hms + "(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])| " + hms + "))$"
)

// hms is a time of day with seconds and an optional fraction.
const hms = "(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?"

// dateBody is the pattern of a date that exists, written YYYY sep M sep D,
// the month and day with a leading zero where zero is "0" and optionally
// so where it is "0?". February 29 is allowed in leap years only.
func dateBody(sep, zero string) string {
	const (
		year = "[0-9]{4}"
		leap = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)"
	)
	long := "(?:" + zero + "[13578]|1[02])" + sep + "(?:" + zero + "[1-9]|[12][0-9]|3[01])"
	short := "(?:" + zero + "[469]|11)" + sep + "(?:" + zero + "[1-9]|[12][0-9]|30)"
	feb := zero + "2" + sep + "(?:" + zero + "[1-9]|1[0-9]|2[0-8])"
	return "(?:" + year + sep + "(?:" + long + "|" + short + "|" + feb + ")|" + leap + sep + zero + "2" + sep + "29)"
}

// formatHooks returns the Sample and Schema hooks of a format rule: sample
// is a string the rule accepts, keywords its JSON Schema keywords on a
// string field. On a none field, where the rule rejects other kinds of
// value, the schema says "type": "string" too.
func formatHooks(sample string, keywords map[string]any) (func([]string, Kind) any, func([]string, Kind) map[string]any) {
	return func([]string, Kind) any { return sample },
		func(_ []string, declared Kind) map[string]any { return stringSchema(declared, keywords) }
}

// stringSchema returns a copy of keywords, with "type": "string" on a none
// field.
func stringSchema(declared Kind, keywords map[string]any) map[string]any {
	m := make(map[string]any, len(keywords)+1)
	for k, v := range keywords {
		m[k] = v
	}
	if declared == Any {
		m["type"] = "string"
	}
	return m
}

var (
	// url: format uri (RFC 3986) refuses the non-ASCII characters the rule
	// accepts (https://例え.jp/), and accepts what it refuses (a port above
	// 65535, an escape in a host, other schemes): the pattern alone says
	// the rule, exactly.
	urlSample, urlSchema = formatHooks("https://example.com/", map[string]any{"pattern": urlPattern})
	// email: format email (RFC 5321) differs from the library's rule both
	// ways: it allows quoted local parts with spaces, and refuses what the
	// rule accepts (a..b@example.com, non-ASCII local parts, a local part
	// over 64 bytes), so that a validator asserting formats would refuse
	// addresses Make writes. The pattern alone is the rule, exactly.
	emailSample, emailSchema = formatHooks("user@example.com", map[string]any{"pattern": emailPattern})
	// date and time: format date and time are RFC 3339's, stricter than
	// the rules' (2024/1/5, 9:30), so only the pattern is given.
	dateSample, dateSchema   = formatHooks("2024-01-15", map[string]any{"pattern": datePattern})
	clockSample, clockSchema = formatHooks("12:30", map[string]any{"pattern": clockPattern})
)

// urlPatternOf returns the pattern of exactly the URLs isURL accepts, in
// the syntax RE2 and ECMA-262 read alike. \p{L}, \p{M} and \p{Nd} are
// Unicode's letters, marks and decimal digits in both (each reads them in
// its own version of Unicode).
func urlPatternOf() string {
	const (
		pct      = "%[0-9A-Fa-f]{2}"
		ucsAlnum = `\p{L}\p{M}\p{Nd}`
		// ucschar: any non-ASCII character but white space and controls.
		ucschar = `[^\x00-\x7F\x80-\xA0` + "\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000" + `]`
		ascii   = `A-Za-z0-9\-._~` + urlSubDelims
	)
	part := func(extra string) string { return "(?:[" + ascii + extra + "]|" + pct + "|" + ucschar + ")*" }
	userinfo := "(?:[" + ascii + ":]|" + pct + ")*"
	port := "(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[0-5][0-9]{4}|[0-9]{1,4})"
	name := `[\-._~]*[` + ucsAlnum + `][\-._~` + ucsAlnum + `]*`
	return "^[Hh][Tt][Tt][Pp][Ss]?://" +
		"(?:" + userinfo + "@)?" +
		"(?:\\[" + ipv6Pattern() + "\\]|" + name + ")" +
		"(?::" + port + ")?" +
		"(?:/" + part(":@/") + ")?" +
		"(?:\\?" + part(":@/?") + ")?" +
		"(?:#" + part(":@/?") + ")?$"
}

// ipv6Pattern returns the pattern of exactly the addresses isIPv6 accepts:
// eight groups, or fewer around one "::", the last two of them possibly
// an IPv4 address.
func ipv6Pattern() string {
	const (
		h    = "[0-9A-Fa-f]{1,4}"
		byt  = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
		ipv4 = "(?:" + byt + "\\.){3}" + byt
	)
	groups := func(n int) string { // n groups, each followed by a colon
		if n == 0 {
			return ""
		}
		return "(?:" + h + ":){" + strconv.Itoa(n) + "}"
	}
	upTo := func(n int) string { // 0 to n groups, each followed by a colon
		if n == 0 {
			return ""
		}
		return "(?:" + h + ":){0," + strconv.Itoa(n) + "}"
	}
	alts := []string{groups(7) + h, groups(6) + ipv4}
	for left := 0; left <= 7; left++ {
		alt := "::"
		if left > 0 {
			alt = groups(left-1) + h + "::"
		}
		// The "::" stands for one group at least: 7-left groups may follow.
		switch right := 7 - left; {
		case right >= 2:
			alt += "(?:" + upTo(right-1) + h + "|" + upTo(right-2) + ipv4 + ")?"
		case right == 1:
			alt += "(?:" + h + ")?"
		}
		alts = append(alts, alt)
	}
	return "(?:" + strings.Join(alts, "|") + ")"
}
