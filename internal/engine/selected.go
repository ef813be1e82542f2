package engine

import (
	"strings"
	"unicode/utf8"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/jsonwire"
)

// Selected reports whether a response call of e with the options o
// writes the field at path (package entity's Entity.Selected documents
// it): the selection compiled for the call, walked down the path.
func (e *Entity) Selected(path string, o *Opts) bool {
	var r run
	r.start(e, topObject, dirResponse, o)
	defer r.done()
	if r.fatal != nil {
		return false
	}
	m := r.mask
	if r.pruned != nil {
		m = r.sel
	}
	return r.selected(e.view(dirResponse), m, path, 0)
}

// selected reports whether the object of plan p, written with mask m (nil:
// all of it but lazy fields), writes the field at path.
func (r *run) selected(p *objectPlan, m *mask, path string, depth int) bool {
	name, rest, more := cutDotted(path)
	return r.selectedIn(p, m, name, rest, more, depth)
}

// selectedIn reports whether the object of p, written with mask m, writes
// the key name, and when more, the field at rest below it. The nodes are
// judged as appendShaped writes them.
func (r *run) selectedIn(p *objectPlan, m *mask, name, rest string, more bool, depth int) bool {
	if depth > dsl.MaxSelectionDepth { // merges within merges: bounded as a selection is
		return false
	}
	for i, n := range p.nodes {
		if n.cond != nil && !r.shown(n.cond) {
			continue
		}
		show, sub := m.at(i, n)
		if !show {
			continue
		}
		if n.merge { // its entity's keys are written into this object
			if t := r.planOf(n); t != nil && r.selectedIn(t, sub, name, rest, more, depth+1) {
				return true
			}
			continue
		}
		if !dottedIs(name, n.out) {
			continue
		}
		if !more {
			return true
		}
		if n.union != nil { // the union's key, always written, or a field of a variant's object under its selection
			if key, _, deeper := cutDotted(rest); !deeper && dottedIs(key, n.union.key) {
				return true
			}
			for i := range n.union.variants {
				var vm *mask
				if sub != nil && i < len(sub.alts) {
					vm = sub.alts[i]
				}
				if t := r.planOf(n.union.variants[i].n); t != nil && r.selected(t, vm, rest, depth+1) {
					return true
				}
			}
			continue
		}
		if t := r.planOf(n); t != nil && r.selected(t, sub, rest, depth+1) {
			return true
		}
	}
	return false
}

// at returns whether the mask writes node i of its plan (n) and, when it
// does, the selection of its object (nil: all of it but lazy fields), as
// appendShaped reads them. A nil mask writes every node but the lazy ones.
func (m *mask) at(i int, n *node) (show bool, sub *mask) {
	if m == nil {
		return !n.lazy, nil
	}
	lo, hi := 0, len(m.ents) // entries are sorted by index
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		switch idx := int(m.ents[h].idx); {
		case idx == i:
			return m.ents[h].on, m.ents[h].sub
		case idx < i:
			lo = h + 1
		default:
			hi = h
		}
	}
	return m.star && !n.lazy, nil
}

// planOf returns the plan of the object a group or a $ref writes, in the
// run's direction; nil for a value field, or a $ref to no entity.
func (r *run) planOf(n *node) *objectPlan {
	switch n.kind {
	case nodeGroup:
		return n.group
	case nodeRef:
		if n.union != nil { // its variants' plans: see selectedIn
			return nil
		}
		if t := r.refTarget(n); t != nil {
			return t.refView(r.dir, n.refNested)
		}
	}
	return nil
}

// cutDotted cuts the first step off a dotted path: the step as written
// (escapes kept: see dottedIs), the rest, and whether there is a rest.
func cutDotted(path string) (step, rest string, more bool) {
	for i := 0; i < len(path); i++ {
		switch path[i] {
		case '\\':
			if i+1 < len(path) && path[i+1] == '.' {
				i++
			}
		case '.':
			return path[:i], path[i+1:], true
		}
	}
	return path, "", false
}

// dottedIs reports whether a step of a dotted path, as written (`\.` a
// dot), names the output key out, as written (invalid UTF-8 as U+FFFD).
func dottedIs(step, out string) bool {
	if !strings.Contains(step, `\.`) {
		if step == out {
			return true
		}
		return !utf8.ValidString(out) && step == jsonwire.ValidUTF8(out)
	}
	if !utf8.ValidString(out) {
		out = jsonwire.ValidUTF8(out)
	}
	j := 0
	for i := 0; i < len(step); i++ {
		c := step[i]
		if c == '\\' && i+1 < len(step) && step[i+1] == '.' {
			c = '.'
			i++
		}
		if j >= len(out) || out[j] != c {
			return false
		}
		j++
	}
	return j == len(out)
}
