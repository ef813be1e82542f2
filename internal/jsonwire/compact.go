package jsonwire

import (
	"errors"
	"unicode/utf8"
)

// ErrDepth is AppendCompact's error for text nested deeper than it may
// be; package entity reports it as its own ErrDepth.
var ErrDepth = errors.New("jsonwire: nesting too deep")

// AppendCompact appends valid JSON text without its insignificant white
// space, as json.Marshal writes a json.RawMessage: strings are copied as
// they are, escapes included, except that <, > and & and U+2028 and U+2029
// are escaped (encoding/json's HTML-safe output); and each byte of invalid
// UTF-8, which json.Marshal would copy, becomes \ufffd, as it does in the
// strings json.Marshal writes, so that the output is valid UTF-8.
//
// depth is the nesting left: text nested deeper fails with ErrDepth, as the
// same value decoded into maps would.
func AppendCompact(dst []byte, text string, depth int) ([]byte, error) {
	start, level := 0, 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case ' ', '\t', '\n', '\r':
			dst = append(dst, text[start:i]...)
			start = i + 1
		case '[', '{':
			if level++; level > depth {
				return dst, ErrDepth
			}
		case ']', '}':
			level--
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				switch c := text[i]; {
				case c == '\\':
					i++
				case c == '<' || c == '>' || c == '&':
					dst = append(dst, text[start:i]...)
					dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
					start = i + 1
				case c >= utf8.RuneSelf:
					r, size := utf8.DecodeRuneInString(text[i:])
					switch {
					case r == utf8.RuneError && size == 1:
						dst = append(dst, text[start:i]...)
						dst = append(dst, `\ufffd`...)
						start = i + 1
					case r == '\u2028' || r == '\u2029':
						dst = append(dst, text[start:i]...)
						dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
						start = i + size
						i += size - 1
					default:
						i += size - 1
					}
				}
			}
		}
	}
	return append(dst, text[start:]...), nil
}
