package jsonwire

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Unquote returns the text of the JSON string literal q (quotes included)
// exactly as encoding/json decodes it: escapes resolved, a lone or broken
// surrogate and each byte of invalid UTF-8 replaced by U+FFFD. A literal
// without escapes or invalid UTF-8 is returned as a substring.
func Unquote(q string) string {
	s := q[1 : len(q)-1]
	i := 0
	for i < len(s) && s[i] != '\\' && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s
	}
	if strings.IndexByte(s[i:], '\\') < 0 {
		return ValidUTF8(s)
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, s[:i]...)
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			switch e := s[i]; e {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := Hex4(s, i+1)
				i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+2 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
						r2 = Hex4(s, i+3)
					}
					if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
						i += 6
						r = dec
					} else {
						r = unicode.ReplacementChar
					}
				}
				b = utf8.AppendRune(b, r)
			default: // " \ /
				b = append(b, e)
			}
			i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			var size int
			b, size = appendRuneOrFFFD(b, s[i:])
			i += size
		}
	}
	return string(b)
}

// appendRuneOrFFFD appends the first rune of s, or U+FFFD when its first
// byte is not valid UTF-8, and returns how many bytes it read.
func appendRuneOrFFFD(b []byte, s string) ([]byte, int) {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size == 1 {
		return utf8.AppendRune(b, utf8.RuneError), 1
	}
	return append(b, s[:size]...), size
}

// Hex4 reads the four hex digits at s[i:], or -1.
func Hex4(s string, i int) rune {
	if i+4 > len(s) {
		return -1
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// ValidUTF8 returns s with each byte that is not valid UTF-8 replaced by
// U+FFFD, as encoding/json decodes strings. It allocates only when it must.
func ValidUTF8(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) || utf8.ValidString(s[i:]) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, s[:i]...)
	for i < len(s) {
		var size int
		b, size = appendRuneOrFFFD(b, s[i:])
		i += size
	}
	return string(b)
}
