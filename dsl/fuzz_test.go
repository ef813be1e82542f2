package dsl

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The fuzz input for a declaration is its strings joined by a separator
// byte, which is itself fuzzed; seeds use fuzzSep. An empty input is no
// strings.
const fuzzSep = 0

func joinDecl(decl []string) string { return strings.Join(decl, string(rune(fuzzSep))) }

func splitDecl(s string, sep byte) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, string([]byte{sep}))
}

// FuzzParse checks that Parse never panics; that what it accepts prints back
// as triples that parse to an equal tree; and that what it rejects comes as
// an ErrorList of well-formed errors. Seeds come from parseTests,
// errorTests and testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.entity, byte(fuzzSep), joinDecl(tt.decl))
	}
	for _, tt := range errorTests {
		f.Add(tt.entity, byte(fuzzSep), joinDecl(tt.decl))
	}
	f.Add("user", byte(','), "id,num,req | max 5,g,{,,x,$other,,g,},")
	f.Fuzz(func(t *testing.T, entity string, sep byte, in string) {
		decl := splitDecl(in, sep)
		e, err := Parse(entity, decl...)
		if err != nil {
			if e != nil {
				t.Fatalf("Parse returned an entity with its error")
			}
			triples := decl
			if len(decl)%3 == 1 && isMethodList(decl[0]) {
				triples = decl[1:] // positions count the triples after the methods
			}
			checkErrors(t, entity, triples, err)
			return
		}
		if e.Name != entity {
			t.Fatalf("entity name %q, want %q", e.Name, entity)
		}
		checkTree(t, e.Fields, 0, len(decl)/3+1)
		if n := len(e.Triples()); n != len(decl) {
			t.Fatalf("Triples() has %d strings, the input %d", n, len(decl))
		}
		_ = e.String()
		checkRoundTrip(t, e)
		checkTriplesToFile(t, e)
	})
}

// FuzzFileRoundTrip checks that ParseFile never panics; that what it
// rejects comes as a sorted ErrorList of errors placed in the file; and
// that what it accepts prints as a file that reads back as the same tree
// and prints as itself. Seeds come from testdata/file, testdata/fileerrors,
// parseFileTests and testdata/fuzz/FuzzFileRoundTrip.
func FuzzFileRoundTrip(f *testing.F) {
	for _, dir := range []string{"testdata/file", "testdata/fileerrors"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.entity"))
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	for _, tt := range parseFileTests {
		f.Add([]byte(tt.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := ParseFile("f.entity", src)
		if err != nil {
			if file != nil {
				t.Fatalf("ParseFile returned a file with its error")
			}
			var l ErrorList
			if !errors.As(err, &l) || l.Len() == 0 {
				t.Fatalf("error %T is not a non-empty ErrorList: %v", err, err)
			}
			for i, e := range l {
				if e.Msg == "" || e.Pos.File != "f.entity" || e.Pos.Line < 1 {
					t.Fatalf("error %d not placed in the file: %#v", i, e)
				}
				if i > 0 && (e.Pos.Line < l[i-1].Pos.Line) {
					t.Fatalf("errors not sorted: line %d after %d", e.Pos.Line, l[i-1].Pos.Line)
				}
				_ = e.Error()
			}
			return
		}
		out, err := file.Print()
		if err != nil {
			t.Fatalf("Print of a file read: %v", err)
		}
		checkFileRoundTrip(t, file, out)
	})
}

// checkTree checks the invariants of parsed fields: triples increasing and
// between lo and hi (excluded), kinds consistent with their contents.
func checkTree(t *testing.T, fs []*Field, lo, hi int) {
	t.Helper()
	last := lo
	for _, f := range fs {
		if f.Pos.Triple <= last || f.Pos.Triple >= hi {
			t.Fatalf("field %q at triple %d, after %d, before %d", f.Name, f.Pos.Triple, last, hi)
		}
		last = f.Pos.Triple
		if strings.TrimSpace(f.Name) == "" {
			t.Fatalf("field with an empty name accepted at triple %d", f.Pos.Triple)
		}
		switch f.Kind {
		case FieldGroup:
			if f.ClosePos.Triple <= f.Pos.Triple || f.ClosePos.Triple >= hi {
				t.Fatalf("group %q closed at triple %d, opened at %d", f.Name, f.ClosePos.Triple, f.Pos.Triple)
			}
			checkTree(t, f.Fields, f.Pos.Triple, f.ClosePos.Triple)
			last = f.ClosePos.Triple
		case FieldRef:
			if f.Ref == "" || f.Ref != strings.TrimSpace(f.Ref) {
				t.Fatalf("bad reference %q", f.Ref)
			}
		default:
			if len(f.Fields) != 0 {
				t.Fatalf("field %q of kind %d has fields", f.Name, f.Kind)
			}
		}
		for _, r := range f.Rules {
			checkRule(t, r, f.RulesText)
		}
	}
}

// checkRule checks that a parsed rule points into its source, and that its
// name and unquoted arguments are words: not empty, without white space (as
// strings.TrimSpace sees it) or "|".
func checkRule(t *testing.T, r *Rule, src string) {
	t.Helper()
	if !isWord(r.Name) || !strings.HasPrefix(src[r.Pos.Offset:], r.Name) {
		t.Fatalf("rule %q at offset %d of %q", r.Name, r.Pos.Offset, src)
	}
	for _, a := range r.Args {
		if a.Pos.Offset <= r.Pos.Offset || a.Pos.Offset >= len(src) {
			t.Fatalf("argument %q at offset %d of %q", a.Text, a.Pos.Offset, src)
		}
		if !a.Quoted && (!isWord(a.Text) || !strings.HasPrefix(src[a.Pos.Offset:], a.Text)) {
			t.Fatalf("unquoted argument %q at offset %d of %q", a.Text, a.Pos.Offset, src)
		}
	}
}

func isWord(s string) bool {
	return s != "" && strings.TrimSpace(s) == s && !strings.ContainsFunc(s, unicode.IsSpace) && !strings.Contains(s, "|")
}

// checkErrors checks that err is a non-empty ErrorList, sorted, of errors
// that name entity, carry a message and point into the input.
func checkErrors(t *testing.T, entity string, decl []string, err error) {
	t.Helper()
	var l ErrorList
	if !errors.As(err, &l) {
		t.Fatalf("error %T is not an ErrorList: %v", err, err)
	}
	if l.Len() == 0 {
		t.Fatalf("empty ErrorList returned as an error")
	}
	_ = err.Error()
	for i, e := range l {
		if e == nil {
			t.Fatalf("nil error %d in the list", i)
		}
		if e.Msg == "" {
			t.Fatalf("error %d has no message: %#v", i, e)
		}
		if e.Entity != entity {
			t.Fatalf("error %d names entity %q, want %q", i, e.Entity, entity)
		}
		if e.Pos.Triple < 0 || e.Pos.Triple > len(decl)/3+1 {
			t.Fatalf("error %d at triple %d of %d strings: %v", i, e.Pos.Triple, len(decl), e)
		}
		if e.Source != "" {
			if e.Pos.Part != PartRules || e.Pos.Triple < 1 || e.Source != decl[3*(e.Pos.Triple-1)+2] {
				t.Fatalf("error %d quotes %q, not the rules of its triple: %v", i, e.Source, e)
			}
			if e.Pos.Offset < 0 || e.Pos.Offset > len(e.Source) {
				t.Fatalf("error %d offset %d outside its source %q", i, e.Pos.Offset, e.Source)
			}
		}
		if i > 0 && e.Pos.Triple < l[i-1].Pos.Triple {
			t.Fatalf("errors not sorted: triple %d after %d", e.Pos.Triple, l[i-1].Pos.Triple)
		}
		_ = e.Error()
	}
}

var rulesRoundTripOpts = cmp.Options{
	cmpopts.IgnoreFields(Rule{}, "Pos"),
	cmpopts.IgnoreFields(Arg{}, "Pos"),
	cmpopts.EquateEmpty(),
}

// FuzzParseRules checks that ParseRules never panics and that the rules it
// returns, with or without an error, print back as a rules string that
// parses to the same rules.
func FuzzParseRules(f *testing.F) {
	for _, tt := range parseTests {
		for i := 2; i < len(tt.decl); i += 3 {
			f.Add(tt.decl[i])
		}
	}
	for _, tt := range errorTests {
		for i := 2; i < len(tt.decl); i += 3 {
			f.Add(tt.decl[i])
		}
	}
	for _, tt := range parseRulesTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rs, err := ParseRules(s)
		if err != nil {
			var l ErrorList
			if !errors.As(err, &l) || l.Len() == 0 {
				t.Fatalf("error %T is not a non-empty ErrorList: %v", err, err)
			}
			for _, e := range l {
				if e.Msg == "" || e.Source != s || e.Pos.Part != PartRules || e.Pos.Offset < 0 || e.Pos.Offset > len(s) {
					t.Fatalf("bad error %#v for %q", e, s)
				}
			}
			_ = err.Error()
		}
		for _, r := range rs {
			checkRule(t, r, s)
		}
		printed := make([]string, len(rs))
		for i, r := range rs {
			printed[i] = r.String()
		}
		text := strings.Join(printed, " | ")
		again, err := ParseRules(text)
		if err != nil {
			t.Fatalf("ParseRules(%q), printed from %q: %v", text, s, err)
		}
		if !cmp.Equal(rs, again, rulesRoundTripOpts) {
			t.Fatalf("round trip of %q through %q (-want +got):\n%s", s, text, cmp.Diff(rs, again, rulesRoundTripOpts))
		}
	})
}

// TestFuzzFinds: inputs the fuzzers found, as regular tests.
func TestFuzzFinds(t *testing.T) {
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
