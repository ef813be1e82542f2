package dsl

import (
	"slices"
	"strings"
	"testing"
)

// TestParseUnion: "$a|$b" is a FieldRef of its variants, in triples and
// in a file alike, "[]$a|$b" a list of them; UnionKey reads by; the
// declaration prints back as it was written.
func TestParseUnion(t *testing.T) {
	tests := []struct {
		name     string
		typ      string
		rules    string
		list     bool
		variants []string
		key      string
	}{
		{"two", "$card|$invoice", "req | by 'method'", false, []string{"card", "invoice"}, "method"},
		{"three", "$a|$b|$c", "by kind", false, []string{"a", "b", "c"}, "kind"},
		{"a list", "[]$card|$invoice", "by 'method' | min 1", true, []string{"card", "invoice"}, "method"},
		{"no by (the compiler's error)", "$a|$b", "", false, []string{"a", "b"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse("order", "payment", tt.typ, tt.rules)
			if err != nil {
				t.Fatal(err)
			}
			file, err := ParseFile("order.entity", []byte("order {\n  payment  "+tt.typ+"  "+tt.rules+"\n}\n"))
			if err != nil {
				t.Fatal(err)
			}
			for what, f := range map[string]*Field{"triples": e.Fields[0], "file": file.Entities[0].Fields[0]} {
				if f.Kind != FieldRef || f.List != tt.list || !slices.Equal(f.Variants, tt.variants) || f.UnionKey() != tt.key || f.Ref != strings.Join(tt.variants, "|") {
					t.Errorf("%s: got kind %v list %v variants %q key %q ref %q", what, f.Kind, f.List, f.Variants, f.UnionKey(), f.Ref)
				}
			}
			if got := e.Triples(); got[1] != tt.typ {
				t.Errorf("Triples: type %q, want %q", got[1], tt.typ)
			}
			out, err := PrintEntities(e)
			if err != nil || !strings.Contains(string(out), tt.typ) {
				t.Errorf("PrintEntities: %s (%v), want it to hold %q", out, err, tt.typ)
			}
			c := e.Clone()
			c.Fields[0].Variants[0] = "changed"
			if e.Fields[0].Variants[0] == "changed" {
				t.Error("Clone shares the variants")
			}
		})
	}
}

// TestParseUnionErrors: a union's type has no white space inside, and
// each of its variants is a bare "$name", named once.
func TestParseUnionErrors(t *testing.T) {
	tests := []struct {
		name, typ, want string
	}{
		{"spaces", "$card | $invoice", `the union "$card | $invoice" has white space inside`},
		{"a bare name", "$card|invoice", "has a variant that is not a reference"},
		{"an empty variant", "$card|", "has a variant that is not a reference"},
		{"an empty name", "$card|$", "has a variant that is not a reference"},
		{"twice", "$a|$a", "names $a twice"},
		{"quoted", "$a|$'b'", "is not a bare entity name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("order", "payment", tt.typ, "by 'method'")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v\nwant it to say %s", err, tt.want)
			}
		})
	}
}
