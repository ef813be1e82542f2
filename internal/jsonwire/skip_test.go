package jsonwire

import (
	"encoding/json"
	"testing"
)

// TestValueEnd: the walkers of valid text find the end of each kind of
// value, in a string and in a []byte alike, with the plain flag of a
// string literal.
func TestValueEnd(t *testing.T) {
	tests := []struct {
		name, in string // a value, then ",x"
		plain    bool   // a string literal's
	}{
		{"number", `-12.5e3`, false},
		{"literal", `true`, false},
		{"null", `null`, false},
		{"plain string", `"abc"`, true},
		{"long plain string", `"abcdefghijklmnopqrstuvwxyz"`, true},
		{"escaped quote", `"a\"b"`, false},
		{"escaped backslash at the end", `"ab\\"`, false},
		{"escapes across a word", `"abcdefg\"\\hijklmno\u00e9pq"`, false},
		{"object with escapes in strings", `{"a\"]":"\\","b":["\"}"]}`, false},
		{"non-ASCII", `"日本"`, false},
		{"object", `{"a":[1,{"b":"}"}],"c":"]"}`, false},
		{"array", `[[],[[]],"[",{}]`, false},
		{"empty object", `{}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.in + `,"x"`
			if end := ValueEnd(s, 0); end != len(tt.in) {
				t.Errorf("ValueEnd = %d, want %d", end, len(tt.in))
			}
			if end := ValueEnd([]byte(s), 0); end != len(tt.in) {
				t.Errorf("ValueEnd([]byte) = %d, want %d", end, len(tt.in))
			}
			if s[0] == '"' {
				end, plain := StringEnd(s, 0)
				if end != len(tt.in) || plain != tt.plain {
					t.Errorf("StringEnd = %d, %v; want %d, %v", end, plain, len(tt.in), tt.plain)
				}
				if end := QuoteEnd([]byte(s), 0); end != len(tt.in) {
					t.Errorf("QuoteEnd([]byte) = %d, want %d", end, len(tt.in))
				}
			}
			if s[0] == '{' || s[0] == '[' {
				if end := NestedEnd(s, 0); end != len(tt.in) {
					t.Errorf("NestedEnd = %d, want %d", end, len(tt.in))
				}
			}
		})
	}
}

// TestCount: the elements of an array, the distinct keys of an object (as
// encoding/json decodes them, escapes resolved).
func TestCount(t *testing.T) {
	for _, in := range []string{`[]`, `{}`, `[1, "a", [2, 3], {"b": 4}]`, `{"a":1,"b":2}`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2,"b":[]}`, ` { "x" : { "y" : 1 } } `[1:]} {
		var v any
		if err := json.Unmarshal([]byte(in), &v); err != nil {
			t.Fatal(err)
		}
		want := 0
		switch v := v.(type) {
		case []any:
			want = len(v)
		case map[string]any:
			want = len(v)
		}
		if got := Count(in); got != want {
			t.Errorf("Count(%s) = %d, want %d", in, got, want)
		}
	}
}

// TestElements: the iterator gives each value of compact array text.
func TestElements(t *testing.T) {
	in := `[1,"a,b",[2,[3]],{"c":"]"},null,-0.5]`
	var want []json.RawMessage
	if err := json.Unmarshal([]byte(in), &want); err != nil {
		t.Fatal(err)
	}
	var got []string
	for el := (Elements{Data: []byte(in)}); el.Next(); {
		got = append(got, string(el.Val))
	}
	if len(got) != len(want) {
		t.Fatalf("Elements gave %q, want %d values", got, len(want))
	}
	for i := range want {
		if got[i] != string(want[i]) {
			t.Errorf("element %d = %s, want %s", i, got[i], want[i])
		}
	}
	for el := (Elements{Data: []byte(`[]`)}); el.Next(); {
		t.Errorf("Elements of [] gave %s", el.Val)
	}
}

// TestTrimSpace: JSON's white space only, both ends.
func TestTrimSpace(t *testing.T) {
	for _, tt := range []struct{ in, want, left string }{
		{"", "", ""},
		{" \t\r\n", "", ""},
		{" {} ", "{}", "{} "},
		{"\v{}\u00a0", "\v{}\u00a0", "\v{}\u00a0"}, // not JSON white space
	} {
		if got := TrimSpace(tt.in); got != tt.want {
			t.Errorf("TrimSpace(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := TrimLeftSpace(tt.in); got != tt.left {
			t.Errorf("TrimLeftSpace(%q) = %q, want %q", tt.in, got, tt.left)
		}
	}
}
