package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/rules"
)

// This file runs a plan: the one walker. A run walks the plan once over the
// input, writing JSON as it goes (appendObject); every output form is made
// from what it writes (MakeJSON copies it out, Make and MakeList view it as
// Objects, Write sends it). It collects every failing field; the entry
// points discard the output when any field failed, so nothing partial is
// ever returned.
//
// The work of one run is bounded by its input and two limits: the depth
// limit (a field nested deeper fails, and ends the walk: data that deep
// cannot be written at all, as encoding/json stops at a cycle) and the
// output limit (Limits.OutputBytes: past it the walk stops and the
// call fails with ErrTooLarge), so that neither cyclic Go data nor
// declarations that multiply objects (bare defaults on references) can
// make a call run away.

// frame is one step of the path to the value being made: a reference or
// a group (its node), or a list element (its positions). Names are read
// from the node only when an error is built.
type frame struct {
	n           *node
	idx, outIdx int32 // frameIndex: positions in the input and the output list
	kind        frameKind
	keys        uint32 // a node read at its from path: which number steps read an object's key (fromKeysOf)
}

type frameKind uint8

const (
	frameRef     frameKind = iota // a reference: in both paths
	frameGroup                    // a group reading its parent's input: in the output path only
	frameNested                   // a group reading the object under its key (a request's): in both paths
	frameIndex                    // a list element
	frameInPlace                  // a merged reference in the wire form: its keys are its parent's, in neither path
)

// secret reports whether the frame is a secret reference: every field below
// it is secret.
func (f *frame) secret() bool { return (f.kind == frameRef || f.kind == frameInPlace) && f.n.secret }

// run is the state of one Make. It lives on the caller's stack: nothing in
// it is allocated on success.
type run struct {
	ent     *Entity
	errs    []*FieldError
	omitted int // field errors past the registry's limit
	secret  int // how many secret references the run is inside

	// The entities the run uses, by slot (see refTarget), and those it is
	// making from an empty input for a bare default (see enterDefault).
	pins       [8]pinned
	npins      int
	morePins   []pinned
	defaulting []*Entity
	fatal      error

	scratch  *[]byte // from scratchPool on first need: see convert
	xscratch *[]byte // likewise, for transformed text: see transform.go

	js *jsonStack // from jsonStackPool on first need: see takeJSON

	// What the call accepts at the top (see appendTop), where its output
	// starts in dst, the most bytes it may write, and whether the walk has
	// stopped (a depth error, the output limit, or a fatal error).
	top topKind
	dir direction // the view the run walks
	// request: the run reads an *http.Request; reqBody: one with a body
	// (its fields are read from there, not from the query).
	request, reqBody bool
	cfg              callConfig // what the call's options say
	base             int
	maxOut           int
	stop             bool

	// The call's shape (shape.go): the selection of the object being
	// written (nil: every field but the lazy ones), the flags set, the
	// version asked for.
	mask  *mask
	flags uint64
	ver   version

	// elem is the index of the typed-list element on the value path
	// (walk_value.go), or -1: its failures are at the list's path and
	// that index, without a frame pushed per element.
	elem int

	// The path: the first frames in an array, deeper ones in more. (A slice
	// of the array kept in the run would make the run escape to the heap.)
	depth int
	path  [8]frame
	more  []frame

	// hidden is where the writeonly members the run wrote lie in its
	// output (from base), and in a merge patch's merged value those its
	// omitnil and omitempty leave out (see hide): an Object of a request
	// view leaves them out of what it writes (Object.responseText),
	// whatever is exposed later.
	hidden []span

	// The node read last at its from path, and which of the path's number
	// steps read an object's key (see fromKeysOf).
	fromOf   *node
	fromKeys uint32
}

// done returns what the run borrowed.
func (r *run) done() {
	if r.js != nil || r.scratch != nil || r.xscratch != nil { // a run of the seed's borrows nothing
		r.giveBack()
	}
}

// giveBack is done, once the run has borrowed something.
func (r *run) giveBack() {
	r.putJSON()
	if r.scratch != nil {
		putScratch(r.scratch)
		r.scratch = nil
	}
	if r.xscratch != nil {
		putScratch(r.xscratch)
		r.xscratch = nil
	}
}

// scratchBuf returns the run's buffer for text converted from numbers and
// times. (A buffer inside the run would make it escape: the converted value
// reaches rule checkers through an interface.)
func (r *run) scratchBuf() []byte {
	if r.scratch == nil {
		r.scratch = scratchPool.Get().(*[]byte)
	}
	return (*r.scratch)[:0]
}

func (r *run) push(f frame) {
	if f.secret() {
		r.secret++
	}
	if r.depth < len(r.path) {
		r.path[r.depth] = f
	} else {
		r.more = append(r.more[:r.depth-len(r.path)], f)
	}
	r.depth++
}

func (r *run) pop() {
	if r.frame(r.depth - 1).secret() {
		r.secret--
	}
	r.depth--
}

// frame returns the i'th frame of the path.
func (r *run) frame(i int) *frame {
	if i < len(r.path) {
		return &r.path[i]
	}
	return &r.more[i-len(r.path)]
}

// fixedFrame returns frame i when the array holds it, where it stays
// whatever is pushed after it; nil when it is in more.
func (r *run) fixedFrame(i int) *frame {
	if i < len(r.path) {
		return &r.path[i]
	}
	return nil
}

// setIndex sets the index frame i of a list, f when fixedFrame gave it, to
// element idx, the out'th written.
func (r *run) setIndex(f *frame, i, idx, out int) {
	if f == nil { // in more, which a deeper push may have moved
		f = r.frame(i)
	}
	f.idx, f.outIdx = int32(idx), int32(out)
}

// topKind says what a call accepts at the top of its input.
type topKind uint8

const (
	topAny    topKind = iota // an object or a list of objects (AppendJSON, MakeJSON, Write)
	topObject                // an object (Make, MakeRequest)
	topList                  // a list of objects (MakeList)
)

// appendTop writes v, an object or a list of objects, made with e.
func (r *run) appendTop(dst []byte, e *Entity, v any) []byte {
	r.base = len(dst)
	depth := e.env.lim().Depth
	if m, ok := v.(map[string]any); ok && m != nil && r.top != topList { // the common case first
		if p := e.view(r.dir); r.mask == nil && !p.shaped && !r.needsRoom(dst) { // appendObject's choices, made here
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

// appendTopOther is appendTop for every input but a map[string]any. (It is
// apart so that the common case's stack frame stays small: a handler's
// goroutine starts with a small stack, and every byte of frame on the way
// down is a byte that may make it grow.)
//
//go:noinline
func (r *run) appendTopOther(dst []byte, e *Entity, v any, depth int) []byte {
	switch b := v.(type) {
	case *requestSource: // MakeRequest's: an object
		return r.appendObject(dst, e.view(r.dir), &source{req: b}, depth-1)
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
		return r.appendList(dst, e.view(r.dir), &l, depth-1)
	}
	if r.top == topList {
		if v == nil {
			return r.appendList(dst, e.view(r.dir), &elems{}, depth-1)
		}
		r.fatal = unsupported(e, v)
		return dst
	}
	p := e.view(r.dir)
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
		return r.appendList(dst, e.view(r.dir), &elems{js: text}, depth-1)
	}
	p := e.view(r.dir)
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
	case src.st != nil: // a struct: its own loop (walk_struct.go)
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

// needsRoom reports whether dst needs room (grow) before an object or an
// element is written: its output has passed the limit, or reached growFrom
// with less than growMargin left.
func (r *run) needsRoom(dst []byte) bool {
	return len(dst)-r.base > r.maxOut || len(dst) >= growFrom && cap(dst)-len(dst) < growMargin
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
		r.judgeCross(p, &st)
	}
	if r.cfg.denyUnknown && p.checksUnknown {
		r.unknownKeys(p, src)
	}
	return append(dst, '}')
}

// present reports whether the object src, read by a patch view, holds a
// value for node n (null too): its key, or for a merged reference one of
// its entity's keys. A parameter is the request's: always read.
func (r *run) present(src *source, n *node) bool {
	var js *jsonObject
	switch {
	case src.js != nil:
		js = src.js
	case src.req != nil && n.src == srcBody:
		js = src.req.js
	}
	switch {
	case js == nil || n.src != srcBody:
		return true
	case n.merge:
		t := r.refTarget(n)
		if t == nil {
			return false
		}
		found := false
		eachJSONKey(js.text, func(k string) { found = found || r.knownOutKey(t.view(r.dir), k, 1) })
		return found
	}
	return js.at(n.slot).kind != jsontape.None
}

// hide records that dst[start:end] is a member a response does not write
// (with the comma before it, unless it is the first): a writeonly one, or
// in a merge patch's merged value one its omitnil or omitempty leaves out.
func (r *run) hide(start, end int) {
	r.hidden = append(r.hidden, span{start - r.base, end - r.base})
}

// takeBack removes what was written from mark on, and the writeonly
// members recorded there.
func (r *run) takeBack(dst []byte, mark int) []byte {
	if len(r.hidden) > 0 {
		r.moveHidden(mark, 0)
	}
	return dst[:mark]
}

// moveHidden moves the writeonly members recorded from mark on by delta
// bytes, or forgets them for a delta of 0 (their text was taken back).
func (r *run) moveHidden(mark, delta int) {
	mark -= r.base
	kept := r.hidden[:0]
	for _, s := range r.hidden {
		switch {
		case s.start < mark:
		case delta == 0:
			continue
		default:
			s.start, s.end = s.start+delta, s.end+delta
		}
		kept = append(kept, s)
	}
	r.hidden = kept
}

// growMargin is the room appendObject makes sure of before it writes an
// object once its output has reached growFrom bytes (grow). Smaller outputs
// grow as append grows them, so that AppendJSON into a buffer with room
// for the output never allocates.
const (
	growMargin = 512
	growFrom   = 64 << 10
)

// grow stops the walk when the output has passed the limit, or makes room
// in a large output (growOutput).
//
//go:noinline
func (r *run) grow(dst []byte) []byte {
	switch {
	case len(dst)-r.base > r.maxOut:
		r.tooLarge()
	case len(dst) >= growFrom && cap(dst)-len(dst) < growMargin:
		return growOutput(dst, r.base+r.maxOut)
	}
	return dst
}

// growOutput doubles dst's capacity, up to a little past end, the output
// limit. Growing by doubling (append grows large slices by a quarter)
// keeps what a call allocates for its output near twice what it writes,
// and under about twice the limit when it passes it.
func growOutput(dst []byte, end int) []byte {
	limit := end + 2*growMargin
	n := max(2*cap(dst), 4096)
	if n > limit/2 { // the next doubling would pass the limit: go to it
		n = max(limit, len(dst)+2*growMargin)
	}
	b := make([]byte, len(dst), n)
	copy(b, dst)
	return b
}

// tooLarge stops the walk: its output has passed the limit.
//
//go:noinline
func (r *run) tooLarge() {
	r.stop = true
	if r.fatal == nil {
		r.fatal = fmt.Errorf("%w: entity %q writes more than the limit of %d bytes", ErrTooLarge, r.ent.name, r.maxOut)
	}
}

// refTarget returns the entity a reference node names, recording a fatal
// error when none is declared. The first entity a run finds in a slot is
// the one it uses for the rest of the run, so that a Make sees one version
// of each entity even while a name is re-exposed.
func (r *run) refTarget(n *node) *Entity {
	for i := range r.npins {
		if r.pins[i].s == n.ref {
			return r.pins[i].e
		}
	}
	if r.npins == len(r.pins) { // morePins holds any further ones
		for _, p := range r.morePins {
			if p.s == n.ref {
				return p.e
			}
		}
	}
	ent := n.ref.e.Load()
	if ent == nil {
		if r.fatal == nil {
			r.fatal = fmt.Errorf("%w: %q, referenced by field %q of entity %q", ErrUnknownEntity, n.ref.name, n.in, r.ent.name)
		}
		return nil
	}
	r.pin(n.ref, ent)
	return ent
}

// pin records the entity the run uses for a slot.
func (r *run) pin(s *slot, e *Entity) {
	if r.npins < len(r.pins) {
		r.pins[r.npins] = pinned{s, e}
		r.npins++
		return
	}
	r.morePins = append(r.morePins, pinned{s, e})
}

// pinned is an entity a run uses for a slot.
type pinned struct {
	s *slot
	e *Entity
}

// enterDefault records that the run makes ent from an empty input for a
// bare default, and reports false when it is already doing so further up:
// a cycle of defaults would never end.
func (r *run) enterDefault(n *node, ent *Entity) bool {
	for _, e := range r.defaulting {
		if e == ent {
			r.fail(n, "default", ErrDefaultCycle)
			return false
		}
	}
	r.defaulting = append(r.defaulting, ent)
	return true
}

func (r *run) leaveDefault() { r.defaulting = r.defaulting[:len(r.defaulting)-1] }

// appendRef writes a reference: an object made with the entity, a list of
// them, or null. The entity's view is the run's direction's: a response
// never walks a writeonly field of a referenced entity either.
func (r *run) appendRef(dst []byte, n *node, src *source, depth int) []byte {
	ent := r.refTarget(n)
	if ent == nil {
		return append(dst, "null"...)
	}
	p := ent.view(r.dir)
	if src.ma != nil && n.from == nil && !n.refList && !n.merge && !n.refOne && !r.cfg.request { // the common case: a list in a map
		if la, ok := src.ma[n.in].([]any); ok && la != nil { // appendRefList's work, without the general list
			if depth <= 0 {
				r.fail(n, "depth", ErrDepth)
				return append(dst, "null"...)
			}
			return r.appendAnyList(dst, n, p, la, depth-1)
		}
	}
	if n.merge && (r.cfg.request || src.wire) { // the wire form: its keys are those of this very object
		if r.dir == dirPatch && n.readOnly {
			return r.appendInView(dirStored, dst, n, ent, raw{}, src, depth)
		}
		return r.appendMergedRequest(dst, n, p, src, depth)
	}
	if src.st != nil && !n.refList && !n.merge && !n.refOne && n.from == nil && r.dir != dirRequest {
		if l, ok := src.st.structList(src, n, p); ok { // a struct's list of structs, read at its address
			return r.appendRefList(dst, n, p, &l, depth)
		}
	}
	in := r.read(src, n)
	if m, ok := in.a.(json.RawMessage); ok && in.kind == rawAny { // JSON in a Go value: its object or list
		in = decodeRawMessage(m)
	}
	if r.dir == dirPatch {
		if n.readOnly {
			return r.appendInView(dirStored, dst, n, ent, in, src, depth)
		}
		if in.kind == rawJSON && len(r.js.fresh) > 0 {
			if _, ok := slices.BinarySearch(r.js.fresh, int32(in.n)); ok {
				return r.appendInView(dirRequest, dst, n, ent, in, src, depth)
			}
		}
	}
	if n.refList { // []$name, always a list
		return r.appendRefTyped(dst, n, p, in, depth)
	}
	var l elems
	switch la, isAny := in.a.([]any); {
	case in.kind == rawJSON && in.s[0] == '{':
		return r.appendRefJSON(dst, n, p, in.s, int32(in.n), depth)
	case r.cfg.request || n.merge || n.refOne:
		return r.appendRefOther(dst, n, p, in, depth) // one object, never a list
	case in.kind == rawJSON:
		l = elems{js: in.s, jsOrd: int32(in.n)}
	case in.kind == rawAny && isAny && la != nil:
		l = elems{la: la, len: len(la)}
	default:
		return r.appendRefOther(dst, n, p, in, depth)
	}
	return r.appendRefList(dst, n, p, &l, depth)
}

// appendInView writes a reference of a merge patch's merged value, read
// in (src, for a merged one), with the view d of its entity and of every
// entity below it (patch.go): a readonly one's, the server's, with
// dirStored, judging nothing; an object or a list the patch gives where
// the current value holds none (see merger) as MakeRequest reads it, with
// the request view (a writeonly req field required, a readonly key
// ignored). A selection of the call shapes neither.
//
//go:noinline
func (r *run) appendInView(d direction, dst []byte, n *node, ent *Entity, in raw, src *source, depth int) []byte {
	saved, mask := r.dir, r.mask
	r.dir, r.mask = d, nil
	p := ent.view(d)
	switch {
	case n.merge:
		dst = r.appendMergedRequest(dst, n, p, src, depth)
	case n.refList:
		dst = r.appendRefTyped(dst, n, p, in, depth)
	case in.kind == rawJSON && in.s[0] == '{':
		dst = r.appendRefJSON(dst, n, p, in.s, int32(in.n), depth)
	default:
		dst = r.appendRefOther(dst, n, p, in, depth)
	}
	r.dir, r.mask = saved, mask
	return dst
}

// appendRefJSON writes a reference read from a raw JSON object, numbered
// ord on the run's tape.
//
//go:noinline
func (r *run) appendRefJSON(dst []byte, n *node, p *objectPlan, text string, ord int32, depth int) []byte {
	jo := r.takeJSON(text, ord, p.in)
	dst = r.appendRefObject(dst, n, p, &source{js: jo}, depth)
	r.releaseJSON()
	return dst
}

// appendRefList writes a reference read from a list.
func (r *run) appendRefList(dst []byte, n *node, p *objectPlan, l *elems, depth int) []byte {
	if depth <= 0 {
		r.fail(n, "depth", ErrDepth)
		return append(dst, "null"...)
	}
	r.push(frame{n: n, kind: frameRef, keys: r.fromKeysOf(n)})
	dst = r.appendList(dst, p, l, depth-1)
	r.pop()
	return dst
}

// appendRefOther writes a reference read from anything else: a Go object
// or list, or nothing. (Apart, and not inlined, to keep appendRef's frame
// small: see appendTopOther.)
//
//go:noinline
func (r *run) appendRefOther(dst []byte, n *node, p *objectPlan, in raw, depth int) []byte {
	sub, list, isList, ok := r.refInput(n, in, p)
	switch {
	case !ok:
		return append(dst, "null"...)
	case isList:
		return r.appendRefList(dst, n, p, &list, depth)
	}
	return r.appendRefObject(dst, n, p, &sub, depth)
}

// appendRefObject writes one object of a reference.
func (r *run) appendRefObject(dst []byte, n *node, p *objectPlan, sub *source, depth int) []byte {
	if depth <= 0 {
		r.fail(n, "depth", ErrDepth)
		return append(dst, "null"...)
	}
	if sub.empty() {
		if !r.enterDefault(n, p.ent) {
			return append(dst, "null"...)
		}
		defer r.leaveDefault()
	}
	kind := frameRef
	if sub.merged { // the object around it, in the wire form: its keys are there
		kind = frameInPlace
	}
	r.push(frame{n: n, kind: kind, keys: r.fromKeysOf(n)})
	if sub.obj != nil {
		dst = r.appendMade(dst, p, sub, depth-1)
	} else {
		dst = r.appendObject(dst, p, sub, depth-1)
	}
	r.pop()
	return dst
}

// appendMade writes one object made with the plan p from src, an Object:
// one that p's entity made for a response is used as it is in a call
// without shaping, as Make returns it (Objects are immutable); any other
// is made. (Its callers call appendObject for any other source.)
func (r *run) appendMade(dst []byte, p *objectPlan, src *source, depth int) []byte {
	if o := src.obj; o != nil && o.plan == p && o.made == nil && len(o.data) >= 2 && !r.cfg.shaped && !src.merged && r.dir == dirResponse {
		if dst = append(dst, o.data...); len(dst)-r.base > r.maxOut {
			r.tooLarge()
		}
		return dst
	}
	return r.appendObject(dst, p, src, depth)
}

// appendMergedRequest writes a merged reference of a request: in the wire
// form its entity's keys are members of the object around it, so its
// entity reads that same object (with its own input table), and
// DenyUnknown judges that object's keys once, with the merged entity's
// keys among those known (see knownKey).
//
//go:noinline
func (r *run) appendMergedRequest(dst []byte, n *node, p *objectPlan, src *source, depth int) []byte {
	sub := source{ma: src.ma, ms: src.ms, merged: true, writeOnly: src.writeOnly || n.writeOnly && r.dir == dirPatch}
	release := false
	switch {
	case src.js != nil:
		sub.js, release = r.takeJSON(src.js.text, src.js.ord, p.in), true
	case src.req != nil:
		rs := *src.req
		if rs.js != nil {
			rs.js, release = r.takeJSON(rs.js.text, rs.js.ord, p.in), true
		}
		sub.req = &rs
	case src.obj != nil:
		sub.obj, sub.wire = src.obj, src.wire
	case src.wire:
		sub.wire = true // an Object without this object (appendGroupApart): the merged keys are read by key there too, and find nothing
	}
	if sub.writeOnly && depth > 0 { // each of its fields read only when the patch gives it: appendShaped
		r.push(frame{n: n, kind: frameInPlace, keys: r.fromKeysOf(n)})
		dst = r.appendShaped(dst, p, &sub, depth-1)
		r.pop()
	} else {
		dst = r.appendRefObject(dst, n, p, &sub, depth)
	}
	if release {
		r.releaseJSON()
	}
	return dst
}

// refInput reads a reference's input (other than a raw JSON object): an
// object, a list of objects (but in a request, where a $name is one
// object, for a merged one, and for one of SingleRefs, to which a list is
// always a type error), or nothing (null, absent, or a value of another
// kind). For nothing, a bare default stands for an empty object;
// otherwise ok is false, after `req` has had its say.
func (r *run) refInput(n *node, in raw, p *objectPlan) (sub source, list elems, isList, ok bool) {
	if in.kind != rawAny || in.a != nil { // absent or null reads as nothing at once
		if in.kind == rawAny {
			if sub, ok = sourceOf(in.a, p); ok {
				return sub, list, false, true
			}
		}
		if r.dir.responds() && !n.merge && !n.refOne { // a list has no keys to merge, and SingleRefs' is one object
			if list, ok = listOfRaw(in); ok {
				return sub, list, true, true
			}
		}
	}
	if r.cfg.strict && (!in.isNull() || n.merge && r.dir.responds() && holdsList(in)) || // there, but no object (nor a list where one is made; a nil slice too is a list)
		n.refOne && r.dir.responds() && holdsList(in) { // a list given to one object: the server's error, strict or not
		r.failType(n, arrivedAs(in))
		return sub, list, false, false
	}
	if n.refDefault {
		return source{}, list, false, true
	}
	if n.req {
		r.fail(n, "req", errRequired)
	}
	return sub, list, false, false
}

// holdsList reports whether in is a list (a nil slice too: an empty one).
func holdsList(in raw) bool {
	_, ok := listOfRaw(in)
	return ok
}

// appendList writes the objects of a list made with the plan p, skipping
// elements that are not objects (in a strict call, the type errors of a
// reference's list: see failNotObject).
func (r *run) appendList(dst []byte, p *objectPlan, l *elems, depth int) []byte {
	if l.la != nil {
		return r.appendAnyList(dst, nil, p, l.la, depth)
	}
	dst = append(dst, '[')
	out := 0
	if l.js != "" {
		jsontape.EachValue(l.js, l.jsOrd, r.js.tape, func(idx int, text string, ord int32, plain bool) bool {
			if text[0] != '{' {
				if r.cfg.strict {
					r.push(frame{kind: frameIndex, idx: int32(idx), outIdx: int32(out)})
					r.failNotObject(notObject(jsonElem(text, ord, plain)))
					r.pop()
				}
				return true
			}
			jo := r.takeJSON(text, ord, p.in)
			var ok bool
			dst, ok = r.appendElem(dst, p, &source{js: jo}, idx, out, depth)
			r.releaseJSON()
			out++
			return ok && !r.stop
		})
		return append(dst, ']')
	}
	// A Go list: one frame for the whole list, its indexes set per
	// element (appendElem's work, without a push per element). A list of
	// structs is read with its element type's plan, found once (structs).
	if l.structs(p); l.st != nil {
		return append(r.appendStructElems(dst, p, l, depth), ']')
	}
	r.push(frame{kind: frameIndex})
	d := r.depth - 1
	f := r.fixedFrame(d)
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
		r.setIndex(f, d, i, out)
		if depth <= 0 { // see appendElem
			r.stopAtDepth()
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
	r.pop()
	return append(dst, ']')
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
		r.setIndex(f, d, i, out)
		if depth <= 0 { // see appendElem
			r.stopAtDepth()
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

// appendElem writes element i of a list, the out'th written. It reports
// false when the depth limit stops the list.
func (r *run) appendElem(dst []byte, p *objectPlan, sub *source, i, out, depth int) ([]byte, bool) {
	if out > 0 {
		dst = append(dst, ',')
	}
	r.push(frame{kind: frameIndex, idx: int32(i), outIdx: int32(out)})
	if depth <= 0 {
		r.stopAtDepth()
		r.pop()
		return dst, false
	}
	if sub.obj != nil {
		dst = r.appendMade(dst, p, sub, depth-1)
	} else {
		dst = r.appendObject(dst, p, sub, depth-1)
	}
	r.pop()
	return dst, true
}

// stopAtDepth stops the walk at a list element past the depth limit,
// with the depth error (see fail): data nested that deep is not written.
func (r *run) stopAtDepth() {
	r.stop = true
	if !r.full() {
		r.errs = append(r.errs, r.depthError())
	}
}

// unsupported is the error for an input that is not an object or a list.
func unsupported(e *Entity, v any) error {
	return fmt.Errorf("%w: entity %q cannot be made from %T: want a map with string keys, a struct, an *Object, raw JSON, or a list of them", ErrUnsupportedInput, e.name, v)
}

// scratchPool holds the buffers runs convert numbers and times into text
// with (see scratchBuf).
var scratchPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// putScratch returns a buffer to scratchPool unless it grew too large.
func putScratch(bp *[]byte) {
	if cap(*bp) <= maxPooled {
		*bp = (*bp)[:0]
		scratchPool.Put(bp)
	}
}

// appendRefTyped writes a reference declared `[]$name`: always a list,
// judged as a list by the field's rules (min, max, len). An input that is
// no list is null (Strict: a type error), or [] under a bare default; an
// element that is no object is null, so that indexes stay aligned
// (Strict: a type error at its index, a null element too).
//
//go:noinline
func (r *run) appendRefTyped(dst []byte, n *node, p *objectPlan, in raw, depth int) []byte {
	l, ok := listOfRaw(in) // a nil Go slice is an empty list, as at the top of a call
	if !ok {
		switch {
		case r.cfg.strict && (!in.isNull() || isNilObject(in)): // a nil map is an (empty) object, no null
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
	if len(n.outChecks) > 0 { // the list's own rules: min, max, len
		r.judge(n, n.outChecks, rules.Value{Kind: rules.List, Len: l.count()})
	}
	r.push(frame{n: n, kind: frameRef, keys: r.fromKeysOf(n)})
	dst = append(dst, '[')
	elem := func(i int, sub *source, ok bool, got string) bool {
		if !ok {
			if i > 0 {
				dst = append(dst, ',')
			}
			if r.cfg.strict && got != "" { // a list of objects holds objects, not null
				r.push(frame{kind: frameIndex, idx: int32(i), outIdx: int32(i)})
				r.failNotObject(got)
				r.pop()
			}
			dst = append(dst, "null"...)
			return true
		}
		var more bool
		dst, more = r.appendElem(dst, p, sub, i, i, depth-1)
		return more && !r.stop
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
	r.errs = append(r.errs, r.elemError(ref.n, failure{rule: "type", code: "type", field: ref.n.in,
		params: map[string]any{"type": rules.Object.String(), "got": got}, err: errors.New(typeMessage(rules.Object, got))}))
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
