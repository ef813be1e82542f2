package engine

// This file compiles a response's selection one step further than its
// mask (compile_mask.go): into plans of its own, which hold only what the
// call writes, so that a selection, or flags and a version that hide
// fields, make a call cheaper, not dearer.
//
// A pruned plan holds the nodes its mask writes and whose conditions the
// call's flags and version show, in their order (the first one's key
// without its comma); a group's or a reference's own selection is pruned
// the same way (node.group, node.pruned), and so is one written whole.
// The walk then takes the loops of an unshaped plan (appendMap,
// appendStruct, the lists' direct paths) on it, with no mask, and meets
// no node the call leaves out. What a pruned plan still decides per value
// (omitnil, omitempty, a merged reference, cross-field rules) is decided
// as on any plan: appendShaped, without a mask.
//
// The nodes are copies; everything else (the input table, the rules, the
// cross-field rules, the defaults) is the view's. A selection of a union's
// variants or of a merged reference's fields is not pruned: its call
// applies the mask (appendShaped).

// pruner prunes the plans of one selection.
type pruner struct {
	mb     *maskBuilder
	masked map[*mask]*objectPlan       // a node's own selection's plans
	whole  map[*objectPlan]*objectPlan // the plans of objects written whole
	failed bool                        // a selection it cannot prune (see above)
}

// prune returns the plan the view p is pruned into by the selection m
// (nil: none, the call's flags and version alone), or nil when it cannot
// be.
func (mb *maskBuilder) prune(p *objectPlan, m *mask) *objectPlan {
	pr := pruner{mb: mb, masked: map[*mask]*objectPlan{}, whole: map[*objectPlan]*objectPlan{}}
	p = pr.plan(p, m)
	if pr.failed {
		return nil
	}
	return p
}

// plan returns p pruned by m (nil: written whole, as without a selection:
// every field but the lazy ones).
func (pr *pruner) plan(p *objectPlan, m *mask) *objectPlan {
	if m != nil {
		if q, ok := pr.masked[m]; ok {
			return q
		}
	} else if q, ok := pr.whole[p]; ok {
		return q
	}
	q := &objectPlan{ent: p.ent, owner: p.owner, in: p.in, dir: p.dir, mayHoldImmutable: p.mayHoldImmutable,
		cross: p.cross, checksUnknown: p.checksUnknown, params: p.params, left: p.left}
	if m != nil { // before its nodes: a selection may name itself below (a recursive entity's)
		pr.masked[m] = q
	} else {
		pr.whole[p] = q
	}
	for i, n := range p.nodes {
		show, sub := m.at(i, n)
		if !show || n.cond != nil && !n.cond.shownFor(pr.mb.flags, pr.mb.ver) {
			continue // what appendShaped leaves out, key and all
		}
		c := new(node)
		*c = *n
		c.lazy, c.next = false, nil // (its condition stays, for what reads the Object back: it holds)
		pr.below(c, sub)
		if len(q.nodes) == 0 && c.key[0] == ',' {
			c.key = c.key[1:]
			c.keyShort, c.keyPad = len(c.key) <= len(c.keyPad), [16]byte{}
			copy(c.keyPad[:], c.key)
		}
		if n.wire != nil { // an Object in the wire form reads the copy's objects too (appendSlow)
			w := *n.wire
			w.key, w.keyPad, w.keyShort, w.lazy, w.group, w.pruned = c.key, c.keyPad, c.keyShort, false, c.group, c.pruned
			c.wire = &w
		}
		q.nodes = append(q.nodes, c)
		q.shaped = q.shaped || c.omit != omitNone || c.merge || c.writeOnly
	}
	q.shaped = q.shaped || len(q.cross) > 0
	q.chain()
	return q
}

// below prunes the objects of c, a copy of a node the selection writes,
// by sub, its own selection (nil: written whole).
func (pr *pruner) below(c *node, sub *mask) {
	switch {
	case c.kind == nodeGroup:
		c.group = pr.plan(c.group, sub)
	case c.kind != nodeRef:
	case c.union != nil || c.merge:
		pr.failed = pr.failed || sub != nil // walked with its mask; written whole, as without a selection
	default:
		if t, _ := pr.mb.planOf(c); t != nil { // (none: an entity not declared, which the walk reports)
			c.pruned = pr.plan(t, sub)
		}
	}
}
