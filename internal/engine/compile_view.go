package engine

import (
	"net/textproto"
	"slices"

	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/rules"
)

// The direction views. An entity's declaration compiles once into its base
// plan, every declared field in order; each direction then gets a view of
// it, which is what calls run:
//
//   - the response view holds no writeonly field: a response cannot write
//     a writeonly value, by any path, since no node of its plan reads one;
//   - the request view holds no readonly field (their keys are ignored
//     keys of its input tables, which DenyUnknown accepts: a client may
//     send back what it got) and reads the wire form: each field under the
//     key a response writes (after rename and key case), a group as the
//     object under its key, a $ref as an object; `from` says where server
//     data is read and is not read by a request, and `lazy` (written only
//     when a selection names it) shapes responses only: a request reads
//     and keeps a lazy field like any other. A header field is read from
//     the headers under its declared name;
//   - an entity with parameter fields has a nested request view (and a
//     nested patch view, made on first need), which a reference reads it
//     with below the top level of a call (Entity.refView): its parameter
//     fields are readonly there, since the request's parameters are the
//     top level's, so that no request gives one and a patch keeps its
//     stored value.
//
// Each view's nodes are copies of the base's, so that what differs (their
// keys, their slots, how a group reads its object) is compiled into them,
// and what does not (checks, defaults, formats) is shared.

// viewBuilder builds one view of an entity.
type viewBuilder struct {
	d      direction
	ent    *Entity
	reads  map[*inputTable][]slotRead // what reads each table's slots, for DenyUnknown
	tables []*inputTable
	params []*node // a request view's fields read from the path, query, headers or cookies

	// readOnly and writeOnly, in a patch view, are how many readonly and
	// writeonly groups hold the plan being built: their fields are so too.
	readOnly, writeOnly int

	// nested: the view of a request, or a patch, below its top level,
	// whose parameter fields are readonly (Entity.refView).
	nested bool
}

// slotRead is one node reading a slot, under the conditions of its own and
// of the groups around it.
type slotRead struct {
	slot  int
	chain []*condition
}

// views compiles the entity's two views from its base plan.
func (c *compiler) views() {
	for _, d := range [...]direction{dirResponse, dirRequest} {
		c.ent.views[d] = buildView(c.ent, d, false)
	}
	// (an entity merged at the top level may have parameter fields: its
	// nested view is read there)
	c.ent.nested = c.ent.views
	if len(c.ent.views[dirRequest].params) > 0 || slices.ContainsFunc(c.ent.base.nodes, func(n *node) bool { return n.merge }) {
		c.ent.nested[dirRequest] = buildView(c.ent, dirRequest, true)
	}
}

// buildView compiles the view of direction d of e's base plan; nested,
// its view below the top level of a request (Entity.refView).
func buildView(e *Entity, d direction, nested bool) *objectPlan {
	vb := &viewBuilder{d: d, ent: e, nested: nested, reads: map[*inputTable][]slotRead{}}
	root := vb.plan(e.base, vb.table(), true, nil)
	root.ent, root.checksUnknown, root.params = e, true, vb.params
	for _, t := range vb.tables {
		t.keys = jsontape.NewKeyTable(t.slots)
		t.conds = condSlots(t, vb.reads[t])
	}
	return root
}

// table makes a new input table of the view.
func (vb *viewBuilder) table() *inputTable {
	t := newInputTable()
	vb.tables = append(vb.tables, t)
	return t
}

// plan builds the view of base, whose nodes read the input table t. top
// says whether it is an entity's own object; chain holds the conditions of
// the groups around it.
func (vb *viewBuilder) plan(base *objectPlan, t *inputTable, top bool, chain []*condition) *objectPlan {
	p := &objectPlan{in: t, dir: vb.d, owner: vb.ent}
	var copies map[*node]*node  // for the cross-field rules
	var unjudged map[*node]bool // copies whose own cross-field rules are not judged
	if len(base.cross) > 0 && vb.d != dirCurrent && vb.d != dirStored {
		copies = map[*node]*node{}
	}
	for _, bn := range base.nodes {
		// A parameter field of a nested view is the server's: no request
		// gives it (not its body, whose objects hold no parameter, nor its
		// parameters, which are the top level's), and a patch keeps its
		// stored value.
		ro := bn.readOnly || vb.nested && top && bn.src != srcBody
		switch {
		case (vb.d.responds() || vb.d == dirStored) && bn.writeOnly:
			p.left = append(p.left, vb.leftNode(bn, top))
			continue
		case ro && (vb.d == dirRequest || vb.d == dirPatch && vb.writeOnly > 0):
			// No request gives a readonly value; nor does the current value
			// of a patch in a writeonly group, which its response form
			// hides: the merged value holds none.
			p.left = append(p.left, vb.leftNode(bn, top))
			if !bn.merge { // an ignored key, known to the calls that see the field
				c := chain
				if bn.cond != nil {
					c = append(slices.Clip(chain), bn.cond)
				}
				vb.reads[t] = append(vb.reads[t], slotRead{t.slot(bn.out), c})
			}
			continue
		}
		n := new(node)
		*n = *bn
		n.crossIdx, n.crossDecls, n.next = -1, nil, nil
		if n.each != nil {
			// its element node is this view's list's: a failure of an
			// element is named as this view reads the list (a request's
			// wire key)
			each := *n.each
			each.elemOf = n
			n.each = &each
		}
		if copies != nil {
			copies[bn] = n
		}
		switch {
		case vb.d == dirCurrent:
			// The stored value as it is: nothing judged, defaulted, left
			// out or kept for a selection (patch.go).
			n.unjudged()
			n.hasDefault, n.refDefault, n.defNull, n.defJSON = false, false, false, nil
			n.omit, n.lazy = omitNone, false
		case vb.d == dirStored || vb.d == dirPatch && (ro || vb.readOnly > 0):
			// A readonly value is the server's, taken from the current
			// value as it is (a group's fields with it): no rule judges
			// it, its cross-field rules neither (a sibling's may name it),
			// and no default fills it (the current value has none).
			n.unjudged()
			n.hasDefault, n.refDefault, n.defNull, n.defJSON = false, false, false, nil
			if vb.d == dirPatch {
				n.readOnly = true // a readonly group's $name too: read with the view dirStored
			}
			if copies != nil {
				if unjudged == nil {
					unjudged = map[*node]bool{}
				}
				unjudged[n] = true
			}
		case vb.d == dirPatch && vb.writeOnly > 0:
			n.writeOnly = true // a writeonly group's: read only when the patch gives it
		}
		if vb.d.merged() && n.immutable {
			n.fast = fastNone // read by appendValueField, which records a refused change (patch_immutable.go)
		}
		if len(p.nodes) > 0 {
			n.key = append(n.key, ',')
		}
		n.key = jsonwire.AppendString(n.key, n.out)
		n.key = append(n.key, ':')
		n.keyShort = len(n.key) <= len(n.keyPad)
		copy(n.keyPad[:], n.key)
		n.defShort = len(n.defJSON) <= len(n.defPad)
		copy(n.defPad[:], n.defJSON)
		c := chain
		if n.cond != nil {
			c = append(slices.Clip(chain), n.cond)
		}
		if !vb.d.responds() {
			vb.requestNode(n, t, top, c)
		} else {
			vb.responseNode(n, t, c)
			if n.in != n.out || n.from != nil {
				w := *n
				w.in, w.from = n.out, nil
				n.wire = &w
			}
		}
		n.refNested = vb.readsNested(n, top)
		if n.union != nil {
			n.union = n.union.forView(n)
		}
		p.nodes = append(p.nodes, n)
		p.shaped = p.shaped || n.lazy || n.cond != nil || n.omit != omitNone || n.merge || n.writeOnly // appendShaped records where a writeonly member lies
	}
	if copies != nil {
		p.cross = crossView(base.cross, copies, unjudged)
		p.shaped = p.shaped || len(p.cross) > 0
	}
	if vb.d == dirPatch && vb.readOnly == 0 && vb.writeOnly == 0 {
		vb.storedTwins(p, base, t, top, chain)
	}
	p.chain()
	p.verbatim = vb.d == dirStored || vb.d == dirPatch && vb.readOnly > 0
	for _, n := range p.nodes {
		p.verbatim = p.verbatim && writesAsRead(n)
		p.mayHoldImmutable = p.mayHoldImmutable || n.immutable || n.kind == nodeRef && !n.refList ||
			n.group != nil && n.group.mayHoldImmutable
		p.conds = p.conds || n.cond != nil || n.group != nil && n.group.conds
	}
	return p
}

// storedTwins gives each node of p, a patch view's plan of base, that
// may read a member the merger copies from the current value (not a
// readonly one, which is taken as stored already, nor a parameter, read
// from the request, nor a writeonly one, which the current value does not
// hold, nor a merged reference, whose own nodes have theirs) its twin:
// the node as the view builds a readonly one, taken as stored (no rule, no
// transform, no req, no default, no JSON type judged; a group's object and
// a $name's with it, at every depth), which the walk reads such a member
// with (appendShaped). Its own cross-field rules are not judged then; a
// sibling's naming it see its value as the original's would.
func (vb *viewBuilder) storedTwins(p, base *objectPlan, t *inputTable, top bool, chain []*condition) {
	// The twins read t as the nodes do, but that a parameter's twin would
	// read its key from the body: what they add to t, and to what reads
	// it, is taken back (no parameter has a twin).
	slots, reads, params := t.nslots, len(vb.reads[t]), len(vb.params)
	vb.readOnly++
	tw := vb.plan(base, t, top, chain)
	vb.readOnly--
	for k, i := range t.slots {
		if i >= slots {
			delete(t.slots, k)
		}
	}
	t.nslots, vb.reads[t], vb.params = slots, vb.reads[t][:reads], vb.params[:params]
	if len(tw.nodes) != len(p.nodes) {
		panic("engine: a patch view's stored twins do not match its nodes") // cannot happen: no readonly node is left out outside a writeonly group
	}
	for i, n := range p.nodes {
		if n.readOnly || n.writeOnly || n.merge || n.src != srcBody {
			continue
		}
		twin := tw.nodes[i]
		twin.crossIdx, twin.next = n.crossIdx, nil
		n.asStored = twin
		p.shaped = true // appendShaped reads the twins
	}
}

// writesAsRead reports whether n, a node of a view that judges nothing,
// writes the wire form it reads byte for byte (see objectPlan.verbatim).
func writesAsRead(n *node) bool {
	switch {
	case n.kind != nodeValue, n.each != nil, n.format != nil, n.omit != omitNone, n.cond != nil, n.from != nil, n.src != srcBody:
		return false
	}
	switch n.typ {
	case rules.String, rules.Int, rules.Float, rules.Bool:
		return true
	}
	return false
}

// leftNode is the node of p.left for bn, a node the view leaves out: bn,
// or a reference's copy that says how the view reads its entity
// (refNested), for the calls that look at its keys.
func (vb *viewBuilder) leftNode(bn *node, top bool) *node {
	if bn.kind != nodeRef {
		return bn
	}
	n := new(node)
	*n = *bn
	n.refNested = vb.readsNested(n, top)
	return n
}

// readsNested reports whether n, a node of the view's object (its
// entity's own when top says so), is a reference that reads its entity
// below the top level of a call: any but a merged one at the top level.
func (vb *viewBuilder) readsNested(n *node, top bool) bool {
	return n.kind == nodeRef && (vb.nested || !top || !n.merge)
}

// responseNode compiles a node of the response view: it reads the input
// under its declared name, or at its from path; a group reads the same
// input object as its parent, or the object at its from path.
func (vb *viewBuilder) responseNode(n *node, t *inputTable, chain []*condition) {
	n.header, n.src = "", srcBody // server data has no headers: an X- field is a key like any
	switch {
	case n.from != nil:
		first := *n.from.first
		first.slot = t.slot(first.in)
		first.step = len(n.from.rest) > 0 || n.kind != nodeValue || n.each != nil // it reads what is stepped into, or made
		n.from = &fromPath{first: &first, rest: n.from.rest}
		vb.reads[t] = append(vb.reads[t], slotRead{first.slot, chain})
		if n.kind == nodeGroup { // it reads the object at the path: a table of its own
			n.group = vb.plan(n.group, vb.table(), false, nil)
		}
	case n.kind == nodeGroup:
		n.group = vb.plan(n.group, t, false, chain)
	default:
		n.slot = t.slot(n.in)
		vb.reads[t] = append(vb.reads[t], slotRead{n.slot, chain})
	}
}

// requestNode compiles a node of the request view: it reads the input
// under its wire key; a group reads the object there with a table of its
// own. A top-level field named X-… reads the header of its declared name.
func (vb *viewBuilder) requestNode(n *node, t *inputTable, top bool, chain []*condition) {
	n.from = nil
	n.lazy = false // a selection shapes what a call returns, never what a request reads
	n.in, n.header = n.out, ""
	switch {
	case !top:
		n.src = srcBody // a body's object holds no parameter: an X- field there is never read
	case vb.d == dirStored || vb.d == dirPatch && (n.readOnly || vb.readOnly > 0):
		// A readonly $name's object of a patch, the server's, taken as
		// stored: it holds its parameter fields' values (no request does);
		// and a patch's readonly parameter is the current value's, as any
		// readonly value (a request never reads one).
		n.src = srcBody
	case n.src != srcBody:
		// Read from the request itself, never from its body (by the fast
		// path neither): under the name its directive gives, or its key; a
		// header under its declared name, case-insensitively.
		switch {
		case n.param != "":
			n.in = n.param
		case n.src == srcHeader:
			n.in = n.decl.Name
		}
		if n.src == srcHeader {
			n.header = textproto.CanonicalMIMEHeaderKey(n.in)
		}
		n.fast = fastNone
		vb.params = append(vb.params, n)
		return
	}
	if n.kind == nodeGroup {
		n.nested = true
		switch {
		case vb.d != dirPatch:
		case n.readOnly:
			vb.readOnly++
			defer func() { vb.readOnly-- }()
		case n.writeOnly:
			vb.writeOnly++
			defer func() { vb.writeOnly-- }()
		}
		n.group = vb.plan(n.group, vb.table(), false, nil)
		n.group.checksUnknown = true
	}
	if n.merge {
		return // its entity's keys are read from this object (mergeSource)
	}
	if vb.ent.env.JSONTypes && vb.d != dirStored && !n.readOnly && vb.readOnly == 0 {
		jsonTypes(n) // the client's values, not the server's
	}
	n.slot = t.slot(n.in)
	vb.reads[t] = append(vb.reads[t], slotRead{n.slot, chain})
}

// unjudged strips a view's copy of a node of what judges its value: its
// rules (a typed list's elements' too), its transforms and req. Its fast
// path is then the one a field without rules takes.
func (n *node) unjudged() {
	n.inChecks, n.outChecks, n.xforms, n.strChecks, n.intChecks = nil, nil, nil, nil, nil
	n.req = false
	if n.kind == nodeValue && n.from == nil {
		n.fast = fastNone
		setFast(n)
	}
	if n.each != nil {
		each := *n.each
		each.unjudged()
		n.each = &each
	}
}

// condSlots returns, for each slot of table t, the conditions under which
// each node that reads it is read (its own and its groups'), when every
// one of them has some (nil for a slot a node reads whatever the call);
// nil when no node nor group has a condition.
func condSlots(t *inputTable, reads []slotRead) [][][]*condition {
	conds := make([][][]*condition, t.nslots)
	always := make([]bool, t.nslots)
	any := false
	for _, rd := range reads {
		if len(rd.chain) == 0 {
			always[rd.slot] = true
			continue
		}
		any = true
		conds[rd.slot] = append(conds[rd.slot], rd.chain)
	}
	if !any {
		return nil
	}
	for i := range conds {
		if always[i] {
			conds[i] = nil
		}
	}
	return conds
}
