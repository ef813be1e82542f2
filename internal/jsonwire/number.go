package jsonwire

import (
	"math"
	"strconv"
)

// Numbers: JSON's number grammar, the integer texts a reader needs to tell
// apart, and the spelling encoding/json writes. The integer texts, from the
// loosest to the strictest:
//
//	IsInt             -?digits: "007", "-0" and 30 digits included
//	IsShortInt        the same, at most 15 digits: what a float64 holds exactly
//	IsCanonicalInt    as strconv.FormatInt spells an int64, at most 18 digits
//	ParseCanonicalInt the same ("-0" too), read
//
// (Package textconv parses the looser text that conversions and rules
// accept: fractions truncated, leading zeros, exponents.)

// NumberEnd returns the offset after the number in JSON's grammar that
// begins at s[i:], or -1 when none begins there.
func NumberEnd(s string, i int) int {
	n := len(s)
	if i < n && s[i] == '-' {
		i++
	}
	switch {
	case i < n && s[i] == '0':
		i++
	case i < n && '1' <= s[i] && s[i] <= '9':
		for i++; i < n && IsDigit(s[i]); i++ {
		}
	default:
		return -1
	}
	if i < n && s[i] == '.' {
		i++
		if i == n || !IsDigit(s[i]) {
			return -1
		}
		for i++; i < n && IsDigit(s[i]); i++ {
		}
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i == n || !IsDigit(s[i]) {
			return -1
		}
		for i++; i < n && IsDigit(s[i]); i++ {
		}
	}
	return i
}

// IsNumber reports whether s is a number in JSON's grammar.
func IsNumber(s string) bool { return NumberEnd(s, 0) == len(s) }

// IsNumberStart reports whether c starts a JSON number.
func IsNumberStart(c byte) bool { return c == '-' || c >= '0' && c <= '9' }

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return '0' <= c && c <= '9' }

// IsInt reports whether s is -?digits, with no fraction.
func IsInt[T ~string | ~[]byte](s T) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// IsShortInt reports whether JSON number text is an integer that a float64
// holds exactly (at most 15 digits), so that reading it as an integer gives
// what encoding/json's float64 would.
func IsShortInt[T ~string | ~[]byte](s T) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 15 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// IsCanonicalInt reports whether s is an integer spelled exactly as
// strconv.FormatInt spells it (an optional minus, no leading zero, no "-0",
// at most 18 digits so that it is an int64), so that a number field may
// write s itself instead of parsing and formatting it.
func IsCanonicalInt[T ~string | ~[]byte](s T) bool {
	i := 0
	if len(s) > 0 && s[0] == '-' {
		i = 1
	}
	switch {
	case len(s)-i == 0 || len(s)-i > 18:
		return false
	case s[i] == '0':
		return len(s) == 1
	}
	for ; i < len(s); i++ {
		if s[i]-'0' > 9 {
			return false
		}
	}
	return true
}

// ParseCanonicalInt reads an integer spelled as strconv writes it (the
// text IsCanonicalInt accepts, and "-0"), without strconv's generality; it
// reports false for anything else.
func ParseCanonicalInt[T ~string | ~[]byte](s T) (int64, bool) {
	digits, neg := s, len(s) > 0 && s[0] == '-'
	if neg {
		digits = s[1:]
	}
	if len(digits) == 0 || len(digits) > 18 || digits[0] == '0' && len(digits) > 1 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c-'0' > 9 {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// AppendFloat appends f as encoding/json (and JavaScript) spell it: 0.1,
// 1000000, 1e+21, 1e-7. bits is 32 or 64. f must be finite.
func AppendFloat(dst []byte, f float64, bits int) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}
