package rules

import (
	"errors"
	"regexp"
	"strconv"
)

// maxPatternLen bounds the length in bytes of a `regex` pattern.
const maxPatternLen = 1024

// regexCheck is a compiled `regex 'pattern'`.
type regexCheck struct {
	re  *regexp.Regexp
	err error
}

// Check implements Checker.
func (c *regexCheck) Check(v Value) error {
	if v.Kind != String {
		return errNotString
	}
	if !c.re.MatchString(v.Str) {
		return c.err
	}
	return nil
}

// CheckString implements StringChecker.
func (c *regexCheck) CheckString(s string) error {
	if !c.re.MatchString(s) {
		return c.err
	}
	return nil
}

// compileRegex compiles `regex 'pattern'`. The pattern is RE2 syntax, as
// package regexp reads it, and is compiled here, once per use. Matching is
// unanchored, as in Go: `regex '[0-9]'` accepts "a1b"; write
// `regex '^[0-9]+$'` to judge the whole string.
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
	return &regexCheck{re: re, err: errors.New("must match /" + pattern + "/")}, nil
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

// regexSchema gives the pattern as it is: JSON Schema's patterns are
// unanchored too. RE2 and ECMA-262 read most patterns alike; one that uses
// RE2's own syntax ((?i), \z, \pL) is given as written.
func regexSchema(args []string, declared Kind) map[string]any {
	if len(args) != 1 {
		return nil
	}
	return stringSchema(declared, map[string]any{"pattern": args[0]})
}
