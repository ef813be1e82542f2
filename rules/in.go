package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/expose-go/expose/internal/textconv"
)

// inKinds are the declared types that `in` applies to: the scalars, and
// none (whose values are compared as their own kind).
var inKinds = Kinds(String, Int, Float, Bool, Time, Any)

// errNotScalar is what `in` says of a none field's value that is no
// string, number or boolean.
var errNotScalar = errors.New("must be a string, number or boolean")

// oneOf is a compiled `in 'a' 'b' 'c'`: the listed values, converted once
// to the field's type, and the message that lists them.
type oneOf struct {
	strs   []string // String (and the text of every value on a none field)
	ints   []int64
	floats []float64
	bools  []bool
	times  []time.Time
	err    error
}

// Check implements Checker. A number is compared with the integers and
// the numbers listed (on a float field 1 and 1.0 are one value), a string
// with the texts, a boolean with the booleans, a time with the times.
func (c *oneOf) Check(v Value) error {
	switch v.Kind {
	case String:
		return c.CheckString(v.Str)
	case Int:
		for _, n := range c.ints {
			if n == v.Int {
				return nil
			}
		}
		for _, f := range c.floats {
			if f == float64(v.Int) && int64(f) == v.Int {
				return nil
			}
		}
	case Float:
		for _, f := range c.floats {
			if f == v.Float {
				return nil
			}
		}
	case Bool:
		for _, b := range c.bools {
			if b == v.Bool {
				return nil
			}
		}
	case Time:
		for _, t := range c.times {
			if t.Equal(v.Time) {
				return nil
			}
		}
	default:
		return errNotScalar
	}
	return c.err
}

// CheckString implements StringChecker.
func (c *oneOf) CheckString(s string) error {
	for _, x := range c.strs {
		if x == s {
			return nil
		}
	}
	return c.err
}

// compileIn compiles `in a b c`: each value must convert to the declared
// type as an input of it would (ParseInt, ParseFloat, ParseBool, ParseTime),
// and an integer field's values must be integers.
func compileIn(args []string, declared Kind) (Checker, error) {
	if len(args) == 0 {
		return nil, errors.New("in: takes the values the field may have, got none")
	}
	c := &oneOf{}
	for _, a := range args {
		if err := c.add(a, declared); err != nil {
			return nil, err
		}
	}
	quote := declared == String || declared == Time || declared == Any
	texts := make([]string, len(args))
	for i, a := range args {
		texts[i] = a
		if quote && !(declared == Any && isPlainScalar(a)) {
			texts[i] = strconv.Quote(a)
		}
	}
	if len(texts) > maxListed { // a message names the first ones
		texts = append(texts[:maxListed:maxListed], "… ("+strconv.Itoa(len(texts)-maxListed)+" more)")
	}
	c.err = errors.New("must be one of " + strings.Join(texts, ", "))
	return c, nil
}

// maxListed is how many of its values in's message names.
const maxListed = 20

// add converts one listed value to the declared type.
func (c *oneOf) add(a string, declared Kind) error {
	switch declared {
	case String:
		c.strs = append(c.strs, a)
	case Int:
		n, err := strconv.ParseInt(a, 10, 64)
		if err != nil {
			return fmt.Errorf("in: value %q is not an integer, as a number field holds", a)
		}
		c.ints = append(c.ints, n)
	case Float:
		f, ok := textconv.ParseFloat(a)
		if !ok {
			return fmt.Errorf("in: value %q is not a number", a)
		}
		c.floats = append(c.floats, f)
	case Bool:
		b, ok := textconv.ParseBool(a)
		if !ok {
			return fmt.Errorf("in: value %q is not a boolean (true, false, on, off, 1, 0)", a)
		}
		c.bools = append(c.bools, b)
	case Time:
		t, ok := textconv.ParseTime(a)
		if !ok {
			return fmt.Errorf("in: value %q is not a date or timestamp", a)
		}
		c.times = append(c.times, t)
	default: // none: a string, and the number or boolean it spells
		c.strs = append(c.strs, a)
		if n, err := strconv.ParseInt(a, 10, 64); err == nil {
			c.ints = append(c.ints, n)
		}
		if f, ok := textconv.ParseFloat(a); ok {
			c.floats = append(c.floats, f)
		}
		switch a {
		case "true":
			c.bools = append(c.bools, true)
		case "false":
			c.bools = append(c.bools, false)
		}
	}
	return nil
}

// isPlainScalar reports whether a value of `in` on a none field is written
// bare in its message: a number or a JSON boolean.
func isPlainScalar(a string) bool {
	_, isNum := textconv.ParseFloat(a)
	return isNum || a == "true" || a == "false"
}

// inValues returns the values of a use of `in` as JSON values of the
// declared type, or false when Compile refuses them.
func inValues(args []string, declared Kind) ([]any, bool) {
	ck, err := compileIn(args, declared)
	if err != nil {
		return nil, false
	}
	c := ck.(*oneOf)
	out := make([]any, 0, len(args))
	switch declared {
	case String:
		out = appendAll(out, c.strs)
	case Int:
		out = appendAll(out, c.ints)
	case Float:
		out = appendAll(out, c.floats)
	case Bool:
		out = appendAll(out, c.bools)
	case Time:
		out = appendAll(out, c.times)
	default:
		// On none a value matches its text too: "2" as well as 2.
		for _, a := range args {
			switch n, err := strconv.ParseInt(a, 10, 64); {
			case err == nil:
				out = append(out, n, a)
			case a == "true" || a == "false":
				out = append(out, a == "true", a)
			default:
				if f, ok := textconv.ParseFloat(a); ok {
					out = append(out, f, a)
				} else {
					out = append(out, a)
				}
			}
		}
	}
	return out, true
}

// appendAll appends each of xs to out.
func appendAll[T any](out []any, xs []T) []any {
	for _, x := range xs {
		out = append(out, x)
	}
	return out
}

// The hooks of `in`: the first value listed, and the JSON Schema enum of
// them all (a date as the RFC 3339 text the field writes).

func inSample(args []string, declared Kind) any {
	vs, ok := inValues(args, declared)
	if !ok || len(vs) == 0 {
		return nil
	}
	return vs[0]
}

func inSchema(args []string, declared Kind) map[string]any {
	vs, ok := inValues(args, declared)
	if !ok {
		return nil
	}
	for i, v := range vs {
		if t, isTime := v.(time.Time); isTime {
			vs[i] = t.Format(time.RFC3339Nano)
		}
	}
	return map[string]any{"enum": vs}
}
