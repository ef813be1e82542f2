package dsl

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/expose-go/expose/internal/testkit"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// golden is the shared golden-file helper (internal/testkit).
var golden = testkit.Golden

// parseFileTests: what a file's lines become. Each want lists the entities
// printed as triples (Entity.String), which says everything but positions.
var parseFileTests = []struct {
	name string
	src  string
	want string
}{
	{"one field", "user {\n  id number num\n}\n", `"user",` + "\n\t" + `"id", "number", "num",` + "\n"},
	{"no final newline", "user {\n  id number\n}", `"user",` + "\n\t" + `"id", "number", "",` + "\n"},
	{"CRLF lines", "user {\r\n  id number req\r\n}\r\n", `"user",` + "\n\t" + `"id", "number", "req",` + "\n"},
	{"a byte order mark", "\uFEFFuser {\n}\n", `"user",` + "\n"},
	{"tabs", "user\t{\n\tid\tnumber\treq | max\t5\n}\n", `"user",` + "\n\t" + `"id", "number", "req | max 5",` + "\n"},
	{"an empty entity", "e {\n}\n", `"e",` + "\n"},
	{"two entities", "a {\n}\nb {\n  x $a\n}\n", `"a",` + "\n" + `"b",` + "\n\t" + `"x", "$a", "",` + "\n"},
	{"methods", "u POST {\n}\n", `"u",` + "\n\t" + `"POST",` + "\n"},
	{"methods separated by bars", "u GET|HEAD {\n}\n", `"u",` + "\n\t" + `"GET|HEAD",` + "\n"},
	{"methods separated by spaces and commas", "u PUT, PATCH {\n}\n", `"u",` + "\n\t" + `"PUT|PATCH",` + "\n"},
	{"the word form with the methods", "u POST form {\n}\n", `"u",` + "\n\t" + `"POST form",` + "\n"},
	{"the word form alone, in any case", "u FORM {\n}\n", `"u",` + "\n\t" + `"form",` + "\n"},
	{"a group", "u {\n  g { rename h\n    a string\n  }\n}\n",
		`"u",` + "\n\t" + `"g", "{", "rename h",` + "\n\t\t" + `"a", "string", "",` + "\n\t" + `"g", "}", "",` + "\n"},
	{"a group's closing name", "u {\n  g {\n  } other\n}\n",
		`"u",` + "\n\t" + `"g", "{", "",` + "\n\t" + `"other", "}", "",` + "\n"},
	{"quoted names", "'my entity' {\n  'first name' string\n  \"it's\" string\n  'a''b' string\n}\n",
		`"my entity",` + "\n\t" + `"first name", "string", "",` + "\n\t" + `"it's", "string", "",` + "\n\t" + `"a'b", "string", "",` + "\n"},
	{"a quoted reference", "u {\n  x $'my entity'\n}\n", `"u",` + "\n\t" + `"x", "$my entity", "",` + "\n"},
	{"comments", "# a\nu { # b\n  # c\n  x string req # d\n} # e\n# f\n", `"u",` + "\n\t" + `"x", "string", "req",` + "\n"},
	{"a # in quotes or inside a word", "u {\n  x string msg 'a #b' | regex a#b\n  y#z string\n}\n",
		`"u",` + "\n\t" + `"x", "string", "msg 'a #b' | regex a#b",` + "\n\t" + `"y#z", "string", "",` + "\n"},
	{"a # after a bar", "u {\n  x string req |# c\n}\n", `"u",` + "\n\t" + `"x", "string", "req |",` + "\n"},
}

// TestParseFile checks what each form of line becomes, and that the
// triples the entities print as parse to the same tree.
func TestParseFile(t *testing.T) {
	for _, tt := range parseFileTests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "a # after a bar" {
				// "req |" is an empty rule after "|": the comment ends the rules.
				_, err := ParseFile("t.entity", []byte(tt.src))
				if err == nil || !strings.Contains(err.Error(), `t.entity:2:16: entity "u", field "x": empty rule after "|"`) {
					t.Fatalf("ParseFile = %v, want an empty rule after |", err)
				}
				return
			}
			f, err := ParseFile("t.entity", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, e := range f.Entities {
				b.WriteString(e.String())
				back, err := Parse(e.Name, e.Triples()...)
				if err != nil || !cmp.Equal(e, back, triplesOpts) {
					t.Fatalf("Parse(Triples()) = %v (-want +got):\n%s", err, cmp.Diff(e, back, triplesOpts))
				}
			}
			if got := b.String(); got != tt.want {
				t.Errorf("entities:\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestParseFilePositions checks the positions of entities, fields, closing
// braces, rules, arguments and comments: file, line and byte column.
func TestParseFilePositions(t *testing.T) {
	src := "# top\nuser POST {\n  'a b'  string  req | max 5  # why\n  g {\n  }\n}\n"
	f, err := ParseFile("u.entity", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	at := func(line, col int) Pos { return Pos{File: "u.entity", Line: line, Col: col, Offset: -1} }
	e := f.Entities[0]
	a, g := e.Fields[0], e.Fields[1]
	tests := []struct {
		name      string
		got, want Pos
	}{
		{"entity", e.Pos, at(2, 1)},
		{"entity's }", e.ClosePos, at(6, 1)},
		{"quoted field", a.Pos, at(3, 3)},
		{"its type", a.TypePos, Pos{File: "u.entity", Line: 3, Col: 10, Part: PartType, Offset: -1}},
		{"rule", a.Rules[0].Pos, Pos{File: "u.entity", Line: 3, Col: 18, Part: PartRules, Offset: 0}},
		{"second rule", a.Rules[1].Pos, Pos{File: "u.entity", Line: 3, Col: 24, Part: PartRules, Offset: 6}},
		{"argument", a.Rules[1].Args[0].Pos, Pos{File: "u.entity", Line: 3, Col: 28, Part: PartRules, Offset: 10}},
		{"group", g.Pos, at(4, 3)},
		{"group's {", g.TypePos, Pos{File: "u.entity", Line: 4, Col: 5, Part: PartType, Offset: -1}},
		{"group's }", g.ClosePos, at(5, 3)},
		{"comment", f.Comments[0].Pos, at(1, 1)},
		{"trailing comment", f.Comments[1].Pos, at(3, 31)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("Pos = %+v, want %+v", tt.got, tt.want)
			}
		})
	}
	if a.SourceLine != "  'a b'  string  req | max 5  # why" || a.RulesText != "req | max 5" {
		t.Errorf("SourceLine %q, RulesText %q", a.SourceLine, a.RulesText)
	}
	if !f.Comments[1].Trailing || f.Comments[0].Trailing || f.Comments[1].Text != "# why" {
		t.Errorf("comments %+v %+v", f.Comments[0], f.Comments[1])
	}
}

// TestParseFileErrors checks every error of each file of
// testdata/fileerrors against its golden file: all are reported, each as
// file:line:col with the line and a caret under the fault.
func TestParseFileErrors(t *testing.T) {
	eachFile(t, "testdata/fileerrors/*.entity", func(t *testing.T, path string, src []byte) {
		name := filepath.Base(path)
		f, err := ParseFile(name, src)
		if f != nil || err == nil {
			t.Fatalf("ParseFile = %v, %v; want errors only", f, err)
		}
		var l ErrorList
		if !errors.As(err, &l) {
			t.Fatalf("error %T is not an ErrorList", err)
		}
		var b strings.Builder
		for _, e := range l {
			if e.Pos.File != name || e.Pos.Line < 1 {
				t.Errorf("error without a place in the file: %#v", e)
			}
			b.WriteString(e.Error())
			b.WriteString("\n")
		}
		golden(t, strings.TrimSuffix(path, ".entity")+".golden", []byte(b.String()))
	})
}

// eachFile runs fn, as a subtest named after the file, on every file that
// glob matches, which must be at least one.
func eachFile(t *testing.T, glob string, fn func(t *testing.T, path string, src []byte)) {
	t.Helper()
	paths, _ := filepath.Glob(glob)
	if len(paths) == 0 {
		t.Fatalf("no %s", glob)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fn(t, path, src)
		})
	}
}

// TestParseFileErrorsRecover: an error in one line hides none in another,
// even an error in an entity's first line.
func TestParseFileErrorsRecover(t *testing.T) {
	src := "user FETCH {\n  a nmber\n}\nb {\n  c nmbr\n}\n"
	_, err := ParseFile("r.entity", []byte(src))
	var l ErrorList
	if !errors.As(err, &l) {
		t.Fatalf("ParseFile = %v", err)
	}
	var lines []int
	for _, e := range l {
		lines = append(lines, e.Pos.Line)
	}
	if !slices.Equal(lines, []int{1, 2, 5}) {
		t.Errorf("errors on lines %v, want [1 2 5]:\n%v", lines, l)
	}
}

// TestParseFileNesting: dsl.MaxNesting bounds a file's groups as it does
// triples'.
func TestParseFileNesting(t *testing.T) {
	var b strings.Builder
	b.WriteString("e {\n")
	for range MaxNesting + 1 {
		b.WriteString("g {\n")
	}
	for range MaxNesting + 1 {
		b.WriteString("}\n")
	}
	b.WriteString("}\n")
	_, err := ParseFile("n.entity", []byte(b.String()))
	var l ErrorList
	if !errors.As(err, &l) || len(l) != 1 || !strings.Contains(l[0].Msg, "nests deeper than 10000") || l[0].Pos.Line != MaxNesting+2 {
		t.Fatalf("ParseFile = %v, want one nesting error on line %d", err, MaxNesting+2)
	}
}

// fileRoundTripOpts compares trees read from different text: positions,
// the text as written and the lines quoted are left out.
var fileRoundTripOpts = cmp.Options{
	cmpopts.IgnoreFields(Entity{}, "Pos", "ClosePos", "SourceLine"),
	cmpopts.IgnoreFields(Field{}, "Pos", "TypePos", "ClosePos", "SourceLine", "TypeName", "RulesText"),
	cmpopts.IgnoreFields(Rule{}, "Pos"),
	cmpopts.IgnoreFields(Arg{}, "Pos"),
	cmpopts.IgnoreFields(Comment{}, "Pos"),
	cmpopts.IgnoreFields(File{}, "Name"),
	cmpopts.EquateEmpty(),
}

// triplesOpts compares an entity read from a file with the one its
// triples give: the descriptions, which triples do not hold, are left out
// too.
var triplesOpts = cmp.Options{
	fileRoundTripOpts,
	cmpopts.IgnoreFields(Entity{}, "Doc"),
	cmpopts.IgnoreFields(Field{}, "Doc"),
}

// TestPrintGolden prints each file of testdata/file and compares the
// result with its golden file; the result reads back as the same tree and
// prints as itself.
func TestPrintGolden(t *testing.T) {
	eachFile(t, "testdata/file/*.entity", func(t *testing.T, path string, src []byte) {
		f, err := ParseFile(path, src)
		if err != nil {
			t.Fatal(err)
		}
		out, err := f.Print()
		if err != nil {
			t.Fatal(err)
		}
		golden(t, strings.TrimSuffix(path, ".entity")+".golden", out)
		checkFileRoundTrip(t, f, out)
	})
}

// checkFileRoundTrip checks that out, the printed f, reads back as f and
// prints as itself.
func checkFileRoundTrip(t *testing.T, f *File, out []byte) {
	t.Helper()
	again, err := ParseFile("again.entity", out)
	if err != nil {
		t.Fatalf("printed file does not parse: %v\n%s", err, out)
	}
	if !cmp.Equal(f, again, fileRoundTripOpts) {
		t.Fatalf("printed file reads back differently (-want +got):\n%s\n%s", cmp.Diff(f, again, fileRoundTripOpts), out)
	}
	out2, err := again.Print()
	if err != nil || string(out2) != string(out) {
		t.Fatalf("Print is not stable (%v):\n%s\nthen\n%s", err, out, out2)
	}
}

// TestTriplesToFile: every declaration of parseTests written as a file
// reads back as the same triples.
func TestTriplesToFile(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.name, func(t *testing.T) {
			checkTriplesToFile(t, tt.want)
		})
	}
}

// checkTriplesToFile checks that e, written as a file, reads back as an
// entity with the same triples, or that Print says why it cannot be
// written.
func checkTriplesToFile(t *testing.T, e *Entity) {
	t.Helper()
	out, err := PrintEntities(e)
	if err != nil {
		if !noFileForm(e) {
			t.Fatalf("PrintEntities: %v", err)
		}
		return
	}
	f, err := ParseFile("t.entity", out)
	if err != nil {
		t.Fatalf("the file form does not parse: %v\n%s", err, out)
	}
	if len(f.Entities) != 1 {
		t.Fatalf("%d entities read back from\n%s", len(f.Entities), out)
	}
	want, got := fileTriples(e), fileTriples(f.Entities[0])
	if f.Entities[0].Name != e.Name || !slices.Equal(want, got) {
		t.Fatalf("triples through the file form (-want +got):\n%s\n%s", cmp.Diff(want, got), out)
	}
}

// fileTriples is e.Triples() with an argument starting with "#" counted as
// quoted, as the file form writes it (quoted or not, it is never a number
// or JSON, so it means the same).
func fileTriples(e *Entity) []string {
	c := e.Clone()
	c.walk(func(f *Field, _ int, closing bool) {
		for _, r := range f.Rules {
			for i, a := range r.Args {
				if strings.HasPrefix(a.Text, "#") {
					r.Args[i].Quoted = true
				}
			}
		}
	})
	return c.Triples()
}

// noFileForm reports whether e holds text the file form cannot: a line
// break in a name, a reference or an argument, a rule name starting with
// "#", or an unquoted argument starting with "#".
func noFileForm(e *Entity) bool {
	bad := strings.Contains(e.Name, "\n")
	e.walk(func(f *Field, _ int, closing bool) {
		bad = bad || strings.Contains(f.Name+f.Ref+f.CloseName, "\n")
		for _, r := range f.Rules {
			bad = bad || strings.HasPrefix(r.Name, "#")
			for _, a := range r.Args {
				bad = bad || strings.Contains(a.Text, "\n") || !a.Quoted && strings.HasPrefix(a.Text, "#")
			}
		}
	})
	return bad
}

// TestParseFileDoc: the comment lines directly above an entity's first
// line or a field's line are its description; a blank line detaches them,
// and a comment after a declaration on its line is none.
func TestParseFileDoc(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		entity    string   // the entity's Doc
		fields    []string // each top-level field's Doc, then its group's fields'
		nComments int      // every comment stays in File.Comments
	}{
		{"none", "u {\n  a string\n}\n", "", []string{""}, 0},
		{"above the entity", "# A user.\nu {\n  a string\n}\n", "A user.", []string{""}, 1},
		{"several lines", "# A user\n# of the shop.\nu {\n}\n", "A user\nof the shop.", nil, 2},
		{"above a field", "u {\n  # The name.\n  a string\n  b string\n}\n", "", []string{"The name.", ""}, 1},
		{"a blank line detaches", "# file header\n\nu {\n  # a\n\n  a string\n}\n", "", []string{""}, 2},
		{"a trailing comment is no description", "u {  # not a doc\n  a string  # nor this\n  b string\n}\n", "", []string{"", ""}, 2},
		{"the hash and one space go", "#x\n#  y\n#\n#z\nu {\n}\n", "x\n y\n\nz", nil, 4},
		{"empty lines at the ends go", "#\n# x\n#\nu {\n}\n", "x", nil, 3},
		{"a group and its fields", "u {\n  # g\n  g {\n    # in g\n    x string\n  }\n}\n", "", []string{"g", "in g"}, 2},
		{"above a closing brace is no description", "u {\n  g {\n    x string\n    # last\n  }\n  # end\n}\n", "", []string{"", ""}, 2},
		{"between entities", "a {\n}\n# B.\nb {\n}\n", "", nil, 1},
		{"a comment and a blank line then a description", "# one\n\n# two\nu {\n}\n", "two", nil, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseFile("t.entity", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			e := f.Entities[len(f.Entities)-1]
			if tt.name == "between entities" {
				if f.Entities[0].Doc != "" || e.Doc != "B." {
					t.Errorf("docs %q, %q; want \"\", \"B.\"", f.Entities[0].Doc, e.Doc)
				}
			} else if e.Doc != tt.entity {
				t.Errorf("entity doc %q, want %q", e.Doc, tt.entity)
			}
			var got []string
			for _, fd := range e.Fields {
				got = append(got, fd.Doc)
				for _, in := range fd.Fields {
					got = append(got, in.Doc)
				}
			}
			if !slices.Equal(got, tt.fields) {
				t.Errorf("field docs %q, want %q", got, tt.fields)
			}
			if len(f.Comments) != tt.nComments {
				t.Errorf("%d comments, want %d", len(f.Comments), tt.nComments)
			}
		})
	}
}

// TestParseFileListOfQuotedRef: []$'first name' is a list of references
// to the entity "first name", with no rules.
func TestParseFileListOfQuotedRef(t *testing.T) {
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

// TestParseFileErrorsShowTheLine: an error in a file shows its line with a
// caret under the fault, an entity never closed too.
func TestParseFileErrorsShowTheLine(t *testing.T) {
	tests := []struct {
		name, src string
	}{
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

// TestParseFileOneMistakeOneError: one mistake gives one error. The "}" of
// a group whose line is in error closes that group, not the entity; a "{"
// alone on the line after an entity's name opens that entity.
func TestParseFileOneMistakeOneError(t *testing.T) {
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
