package dsl

import (
	"strconv"
	"strings"

	"github.com/expose-go/expose/rules"
)

// LookupType returns the type named name (case-insensitive, aliases
// included). It is rules.LookupKind.
func LookupType(name string) (rules.Kind, bool) { return rules.LookupKind(name) }

// FieldKind says what a field is.
type FieldKind uint8

// The kinds of field.
const (
	FieldValue FieldKind = iota // a value of a declared type (Field.Type)
	FieldGroup                  // an output object read from the same input level: "name", "{" … "}"
	FieldRef                    // a value made with another entity: "name", "$other"
)

// Entity is a parsed declaration: a name and its fields in order.
//
// A declaration may start with one extra string naming the HTTP methods a
// request for it must use, as msful's validate took the method first:
// "POST", "GET|HEAD", "PUT, PATCH". It is recognised when the number of
// strings is one more than a multiple of three and the first is a list
// of HTTP methods, as the package doc says.
//
// In an .entity file the methods stand between the name and the "{":
// "users POST {". The word form among them ("POST form") is Forms.
type Entity struct {
	Name    string
	Methods []string // the HTTP methods allowed; empty for any
	// Forms reports the word form among the methods ("POST form"): the
	// entity's requests may send a form body
	// (application/x-www-form-urlencoded, multipart/form-data) besides
	// JSON, which is all they send otherwise.
	Forms  bool
	Fields []*Field
	Pos    Pos // in a file: the entity's name; zero for triples
	// Doc is the entity's description: in a file, the text of the comment
	// lines directly above its first line (see ParseFile); empty for
	// triples, which have no place for it.
	Doc string
	// SourceLine is, for an entity read from a file, its first line, which
	// errors about the entity quote.
	SourceLine string
	ClosePos   Pos // in a file: its closing "}"; zero for triples
}

// Field is one declared field: a value, a group or a reference.
type Field struct {
	Name     string
	Kind     FieldKind
	Type     rules.Kind // FieldValue only: the declared type (rules.List for a typed list)
	TypeName string     // the type string as written ("num", "$user", "{", "[]string")
	Ref      string     // FieldRef only: the entity named, without the $ (a union's: its variants' names joined by "|")
	// Variants, for a union ("$card|$invoice": a FieldRef of two or more
	// entities, told apart by the key its directive by names), are the
	// names of its variant entities in the order written; nil for any
	// other field.
	Variants []string
	// List says the type was written as a typed list: "[]string" (a
	// FieldValue of Type rules.List whose elements are of Elem) or
	// "[]$user" (a FieldRef that is always a list).
	List      bool
	Elem      rules.Kind // FieldValue with List: the element type, a scalar (rules.Kind.IsElem)
	Rules     []*Rule    // in the order written
	RulesText string     // the rules string as written
	Fields    []*Field   // FieldGroup only: the fields inside the group
	CloseName string     // FieldGroup only: the name written on the closing "}"
	Pos       Pos        // the field's triple (Part name), or its name in a file
	TypePos   Pos        // its type: the triple's (Part type), or its column in a file
	ClosePos  Pos        // FieldGroup only: the closing triple, or the closing "}" in a file
	// SourceLine is, for a field read from a file, the line it is
	// declared on, which errors quote (see NewError); empty for triples.
	SourceLine string
	// Doc is the field's description: in a file, the text of the comment
	// lines directly above its line (see ParseFile); empty for triples.
	Doc string
}

// UnionKey returns the key a union's variant is told by: the argument of
// its directive by ("by 'method'"), or "" when it has none (or f is no
// union).
func (f *Field) UnionKey() string {
	if f.Variants == nil {
		return ""
	}
	for _, r := range f.Rules {
		if rules.LookupDirective(r.Name) == rules.DirectiveBy && len(r.Args) == 1 {
			return r.Args[0].Text
		}
	}
	return ""
}

// Rule is one rule of a field: a name and its arguments, as written.
type Rule struct {
	Name string
	Args []Arg
	Pos  Pos // the rule name's position in the rules string
}

// Arg is one argument of a rule.
type Arg struct {
	Text   string // without quotes; a doubled quote is one quote
	Quoted bool   // written in quotes
	Pos    Pos
}

// Clone returns a deep copy of the declaration: its methods, fields,
// groups, rules and arguments are copies, so that modifying the copy
// changes nothing in e. It does not recurse: no nesting exhausts the
// stack. A nil e gives nil.
func (e *Entity) Clone() *Entity {
	if e == nil {
		return nil
	}
	c := *e
	c.Methods = cloneSlice(e.Methods)
	c.Fields = cloneTree(e.Fields)
	return &c
}

// Clone returns a deep copy of the field, as Entity.Clone does. A nil f
// gives nil.
func (f *Field) Clone() *Field {
	if f == nil {
		return nil
	}
	return cloneTree([]*Field{f})[0]
}

// cloneTree copies the fields fs and everything under them, without
// recursion.
func cloneTree(fs []*Field) []*Field {
	fs = cloneFields(fs)
	// Each copied group's fields still point at the originals: copy them
	// in turn, group by group.
	var stack []*Field
	push := func(fs []*Field) {
		for _, f := range fs {
			if f != nil && f.Fields != nil {
				stack = append(stack, f)
			}
		}
	}
	push(fs)
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f.Fields = cloneFields(f.Fields)
		push(f.Fields)
	}
	return fs
}

// cloneFields copies the fields fs and their rules, not their groups'
// fields; a nil fs stays nil.
func cloneFields(fs []*Field) []*Field {
	if fs == nil {
		return nil
	}
	out := make([]*Field, len(fs))
	for i, f := range fs {
		if f == nil {
			continue
		}
		c := *f
		c.Variants = cloneSlice(f.Variants)
		if f.Rules != nil {
			c.Rules = make([]*Rule, len(f.Rules))
			for j, r := range f.Rules {
				if r != nil {
					rc := *r
					rc.Args = cloneSlice(r.Args)
					c.Rules[j] = &rc
				}
			}
		}
		out[i] = &c
	}
	return out
}

// cloneSlice copies s, keeping nil nil.
func cloneSlice[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// Triples returns the declaration as the flat list of strings that Parse
// reads, so that Parse(e.Name, e.Triples()...) gives an equal entity, but
// for the descriptions (Entity.Doc, Field.Doc), which triples do not hold.
func (e *Entity) Triples() []string {
	var out []string
	if ms := e.methodList(); ms != "" {
		out = append(out, ms)
	}
	e.walk(func(f *Field, _ int, closing bool) {
		if closing {
			out = append(out, f.closeName(), "}", "")
			return
		}
		out = append(out, f.Name, f.typeString(), f.rulesString())
	})
	return out
}

// walk calls fn for each field in declaration order, with its nesting depth
// (0 at the top), and again with closing set after the fields of a group.
// It keeps its own stack rather than recursing, so that a tree built by
// hand, nested deeper than Parse allows, cannot exhaust the goroutine's
// stack.
func (e *Entity) walk(fn func(f *Field, depth int, closing bool)) {
	type level struct {
		group  *Field // nil at the top
		fields []*Field
	}
	stack := []level{{fields: e.Fields}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if len(top.fields) == 0 {
			if top.group != nil {
				fn(top.group, len(stack)-2, true)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		f := top.fields[0]
		top.fields = top.fields[1:]
		fn(f, len(stack)-1, false)
		if f.Kind == FieldGroup {
			stack = append(stack, level{group: f, fields: f.Fields})
		}
	}
}

// closeName is the name written on a group's closing triple.
func (f *Field) closeName() string {
	if f.CloseName == "" {
		return f.Name
	}
	return f.CloseName
}

// String prints the declaration back as the arguments of an Expose call,
// one triple a line, groups indented:
//
//	"user",
//		"id", "number", "num | rename 'number'",
//		"details", "{", "",
//			"age", "number", "num",
//		"details", "}", "",
func (e *Entity) String() string {
	var b strings.Builder
	b.WriteString(strconv.Quote(e.Name))
	b.WriteString(",\n")
	if ms := e.methodList(); ms != "" {
		b.WriteString("\t" + strconv.Quote(ms) + ",\n")
	}
	e.walk(func(f *Field, depth int, closing bool) {
		for range depth + 1 {
			b.WriteByte('\t')
		}
		if closing {
			b.WriteString(strconv.Quote(f.closeName()) + `, "}", ""`)
		} else {
			b.WriteString(f.String())
		}
		b.WriteString(",\n")
	})
	return b.String()
}

// String prints the field's own triple as Go string literals:
// "id", "number", "num | rename 'number'". A group prints its opening triple.
func (f *Field) String() string {
	return strconv.Quote(f.Name) + ", " + strconv.Quote(f.typeString()) + ", " + strconv.Quote(f.rulesString())
}

func (f *Field) typeString() string {
	prefix := ""
	if f.List {
		prefix = ListPrefix
	}
	switch {
	case f.Kind == FieldGroup:
		return "{"
	case f.Kind == FieldRef && f.Variants != nil:
		return prefix + "$" + strings.Join(f.Variants, "|$")
	case f.Kind == FieldRef:
		return prefix + "$" + f.Ref
	case f.List:
		return prefix + f.Elem.String()
	}
	return f.Type.String()
}

func (f *Field) rulesString() string {
	parts := make([]string, len(f.Rules))
	for i, r := range f.Rules {
		parts[i] = r.String()
	}
	return strings.Join(parts, " | ")
}

// String prints the rule as DSL: its name, then its arguments, quoted where
// they were quoted or where they must be.
func (r *Rule) String() string {
	var b strings.Builder
	b.WriteString(r.Name)
	for _, a := range r.Args {
		b.WriteByte(' ')
		b.WriteString(a.String())
	}
	return b.String()
}

// String prints the argument as DSL, quoting it when it was quoted or when
// it is empty, holds white space or `|`, or starts with a quote.
func (a Arg) String() string {
	if !a.Quoted && a.Text != "" && !hasSpace(a.Text) && !strings.Contains(a.Text, "|") && a.Text[0] != '\'' && a.Text[0] != '"' {
		return a.Text
	}
	q := "'"
	if strings.Contains(a.Text, "'") && !strings.Contains(a.Text, `"`) {
		q = `"`
	}
	return q + strings.ReplaceAll(a.Text, q, q+q) + q
}
