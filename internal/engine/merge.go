package engine

import (
	"fmt"
	"slices"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/jsonwire"
)

// This file holds `merge` on a $ref: the referenced entity's keys are
// written into the object around the field instead of under its key
// (Grape's merge: true). The walk writes the referenced object as usual
// and then takes its braces away (mergeInto); the compiler, each change of
// the registry (change.go) and Verify make sure that no key is written
// twice and that no entity merges itself. The registry indexes who merges
// whom, so that exposing an entity checks only the entities that merge it.

// mergeInto turns what a merged reference node n wrote at dst[mark:] into
// members of the object around it: an object's members (after a comma
// unless first), nothing for null or an empty object. (A merged reference
// never writes a list: one given a list merges nothing, and merge on a
// []$name is a declaration error.)
func (r *run) mergeInto(dst []byte, mark int, first bool) []byte {
	v := dst[mark:]
	switch {
	case len(v) == 0:
		return dst
	case v[0] != '{' || len(v) == 2:
		return r.takeBack(dst, mark)
	}
	if first {
		copy(dst[mark:], v[1:len(v)-1])
		if len(r.hidden) > 0 {
			r.moveHidden(mark, -1)
		}
		return dst[:len(dst)-2]
	}
	dst[mark] = ','
	return dst[:len(dst)-1]
}

// pendingSet holds the entities being exposed, which their slots do not
// hold yet: the one being compiled, and those a change has staged.
type pendingSet struct {
	e    *Entity
	more map[string]*Entity
}

// target returns the entity a merged reference names, as the registry
// will hold it.
func (ps pendingSet) target(n *node) *Entity {
	if e := ps.pending(n.ref.name); e != nil {
		return e
	}
	return n.ref.e.Load()
}

// lookup returns the entity named in r, as r will hold it.
func (ps pendingSet) lookup(r *Env, name string) *Entity {
	if e := ps.pending(name); e != nil {
		return e
	}
	return r.Lookup(name)
}

// pending returns the entity of ps named, or nil.
func (ps pendingSet) pending(name string) *Entity {
	if ps.e != nil && name == ps.e.name {
		return ps.e
	}
	return ps.more[name]
}

// keyWalk collects the output keys an object writes, those of the entities
// it merges included, each with what writes it.
type keyWalk struct {
	ps    pendingSet
	out   map[string]keyEntry
	order []string // out's keys, in the order written
	occ   int      // the expansions numbered so far
	dup   func(key, first, second string)
	cycle func([]*Entity)
}

// keyEntry is what writes a key: a field, in one expansion of a plan.
// Fields of one plan may share a key by version ranges (the compiler saw
// to it that they are disjoint); fields of two expansions never do, not
// even of one plan merged twice, since the walk writes each.
type keyEntry struct {
	where string
	occ   int
}

// add walks plan p, the object of visiting's last entity (nil for the
// object the keys are written into, whose fields are named plainly),
// leaving out node skip. visiting holds the entities being expanded.
func (w *keyWalk) add(p *objectPlan, visiting []*Entity, top bool, skip *node) {
	occ := w.occ
	w.occ++
	for _, n := range p.nodes {
		if n == skip {
			continue
		}
		if !n.merge {
			where := fmt.Sprintf("field %q", n.decl.Name)
			if !top {
				where = fmt.Sprintf("field %q of $%s (merged)", n.decl.Name, visiting[len(visiting)-1].name)
			}
			key := jsonwire.ValidUTF8(n.out) // as a client reads it, as object() compares keys
			if prev, ok := w.out[key]; ok && (prev.occ != occ || !n.shared) {
				if w.dup != nil {
					w.dup(n.out, prev.where, where)
				}
				continue
			}
			if _, ok := w.out[key]; !ok {
				w.order = append(w.order, key)
			}
			w.out[key] = keyEntry{where, occ}
			continue
		}
		t := w.ps.target(n)
		if t == nil {
			continue // Verify reports a $ref to nothing
		}
		for i, v := range visiting {
			if v == t {
				if w.cycle != nil {
					w.cycle(append(visiting[i:len(visiting):len(visiting)], t))
				}
				return
			}
		}
		w.add(t.base, append(visiting[:len(visiting):len(visiting)], t), false, nil)
	}
}

// checkMerges reports the merge errors of plan p of the entity being
// compiled, and of its groups: two keys written to one object, and an
// entity that merges itself through any chain. It sees the entities of
// the registry's change being made.
func (c *compiler) checkMerges(p *objectPlan) {
	errs := mergeErrors(c.ent, p, pendingSet{e: c.ent, more: c.env.staging})
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
// groups (see checkMerges), ps being exposed.
func mergeErrors(e *Entity, p *objectPlan, ps pendingSet) []*dsl.Error {
	var errs []*dsl.Error
	has := false
	for _, n := range p.nodes {
		if n.merge {
			has = true
		}
		if n.group != nil {
			errs = append(errs, mergeErrors(e, n.group, ps)...)
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
	w := keyWalk{ps: ps, out: map[string]keyEntry{},
		dup: func(key, a, b string) {
			at(fmt.Sprintf("merge: output key %q is written by %s and by %s", key, a, b))
		},
		cycle: func(chain []*Entity) {
			at("merge cycle: " + cycleNames(chain) + ": the object would hold itself")
		}}
	w.add(p, []*Entity{e}, true, nil)
	return errs
}

// cycleNames names a chain of merges: "$a merges $b merges $a".
func cycleNames(chain []*Entity) string {
	names := ""
	for i, x := range chain {
		if i > 0 {
			names += " merges "
		}
		names += "$" + x.name
	}
	return names
}

// checkMergesOf reports, for Verify, the merge errors of every entity of
// the registry: what Expose could not see while a merged entity was not
// exposed yet, or has been exposed again since.
func (e *Entity) checkMergesOf(errs *dsl.ErrorList) {
	if !e.merges {
		return
	}
	for _, x := range mergeErrors(e, e.base, pendingSet{}) {
		errs.Add(x)
	}
}

// dependentMergeErrors returns the merge errors that exposing p, with the
// entities of ps, would give the entities that merge it, directly or
// through others; mergers lists the entities that merge an entity once
// they are exposed.
//
// Every object of the registry wrote each key once before (each change
// checks it), so a key written twice now has one writer among p's keys:
// the walk goes up from p, through the objects that merge it and, where
// that is an entity's root, the objects that merge that entity in turn,
// and compares p's keys with what each object writes besides (its own
// fields and the other entities it merges, p's keys again when it
// reaches p twice). It touches only the entities that depend on p, each
// merge once: exposing an entity no other merges costs nothing here, and
// a chain of merges exposed root first costs each Expose the chain's
// length, not its square.
func dependentMergeErrors(p *Entity, ps pendingSet, mergers func(string) []string) []*dsl.Error {
	var errs []*dsl.Error
	var pk *keyWalk // p's keys, walked on the first dependent
	type edge struct{ d, c string }
	seen := map[edge]bool{}
	queued := map[string]bool{p.name: true}
	queue := []*Entity{p}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, dn := range mergers(c.name) {
			if seen[edge{dn, c.name}] {
				continue
			}
			seen[edge{dn, c.name}] = true
			d := ps.lookup(p.env, dn)
			if d == nil {
				continue
			}
			if pk == nil {
				pk = &keyWalk{ps: ps, out: map[string]keyEntry{}}
				pk.add(p.base, []*Entity{p}, false, nil)
			}
			rootMerges := false
			forMergesOf(d.base, c.name, func(o *objectPlan, x *node) {
				rootMerges = rootMerges || o == d.base
				if len(pk.order) == 0 {
					return
				}
				w := keyWalk{ps: ps, out: map[string]keyEntry{}}
				w.add(o, []*Entity{d}, true, x)
				for _, k := range pk.order {
					if prev, ok := w.out[k]; ok {
						errs = append(errs, &dsl.Error{Entity: d.name, Field: x.decl.Name, Pos: x.decl.Pos,
							Msg: fmt.Sprintf("merge: output key %q is written by %s and by %s", k, prev.where, pk.out[k].where)})
					}
				}
			})
			if rootMerges && !queued[d.name] {
				queued[d.name] = true
				queue = append(queue, d)
			}
		}
	}
	return errs
}

// forMergesOf calls f with each object of plan p (p and its groups) that
// merges the entity named, and the first node that merges it there.
func forMergesOf(p *objectPlan, name string, f func(o *objectPlan, x *node)) {
	var first *node
	for _, n := range p.nodes {
		if n.merge && first == nil && n.ref.name == name {
			first = n
		}
		if n.group != nil {
			forMergesOf(n.group, name, f)
		}
	}
	if first != nil {
		f(p, first)
	}
}

// mergeTargets returns the names of the entities e's plans merge.
func mergeTargets(e *Entity) []string {
	if !e.merges {
		return nil
	}
	var out []string
	var walk func(p *objectPlan)
	walk = func(p *objectPlan) {
		for _, n := range p.nodes {
			if n.merge && !slices.Contains(out, n.ref.name) {
				out = append(out, n.ref.name)
			}
			if n.group != nil {
				walk(n.group)
			}
		}
	}
	walk(e.base)
	return out
}
