package entity

import (
	"slices"
)

// DenyUnknown (see the option): every key of an input object that its
// entity does not read is a field error of code "unknown". The check runs
// only for calls given the option, once per object made of an entity.

// unknownKeys reports each key of src that e does not read, in sorted
// order (maps have none of their own). Struct fields are not keys, and a
// request's X- headers are not read as keys.
func (r *run) unknownKeys(e *Entity, src *source) {
	var keys []string
	add := func(k string) {
		if i, ok := e.slots[k]; !ok || e.slotConds != nil && r.slotHidden(e, i) {
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
		eachJSONKey(src.js.text, add)
	case src.obj != nil:
		for _, k := range src.obj.Keys() {
			add(k)
		}
	case src.req != nil:
		// An X- field is read from the headers only: sent anywhere else,
		// its key is not read, so it is unknown there.
		addReq := func(k string) {
			if isHeaderName(k) {
				keys = append(keys, k)
				return
			}
			add(k)
		}
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
			if _, inForm := src.req.form[k]; !inForm {
				addReq(k)
			}
		}
	case src.st == nil && src.rv.IsValid():
		for it := src.rv.MapRange(); it.Next(); {
			add(it.Key().String())
		}
	}
	if len(keys) == 0 {
		return
	}
	slices.Sort(keys)
	keys = slices.Compact(keys) // a JSON object may say a key twice
	for _, k := range keys {
		r.failUnknown(k)
	}
}

// failUnknown records an unknown key of the object being read: its path is
// the key's, cut to its first 64 bytes (clipKey); it has no output path,
// since it is not written.
func (r *run) failUnknown(key string) {
	if r.full() {
		return
	}
	key = clipKey(key)
	fe := r.fieldError(nil, key, key, failure{rule: "unknown", code: "unknown", err: errUnknown})
	fe.Path, _, fe.Pointer = r.pathsOf(key, key, true) // "" is a key too: [""], "/"
	fe.OutputPath = ""                                 // it is not written
	r.errs = append(r.errs, fe)
}

// eachJSONKey calls f with each key of the JSON object text (text the
// validator accepted, white space allowed), decoded.
func eachJSONKey(text string, f func(string)) {
	i := skipSpace(text, 1)
	for text[i] == '"' {
		end, _ := stringEnd(text, i)
		f(unquote(text[i:end]))
		i = skipSpace(text, skipSpace(text, end)+1) // past ':'
		if i = skipSpace(text, valueEnd(text, i)); text[i] == ',' {
			i = skipSpace(text, i+1)
		}
	}
}

// slotHidden reports whether every node of e that reads input slot i is
// hidden from the call by its condition or a condition of a group around
// it (flags, version): to the call, the key is one the entity does not
// read, so that DenyUnknown tells a client nothing of fields it may not
// see.
func (r *run) slotHidden(e *Entity, i int) bool {
	reads := e.slotConds[i]
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

// condSlots returns, for each input slot of e, the conditions under which
// each node that reads it is read (its own and its groups'), when every
// one of them has some (nil for a slot a node reads whatever the call);
// nil when no node nor group has a condition.
func condSlots(e *Entity) [][][]*condition {
	reads := make([][][]*condition, e.nslots)
	always := make([]bool, e.nslots)
	any := false
	var walk func(p *objectPlan, chain []*condition)
	walk = func(p *objectPlan, chain []*condition) {
		for _, n := range p.nodes {
			c := chain
			if n.cond != nil {
				c = append(slices.Clip(chain), n.cond)
				any = true
			}
			if n.group != nil {
				walk(n.group, c)
				continue
			}
			if len(c) == 0 {
				always[n.slot] = true
				continue
			}
			reads[n.slot] = append(reads[n.slot], c)
		}
	}
	walk(e.root, nil)
	if !any {
		return nil
	}
	for i := range reads {
		if always[i] {
			reads[i] = nil
		}
	}
	return reads
}
