package dsl

import (
	"sort"
	"strconv"
	"strings"
)

// Pos is a place in a declaration: the triple (counted from 1), which of its
// three strings, and a byte offset inside that string. It is cheap to carry;
// it is rendered only when an error is printed.
type Pos struct {
	Triple int  // 1-based index of the triple; 0 when the error is about the whole entity
	Part   Part // which string of the triple
	Offset int  // byte offset inside that string; -1 when the whole string is meant
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
// field and where in its triple. When the offending string is known it is
// printed under the message with a caret below the offending byte.
type Error struct {
	Entity string // the entity's name
	Field  string // the field's name, empty when the error is about the entity
	Pos    Pos
	Msg    string
	Source string // the string Pos.Offset points into; empty if none
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
func (e *Error) Error() string {
	var b strings.Builder
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

// writeCaret writes the line of src that holds byte off, indented, and a
// caret under that byte. The caret line copies the tabs of the source line so
// that it stays aligned, and counts runes, not bytes.
func writeCaret(b *strings.Builder, src string, off int) {
	start := strings.LastIndexAny(src[:off], "\n\r") + 1
	end := len(src)
	if i := strings.IndexAny(src[off:], "\n\r"); i >= 0 {
		end = off + i
	}
	b.WriteString("\n    ")
	b.WriteString(src[start:end])
	b.WriteString("\n    ")
	for _, r := range src[start:off] {
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteString("^")
}

// ErrorList is a list of declaration errors. The zero value is an empty list
// ready to use.
type ErrorList []*Error

// Add appends an error.
func (l *ErrorList) Add(e *Error) { *l = append(*l, e) }

// Len returns the number of errors.
func (l ErrorList) Len() int { return len(l) }

// Sort orders the list by entity, then by position.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
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
