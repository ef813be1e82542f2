package entity

import (
	"encoding/json"
	"errors"
	"strconv"
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
		setFast(n.each) // with transforms, the general path: see appendElemFast
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
	base := a.Pos.Offset // where the argument's text starts in the rules text
	if a.Quoted {
		base++
	}
	at := func(p dsl.Pos) dsl.Pos {
		return dsl.Pos{Triple: f.Pos.Triple, Part: dsl.PartRules, Offset: base + p.Offset}
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
		c.errorf(f, a.Pos, "default %q is not a valid list: write a JSON array", a.Text)
		return
	}
	js := []byte{'['}
	for i, x := range l {
		if i > 0 {
			js = append(js, ',')
		}
		v, _ := convert(n.each.typ, raw{a: x}, nil)
		if v.Kind == rules.Null {
			c.errorf(f, a.Pos, "default %q: element %d is not a valid %s", a.Text, i, n.each.typ)
			return
		}
		if v = c.defaultElem(f, n.each, a, i, v); v.Kind == rules.Null {
			return
		}
		if n.each.format != nil {
			var err error
			if js, err = n.each.format.append(js, v); err != nil {
				c.errorf(f, a.Pos, "default %q: element %d cannot be written: %v", a.Text, i, err)
				return
			}
			continue
		}
		js, _ = appendValue(js, n.each.typ, v, defaultDepth, maxOutputLimit)
	}
	js = append(js, ']')
	lv := rules.Value{Kind: rules.List, Len: len(l), Any: l}
	for _, cks := range [2][]check{n.inChecks, n.outChecks} {
		for _, ck := range cks {
			if err := runCheck(ck, lv); err != nil {
				c.errorf(f, a.Pos, "the default fails rule %q: %v", ck.rule, err)
				return
			}
		}
	}
	n.hasDefault = true
	n.defJSON = js
}

// defaultElem transforms and judges element i of a default; it returns
// null, having reported why, when the element fails.
func (c *compiler) defaultElem(f *dsl.Field, en *node, a dsl.Arg, i int, v rules.Value) rules.Value {
	v, err := transformDefault(en, v)
	if err != nil {
		c.errorf(f, a.Pos, "default %q: element %d fails %v", a.Text, i, err)
		return rules.Value{}
	}
	for _, cks := range [2][]check{en.inChecks, en.outChecks} {
		for _, ck := range cks {
			if err := runCheck(ck, v); err != nil {
				c.errorf(f, a.Pos, "default %q: element %d fails rule %q: %v", a.Text, i, ck.rule, err)
				return rules.Value{}
			}
		}
	}
	return v
}

// appendTypedList writes a typed list read from in, a list (the field's
// conversion said so): each element converted, judged and written.
//
//go:noinline
func (r *run) appendTypedList(dst []byte, n *node, in raw, depth int) []byte {
	if depth <= 0 {
		r.fail(n, "depth", ErrDepth)
		return append(dst, "null"...)
	}
	r.push(frame{n: n, kind: frameRef}) // errors at tags[3]
	dst = append(dst, '[')
	switch {
	case in.kind == rawJSON:
		en := n.each
		eachJSONValue(in.s, int32(in.n), r.js.tape, func(i int, text string, k int32, plain bool) bool {
			if i > 0 {
				dst = append(dst, ',')
			}
			if plain && en.fast == fastString && text[0] == '"' {
				dst = r.appendElemString(dst, en, text[1:len(text)-1], i)
				return true
			}
			dst = r.appendElemValue(dst, n.each, jsonElem(text, k, plain), i, depth-1)
			return !r.stop
		})
	default:
		dst = r.appendGoElems(dst, n.each, in, depth-1)
	}
	r.pop()
	return append(dst, ']')
}

// appendGoElems writes the elements of a Go list: []any, []string, or any
// other slice or array (through reflection).
func (r *run) appendGoElems(dst []byte, en *node, in raw, depth int) []byte {
	switch l := in.a.(type) {
	case []any:
		plain := en.fast == fastString && len(en.strChecks) == 0 // strings as they are: the common case
		for i, x := range l {
			if i > 0 {
				dst = append(dst, ',')
			}
			if s, ok := x.(string); ok && plain {
				dst = appendString(dst, s)
				continue
			}
			if en.fast != fastNone {
				var ok bool
				if dst, ok = r.appendElemFast(dst, en, x, i); ok {
					continue
				}
			}
			if dst = r.appendElemValue(dst, en, raw{a: x}, i, depth); r.stop {
				break
			}
		}
		return dst
	case []string:
		for i, s := range l {
			if i > 0 {
				dst = append(dst, ',')
			}
			if en.fast == fastString {
				dst = r.appendElemString(dst, en, s, i)
				continue
			}
			if dst = r.appendElemValue(dst, en, raw{kind: rawStr, s: s}, i, depth); r.stop {
				break
			}
		}
		return dst
	case json.RawMessage: // JSON text a Go value holds: read as encoding/json reads it
		var xs []any
		if json.Unmarshal(l, &xs) == nil {
			return r.appendGoElems(dst, en, raw{a: xs}, depth)
		}
		return dst
	}
	l, _ := listOf(in.a)
	for i := 0; i < l.len; i++ {
		if i > 0 {
			dst = append(dst, ',')
		}
		var x raw
		if l.rv.IsValid() {
			x = rawOfValue(l.rv.Index(i))
		} else {
			x = raw{a: l.elem(i)}
		}
		if dst = r.appendElemValue(dst, en, x, i, depth); r.stop {
			break
		}
	}
	return dst
}

// appendElemFast writes an element of a []any as appendFast writes a
// field: a string of a []string whose each has only StringCheckers, an int
// or int64 of a []number without checks, or null. It reports false,
// having written nothing, for anything else.
func (r *run) appendElemFast(dst []byte, en *node, x any, i int) ([]byte, bool) {
	switch x := x.(type) {
	case string:
		if en.fast == fastString {
			return r.appendElemString(dst, en, x, i), true
		}
	case int:
		if en.fast == fastInt {
			return strconv.AppendInt(dst, int64(x), 10), true
		}
	case int64:
		if en.fast == fastInt {
			return strconv.AppendInt(dst, x, 10), true
		}
	case nil:
		return append(dst, "null"...), true
	}
	return dst, false
}

// appendElemString judges a string element with each's StringCheckers
// and writes it.
func (r *run) appendElemString(dst []byte, en *node, s string, i int) []byte {
	for _, ck := range en.strChecks {
		if err := runStringCheck(ck, s); err != nil {
			r.failElem(en, i, checkFailure(check{rule: ck.rule, info: ck.info}, rules.String, err))
		}
	}
	return appendString(dst, s)
}

// jsonElem reads one element of a raw JSON array as its field reads a
// value.
func jsonElem(text string, k int32, plain bool) raw {
	switch text[0] {
	case '"':
		if plain {
			return raw{kind: rawStr, s: text[1 : len(text)-1], view: true}
		}
		return raw{kind: rawStr, s: unquote(text), view: true}
	case '{', '[':
		return raw{kind: rawJSON, s: text, n: int64(k)}
	case 't':
		return raw{a: true}
	case 'f':
		return raw{a: false}
	case 'n':
		return raw{}
	}
	return raw{kind: rawNum, s: text}
}

// appendElemValue converts, transforms, judges and writes element i of a
// typed list with its element node en: null when it is null or does not
// convert (Strict: a type error at its index).
func (r *run) appendElemValue(dst []byte, en *node, in raw, i, depth int) []byte {
	if in.isNull() {
		return append(dst, "null"...)
	}
	v, _ := convert(en.typ, in, r)
	if r.cfg.strict {
		var got string
		var ok bool
		if v, got, ok = strictly(en.typ, in, v); !ok {
			r.failElem(en, i, failure{rule: "type", code: "type", params: map[string]any{"type": en.typ.String(), "got": got},
				err: errors.New(typeMessage(en.typ, got))})
			return append(dst, "null"...)
		}
	}
	if v.Kind == rules.Null {
		return append(dst, "null"...)
	}
	if len(en.inChecks) > 0 || len(en.xforms) > 0 || len(en.outChecks) > 0 {
		v = r.judgeElem(en, in, v, i)
	}
	mark := len(dst)
	var err error
	if en.format != nil {
		dst, err = en.format.append(dst, v)
	} else {
		dst, err = appendValue(dst, en.typ, v, depth, r.base+r.maxOut)
	}
	if err != nil {
		code := "json"
		if en.format != nil {
			code = "format"
		}
		r.failElem(en, i, failure{rule: code, code: code, err: err})
		dst = append(dst[:mark], "null"...)
	}
	return dst
}

// judgeElem runs each's input checks, transforms and checks on element i.
//
//go:noinline
func (r *run) judgeElem(en *node, in raw, v rules.Value, i int) rules.Value {
	for _, ck := range en.inChecks {
		iv := inputValue(in)
		if err := runCheck(ck, iv); err != nil {
			r.failElem(en, i, checkFailure(ck, iv.Kind, err))
		}
	}
	if len(en.xforms) > 0 {
		buf := r.xbuf()
		for _, x := range en.xforms {
			var err error
			if v, buf, err = runTransform(x, v, buf); err != nil {
				r.failElem(en, i, checkFailure(check{rule: x.info.code, info: x.info}, v.Kind, err))
				r.keepXbuf(buf)
				return rules.Value{}
			}
		}
		r.keepXbuf(buf)
	}
	for _, ck := range en.outChecks {
		if err := runCheck(ck, v); err != nil {
			r.failElem(en, i, checkFailure(ck, v.Kind, err))
		}
	}
	return v
}

// checkFailure is what a failing check of a value of kind k reports.
func checkFailure(ck check, k rules.Kind, err error) failure {
	f := failure{rule: ck.rule, code: ck.rule, kind: kindKey(k), err: err}
	if ck.info != nil {
		f.code, f.params, f.exact = ck.info.code, ck.info.paramMap(), ck.info.exact
	}
	return f
}

// failElem records a failure of element i of the typed list whose element
// node is en, at the element's path (tags[3]), with the list field's own
// msg and secrecy.
func (r *run) failElem(en *node, i int, f failure) {
	r.push(frame{kind: frameIndex, idx: int32(i), outIdx: int32(i)})
	if !r.full() {
		r.errs = append(r.errs, r.fieldError(en.elemOf, "", "", f))
	}
	r.pop()
}

// appendRefTyped writes a reference declared `[]$name`: always a list. An
// input that is no list is null (Strict: a type error), or [] under a bare
// default; an element that is no object is null, so that indexes stay
// aligned.
//
//go:noinline
func (r *run) appendRefTyped(dst []byte, n *node, ent *Entity, in raw, depth int) []byte {
	l, ok := listOfRaw(in)
	if !ok || l.isNil() {
		switch {
		case r.cfg.strict && !in.isNull():
			r.failCode(n, "type", map[string]any{"type": rules.List.String(), "got": arrivedAs(in)}, errors.New(typeMessage(rules.List, arrivedAs(in))))
		case n.refDefault:
			return append(dst, "[]"...)
		case n.req:
			r.fail(n, "req", errRequired)
		}
		return append(dst, "null"...)
	}
	if depth <= 0 {
		r.fail(n, "depth", ErrDepth)
		return append(dst, "null"...)
	}
	r.push(frame{n: n, kind: frameRef})
	dst = append(dst, '[')
	elem := func(i int, sub *source, ok bool, got string) bool {
		if !ok {
			if i > 0 {
				dst = append(dst, ',')
			}
			if r.cfg.strict && got != "" {
				r.push(frame{kind: frameIndex, idx: int32(i), outIdx: int32(i)})
				if !r.full() {
					r.errs = append(r.errs, r.fieldError(n, "", "", failure{rule: "type", code: "type",
						params: map[string]any{"type": rules.Object.String(), "got": got}, err: errors.New(typeMessage(rules.Object, got))}))
				}
				r.pop()
			}
			dst = append(dst, "null"...)
			return true
		}
		var more bool
		dst, more = r.appendElem(dst, ent, sub, i, i, depth-1)
		return more && !r.stop
	}
	if l.js != "" {
		eachJSONValue(l.js, l.jsOrd, r.js.tape, func(i int, text string, k int32, plain bool) bool {
			if text[0] != '{' {
				return elem(i, nil, false, notObject(jsonElem(text, k, plain)))
			}
			jo := r.takeJSON(text, k, ent)
			more := elem(i, &source{js: jo}, true, "")
			r.releaseJSON()
			return more
		})
	} else {
		for i := 0; i < l.len; i++ {
			sub, ok := l.at(i, ent)
			got := ""
			if !ok {
				got = notObject(raw{a: l.elem(i)})
			}
			if !elem(i, &sub, ok, got) {
				break
			}
		}
	}
	r.pop()
	return append(dst, ']')
}

// notObject says what an element of a []$name that is no object arrived
// as, for Strict's type error: "" for null, which is no error.
func notObject(x raw) string {
	if x.isNull() {
		return ""
	}
	return arrivedAs(x)
}

// elem returns element i of a Go list.
func (l *elems) elem(i int) any {
	switch {
	case l.la != nil:
		return l.la[i]
	case l.lm != nil:
		return l.lm[i]
	case l.ls != nil:
		return l.ls[i]
	case l.lo != nil:
		return l.lo[i]
	}
	return l.rv.Index(i).Interface()
}

// typedListValue decodes the text of a typed list as Object.Get returns
// it: a []any whose elements are what Get returns for a field of the
// element type (int64 for []number, time.Time for []date, or the RFC 3339
// text when plain, as Map gives dates), nil for a null element.
func typedListValue(elem rules.Kind, v []byte, plain bool) any {
	if v[0] != '[' {
		return decodeAny(v)
	}
	l := []any{}
	for it := (elements{data: v}); it.next(); {
		switch {
		case it.val[0] == 'n':
			l = append(l, nil)
		case plain && elem == rules.Time && it.val[0] == '"':
			l = append(l, stringValue(it.val))
		default:
			l = append(l, scalarValue(elem, it.val))
		}
	}
	return l
}
