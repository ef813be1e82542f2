package dsl

import (
	"fmt"
	"strings"
	"unicode"
)

// File is a parsed .entity file: its entities in order and its comments.
type File struct {
	Name     string // the file's name, as given to ParseFile; it is in every Pos
	Entities []*Entity
	Comments []*Comment // in the order of the file
}

// Comment is a comment of an .entity file: from a "#" that starts a token
// outside quotes to the end of its line.
type Comment struct {
	Text     string // from the "#" on, without trailing white space
	Pos      Pos    // the "#"
	Trailing bool   // written after a declaration on its line, not on a line of its own
}

// ParseFile reads an .entity file: one or more entities, each a name, the
// HTTP methods its requests must use if any, and its fields in braces, one
// field a line:
//
//	# users.entity
//	user {
//	  id       number  num | rename 'number'
//	  name     string  req
//	  details  {
//	    age   number  num
//	    mail  string  email
//	  }
//	}
//	users POST {
//	  list  $user
//	}
//
// A field line holds the three strings of a triple: the name, the type and
// the rules, which run to the end of the line or to a comment, and are read
// by the same parser as a triple's rules. A group is a field of type "{"
// (its rules, rename and msg only, follow the "{") closed by a line "}",
// on which the group's name may be repeated. A name holding white space,
// or starting with a quote or "#", is quoted as rule arguments are
// ('first name', with a doubled quote for a quote); so is a reference to
// such a name ($'first name'). A "#" that starts a token outside quotes
// starts a comment; comments are kept in File.Comments. The comment lines
// directly above an entity's first line or a field's line, with no blank
// line between, are its description (Entity.Doc, Field.Doc). Quoted text
// ends on its line: names and arguments holding line breaks have no file
// form. The package documentation gives the whole grammar.
//
// Positions carry name, line and column. Every error of the file is
// reported, as an ErrorList sorted by position, and the file is then nil.
func ParseFile(name string, src []byte) (*File, error) {
	f, err := ParseFilePartial(name, src)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// ParseFilePartial is ParseFile, but it returns what it read even when there
// are errors, as ParsePartial does for triples, so that a compiler can
// report its own errors together with the syntax errors.
func ParseFilePartial(name string, src []byte) (*File, error) {
	fp := &fileParser{file: &File{Name: name}}
	fp.parse(string(src))
	fp.errs.Sort()
	return fp.file, fp.errs.Err()
}

// fileParser reads a file line by line. The fields of the entity being
// read go through the triples' parser, p, so that a field means the same
// in both forms and is checked once.
type fileParser struct {
	file *File
	errs ErrorList
	p    *parser // the entity being read; nil between entities
	line int
	text string // the line being read

	// pending is an entity whose first line lacked its "{": a "{" alone on
	// the next line opens it, without another error. broken holds, for
	// each group whose line was in error but ended with "{", the depth of
	// the group stack it stood at: its "}" closes it silently, so that one
	// mistake gives one error.
	pending *parser
	broken  []int
	// doc holds the comments of the lines read since the last line that
	// was neither a comment nor blank, none blank between them: the
	// description of what the next line declares.
	doc []*Comment
}

func (fp *fileParser) pos(col int) Pos {
	return Pos{File: fp.file.Name, Line: fp.line, Col: col + 1, Offset: -1}
}

func (fp *fileParser) errorf(entity string, col int, format string, args ...any) {
	fp.errs.Add(&Error{Entity: entity, Pos: fp.pos(col), Msg: fmt.Sprintf(format, args...), Source: fp.text})
}

func (fp *fileParser) parse(src string) {
	src = strings.TrimPrefix(src, "\uFEFF")
	for len(src) > 0 || fp.line == 0 {
		line := src
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = ""
		}
		fp.line++
		fp.text = strings.TrimSuffix(line, "\r")
		fp.readLine()
	}
	if fp.p != nil {
		e := fp.p.ent
		fp.p.unclosed()
		fp.p.errs.Add(&Error{Entity: e.Name, Pos: e.Pos, Msg: "its \"{\" is never closed with \"}\"", Source: e.SourceLine})
		fp.endEntity()
	}
}

// readLine reads one line: blank, a comment, an entity's first line, a
// field, or a "}".
func (fp *fileParser) readLine() {
	l := &lineLexer{s: fp.text}
	l.skipSpace()
	if l.end() {
		if c := fp.comment(l, false); c != nil {
			fp.doc = append(fp.doc, c)
		} else {
			fp.doc = nil // a blank line detaches the comments above it
		}
		return
	}
	doc := docText(fp.doc)
	fp.doc = nil
	if fp.p != nil {
		fp.p.doc = doc // for the field this line declares, if it does
		defer func() {
			if fp.p != nil {
				fp.p.doc = ""
			}
		}()
	}
	if fp.p == nil {
		if p := fp.pending; p != nil {
			fp.pending = nil
			if strings.TrimSpace(fp.text) == "{" { // the "{" the entity's first line lacked
				fp.p = p
				return
			}
		}
		fp.entity(l, doc)
		return
	}
	if len(fp.broken) > 0 && fp.broken[len(fp.broken)-1] == len(fp.p.stack) &&
		l.s[l.i] == '}' && (l.i+1 == len(l.s) || spaceAt(l.s, l.i+1) > 0) {
		fp.broken = fp.broken[:len(fp.broken)-1] // closes a group whose line was in error
		return
	}
	if l.s[l.i] == '}' && (l.i+1 == len(l.s) || spaceAt(l.s, l.i+1) > 0) {
		fp.close(l)
		return
	}
	fp.field(l)
}

// comment records the comment l stands at, if any, and returns it.
func (fp *fileParser) comment(l *lineLexer, trailing bool) *Comment {
	if l.i < len(l.s) && l.s[l.i] == '#' {
		text := strings.TrimRightFunc(l.s[l.i:], unicode.IsSpace)
		c := &Comment{Text: text, Pos: fp.pos(l.i), Trailing: trailing}
		fp.file.Comments = append(fp.file.Comments, c)
		return c
	}
	return nil
}

// docText returns the description that the comments cs, on lines one
// after the other, give what follows them: each comment's text without
// its "#" and one space after it, a line each, without the empty lines
// at the start and at the end.
func docText(cs []*Comment) string {
	lines := make([]string, 0, len(cs))
	for _, c := range cs {
		t := strings.TrimPrefix(c.Text, "#")
		lines = append(lines, strings.TrimPrefix(t, " "))
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// rest checks that nothing but a comment follows on the line.
func (fp *fileParser) rest(l *lineLexer, entity, what string) {
	l.skipSpace()
	if !l.end() {
		fp.errorf(entity, l.i, "unexpected %q after %s", l.s[l.i:], what)
		return
	}
	fp.comment(l, true)
}

// entity reads "name [METHODS] {", the first line of an entity. A first
// line in error that ends with "{" still opens the entity, so that its
// fields are read as fields; the entity is then left out of the file.
func (fp *fileParser) entity(l *lineLexer, doc string) {
	nameCol := l.i
	e := &Entity{Pos: fp.pos(nameCol), Doc: doc}
	fp.p = &parser{ent: e}
	read := false
	e.SourceLine = fp.text
	defer func() {
		switch {
		case read:
		case strings.HasSuffix(strings.TrimRightFunc(l.s[:rulesEnd(l.s)], unicode.IsSpace), "{"):
			// Read on, and keep it, so that a compiler reports its fields'
			// errors too: the file has errors anyway.
			if e.Name != "" {
				fp.file.Entities = append(fp.file.Entities, e)
			}
		default:
			if e.Name != "" {
				fp.pending = fp.p
			}
			fp.p = nil
		}
	}()
	if l.s[l.i] == '}' && (l.i+1 == len(l.s) || spaceAt(l.s, l.i+1) > 0) {
		fp.errorf("", l.i, "\"}\" closes no entity")
		fp.p = nil
		return
	}
	name, ok := fp.word(l, "")
	if !ok {
		return
	}
	e.Name = name
	var methods []string
	for {
		l.skipSpace()
		if l.end() {
			fp.errorf(name, l.i, "want \"{\" to open entity %q: an entity's first line is its name, the methods its requests must use if any, then \"{\"", name)
			return
		}
		col := l.i
		w, ok := fp.word(l, name)
		if !ok {
			return
		}
		if w == "{" {
			break
		}
		if !isMethodList(w) {
			fp.errorf(name, col, "%q is not an HTTP method: an entity's first line is its name, the methods its requests must use if any, then \"{\"", w)
			return
		}
		methods = append(methods, w)
	}
	if len(methods) > 0 {
		e.Methods, e.Forms = splitMethods(strings.Join(methods, " "))
	}
	read = true
	fp.file.Entities = append(fp.file.Entities, e)
	if strings.TrimSpace(name) == "" {
		fp.p.errorf("", e.Pos, fp.text, "the entity name is empty")
	}
	fp.rest(l, name, "\"{\"")
}

// close reads a "}" line: the end of a group, with the group's name if it
// is repeated, or of the entity.
func (fp *fileParser) close(l *lineLexer) {
	p := fp.p
	at := &site{file: fp.file.Name, line: fp.line, text: fp.text, nameCol: l.i, typeCol: l.i}
	l.i++
	l.skipSpace()
	if len(p.stack) == 0 && p.over == 0 {
		p.ent.ClosePos = fp.pos(at.nameCol)
		fp.rest(l, p.ent.Name, "the \"}\" closing entity "+quote(p.ent.Name))
		fp.endEntity()
		return
	}
	name := ""
	if len(p.stack) > 0 {
		name = p.stack[len(p.stack)-1].Name
	}
	if !l.end() {
		at.nameCol = l.i
		var ok bool
		if name, ok = fp.word(l, p.ent.Name); !ok {
			return
		}
	}
	l.skipSpace()
	at.rulesCol = l.i
	end := l.i + rulesEnd(l.s[l.i:])
	rules := strings.TrimRightFunc(l.s[l.i:end], unicode.IsSpace)
	p.field(at, name, "}", rules)
	l.i = end
	fp.comment(l, true)
}

// brokenGroup records, when the line in error ends with "{", a group
// that its "}" closes silently (see fileParser.broken).
func (fp *fileParser) brokenGroup() {
	if strings.HasSuffix(strings.TrimRightFunc(fp.text[:rulesEnd(fp.text)], unicode.IsSpace), "{") {
		fp.broken = append(fp.broken, len(fp.p.stack))
	}
}

// field reads a field's line: name, type, rules.
func (fp *fileParser) field(l *lineLexer) {
	p := fp.p
	at := &site{file: fp.file.Name, line: fp.line, text: fp.text, nameCol: l.i}
	name, ok := fp.word(l, p.ent.Name)
	if !ok {
		fp.brokenGroup()
		return
	}
	l.skipSpace()
	if l.end() {
		fp.errs.Add(&Error{Entity: p.ent.Name, Field: name, Pos: fp.pos(l.i), Msg: fmt.Sprintf("field %q has no type: a field's line is its name, its type and its rules", name), Source: fp.text})
		fp.comment(l, true)
		return
	}
	at.typeCol = l.i
	typ, ok := fp.typeWord(l, name)
	if !ok {
		fp.brokenGroup()
		return
	}
	l.skipSpace()
	at.rulesCol = l.i
	end := l.i + rulesEnd(l.s[l.i:])
	rules := strings.TrimRightFunc(l.s[l.i:end], unicode.IsSpace)
	p.field(at, name, typ, rules)
	l.i = end
	fp.comment(l, true)
}

// typeWord reads a type: a word, or "$" and a quoted entity name.
func (fp *fileParser) typeWord(l *lineLexer, field string) (string, bool) {
	start := l.i
	if c := l.s[l.i]; c == '\'' || c == '"' {
		fp.errs.Add(&Error{Entity: fp.p.ent.Name, Field: field, Pos: fp.pos(start), Msg: "a type is not quoted: write a type name, \"{\" or \"$entity\"", Source: fp.text})
		return "", false
	}
	list := ""
	if strings.HasPrefix(l.s[l.i:], ListPrefix+"$") && l.i+3 < len(l.s) && (l.s[l.i+3] == '\'' || l.s[l.i+3] == '"') {
		list = ListPrefix // []$'quoted name'
		l.i += len(ListPrefix)
	}
	if l.s[l.i] == '$' && l.i+1 < len(l.s) && (l.s[l.i+1] == '\'' || l.s[l.i+1] == '"') {
		l.i++
		text, next, err := lexQuoted(l.s, l.i)
		if err != nil {
			fp.errs.Add(&Error{Entity: fp.p.ent.Name, Field: field, Pos: fp.pos(err.off), Msg: err.msg, Source: fp.text})
			return "", false
		}
		l.i = next
		return list + "$" + text, true
	}
	return l.bare(), true
}

// word reads a name: a quoted string or a word up to white space.
func (fp *fileParser) word(l *lineLexer, entity string) (string, bool) {
	if c := l.s[l.i]; c == '\'' || c == '"' {
		text, next, err := lexQuoted(l.s, l.i)
		if err != nil {
			fp.errorf(entity, err.off, "%s", err.msg)
			return "", false
		}
		l.i = next
		if l.i < len(l.s) && spaceAt(l.s, l.i) == 0 {
			fp.errorf(entity, l.i, "want white space after the quoted %q", text)
			return "", false
		}
		return text, true
	}
	return l.bare(), true
}

// endEntity ends the entity being read and takes its errors.
func (fp *fileParser) endEntity() {
	fp.p.unclosed()
	fp.errs = append(fp.errs, fp.p.errs...)
	fp.p = nil
	fp.broken = fp.broken[:0]
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// lineLexer reads the words of one line of a file.
type lineLexer struct {
	s string
	i int
}

func (l *lineLexer) skipSpace() {
	for l.i < len(l.s) {
		n := spaceAt(l.s, l.i)
		if n == 0 {
			return
		}
		l.i += n
	}
}

// end reports whether nothing but a comment is left, after skipSpace.
func (l *lineLexer) end() bool { return l.i == len(l.s) || l.s[l.i] == '#' }

// bare reads a word up to white space.
func (l *lineLexer) bare() string {
	start := l.i
	for l.i < len(l.s) && spaceAt(l.s, l.i) == 0 {
		l.i++
	}
	return l.s[start:l.i]
}
