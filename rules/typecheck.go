package rules

import (
	"errors"
	"math"

	"github.com/expose-go/expose/internal/textconv"
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
		_, ok := textconv.ParseFloat(v.Str)
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
		_, ok = textconv.IntToBool(v.Int)
	case Float:
		_, ok = textconv.FloatToBool(v.Float)
	case String:
		_, ok = textconv.ParseBool(v.Str)
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
		_, ok = textconv.FloatToTime(v.Float)
	case String:
		_, ok = textconv.ParseTime(v.Str)
	}
	return ok
}

// The hooks of the type-check rules. On the declared types where a rule is
// Implied its Schema adds nothing; elsewhere it says what the check
// accepts of each kind of value.

// numSample is a number on a number field and numeric text on a string.
func numSample(_ []string, declared Kind) any {
	switch declared {
	case String:
		return "42"
	case Float:
		return 1.5
	case Int, Any:
		return int64(42)
	}
	return nil
}

func numSchema(_ []string, declared Kind) map[string]any {
	switch declared {
	case String:
		return map[string]any{"pattern": floatTextPattern}
	case Any:
		return map[string]any{"type": []any{"number", "string"}, "pattern": floatTextPattern}
	}
	return nil
}

func boolSample(_ []string, declared Kind) any {
	switch declared {
	case String:
		return "true"
	case Int:
		return int64(1)
	case Bool, Any:
		return true
	}
	return nil
}

func boolSchema(_ []string, declared Kind) map[string]any {
	switch declared {
	case String:
		return map[string]any{"pattern": boolPattern}
	case Int:
		return map[string]any{"enum": []any{int64(0), int64(1)}}
	case Any:
		return map[string]any{"anyOf": []any{
			map[string]any{"type": "boolean"},
			map[string]any{"enum": []any{int64(0), int64(1)}},
			map[string]any{"type": "string", "pattern": boolPattern},
		}}
	}
	return nil
}

func timestampSample(_ []string, declared Kind) any {
	switch declared {
	case String, Any:
		return "2024-01-15T12:30:00Z"
	case Time:
		return sampleTime
	case Int:
		return sampleTime.UnixMilli()
	case Float:
		return float64(sampleTime.UnixMilli())
	}
	return nil
}

// timestampMillis bounds the Unix milliseconds that FloatToTime accepts.
var timestampMillis = map[string]any{"minimum": -0x1p63, "exclusiveMaximum": 0x1p63}

func timestampSchema(_ []string, declared Kind) map[string]any {
	switch declared {
	case String:
		return map[string]any{"pattern": timestampPattern}
	case Float:
		return stringSchema(Float, timestampMillis) // a copy
	case Any:
		number := stringSchema(Float, timestampMillis)
		number["type"] = "number"
		return map[string]any{"anyOf": []any{
			number,
			map[string]any{"type": "string", "pattern": timestampPattern},
		}}
	}
	return nil
}
