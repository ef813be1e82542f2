package rules

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestMinMax(t *testing.T) {
	list := func(n int) Value { return Value{Kind: List, Len: n} }
	tests := []struct {
		name   string
		rule   string
		args   []string
		checks []checkTest
	}{
		{"min on strings", "min", []string{"3"}, []checkTest{
			{"longer", StringValue("abcd"), ""},
			{"exact", StringValue("abc"), ""},
			{"shorter", StringValue("ab"), "must be at least 3 characters long"},
			{"empty", StringValue(""), "must be at least 3 characters long"},
			{"runes not bytes", StringValue("日本"), "must be at least 3 characters long"},
			{"three runes", StringValue("日本語"), ""},
		}},
		{"min 1 on strings", "min", []string{"1"}, []checkTest{
			{"one", StringValue("a"), ""},
			{"empty", StringValue(""), "must be at least 1 character long"},
		}},
		{"min with decimals on strings", "min", []string{"2.5"}, []checkTest{
			{"three", StringValue("abc"), ""},
			{"two", StringValue("ab"), "must be at least 3 characters long"},
		}},
		{"max on strings", "max", []string{"10"}, []checkTest{
			{"ten", StringValue("abcdefghij"), ""},
			{"eleven", StringValue("abcdefghijk"), "must be at most 10 characters long"},
			{"ten runes in more bytes", StringValue("ééééééééé€"), ""},
			{"empty", StringValue(""), ""},
		}},
		{"max 0 on strings", "max", []string{"0"}, []checkTest{
			{"empty", StringValue(""), ""},
			{"one", StringValue("a"), "must be at most 0 characters long"},
		}},
		{"range on strings", "range", []string{"1", "5"}, []checkTest{
			{"empty", StringValue(""), "must be between 1 and 5 characters long"},
			{"one", StringValue("a"), ""},
			{"five", StringValue("abcde"), ""},
			{"six", StringValue("abcdef"), "must be between 1 and 5 characters long"},
		}},
		{"range with equal bounds on strings", "minmax", []string{"3", "3"}, []checkTest{
			{"three", StringValue("abc"), ""},
			{"two", StringValue("ab"), "must be exactly 3 characters long"},
		}},
		{"range with equal bounds of 1", "range", []string{"1", "1"}, []checkTest{
			{"one", StringValue("a"), ""},
			{"two", StringValue("ab"), "must be exactly 1 character long"},
			{"one element", list(1), ""},
			{"two elements", list(2), "must have exactly 1 element"},
		}},
		{"min on numbers", "min", []string{"0"}, []checkTest{
			{"zero", IntValue(0), ""},
			{"positive", IntValue(7), ""},
			{"negative", IntValue(-1), "must be at least 0"},
			{"negative float", FloatValue(-0.001), "must be at least 0"},
			{"negative zero float", FloatValue(math.Copysign(0, -1)), ""},
			{"NaN", FloatValue(math.NaN()), "must be at least 0"},
			{"+Inf", FloatValue(math.Inf(1)), ""},
		}},
		{"min negative zero", "min", []string{"-0"}, []checkTest{
			{"negative", IntValue(-1), "must be at least 0"},
		}},
		{"min negative decimal", "min", []string{"-1.5"}, []checkTest{
			{"minus one", IntValue(-1), ""},
			{"minus two", IntValue(-2), "must be at least -1.5"},
			{"minus one and a half", FloatValue(-1.5), ""},
		}},
		{"max with decimals on numbers", "max", []string{"99.5"}, []checkTest{
			{"equal", FloatValue(99.5), ""},
			{"above", FloatValue(99.6), "must be at most 99.5"},
			{"int below", IntValue(99), ""},
			{"int above", IntValue(100), "must be at most 99.5"},
			{"-Inf", FloatValue(math.Inf(-1)), ""},
		}},
		{"max with exponent", "max", []string{"1e3"}, []checkTest{
			{"equal", IntValue(1000), ""},
			{"above", IntValue(1001), "must be at most 1000"},
		}},
		{"range on numbers", "range", []string{"1", "5"}, []checkTest{
			{"below", IntValue(0), "must be between 1 and 5"},
			{"low bound", IntValue(1), ""},
			{"high bound", FloatValue(5), ""},
			{"just above", FloatValue(5.0001), "must be between 1 and 5"},
			{"NaN", FloatValue(math.NaN()), "must be between 1 and 5"},
		}},
		{"range of negatives", "range", []string{"-10", "-1"}, []checkTest{
			{"inside", IntValue(-5), ""},
			{"zero", IntValue(0), "must be between -10 and -1"},
		}},
		{"range with equal bounds on numbers", "range", []string{"2.5", "2.5"}, []checkTest{
			{"equal", FloatValue(2.5), ""},
			{"int", IntValue(2), "must be exactly 2.5"},
		}},
		{"max beyond float precision", "max", []string{"9007199254740992"}, []checkTest{
			{"equal", IntValue(1 << 53), ""},
			{"one above", IntValue(1<<53 + 1), "must be at most 9007199254740992"},
		}},
		{"max max int64", "max", []string{"9223372036854775807"}, []checkTest{
			{"max int64", IntValue(math.MaxInt64), ""},
		}},
		{"range of the two largest int64 bounds exact", "range", []string{"9223372036854775806", "9223372036854775807"}, []checkTest{
			{"lower bound", IntValue(math.MaxInt64 - 1), ""},
			{"upper bound", IntValue(math.MaxInt64), ""},
			{"below", IntValue(math.MaxInt64 - 2), "must be between 9223372036854775806 and 9223372036854775807"},
		}},
		{"range with integer bounds in exponent form", "range", []string{"9.223372036854775806e18", "92233720368547758.07e2"}, []checkTest{
			{"lower bound", IntValue(math.MaxInt64 - 1), ""},
			{"upper bound", IntValue(math.MaxInt64), ""},
			{"below", IntValue(math.MaxInt64 - 2), "must be between 9223372036854775806 and 9223372036854775807"},
		}},
		{"min with fraction just below max int64", "min", []string{"9223372036854775806.5"}, []checkTest{
			{"max int64", IntValue(math.MaxInt64), ""},
			{"one below", IntValue(math.MaxInt64 - 1), "must be at least 9223372036854775806.5"},
		}},
		{"max with fraction just above min int64", "max", []string{"-9223372036854775807.5"}, []checkTest{
			{"min int64", IntValue(math.MinInt64), ""},
			{"one above", IntValue(math.MinInt64 + 1), "must be at most -9223372036854775807.5"},
		}},
		{"bounds quoted exactly without exponent", "range", []string{"-2.50e-2", "1.5e3"}, []checkTest{
			{"below", FloatValue(-1), "must be between -0.025 and 1500"},
		}},
		{"equal bounds written differently", "range", []string{"1.5e1", "15.0"}, []checkTest{
			{"equal", IntValue(15), ""},
			{"other", IntValue(16), "must be exactly 15"},
		}},
		{"min above int64", "min", []string{"1e30"}, []checkTest{
			{"max int64", IntValue(math.MaxInt64), "must be at least 1000000000000000000000000000000"},
			{"float", FloatValue(1e31), ""},
		}},
		{"max below int64", "max", []string{"-1e30"}, []checkTest{
			{"min int64", IntValue(math.MinInt64), "must be at most -1000000000000000000000000000000"},
		}},
		{"min on lists", "min", []string{"2"}, []checkTest{
			{"two", list(2), ""},
			{"one", list(1), "must have at least 2 elements"},
			{"empty", list(0), "must have at least 2 elements"},
		}},
		{"max on lists", "max", []string{"1"}, []checkTest{
			{"one", list(1), ""},
			{"two", list(2), "must have at most 1 element"},
		}},
		{"range on lists", "range", []string{"1", "3"}, []checkTest{
			{"empty", list(0), "must have between 1 and 3 elements"},
			{"three", list(3), ""},
			{"four", list(4), "must have between 1 and 3 elements"},
		}},
		{"other kinds on none", "min", []string{"1"}, []checkTest{
			{"bool", BoolValue(true), "must be a string, number or list"},
			{"time", TimeValue(time.Unix(0, 0)), "must be a string, number or list"},
			{"object", Value{Kind: Object, Len: 3}, "must be a string, number or list"},
			{"any", Value{Kind: Any, Any: struct{}{}}, "must be a string, number or list"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runChecks(t, mustCompile(t, tt.rule, Any, tt.args...), tt.checks)
		})
	}
}

func TestMinMaxCompileErrors(t *testing.T) {
	runCompileErrors(t, []compileTest{
		{"min of a word", "min", []string{"abc"}, `min: argument "abc" is not a number`},
		{"min empty", "min", []string{""}, `min: argument "" is not a number`},
		{"min with plus sign", "min", []string{"+1"}, `min: argument "+1" is not a number`},
		{"min leading dot", "min", []string{".5"}, `min: argument ".5" is not a number`},
		{"min overflow", "min", []string{"1e400"}, `min: argument "1e400" is not a number`},
		{"min NaN", "min", []string{"NaN"}, `min: argument "NaN" is not a number`},
		{"max with spaces", "max", []string{" 5"}, `max: argument " 5" is not a number`},
		{"range low bound", "range", []string{"x", "5"}, `range: argument "x" is not a number`},
		{"range high bound", "range", []string{"1", "5x"}, `range: argument "5x" is not a number`},
		{"range reversed", "range", []string{"5", "1"}, "range: minimum 5 is greater than maximum 1"},
		{"minmax reversed decimals", "minmax", []string{"-0.5", "-1"}, "range: minimum -0.5 is greater than maximum -1"},
		{"range reversed int64 bounds equal as float64", "range", []string{"9223372036854775807", "9223372036854775806"}, "range: minimum 9223372036854775807 is greater than maximum 9223372036854775806"},
		{"range reversed beyond 2^53", "range", []string{"9007199254740993", "9007199254740992"}, "range: minimum 9007199254740993 is greater than maximum 9007199254740992"},
		{"range reversed by a digit float64 drops", "range", []string{"0.30000000000000001", "0.3"}, "range: minimum 0.30000000000000001 is greater than maximum 0.3"},
		{"range reversed in exponent form", "range", []string{"1e19", "9999999999999999999"}, "range: minimum 1e19 is greater than maximum 9999999999999999999"},
		{"min without argument", "min", nil, "min: takes 1 argument, got 0"},
		{"max with two arguments", "max", []string{"1", "2"}, "max: takes 1 argument, got 2"},
		{"range with one argument", "range", []string{"1"}, "range: takes 2 arguments, got 1"},
		{"range with three arguments", "range", []string{"1", "2", "3"}, "range: takes 2 arguments, got 3"},
	})
}

// TestBoundsConflict: two size rules of one field that no value meets
// together conflict, compared exactly as range compares its bounds; every
// other pair does not.
func TestBoundsConflict(t *testing.T) {
	tests := []struct {
		name string
		a, b []string // rule name, then arguments
		want string   // "" for no conflict
	}{
		{"min above max", []string{"min", "5"}, []string{"max", "3"}, "minimum 5 is greater than maximum 3: no value meets both"},
		{"max below min", []string{"max", "3"}, []string{"min", "5"}, "minimum 5 is greater than maximum 3: no value meets both"},
		{"min equal to max", []string{"min", "3"}, []string{"max", "3"}, ""},
		{"min below max", []string{"min", "1"}, []string{"max", "3"}, ""},
		{"min past a range", []string{"range", "1", "5"}, []string{"min", "6"}, "minimum 6 is greater than maximum 5: no value meets both"},
		{"two disjoint ranges", []string{"range", "1", "2"}, []string{"range", "3", "4"}, "minimum 3 is greater than maximum 2: no value meets both"},
		{"overlapping ranges", []string{"range", "1", "3"}, []string{"range", "2", "4"}, ""},
		{"two mins", []string{"min", "1"}, []string{"min", "9"}, ""},
		{"beyond 2^53", []string{"min", "9007199254740993"}, []string{"max", "9007199254740992"}, "minimum 9007199254740993 is greater than maximum 9007199254740992: no value meets both"},
		{"not a size rule", []string{"min", "5"}, []string{"email"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := BoundsConflict(mustCompile(t, tt.a[0], Any, tt.a[1:]...), mustCompile(t, tt.b[0], String, tt.b[1:]...))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("BoundsConflict = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMinMaxAllocs(t *testing.T) {
	long := StringValue(strings.Repeat("é", 50))
	tests := []struct {
		name string
		rule string
		args []string
		v    Value
	}{
		{"min string passes", "min", []string{"3"}, long},
		{"min string fails", "min", []string{"300"}, long},
		{"min int passes", "min", []string{"0"}, IntValue(5)},
		{"min int fails", "min", []string{"0"}, IntValue(-5)},
		{"min float fails", "min", []string{"0.5"}, FloatValue(0.25)},
		{"min list fails", "min", []string{"2"}, Value{Kind: List, Len: 1}},
		{"min bool fails", "min", []string{"2"}, BoolValue(true)},
		{"max string fails", "max", []string{"3"}, long},
		{"range passes", "range", []string{"1", "5"}, FloatValue(2.5)},
		{"range fails", "range", []string{"1", "5"}, FloatValue(7.5)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCompile(t, tt.rule, Any, tt.args...)
			if n := testing.AllocsPerRun(100, func() { _ = c.Check(tt.v) }); n != 0 {
				t.Errorf("%g allocations, want 0", n)
			}
		})
	}
}
