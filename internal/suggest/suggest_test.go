package suggest

import (
	"strconv"
	"strings"
	"testing"
)

var types = []string{"string", "text", "number", "num", "int", "integer", "long", "float", "double", "bool", "boolean", "flag", "date", "datetime", "timestamp", "list", "array", "object", "map", "json", "none", "no"}

func TestNear(t *testing.T) {
	rules := []string{"req", "required", "default", "rename", "range", "min", "max", "email", "in", "len", "regex", "format", "msg"}
	tests := []struct {
		name       string
		in         string
		candidates []string
		want       string
	}{
		{"a letter left out", "nmber", types, "number"},
		{"another", "strng", types, "string"},
		{"a letter added", "rangee", rules, "range"},
		{"a letter changed", "rnge", rules, "range"},
		{"two letters swapped", "emial", rules, "email"},
		{"case does not count", "NMBER", types, "number"},
		{"case alone is a difference", "User", []string{"user", "users"}, "user"},
		{"an entity", "mony", []string{"money", "order"}, "money"},
		{"a short name, one edit", "rq", rules, "req"},
		{"too far for a short name", "rgx", rules, ""},
		{"two edits in a long name", "requird_x", []string{"required_x"}, "required_x"},
		{"two edits in a short name", "rnag", []string{"range"}, ""},
		{"the first of equally near ones", "mix", rules, "min"},
		{"nothing near", "color", rules, ""},
		{"no candidates", "x", nil, ""},
		{"a name of one rune is near nothing", "b", []string{"a", "bb"}, ""},
		{"an empty name", "", rules, ""},
		{"the name itself is no suggestion", "range", []string{"range"}, ""},
		{"non-ASCII runes count as one", "nümber", types, "number"},
		{"a name too long to compare", strings.Repeat("a", maxName+1), []string{strings.Repeat("a", maxName)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Near(tt.in, tt.candidates); got != tt.want {
				t.Errorf("Near(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestDidYouMean(t *testing.T) {
	if got := DidYouMean("mony", []string{"money"}, func(s string) string { return "$" + s }); got != " (did you mean $money?)" {
		t.Errorf("got %q", got)
	}
	if got := DidYouMean("zzz", []string{"money"}, strconv.Quote); got != "" {
		t.Errorf("got %q, want nothing", got)
	}
}

// TestDistance compares the bounded distance with the table computed in
// full, on every pair of a small alphabet's words.
func TestDistance(t *testing.T) {
	words := []string{"", "a", "ab", "ba", "abc", "acb", "bca", "cab", "abcd", "badc", "dcba", "aabb", "abab", "ca"}
	for _, a := range words {
		for _, b := range words {
			full := distance([]rune(a), []rune(b), 100)
			if want := osa(a, b); full != want {
				t.Errorf("distance(%q, %q) = %d, want %d", a, b, full, want)
			}
			for bound := 1; bound <= 4; bound++ {
				if got := distance([]rune(a), []rune(b), bound); min(got, bound) != min(full, bound) {
					t.Errorf("distance(%q, %q, bound %d) = %d, the distance is %d", a, b, bound, got, full)
				}
			}
		}
	}
}

// osa is the optimal string alignment distance, with the whole table.
func osa(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
