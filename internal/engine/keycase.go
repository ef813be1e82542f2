package engine

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// KeyCase is a registry's key case style (package entity's KeyCaseStyle,
// whose doc says what each does): the values are the same.
type KeyCase uint8

// The key case styles.
const (
	AsDeclared KeyCase = iota
	CamelCase
	SnakeCase
	KebabCase
	PascalCase
)

var keyCaseNames = [...]string{"AsDeclared", "CamelCase", "SnakeCase", "KebabCase", "PascalCase"}

// String returns the style's name, such as "CamelCase".
func (s KeyCase) String() string {
	if int(s) < len(keyCaseNames) {
		return keyCaseNames[s]
	}
	return "KeyCaseStyle(" + strconv.Itoa(int(s)) + ")"
}

// Valid reports whether s is one of the styles above.
func (s KeyCase) Valid() bool { return int(s) < len(keyCaseNames) }

// caseKey returns the output key of the declared name in style.
func caseKey(name string, style KeyCase) string {
	if style == AsDeclared || !style.Valid() {
		return name
	}
	sep := byte(0)
	switch style {
	case SnakeCase:
		sep = '_'
	case KebabCase:
		sep = '-'
	}
	b := make([]byte, 0, len(name)+4)
	words := 0
	forEachWord(name, func(w string) {
		if words > 0 && sep != 0 {
			b = append(b, sep)
		}
		capFirst := style == PascalCase || style == CamelCase && words > 0
		b = appendWord(b, w, capFirst)
		words++
	})
	if words == 0 {
		return name
	}
	return string(b)
}

// forEachWord calls f with each word of name, in order; see package
// entity's KeyCaseStyle.
func forEachWord(name string, f func(w string)) {
	start := -1 // start of the current word, or -1 between words
	prevLowOrDigit := false
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		switch {
		case r == '_' || r == '-':
			if start >= 0 {
				f(name[start:i])
				start = -1
			}
			prevLowOrDigit = false
		case prevLowOrDigit && (unicode.IsUpper(r) || unicode.IsTitle(r)):
			f(name[start:i])
			start = i
			prevLowOrDigit = false
		default:
			if start < 0 {
				start = i
			}
			prevLowOrDigit = unicode.IsLower(r) || unicode.IsDigit(r)
		}
		i += size
	}
	if start >= 0 {
		f(name[start:])
	}
}

// appendWord appends w lower-cased, its first letter upper-cased if
// capFirst. Bytes of invalid UTF-8 are copied as they are.
func appendWord(b []byte, w string, capFirst bool) []byte {
	first := true
	for i := 0; i < len(w); {
		r, size := utf8.DecodeRuneInString(w[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, w[i])
		} else if first && capFirst {
			b = utf8.AppendRune(b, unicode.ToTitle(r))
		} else {
			b = utf8.AppendRune(b, unicode.ToLower(r))
		}
		first = false
		i += size
	}
	return b
}
