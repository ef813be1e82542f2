package dsl

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenKind is the kind of a token in a rules string.
type tokenKind uint8

const (
	tokWord   tokenKind = iota // a bare word: a rule name or an unquoted argument
	tokQuoted                  // a quoted argument, quotes removed
	tokPipe                    // the rule separator |
	tokEOF
)

// token is one lexeme of a rules string with its byte offset.
type token struct {
	kind tokenKind
	text string
	off  int
}

// lexError is a syntax error at a byte offset of a rules string.
type lexError struct {
	off int
	msg string
}

// lexRules splits a rules string into tokens. Words are runs of anything but
// white space, `|` and a leading quote; white space is what unicode.IsSpace
// says it is, the same as strings.TrimSpace, which Parse uses on names and
// types. A quoted argument starts with ' or " and ends at the same quote; a
// doubled quote inside stands for one quote. There are no backslash escapes,
// so regular expressions are written as they are:
//
//	msg 'it''s' | regex '^a\d+$'
//
// On a syntax error lexRules returns the tokens read before it, without the
// final tokEOF.
func lexRules(s string) ([]token, *lexError) {
	toks, _, err := scanRules(s, false)
	return toks, err
}

// rulesEnd returns where the rules column of a file's line ends: at the
// first "#" that starts a token outside quotes (a comment), or at the end
// of s. It reads s as lexRules does, so that a "#" inside a quoted
// argument or inside a word ("a#b") starts no comment.
func rulesEnd(s string) int {
	_, end, _ := scanRules(s, true)
	return end
}

// scanRules is lexRules; with comments set it stops at a "#" that starts
// a token and returns its offset as end (len(s) when there is none). On
// an unclosed quote end is len(s).
func scanRules(s string, comments bool) (toks []token, end int, err *lexError) {
	i := 0
	for i < len(s) {
		c := s[i]
		if n := spaceAt(s, i); n > 0 {
			i += n
			continue
		}
		switch {
		case c == '#' && comments:
			return toks, i, nil
		case c == '|':
			toks = append(toks, token{tokPipe, "|", i})
			i++
		case c == '\'' || c == '"':
			text, next, err := lexQuoted(s, i)
			if err != nil {
				return toks, len(s), err
			}
			toks = append(toks, token{tokQuoted, text, i})
			i = next
		default:
			start := i
			for i < len(s) && s[i] != '|' && spaceAt(s, i) == 0 {
				i++
			}
			toks = append(toks, token{tokWord, s[start:i], start})
		}
	}
	toks = append(toks, token{tokEOF, "", len(s)})
	return toks, len(s), nil
}

// spaceAt returns the length in bytes of the white space rune at s[i], or 0
// when s[i] does not start one.
func spaceAt(s string, i int) int {
	if c := s[i]; c < utf8.RuneSelf {
		if c == ' ' || ('\t' <= c && c <= '\r') {
			return 1
		}
		return 0
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if unicode.IsSpace(r) {
		return n
	}
	return 0
}

// hasSpace reports whether s holds a white space rune as lexRules sees it.
func hasSpace(s string) bool {
	return strings.IndexFunc(s, unicode.IsSpace) >= 0
}

// lexQuoted reads the quoted string that starts at s[start] and returns its
// text and the offset just past its closing quote.
func lexQuoted(s string, start int) (string, int, *lexError) {
	q := s[start]
	var buf []byte // nil until a doubled quote forces a copy
	seg := start + 1
	for i := start + 1; i < len(s); i++ {
		if s[i] != q {
			continue
		}
		if i+1 < len(s) && s[i+1] == q {
			buf = append(buf, s[seg:i+1]...)
			i++
			seg = i + 1
			continue
		}
		if buf == nil {
			return s[start+1 : i], i + 1, nil
		}
		buf = append(buf, s[seg:i]...)
		return string(buf), i + 1, nil
	}
	return "", 0, &lexError{start, fmt.Sprintf("unclosed quote %c", q)}
}
