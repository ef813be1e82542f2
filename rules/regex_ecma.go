package rules

import (
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The regex rule's pattern in a JSON Schema: a "pattern" is ECMA-262
// syntax, compiled with the u flag by JSON Schema 2020-12 validators (ajv
// and the others written in JavaScript), and as RE2 by validators written in
// Go. ecmaPattern writes a rule's RE2 pattern again from its parse tree
// (regexp/syntax, the parser regexp.Compile uses), in the syntax the two
// dialects read alike, so that both match exactly the strings the rule
// matches:
//
//   - every character class is written as the runes RE2 puts in it: \s,
//     \d, \w, [[:alpha:]], \pL and case folding are spelled out, so that
//     [\s-z] (white space, "-" and "z" in RE2) and [\w-.] (which ECMA-262
//     with u refuses) mean in the schema what they mean in the rule;
//   - the dot is [^\n] (ECMA-262's stops at \r, U+2028 and U+2029 too);
//   - (?i) is spelled out as classes ([aA]), (?s)'s dot is [\s\S];
//   - groups are (?:…) (RE2 has no back-references, so nothing is lost),
//     \A and \z are ^ and $ (neither dialect's $ matches before a final
//     newline without the m flag);
//   - literal characters that either dialect reads as syntax are escaped,
//     controls written \t, \n, \r, \f, \v or \xHH, other characters as
//     themselves.
//
// What has no such form is refused, with the reason: the line anchors of
// (?m), which ECMA-262 can only write with a flag or a look-behind that RE2
// does not have, and a pattern whose spelled-out form is longer than
// maxECMALen (large Unicode classes).

// maxECMALen bounds the length in bytes of a pattern ecmaPattern writes.
const maxECMALen = 8 << 10

// ecmaPattern returns pattern, an RE2 pattern, in the syntax RE2 and
// ECMA-262 (with the u flag) read alike, meaning in both what it means in
// RE2; or "" and why it has none. nested reports a repetition inside a
// repetition ((a+)+), which backtracking validators, ECMA-262's among
// them, may take exponential time on.
func ecmaPattern(pattern string) (p string, nested bool, why string) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false, "it is not RE2 syntax"
	}
	w := ecmaWriter{}
	w.node(re)
	if w.why != "" {
		return "", false, w.why
	}
	if w.b.Len() > maxECMALen {
		return "", false, "written out for ECMA-262 it is longer than " + strconv.Itoa(maxECMALen) + " bytes"
	}
	return w.b.String(), nestedRepeat(re, false), ""
}

// ecmaWriter writes a parse tree in the syntax RE2 and ECMA-262 share.
type ecmaWriter struct {
	b   strings.Builder
	why string // why the tree has no such form
}

func (w *ecmaWriter) node(re *syntax.Regexp) {
	if w.why != "" || w.b.Len() > maxECMALen {
		return
	}
	switch re.Op {
	case syntax.OpNoMatch:
		w.b.WriteString(`[^\x00-` + string(unicode.MaxRune) + `]`)
	case syntax.OpEmptyMatch:
		w.b.WriteString("(?:)")
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				if fold := foldOrbit(r); len(fold) > 2 {
					w.class(fold)
					continue
				}
			}
			w.literal(r, false)
		}
	case syntax.OpCharClass:
		w.class(re.Rune)
	case syntax.OpAnyCharNotNL:
		w.b.WriteString(`[^\n]`)
	case syntax.OpAnyChar:
		w.b.WriteString(`[\s\S]`)
	case syntax.OpBeginLine, syntax.OpEndLine:
		w.why = "its line anchors ((?m) ^ or $) have no ECMA-262 form without a flag"
	case syntax.OpBeginText:
		w.b.WriteByte('^')
	case syntax.OpEndText:
		w.b.WriteByte('$')
	case syntax.OpWordBoundary:
		w.b.WriteString(`\b`)
	case syntax.OpNoWordBoundary:
		w.b.WriteString(`\B`)
	case syntax.OpCapture:
		w.b.WriteString("(?:")
		w.node(re.Sub[0])
		w.b.WriteByte(')')
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		w.atom(re.Sub[0])
		switch re.Op {
		case syntax.OpStar:
			w.b.WriteByte('*')
		case syntax.OpPlus:
			w.b.WriteByte('+')
		case syntax.OpQuest:
			w.b.WriteByte('?')
		default:
			w.b.WriteByte('{')
			w.b.WriteString(strconv.Itoa(re.Min))
			if re.Max != re.Min {
				w.b.WriteByte(',')
				if re.Max >= 0 {
					w.b.WriteString(strconv.Itoa(re.Max))
				}
			}
			w.b.WriteByte('}')
		}
		if re.Flags&syntax.NonGreedy != 0 {
			w.b.WriteByte('?')
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if sub.Op == syntax.OpAlternate {
				w.group(sub)
			} else {
				w.node(sub)
			}
		}
	case syntax.OpAlternate:
		for i, sub := range re.Sub {
			if i > 0 {
				w.b.WriteByte('|')
			}
			w.node(sub)
		}
	default:
		w.why = "it uses syntax ECMA-262 has no form of"
	}
}

// atom writes re as the operand of a repetition: grouped unless it is one
// character, one class or a group already.
func (w *ecmaWriter) atom(re *syntax.Regexp) {
	switch {
	case re.Op == syntax.OpLiteral && len(re.Rune) == 1,
		re.Op == syntax.OpCharClass, re.Op == syntax.OpAnyChar, re.Op == syntax.OpAnyCharNotNL,
		re.Op == syntax.OpCapture:
		w.node(re)
	default:
		w.group(re)
	}
}

func (w *ecmaWriter) group(re *syntax.Regexp) {
	w.b.WriteString("(?:")
	w.node(re)
	w.b.WriteByte(')')
}

// foldOrbit returns the class (pairs of bounds) of the runes that r
// matches without case: r and its simple case folds.
func foldOrbit(r rune) []rune {
	runes := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		runes = append(runes, f)
	}
	for i := 1; i < len(runes); i++ { // a handful: insertion sort
		for j := i; j > 0 && runes[j] < runes[j-1]; j-- {
			runes[j], runes[j-1] = runes[j-1], runes[j]
		}
	}
	out := make([]rune, 0, 2*len(runes))
	for _, r := range runes {
		out = append(out, r, r)
	}
	return out
}

// class writes a character class of the ranges (pairs of inclusive
// bounds, sorted, as regexp/syntax gives them): negated when that is
// shorter, which it is for a class that holds both the first and the last
// rune.
func (w *ecmaWriter) class(ranges []rune) {
	ranges = withoutSurrogates(ranges)
	switch {
	case len(ranges) == 0:
		w.b.WriteString(`[^\x00-` + string(unicode.MaxRune) + `]`)
		return
	case len(ranges) == 2 && ranges[0] == 0 && ranges[1] == unicode.MaxRune:
		w.b.WriteString(`[\s\S]`)
		return
	case len(ranges) == 2 && ranges[0] == ranges[1]:
		w.literal(ranges[0], false)
		return
	}
	w.b.WriteByte('[')
	if ranges[0] == 0 && ranges[len(ranges)-1] == unicode.MaxRune {
		w.b.WriteByte('^')
		ranges = complement(ranges)
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		w.literal(lo, true)
		switch {
		case hi == lo:
		case hi == lo+1:
			w.literal(hi, true)
		default:
			w.b.WriteByte('-')
			w.literal(hi, true)
		}
	}
	w.b.WriteByte(']')
}

// withoutSurrogates returns ranges without the surrogate code points,
// which no UTF-8 text holds and no pattern can write as themselves.
func withoutSurrogates(ranges []rune) []rune {
	const lo, hi = 0xD800, 0xDFFF
	out := make([]rune, 0, len(ranges)+2)
	for i := 0; i+1 < len(ranges); i += 2 {
		a, b := ranges[i], ranges[i+1]
		if b < lo || a > hi {
			out = append(out, a, b)
			continue
		}
		if a < lo {
			out = append(out, a, lo-1)
		}
		if b > hi {
			out = append(out, hi+1, b)
		}
	}
	return out
}

// complement returns the runes not in ranges, which holds the first and the
// last rune (and no surrogate), without the surrogates.
func complement(ranges []rune) []rune {
	var out []rune
	for i := 1; i+1 < len(ranges); i += 2 {
		out = append(out, ranges[i]+1, ranges[i+1]-1)
	}
	return withoutSurrogates(out)
}

// literal writes r as a literal character, escaped where either dialect
// reads it as syntax, in a class or out of one.
func (w *ecmaWriter) literal(r rune, inClass bool) {
	switch {
	case r == '\t':
		w.b.WriteString(`\t`)
	case r == '\n':
		w.b.WriteString(`\n`)
	case r == '\r':
		w.b.WriteString(`\r`)
	case r == '\f':
		w.b.WriteString(`\f`)
	case r == '\v':
		w.b.WriteString(`\v`)
	case r < ' ' || r == 0x7f || 0x80 <= r && r <= 0x9f:
		w.b.WriteString(`\x`)
		w.b.WriteByte("0123456789ABCDEF"[r>>4])
		w.b.WriteByte("0123456789ABCDEF"[r&15])
	case inClass && strings.ContainsRune(`\]^-[`, r), !inClass && strings.ContainsRune(`\^$.|?*+()[]{}/`, r):
		w.b.WriteByte('\\')
		w.b.WriteRune(r)
	case r >= utf8.RuneSelf && !utf8.ValidRune(r):
		w.b.WriteRune(utf8.RuneError)
	default:
		w.b.WriteRune(r)
	}
}

// nestedRepeat reports whether re holds a repetition that may repeat a
// repetition of variable length ((a+)+, (a|b*)*, (x{1,3})+). in says that
// re is inside a repetition already.
func nestedRepeat(re *syntax.Regexp, in bool) bool {
	repeats := false
	switch re.Op {
	case syntax.OpStar, syntax.OpPlus:
		repeats = true
	case syntax.OpRepeat:
		repeats = re.Max < 0 || re.Max > re.Min || re.Max > 1
	}
	variable := re.Op == syntax.OpStar || re.Op == syntax.OpPlus || re.Op == syntax.OpRepeat && re.Max != re.Min
	if in && variable {
		return true
	}
	for _, sub := range re.Sub {
		if nestedRepeat(sub, in || repeats) {
			return true
		}
	}
	return false
}
