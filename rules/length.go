package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// lenKinds are the declared types that `len` applies to: what has a
// length.
var lenKinds = Kinds(String, List, Object, Any)

// errNoLength is what `len` says of a none field's value that has no
// length.
var errNoLength = errors.New("must be a string, list or object")

// exactLen is a compiled `len n`: exactly n runes of a string, elements of
// a list or keys of an object.
type exactLen struct {
	n                       int
	errStr, errList, errObj error
}

// Check implements Checker.
func (c *exactLen) Check(v Value) error {
	switch v.Kind {
	case String:
		return c.CheckString(v.Str)
	case List:
		if v.Len != c.n {
			return c.errList
		}
	case Object:
		if v.Len != c.n {
			return c.errObj
		}
	default:
		return errNoLength
	}
	return nil
}

// CheckString implements StringChecker: a string's length in runes.
func (c *exactLen) CheckString(s string) error {
	// A string of n runes has between n and 4n bytes: most fail or pass
	// without counting.
	if len(s) < c.n || len(s) > utf8.UTFMax*c.n || utf8.RuneCountInString(s) != c.n {
		return c.errStr
	}
	return nil
}

// compileLen compiles `len n`, n a whole number from 0 up.
func compileLen(args []string, _ Kind) (Checker, error) {
	if err := wantArgs("len", args, 1); err != nil {
		return nil, err
	}
	n, err := lenArg(args[0])
	if err != nil {
		return nil, err
	}
	t := strconv.Itoa(n)
	return &exactLen{
		n:       n,
		errStr:  errors.New("must be exactly " + count(t, "character") + " long"),
		errList: errors.New("must have exactly " + count(t, "element")),
		errObj:  errors.New("must have exactly " + count(t, "key")),
	}, nil
}

// lenArg parses the argument of `len`: a whole number, 0 or more, that
// an int holds.
func lenArg(a string) (int, error) {
	n, err := strconv.ParseInt(a, 10, 0)
	if err != nil || n < 0 || strings.HasPrefix(a, "+") {
		return 0, fmt.Errorf("len: argument %q is not a whole number of 0 or more", a)
	}
	return int(n), nil
}

// The hooks of `len`: a value of exactly that length, and the JSON Schema
// keywords that bound a string's, a list's or an object's size to it.

func lenSample(args []string, declared Kind) any {
	if len(args) != 1 {
		return nil
	}
	n, err := lenArg(args[0])
	if err != nil || n > maxSampleLen {
		return nil
	}
	switch declared {
	case String, Any:
		return strings.Repeat("a", n)
	case List:
		l := make([]any, n)
		for i := range l {
			l[i] = int64(i + 1)
		}
		return l
	case Object:
		m := make(map[string]any, n)
		for i := range n {
			m["k"+strconv.Itoa(i+1)] = int64(i + 1)
		}
		return m
	}
	return nil
}

func lenSchema(args []string, declared Kind) map[string]any {
	if len(args) != 1 {
		return nil
	}
	n, err := lenArg(args[0])
	if err != nil {
		return nil
	}
	m := map[string]any{}
	if declared == Any { // what has a length: a bool or a number fails
		m["type"] = []any{"array", "object", "string"}
	}
	set := func(lo, hi string) { m[lo], m[hi] = int64(n), int64(n) }
	if declared == String || declared == Any {
		set("minLength", "maxLength")
	}
	if declared == List || declared == Any {
		set("minItems", "maxItems")
	}
	if declared == Object || declared == Any {
		set("minProperties", "maxProperties")
	}
	return m
}
