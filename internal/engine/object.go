package engine

import (
	"encoding/json"
	"fmt"

	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
)

// Objects: the walk of one output object over its plan's chain of nodes,
// with the loops specialised by input (a map[string]any, a struct, any
// other source) and the shaped one (appendShaped) that a selection, a
// condition, an omission or a direction needs. Every output form is made
// from what these write.

// appendTop writes v, an object or a list of objects, made with e.
func (r *run) appendTop(dst []byte, e *Entity, v any) []byte {
	r.base = len(dst)
	depth := e.env.lim().Depth
	if m, ok := v.(map[string]any); ok && m != nil && r.top != topList { // the common case first
		p := r.pruned // topView's, written out: it does not inline
		if p == nil {
			p = e.view(r.dir)
		}
		if r.mask == nil && !p.shaped && !r.needsRoom(dst) { // appendObject's choices, made here
			dst = r.appendMap(dst, p, &source{ma: m}, depth-1)
		} else {
			dst = r.appendObject(dst, p, &source{ma: m}, depth-1)
		}
	} else {
		dst = r.appendTopOther(dst, e, v, depth)
	}
	if len(dst)-r.base > r.maxOut { // what no object's start saw: its last values
		r.tooLarge()
	}
	return dst
}

// topView returns the plan the call walks e, its entity, with: the view
// of its direction, or the one its selection was pruned into.
func (r *run) topView(e *Entity) *objectPlan {
	if r.pruned != nil {
		return r.pruned
	}
	return e.view(r.dir)
}

// appendTopOther is appendTop for every input but a map[string]any. (It is
// apart so that the common case's stack frame stays small: a handler's
// goroutine starts with a small stack, and every byte of frame on the way
// down is a byte that may make it grow.)
//
//go:noinline
func (r *run) appendTopOther(dst []byte, e *Entity, v any, depth int) []byte {
	switch b := v.(type) {
	case *requestSource: // MakeRequest's: an object
		return r.appendObject(dst, r.topView(e), &source{req: b}, depth-1)
	case emptyBelow: // MakeEmpty's
		return r.appendObject(dst, e.refView(r.dir, true), &source{}, depth-1)
	case []byte:
		if b != nil {
			return r.appendJSONTop(dst, e, b, depth)
		}
	case json.RawMessage:
		if b != nil {
			return r.appendJSONTop(dst, e, b, depth)
		}
	}
	if l, ok := listOf(v); ok { // a nil slice too: an empty list
		if r.top == topObject {
			r.fatal = fmt.Errorf("%w: entity %q: Make takes one object, and %T is a list: use MakeList, or MakeJSON, AppendJSON or Write, which take lists", ErrUnsupportedInput, e.name, v)
			return dst
		}
		return r.appendList(dst, r.topView(e), &l, depth-1)
	}
	if r.top == topList {
		if v == nil {
			return r.appendList(dst, r.topView(e), &elems{}, depth-1)
		}
		r.fatal = unsupported(e, v)
		return dst
	}
	p := r.topView(e)
	if isNil(v) {
		return r.appendObject(dst, p, &source{}, depth-1)
	}
	if src, ok := sourceOf(v, p); ok {
		return r.appendObject(dst, p, &src, depth-1)
	}
	r.fatal = unsupported(e, v)
	return dst
}

// appendJSONTop writes raw JSON input: an object or an array of objects.
func (r *run) appendJSONTop(dst []byte, e *Entity, b []byte, depth int) []byte {
	text, err := r.parseJSON(b)
	switch {
	case err != nil:
	case text[0] == '[' && r.top == topObject:
		err = newInputError(ErrInvalidJSON, "problem.json.array", nil)
	case text[0] != '[' && r.top == topList:
		err = newInputError(ErrInvalidJSON, "problem.json.not-list", nil)
	}
	if err != nil {
		r.fatal = err
		return dst
	}
	if text[0] == '[' {
		return r.appendList(dst, r.topView(e), &elems{js: text}, depth-1)
	}
	p := r.topView(e)
	jo := r.takeJSON(text, 0, p.in)
	dst = r.appendObject(dst, p, &source{js: jo}, depth-1)
	r.releaseJSON()
	return dst
}

// appendObject writes one output object.
func (r *run) appendObject(dst []byte, p *objectPlan, src *source, depth int) []byte {
	if r.needsRoom(dst) {
		dst = r.grow(dst)
	}
	if r.stop {
		return dst
	}
	switch {
	case r.mask != nil || p.shaped:
		return r.appendShaped(dst, p, src, depth)
	case src.st != nil: // a struct: its own loop (appendStruct)
		return r.appendStruct(dst, p, src, depth)
	case src.ma != nil:
		return r.appendMap(dst, p, src, depth)
	}
	// Any other input: raw JSON, an Object, a request, a map of another
	// type.
	dst = append(dst, '{')
	for n := p.head; n != nil; n = n.next { // see appendMap
		dst = appendKey(dst, n)
		if n.fast != fastNone { // the busiest case, without a call
			var ok bool
			if dst, ok = r.appendFast(dst, n, src); ok {
				if r.stop { // a long string passed the output limit
					return dst
				}
				continue
			}
		} else if n.kind == nodeGroup && n.from == nil && !n.nested && !src.wire && depth > 0 { // appendSlow's group, without its call
			r.push(frame{n: n, kind: frameGroup})
			dst = r.appendObject(dst, n.group, src, depth-1)
			r.depth-- // pop: a group's frame is never secret
			if r.stop {
				return dst
			}
			continue
		}
		if dst = r.appendSlow(dst, n, src, depth); r.stop {
			return dst
		}
	}
	if r.cfg.denyUnknown && p.checksUnknown { // an entity's object, not a group's of the same input
		r.unknownKeys(p, src) // after the fields: they come in declaration order
	}
	return append(dst, '}')
}

// appendMap is appendObject's loop for a map[string]any (src.ma), the
// plan neither shaped nor masked, the walk not stopped: each value read
// and written here in the common cases (appendFast's work, without its
// call), a group reading the same map without appendObject's choices.
func (r *run) appendMap(dst []byte, p *objectPlan, src *source, depth int) []byte {
	dst = append(dst, '{')
	for n := p.head; n != nil; n = n.next {
		dst = appendKey(dst, n)
		if n.fast != fastNone { // the busiest case: appendFast's work for a map, without its call
			var i int64
			v := src.ma[n.in]
			switch x := v.(type) {
			case string:
				switch {
				case n.fast != fastString: // a number node
					var ok bool
					if dst, ok = r.intText(dst, n, x); !ok {
						dst = r.valuePath(dst, n, raw{a: v}, depth)
					}
				case n.plain(x): // fastString's first case, without its call
					dst = jsonwire.AppendString(dst, x)
					continue
				default:
					dst = r.judgeString(dst, n, x)
				}
				if r.stop { // a long string passed the output limit
					return dst
				}
				continue
			case nil:
				if n.fills() { // appendAbsent's first case, without its call
					dst = appendPadded(dst, n.defJSON, &n.defPad, n.defShort)
				} else {
					dst = r.appendAbsent(dst, n)
				}
				continue
			case int:
				i = int64(x)
			case int64:
				i = x
			default:
				if dst = r.valuePath(dst, n, raw{a: v}, depth); r.stop {
					return dst
				}
				continue
			}
			if n.fast.isInt() { // fastInt, without its call
				r.intChecks(n, i)
				dst = appendInt(dst, i)
			} else {
				dst = r.valuePath(dst, n, raw{a: v}, depth) // an integer for a string field
			}
			if r.stop { // a check failed past the depth limit (ErrDepth), or the output passed its limit
				return dst
			}
			continue
		} else if n.kind == nodeGroup && n.from == nil && !n.nested && !n.group.shaped && depth > 0 { // appendSlow's group, without its call
			if r.needsRoom(dst) {
				if dst = r.grow(dst); r.stop {
					return dst
				}
			}
			r.push(frame{n: n, kind: frameGroup})
			dst = r.appendMap(dst, n.group, src, depth-1)
			r.depth-- // pop: a group's frame is never secret
			if r.stop {
				return dst
			}
			continue
		} else if n.kind == nodeRef { // appendSlow's reference, without its call
			dst = r.appendRef(dst, n, src, depth)
		} else {
			dst = r.appendSlow(dst, n, src, depth)
		}
		if r.stop {
			return dst
		}
	}
	if r.cfg.denyUnknown && p.checksUnknown { // an entity's object, not a group's of the same input
		r.unknownKeys(p, src) // after the fields: they come in declaration order
	}
	return append(dst, '}')
}

// appendKey appends n's key (see appendPadded).
func appendKey(dst []byte, n *node) []byte {
	if l := len(dst); n.keyShort && cap(dst)-l >= len(n.keyPad) {
		*(*[16]byte)(dst[l : l+16]) = n.keyPad
		return dst[:l+len(n.key)]
	}
	return append(dst, n.key...)
}

// appendPadded appends b, whose copy padded to 16 bytes is pad when short
// says b is no longer. In a dst with room for 16 bytes that is one
// 16-byte store (the bytes past b are beyond len(dst), overwritten by
// what follows): no call to memmove, which costs a short key or default
// more than its bytes.
func appendPadded(dst, b []byte, pad *[16]byte, short bool) []byte {
	if l := len(dst); short && cap(dst)-l >= len(pad) {
		*(*[16]byte)(dst[l : l+16]) = *pad
		return dst[:l+len(b)]
	}
	return append(dst, b...)
}

// appendSlow writes the value of one node but through its fast path: a
// value field's general path, a group, a reference. An Object of the
// entity, in the wire form, is read by its keys (see node.wire).
func (r *run) appendSlow(dst []byte, n *node, src *source, depth int) []byte {
	if src.wire && n.wire != nil {
		n = n.wire
	}
	switch n.kind {
	case nodeValue:
		return r.appendValueField(dst, n, src, depth)
	case nodeGroup:
		if depth <= 0 {
			r.fail(n, "depth", ErrDepth)
			return append(dst, "null"...)
		}
		if n.from != nil || n.nested || src.wire {
			return r.appendGroupApart(dst, n, src, depth)
		}
		r.push(frame{n: n, kind: frameGroup})
		dst = r.appendObject(dst, n.group, src, depth-1)
		r.pop()
		return dst
	}
	return r.appendRef(dst, n, src, depth)
}

// appendShaped is appendObject for an object whose fields depend on the
// call or on their values: a selection (r.mask), or lazy, conditional,
// omitted-when-empty or one-way (readonly, writeonly) nodes. A node whose
// condition fails, a writeonly node in a response and a readonly node in
// a request are left out, key and all: neither read nor checked. A node
// whose value is what its omitnil or omitempty leaves out is written and
// taken back (in a merge patch's merged value, kept and hidden from the
// response form). In a merge patch's merged value, a writeonly node whose
// key its object does not hold is left out too (patch.go). A node the
// selection leaves out (or a lazy node no selection names) is
// not read either, but on a request (MakeRequest, Bind) it is read and
// checked like any other and what it wrote taken back: a selection shapes
// a request's answer, never which fields are validated. (A request view
// has no lazy node: see compile_view.go.)
//
//go:noinline
func (r *run) appendShaped(dst []byte, p *objectPlan, src *source, depth int) []byte {
	saved := r.mask
	m := saved
	if m != nil && m.plan != p { // cannot happen: the run uses the entities its mask was made for (see shape)
		r.stopWith(fmt.Errorf("entity: entity %q: a field selection meets an object it was not made for", r.ent.name))
		return dst
	}
	dst = append(dst, '{')
	first, j := true, 0
	var st crossState // what the fields its cross-field rules name wrote
	for i, n := range p.nodes {
		if n.cond != nil && !r.shown(n.cond) {
			continue
		}
		if (n.writeOnly || src.writeOnly) && r.dir == dirPatch && !r.present(src, n) {
			continue // a patch that does not give it leaves the server's value (patch.go)
		}
		if n.readOnly && (src.noReadOnly || src.writeOnly) && r.dir == dirPatch {
			continue // the server's, which the current value does not hold: see source.noReadOnly
		}
		if n.merge && r.storedAbsent(src, n) {
			continue // the current value holds none of it, as Make writes none of it
		}
		kept := n.asStored != nil && r.keptMember(src, n)
		if kept {
			n = n.asStored // a member of the current value, taken as stored (storedTwins)
		}
		show := !n.lazy
		var sub *mask
		if m != nil {
			show = m.star && !n.lazy
			for j < len(m.ents) && int(m.ents[j].idx) < i {
				j++
			}
			if j < len(m.ents) && int(m.ents[j].idx) == i {
				show, sub = m.ents[j].on, m.ents[j].sub
			}
		}
		if !show {
			if !r.cfg.request {
				continue
			}
			sub = nil // read and check all of it
		}
		mark, key := len(dst), n.key
		if first && key[0] == ',' {
			key = key[1:]
		}
		if n.merge {
			key = nil // its object's members are written instead (mergeInto)
		}
		dst = append(dst, key...)
		if kept && m == nil && len(r.refused) == 0 { // a refused change's stored object is read: its immutable failures (patch_immutable.go)
			if text, ok := r.verbatimMember(src, n); ok { // an object or a list of the server's, as the current value wrote it
				if dst = append(dst, text...); len(dst)-r.base > r.maxOut {
					r.tooLarge()
					return dst
				}
				if n.crossIdx >= 0 {
					st.seen(p, n, dst[mark+len(key):], false)
					st.kept[n.crossIdx] = true
				}
				first = false
				continue
			}
		}
		// The node's own failures are those recorded after this count
		// (crossState.failed).
		failures := len(r.errs) + r.omitted
		if n.fast != fastNone && show && n.omit == omitNone { // as appendObject: the busiest case without a call
			var ok bool
			if dst, ok = r.appendFast(dst, n, src); ok {
				if r.stop {
					return dst
				}
				if n.crossIdx >= 0 {
					st.seen(p, n, dst[mark+len(key):], len(r.errs)+r.omitted > failures)
					st.kept[n.crossIdx] = r.takenAsStored(n, kept)
				}
				if n.writeOnly {
					r.hide(mark, len(dst))
				}
				first = false
				continue
			}
		}
		r.mask = sub
		dst = r.appendSlow(dst, n, src, depth)
		r.mask = saved
		if r.stop {
			return dst
		}
		if n.crossIdx >= 0 {
			v := dst[mark+len(key):]
			if n.omit != omitNone && n.omits(v) {
				v = nil // not written, so not present
			}
			st.seen(p, n, v, len(r.errs)+r.omitted > failures)
			st.kept[n.crossIdx] = r.takenAsStored(n, kept)
		}
		if n.merge && show {
			if dst = r.mergeInto(dst, mark, first); len(dst) > mark {
				if n.writeOnly {
					r.hide(mark, len(dst))
				}
				first = false
			}
			continue
		}
		if !show || n.omit != omitNone && n.omits(dst[mark+len(key):]) {
			if show && r.dir.merged() { // the merged value holds it, which a response leaves out (patch.go)
				r.hide(mark, len(dst))
				first = false
				continue
			}
			dst = r.takeBack(dst, mark)
			continue
		}
		if n.writeOnly {
			r.hide(mark, len(dst))
		}
		first = false
	}
	if len(p.cross) > 0 {
		r.judgeCross(p, &st, src)
	}
	if r.cfg.denyUnknown && p.checksUnknown {
		r.unknownKeys(p, src)
	}
	return append(dst, '}')
}

// readsParams reports whether a request reads a parameter of p, or of an
// entity merged at its top level (but a readonly one: the server's).
func (r *run) readsParams(p *objectPlan, depth int) bool {
	if len(p.params) > 0 {
		return true
	}
	if depth > maxMergeDepth {
		return false
	}
	for _, n := range p.nodes {
		if n.merge && !n.refNested && !n.readOnly && (n.cond == nil || r.shown(n.cond)) {
			if t := r.refTarget(n); t != nil && r.readsParams(t.refView(p.dir, false), depth+1) {
				return true
			}
		}
	}
	return false
}

// present reports whether the object src, read by a patch view, holds a
// value for node n (null too): its key, or for a merged reference one of
// its entity's keys. A parameter of the top level is the request's:
// always read.
func (r *run) present(src *source, n *node) bool {
	var js *jsonObject
	switch {
	case src.js != nil:
		js = src.js
	case src.req != nil && n.src == srcBody:
		js = src.req.js
	}
	switch {
	case n.src != srcBody:
		return true // read from the request: only the top level has parameters (Entity.refView)
	case src.unpatched:
		return false
	case js == nil:
		return true
	case n.merge:
		t := r.refTarget(n)
		if t == nil {
			return false
		}
		p := t.refView(r.dir, n.refNested) // below the top level, with no parameter
		if !n.readOnly && r.readsParams(p, 1) {
			return true // its parameters are read from the request (its body keys each where given); a readonly one's are stored
		}
		found := false
		eachJSONKey(js.text, func(k string) { found = found || r.knownOutKey(p, k, 1) })
		return found
	}
	return js.at(n.slot).kind != jsontape.None
}

// keptMember reports whether n reads, in a merge patch's merged value, a
// member of an object the patch merges into that the merger copied from
// the current value (jsonObject.tail).
func (r *run) keptMember(src *source, n *node) bool {
	js := src.jsonBody()
	return js != nil && js.tail != noTail && js.kept(n.slot)
}

// jsonBody returns the raw JSON object src reads: its own, or a request's
// body's; nil for none.
func (s *source) jsonBody() *jsonObject {
	if s.js == nil && s.req != nil {
		return s.req.js
	}
	return s.js
}

// takenAsStored reports whether the value of n, which a merge patch's
// merged value holds, is the server's for the cross-field rules (see
// judgeCross): a readonly one's, or one kept from the current value (its
// stored twin: kept), but the object of a refused null (patch_immutable.go),
// which counts as given, as a refused change of a value does.
func (r *run) takenAsStored(n *node, kept bool) bool {
	return n.readOnly && r.dir == dirPatch && !(kept && len(r.refused) > 0 && r.refusedHere(n))
}

// verbatimMember returns the text of the object or list that n, a
// stored twin (storedTwins), reads from a merge patch's merged value,
// when reading it would write it again as it is (objectPlan.verbatim), n
// omitting nothing: a group's object, a $name's, a []$name's list.
func (r *run) verbatimMember(src *source, n *node) (string, bool) {
	js := src.jsonBody() // not nil: keptMember found it
	jv := js.at(n.slot)
	if jv.kind != jsontape.Nested || n.omit != omitNone { // what omitempty leaves out is hidden from the response form: read it
		return "", false
	}
	text := js.text[jv.start:jv.end]
	switch {
	case n.kind == nodeGroup:
		return text, n.from == nil && n.group.verbatim && text[0] == '{'
	case n.kind != nodeRef || n.union != nil || n.merge || n.refList != (text[0] == '['):
		return "", false
	}
	t := r.refTarget(n)
	return text, t != nil && t.refView(dirStored, n.refNested).verbatim
}

// storedAbsent reports whether n, a merged reference that a patch's
// merged value holds as the server stored it (a readonly one's, or one
// inside a readonly $name's object), is one the current value does not
// hold: none of its keys is there. Make writes none of its keys then
// (whatever its omitnil or omitempty), and the merged value holds none.
func (r *run) storedAbsent(src *source, n *node) bool {
	return (r.dir == dirStored || r.dir == dirPatch && n.readOnly) && !r.present(src, n)
}

// appendStruct writes one output object read from the struct source src.
// (The plan p is neither shaped nor masked: see appendObject.)
func (r *run) appendStruct(dst []byte, p *objectPlan, src *source, depth int) []byte {
	if r.needsRoom(dst) {
		dst = r.grow(dst)
	}
	if r.stop {
		return dst
	}
	dst = append(dst, '{')
	fields := src.st.fields
	for n := p.head; n != nil; n = n.next { // see appendMap
		dst = appendKey(dst, n)
		if n.fast != fastNone {
			switch f := &fields[n.slot]; {
			case f.hot == hotString && n.fast == fastString:
				s := f.loc.At(src.sp).String()
				if !n.plain(s) {
					if dst = r.fastString(dst, n, s); r.stop {
						return dst
					}
					continue
				}
				dst = jsonwire.AppendString(dst, s)
				continue
			case f.hot == hotInt && n.fast == fastInt:
				dst = appendInt(dst, f.loc.At(src.sp).Int(f.loc.Size))
				continue
			case f.hot == hotInt && n.fast == fastIntChecked:
				if dst = r.fastInt(dst, n, f.loc.At(src.sp).Int(f.loc.Size)); r.stop { // a check failed with ErrDepth
					return dst
				}
				continue
			}
			var ok bool
			if dst, ok = r.appendFast(dst, n, src); ok {
				if r.stop {
					return dst
				}
				continue
			}
		}
		if dst = r.appendSlow(dst, n, src, depth); r.stop {
			return dst
		}
	}
	return append(dst, '}')
}
