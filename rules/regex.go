package rules

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
)

// maxPatternLen bounds the length in bytes of a `regex` pattern.
const maxPatternLen = 1024

// regexCheck is a compiled `regex 'pattern'`: a pattern of the shape
// simplePattern matches is matched by it, any other by regexp.
type regexCheck struct {
	re     *regexp.Regexp
	simple *simplePattern
	err    error
}

// Check implements Checker.
func (c *regexCheck) Check(v Value) error {
	if v.Kind != String {
		return errNotString
	}
	return c.CheckString(v.Str)
}

// CheckString implements StringChecker.
func (c *regexCheck) CheckString(s string) error {
	if c.simple != nil {
		if !c.simple.match(s) {
			return c.err
		}
		return nil
	}
	if !c.re.MatchString(s) {
		return c.err
	}
	return nil
}

// compileRegex compiles `regex 'pattern'`. The pattern is RE2 syntax, as
// package regexp reads it, and is compiled here, once per use. Matching is
// unanchored, as in Go: `regex '[0-9]'` accepts "a1b"; write
// `regex '^[0-9]+$'` to judge the whole string. A whole-string class with
// a count, the most common shape, is matched without regexp (see
// simplePattern), with the same answers.
func compileRegex(args []string, _ Kind) (Checker, error) {
	if err := wantArgs("regex", args, 1); err != nil {
		return nil, err
	}
	pattern := args[0]
	if len(pattern) > maxPatternLen {
		return nil, errors.New("regex: pattern is " + strconv.Itoa(len(pattern)) +
			" bytes long, more than the limit of " + strconv.Itoa(maxPatternLen))
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, errors.New("regex: " + err.Error())
	}
	return &regexCheck{re: re, simple: compileSimple(pattern), err: errors.New("must match /" + pattern + "/")}, nil
}

// regexSample returns a string that the pattern matches, generated from it
// (see sampleRegex), or nil.
func regexSample(args []string, _ Kind) any {
	if len(args) != 1 || len(args[0]) > maxPatternLen {
		return nil
	}
	if s, ok := sampleRegex(args[0]); ok {
		return s
	}
	return nil
}

// regexSchema gives the pattern in the syntax RE2 and ECMA-262 read alike
// (see ecmaPattern): JSON Schema's patterns are unanchored too. A pattern
// that has no such form is said in a "$comment" instead, which schema
// export reports as a warning, and so is a pattern kept whose nested
// repetitions may take a backtracking validator exponential time. The
// comments never quote the pattern: on a secret field it would describe
// the secret.
func regexSchema(args []string, declared Kind) map[string]any {
	if len(args) != 1 {
		return nil
	}
	p, nested, why := ecmaPattern(args[0])
	if why != "" {
		return stringSchema(declared, map[string]any{"$comment": "regex: not written as a pattern: " + why})
	}
	m := stringSchema(declared, map[string]any{"pattern": p})
	if nested {
		m["$comment"] = "regex: its pattern repeats a repetition, which a backtracking validator may take exponential time to match"
	}
	return m
}

// sampleRegex returns a string that pattern matches: generated from the
// parsed pattern with each repetition taken 1, 0, 2, 3, 5 or 8 times (as
// its bounds allow), the first that the compiled pattern matches. A word
// boundary or an anchor in the middle can make every try fail: then it
// returns false.
func sampleRegex(pattern string) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	m, err := regexp.Compile(pattern)
	if err != nil {
		return "", false
	}
	for _, rep := range []int{1, 0, 2, 3, 5, 8} {
		g := generator{rep: rep, budget: maxSampleLen}
		if s, ok := g.generate(re, 0); ok && m.MatchString(s) {
			return s, true
		}
	}
	return "", false
}

// maxGenDepth bounds the recursion of generate over a parsed pattern.
const maxGenDepth = 100

// generator makes a string from a parsed pattern, each repetition taken
// rep times as far as its bounds allow, and gives up past budget bytes.
type generator struct {
	rep    int
	budget int
}

func (g *generator) generate(re *syntax.Regexp, depth int) (string, bool) {
	if depth > maxGenDepth || g.budget < 0 {
		return "", false
	}
	switch re.Op {
	case syntax.OpNoMatch:
		return "", false
	case syntax.OpLiteral:
		return g.spend(string(re.Rune))
	case syntax.OpCharClass:
		r, ok := pickRune(re.Rune)
		if !ok {
			return "", false
		}
		return g.spend(string(r))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return g.spend("a")
	case syntax.OpCapture:
		return g.generate(re.Sub[0], depth+1)
	case syntax.OpStar:
		return g.repeat(re.Sub[0], g.rep, depth)
	case syntax.OpPlus:
		return g.repeat(re.Sub[0], max(g.rep, 1), depth)
	case syntax.OpQuest:
		return g.repeat(re.Sub[0], min(g.rep, 1), depth)
	case syntax.OpRepeat:
		n := max(g.rep, re.Min)
		if re.Max >= 0 {
			n = min(n, re.Max)
		}
		return g.repeat(re.Sub[0], n, depth)
	case syntax.OpConcat:
		var b strings.Builder
		for _, sub := range re.Sub {
			s, ok := g.generate(sub, depth+1)
			if !ok {
				return "", false
			}
			b.WriteString(s)
		}
		return b.String(), true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if s, ok := g.generate(sub, depth+1); ok {
				return s, true
			}
		}
		return "", false
	}
	// Empty matches and assertions: ^ $ \A \z \b \B.
	return "", true
}

// spend takes s out of the budget.
func (g *generator) spend(s string) (string, bool) {
	g.budget -= len(s)
	return s, g.budget >= 0
}

// repeat generates sub n times.
func (g *generator) repeat(sub *syntax.Regexp, n, depth int) (string, bool) {
	if n == 0 {
		return "", true
	}
	var b strings.Builder
	for range n {
		s, ok := g.generate(sub, depth+1)
		if !ok {
			return "", false
		}
		b.WriteString(s)
	}
	return b.String(), true
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
