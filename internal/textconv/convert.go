// Package textconv holds the text parsers that package rules and package
// entity share, so that a conversion reads a value exactly as a check
// accepts it: integers (ParseInt truncates a fraction, TruncInt and
// ExactInt read any decimal exactly), floats, booleans, dates and times,
// numbers as times and booleans, and exact decimal comparisons of number
// text (a rule's bounds).
package textconv

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// The parsers in this file are shared by the checks of package rules and by
// the conversions of package entity. They run on the request path: none of
// them allocates when it succeeds, and none uses fmt or regexp.

// ParseInt parses s as a decimal number and returns its integer part,
// truncated toward zero: "12.7" is 12, "-3.9" is -3, "-0.5" is 0.
//
// s must be exactly an optional minus sign, one or more digits, and
// optionally a dot followed by one or more digits. Leading zeros are allowed
// ("007" is 7). A plus sign, an exponent, spaces, a lone dot, "1." and ".5"
// are rejected, as is an integer part outside the range of int64. ParseInt
// does not allocate.
func ParseInt(s string) (int64, bool) {
	i := 0
	neg := false
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	start := i
	// limit is the magnitude of the most negative or most positive int64.
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	var n uint64
	for ; i < len(s) && IsDigit(s[i]); i++ {
		d := uint64(s[i] - '0')
		if n > (limit-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	if i == start {
		return 0, false
	}
	if i < len(s) {
		if s[i] != '.' {
			return 0, false
		}
		i++
		fstart := i
		for i < len(s) && IsDigit(s[i]) {
			i++
		}
		if i == fstart || i != len(s) {
			return 0, false
		}
	}
	if neg {
		return int64(-n), true // two's complement: right for n == 1<<63 too
	}
	return int64(n), true
}

// ParseFloat parses s as a decimal number: an optional minus sign, one or
// more digits, optionally a dot and one or more digits, and optionally an
// exponent ("e" or "E", an optional sign, one or more digits). The result
// must be finite: "1e400" is rejected; a number too small to represent
// becomes zero. Like ParseInt it rejects "+1", ".5", "1.", spaces, "Inf" and
// "NaN". ParseFloat does not allocate when it succeeds.
func ParseFloat(s string) (float64, bool) {
	if !isDecimal(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// isDecimal reports whether s matches -?digits(.digits)?([eE][+-]?digits)?.
func isDecimal(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	n := SkipDigits(s, i)
	if n == i {
		return false
	}
	i = n
	if i < len(s) && s[i] == '.' {
		n = SkipDigits(s, i+1)
		if n == i+1 {
			return false
		}
		i = n
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n = SkipDigits(s, i)
		if n == i {
			return false
		}
		i = n
	}
	return i == len(s)
}

// ParseBool parses "true", "on" and "1" as true and "false", "off" and "0"
// as false, ignoring case. It does not allocate.
func ParseBool(s string) (bool, bool) {
	switch len(s) {
	case 1:
		switch s[0] {
		case '1':
			return true, true
		case '0':
			return false, true
		}
	case 2:
		if strings.EqualFold(s, "on") {
			return true, true
		}
	case 3:
		if strings.EqualFold(s, "off") {
			return false, true
		}
	case 4:
		if strings.EqualFold(s, "true") {
			return true, true
		}
	case 5:
		if strings.EqualFold(s, "false") {
			return false, true
		}
	}
	return false, false
}

// ParseTime parses a date or a date and time and returns it in UTC. It
// accepts
//
//	2006-01-02T15:04:05Z07:00            RFC 3339, with an optional fraction of a second
//	2006-01-02 15:04:05                  UTC, with an optional fraction of a second
//	2006-01-02, 2006-1-2                 midnight UTC
//	2006/01/02, 2006/1/2                 midnight UTC
//
// The RFC 3339 form is read as time.Parse reads time.RFC3339Nano, digits
// beyond the ninth of the fraction ignored, except that "T" and "Z" may be
// written in lower case, as RFC 3339 allows (section 5.6). The
// year has four digits; in the date-only forms the month and day have one
// or two digits and both separators are the same. The date must exist
// (2023-02-30 is rejected), hours run from 00 to 23, minutes and seconds
// from 00 to 59. ParseTime does not allocate.
func ParseTime(s string) (time.Time, bool) {
	if len(s) <= len("2006-01-02") {
		y, m, d, ok := ParseDate(s)
		if !ok {
			return time.Time{}, false
		}
		return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC), true
	}
	if len(s) < len("2006-01-02T15:04:05") {
		return time.Time{}, false
	}
	y, m, d, ok := ParseDate(s[:10])
	if !ok || s[4] != '-' || s[7] != '-' {
		return time.Time{}, false
	}
	sep := s[10]
	if sep != 'T' && sep != 't' && sep != ' ' {
		return time.Time{}, false
	}
	hh, ok1 := TwoDigits(s[11:13], 23)
	mi, ok2 := TwoDigits(s[14:16], 59)
	ss, ok3 := TwoDigits(s[17:19], 59)
	if !ok1 || !ok2 || !ok3 || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	rest := s[19:]
	ns := 0
	if len(rest) > 0 && rest[0] == '.' {
		n := SkipDigits(rest, 1)
		if n == 1 {
			return time.Time{}, false
		}
		for i := 1; i < 10; i++ {
			ns *= 10
			if i < n {
				ns += int(rest[i] - '0')
			}
		}
		rest = rest[n:]
	}
	offset := 0
	if sep != ' ' {
		switch {
		case rest == "Z" || rest == "z":
		case len(rest) == len("-07:00") && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
			oh, ok1 := TwoDigits(rest[1:3], 23)
			om, ok2 := TwoDigits(rest[4:6], 59)
			if !ok1 || !ok2 {
				return time.Time{}, false
			}
			offset = (oh*60 + om) * 60
			if rest[0] == '-' {
				offset = -offset
			}
		default:
			return time.Time{}, false
		}
	} else if rest != "" {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, hh, mi, ss, ns, time.UTC)
	if offset != 0 {
		t = t.Add(-time.Duration(offset) * time.Second)
	}
	return t, true
}

// parseDate parses a whole date as YYYY-M-D or YYYY/M/D, where the month
// and day have one or two digits and both separators are the same, and
// reports whether it names a day of the proleptic Gregorian calendar.
func ParseDate(s string) (year, month, day int, ok bool) {
	if len(s) < len("2006-1-2") || len(s) > len("2006-01-02") {
		return 0, 0, 0, false
	}
	for i := range 4 {
		if !IsDigit(s[i]) {
			return 0, 0, 0, false
		}
		year = year*10 + int(s[i]-'0')
	}
	sep := s[4]
	if sep != '-' && sep != '/' {
		return 0, 0, 0, false
	}
	month, i := OneOrTwoDigits(s, 5)
	if i < 0 || i >= len(s) || s[i] != sep {
		return 0, 0, 0, false
	}
	day, i = OneOrTwoDigits(s, i+1)
	if i != len(s) {
		return 0, 0, 0, false
	}
	if month < 1 || month > 12 || day < 1 || day > daysIn(month, year) {
		return 0, 0, 0, false
	}
	return year, month, day, true
}

// oneOrTwoDigits reads one or two digits of s at i. It returns their value
// and the index after them, or -1 when s has no digit at i.
func OneOrTwoDigits(s string, i int) (int, int) {
	if i >= len(s) || !IsDigit(s[i]) {
		return 0, -1
	}
	n := int(s[i] - '0')
	i++
	if i < len(s) && IsDigit(s[i]) {
		n = n*10 + int(s[i]-'0')
		i++
	}
	return n, i
}

// twoDigits parses exactly two digits and checks that they are at most max.
func TwoDigits(s string, max int) (int, bool) {
	if len(s) != 2 || !IsDigit(s[0]) || !IsDigit(s[1]) {
		return 0, false
	}
	n := int(s[0]-'0')*10 + int(s[1]-'0')
	return n, n <= max
}

// daysIn returns the number of days of a month (1–12) in a year.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func IsDigit(c byte) bool { return '0' <= c && c <= '9' }

// skipDigits returns the index of the first non-digit of s at or after i.
func SkipDigits(s string, i int) int {
	for i < len(s) && IsDigit(s[i]) {
		i++
	}
	return i
}

// IntToTime reads ms as milliseconds since the Unix epoch, as JavaScript's
// Date does, and returns the time in UTC. Every int64 is a time.
func IntToTime(ms int64) time.Time {
	return time.UnixMilli(ms).UTC()
}

// FloatToTime reads f as milliseconds since the Unix epoch, as JavaScript's
// Date does: the fraction of a millisecond is dropped (truncated toward
// zero). It returns the time in UTC, and false when f is NaN, infinite or,
// once truncated, outside the range of int64 (so that it agrees with
// IntToTime).
func FloatToTime(f float64) (time.Time, bool) {
	if math.IsNaN(f) {
		return time.Time{}, false
	}
	t := math.Trunc(f)
	// -1<<63 is exact in float64; 1<<63 is the first float above MaxInt64.
	if t < -(1<<63) || t >= 1<<63 {
		return time.Time{}, false // also ±Inf
	}
	return time.UnixMilli(int64(t)).UTC(), true
}

// IntToBool reads 1 as true and 0 as false; any other number is not a
// boolean.
func IntToBool(n int64) (bool, bool) {
	switch n {
	case 1:
		return true, true
	case 0:
		return false, true
	}
	return false, false
}

// FloatToBool reads 1 as true and 0 (or -0) as false; any other number,
// NaN included, is not a boolean.
func FloatToBool(f float64) (bool, bool) {
	switch f {
	case 1:
		return true, true
	case 0:
		return false, true
	}
	return false, false
}
