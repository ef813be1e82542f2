package dsl

// Hostile tests for issue 15's .entity file form: each test is a defect
// found by review, failing until it is fixed.

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHostileTriplesToFileLoss: triples declarations that PrintEntities
// writes, but that do not read back as the same triples (the README: "every
// triple declaration has a file form", line breaks and "#" rule names
// aside).
func TestHostileTriplesToFileLoss(t *testing.T) {
	tests := []struct {
		name   string
		entity string
		decl   []string
	}{
		// fileType (print.go) writes a quoted reference without the "[]"
		// of a typed list: "[]$first name" comes back as "$first name", a
		// single object instead of a list (found by FuzzParse).
		{"list of refs to a quoted name", "a", []string{"x", "[]$first name", ""}},
		{"list of refs to a name starting with a quote", "a", []string{"x", "[]$'q", ""}},
		// The BOM that ParseFile strips is the first rune of the entity's
		// name: the entity is silently renamed (found by FuzzFileRoundTrip).
		{"entity name starting with a BOM", "\ufeffuser", []string{"x", "string", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse(tt.entity, tt.decl...)
			if err != nil {
				t.Fatal(err)
			}
			out, err := PrintEntities(e)
			if err != nil {
				t.Fatalf("PrintEntities: %v", err)
			}
			f, err := ParseFile("t.entity", out)
			if err != nil {
				t.Fatalf("the file form does not parse: %v\n%s", err, out)
			}
			if len(f.Entities) != 1 {
				t.Fatalf("%d entities read back from\n%s", len(f.Entities), out)
			}
			got := f.Entities[0]
			if got.Name != e.Name || !slices.Equal(e.Triples(), got.Triples()) {
				t.Fatalf("through the file form:\n%s\nname %q, want %q\n%s", out, got.Name, e.Name, cmp.Diff(e.Triples(), got.Triples()))
			}
		})
	}
}

// TestHostileListRefQuotedInFile: the file form has no way to write a
// typed list of references to a quoted name: `[]$'first name'` is read as
// the type "[]$'first" and a rule "name'" (file.go typeWord knows "$'…'"
// only).
func TestHostileListRefQuotedInFile(t *testing.T) {
	src := "a {\n  x  []$'first name'\n}\n"
	f, err := ParseFile("t.entity", []byte(src))
	if err != nil {
		t.Fatalf("ParseFile: %v", err)
	}
	x := f.Entities[0].Fields[0]
	if x.Kind != FieldRef || !x.List || x.Ref != "first name" || len(x.Rules) != 0 {
		t.Fatalf("field: kind %d, list %v, ref %q, rules %d; want a list of $'first name' without rules", x.Kind, x.List, x.Ref, len(x.Rules))
	}
}

// TestHostileFileErrorsHaveCaret: the README and ParseFile's doc promise
// that errors in a file show the line with a caret under the fault; some
// come without any view.
func TestHostileFileErrorsHaveCaret(t *testing.T) {
	tests := []struct {
		name, src string
	}{
		// parse (file.go) adds the error with e.Pos only, no Source.
		{"unclosed entity", "user {\n  id  number  req\n"},
		{"unclosed entity after a group", "user {\n  g {\n    a string\n  }\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFile("f.entity", []byte(tt.src))
			var l ErrorList
			if !errors.As(err, &l) {
				t.Fatalf("err = %v", err)
			}
			for _, e := range l {
				if e.Source == "" || !strings.Contains(e.Error(), "^") {
					t.Errorf("error without its line and caret:\n%v", e)
				}
			}
		})
	}
}

// TestHostileNoCascade: one mistake gives one error. A group line whose
// name fails to lex (an unclosed quote) opens no group, so its "}" closes
// the entity and every later line is read as a new entity; a "{" on the
// line after an entity's name is read as an entity named "{".
func TestHostileNoCascade(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // the errors' first lines
	}{
		{"bad group name", "user {\n  'g {\n    a string\n  }\n  b string\n}\n",
			[]string{`f.entity:2:3: entity "user": unclosed quote '`}},
		{"brace on its own line", "user\n{\n  a string\n}\n",
			[]string{`f.entity:1:5: entity "user": want "{" to open entity "user": an entity's first line is its name, the methods its requests must use if any, then "{"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFile("f.entity", []byte(tt.src))
			var l ErrorList
			if !errors.As(err, &l) {
				t.Fatalf("err = %v", err)
			}
			var got []string
			for _, e := range l {
				got = append(got, strings.SplitN(e.Error(), "\n", 2)[0])
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHostileFuzzSeeds: the inputs the fuzzers found, as regular tests.
func TestHostileFuzzSeeds(t *testing.T) {
	t.Run("FuzzFileRoundTrip/bom name", func(t *testing.T) {
		file, err := ParseFile("f.entity", []byte("\ufeff\ufeff {\n}"))
		if err != nil {
			t.Fatal(err)
		}
		out, err := file.Print()
		if err != nil {
			t.Fatal(err)
		}
		checkFileRoundTrip(t, file, out)
	})
	t.Run("FuzzParse/list ref with space", func(t *testing.T) {
		e, err := Parse("0", "0", "[]$0 0", "")
		if err != nil {
			t.Fatal(err)
		}
		checkTriplesToFile(t, e)
	})
}
