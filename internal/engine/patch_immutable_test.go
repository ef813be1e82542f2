package engine

import "testing"

// TestSameJSON: two JSON texts hold the same value when their literals,
// unescaped strings, exact numbers, elements in order and members in any
// order (a repeated key: its last) are the same.
func TestSameJSON(t *testing.T) {
	tests := []struct {
		name, a, b string
		want       bool
	}{
		{"the same text", `"ann"`, `"ann"`, true},
		{"an escape", `"ann"`, `"\u0061nn"`, true},
		{"another string", `"ann"`, `"anne"`, false},
		{"an integer and its float", `10`, `10.0`, true},
		{"an exponent", `10`, `1e1`, true},
		{"minus zero", `0`, `-0`, true},
		{"another number", `10`, `11`, false},
		{"integers past float64", `9007199254740993`, `9007199254740992`, false},
		{"a negative and a positive", `-1`, `1`, false},
		{"a number and its text", `10`, `"10"`, false},
		{"true and false", `true`, `false`, false},
		{"null and false", `null`, `false`, false},
		{"white space", ` [1, 2] `, `[1,2]`, true},
		{"a list reordered", `[1,2]`, `[2,1]`, false},
		{"a list longer", `[1,2]`, `[1,2,3]`, false},
		{"members reordered", `{"a":1,"b":[true]}`, `{"b":[true],"a":1.0}`, true},
		{"a member more", `{"a":1}`, `{"a":1,"b":null}`, false},
		{"a member changed deep", `{"a":{"b":[{"c":"x"}]}}`, `{"a":{"b":[{"c":"y"}]}}`, false},
		{"a repeated key: its last", `{"a":1,"a":2}`, `{"a":2}`, true},
		{"an escaped key", `{"\u0061":1}`, `{"a":1}`, true},
		{"an object and a list", `{}`, `[]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameJSON(tt.a, tt.b); got != tt.want {
				t.Errorf("sameJSON(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
			if got := sameJSON(tt.b, tt.a); got != tt.want {
				t.Errorf("sameJSON(%s, %s) = %v, want %v", tt.b, tt.a, got, tt.want)
			}
		})
	}
}
