package engine

import (
	"encoding/json"

	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/rules"
)

// Lists: a list of objects (a $name given a list, a []$name, a list at
// the top of a call) and a typed list ([]string), element by element,
// each element at its index frame, set once per list and moved per
// element.

// appendList writes the objects of a list made with the plan p, skipping
// elements that are not objects (in a strict call, the type errors of a
// reference's list: see failNotObject). Every list of objects, whatever
// its input, has one index frame for the whole list, set per element by
// elemAt.
func (r *run) appendList(dst []byte, p *objectPlan, l *elems, depth int) []byte {
	if l.la != nil {
		return r.appendAnyList(dst, nil, p, l.la, depth)
	}
	dst = append(dst, '[')
	if l.js == "" { // a list of structs is read with its element type's plan, found once
		if l.structs(p); l.st != nil {
			return append(r.appendStructElems(dst, p, l, depth), ']')
		}
	}
	r.push(frame{kind: frameIndex})
	d := r.depth - 1
	f := r.fixedFrame(d)
	out := 0
	if l.js != "" {
		jsontape.EachValue(l.js, l.jsOrd, r.js.tape, func(i int, text string, ord int32, plain bool) bool {
			if text[0] != '{' {
				if r.cfg.strict {
					r.setIndex(nil, d, i, out)
					r.failNotObject(notObject(jsonElem(text, ord, plain)))
				}
				return true
			}
			if out > 0 {
				dst = append(dst, ',')
			}
			if !r.elemAt(f, i, out, depth <= 0) {
				return false
			}
			jo := r.takeJSON(text, ord, p.in)
			dst = r.appendObject(dst, p, &source{js: jo}, depth-1)
			r.releaseJSON()
			out++
			return !r.stop
		})
	} else {
		for i := 0; i < l.len; i++ {
			sub, ok := l.at(i, p)
			if !ok {
				if r.cfg.strict {
					r.skipNotObject(d, i, out, l.elem(i))
				}
				continue
			}
			if out > 0 {
				dst = append(dst, ',')
			}
			if !r.elemAt(f, i, out, depth <= 0) {
				break
			}
			if sub.obj != nil {
				dst = r.appendMade(dst, p, &sub, depth-1)
			} else {
				dst = r.appendObject(dst, p, &sub, depth-1)
			}
			if r.stop {
				break
			}
			out++
		}
	}
	r.pop()
	return append(dst, ']')
}

// elemAt moves the list's index frame, the run's last (f, when fixedFrame
// gave it), to element i of its input, the out'th object written, and,
// deep past the depth limit, stops the walk there (data nested that deep
// is not written): false when the list stops. With the comma before every element but the
// first, it is the one prologue of the elements of every list of objects.
func (r *run) elemAt(f *frame, i, out int, deep bool) bool {
	if f == nil || deep {
		return r.elemAtSlow(i, out, deep)
	}
	f.idx, f.outIdx = int32(i), int32(out)
	return true
}

// elemAtSlow is elemAt for an index frame in more, or past the depth
// limit.
//
//go:noinline
func (r *run) elemAtSlow(i, out int, deep bool) bool {
	r.setIndex(nil, r.depth-1, i, out)
	if deep {
		r.stopAtDepth()
		return false
	}
	return true
}

// appendAnyList is appendList for a []any: one frame for the whole list,
// its indexes set per element, and one source for the elements that are
// maps, its map set per element (the common case, without the general
// lookup); any other element is read through sourceOf, into a source of
// its own. ref, when not nil, is the reference whose value the list is
// (appendRefList's frame, pushed here).
func (r *run) appendAnyList(dst []byte, ref *node, p *objectPlan, la []any, depth int) []byte {
	if ref != nil {
		r.push(frame{n: ref, kind: frameRef, keys: r.fromKeysOf(ref)})
	}
	r.push(frame{kind: frameIndex})
	d := r.depth - 1
	f := r.fixedFrame(d)
	dst = append(dst, '[')
	var sub source
	out := 0
	direct := r.mask == nil && !p.shaped // a map element through appendMap, without appendObject's choices
	for i, v := range la {
		src := &sub
		m, ok := v.(map[string]any)
		if ok {
			sub.ma = m
		} else {
			var other source // zeroed here only
			if other, ok = sourceOf(v, p); !ok {
				if r.cfg.strict {
					r.skipNotObject(d, i, out, v)
				}
				continue
			}
			src = &other
		}
		if out > 0 {
			dst = append(dst, ',')
		}
		if !r.elemAt(f, i, out, depth <= 0) {
			break
		}
		if direct && m != nil {
			if r.needsRoom(dst) {
				dst = r.grow(dst)
			}
			if !r.stop {
				dst = r.appendMap(dst, p, src, depth-1)
			}
		} else {
			dst = r.appendMade(dst, p, src, depth-1)
		}
		if r.stop {
			break
		}
		out++
	}
	r.pop()
	if ref != nil {
		r.pop()
	}
	return append(dst, ']')
}

// stopAtDepth stops the walk at a list element past the depth limit,
// with the depth error (see fail): data nested that deep is not written.
func (r *run) stopAtDepth() {
	r.stop = true
	if !r.full() {
		r.depthError(r.addError())
	}
}

// listHead reads the input of a list of objects (a []$name's, a
// []$a|$b's): the list to walk (ok), or what is written in its place, a
// null (Strict: a type error; req) or [] under a bare default; the depth
// checked and the list's own rules (min, max, len) judged. A nil Go slice
// is an empty list, as at the top of a call; a nil map is an (empty)
// object, no null.
func (r *run) listHead(dst []byte, n *node, in raw, depth int) (elems, []byte, bool) {
	l, ok := listOfRaw(in)
	if !ok {
		switch {
		case r.cfg.strict && (!in.isNull() || isNilObject(in)):
			r.failWant(n, rules.List, arrivedAs(in))
		case n.refDefault:
			return l, append(dst, "[]"...), false
		case n.req:
			r.fail(n, "req", errRequired)
		}
		return l, append(dst, "null"...), false
	}
	if depth <= 0 {
		r.fail(n, "depth", ErrDepth)
		return l, append(dst, "null"...), false
	}
	if len(n.outChecks) > 0 {
		r.judge(n, n.outChecks, rules.Value{Kind: rules.List, Len: r.listLen(&l)})
	}
	return l, dst, true
}

// appendRefTyped writes a reference declared `[]$name`: always a list,
// judged as a list by the field's rules (min, max, len). An input that is
// no list is null (Strict: a type error), or [] under a bare default; an
// element that is no object is null, so that indexes stay aligned
// (Strict: a type error at its index, a null element too).
//
//go:noinline
func (r *run) appendRefTyped(dst []byte, n *node, p *objectPlan, in raw, depth int) []byte {
	l, dst, ok := r.listHead(dst, n, in, depth)
	if !ok {
		return dst
	}
	r.push(frame{n: n, kind: frameRef, keys: r.fromKeysOf(n)})
	r.push(frame{kind: frameIndex})
	d := r.depth - 1
	f := r.fixedFrame(d)
	dst = append(dst, '[')
	elem := func(i int, sub *source, ok bool, got string) bool {
		if !ok { // null in its place, so that indexes stay aligned
			if i > 0 {
				dst = append(dst, ',')
			}
			if r.cfg.strict && got != "" { // a list of objects holds objects, not null
				r.setIndex(nil, d, i, i)
				r.failNotObject(got)
			}
			dst = append(dst, "null"...)
			return true
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		if !r.elemAt(f, i, i, depth <= 1) {
			return false
		}
		if sub.obj != nil {
			dst = r.appendMade(dst, p, sub, depth-2)
		} else {
			dst = r.appendObject(dst, p, sub, depth-2)
		}
		return !r.stop
	}
	if l.js != "" {
		jsontape.EachValue(l.js, l.jsOrd, r.js.tape, func(i int, text string, k int32, plain bool) bool {
			if text[0] != '{' {
				return elem(i, nil, false, notObject(jsonElem(text, k, plain)))
			}
			jo := r.takeJSON(text, k, p.in)
			more := elem(i, &source{js: jo}, true, "")
			r.releaseJSON()
			return more
		})
	} else {
		l.structs(p)
		for i := 0; i < l.len; i++ {
			sub, ok := l.at(i, p)
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
	r.pop()
	return append(dst, ']')
}

// skipNotObject is failNotObject for element i of a Go list that is no
// object, x, the list's index frame being frame d (out: the index the next
// object written takes).
//
//go:noinline
func (r *run) skipNotObject(d, i, out int, x any) {
	r.setIndex(nil, d, i, out)
	r.failNotObject(notObject(raw{a: x}))
}

// failNotObject records, in a strict call, an element of a list given to
// a $name or a []$name that is no object, and arrived as got: a type error
// at the element's index. The run's last frames are the reference's and
// the element's; a list given at the top of a call, under no reference,
// has no type to say, and its elements that are no objects are skipped.
//
//go:noinline
func (r *run) failNotObject(got string) {
	if r.depth < 2 || r.full() {
		return
	}
	ref := r.frame(r.depth - 2)
	if ref.kind != frameRef {
		return
	}
	f := typeFailure(rules.Object, got, ref.n.in)
	r.elemError(r.addError(), ref.n, &f)
}

// notObject says what an element of a []$name that is no object arrived
// as, for Strict's type error ("null" for null: a list of objects holds
// objects).
func notObject(x raw) string {
	if x.isNull() {
		return "null"
	}
	return arrivedAs(x)
}

// appendStructElems writes the objects of a list of structs (or of
// pointers to them, nil ones skipped), l.structs having found their plan,
// as appendList writes a list's: one frame for the whole list, its
// indexes set per element. (DenyUnknown has nothing to judge in a struct:
// its fields are not keys.)
func (r *run) appendStructElems(dst []byte, p *objectPlan, l *elems, depth int) []byte {
	plain := r.mask == nil && !p.shaped
	r.push(frame{kind: frameIndex})
	d := r.depth - 1
	f := r.fixedFrame(d)
	out := 0
	for i := 0; i < l.len; i++ {
		sub := source{st: l.st, sp: l.sbase.Index(i, l.ssize), frozen: l.sfrozen && !l.sptrs}
		if l.sptrs {
			if sub.sp = sub.sp.Pointer(); sub.sp.IsNil() {
				if r.cfg.strict {
					r.skipNotObject(d, i, out, nil)
				}
				continue
			}
		}
		if out > 0 {
			dst = append(dst, ',')
		}
		if !r.elemAt(f, i, out, depth <= 0) {
			break
		}
		if plain {
			dst = r.appendStruct(dst, p, &sub, depth-1)
		} else {
			dst = r.appendObject(dst, p, &sub, depth-1)
		}
		if r.stop {
			break
		}
		out++
	}
	r.pop()
	return dst
}

// appendTypedList writes the elements of a typed list read from in, a
// list (the field's conversion said so, and the field's rules judged it):
// each element through the value path with the element node, at the
// list's path and its index. The output limit is checked as the list
// grows, element by element.
//
//go:noinline
func (r *run) appendTypedList(dst []byte, n *node, in raw, depth int) []byte {
	if depth <= 0 {
		r.fail(n, "depth", ErrDepth)
		return append(dst, "null"...)
	}
	en := n.each
	r.push(frame{n: n, kind: frameRef, keys: r.fromKeysOf(n)}) // errors at tags[3]
	dst = append(dst, '[')
	switch {
	case in.kind == rawJSON:
		jsontape.EachValue(in.s, int32(in.n), r.js.tape, func(i int, text string, k int32, plain bool) bool {
			if dst = r.elemRoom(dst, i); r.stop {
				return false
			}
			if plain && en.fast == fastString && text[0] == '"' {
				dst = r.fastString(dst, en, text[1:len(text)-1])
				return true
			}
			dst = r.valuePath(dst, en, jsonElem(text, k, plain), depth-1)
			return !r.stop
		})
	default:
		dst = r.appendGoElems(dst, en, in, depth-1)
	}
	r.elem = -1
	r.pop()
	if r.stop {
		return dst
	}
	return append(dst, ']')
}

// elemRoom starts element i of a typed list: a comma after the first, its
// index for the failures of its value path, and room in the output (or
// the stop of the walk past the limit), as appendObject makes room.
func (r *run) elemRoom(dst []byte, i int) []byte {
	r.elem = i
	if r.needsRoom(dst) {
		if dst = r.grow(dst); r.stop {
			return dst
		}
	}
	if i > 0 {
		return append(dst, ',')
	}
	return dst
}

// appendGoElems writes the elements of a Go list: []any, []string, or any
// other slice or array (through reflection).
func (r *run) appendGoElems(dst []byte, en *node, in raw, depth int) []byte {
	// A string with nothing to judge is written at once, in room the
	// output has (as appendObject's fast path writes a field's): the
	// output limit and the room checked as elemRoom checks them.
	plain := en.fast == fastString && len(en.xforms)|len(en.strChecks) == 0
	end := r.base + r.maxOut
	switch l := in.a.(type) {
	case []any:
		for i, x := range l {
			if s, ok := x.(string); ok && plain && len(s) <= growMargin && len(dst) <= end && (len(dst) < growFrom || cap(dst)-len(dst) >= growMargin) {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = jsonwire.AppendString(dst, s)
				continue
			}
			if dst = r.elemRoom(dst, i); r.stop {
				break
			}
			switch x := x.(type) {
			case string:
				if en.fast == fastString {
					dst = r.judgeString(dst, en, x) // a plain one was written above
					continue
				}
			case int:
				if en.fast.isInt() {
					dst = r.fastInt(dst, en, int64(x))
					continue
				}
			case int64:
				if en.fast.isInt() {
					dst = r.fastInt(dst, en, x)
					continue
				}
			case nil:
				if !r.cfg.request { // a request's null element is judged (resolve)
					dst = append(dst, "null"...)
					continue
				}
			}
			if dst = r.valuePath(dst, en, raw{a: x}, depth); r.stop {
				break
			}
		}
		return dst
	case []string:
		for i, s := range l {
			if plain && len(s) <= growMargin && len(dst) <= end && (len(dst) < growFrom || cap(dst)-len(dst) >= growMargin) {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = jsonwire.AppendString(dst, s)
				continue
			}
			if dst = r.elemRoom(dst, i); r.stop {
				break
			}
			if en.fast == fastString {
				dst = r.judgeString(dst, en, s) // a plain one was written above
				continue
			}
			if dst = r.valuePath(dst, en, raw{kind: rawStr, s: s, param: in.param}, depth); r.stop { // a repeated query key's value is a parameter's
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
		if dst = r.elemRoom(dst, i); r.stop {
			break
		}
		var x raw
		if l.rv.IsValid() {
			x = rawOfValue(l.rv.Index(i))
		} else {
			x = raw{a: l.elem(i)}
		}
		if dst = r.valuePath(dst, en, x, depth); r.stop {
			break
		}
	}
	return dst
}

// jsonElem reads one element of a raw JSON array as its field reads a
// value.
func jsonElem(text string, k int32, plain bool) raw {
	switch text[0] {
	case '"':
		if plain {
			return raw{kind: rawStr, s: text[1 : len(text)-1], view: true}
		}
		return raw{kind: rawStr, s: jsonwire.Unquote(text), view: true}
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
