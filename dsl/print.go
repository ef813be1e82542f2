package dsl

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Print prints the file in its canonical form: entities one after the
// other with a blank line between them, fields indented by two spaces a
// level, the names, types and rules of the fields of one entity or group
// in aligned columns, the comments where they were, a blank line kept
// where the source had one or more, and no trailing white space. Each
// entity's and field's description (Doc) is written directly above it:
// as the source's comment lines when it is their text, else as "# "
// lines that replace them. Reading the result with ParseFile gives the
// same entities, descriptions and comments.
//
// A file made by hand from entities read from triples has no comments and
// no positions, and prints the same way: this is how a triples declaration
// is written as a file. A name, type or argument holding a line break
// ("\n"), a rule name starting with "#" (which a file reads as a
// comment), or an unquoted argument starting with "#" (which quoting could
// give another meaning: a quoted format that names no format is a layout)
// has no file form: Print reports it and prints nothing.
func (f *File) Print() ([]byte, error) {
	pr := &printer{comments: f.Comments}
	for i, e := range f.Entities {
		if i > 0 {
			pr.blank = true
		}
		pr.entity(e)
	}
	pr.leading(-1, 0) // the comments after the last entity
	if pr.err != nil {
		return nil, pr.err
	}
	return []byte(pr.b.String()), nil
}

// PrintEntities prints entities read from triples as an .entity file, as
// File.Print prints a file of them: this is how a declaration of triples
// is written as a file.
func PrintEntities(es ...*Entity) ([]byte, error) {
	return (&File{Entities: es}).Print()
}

type printer struct {
	b        strings.Builder
	comments []*Comment // those not printed yet
	last     int        // the source line printed last; 0 for none
	blank    bool       // a blank line is due before what is printed next
	err      error
}

func (pr *printer) fail(msg string) {
	if pr.err == nil {
		pr.err = errors.New("dsl: " + msg)
	}
}

// line starts a line at depth for something from the source line src (0
// when it comes from no source), after the blank line due, if any.
func (pr *printer) line(depth, src int) {
	if src > 0 && pr.last > 0 && src > pr.last+1 {
		pr.blank = true
	}
	if pr.blank && pr.b.Len() > 0 {
		pr.b.WriteByte('\n')
	}
	pr.blank = false
	if src > 0 {
		pr.last = src
	}
	for range depth {
		pr.b.WriteString("  ")
	}
}

// leading prints the comments on lines before src at depth; src < 0 prints
// them all.
func (pr *printer) leading(src, depth int) {
	if src == 0 {
		return
	}
	for len(pr.comments) > 0 && (src < 0 || pr.comments[0].Pos.Line < src) {
		c := pr.comments[0]
		pr.comments = pr.comments[1:]
		pr.line(depth, c.Pos.Line)
		pr.text(c.Text)
		pr.b.WriteByte('\n')
	}
}

// doc prints, at depth, the comments before the source line src and the
// description doc of what src declares, directly above it. The comment
// lines directly above src in the source are that description: when doc
// is their text they are printed as they are, else doc replaces them.
func (pr *printer) doc(doc string, src, depth int) {
	// The source's description: the comments on the lines directly above
	// src, pr.comments[j:k].
	k := 0
	if src > 0 {
		for k < len(pr.comments) && pr.comments[k].Pos.Line < src {
			k++
		}
	}
	j := k
	for j > 0 && !pr.comments[j-1].Trailing && pr.comments[j-1].Pos.Line == src-(k-j)-1 {
		j--
	}
	first := src // the source line the description starts on
	if j < k {
		first = pr.comments[j].Pos.Line
	}
	pr.leading(first, depth)
	if j < k && docText(pr.comments[:k-j]) == doc {
		pr.leading(src, depth)
		return
	}
	pr.comments = pr.comments[k-j:]
	at := src // the source line the first line printed stands for
	if j < k {
		// src moves up to where its description started.
		if pr.last > 0 && first > pr.last+1 {
			pr.blank = true
		}
		pr.last, at = src-1, 0
	}
	for i, line := range strings.Split(doc, "\n") {
		if doc == "" {
			break
		}
		if i > 0 {
			at = 0
		}
		pr.line(depth, at)
		line = strings.TrimRightFunc(line, unicode.IsSpace)
		if line == "" {
			pr.b.WriteString("#")
		} else {
			pr.text("# " + line)
		}
		pr.b.WriteByte('\n')
	}
	if src > 0 && doc != "" {
		pr.last = src - 1 // no blank line between the description and src
	}
}

// end ends the line printed for the source line src, with its trailing
// comment.
func (pr *printer) end(src int) {
	if src > 0 && len(pr.comments) > 0 && pr.comments[0].Trailing && pr.comments[0].Pos.Line == src {
		pr.b.WriteString("  ")
		pr.text(pr.comments[0].Text)
		pr.comments = pr.comments[1:]
	}
	pr.b.WriteByte('\n')
}

// text writes s, which must hold no line break.
func (pr *printer) text(s string) {
	if strings.Contains(s, "\n") {
		pr.fail("no file form for text holding a line break: " + quote(s))
	}
	pr.b.WriteString(s)
}

func (pr *printer) entity(e *Entity) {
	pr.doc(e.Doc, e.Pos.Line, 0)
	pr.line(0, e.Pos.Line)
	pr.text(fileName(e.Name))
	if ms := e.methodList(); ms != "" {
		pr.b.WriteByte(' ')
		pr.text(ms)
	}
	pr.b.WriteString(" {")
	pr.end(e.Pos.Line)
	pr.fields(e.Fields, 1)
	pr.leading(e.ClosePos.Line, 1)
	pr.line(0, e.ClosePos.Line)
	pr.b.WriteByte('}')
	pr.end(e.ClosePos.Line)
}

// column is one field's line before alignment.
type column struct {
	name, typ, rules string
}

// fields prints the fields of one entity or group at depth, their columns
// aligned. It recurses into groups: a tree reaches this printer through
// Parse or ParseFile, which bound nesting by MaxNesting.
func (pr *printer) fields(fs []*Field, depth int) {
	cols := make([]column, len(fs))
	nameW, typeW := 0, 0
	for i, f := range fs {
		cols[i] = column{fileName(f.Name), fileType(f), pr.rules(f)}
		nameW = max(nameW, utf8.RuneCountInString(cols[i].name))
		typeW = max(typeW, utf8.RuneCountInString(cols[i].typ))
	}
	for i, f := range fs {
		c := cols[i]
		pr.doc(f.Doc, f.Pos.Line, depth)
		pr.line(depth, f.Pos.Line)
		pr.text(c.name)
		pr.pad(nameW - utf8.RuneCountInString(c.name) + 2)
		pr.text(c.typ)
		if c.rules != "" {
			pr.pad(typeW - utf8.RuneCountInString(c.typ) + 2)
			pr.text(c.rules)
		}
		pr.end(f.Pos.Line)
		if f.Kind != FieldGroup {
			continue
		}
		pr.fields(f.Fields, depth+1)
		pr.leading(f.ClosePos.Line, depth+1)
		pr.line(depth, f.ClosePos.Line)
		pr.b.WriteByte('}')
		if f.CloseName != "" && f.CloseName != f.Name {
			pr.b.WriteByte(' ')
			pr.text(fileName(f.CloseName))
		}
		pr.end(f.ClosePos.Line)
	}
}

func (pr *printer) pad(n int) {
	for range n {
		pr.b.WriteByte(' ')
	}
}

// rules prints a field's rules as its rules column, where a "#" starting an
// argument would start a comment: such an argument is quoted.
func (pr *printer) rules(f *Field) string {
	parts := make([]string, len(f.Rules))
	for i, r := range f.Rules {
		if r == nil {
			continue
		}
		if r.Name == "" || r.Name[0] == '#' || r.Name[0] == '\'' || r.Name[0] == '"' || hasSpace(r.Name) || strings.Contains(r.Name, "|") {
			pr.fail("no rules string holds the rule name " + quote(r.Name))
		}
		var b strings.Builder
		b.WriteString(r.Name)
		for _, a := range r.Args {
			b.WriteByte(' ')
			if a.Text != "" && a.Text[0] == '#' && !a.Quoted {
				// A bare word cannot start with # in a file (it starts a
				// comment), and quoting it could change what it means
				// (format '#…' is a layout, format #… no format).
				pr.fail("no file form holds the bare argument " + quote(a.Text) + " (a word cannot start with #)")
			}
			b.WriteString(a.String())
		}
		parts[i] = b.String()
	}
	return strings.Join(parts, " | ")
}

// fileName prints a name bare when the file reads it back as it is, else
// quoted.
func fileName(s string) string {
	if s == "" || s == "{" || s == "}" || s[0] == '#' || s[0] == '\'' || s[0] == '"' || hasSpace(s) || strings.HasPrefix(s, "\ufeff") {
		return Arg{Text: s, Quoted: true}.String()
	}
	return s
}

// fileType prints a field's type column.
func fileType(f *Field) string {
	if f.Kind == FieldRef && f.Variants == nil && (f.Ref == "" || f.Ref[0] == '\'' || f.Ref[0] == '"' || hasSpace(f.Ref)) {
		t := "$" + Arg{Text: f.Ref, Quoted: true}.String()
		if f.List {
			t = ListPrefix + t
		}
		return t
	}
	return f.typeString()
}
