package testkit

import "testing"

// TestAt: the value at a path of a JSON document, compacted, HTML left as
// it is; a missing step, or an index past the list, is null.
func TestAt(t *testing.T) {
	doc := []byte(`{"a": {"b": [1, {"c": "<x>"}]}, "n": 1.50}`)
	tests := []struct {
		name string
		path []string
		want string
	}{
		{"the whole document", nil, `{"a":{"b":[1,{"c":"<x>"}]},"n":1.50}`},
		{"a key", []string{"n"}, `1.50`},
		{"an index", []string{"a", "b", "0"}, `1`},
		{"through a list", []string{"a", "b", "1", "c"}, `"<x>"`},
		{"a missing key", []string{"z"}, `null`},
		{"an index past the list", []string{"a", "b", "2"}, `null`},
		{"a step into a number", []string{"n", "x"}, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := At(t, doc, tt.path...); got != tt.want {
				t.Errorf("At(%v) = %s, want %s", tt.path, got, tt.want)
			}
		})
	}
}
