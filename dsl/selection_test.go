package dsl

import (
	"errors"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// st is a step named name at byte off.
func st(name string, off int) Step { return Step{Name: name, Offset: off} }

// path is a term of the steps, without parentheses.
func path(steps ...Step) Term { return Term{Path: steps} }

// sub gives t the sub-selection terms.
func sub(t Term, terms ...Term) Term {
	t.Sub = terms
	return t
}

var parseSelectionTests = []struct {
	name string
	spec string
	want []Term
}{
	{"one name", "id", []Term{path(st("id", 0))}},
	{"names", "id,name", []Term{path(st("id", 0)), path(st("name", 3))}},
	{"a path", "a/b/c", []Term{path(st("a", 0), st("b", 2), st("c", 4))}},
	{"a sub-selection", "list(name,details(mail))",
		[]Term{sub(path(st("list", 0)), path(st("name", 5)), sub(path(st("details", 10)), path(st("mail", 18))))}},
	{"a path with a sub-selection", "a/b(c)", []Term{sub(path(st("a", 0), st("b", 2)), path(st("c", 4)))}},
	{"a star", "*", []Term{path(st("*", 0))}},
	{"a star ending a path", "a/*", []Term{path(st("a", 0), st("*", 2))}},
	{"a star in parentheses", "a(*),b", []Term{sub(path(st("a", 0)), path(st("*", 2))), path(st("b", 5))}},
	{"spaces around names", " a , b / c ( d ) , e", []Term{
		path(st("a", 1)), sub(path(st("b", 5), st("c", 9)), path(st("d", 13))), path(st("e", 19))}},
	{"a space inside a name", "first name", []Term{path(st("first name", 0))}},
	{"a tab is part of a name", "\ta", []Term{path(st("\ta", 0))}},
	{"any other byte is a name's", "é,\xff,a.b,-", []Term{path(st("é", 0)), path(st("\xff", 3)), path(st("a.b", 5)), path(st("-", 9))}},
	{"two stars are a name", "**", []Term{path(st("**", 0))}},
	{"as long as allowed", strings.Repeat("a", MaxSelectionLen), []Term{path(st(strings.Repeat("a", MaxSelectionLen), 0))}},
	{"as deep as allowed", strings.Repeat("a(", MaxSelectionDepth-1) + "b" + strings.Repeat(")", MaxSelectionDepth-1), deepTerms(MaxSelectionDepth)},
}

// deepTerms is the selection a(a(…(b)…)) of n levels.
func deepTerms(n int) []Term {
	t := path(st("b", 2*(n-1)))
	for i := n - 2; i >= 0; i-- {
		t = sub(path(st("a", 2*i)), t)
	}
	return []Term{t}
}

func TestParseSelection(t *testing.T) {
	for _, tt := range parseSelectionTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSelection(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			// reflect first: cmp takes a time exponential in the depth of
			// nested one-element slices.
			if !reflect.DeepEqual(tt.want, got) {
				t.Fatalf("ParseSelection(%q) (-want +got):\n%s", tt.spec, cmp.Diff(tt.want, got))
			}
		})
	}
}

var selectionErrorTests = []struct {
	name   string
	spec   string
	offset int
	msg    string
}{
	{"empty", "", 0, "expected a field name, got the end"},
	{"only spaces", "  ", 2, "expected a field name, got the end"},
	{"empty name", "offset,,limit", 7, "expected a field name, got a comma"},
	{"trailing comma", "offset,", 7, "expected a field name, got the end"},
	{"empty parentheses", "list()", 5, "expected a field name, got a closing parenthesis"},
	{"empty step", "a//b", 2, "expected a field name, got a slash"},
	{"a parenthesis first", "(a)", 0, "expected a field name, got an opening parenthesis"},
	{"unclosed parenthesis", "list(name", 9, "expected a closing parenthesis for the one at byte 4"},
	{"unclosed inner parenthesis", "a(b(c),d", 8, "expected a closing parenthesis for the one at byte 1"},
	{"stray closing parenthesis", "list)", 4, "a closing parenthesis with no opening one"},
	{"one closing parenthesis too many", "a(b))", 4, "a closing parenthesis with no opening one"},
	{"text after a sub-selection", "name(x)é", 7, "expected a comma or the end after a sub-selection"},
	{"a second sub-selection", "a(b) (c)", 5, "expected a comma or the end after a sub-selection"},
	{"a path after a sub-selection", "a(b)/c", 4, "expected a comma or the end after a sub-selection"},
	{"a name after a sub-selection, nested", "a(b(c)d)", 6, "expected a closing parenthesis for the one at byte 1"},
	{"a star with a sub-selection", "*(a)", 0, starAlone},
	{"a star in the middle of a path", "*/name", 0, starAlone},
	{"a star after a name, with a sub-selection", "a/ * (b)", 3, starAlone},
	{"too long", strings.Repeat("a,", 2100), 4096, "the selection is longer than 4096 bytes"},
	{"too deep by parentheses", strings.Repeat("list(", 70) + "name" + strings.Repeat(")", 70), 320, "the selection nests more than 64 levels"},
	{"too deep by a path", strings.Repeat("a/", 64) + "b", 128, "the selection nests more than 64 levels"},
	{"too deep by both", strings.Repeat("a(", 60) + "b/b/b/b/b" + strings.Repeat(")", 60), 128, "the selection nests more than 64 levels"},
}

// TestParseSelectionErrors: each error's offset and message, which
// quotes nothing of the selection.
func TestParseSelectionErrors(t *testing.T) {
	for _, tt := range selectionErrorTests {
		t.Run(tt.name, func(t *testing.T) {
			terms, err := ParseSelection(tt.spec)
			var se *SelectionError
			if !errors.As(err, &se) {
				t.Fatalf("ParseSelection(%q) = %v, %v; want a *SelectionError", tt.spec, terms, err)
			}
			if terms != nil {
				t.Errorf("terms %v returned with the error", terms)
			}
			if se.Offset != tt.offset || se.Msg != tt.msg {
				t.Errorf("error at %d: %q; want at %d: %q", se.Offset, se.Msg, tt.offset, tt.msg)
			}
			if want := "dsl: field selection: at byte " + strconv.Itoa(tt.offset) + ", " + tt.msg; err.Error() != want {
				t.Errorf("Error() = %q, want %q", err.Error(), want)
			}
		})
	}
}

// selectionMessages matches every message a SelectionError may carry: a
// fixed text, with numbers only.
var selectionMessages = regexp.MustCompile(`^(expected a field name, got (the end|a comma|a slash|an opening parenthesis|a closing parenthesis)` +
	`|expected a closing parenthesis for the one at byte [0-9]+` +
	`|a closing parenthesis with no opening one` +
	`|expected a comma or the end after a sub-selection` +
	`|\* selects every field of its level: it ends a path and takes no sub-selection` +
	`|the selection is longer than 4096 bytes` +
	`|the selection nests more than 64 levels)$`)

// FuzzParseSelection checks that ParseSelection never panics; that an
// error is a *SelectionError inside the selection whose message is one of
// the fixed texts, quoting nothing of it; and that a selection it accepts
// prints back as terms that parse to the same, each step's offset
// pointing at its name.
func FuzzParseSelection(f *testing.F) {
	for _, tt := range parseSelectionTests {
		f.Add(tt.spec)
	}
	for _, tt := range selectionErrorTests {
		f.Add(tt.spec)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		terms, err := ParseSelection(spec)
		if err != nil {
			var se *SelectionError
			if !errors.As(err, &se) || terms != nil {
				t.Fatalf("ParseSelection(%q) = %v, %v", spec, terms, err)
			}
			if se.Offset < 0 || se.Offset > len(spec) {
				t.Fatalf("ParseSelection(%q): offset %d outside the selection", spec, se.Offset)
			}
			if !selectionMessages.MatchString(se.Msg) {
				t.Fatalf("ParseSelection(%q): message %q is no fixed text", spec, se.Msg)
			}
			return
		}
		if len(spec) > MaxSelectionLen {
			t.Fatalf("ParseSelection accepted %d bytes", len(spec))
		}
		checkSteps(t, spec, terms, 0)
		parts := make([]string, len(terms))
		for i, tm := range terms {
			parts[i] = tm.String()
		}
		printed := strings.Join(parts, ",")
		again, err := ParseSelection(printed)
		if err != nil {
			t.Fatalf("ParseSelection(%q), printed from %q: %v", printed, spec, err)
		}
		if !reflect.DeepEqual(names(terms), names(again)) {
			t.Fatalf("%q printed as %q reads back as %v, not %v", spec, printed, again, terms)
		}
	})
}

// checkSteps checks that each step's offset points at its name, that
// names are not empty and hold no delimiter nor an outer space, that a
// star ends its term, and that nesting stays within the limit.
func checkSteps(t *testing.T, spec string, terms []Term, depth int) {
	t.Helper()
	if terms != nil && len(terms) == 0 {
		t.Fatalf("%q: an empty list of terms", spec)
	}
	for _, tm := range terms {
		if len(tm.Path) == 0 || len(tm.Path)+depth > MaxSelectionDepth {
			t.Fatalf("%q: a path of %d steps at depth %d", spec, len(tm.Path), depth)
		}
		for i, s := range tm.Path {
			if s.Name == "" || strings.ContainsAny(s.Name, ",/()") || strings.Trim(s.Name, " ") != s.Name ||
				!strings.HasPrefix(spec[s.Offset:], s.Name) {
				t.Fatalf("%q: step %q at %d", spec, s.Name, s.Offset)
			}
			if s.Name == "*" && (i < len(tm.Path)-1 || tm.Sub != nil) {
				t.Fatalf("%q: a star that does not end its term", spec)
			}
		}
		checkSteps(t, spec, tm.Sub, depth+len(tm.Path))
	}
}

// names is terms without their offsets.
func names(terms []Term) []any {
	out := make([]any, 0, len(terms))
	for _, tm := range terms {
		var p []string
		for _, s := range tm.Path {
			p = append(p, s.Name)
		}
		out = append(out, []any{p, tm.Sub != nil, names(tm.Sub)})
	}
	return out
}
