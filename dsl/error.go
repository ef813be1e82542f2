package dsl

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Pos is a place in a declaration. In triples it is the triple (counted
// from 1), which of its three strings, and a byte offset inside that
// string. In an .entity file (ParseFile) it is the file's name, the line
// and the column, both counted from 1, the column in bytes as go/token
// counts it; Part and Offset then still say which column of the field's
// line is meant and, in its rules, the byte offset inside the rules text.
// It is cheap to carry; it is rendered only when an error is printed.
type Pos struct {
	Triple int    // 1-based index of the triple; 0 when the error is about the whole entity, or in a file
	Part   Part   // which string of the triple, or column of a file's field line
	Offset int    // byte offset inside that string; -1 when the whole string is meant
	File   string // the file's name; empty for triples
	Line   int    // 1-based line in the file; 0 for triples
	Col    int    // 1-based byte column in the line; 0 when the whole line or file is meant
}

// InFile reports whether p is a place in a file rather than in triples.
func (p Pos) InFile() bool { return p.Line > 0 || p.File != "" }

// String returns "triple 4" for a place in triples and "users.entity:4:12"
// (file:line:col, without what is zero) for a place in a file.
func (p Pos) String() string {
	if !p.InFile() {
		return "triple " + strconv.Itoa(p.Triple)
	}
	s := p.File
	if p.Line > 0 {
		if s != "" {
			s += ":"
		}
		s += strconv.Itoa(p.Line)
		if p.Col > 0 {
			s += ":" + strconv.Itoa(p.Col)
		}
	}
	return s
}

// Part names one of the three strings of a triple.
type Part uint8

// The parts of a triple.
const (
	PartName Part = iota
	PartType
	PartRules
)

var partNames = [...]string{"name", "type", "rules"}

// String returns "name", "type" or "rules".
func (p Part) String() string {
	if int(p) < len(partNames) {
		return partNames[p]
	}
	return "part(" + strconv.Itoa(int(p)) + ")"
}

// Error is a declaration error: what is wrong, in which entity, at which
// field and where in its triple or file. When the offending string is known
// it is printed under the message with a caret below the offending byte.
type Error struct {
	Entity string // the entity's name
	Field  string // the field's name, empty when the error is about the entity
	Pos    Pos
	Msg    string
	// Source is the string the caret points into: for triples the rules
	// string Pos.Offset points into, for a file the line Pos.Col points
	// into; empty if none.
	Source string
}

// NewError returns the error msg about field f of entity at pos, quoting
// the source the caret of pos points into: for a file declaration the
// field's line, for triples the field's rules string when pos is in it.
// A compiler reports its errors with it, so that they show the same view
// as the parser's.
func NewError(entity string, f *Field, pos Pos, msg string) *Error {
	e := &Error{Entity: entity, Pos: pos, Msg: msg}
	if f == nil {
		return e
	}
	e.Field = f.Name
	switch {
	case pos.InFile():
		e.Source = f.SourceLine
	case pos.Part == PartRules:
		e.Source = f.RulesText
	}
	return e
}

// Error renders the error as
//
//	dsl: entity "user", field "age" (triple 4, rules): unknown rule "rnge"
//	    num | rnge 1 5
//	          ^
//
// The entity part is left out when Entity is empty (ParseRules reports
// errors without an entity). When Source spans several lines, only the line
// holding the offending byte is shown.
//
// An error in a file starts with its place instead of the package name, as
// compilers print theirs, and shows the line with its number:
//
//	users.entity:4:25: entity "user", field "age": unknown rule "rnge"
//	     4 |     age   number  num | rnge 1 5
//	       |                         ^
func (e *Error) Error() string {
	var b strings.Builder
	if e.Pos.InFile() {
		e.fileError(&b)
		return b.String()
	}
	b.WriteString("dsl: ")
	sep := ""
	if e.Entity != "" {
		b.WriteString("entity ")
		b.WriteString(strconv.Quote(e.Entity))
		sep = ", "
	}
	if e.Field != "" {
		b.WriteString(sep)
		b.WriteString("field ")
		b.WriteString(strconv.Quote(e.Field))
		sep = ", "
	}
	if e.Pos.Triple > 0 {
		if sep != "" {
			b.WriteString(" ")
		}
		b.WriteString("(triple ")
		b.WriteString(strconv.Itoa(e.Pos.Triple))
		b.WriteString(", ")
		b.WriteString(e.Pos.Part.String())
		b.WriteString(")")
		sep = " "
	}
	if sep != "" {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Source != "" && e.Pos.Offset >= 0 && e.Pos.Offset <= len(e.Source) {
		writeCaret(&b, e.Source, e.Pos.Offset)
	}
	return b.String()
}

// fileError renders an error at a place in a file.
func (e *Error) fileError(b *strings.Builder) {
	b.WriteString(e.Pos.String())
	b.WriteString(": ")
	if e.Entity != "" {
		b.WriteString("entity ")
		b.WriteString(strconv.Quote(e.Entity))
		if e.Field != "" {
			b.WriteString(", field ")
			b.WriteString(strconv.Quote(e.Field))
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	off := e.Pos.Col - 1
	if e.Source == "" || e.Pos.Line < 1 || off < 0 || off > len(e.Source) {
		return
	}
	num := strconv.Itoa(e.Pos.Line)
	gutter := strings.Repeat(" ", max(6-len(num), 1))
	b.WriteString("\n")
	b.WriteString(gutter + num + " | ")
	writeCaretLine(b, e.Source, off, strings.Repeat(" ", len(gutter)+len(num))+" | ")
}

// writeCaret writes the line of src that holds byte off, indented, and a
// caret under that byte. The caret line copies the tabs of the source line so
// that it stays aligned, and counts runes, not bytes.
func writeCaret(b *strings.Builder, src string, off int) {
	b.WriteString("\n    ")
	writeCaretLine(b, src, off, "    ")
}

// writeCaretLine writes the line of src that holds byte off, a newline,
// then indent and a caret under that byte.
func writeCaretLine(b *strings.Builder, src string, off int, indent string) {
	start := strings.LastIndexAny(src[:off], "\n\r") + 1
	end := len(src)
	if i := strings.IndexAny(src[off:], "\n\r"); i >= 0 {
		end = off + i
	}
	// A long line is shown around the fault only, so that an error's text
	// stays small whatever the line (a file of one huge line and many
	// errors must not print the line for each).
	clipped := false
	if off-start > caretContext {
		start = runeStart(src, off-caretContext)
		clipped = true
	}
	if end-off > caretContext {
		end = runeStart(src, off+caretContext)
	}
	if clipped {
		b.WriteString("…")
		indent += " "
	}
	b.WriteString(src[start:end])
	if end < len(src) && src[end] != '\n' && src[end] != '\r' {
		b.WriteString("…")
	}
	b.WriteString("\n")
	b.WriteString(indent)
	for _, r := range src[start:off] {
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteString("^")
}

// caretContext is how many bytes of a source line an error shows on each
// side of its fault.
const caretContext = 80

// runeStart returns i, moved back to the start of the rune it falls in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// ErrorList is a list of declaration errors. The zero value is an empty list
// ready to use.
type ErrorList []*Error

// Add appends an error.
func (l *ErrorList) Add(e *Error) { *l = append(*l, e) }

// Len returns the number of errors.
func (l ErrorList) Len() int { return len(l) }

// Sort orders the list by file, line and column for errors in files, and
// by entity, then by position, for errors in triples.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Line > 0 && a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		if a.Entity != b.Entity {
			return a.Entity < b.Entity
		}
		if a.Pos.Triple != b.Pos.Triple {
			return a.Pos.Triple < b.Pos.Triple
		}
		if a.Pos.Part != b.Pos.Part {
			return a.Pos.Part < b.Pos.Part
		}
		return a.Pos.Offset < b.Pos.Offset
	})
}

// Error prints the first error and how many more there are.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "dsl: no errors"
	case 1:
		return l[0].Error()
	}
	if len(l) == 2 {
		return l[0].Error() + "\n(and 1 more error)"
	}
	return l[0].Error() + "\n(and " + strconv.Itoa(len(l)-1) + " more errors)"
}

// Err returns nil for an empty list and the list itself otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Unwrap returns the errors, for errors.Is and errors.As.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}
