package rules

import (
	"math"
	"testing"
	"time"
)

func TestTypeChecks(t *testing.T) {
	when := TimeValue(time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC))
	list := Value{Kind: List, Len: 2, Any: []int{1, 2}}
	object := Value{Kind: Object, Len: 1, Any: map[string]int{"a": 1}}
	other := Value{Kind: Any, Any: struct{}{}}
	numberChecks := func(msg string) []checkTest {
		return []checkTest{
			{"int", IntValue(-3), ""},
			{"float", FloatValue(2.5), ""},
			{"large float", FloatValue(1.8446744073709552e19), ""},
			{"integer string", StringValue("42"), ""},
			{"decimal string", StringValue("-2.5"), ""},
			{"exponent string", StringValue("1e5"), ""},
			{"NaN", FloatValue(math.NaN()), msg},
			{"+Inf", FloatValue(math.Inf(1)), msg},
			{"-Inf", FloatValue(math.Inf(-1)), msg},
			{"word", StringValue("abc"), msg},
			{"empty string", StringValue(""), msg},
			{"padded string", StringValue(" 1"), msg},
			{"plus string", StringValue("+1"), msg},
			{"overflowing string", StringValue("1e400"), msg},
			{"NaN string", StringValue("NaN"), msg},
			{"bool", BoolValue(true), msg},
			{"time", when, msg},
			{"list", list, msg},
			{"object", object, msg},
			{"other", other, msg},
		}
	}
	tests := []struct {
		name   string
		rule   string
		checks []checkTest
	}{
		{"num", "num", numberChecks("must be a number")},
		{"number", "number", numberChecks("must be a number")},
		{"float", "float", numberChecks("must be a number")},
		{"bool", "bool", []checkTest{
			{"true", BoolValue(true), ""},
			{"false", BoolValue(false), ""},
			{"int 1", IntValue(1), ""},
			{"int 0", IntValue(0), ""},
			{"float 1", FloatValue(1), ""},
			{"float 0", FloatValue(0), ""},
			{"TRUE", StringValue("TRUE"), ""},
			{"off", StringValue("off"), ""},
			{"string 1", StringValue("1"), ""},
			{"int 2", IntValue(2), "must be a boolean"},
			{"int -1", IntValue(-1), "must be a boolean"},
			{"float 0.5", FloatValue(0.5), "must be a boolean"},
			{"NaN", FloatValue(math.NaN()), "must be a boolean"},
			{"yes", StringValue("yes"), "must be a boolean"},
			{"empty string", StringValue(""), "must be a boolean"},
			{"time", when, "must be a boolean"},
			{"list", list, "must be a boolean"},
			{"other", other, "must be a boolean"},
		}},
		{"timestamp", "timestamp", []checkTest{
			{"time", when, ""},
			{"int", IntValue(1709208000000), ""},
			{"negative int", IntValue(-1), ""},
			{"float", FloatValue(1709208000000.5), ""},
			{"date string", StringValue("2024-02-29"), ""},
			{"slash date string", StringValue("2024/2/29"), ""},
			{"RFC 3339 string", StringValue("2024-02-29T12:00:00+01:00"), ""},
			{"date and time string", StringValue("2024-02-29 12:00:00"), ""},
			{"NaN", FloatValue(math.NaN()), "must be a date or timestamp"},
			{"+Inf", FloatValue(math.Inf(1)), "must be a date or timestamp"},
			{"huge float", FloatValue(1e300), "must be a date or timestamp"},
			{"invalid date", StringValue("2024-02-30"), "must be a date or timestamp"},
			{"numeric string", StringValue("1709208000000"), "must be a date or timestamp"},
			{"word", StringValue("today"), "must be a date or timestamp"},
			{"bool", BoolValue(true), "must be a date or timestamp"},
			{"object", object, "must be a date or timestamp"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runChecks(t, mustCompile(t, tt.rule, Any), tt.checks)
		})
	}
}

func TestTypeCheckCompileErrors(t *testing.T) {
	runCompileErrors(t, []compileTest{
		{"num with an argument", "num", []string{"1"}, "num: takes 0 arguments, got 1"},
		{"float with an argument", "float", []string{"1"}, "float: takes 0 arguments, got 1"},
		{"bool with an argument", "boolean", []string{"x"}, "bool: takes 0 arguments, got 1"},
		{"timestamp with an argument", "datetime", []string{"x"}, "timestamp: takes 0 arguments, got 1"},
	})
}

func TestTypeCheckAllocs(t *testing.T) {
	tests := []struct {
		name string
		rule string
		v    Value
	}{
		{"num string passes", "num", StringValue("-2.5e3")},
		{"num string fails", "num", StringValue("abc")},
		{"bool string passes", "bool", StringValue("False")},
		{"bool fails", "bool", IntValue(2)},
		{"timestamp string passes", "timestamp", StringValue("2024-02-29T12:00:00+05:30")},
		{"timestamp string fails", "timestamp", StringValue("2024-02-30")},
		{"timestamp float passes", "timestamp", FloatValue(1.7e12)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCompile(t, tt.rule, Any)
			if n := testing.AllocsPerRun(100, func() { _ = c.Check(tt.v) }); n != 0 {
				t.Errorf("%g allocations, want 0", n)
			}
		})
	}
}
