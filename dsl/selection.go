package dsl

import (
	"strconv"
	"strings"
)

// This file holds the parser of field selections, the text a client
// sends to choose the fields of a response ("id,name,list(name,details)").
// Its input is a client's, not a declaration: its errors quote nothing of
// it, and say where by a byte offset.

// The limits of a field selection: MaxSelectionLen bytes of text, and
// MaxSelectionDepth levels of nesting: no name stands deeper than that
// many names, counting those before it on its path and those of the terms
// whose parentheses hold it ("a/b(c)": c is at level 3).
const (
	MaxSelectionLen   = 4096
	MaxSelectionDepth = 64
)

// Term is one comma-separated term of a field selection: a path of names
// separated by "/", and the terms in parentheses after it, if any.
type Term struct {
	Path []Step // at least one
	Sub  []Term // nil when the term has no parentheses; never empty otherwise
}

// Step is one name of a term's path.
type Step struct {
	Name   string // "*" for every field of its level
	Offset int    // the byte offset of the name in the selection
}

// String prints the term as a selection: "list/details(mail,age)".
func (t Term) String() string {
	var b strings.Builder
	t.print(&b)
	return b.String()
}

func (t Term) print(b *strings.Builder) {
	for i, s := range t.Path {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(s.Name)
	}
	if t.Sub == nil {
		return
	}
	b.WriteByte('(')
	for i, s := range t.Sub {
		if i > 0 {
			b.WriteByte(',')
		}
		s.print(b)
	}
	b.WriteByte(')')
}

// SelectionError is an error in a field selection: the byte offset where
// it was found and what is wrong. Msg is one of a fixed set of texts,
// which hold numbers (a limit, the offset of an open parenthesis) but
// nothing of the selection itself, so that it may be shown to the client
// who sent it and logged.
type SelectionError struct {
	Offset int
	Msg    string
	// Code names the error for a translator, one of "too-long", "deep",
	// "name", "star", "unclosed" (Open is then the offset of the
	// parenthesis left open), "close" and "after".
	Code string
	Open int
}

// Error returns "dsl: field selection: at byte 7, expected a field name,
// got the end".
func (e *SelectionError) Error() string {
	return "dsl: field selection: at byte " + strconv.Itoa(e.Offset) + ", " + e.Msg
}

// ParseSelection parses a field selection, the fields of a response a
// call asks for, as [github.com/expose-go/expose/entity.Select] takes it
// from a client:
//
//	selection = term { "," term } .
//	term      = path [ "(" selection ")" ] .
//	path      = name { "/" name } .
//	name      = any bytes but "," "/" "(" ")", spaces around them ignored .
//
// "a/b" is field b of the object a, "a(b,c)" the fields b and c of a,
// and "*" every field of its level: it ends a path and takes no
// parentheses ("a/*", "a(*)", "*,x"). Only the space (U+0020) is white
// space around names and after ")"; an empty name is an error. A
// selection holds at most MaxSelectionLen bytes and nests at most
// MaxSelectionDepth levels (see the constants). Parsing stops at the first error, a *SelectionError,
// whose message quotes nothing of the selection: its Offset says where.
// The empty selection is an error too (a field name is expected at byte
// 0): a caller that takes "" for "no selection" checks for it first.
//
// Which names exist is not the parser's business: the entity a
// selection is applied to says.
func ParseSelection(spec string) ([]Term, error) {
	if len(spec) > MaxSelectionLen {
		return nil, &SelectionError{Offset: MaxSelectionLen, Msg: "the selection is longer than " + strconv.Itoa(MaxSelectionLen) + " bytes", Code: "too-long"}
	}
	p := selectionParser{s: spec}
	terms, err := p.list(0)
	if err == nil && p.i < len(spec) {
		err = p.errorf("after", "expected a comma or the end after a sub-selection")
		if spec[p.i] == ')' {
			err = p.errorf("close", "a closing parenthesis with no opening one")
		}
	}
	if err != nil {
		return nil, err
	}
	return terms, nil
}

// selectionParser reads a selection byte by byte: its syntax is all
// ASCII, and a name is whatever bytes stand between its delimiters.
type selectionParser struct {
	s string
	i int
}

func (p *selectionParser) errorf(code, msg string) *SelectionError {
	return &SelectionError{Offset: p.i, Msg: msg, Code: code}
}

// tooDeep is the error of a selection nested past MaxSelectionDepth.
var tooDeep = "the selection nests more than " + strconv.Itoa(MaxSelectionDepth) + " levels"

// list reads terms separated by commas, at depth levels of nesting. It
// recurses once per parenthesis, at most MaxSelectionDepth times, since
// each level takes a name first.
func (p *selectionParser) list(depth int) ([]Term, *SelectionError) {
	var terms []Term
	for {
		var t Term
		for {
			st, err := p.name()
			if err != nil {
				return nil, err
			}
			t.Path = append(t.Path, st)
			if len(t.Path)+depth > MaxSelectionDepth {
				return nil, &SelectionError{Offset: st.Offset, Msg: tooDeep, Code: "deep"}
			}
			if p.i < len(p.s) && p.s[p.i] == '/' {
				if st.Name == "*" {
					return nil, &SelectionError{Offset: st.Offset, Msg: starAlone, Code: "star"}
				}
				p.i++
				continue
			}
			break
		}
		if p.i < len(p.s) && p.s[p.i] == '(' {
			if last := t.Path[len(t.Path)-1]; last.Name == "*" {
				return nil, &SelectionError{Offset: last.Offset, Msg: starAlone, Code: "star"}
			}
			open := p.i
			p.i++
			sub, err := p.list(depth + len(t.Path))
			if err != nil {
				return nil, err
			}
			if p.i >= len(p.s) || p.s[p.i] != ')' {
				e := p.errorf("unclosed", "expected a closing parenthesis for the one at byte "+strconv.Itoa(open))
				e.Open = open
				return nil, e
			}
			p.i++
			t.Sub = sub
			for p.i < len(p.s) && p.s[p.i] == ' ' {
				p.i++
			}
		}
		terms = append(terms, t)
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		return terms, nil
	}
}

// starAlone is the error of a "*" that does not end its term.
const starAlone = "* selects every field of its level: it ends a path and takes no sub-selection"

// name reads one name: the bytes up to "," "/" "(" or ")", without the
// spaces around them.
func (p *selectionParser) name() (Step, *SelectionError) {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
	start := p.i
	for p.i < len(p.s) && !isSelectionDelim(p.s[p.i]) {
		p.i++
	}
	name := strings.TrimRight(p.s[start:p.i], " ")
	if name != "" {
		return Step{name, start}, nil
	}
	if p.i == len(p.s) {
		return Step{}, p.errorf("name", "expected a field name, got the end")
	}
	return Step{}, p.errorf("name", "expected a field name, got "+delimNames[p.s[p.i]])
}

func isSelectionDelim(c byte) bool { return c == ',' || c == '/' || c == '(' || c == ')' }

// delimNames names the delimiters in messages, which quote no byte of
// the selection.
var delimNames = map[byte]string{
	',': "a comma",
	'/': "a slash",
	'(': "an opening parenthesis",
	')': "a closing parenthesis",
}
