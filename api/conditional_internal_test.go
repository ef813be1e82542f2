package api

import "testing"

// TestMatches: the entity-tag lists of If-Match and If-None-Match (RFC
// 9110, 13.1.1 and 13.1.2), compared strongly and weakly.
func TestMatches(t *testing.T) {
	const tag = `"abc"`
	tests := []struct {
		name         string
		values       []string
		strong, weak bool
	}{
		{"none", nil, false, false},
		{"the tag", []string{`"abc"`}, true, true},
		{"weak", []string{`W/"abc"`}, false, true},
		{"another", []string{`"abd"`}, false, false},
		{"a list", []string{`"x", "abc"`}, true, true},
		{"a list, tight", []string{`"x","abc"`}, true, true},
		{"a list, tabs and empty members", []string{"\t,\"x\" , ,\t\"abc\""}, true, true},
		{"two header lines", []string{`"x"`, `W/"abc"`}, false, true},
		{"any", []string{"*"}, true, true},
		{"unquoted", []string{"abc"}, false, false},
		{"unterminated", []string{`"abc`}, false, false},
		{"junk before it", []string{`"x" junk, "abc"`}, false, false},
		{"a lower-case weak prefix", []string{`w/"abc"`}, false, false},
		{"a longer tag", []string{`"abcd"`}, false, false},
		{"empty", []string{""}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := matches(tt.values, tag, false); got != tt.strong {
				t.Errorf("strong: %v, want %v", got, tt.strong)
			}
			if got := matches(tt.values, tag, true); got != tt.weak {
				t.Errorf("weak: %v, want %v", got, tt.weak)
			}
		})
	}
}

// FuzzMatches: any header value parses without a panic; the tag of any
// body is found in a list after another tag, and its weak form only by a
// weak comparison.
func FuzzMatches(f *testing.F) {
	for _, s := range []string{`"a", W/"b"`, "*", `"`, `W/`, `,,`, `"x" y`} {
		f.Add(s, []byte("body"))
	}
	f.Fuzz(func(t *testing.T, header string, body []byte) {
		tag := string(appendTag(nil, body))
		matches([]string{header}, tag, true)
		matches([]string{header}, tag, false)
		if !matches([]string{`"a", ` + tag}, tag, false) || matches([]string{`W/` + tag}, tag, false) || !matches([]string{`W/` + tag}, tag, true) {
			t.Errorf("the tag %s of %q is not found as it should be", tag, body)
		}
	})
}
