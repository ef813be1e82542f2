package entity

import (
	"fmt"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/jsonwire"
)

// This file holds `merge` on a $ref: the referenced entity's keys are
// written into the object around the field instead of under its key
// (Grape's merge: true). The walk writes the referenced object as usual
// and then takes its braces away (mergeInto); the compiler and Check make
// sure that no key is written twice and that no entity merges itself.

// mergeInto turns what a merged reference node n wrote at dst[mark:] into
// members of the object around it: an object's members (after a comma
// unless first), nothing for null or an empty object. A list is not an
// object to merge: it is dropped (a type error when the call is strict).
func (r *run) mergeInto(dst []byte, mark int, first bool, n *node) []byte {
	v := dst[mark:]
	switch {
	case len(v) == 0:
		return dst
	case v[0] == '[':
		if r.cfg.strict {
			r.failType(n, "a list")
		}
		return dst[:mark]
	case v[0] != '{' || len(v) == 2:
		return dst[:mark]
	}
	if first {
		copy(dst[mark:], v[1:len(v)-1])
		return dst[:len(dst)-2]
	}
	dst[mark] = ','
	return dst[:len(dst)-1]
}

// mergedKeys collects in out the output keys an object of plan p writes,
// those of the entities it merges included, each with what writes it,
// calling dup for a key written twice and cycle for an entity that merges
// itself. visiting holds the entities being expanded; pending is the
// entity being exposed, which its slot does not hold yet.
func mergedKeys(p *objectPlan, pending *Entity, visiting []*Entity, out map[string]string, dup func(key, first, second string), cycle func([]*Entity)) {
	for _, n := range p.nodes {
		if !n.merge {
			where := fmt.Sprintf("field %q", n.decl.Name)
			if len(visiting) > 1 {
				where = fmt.Sprintf("field %q of $%s (merged)", n.decl.Name, visiting[len(visiting)-1].name)
			}
			key := jsonwire.ValidUTF8(n.out) // as a client reads it, as object() compares keys
			if prev, ok := out[key]; ok && !n.shared {
				dup(n.out, prev, where)
				continue
			}
			out[key] = where
			continue
		}
		t := mergeTarget(n, pending)
		if t == nil {
			continue // Check reports a $ref to nothing
		}
		for i, v := range visiting {
			if v == t {
				cycle(append(visiting[i:], t))
				return
			}
		}
		mergedKeys(t.base, pending, append(visiting, t), out, dup, cycle)
	}
}

// mergeTarget returns the entity a merged reference names: pending when
// it names the entity being exposed, else what its slot holds now.
func mergeTarget(n *node, pending *Entity) *Entity {
	if pending != nil && n.ref.name == pending.name {
		return pending
	}
	return n.ref.e.Load()
}

// checkMerges reports the merge errors of plan p of the entity being
// compiled, and of its groups: two keys written to one object, and an
// entity that merges itself through any chain.
func (c *compiler) checkMerges(p *objectPlan) {
	errs := mergeErrors(c.ent, p, c.ent)
	for _, e := range errs {
		c.errs.Add(e)
	}
	c.ent.merges = c.ent.merges || hasMerge(p)
}

// hasMerge reports whether p or a group in it merges a reference.
func hasMerge(p *objectPlan) bool {
	for _, n := range p.nodes {
		if n.merge || n.group != nil && hasMerge(n.group) {
			return true
		}
	}
	return false
}

// mergeErrors returns the merge errors of plan p of entity e and of its
// groups (see checkMerges), pending being exposed.
func mergeErrors(e *Entity, p *objectPlan, pending *Entity) []*dsl.Error {
	var errs []*dsl.Error
	has := false
	for _, n := range p.nodes {
		if n.merge {
			has = true
		}
		if n.group != nil {
			errs = append(errs, mergeErrors(e, n.group, pending)...)
		}
	}
	if !has {
		return errs
	}
	var first *node // the first merged node, where errors are reported
	for _, n := range p.nodes {
		if n.merge {
			first = n
			break
		}
	}
	at := func(msg string) {
		errs = append(errs, &dsl.Error{Entity: e.name, Field: first.decl.Name, Pos: first.decl.Pos, Msg: msg})
	}
	mergedKeys(p, pending, []*Entity{e}, map[string]string{},
		func(key, a, b string) {
			at(fmt.Sprintf("merge: output key %q is written by %s and by %s", key, a, b))
		},
		func(chain []*Entity) {
			names := ""
			for i, x := range chain {
				if i > 0 {
					names += " merges "
				}
				names += "$" + x.name
			}
			at("merge cycle: " + names + ": the object would hold itself")
		})
	return errs
}

// checkMergesOf reports, for Check, the merge errors of every entity of
// the registry: what Expose could not see while a merged entity was not
// exposed yet, or has been exposed again since.
func (e *Entity) checkMergesOf(errs *dsl.ErrorList) {
	if !e.merges {
		return
	}
	for _, x := range mergeErrors(e, e.base, nil) {
		errs.Add(x)
	}
}

// mergeDependents returns the merge errors that exposing pending would
// give the registry's other entities that merge it, directly or through
// others: a re-expose must not make a key written twice, nor a cycle.
func (r *Registry) mergeDependents(pending *Entity) []*dsl.Error {
	var errs []*dsl.Error
	r.slots.Range(func(_, v any) bool {
		e := v.(*slot).e.Load()
		if e != nil && e.merges && e.name != pending.name {
			errs = append(errs, mergeErrors(e, e.base, pending)...)
		}
		return true
	})
	return errs
}
