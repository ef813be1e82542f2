package jsonwire

import (
	"time"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// AppendString appends s as a quoted JSON string, exactly as json.Marshal
// writes it: HTML-safe (<, > and & escaped), U+2028 and U+2029 escaped,
// each byte of invalid UTF-8 replaced with \ufffd.
func AppendString(dst []byte, s string) []byte {
	var i int // the first byte to escape, or len(s)
	if len(s) < 8 {
		i = plainBytes(s, 0, StopHTML) // no word to scan: not worth a call
	} else {
		i = Plain(s, 0, StopHTML)
	}
	dst = append(dst, '"')
	if i == len(s) {
		dst = append(dst, s...)
		return append(dst, '"')
	}
	return appendStringSlow(dst, s, i)
}

// appendStringSlow goes on with a string from its first byte that is not
// plain, s[i]; dst already holds the opening quote.
func appendStringSlow(dst []byte, s string, i int) []byte {
	start := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if !stopBytes[StopHTML][c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendTime appends t as a quoted RFC 3339 string with nanoseconds, as
// time.Time.MarshalJSON does.
func AppendTime(dst []byte, t time.Time) []byte {
	dst = append(dst, '"')
	dst = t.AppendFormat(dst, time.RFC3339Nano)
	return append(dst, '"')
}
