package engine

import (
	"encoding/json"
	"fmt"
	"slices"
)

// References: a $name's entity, pinned for the run (a run sees one
// version of each entity whatever is exposed meanwhile), the object or
// list of objects it makes, its bare default (and the cycles defaults may
// form), a merged reference's keys in the object around it.

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
	if n.union != nil {
		return r.appendUnion(dst, n, src, depth)
	}
	ent := r.refTarget(n)
	if ent == nil {
		return append(dst, "null"...)
	}
	p := ent.refView(r.dir, n.refNested)
	if n.pruned != nil { // its selection's, pruned (compile_prune.go)
		p = n.pruned
	}
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
		if (src.noReadOnly || src.writeOnly) && !r.inWriteOnly {
			r.inWriteOnly = true
			dst = r.appendRef(dst, n, src, depth)
			r.inWriteOnly = false
			return dst
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
	case r.cfg.request && r.dir != dirStored || n.merge || n.refOne:
		return r.appendRefOther(dst, n, p, in, depth) // one object, never a list (but in a patch's readonly value, taken as stored: what a response wrote)
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
	saved, mask, strict := r.dir, r.mask, r.cfg.strict
	r.dir, r.mask = d, nil
	if d == dirStored {
		r.cfg.strict = false // the server's value, taken as stored: no type is judged either
	}
	defer func() { r.cfg.strict = strict }()
	p := ent.refView(d, n.refNested)
	switch {
	case n.merge:
		dst = r.appendMergedRequest(dst, n, p, src, depth)
	case n.refList:
		dst = r.appendRefTyped(dst, n, p, in, depth)
	case in.kind == rawJSON && in.s[0] == '{':
		dst = r.appendRefJSON(dst, n, p, in.s, int32(in.n), depth)
	case d == dirStored && in.kind == rawJSON && !n.refOne:
		// a readonly value, taken as stored: the list a response wrote
		l := elems{js: in.s, jsOrd: int32(in.n)}
		dst = r.appendRefList(dst, n, p, &l, depth)
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
		sub.unpatched = r.dir == dirPatch && !n.writeOnly // as a group's (appendGroupApart)
	}
	if r.dir == dirPatch && (n.writeOnly || r.inWriteOnly) {
		sub.noReadOnly = true // the current value holds none of it: no readonly value either
	}
	kind := frameRef
	if sub.merged { // the object around it, in the wire form: its keys are there
		kind = frameInPlace
	}
	r.push(frame{n: n, kind: kind, keys: r.fromKeysOf(n)})
	switch {
	case sub.noReadOnly:
		dst = r.appendShaped(dst, p, sub, depth-1)
	case sub.obj != nil:
		dst = r.appendMade(dst, p, sub, depth-1)
	default:
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
	sub := source{ma: src.ma, ms: src.ms, merged: true, writeOnly: src.writeOnly || n.writeOnly && r.dir == dirPatch, noReadOnly: src.noReadOnly}
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
