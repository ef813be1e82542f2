package rules

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

// Patterns for exactly the strings the rules accept, but urlPattern, which
// every URL that url accepts matches (the library's host, port and IPv6
// checks are not written as a pattern).
var (
	urlPattern = "^[Hh][Tt][Tt][Pp][Ss]?://[^/?#" + notPrintable + "]+(?:[/?#][^" + notPrintable + "]*)?$"

	emailPattern = "^[^@" + notPrintable + "]+@" +
		"(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$"

	datePattern = "^(?:" + dateBody("-", "0?") + "|" + dateBody("/", "0?") + ")$"

	clockPattern = "^(?:[01]?[0-9]|2[0-3]):[0-5][0-9]$"

	// ParseTime's forms: a date alone, or an RFC 3339 date and time, or a
	// date and time with a space and no offset.
	timestampPattern = "^(?:" + dateBody("-", "0?") + "|" + dateBody("/", "0?") + "|" +
		dateBody("-", "0") + "(?:[Tt]" + hms + "(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])| " + hms + "))$"

	// ParseFloat's and ParseInt's form. ParseFloat also rejects a number
	// too large for a float64 ("1e400"), which no pattern says.
	decimalPattern = "^-?[0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$"

	// ParseBool's words, in any case.
	boolPattern = "^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[Oo][Nn]|[Oo][Ff][Ff]|1|0)$"
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
	// url: format uri says an absolute URI; the pattern adds http or https
	// and a host.
	urlSample, urlSchema = formatHooks("https://example.com/", map[string]any{"format": "uri", "pattern": urlPattern})
	// email: format email (RFC 5321) differs from the library's rule both
	// ways (quoted local parts, non-ASCII local parts); the pattern is the
	// rule exactly.
	emailSample, emailSchema = formatHooks("user@example.com", map[string]any{"format": "email", "pattern": emailPattern})
	// date and time: format date and time are RFC 3339's, stricter than
	// the rules' (2024/1/5, 9:30), so only the pattern is given.
	dateSample, dateSchema   = formatHooks("2024-01-15", map[string]any{"pattern": datePattern})
	clockSample, clockSchema = formatHooks("12:30", map[string]any{"pattern": clockPattern})
)
