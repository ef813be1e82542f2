package rules

import (
	"errors"
	"math"
)

// The type-check rules judge the value a field writes: on a string field
// its text, on a none field whatever it holds (the entity package gives Go
// strings as String, integers as Int, a uint64 above MaxInt64 as Float,
// floating-point numbers as Float, bools as Bool, time.Time as Time, slices
// as List, maps as Object and anything else as Any). On the declared types
// whose conversion guarantees them they are Implied and never run.

var (
	numberKinds    = Kinds(String, Int, Float, Any)
	boolKinds      = Kinds(String, Bool, Int, Any)
	timestampKinds = Kinds(String, Time, Int, Float, Any)
)

// predicate is a check that the value satisfies pass. The type-check rules
// take no arguments, so every use of one shares one predicate.
type predicate struct {
	pass func(Value) bool
	err  error
}

// Check implements Checker.
func (p *predicate) Check(v Value) error {
	if p.pass(v) {
		return nil
	}
	return p.err
}

// CheckString implements StringChecker.
func (p *predicate) CheckString(s string) error { return p.Check(StringValue(s)) }

// predicateRule returns the Compile function of a rule without arguments
// that checks pass.
func predicateRule(name string, pass func(Value) bool, msg string) func([]string, Kind) (Checker, error) {
	c := &predicate{pass: pass, err: errors.New(msg)}
	return func(args []string, _ Kind) (Checker, error) {
		if err := wantArgs(name, args, 0); err != nil {
			return nil, err
		}
		return c, nil
	}
}

// isNumber accepts an Int, a finite Float and a String that ParseFloat
// accepts.
func isNumber(v Value) bool {
	switch v.Kind {
	case Int:
		return true
	case Float:
		return !math.IsNaN(v.Float) && !math.IsInf(v.Float, 0)
	case String:
		_, ok := ParseFloat(v.Str)
		return ok
	}
	return false
}

// isBoolean accepts a Bool, an Int or Float equal to 1 or 0 and a String
// that ParseBool accepts.
func isBoolean(v Value) bool {
	var ok bool
	switch v.Kind {
	case Bool:
		ok = true
	case Int:
		_, ok = IntToBool(v.Int)
	case Float:
		_, ok = FloatToBool(v.Float)
	case String:
		_, ok = ParseBool(v.Str)
	}
	return ok
}

// isTimestamp accepts a Time, an Int, a Float that FloatToTime accepts
// (Unix milliseconds) and a String that ParseTime accepts.
func isTimestamp(v Value) bool {
	var ok bool
	switch v.Kind {
	case Time, Int:
		ok = true
	case Float:
		_, ok = FloatToTime(v.Float)
	case String:
		_, ok = ParseTime(v.Str)
	}
	return ok
}
