package dsl

import (
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/expose-go/expose/rules"
)

var argStringTests = []struct {
	name string
	arg  Arg
	want string
}{
	{"word", Arg{Text: "5"}, "5"},
	{"regex word", Arg{Text: `^a\d+$`}, `^a\d+$`},
	{"quote inside word", Arg{Text: "it's"}, "it's"},
	{"quoted word", Arg{Text: "abc", Quoted: true}, "'abc'"},
	{"space", Arg{Text: "a b"}, "'a b'"},
	{"tab", Arg{Text: "a\tb"}, "'a\tb'"},
	{"newline", Arg{Text: "a\nb"}, "'a\nb'"},
	{"vertical tab", Arg{Text: "a\vb"}, "'a\vb'"},
	{"unicode space", Arg{Text: "a\u00a0b"}, "'a\u00a0b'"},
	{"bar", Arg{Text: "a|b"}, "'a|b'"},
	{"empty", Arg{Text: ""}, "''"},
	{"empty quoted", Arg{Text: "", Quoted: true}, "''"},
	{"leading single quote", Arg{Text: "'a"}, `"'a"`},
	{"leading double quote", Arg{Text: `"a`}, `'"a'`},
	{"single quote in quotes", Arg{Text: "it's", Quoted: true}, `"it's"`},
	{"double quote in quotes", Arg{Text: `say "hi"`, Quoted: true}, `'say "hi"'`},
	{"both quotes", Arg{Text: `it's "hi"`, Quoted: true}, `'it''s "hi"'`},
	{"only a single quote", Arg{Text: "'", Quoted: true}, `"'"`},
	{"only a double quote", Arg{Text: `"`, Quoted: true}, `'"'`},
	{"both quotes alone", Arg{Text: `'"`, Quoted: true}, `'''"'`},
	{"quoted regex", Arg{Text: `^(a|b)\s*$`, Quoted: true}, `'^(a|b)\s*$'`},
}

func TestArgString(t *testing.T) {
	for _, tt := range argStringTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.arg.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			// The printed argument reads back as the same text.
			rs, err := ParseRules("r " + tt.want)
			if err != nil || len(rs) != 1 || len(rs[0].Args) != 1 {
				t.Fatalf("ParseRules(%q) = %v, %v", "r "+tt.want, rs, err)
			}
			if got := rs[0].Args[0].Text; got != tt.arg.Text {
				t.Errorf("read back %q, want %q", got, tt.arg.Text)
			}
		})
	}
}

var ruleStringTests = []struct {
	name string
	rule *Rule
	want string
}{
	{"no args", &Rule{Name: "req"}, "req"},
	{"one arg", &Rule{Name: "max", Args: []Arg{{Text: "5"}}}, "max 5"},
	{"args", &Rule{Name: "in", Args: []Arg{{Text: "a"}, {Text: "b c"}, {Text: "d", Quoted: true}, {Text: "it's"}}},
		`in a 'b c' 'd' it's`},
}

func TestRuleString(t *testing.T) {
	for _, tt := range ruleStringTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rule.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

var fieldStringTests = []struct {
	name  string
	field *Field
	want  string
}{
	{"value", &Field{Name: "id", Type: rules.Int, TypeName: "INT"}, `"id", "number", ""`},
	{"rules normalized", &Field{Name: "id", Type: rules.String, RulesText: "req|max  5",
		Rules: []*Rule{{Name: "req"}, {Name: "max", Args: []Arg{{Text: "5"}}}}}, `"id", "string", "req | max 5"`},
	{"quoted rules", &Field{Name: "s", Type: rules.String, Rules: []*Rule{{Name: "default", Args: []Arg{{Text: `a "b"`, Quoted: true}}}}},
		`"s", "string", "default 'a \"b\"'"`},
	{"group", &Field{Name: "g", Kind: FieldGroup, Type: rules.Bool, Fields: []*Field{{Name: "x"}}}, `"g", "{", ""`},
	{"ref", &Field{Name: "r", Kind: FieldRef, Ref: "user", TypeName: " $ user"}, `"r", "$user", ""`},
	{"names quoted", &Field{Name: "a\"b\n", Type: rules.Any}, `"a\"b\n", "none", ""`},
}

func TestFieldString(t *testing.T) {
	for _, tt := range fieldStringTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.field.String(); got != tt.want {
				t.Errorf("String() = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestEntityString(t *testing.T) {
	e, err := Parse("user",
		"id", "INT", "num|rename  'number'",
		"details", "{", "",
		"inner", "{", "req",
		"c", "$Other", "",
		"", "}", "",
		"age", "integer", "",
		"Details", "}", "",
		"code", "text", `default "it's"`,
	)
	if err != nil {
		t.Fatal(err)
	}
	want := `"user",
	"id", "number", "num | rename 'number'",
	"details", "{", "",
		"inner", "{", "req",
			"c", "$Other", "",
		"inner", "}", "",
		"age", "number", "",
	"Details", "}", "",
	"code", "string", "default \"it's\"",
`
	if got := e.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
	if got, want := (&Entity{Name: "empty"}).String(), "\"empty\",\n"; got != want {
		t.Errorf("String() of an empty entity = %q, want %q", got, want)
	}
}

// TestEntityStringIsGo checks that String prints Go: the arguments of a
// call that, read by the Go parser and unquoted, are the entity's name and
// triples.
func TestEntityStringIsGo(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.want.String()
			x, err := goparser.ParseExpr("f(\n" + src + ")")
			if err != nil {
				t.Fatalf("String() is not Go: %v\n%s", err, src)
			}
			var got []string
			for _, a := range x.(*ast.CallExpr).Args {
				lit, ok := a.(*ast.BasicLit)
				if !ok || lit.Kind != gotoken.STRING {
					t.Fatalf("argument %T is not a string literal", a)
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, s)
			}
			want := append([]string{tt.want.Name}, tt.want.Triples()...)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("String() does not hold the name and triples (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTriples(t *testing.T) {
	e := &Entity{Name: "e", Fields: []*Field{
		{Name: "a", Type: rules.Float, TypeName: "double", RulesText: "x|y",
			Rules: []*Rule{{Name: "x"}, {Name: "y", Args: []Arg{{Text: "1 2"}}}}},
		{Name: "g", Kind: FieldGroup, Fields: []*Field{
			{Name: "r", Kind: FieldRef, Ref: "other"},
		}}, // no CloseName: the group's name is used
		{Name: "h", Kind: FieldGroup, CloseName: "H"},
	}}
	want := []string{
		"a", "float", "x | y '1 2'",
		"g", "{", "",
		"r", "$other", "",
		"g", "}", "",
		"h", "{", "",
		"H", "}", "",
	}
	if diff := cmp.Diff(want, e.Triples()); diff != "" {
		t.Errorf("Triples() mismatch (-want +got):\n%s", diff)
	}
	if got := (&Entity{Name: "e"}).Triples(); len(got) != 0 {
		t.Errorf("Triples() of an empty entity = %q", got)
	}
}

// roundTripOpts compares a tree with the tree parsed from its Triples: what
// is written differently (type names, rules text, rule and argument offsets,
// the name on a closing "}" when it was empty) is ignored.
var roundTripOpts = cmp.Options{
	cmpopts.IgnoreFields(Field{}, "TypeName", "RulesText", "CloseName"),
	cmpopts.IgnoreFields(Rule{}, "Pos"),
	cmpopts.IgnoreFields(Arg{}, "Pos"),
}

func TestRoundTrip(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.name, func(t *testing.T) {
			checkRoundTrip(t, tt.want)
		})
	}
}

// checkRoundTrip checks that e, printed as triples and parsed again, gives an
// equal tree, and that printing that tree again gives the same triples.
func checkRoundTrip(t *testing.T, e *Entity) {
	t.Helper()
	triples := e.Triples()
	got, err := Parse(e.Name, triples...)
	if err != nil {
		t.Fatalf("Parse(Triples()) failed: %v\ntriples: %q", err, triples)
	}
	if !cmp.Equal(e, got, roundTripOpts) { // Equal first: Diff is slow, and fuzzing calls this
		t.Fatalf("Parse(Triples()) mismatch (-want +got):\n%s\ntriples: %q", cmp.Diff(e, got, roundTripOpts), triples)
	}
	if again := got.Triples(); !cmp.Equal(triples, again) {
		t.Fatalf("Triples() is not stable:\n%q\n%q", triples, again)
	}
}

// TestEntityClone checks that Clone copies a declaration deeply: the copy
// is equal, and modifying anything in it (methods, fields, a group's
// fields, rules, arguments) leaves the original as it was.
func TestEntityClone(t *testing.T) {
	parse := func() *Entity {
		e, err := Parse("user", "POST",
			"id", "number", "req | range 1 10",
			"details", "{", "",
			"mail", "string", "email | regex '^a'",
			"inner", "{", "",
			"deep", "string", "min 1",
			"inner", "}", "",
			"details", "}", "",
			"friend", "$user", "",
		)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	tests := []struct {
		name   string
		modify func(*Entity)
	}{
		{"name", func(e *Entity) { e.Name = "x" }},
		{"methods", func(e *Entity) { e.Methods[0] = "DELETE" }},
		{"append a method", func(e *Entity) { e.Methods = append(e.Methods, "PUT") }},
		{"a field", func(e *Entity) { e.Fields[0].Name = "x" }},
		{"the field list", func(e *Entity) { e.Fields[0] = &Field{Name: "x"} }},
		{"a rule", func(e *Entity) { e.Fields[0].Rules[1].Name = "max" }},
		{"an argument", func(e *Entity) { e.Fields[0].Rules[1].Args[0].Text = "9" }},
		{"a group's field", func(e *Entity) { e.Fields[1].Fields[0].Name = "x" }},
		{"a group's field's argument", func(e *Entity) { e.Fields[1].Fields[0].Rules[1].Args[0].Text = "b" }},
		{"a nested group's field", func(e *Entity) { e.Fields[1].Fields[1].Fields[0].Rules[0].Args[0].Text = "5" }},
		{"a reference", func(e *Entity) { e.Fields[2].Ref = "other" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := parse()
			c := orig.Clone()
			if diff := cmp.Diff(parse(), c); diff != "" {
				t.Fatalf("the clone differs (-want +got):\n%s", diff)
			}
			tt.modify(c)
			if diff := cmp.Diff(parse(), orig); diff != "" {
				t.Errorf("modifying the clone changed the original (-want +got):\n%s", diff)
			}
		})
	}
	if (*Entity)(nil).Clone() != nil || (*Field)(nil).Clone() != nil {
		t.Error("Clone of nil is not nil")
	}
}

// TestCloneDeepNesting checks that Clone copies a declaration nested far
// deeper than any stack would bear recursion through, without recursing.
func TestCloneDeepNesting(t *testing.T) {
	const depth = 200000
	root := &Field{Name: "g", Kind: FieldGroup}
	f := root
	for range depth {
		next := &Field{Name: "g", Kind: FieldGroup}
		f.Fields = []*Field{next}
		f = next
	}
	c := (&Entity{Name: "deep", Fields: []*Field{root}}).Clone()
	n := 0
	for g, o := c.Fields[0], root; g != nil; n++ {
		if g == o {
			t.Fatalf("level %d is shared with the original", n)
		}
		if len(g.Fields) == 0 {
			break
		}
		g, o = g.Fields[0], o.Fields[0]
	}
	if n != depth {
		t.Errorf("the clone has %d levels, want %d", n, depth)
	}
}
