package engine

import (
	"slices"

	"github.com/expose-go/expose/internal/jsonwire"
)

// DenyUnknown (see the option): every key of an input object that its
// entity does not read is a field error of code "unknown". The check runs
// only for calls given the option, once per object made of an entity.

// unknownKeys reports each key of src, the object the plan p reads, that
// p does not read, in sorted order (maps have none of their own). Struct
// fields are not keys, and a request's X- headers are not read as keys. An
// object a merged reference of a request reads too is judged once, by the
// plan it belongs to (knownKey).
func (r *run) unknownKeys(p *objectPlan, src *source) {
	if src.merged {
		return
	}
	var keys, query []string
	variant := r.variant.key != "" && r.variant.depth == r.depth // a union's variant: its key is known
	add := func(k string) {
		if !r.knownKey(p, k, 0) && !(variant && k == r.variant.key) {
			keys = append(keys, k)
		}
	}
	switch {
	case src.ma != nil:
		for k := range src.ma {
			add(k)
		}
	case src.ms != nil:
		for k := range src.ms {
			add(k)
		}
	case src.js != nil:
		if len(r.js.stored) > 0 && r.js.isStored(src.js.ord) {
			return // a patch's: the server's keys, copied from the current value
		}
		eachJSONKey(src.js.text, add)
	case src.obj != nil && src.wire: // an Object of the entity, read by its output keys
		for _, k := range src.obj.keys() {
			if !r.knownOutKey(p, k, 0) && !(variant && k == r.variant.key) {
				keys = append(keys, k)
			}
		}
	case src.obj != nil:
		for _, k := range src.obj.keys() {
			add(k)
		}
	case src.req != nil:
		// An X- field is read from the headers only: sent anywhere else,
		// its key is not read (no slot holds it), so it is unknown there;
		// a body field whose key only looks like one (x_trace, kebab-cased)
		// is known. The query is judged as the body is: a field is read
		// from one of them.
		addReq := add
		if src.req.js != nil {
			eachJSONKey(src.req.js.text, addReq)
		}
		for k := range src.req.form {
			addReq(k)
		}
		for _, k := range src.req.files {
			addReq(k)
		}
		for k := range src.req.query {
			switch {
			case r.queryParam(p, k, 0):
			case src.req.body || !r.knownKey(p, k, 0):
				query = append(query, k) // with a body, only query fields are read from the query
			}
		}
	case src.st == nil && src.rv.IsValid():
		for it := src.rv.MapRange(); it.Next(); {
			add(it.Key().String())
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys) // a JSON object may say a key twice
	for _, k := range keys {
		r.failUnknown(k, "")
	}
	slices.Sort(query)
	for _, k := range query {
		r.failUnknown(k, srcNames[srcQuery])
	}
}

// knownKey reports whether the plan p reads key k in this call: a node
// reads it whose conditions the call meets (or an ignored key: a readonly
// field's, in a request), or, in a request, the entity of a merged
// reference of p reads it from the same object.
func (r *run) knownKey(p *objectPlan, k string, depth int) bool {
	t := p.in
	if i, ok := t.slots[k]; ok && (t.conds == nil || !r.slotHidden(t, i)) {
		return true
	}
	if !r.cfg.request || depth > maxMergeDepth { // a request's or a patch's wire form
		return false
	}
	for _, n := range p.nodes {
		if !n.merge || n.cond != nil && !r.shown(n.cond) {
			continue
		}
		d := p.dir // (a readonly merged reference's entities are read with dirStored at every depth)
		if n.readOnly && d == dirPatch {
			d = dirStored // the server's object, parameters too (the merger keeps them)
		}
		if e := r.refTarget(n); e != nil && r.knownKey(e.refView(d, n.refNested), k, depth+1) {
			return true
		}
	}
	for _, n := range p.left {
		// a readonly merged reference's keys, which a request ignores as it
		// ignores any readonly key: known
		if !n.merge || !n.readOnly || n.cond != nil && !r.shown(n.cond) {
			continue
		}
		if e := r.refTarget(n); e != nil && r.knownKey(e.refView(p.dir, n.refNested), k, depth+1) {
			return true
		}
	}
	return false
}

// queryParam reports whether a query field of p the call shows, or of an
// entity merged into it (its parameters are the top level's), reads the
// query key k.
func (r *run) queryParam(p *objectPlan, k string, depth int) bool {
	if slices.ContainsFunc(p.params, func(n *node) bool { return n.src == srcQuery && n.in == k && (n.cond == nil || r.shown(n.cond)) }) {
		return true
	}
	if depth > maxMergeDepth {
		return false
	}
	for _, n := range p.nodes {
		if n.merge && !n.readOnly && (n.cond == nil || r.shown(n.cond)) { // a readonly one's are the server's (a patch's): never read
			if e := r.refTarget(n); e != nil && r.queryParam(e.refView(r.dir, n.refNested), k, depth+1) {
				return true
			}
		}
	}
	return false
}

// knownOutKey reports whether a node of p the call shows writes key k,
// at this level: what an Object of the entity read in the wire form holds
// (a merged reference's keys included).
func (r *run) knownOutKey(p *objectPlan, k string, depth int) bool {
	for _, n := range p.nodes {
		switch {
		case n.cond != nil && !r.shown(n.cond):
		case n.merge:
			if e := r.refTarget(n); e != nil && depth < maxMergeDepth && r.knownOutKey(e.refView(r.dir, n.refNested), k, depth+1) {
				return true
			}
		case n.out == k:
			return true
		}
	}
	return false
}

// maxMergeDepth bounds a chain of merges followed at run time
// (declarations refuse merge cycles: no chain is this long).
const maxMergeDepth = 64

// failUnknown records an unknown key of the object being read: its path is
// the key's, cut to its first 64 bytes (clipKey); it has no output path,
// since it is not written. in is where a request's key was, when not in
// its body.
func (r *run) failUnknown(key, in string) {
	if r.full() {
		return
	}
	key = clipKey(key)
	fe := r.addError()
	r.fieldError(fe, nil, key, key, &failure{rule: "unknown", code: "unknown", err: errUnknown})
	fe.Path, _, fe.Pointer = r.pathsOf(key, key, true) // "" is a key too: [""], "/"
	fe.OutputPath = ""                                 // it is not written
	fe.In = in
}

// eachJSONKey calls f with each key of the JSON object text (text the
// validator accepted, white space allowed), decoded.
func eachJSONKey(text string, f func(string)) {
	i := jsonwire.SkipSpace(text, 1)
	for text[i] == '"' {
		end, _ := jsonwire.StringEnd(text, i)
		f(jsonwire.Unquote(text[i:end]))
		i = jsonwire.SkipSpace(text, jsonwire.SkipSpace(text, end)+1) // past ':'
		if i = jsonwire.SkipSpace(text, jsonwire.ValueEnd(text, i)); text[i] == ',' {
			i = jsonwire.SkipSpace(text, i+1)
		}
	}
}

// slotHidden reports whether every node that reads slot i of table t is
// hidden from the call by its condition or a condition of a group around
// it (flags, version): to the call, the key is one the entity does not
// read, so that DenyUnknown tells a client nothing of fields it may not
// see.
func (r *run) slotHidden(t *inputTable, i int) bool {
	reads := t.conds[i]
	if reads == nil {
		return false
	}
	for _, chain := range reads {
		shown := true
		for _, c := range chain {
			if !r.shown(c) {
				shown = false
				break
			}
		}
		if shown {
			return false
		}
	}
	return true
}
