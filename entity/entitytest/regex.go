package entitytest

import (
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// regexSamples returns strings generated from a regex pattern that are
// likely to match it, for lengths between lo and hi runes: each repetition
// taken a few different numbers of times, then padded to lo where too short
// (after or before it, joined or apart).
// The caller checks them: a word boundary, or an anchor in the middle, can
// make one fail.
func regexSamples(pattern string, lo, hi int) []string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	var out []string
	seen := make(map[string]bool)
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	reps := []int{1, 0, 2, 3, 5, 8}
	if lo > 0 {
		reps = append(reps, lo)
	}
	if hi < maxSampleLen {
		reps = append(reps, hi)
	}
	for _, rep := range reps {
		s, ok := generate(re, rep, 0, maxRegexSample)
		if !ok {
			continue
		}
		add(s)
		if n := utf8.RuneCountInString(s); n < lo {
			pad := strings.Repeat("a", lo-n)
			add(s + pad)
			add(pad + s)
			// Apart, for a pattern that ends at a word boundary.
			add(s + " " + pad[1:])
			add(pad[1:] + " " + s)
		}
	}
	return out
}

// maxGenDepth bounds the recursion of generate over a parsed pattern.
const maxGenDepth = 100

// maxRegexSample bounds the bytes of one string that generate builds, in
// all: nested repetitions ((a*)*)* multiply, so each level's count is cut to
// what the budget left allows, not to a bound of its own.
const maxRegexSample = maxSampleLen * utf8.UTFMax

// generate returns a string that re matches, with each repetition (*, +, ?
// and {n,m}) taken rep times as far as its bounds and the budget of bytes
// allow, and false when it finds none (an empty character class) or none
// within budget bytes. A repetition cut short by the budget may give a
// string that re does not match; the caller checks.
func generate(re *syntax.Regexp, rep, depth, budget int) (string, bool) {
	if depth > maxGenDepth {
		return "", false
	}
	switch re.Op {
	case syntax.OpNoMatch:
		return "", false
	case syntax.OpLiteral:
		return within(string(re.Rune), budget)
	case syntax.OpCharClass:
		r, ok := pickRune(re.Rune)
		if !ok {
			return "", false
		}
		return within(string(r), budget)
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return within("a", budget)
	case syntax.OpCapture:
		return generate(re.Sub[0], rep, depth+1, budget)
	case syntax.OpStar:
		return repeat(re.Sub[0], rep, rep, depth, budget)
	case syntax.OpPlus:
		return repeat(re.Sub[0], max(rep, 1), rep, depth, budget)
	case syntax.OpQuest:
		return repeat(re.Sub[0], min(rep, 1), rep, depth, budget)
	case syntax.OpRepeat:
		n := max(rep, re.Min)
		if re.Max >= 0 {
			n = min(n, re.Max)
		}
		return repeat(re.Sub[0], n, rep, depth, budget)
	case syntax.OpConcat:
		var b strings.Builder
		for _, sub := range re.Sub {
			s, ok := generate(sub, rep, depth+1, budget-b.Len())
			if !ok {
				return "", false
			}
			b.WriteString(s)
		}
		return b.String(), true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if s, ok := generate(sub, rep, depth+1, budget); ok {
				return s, true
			}
		}
		return "", false
	}
	// Empty matches and assertions: ^ $ \A \z \b \B.
	return "", true
}

// within returns s when it fits in budget bytes.
func within(s string, budget int) (string, bool) {
	if len(s) > budget {
		return "", false
	}
	return s, true
}

// repeat generates sub n times, or as many times as budget bytes hold.
func repeat(sub *syntax.Regexp, n, rep, depth, budget int) (string, bool) {
	if n == 0 {
		return "", true
	}
	s, ok := generate(sub, rep, depth+1, budget)
	if !ok {
		return "", false
	}
	if len(s) > 0 {
		n = min(n, budget/len(s))
	}
	return strings.Repeat(s, n), true
}

// pickRune chooses a rune of a character class (pairs of inclusive
// bounds): a, A or 0 when the class holds one, else its first printable
// rune.
func pickRune(ranges []rune) (rune, bool) {
	if len(ranges) < 2 {
		return 0, false
	}
	for _, want := range []rune{'a', 'A', '0'} {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= want && want <= ranges[i+1] {
				return want, true
			}
		}
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i+1] >= '!' {
			return max(ranges[i], '!'), true
		}
	}
	return ranges[0], true
}
