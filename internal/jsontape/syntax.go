package jsontape

import (
	"strconv"

	"github.com/expose-go/expose/internal/jsonwire"
)

// SyntaxError returns the offset of the first byte at which b stops being
// JSON, and what JSON wanted there, for text that Scan refused with code
// at offset off. The offset is len(b) when the text ends too soon, else
// the first byte that no valid JSON text could have there: the byte after
// the one that encoding/json's SyntaxError.Offset counts up to. It runs
// only on failure: for the refined codes it walks again, byte by byte, the
// one token that Scan found invalid.
func SyntaxError(b string, code Code, off int) (int, string) {
	switch code {
	case codeBadString:
		off, code = badString(b, off)
	case codeBadNumber:
		off, code = badNumber(b, off)
	case codeBadLiteral:
		word := "null"
		switch b[off] {
		case 't':
			word = "true"
		case 'f':
			word = "false"
		}
		for j := 0; j < len(word); j, off = j+1, off+1 {
			if off == len(b) {
				return off, "unexpected end of input"
			}
			if b[off] != word[j] {
				return off, "invalid literal, expected " + word
			}
		}
	}
	if off >= len(b) {
		return len(b), "unexpected end of input"
	}
	if code == TooDeep {
		return off, "nested deeper than " + strconv.Itoa(MaxNesting) + " levels"
	}
	return off, reasons[code]
}

// Reasons returns every reason SyntaxError can give, so that a catalog of
// their translations can be checked against it.
func Reasons() []string {
	var rs []string
	for _, r := range reasons {
		if r != "" {
			rs = append(rs, r)
		}
	}
	return append(rs, "invalid literal, expected true", "invalid literal, expected false", "invalid literal, expected null",
		"nested deeper than "+strconv.Itoa(MaxNesting)+" levels")
}

// reasons says what JSON wanted where Scan, or SyntaxError's walks,
// stopped with each code.
var reasons = [...]string{
	OK:              "",
	TooDeep:         "nested too deep",
	TooLarge:        "too large to read",
	codeEOF:         "unexpected end of input",
	codeWantKey:     "expected a string key",
	codeWantColon:   "expected ':' after the key",
	codeWantObjNext: "expected ',' or '}'",
	codeWantArrNext: "expected ',' or ']'",
	codeWantEnd:     "expected the end of input after the value",
	codeBadString:   "invalid escape",
	codeBadNumber:   "invalid number",
	codeBadLiteral:  "invalid literal",
	codeBadControl:  "unescaped control character in a string",
	codeWantValue:   "expected a value",
}

// badString returns where and why the string literal at b[i:], which
// Scan refused, is invalid: codeEOF, codeBadString (an escape) or
// codeBadControl.
func badString(b string, i int) (int, Code) {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c < 0x20:
			return i, codeBadControl
		case c == '\\':
			if i++; i == len(b) {
				return i, codeEOF
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for j := 0; j < 4; j++ {
					if i++; i == len(b) {
						return i, codeEOF
					}
					if !isHex(b[i]) {
						return i, codeBadString
					}
				}
			default:
				return i, codeBadString
			}
		case c == '"':
			return i, OK // not reached: Scan accepted the literal
		}
	}
	return i, codeEOF
}

// badNumber returns where and why the value at b[i:], which Scan refused
// as a number, is invalid: codeWantValue when no value begins there,
// codeBadNumber or codeEOF within a number.
func badNumber(b string, i int) (int, Code) {
	if b[i] != '-' && !jsonwire.IsDigit(b[i]) {
		return i, codeWantValue
	}
	if b[i] == '-' {
		i++
	}
	digits := func() (int, Code) { // one digit at least, then more
		if i == len(b) {
			return i, codeEOF
		}
		if !jsonwire.IsDigit(b[i]) {
			return i, codeBadNumber
		}
		for i < len(b) && jsonwire.IsDigit(b[i]) {
			i++
		}
		return i, OK
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if end, code := digits(); code != OK {
		return end, code
	}
	if i < len(b) && b[i] == '.' {
		i++
		if end, code := digits(); code != OK {
			return end, code
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if end, code := digits(); code != OK {
			return end, code
		}
	}
	return i, OK // not reached: Scan accepted the number
}

func isHex(c byte) bool {
	return jsonwire.IsDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
