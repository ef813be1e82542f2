package engine

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/rules"
)

// Typed lists: a field declared `[]string`, `[]number`, `[]date`… (a value
// node of type List with an element node, each) and `[]$user` (a
// reference node that is always a list, refList).
//
// The rules of the field judge the list (`min 1`: at least one element);
// each element is converted to the element type, judged by the rules of
// `each 'rules'` and written, or written as null when it does not convert
// (Strict: a `type` error at `tags[3]`), so that indexes stay aligned. The
// element node is compiled like a field of the element type, so that
// transforms and checks work in `each` as they do on a field.

// elems gives a typed list its element node, once its rules are
// compiled, with the fast path its checks allow (setFast).
func (c *compiler) elems(f *dsl.Field, n *node) {
	if c.elemNode(f, n); n.each != nil && len(n.each.xforms) == 0 {
		setFast(n.each) // with transforms, the general path: see appendTypedList
	}
}

// elemNode makes a typed list's element node, if it has none yet.
func (c *compiler) elemNode(f *dsl.Field, n *node) {
	if f.List && n.each == nil {
		// Its declaration, for tools (Field.Each): a field of the
		// element type whose rules are each's.
		decl := &dsl.Field{Name: f.Name, Kind: dsl.FieldValue, Type: f.Elem, TypeName: f.Elem.String(), Pos: f.Pos}
		n.each = &node{typ: f.Elem, in: n.in, out: n.out, decl: decl, elemOf: n}
	}
}

// each compiles `each 'rules'`: the rules, parsed from the argument, are
// compiled for the element type. A group or a reference reports the
// directive as a rule it does not take.
func (c *compiler) each(f *dsl.Field, n *node, r *dsl.Rule) {
	switch {
	case f.Kind != dsl.FieldValue:
		return
	case !f.List:
		c.errorf(f, r.Pos, "each applies to a typed list ([]string, []number…), and %q is %s %s", f.Name, article(f.Type.String()), f.Type)
		return
	case len(r.Args) != 1:
		c.errorf(f, r.Pos, "rule %q takes one argument, the rules of every element: each 'min 1 | max 20'", r.Name)
		return
	}
	c.elemNode(f, n)
	a := r.Args[0]
	// at places a position in the argument's text in the declaration: past
	// its quote, and past the doubled quotes the text holds as one.
	raw := ""
	if a.Pos.InFile() && a.Pos.Col >= 1 && a.Pos.Col-1 <= len(f.SourceLine) {
		raw = f.SourceLine[a.Pos.Col-1:]
	} else if !a.Pos.InFile() && a.Pos.Offset >= 0 && a.Pos.Offset <= len(f.RulesText) {
		raw = f.RulesText[a.Pos.Offset:]
	}
	at := func(p dsl.Pos) dsl.Pos {
		off := p.Offset
		if a.Quoted {
			off = quotedOffset(raw, p.Offset)
		}
		if a.Pos.InFile() {
			return dsl.Pos{File: a.Pos.File, Line: a.Pos.Line, Col: a.Pos.Col + off, Part: dsl.PartRules, Offset: a.Pos.Offset + off}
		}
		return dsl.Pos{Triple: f.Pos.Triple, Part: dsl.PartRules, Offset: a.Pos.Offset + off}
	}
	rs, err := dsl.ParseRules(a.Text)
	if err != nil {
		var list dsl.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				c.errorf(f, at(e.Pos), "each: %s", e.Msg)
			}
		}
		return
	}
	for _, er := range rs {
		er.Pos = at(er.Pos)
		for i := range er.Args {
			er.Args[i].Pos = at(er.Args[i].Pos)
		}
		if d := rules.LookupDirective(er.Name); d != rules.NotDirective {
			switch d {
			case rules.DirectiveFormat: // how each element is written: each 'format unix'
				c.format(f, n.each, er)
			case rules.DirectiveNone:
			case rules.DirectiveEach, rules.DirectiveMerge, rules.DirectiveUnexpose:
				c.errorf(f, er.Pos, "each takes the rules and format of the elements, and %q applies to no element", er.Name)
			default:
				c.errorf(f, er.Pos, "each takes the rules and format of the elements, and %q is the field's own: write it outside each", er.Name)
			}
			n.each.decl.Rules = append(n.each.decl.Rules, er)
			continue
		}
		c.rule(f, n.each, er, strings.ToLower(er.Name))
		n.each.decl.Rules = append(n.each.decl.Rules, er)
	}
	n.each.decl.RulesText = a.Text
}

// listDefault compiles a default with a value on a typed list: JSON text
// of a list, each element converted to the element type and judged by
// each's rules, the list by the field's.
func (c *compiler) listDefault(f *dsl.Field, n *node, r *dsl.Rule) {
	a := r.Args[0]
	var l []any
	if err := json.Unmarshal([]byte(a.Text), &l); err != nil || l == nil {
		c.errorf(f, a.Pos, "%s %q is not a valid list: write a JSON array", c.valueWord(), a.Text)
		return
	}
	js := []byte{'['}
	for i, x := range l {
		if i > 0 {
			js = append(js, ',')
		}
		v, _ := convert(n.each.typ, raw{a: x}, nil)
		if v.Kind == rules.Null {
			c.errorf(f, a.Pos, "%s %q: element %d is not a valid %s", c.valueWord(), a.Text, i, n.each.typ)
			return
		}
		if v = c.defaultElem(f, n.each, a, i, v); v.Kind == rules.Null {
			return
		}
		if n.each.format != nil {
			var err error
			if js, err = n.each.format.append(js, v); err != nil {
				c.errorf(f, a.Pos, "%s %q: element %d cannot be written: %v", c.valueWord(), a.Text, i, err)
				return
			}
			continue
		}
		js, _ = appendValue(js, n.each.typ, v, defaultDepth, maxOutputLimit)
	}
	js = append(js, ']')
	lv := rules.Value{Kind: rules.List, Len: len(l), Any: l}
	if fs := judgeStatic(lv, false, n.inChecks, n.outChecks); len(fs) > 0 {
		c.errorf(f, a.Pos, "the %s fails rule %q: %v", c.valueWord(), fs[0].Rule, fs[0].Err)
		return
	}
	n.hasDefault = true
	n.defJSON = js
}

// defaultElem transforms and judges element i of a default; it returns
// null, having reported why, when the element fails.
func (c *compiler) defaultElem(f *dsl.Field, en *node, a dsl.Arg, i int, v rules.Value) rules.Value {
	v, err := transformDefault(en, v)
	if err != nil {
		c.errorf(f, a.Pos, "%s %q: element %d fails %v", c.valueWord(), a.Text, i, err)
		return rules.Value{}
	}
	if fs := judgeStatic(v, false, en.inChecks, en.outChecks); len(fs) > 0 {
		c.errorf(f, a.Pos, "%s %q: element %d fails rule %q: %v", c.valueWord(), a.Text, i, fs[0].Rule, fs[0].Err)
		return rules.Value{}
	}
	return v
}

// quotedOffset returns where byte n of a quoted argument's text lies in
// its source raw, which starts at the opening quote: a doubled quote is
// one byte of the text.
func quotedOffset(raw string, n int) int {
	if raw == "" {
		return n + 1
	}
	q := raw[0]
	i := 1
	for k := 0; k < n && i < len(raw); k++ {
		if raw[i] == q && i+1 < len(raw) && raw[i+1] == q {
			i++
		}
		i++
	}
	return i
}
