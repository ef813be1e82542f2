package rules

import (
	"reflect"
	"testing"
)

func TestLen(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		checks []checkTest
	}{
		{"len 3", []string{"3"}, []checkTest{
			{"three runes", StringValue("abc"), ""},
			{"three runes in more bytes", StringValue("日本語"), ""},
			{"two", StringValue("ab"), "must be exactly 3 characters long"},
			{"four", StringValue("abcd"), "must be exactly 3 characters long"},
			{"three bytes, one rune", StringValue("語"), "must be exactly 3 characters long"},
			{"list of three", Value{Kind: List, Len: 3}, ""},
			{"list of two", Value{Kind: List, Len: 2}, "must have exactly 3 elements"},
			{"object of three", Value{Kind: Object, Len: 3}, ""},
			{"object of four", Value{Kind: Object, Len: 4}, "must have exactly 3 keys"},
			{"number", IntValue(3), "must be a string, list or object"},
		}},
		{"len 1", []string{"1"}, []checkTest{
			{"empty", StringValue(""), "must be exactly 1 character long"},
			{"list", Value{Kind: List}, "must have exactly 1 element"},
			{"object", Value{Kind: Object}, "must have exactly 1 key"},
		}},
		{"len 0", []string{"0"}, []checkTest{
			{"empty", StringValue(""), ""},
			{"one", StringValue("a"), "must be exactly 0 characters long"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runChecks(t, mustCompile(t, "len", Any, tt.args...), tt.checks)
		})
	}
}

func TestLenCompileErrors(t *testing.T) {
	runCompileErrors(t, []compileTest{
		{"negative", "len", []string{"-1"}, `len: argument "-1" is not a whole number of 0 or more`},
		{"fraction", "len", []string{"2.5"}, `len: argument "2.5" is not a whole number of 0 or more`},
		{"plus sign", "len", []string{"+2"}, `len: argument "+2" is not a whole number of 0 or more`},
		{"word", "len", []string{"two"}, `len: argument "two" is not a whole number of 0 or more`},
		{"no argument", "len", nil, "len: takes 1 argument, got 0"},
	})
}

func TestLenHooks(t *testing.T) {
	tests := []struct {
		name     string
		declared Kind
		sample   any
		schema   map[string]any
	}{
		{"string", String, "aa", map[string]any{"minLength": int64(2), "maxLength": int64(2)}},
		{"list", List, []any{int64(1), int64(2)}, map[string]any{"minItems": int64(2), "maxItems": int64(2)}},
		{"object", Object, map[string]any{"k1": int64(1), "k2": int64(2)}, map[string]any{"minProperties": int64(2), "maxProperties": int64(2)}},
		{"none", Any, "aa", map[string]any{"minLength": int64(2), "maxLength": int64(2), "minItems": int64(2), "maxItems": int64(2), "minProperties": int64(2), "maxProperties": int64(2), "type": []any{"array", "object", "string"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lenSample([]string{"2"}, tt.declared); !reflect.DeepEqual(got, tt.sample) {
				t.Errorf("Sample = %#v, want %#v", got, tt.sample)
			}
			if got := lenSchema([]string{"2"}, tt.declared); !reflect.DeepEqual(got, tt.schema) {
				t.Errorf("Schema = %#v, want %#v", got, tt.schema)
			}
		})
	}
}
