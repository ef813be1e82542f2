package rules

import (
	"reflect"
	"testing"

	"github.com/expose-go/expose/internal/textconv"
)

func TestIn(t *testing.T) {
	day := func(s string) Value { v, _ := textconv.ParseTime(s); return TimeValue(v) }
	tests := []struct {
		name     string
		declared Kind
		args     []string
		checks   []checkTest
	}{
		{"strings", String, []string{"a", "b c", ""}, []checkTest{
			{"first", StringValue("a"), ""},
			{"with a space", StringValue("b c"), ""},
			{"empty listed", StringValue(""), ""},
			{"case matters", StringValue("A"), `must be one of "a", "b c", ""`},
			{"other", StringValue("d"), `must be one of "a", "b c", ""`},
		}},
		{"integers", Int, []string{"1", "2", "-3"}, []checkTest{
			{"listed", IntValue(2), ""},
			{"negative", IntValue(-3), ""},
			{"other", IntValue(4), "must be one of 1, 2, -3"},
		}},
		{"floats", Float, []string{"1", "2.5"}, []checkTest{
			{"whole", FloatValue(1), ""},
			{"fraction", FloatValue(2.5), ""},
			{"other", FloatValue(2), "must be one of 1, 2.5"},
		}},
		{"booleans", Bool, []string{"true"}, []checkTest{
			{"listed", BoolValue(true), ""},
			{"other", BoolValue(false), "must be one of true"},
		}},
		{"booleans as the conversion reads them", Bool, []string{"on", "0"}, []checkTest{
			{"on", BoolValue(true), ""},
			{"0", BoolValue(false), ""},
		}},
		{"dates compared as times", Time, []string{"2024-01-15", "2024-01-16T09:30:00+01:00"}, []checkTest{
			{"a day", day("2024-01-15T00:00:00Z"), ""},
			{"another zone", day("2024-01-16T08:30:00Z"), ""},
			{"other", day("2024-01-17"), `must be one of "2024-01-15", "2024-01-16T09:30:00+01:00"`},
		}},
		{"none: each value as its own kind", Any, []string{"1", "x", "true"}, []checkTest{
			{"number", IntValue(1), ""},
			{"float equal to an integer", FloatValue(1), ""},
			{"text", StringValue("x"), ""},
			{"the text of a number", StringValue("1"), ""},
			{"bool", BoolValue(true), ""},
			{"other number", IntValue(2), `must be one of 1, "x", true`},
			{"list", Value{Kind: List, Len: 1}, "must be a string, number or boolean"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runChecks(t, mustCompile(t, "in", tt.declared, tt.args...), tt.checks)
		})
	}
}

func TestInCompileErrors(t *testing.T) {
	tests := []struct {
		name     string
		declared Kind
		args     []string
		want     string
	}{
		{"no values", String, nil, "in: takes the values the field may have, got none"},
		{"a word on a number field", Int, []string{"1", "two"}, `in: value "two" is not an integer, as a number field holds`},
		{"a fraction on a number field", Int, []string{"1.5"}, `in: value "1.5" is not an integer, as a number field holds`},
		{"a word on a float field", Float, []string{"x"}, `in: value "x" is not a number`},
		{"a word on a bool field", Bool, []string{"yes"}, `in: value "yes" is not a boolean (true, false, on, off, 1, 0)`},
		{"a word on a date field", Time, []string{"today"}, `in: value "today" is not a date or timestamp`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := compileIn(tt.args, tt.declared)
			if err == nil || err.Error() != tt.want {
				t.Errorf("compileIn(%q, %s) error = %v, want %q", tt.args, tt.declared, err, tt.want)
			}
		})
	}
}

func TestInHooks(t *testing.T) {
	day, _ := textconv.ParseTime("2024-01-15")
	tests := []struct {
		name     string
		declared Kind
		args     []string
		sample   any
		enum     []any
	}{
		{"strings", String, []string{"a", "b"}, "a", []any{"a", "b"}},
		{"numbers", Int, []string{"3", "1"}, int64(3), []any{int64(3), int64(1)}},
		{"floats", Float, []string{"1.5"}, 1.5, []any{1.5}},
		{"booleans", Bool, []string{"on"}, true, []any{true}},
		{"dates", Time, []string{"2024-01-15"}, day, []any{"2024-01-15T00:00:00Z"}},
		{"none", Any, []string{"1", "x", "false", "2.5"}, int64(1), []any{int64(1), "1", "x", false, "false", 2.5, "2.5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := inSample(tt.args, tt.declared); !reflect.DeepEqual(got, tt.sample) {
				t.Errorf("Sample = %#v, want %#v", got, tt.sample)
			}
			want := map[string]any{"enum": tt.enum}
			if got := inSchema(tt.args, tt.declared); !reflect.DeepEqual(got, want) {
				t.Errorf("Schema = %#v, want %#v", got, want)
			}
		})
	}
	if got := inSample([]string{"x"}, Int); got != nil {
		t.Errorf("Sample of a use Compile refuses = %#v, want nil", got)
	}
}
