package dsl

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPrintKeepsDocAttached: Print writes an entity's or a field's
// description directly above it, as the source had it, whatever blank
// line it puts between entities; a description set or changed by hand is
// written in its place, and one cleared drops its comment lines.
func TestPrintKeepsDocAttached(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		modify func(f *File)
		want   string
	}{
		{"kept as written", "# header\n\n#A user.\n#  indented\nu {\n  #the id\n  id number\n}\n", nil,
			"# header\n\n#A user.\n#  indented\nu {\n  #the id\n  id  number\n}\n"},
		{"between entities, the blank line goes above it", "a {\n}\n# B.\nb {\n}\n", nil,
			"a {\n}\n\n# B.\nb {\n}\n"},
		{"indented with its field", "u {\n  g {\n# inner\n        x string\n  }\n}\n", nil,
			"u {\n  g  {\n    # inner\n    x  string\n  }\n}\n"},
		{"set by hand", "u {\n  id number\n}\n", func(f *File) {
			f.Entities[0].Doc = "A user.\n\nSee the shop."
			f.Entities[0].Fields[0].Doc = "The id.  "
		}, "# A user.\n#\n# See the shop.\nu {\n  # The id.\n  id  number\n}\n"},
		{"changed by hand", "# header\n\n# old\n# text\nu {\n}\n", func(f *File) {
			f.Entities[0].Doc = "new"
		}, "# header\n\n# new\nu {\n}\n"},
		{"cleared by hand", "# header\n\n# old\nu {\n  # old too\n  a string\n}\n", func(f *File) {
			f.Entities[0].Doc = ""
			f.Entities[0].Fields[0].Doc = ""
		}, "# header\n\nu {\n  a  string\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseFile("t.entity", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if tt.modify != nil {
				tt.modify(f)
			}
			out, err := f.Print()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(out)); diff != "" {
				t.Fatalf("Print (-want +got):\n%s", diff)
			}
			again, err := ParseFile("again.entity", out)
			if err != nil {
				t.Fatal(err)
			}
			for i, e := range again.Entities {
				if e.Doc != f.Entities[i].Doc {
					t.Errorf("entity %q reads back with doc %q, want %q", e.Name, e.Doc, f.Entities[i].Doc)
				}
			}
		})
	}
}

// TestPrintEntitiesDoc: entities made from triples, with descriptions set,
// print them above what they describe.
func TestPrintEntitiesDoc(t *testing.T) {
	e, err := Parse("user", "id", "number", "", "g", "{", "", "x", "string", "req", "g", "}", "")
	if err != nil {
		t.Fatal(err)
	}
	e.Doc = "A user."
	e.Fields[1].Fields[0].Doc = "The x."
	out, err := PrintEntities(e, &Entity{Name: "other", Doc: "Other."})
	if err != nil {
		t.Fatal(err)
	}
	want := "# A user.\nuser {\n  id  number\n  g   {\n    # The x.\n    x  string  req\n  }\n}\n\n# Other.\nother {\n}\n"
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Fatalf("PrintEntities (-want +got):\n%s", diff)
	}
}

// TestPrintEntitiesReadsBack: declarations of triples whose file form is
// easy to get wrong read back from it as the same triples.
func TestPrintEntitiesReadsBack(t *testing.T) {
	tests := []struct {
		name   string
		entity string
		decl   []string
	}{
		// A list of references to a quoted name keeps its "[]".
		{"list of refs to a quoted name", "a", []string{"x", "[]$first name", ""}},
		{"list of refs to a name starting with a quote", "a", []string{"x", "[]$'q", ""}},
		// The byte order mark ParseFile strips is not the name's first rune.
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
