package dsl

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/expose-go/expose/internal/suggest"
	"github.com/expose-go/expose/rules"
)

// MaxNesting is how deep groups may nest: a group opened inside MaxNesting
// open groups is a declaration error. It is the library's hard limit on
// nesting (a registry's depth limit can be no higher), and it bounds every
// recursion over a parsed tree.
const MaxNesting = 10000

// Parse reads the triples of one entity declaration: field name, type,
// rules, repeated. It checks syntax only: the type names, the `{`/`}`
// balance and nesting (at most MaxNesting groups deep), `$` references and
// the shape of each rules string. Which rules exist and what their
// arguments mean is for the compiler that reads the result. Every error
// found is reported, as an ErrorList sorted by position, and the entity is
// then nil.
func Parse(entity string, decl ...string) (*Entity, error) {
	e, err := ParsePartial(entity, decl...)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// ParsePartial is Parse, but it returns the tree it read even when there
// are errors, so that a compiler can report its own errors (an unknown rule
// name, say) together with the syntax errors instead of after them. Each
// triple is read on its own. In the tree returned with an error, a field
// whose type is in error (unknown, "[]" of no scalar type, "$" of no
// name) is a FieldValue of Type rules.Null, which no declaration has, with
// its rules, so that their names can still be checked; a rules string with
// a syntax error keeps the rules before the one the error is in, and
// those after it when it is an empty rule; a field without a name has no
// rules; a group nested deeper than MaxNesting is left out with its
// contents; every other triple is as Parse would give it. The tree then is
// not a valid declaration: it is meant for more error reports only.
func ParsePartial(entity string, decl ...string) (*Entity, error) {
	p := &parser{ent: &Entity{Name: entity}}
	p.parse(decl)
	p.errs.Sort()
	return p.ent, p.errs.Err()
}

// ParseRules parses one rules string on its own ("num | rename 'number'").
// Offsets in the returned rules and errors are relative to s. On error the
// rules that could be read are returned with an ErrorList.
func ParseRules(s string) ([]*Rule, error) {
	p := &parser{ent: &Entity{}}
	rs := p.parseRules(&Field{}, s, &site{})
	p.errs.Sort()
	return rs, p.errs.Err()
}

type parser struct {
	ent   *Entity
	errs  ErrorList
	stack []*Field // open groups, innermost last; at most MaxNesting
	// over counts the groups open past MaxNesting, which are left out of
	// the tree with their contents; deep is set once that is reported.
	over int
	deep bool
	// doc is the description of the field read next, from the comment
	// lines above its line in a file (see fileParser.doc).
	doc string
}

func (p *parser) errorf(field string, pos Pos, source string, format string, args ...any) {
	p.errs.Add(&Error{Entity: p.ent.Name, Field: field, Pos: pos, Msg: fmt.Sprintf(format, args...), Source: source})
}

func (p *parser) parse(decl []string) {
	if strings.TrimSpace(p.ent.Name) == "" {
		p.errorf("", Pos{Offset: -1}, "", "the entity name is empty")
	}
	if len(decl)%3 == 1 && isMethodList(decl[0]) {
		p.ent.Methods, p.ent.Forms = splitMethods(decl[0])
		decl = decl[1:]
	}
	n := len(decl) / 3
	for i := 0; i < n; i++ {
		p.triple(i+1, decl[3*i], decl[3*i+1], decl[3*i+2])
	}
	if rest := len(decl) % 3; rest != 0 {
		p.errorf("", Pos{Triple: n + 1, Offset: -1}, "",
			"%d %s not a whole triple (field, type, rules): %s",
			rest, plural(rest, "string is", "strings are"), quoteAll(decl[3*n:]))
	}
	p.unclosed()
}

// unclosed reports the groups still open at the end of the declaration.
func (p *parser) unclosed() {
	for i := len(p.stack) - 1; i >= 0; i-- {
		g := p.stack[i]
		p.errorf(g.Name, g.Pos, g.SourceLine, "group %q opened with \"{\" is never closed with \"}\"", g.Name)
	}
	p.stack = p.stack[:0]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// add appends f to the innermost open group, or to the entity.
func (p *parser) add(f *Field) {
	if len(p.stack) > 0 {
		g := p.stack[len(p.stack)-1]
		g.Fields = append(g.Fields, f)
		return
	}
	p.ent.Fields = append(p.ent.Fields, f)
}

// site says where the strings of one field come from: a triple, or a line
// of a file with the columns its name, type and rules start at.
type site struct {
	triple int // the triple's index; 0 in a file
	file   string
	line   int    // 1-based; 0 for triples
	text   string // in a file: the whole line, which errors quote
	// nameCol, typeCol and rulesCol are 0-based byte offsets in text.
	nameCol, typeCol, rulesCol int
}

// at returns the position of part, and inside the rules of byte off.
func (s *site) at(part Part, off int) Pos {
	if s.line == 0 {
		return Pos{Triple: s.triple, Part: part, Offset: off}
	}
	col := s.nameCol
	switch part {
	case PartType:
		col = s.typeCol
	case PartRules:
		col = s.rulesCol + max(off, 0)
	}
	return Pos{Part: part, Offset: off, File: s.file, Line: s.line, Col: col + 1}
}

// source returns what an error at a position in part quotes: the rules
// string of a triple, or the line of a file.
func (s *site) source(part Part, rules string) string {
	if s.line > 0 {
		return s.text
	}
	if part == PartRules {
		return rules
	}
	return ""
}

func (p *parser) triple(idx int, name, typ, rulesText string) {
	p.field(&site{triple: idx}, name, typ, rulesText)
}

// field reads one field from its name, type and rules strings, wherever
// they come from; a type "}" closes the innermost group.
func (p *parser) field(at *site, name, typ, rulesText string) {
	pos := at.at(PartName, -1)
	typePos := at.at(PartType, -1)
	t := strings.TrimSpace(typ)

	if t == "}" {
		if p.over > 0 {
			p.over--
			p.noCloseRules(at, name, rulesText, name)
			return
		}
		if len(p.stack) == 0 {
			p.errorf(name, typePos, at.source(PartType, ""), "\"}\" closes no group")
			return
		}
		g := p.stack[len(p.stack)-1]
		p.stack = p.stack[:len(p.stack)-1]
		g.CloseName = name
		g.ClosePos = pos
		p.noCloseRules(at, name, rulesText, g.Name)
		return
	}

	f := &Field{Name: name, TypeName: typ, RulesText: rulesText, Pos: pos, TypePos: typePos, SourceLine: at.text, Doc: p.doc}
	if strings.TrimSpace(name) == "" {
		p.errorf(name, pos, at.source(PartName, ""), "the field name is empty")
	}
	if rest, ok := strings.CutPrefix(t, ListPrefix); ok {
		f.List = true
		t = strings.TrimSpace(rest)
	}
	// A type in error leaves a value field of no type, rules.Null, whose
	// rules ParsePartial's caller still reads.
	switch {
	case t == "{" && !f.List:
		f.Kind = FieldGroup
	case strings.HasPrefix(t, "$") && strings.Contains(t, "|"):
		p.union(f, t, at)
	case strings.HasPrefix(t, "$"):
		f.Kind = FieldRef
		f.Ref = strings.TrimSpace(t[1:])
		if f.Ref == "" {
			p.errorf(name, typePos, at.source(PartType, ""), "\"$\" names no entity: write \"$name\"")
			f.Kind, f.List = FieldValue, false
		}
	case f.List:
		ty, ok := LookupType(t)
		switch {
		case !ok:
			p.errorf(name, typePos, at.source(PartType, ""), "unknown type %q%s", typ,
				orWant(suggest.DidYouMean(t, elemNames, func(s string) string { return strconv.Quote(ListPrefix + s) }),
					": a typed list is \"[]\" and one of "+elemList+", or \"[]$entity\""))
		case !ty.IsElem():
			p.errorf(name, typePos, at.source(PartType, ""), "type %q: a typed list's elements are of a scalar type (%s), or \"[]$entity\"", typ, elemList)
			ok = false
		}
		f.Kind = FieldValue
		if ok {
			f.Type, f.Elem = rules.List, ty
		}
	default:
		ty, ok := LookupType(t)
		if !ok {
			p.errorf(name, typePos, at.source(PartType, ""), "unknown type %q%s", typ,
				orWant(suggest.DidYouMean(t, typeNames, strconv.Quote),
					" (want "+typeList+", \"[]type\", \"{\", \"}\" or \"$entity\")"))
		}
		f.Kind = FieldValue
		f.Type = ty
	}
	f.Rules = p.parseRules(f, rulesText, at)
	if strings.TrimSpace(name) == "" {
		f.Rules = nil // the rules of a field without a name would only add wrong errors
	}
	if f.Kind == FieldGroup && (p.over > 0 || len(p.stack) >= MaxNesting) {
		if !p.deep {
			p.deep = true
			p.errorf(name, typePos, at.source(PartType, ""), "group %q nests deeper than %d groups", name, MaxNesting)
		}
		p.over++
		return
	}
	if p.over > 0 {
		return // inside a group left out
	}
	p.add(f)
	if f.Kind == FieldGroup {
		p.stack = append(p.stack, f)
	}
}

// union reads the type of a union, t ("$card|$invoice", after any "[]"):
// two or more references with "|" between them, each a bare name, no
// white space inside. In error it leaves f a value field of no type, as
// any type in error.
func (p *parser) union(f *Field, t string, at *site) {
	typePos := at.at(PartType, -1)
	bad := func(format string, args ...any) {
		p.errorf(f.Name, typePos, at.source(PartType, ""), format, args...)
		f.Kind, f.List, f.Variants, f.Ref = FieldValue, false, nil, ""
	}
	if strings.IndexFunc(t, unicode.IsSpace) >= 0 {
		bad("the union %q has white space inside: write its variants with \"|\" and no spaces, as \"$card|$invoice\"", t)
		return
	}
	f.Kind = FieldRef
	seen := map[string]bool{}
	for _, part := range strings.Split(t, "|") {
		name, ok := strings.CutPrefix(part, "$")
		switch {
		case !ok || name == "":
			bad("the union %q has a variant that is not a reference: each is \"$name\", as in \"$card|$invoice\"", t)
			return
		case strings.ContainsAny(name, "'\"$[]{}"):
			bad("the union %q: variant %q is not a bare entity name", t, name)
			return
		case seen[name]:
			bad("the union %q names $%s twice", t, name)
			return
		}
		seen[name] = true
		f.Variants = append(f.Variants, name)
	}
	f.Ref = strings.Join(f.Variants, "|")
}

// typeList lists the type names for the message of an unknown type: none,
// string, number, float, bool, date, list, object.
var typeList = func() string {
	names := rules.TypeNames()
	// none first, as the DSL's documentation lists it.
	return strings.Join(append(names[len(names)-1:], names[:len(names)-1]...), ", ")
}()

// orWant returns hint, a suggestion, or else want, the list of what a
// declaration may write.
func orWant(hint, want string) string {
	if hint != "" {
		return hint
	}
	return want
}

// typeNames and elemNames are the names and aliases of every type and of
// the types a typed list may hold, for suggestions.
var typeNames, elemNames = func() (all, elems []string) {
	for _, name := range rules.TypeNames() {
		k, _ := rules.LookupKind(name)
		names := append([]string{name}, k.Aliases()...)
		all = append(all, names...)
		if k.IsElem() {
			elems = append(elems, names...)
		}
	}
	return all, elems
}()

// ListPrefix starts the type of a typed list: "[]string", "[]$user".
const ListPrefix = "[]"

// elemList lists the element types of a typed list for messages: string,
// number, float, bool, date.
var elemList = strings.Join(rules.ElemNames(), ", ")

// noCloseRules reports rules written on the closing "}" of a group.
func (p *parser) noCloseRules(at *site, name, rules, group string) {
	if trimmed := strings.TrimLeftFunc(rules, unicode.IsSpace); trimmed != "" {
		off := len(rules) - len(trimmed) // the caret goes under the first rule
		p.errorf(name, at.at(PartRules, off), at.source(PartRules, rules), "the closing \"}\" of group %q takes no rules", group)
	}
}

// parseRules reads "rule arg arg | rule | …". Empty rules text is no rules;
// an empty rule (before, between or after bars) is an error. Parsing goes on
// after an error, so that every error of the string is reported.
func (p *parser) parseRules(f *Field, s string, where *site) []*Rule {
	at := func(off int) Pos { return where.at(PartRules, off) }
	src := where.source(PartRules, s)
	toks, lerr := lexRules(s) // on error, toks stops before it and has no tokEOF
	var rs []*Rule
	var cur *Rule // the rule being read; nil before its name
	lastBar := -1 // offset of the last bar
	for _, tok := range toks {
		switch tok.kind {
		case tokWord, tokQuoted:
			if cur == nil {
				cur = &Rule{Name: tok.text, Pos: at(tok.off)}
				if tok.kind == tokQuoted {
					// Read its arguments but keep it out of the result.
					p.errorf(f.Name, at(tok.off), src, "a rule name cannot be quoted")
					continue
				}
				rs = append(rs, cur)
				continue
			}
			cur.Args = append(cur.Args, Arg{Text: tok.text, Quoted: tok.kind == tokQuoted, Pos: at(tok.off)})
		case tokPipe:
			if cur == nil {
				p.errorf(f.Name, at(tok.off), src, "empty rule before \"|\"")
			}
			cur = nil
			lastBar = tok.off
		case tokEOF:
			if cur == nil && lastBar >= 0 {
				p.errorf(f.Name, at(lastBar), src, "empty rule after \"|\"")
			}
		}
	}
	if lerr != nil {
		p.errorf(f.Name, at(lerr.off), src, "%s", lerr.msg)
		if cur != nil && len(rs) > 0 && rs[len(rs)-1] == cur {
			rs = rs[:len(rs)-1] // the error cut its arguments
		}
		if len(rs) == 0 {
			rs = nil
		}
	}
	return rs
}

// isMethodList reports whether s names HTTP methods, separated by "|", ","
// or spaces ("POST", "GET|HEAD", "PUT, PATCH"), and the word form
// ("POST form", or form alone) among them.
func isMethodList(s string) bool {
	words := methodWords(s)
	if len(words) == 0 {
		return false
	}
	for _, m := range words {
		switch {
		case strings.EqualFold(m, formWord):
		case m == "GET", m == "HEAD", m == "POST", m == "PUT", m == "PATCH", m == "DELETE", m == "OPTIONS", m == "CONNECT", m == "TRACE":
		default:
			return false
		}
	}
	return true
}

// formWord is the word of a declaration's methods that lets its requests
// send a form body (Entity.Forms): "POST form", "POST|PUT|form", or form
// alone for any method; in any case.
const formWord = "form"

// splitMethods returns the methods a method list names (see isMethodList)
// and whether it holds the word form.
func splitMethods(s string) (methods []string, forms bool) {
	for _, w := range methodWords(s) {
		if strings.EqualFold(w, formWord) {
			forms = true
			continue
		}
		methods = append(methods, w)
	}
	return methods, forms
}

func methodWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '|' || r == ',' || r == ' ' || r == '\t' })
}

// methodList is the methods string of e: its methods, then the word form
// when its requests read forms; "" for neither.
func (e *Entity) methodList() string {
	s := strings.Join(e.Methods, "|")
	if e.Forms {
		if s != "" {
			s += " "
		}
		s += formWord
	}
	return s
}
