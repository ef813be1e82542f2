package rules

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Most `regex` rules judge a whole string against a character class with
// a count: `^[A-Z0-9-]{3,20}$`, `^[a-z]+$`, `^\d{4}-\d{2}-\d{2}$`,
// `^[a-z][a-z0-9_]*$`. simplePattern matches such a pattern without package
// regexp, several times faster, with exactly its answers: it is built from
// the same parse tree (regexp/syntax with the flags regexp.Compile uses),
// so that every class, escape, dot and case folding holds the runes regexp
// gives it, and it reads the text as regexp does, rune by rune, an invalid
// byte being utf8.RuneError.
//
// The shape: anchored at both ends of the text (^ or \A, then $ or \z:
// without the m flag regexp's $ matches at the end of the text only, not
// before a final newline), and between them a sequence of pieces, each a
// set of runes (a class, \d \w \s and the other escapes, a dot, a literal
// rune, case-folded under (?i)) taken a fixed number of times, of which at
// most one is taken a varying number of times (*, +, ?, {n,m}, {n,}).
// Groups around a piece, or around the whole, are looked through. Any
// other pattern is matched by regexp.

// simplePattern is a pattern of that shape, compiled.
type simplePattern struct {
	head []*runePiece // the pieces before the varying one (all, without one), once per rune they take
	vary *runePiece   // the piece taken a varying number of times, or nil
	tail []*runePiece // the pieces after it, once per rune
	// narrow: no piece's set holds a rune from 0x80 on, so that each rune
	// a match takes is one byte (a pattern without a varying piece then
	// matches strings of exactly len(head) bytes only).
	narrow bool
}

// maxSimpleRunes bounds the runes the fixed pieces of a simple pattern
// take (`^\d{4}-\d{2}$` takes 7); a pattern whose counts add up to more is
// matched by regexp.
const maxSimpleRunes = 256

// runePiece is one piece: a set of runes taken min to max times (max < 0:
// no bound). A literal rune is a set of one, or of its case folds.
type runePiece struct {
	ascii    [256]bool // by byte: the set's runes below 0x80 (a byte from 0x80 on starts a wider rune)
	ranges   []rune    // its runes from 0x80 on, pairs of inclusive bounds, sorted
	allWide  bool      // ranges holds every rune from 0x80 on (a dot, a negated ASCII class)
	min, max int
	// but, for a set of every rune but at most one ASCII byte (a dot:
	// all but '\n'), is that byte, or 0x80 when it holds every rune; -1
	// for any other set. A run of it is then a count of runes and a search
	// for one byte.
	but int
}

// compileSimple returns the pattern as a simplePattern, or nil when it is
// not of the shape.
func compileSimple(pattern string) *simplePattern {
	re, err := syntax.Parse(pattern, syntax.Perl) // as regexp.Compile parses it
	if err != nil {
		return nil
	}
	items := flatten(re, nil)
	if len(items) < 2 || items[0].Op != syntax.OpBeginText || items[len(items)-1].Op != syntax.OpEndText {
		return nil
	}
	var pieces []runePiece
	vary := -1
	for _, it := range items[1 : len(items)-1] {
		switch it.Op {
		case syntax.OpEmptyMatch:
		case syntax.OpLiteral:
			for _, r := range it.Rune {
				pieces = append(pieces, setPiece(literalSet(r, it.Flags), 1, 1))
			}
		case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpNoMatch:
			pieces = append(pieces, setPiece(runesOf(it), 1, 1))
		case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
			sub := unwrap(it.Sub[0])
			set, ok := oneRune(sub)
			if !ok {
				return nil
			}
			lo, hi := repeatBounds(it)
			if lo != hi {
				if vary >= 0 {
					return nil
				}
				vary = len(pieces)
			}
			if hi != 0 {
				pieces = append(pieces, setPiece(set, lo, hi))
			}
		default:
			return nil
		}
	}
	p := &simplePattern{}
	for k := range pieces {
		switch pc := &pieces[k]; {
		case k == vary:
			p.vary = pc
		case vary >= 0 && k > vary:
			p.tail = appendRunes(p.tail, pc)
		default:
			p.head = appendRunes(p.head, pc)
		}
	}
	if len(p.head)+len(p.tail) > maxSimpleRunes {
		return nil
	}
	p.narrow = p.vary == nil || p.vary.narrow()
	for _, pc := range append(slices.Clip(p.head), p.tail...) {
		p.narrow = p.narrow && pc.narrow()
	}
	return p
}

// appendRunes appends the piece once per rune it takes, as far as the
// bound of a simple pattern's runes.
func appendRunes(runes []*runePiece, pc *runePiece) []*runePiece {
	for range min(pc.min, maxSimpleRunes+1) {
		runes = append(runes, pc)
	}
	return runes
}

// flatten appends the items of re's concatenation to items, looking
// through groups.
func flatten(re *syntax.Regexp, items []*syntax.Regexp) []*syntax.Regexp {
	re = unwrap(re)
	if re.Op != syntax.OpConcat {
		return append(items, re)
	}
	for _, sub := range re.Sub {
		items = flatten(sub, items)
	}
	return items
}

// unwrap returns what a group holds.
func unwrap(re *syntax.Regexp) *syntax.Regexp {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	return re
}

// repeatBounds returns the least and most times a repetition takes its
// operand (most < 0: no bound).
func repeatBounds(re *syntax.Regexp) (lo, hi int) {
	switch re.Op {
	case syntax.OpStar:
		return 0, -1
	case syntax.OpPlus:
		return 1, -1
	case syntax.OpQuest:
		return 0, 1
	}
	return re.Min, re.Max
}

// oneRune returns the set of runes re matches when it matches exactly one
// rune: a class, a dot or a single literal rune.
func oneRune(re *syntax.Regexp) ([]rune, bool) {
	switch re.Op {
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpNoMatch:
		return runesOf(re), true
	case syntax.OpLiteral:
		if len(re.Rune) == 1 {
			return literalSet(re.Rune[0], re.Flags), true
		}
	}
	return nil, false
}

// runesOf returns the runes of a class, a dot or a class matching nothing,
// as pairs of inclusive bounds.
func runesOf(re *syntax.Regexp) []rune {
	switch re.Op {
	case syntax.OpAnyChar:
		return []rune{0, unicode.MaxRune}
	case syntax.OpAnyCharNotNL:
		return []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}
	case syntax.OpNoMatch:
		return nil
	}
	return re.Rune
}

// literalSet returns the runes a literal rune matches: itself, and under
// case folding its orbit (regexp matches a folded literal against
// unicode.SimpleFold's orbit of it: k also matches K and the Kelvin sign).
func literalSet(r rune, flags syntax.Flags) []rune {
	if flags&syntax.FoldCase == 0 {
		return []rune{r, r}
	}
	return foldOrbit(r)
}

// setPiece returns the piece of a set of runes (pairs of inclusive bounds,
// sorted, as regexp/syntax gives them) taken least to most times.
func setPiece(ranges []rune, least, most int) runePiece {
	pc := runePiece{min: least, max: most}
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
			pc.ascii[r] = true
		}
		if hi >= utf8.RuneSelf {
			pc.ranges = append(pc.ranges, max(lo, utf8.RuneSelf), hi)
		}
	}
	pc.allWide = len(pc.ranges) == 2 && pc.ranges[0] == utf8.RuneSelf && pc.ranges[1] == unicode.MaxRune
	pc.but = -1
	if pc.allWide {
		pc.but = utf8.RuneSelf
		for c := range utf8.RuneSelf {
			switch {
			case pc.ascii[c]:
			case pc.but == utf8.RuneSelf:
				pc.but = c
			default:
				pc.but = -1
				return pc
			}
		}
	}
	return pc
}

// narrow reports whether the piece's set holds no rune from 0x80 on.
func (pc *runePiece) narrow() bool { return len(pc.ranges) == 0 && !pc.allWide }

// hasWide reports whether the piece's set holds r, a rune from 0x80 on.
func (pc *runePiece) hasWide(r rune) bool {
	rs := pc.ranges
	for len(rs) > 8 { // binary search over pairs, down to a few
		mid := len(rs) / 4 * 2
		switch {
		case r < rs[mid]:
			rs = rs[:mid]
		case r > rs[mid+1]:
			rs = rs[mid+2:]
		default:
			return true
		}
	}
	for i := 0; i+1 < len(rs); i += 2 {
		if r < rs[i] {
			return false
		}
		if r <= rs[i+1] {
			return true
		}
	}
	return false
}

// step matches one rune of the piece's set at s[i], i < len(s), read as
// regexp reads it (an invalid byte is utf8.RuneError, one byte wide), and
// returns the index after it, or -1.
func (pc *runePiece) step(s string, i int) int {
	if pc.ascii[s[i]] {
		return i + 1
	}
	return pc.stepSlow(s, i)
}

// stepSlow is step for a rune the ASCII test did not take.
func (pc *runePiece) stepSlow(s string, i int) int {
	if s[i] < utf8.RuneSelf {
		return -1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	if !pc.allWide && !pc.hasWide(r) {
		return -1
	}
	return i + w
}

// fixed matches a rune of each set at s[i:], and returns the index after
// them, or -1.
func fixed(runes []*runePiece, s string, i int) int {
	for _, pc := range runes {
		if i >= len(s) {
			return -1
		}
		if i = pc.step(s, i); i < 0 {
			return -1
		}
	}
	return i
}

// match reports whether the pattern matches s, as regexp's MatchString
// does.
func (p *simplePattern) match(s string) bool {
	i := 0
	if p.vary == nil && p.narrow { // a byte per piece: the length first, then a table read per byte
		if len(s) != len(p.head) {
			return false
		}
		for j, pc := range p.head {
			if !pc.ascii[s[j]] {
				return false
			}
		}
		return true
	}
	if len(p.head) > 0 {
		if i = fixed(p.head, s, 0); i < 0 {
			return false
		}
	}
	v := p.vary
	if v == nil {
		return i == len(s)
	}
	if len(p.tail) == 0 && v.but >= 0 { // a dot's run to the end: no byte it leaves out, and a count of runes
		rest := s[i:]
		if v.but < utf8.RuneSelf && strings.IndexByte(rest, byte(v.but)) >= 0 {
			return false
		}
		n := utf8.RuneCountInString(rest) // an invalid byte is one rune, U+FFFD, as regexp reads it
		return n >= v.min && (v.max < 0 || n <= v.max)
	}
	if len(p.tail) == 0 { // the varying piece runs to the end
		n := 0
		for ; i < len(s); n++ {
			if i = v.step(s, i); i < 0 {
				return false
			}
		}
		return n >= v.min && (v.max < 0 || n <= v.max)
	}
	// The pieces after it take a known number of runes: the varying one
	// takes the rest.
	n := utf8.RuneCountInString(s[i:]) - len(p.tail)
	if n < v.min || v.max >= 0 && n > v.max {
		return false
	}
	for ; n > 0; n-- {
		if i = v.step(s, i); i < 0 {
			return false
		}
	}
	return fixed(p.tail, s, i) == len(s)
}
