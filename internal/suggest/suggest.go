// Package suggest finds, among the names a declaration may use, the one a
// misspelt name was most likely meant to be, for the "did you mean"
// of declaration errors: an unknown type, rule, directive, format or
// entity.
package suggest

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// maxName is the longest name compared, in bytes: a longer one is no
// misspelling worth a suggestion, and the comparison stays cheap whatever
// a declaration holds.
const maxName = 64

// Near returns the candidate nearest to name, or "" when none is near
// enough to be what name was meant to be. Names are compared without
// regard to case, by the optimal string alignment distance over runes
// (an insertion, a deletion, a substitution or a swap of two neighbours
// each count one); a candidate is near when that distance is at most one
// for names of two to five runes, two up to eight, and three beyond (a
// name of one rune is near nothing). Of
// the candidates equally near, the first wins. A candidate equal to name
// is never suggested.
func Near(name string, candidates []string) string {
	if near := Nearest(name, candidates, 1); len(near) > 0 {
		return near[0]
	}
	return ""
}

// Nearest returns at most n of the candidates near name (as Near judges
// them), nearest first; of those equally near, in the candidates' order.
func Nearest(name string, candidates []string, n int) []string {
	runes := utf8.RuneCountInString(name)
	if runes == 0 || len(name) > maxName || n <= 0 {
		return nil
	}
	limit := 1
	switch {
	case runes > 8:
		limit = 3
	case runes > 5:
		limit = 2
	case runes == 1:
		return nil // one edit of one rune keeps nothing of it
	}
	a := lower(name)
	type near struct {
		name string
		d    int
	}
	var found []near
	for _, c := range candidates {
		if c == name || c == "" || len(c) > maxName {
			continue
		}
		if d := distance(a, lower(c), limit+1); d <= limit {
			found = append(found, near{c, d})
		}
	}
	slices.SortStableFunc(found, func(x, y near) int { return x.d - y.d })
	out := make([]string, 0, min(n, len(found)))
	for _, f := range found[:min(n, len(found))] {
		out = append(out, f.name)
	}
	return out
}

// DidYouMean returns " (did you mean X?)", X being the candidate Near
// name finds as show prints it, or "" when there is none.
func DidYouMean(name string, candidates []string, show func(string) string) string {
	if c := Near(name, candidates); c != "" {
		return " (did you mean " + show(c) + "?)"
	}
	return ""
}

func lower(s string) []rune {
	rs := []rune(s)
	for i, r := range rs {
		rs[i] = unicode.ToLower(r)
	}
	return rs
}

// distance returns the optimal string alignment distance of a and b, or
// a value of at least bound once it is sure to reach it.
func distance(a, b []rune, bound int) int {
	if d := len(a) - len(b); d >= bound || -d >= bound {
		return bound
	}
	// Three rows of the table: two back, one back, this one.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	prevMin := 0
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			rowMin = min(rowMin, d)
		}
		// A cell draws on the two rows above it: once both are at the
		// bound, so is every cell below.
		if rowMin >= bound && prevMin >= bound {
			return bound
		}
		prevMin = rowMin
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
