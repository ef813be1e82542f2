package rules

import (
	"regexp"
	"strings"

	"github.com/expose-go/expose/internal/textconv"
)

// ECMAPattern returns pattern, a regex rule's RE2 pattern, written so that
// ECMA-262 (the dialect of JSON Schema's "pattern", with the u flag that
// JSON Schema 2020-12 implementations use) matches exactly the strings RE2
// matches, and true; or "" and false when the pattern uses syntax that has
// no counterpart there or that ECMA-262 reads otherwise.
//
// Most patterns are returned as written. Where the two dialects differ the
// pattern is rewritten to mean what RE2 means:
//
//	.            [^\n]: RE2's dot stops only at \n, ECMA-262's at \r, U+2028 and U+2029 too
//	\s  \S       [\t\n\f\r ] and [^\t\n\f\r ]: RE2's white space is ASCII's, ECMA-262's Unicode's
//	\#  \-  …    # and -: RE2 escapes any punctuation, ECMA-262 with u only its syntax characters
//	a{  x{,3}    a\{ and x\{,3\}: a brace that is no repetition is a literal in RE2, an error in ECMA-262
//	\a           \x07
//
// Refused: flags ((?i), (?s)…), named groups, \A, \z, \Q…\E, \C, Unicode
// classes (\pL, \p{Greek}), POSIX classes ([[:alpha:]]), \x{…}, octal
// escapes, \S inside a class, and a class that starts with ] (a literal in
// RE2, an empty class in ECMA-262). A pattern that RE2 does not compile is
// refused too.
func ECMAPattern(pattern string) (string, bool) {
	if _, err := regexp.Compile(pattern); err != nil {
		return "", false
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\':
			if i+1 >= len(pattern) {
				return "", false
			}
			i++
			esc, ok := ecmaEscape(pattern, &i, inClass)
			if !ok {
				return "", false
			}
			b.WriteString(esc)
		case inClass:
			if c == '[' && strings.HasPrefix(pattern[i:], "[:") {
				return "", false // a POSIX class
			}
			if c == ']' {
				inClass = false
			}
			b.WriteByte(c)
		case c == '[':
			inClass = true
			b.WriteByte(c)
			if strings.HasPrefix(pattern[i+1:], "^") {
				b.WriteByte('^')
				i++
			}
			if strings.HasPrefix(pattern[i+1:], "]") {
				return "", false // RE2's literal ], ECMA-262's empty class
			}
		case c == '.':
			b.WriteString(`[^\n]`)
		case c == '(':
			if strings.HasPrefix(pattern[i+1:], "?") {
				if !strings.HasPrefix(pattern[i+1:], "?:") {
					return "", false // flags or a named group
				}
			}
			b.WriteByte(c)
		case c == '{':
			if n := repetition(pattern[i:]); n > 0 {
				b.WriteString(pattern[i : i+n])
				i += n - 1
			} else {
				b.WriteString(`\{`)
			}
		case c == '}':
			b.WriteString(`\}`)
		case c == ']': // outside a class: a literal ], which ECMA-262 with u wants escaped
			b.WriteString(`\]`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// ecmaEscape returns the ECMA-262 form of the escape whose letter is at
// p[*i] (after the backslash), advancing *i past what it reads.
func ecmaEscape(p string, i *int, inClass bool) (string, bool) {
	c := p[*i]
	switch {
	case strings.IndexByte("dDwWtnrfv", c) >= 0:
		return `\` + string(c), true
	case c == 'b' || c == 'B':
		if inClass {
			return "", false // RE2 refuses \b in a class; ECMA-262 reads a backspace
		}
		return `\` + string(c), true
	case c == 'a':
		return `\x07`, true
	case c == 's':
		if inClass {
			return `\t\n\f\r `, true
		}
		return `[\t\n\f\r ]`, true
	case c == 'S':
		if inClass {
			return "", false
		}
		return `[^\t\n\f\r ]`, true
	case c == 'x':
		if *i+2 < len(p) && isHex(p[*i+1]) && isHex(p[*i+2]) {
			*i += 2
			return `\x` + p[*i-1:*i+1], true
		}
		return "", false // \x{…}
	case strings.IndexByte(`^$\.*+?()[]{}|/`, c) >= 0:
		return `\` + string(c), true
	case c == '-' && inClass:
		return `\-`, true
	case c < 0x80 && !isAlnum(c) && c > ' ' && c != 0x7f:
		return string(c), true // punctuation that needs no escape
	}
	return "", false // \A, \z, \pL, \Q, \C, octal and other letters
}

// repetition returns the length of the repetition {n}, {n,} or {n,m} that s
// starts with, or 0 when s starts with a brace that is a literal in RE2.
func repetition(s string) int {
	i := 1
	digits := func() bool {
		start := i
		for i < len(s) && textconv.IsDigit(s[i]) {
			i++
		}
		return i > start
	}
	if !digits() {
		return 0
	}
	if i < len(s) && s[i] == ',' {
		i++
		digits()
	}
	if i < len(s) && s[i] == '}' {
		return i + 1
	}
	return 0
}
