package entity_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/expose-go/expose/entity"
)

// TestDocAndExample: `doc 'text'` describes a field, `example 'value'`
// gives one, converted, transformed and judged by the field's rules as a
// default is; both reach the Field view.
func TestDocAndExample(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "customer",
		"email", "string", "req | trim | lower | email | doc 'where we write to' | example ' Ann@Example.com '",
		"age", "number", "range 0 150 | example '42'",
		"tags", "[]string", "each 'max 3' | example '[\"a\",\"b\"]'",
		"address", "{", "doc 'where it ships'",
		"city", "string", "",
		"address", "}", "",
	)
	fs := e.Fields()
	if fs[0].Doc != "where we write to" || string(fs[0].Example) != `"ann@example.com"` {
		t.Errorf("email: doc %q, example %s", fs[0].Doc, fs[0].Example)
	}
	if string(fs[1].Example) != "42" || string(fs[2].Example) != `["a","b"]` || fs[3].Doc != "where it ships" {
		t.Errorf("age %s, tags %s, address %q", fs[1].Example, fs[2].Example, fs[3].Doc)
	}
	for _, tt := range []struct {
		name string
		decl []string
		want string
	}{
		{"an example the rules refuse", []string{"age", "number", "range 0 150 | example 200"}, `the example fails rule "range"`},
		{"an example that does not convert", []string{"age", "number", "example abc"}, `example "abc" is not a valid number`},
		{"an element the rules refuse", []string{"tags", "[]string", `each 'max 1' | example '["ab"]'`}, `example`},
		{"doc without text", []string{"age", "number", "doc"}, "takes one argument, the description"},
		{"an example on a group", []string{"g", "{", "example 1", "a", "string", "", "g", "}", ""}, "cannot apply to a group"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := reg.Expose("bad", tt.decl...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestDocFromFileComments: in a .entity file the comment lines directly
// above a field are its description; a doc directive says otherwise.
func TestDocFromFileComments(t *testing.T) {
	reg := entity.NewRegistry()
	src := "# A customer of the shop.\ncustomer {\n  # Where we write to.\n  email  string  email\n\n  # detached by the blank line\n\n  name   string  doc 'what they are called'\n}\n"
	if err := reg.LoadFS(fstest.MapFS{"c.entity": {Data: []byte(src)}}, "*.entity"); err != nil {
		t.Fatal(err)
	}
	e := reg.Lookup("customer")
	if d := e.Decl().Doc; d != "A customer of the shop." {
		t.Errorf("entity doc %q", d)
	}
	fs := e.Fields()
	if fs[0].Doc != "Where we write to." || fs[1].Doc != "what they are called" {
		t.Errorf("docs %q, %q", fs[0].Doc, fs[1].Doc)
	}
}
