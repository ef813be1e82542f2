package dsl

import (
	"errors"
	"strings"
	"testing"

	"github.com/expose-go/expose/rules"
)

// nested returns the triples of n groups nested one in the other, with a
// value field in the innermost.
func nested(n int) []string {
	decl := make([]string, 0, 6*n+3)
	for range n {
		decl = append(decl, "g", "{", "")
	}
	decl = append(decl, "x", "num", "")
	for range n {
		decl = append(decl, "g", "}", "")
	}
	return decl
}

// depthOf returns how many groups deep the innermost field of fs is.
func depthOf(fs []*Field) int {
	d := 0
	for len(fs) > 0 && fs[0].Kind == FieldGroup {
		fs = fs[0].Fields
		d++
	}
	return d
}

func TestNestingLimit(t *testing.T) {
	tests := []struct {
		name    string
		groups  int
		wantErr string // the first error's text, "" when Parse accepts
		nErrs   int
	}{
		{"one group", 1, "", 0},
		{"at the limit", MaxNesting, "", 0},
		{"one past the limit", MaxNesting + 1,
			`dsl: entity "e", field "g" (triple 10001, type): group "g" nests deeper than 10000 groups`, 1},
		{"a million groups", 1_000_000,
			`dsl: entity "e", field "g" (triple 10001, type): group "g" nests deeper than 10000 groups`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			decl := nested(tt.groups)
			e, err := Parse("e", decl...)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if got := depthOf(e.Fields); got != tt.groups {
					t.Errorf("tree %d groups deep, want %d", got, tt.groups)
				}
				if got := len(e.Triples()); got != len(decl) {
					t.Errorf("Triples() has %d strings, want %d", got, len(decl))
				}
				return
			}
			var l ErrorList
			if !errors.As(err, &l) {
				t.Fatalf("err = %v, want an ErrorList", err)
			}
			if l.Len() != tt.nErrs || l[0].Error() != tt.wantErr {
				t.Errorf("errors (%d):\n%s\nwant %d, the first\n%s", l.Len(), listText(l), tt.nErrs, tt.wantErr)
			}
			if e != nil {
				t.Errorf("Parse returned an entity with its error")
			}
			part, _ := ParsePartial("e", decl...)
			if got := depthOf(part.Fields); got != MaxNesting {
				t.Errorf("ParsePartial: tree %d groups deep, want the %d allowed", got, MaxNesting)
			}
		})
	}
}

// TestNestingLimitErrors checks the errors reported around groups left out
// for their depth: one for the depth, none for their balanced closing, and
// the usual ones for groups left open and for rules on a closing triple.
func TestNestingLimitErrors(t *testing.T) {
	decl := nested(MaxNesting + 2)
	decl = decl[:len(decl)-3*(MaxNesting+2)] // close none
	decl = append(decl, "g", "}", "req", "g", "}", "")
	_, err := Parse("e", decl...)
	var l ErrorList
	if !errors.As(err, &l) {
		t.Fatalf("err = %v, want an ErrorList", err)
	}
	// The depth, the rules on a closing "}", and the MaxNesting groups
	// never closed.
	if want := 2 + MaxNesting; l.Len() != want {
		t.Fatalf("%d errors, want %d:\n%s", l.Len(), want, listText(l[:3]))
	}
	var depth, closing, open int
	for _, e := range l {
		switch {
		case strings.Contains(e.Msg, "nests deeper"):
			depth++
		case strings.Contains(e.Msg, "takes no rules"):
			closing++
		case strings.Contains(e.Msg, "never closed"):
			open++
		}
	}
	if depth != 1 || closing != 1 || open != MaxNesting {
		t.Errorf("%d depth, %d closing-rules, %d unclosed errors; want 1, 1, %d", depth, closing, open, MaxNesting)
	}
}

// deepTree builds by hand a tree of n nested groups around a value field.
func deepTree(n int) *Entity {
	inner := &Field{Name: "x", Kind: FieldValue, Type: rules.Int}
	for range n {
		inner = &Field{Name: "g", Kind: FieldGroup, Fields: []*Field{inner}}
	}
	return &Entity{Name: "e", Fields: []*Field{inner}}
}

// TestWalkDeepTree checks that Triples walks a tree built by hand, nested
// far deeper than Parse accepts, without recursion (String shares the walk;
// its indentation makes its output quadratic in the depth, so it is checked
// on a shallower tree).
func TestWalkDeepTree(t *testing.T) {
	const n = 1_000_000
	if got, want := len(deepTree(n).Triples()), 3*(2*n+1); got != want {
		t.Errorf("Triples() has %d strings, want %d", got, want)
	}
	const m = 1000
	s := deepTree(m).String()
	if want := "\n" + strings.Repeat("\t", m+1) + `"x", "number", "",` + "\n"; !strings.Contains(s, want) {
		t.Errorf("String() does not indent the innermost field %d tabs deep", m+1)
	}
	if !strings.HasSuffix(s, "\n\t"+`"g", "}", "",`+"\n") {
		t.Errorf("String() does not end with the outermost closing triple: %q", s[max(0, len(s)-40):])
	}
}
