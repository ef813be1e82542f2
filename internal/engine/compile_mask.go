package engine

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/jsonwire"
)

// This file compiles a selection (Select, Only, Except) into a mask of
// the plan, once per entity and spec, and caches it (shape.go reads it
// into the run). A response's mask is pruned further into plans of its
// own (compile_prune.go), walked without it; a request's, or one the
// pruner cannot prune, is applied by appendShaped in object.go.

// ---- Masks

// mask is a compiled selection of one output object (plan): which of its
// nodes are written. Entries name nodes by index, in order; a node without
// one is written when star is set and it is not lazy.
type mask struct {
	plan *objectPlan
	star bool
	ents []maskEntry
	// alts, for a union's selection (plan is the union's keys), are the
	// selections of its variants' objects, by variant (union.go): the
	// union's key is always written.
	alts []*mask
}

// maskEntry is the selection of one node: on or off; when on, sub is its
// own selection (a group's or a $ref's), or nil for all of it.
type maskEntry struct {
	idx int32
	on  bool
	sub *mask
}

// compiledMask is a cached selection: its root mask and the entities its
// references were compiled against (the run uses those: see shape).
type compiledMask struct {
	root *mask
	deps []pinned
	// plan, for a response, is the view pruned by the selection
	// (compile_prune.go), which the call walks without a mask; nil when
	// it cannot be pruned.
	plan *objectPlan
}

// fresh reports whether every entity the mask was compiled against is
// still the one exposed under its name.
func (m *compiledMask) fresh(e *Entity) bool {
	for _, d := range m.deps {
		if d.s != e.slot && d.s.e.Load() != d.e {
			return false
		}
	}
	return true
}

// maskCache holds an entity's compiled selections by spec: a map no one
// changes once stored, replaced whole by each compile (under mu), so that
// a call's lookup is one load and one map read, with no lock.
type maskCache struct {
	mu sync.Mutex // the compiles' that store
	m  atomic.Pointer[map[string]*compiledMask]
}

// maxCachedMasks is how many selections an entity keeps compiled.
const maxCachedMasks = 256

// lookup returns the compiled selection cached under key, if it is still
// fresh.
func (c *maskCache) lookup(e *Entity, key []byte) *compiledMask {
	mp := c.m.Load()
	if mp == nil {
		return nil
	}
	if m := (*mp)[string(key)]; m != nil && m.fresh(e) {
		return m
	}
	return nil
}

// compile compiles a selection and caches it under key.
func (c *maskCache) compile(e *Entity, key []byte, sel selection) (*compiledMask, error) {
	b := maskBuilder{e: e, flags: sel.flags, ver: sel.ver, dir: sel.dir}
	m := &compiledMask{}
	if sel.hasSpec || sel.hasOnly || sel.hasExcept { // (flags and a version alone select no field: no mask)
		root, err := b.build(sel)
		if err != nil {
			return nil, err
		}
		m.root = root.freeze(map[*building]*mask{})
	}
	if sel.dir == dirResponse {
		m.plan = b.prune(e.view(sel.dir), m.root)
	}
	m.deps = b.deps
	c.mu.Lock()
	next := map[string]*compiledMask{}
	if old := c.m.Load(); old != nil {
		next = maps.Clone(*old)
	}
	if len(next) >= maxCachedMasks {
		for k := range next { // map order is random: a random victim
			delete(next, k)
			break
		}
	}
	next[string(key)] = m
	c.m.Store(&next)
	c.mu.Unlock()
	return m, nil
}

// maskBuilder compiles a selection against an entity's plans.
type maskBuilder struct {
	e     *Entity
	deps  []pinned
	flags uint64    // the call's flags
	ver   version   // the call's version
	dir   direction // the view the call walks: the other direction's fields are not in it
}

// visible reports whether a client whose call sets the builder's flags
// and version may know of node n: a field they hide (`if` without one of
// its flags, `unless` with one, a version range without the call's, or
// without a version a range a later one of its key shadows) is, to a
// Select spec, a field that does not exist, so that a selection can
// neither name it nor learn that it exists from an error. Of the fields
// sharing a key by version, one at most is visible to a call. (Only and
// Except are the server's code: they know every field.)
func (mb *maskBuilder) visible(n *node) bool {
	return n.cond == nil || n.cond.shownFor(mb.flags, mb.ver)
}

// building is a mask under construction: entries by node index.
type building struct {
	plan *objectPlan
	star bool
	ents map[int]*buildEntry
	// union and alts: a union's selection, of each of its variants'
	// objects (see mask.alts).
	union *unionPlan
	alts  []*building
}

type buildEntry struct {
	on  bool
	sub *building
}

func newBuilding(p *objectPlan, star bool) *building {
	return &building{plan: p, star: star, ents: map[int]*buildEntry{}}
}

// freeze turns a built mask into its compact form; memo holds the masks
// made so far, so that a building shared by the fields of one key is one
// mask.
func (b *building) freeze(memo map[*building]*mask) *mask {
	if m, ok := memo[b]; ok {
		return m
	}
	m := &mask{plan: b.plan, star: b.star}
	memo[b] = m
	for _, a := range b.alts {
		m.alts = append(m.alts, a.freeze(memo))
	}
	idx := make([]int, 0, len(b.ents))
	for i := range b.ents {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for _, i := range idx {
		be := b.ents[i]
		me := maskEntry{idx: int32(i), on: be.on}
		if be.sub != nil {
			me.sub = be.sub.freeze(memo)
			if me.on && b.plan.nodes[i].merge && !me.sub.writesAny(0) {
				me.on, me.sub = false, nil // its keys are all left out: neither read nor judged
			}
		}
		m.ents = append(m.ents, me)
	}
	return m
}

// writesAny reports whether the mask writes a field of its object: one it
// shows, or one of a merged entity it shows.
func (m *mask) writesAny(depth int) bool {
	if depth > dsl.MaxSelectionDepth {
		return true
	}
	j := 0
	for i, n := range m.plan.nodes {
		for j < len(m.ents) && int(m.ents[j].idx) < i {
			j++
		}
		switch {
		case j < len(m.ents) && int(m.ents[j].idx) == i:
			e := m.ents[j]
			if e.on && (!n.merge || e.sub == nil || e.sub.writesAny(depth+1)) {
				return true
			}
		case m.star && !n.lazy:
			return true
		}
	}
	return false
}

// entry returns node i's entry, made as the mask shows it now.
func (b *building) entry(i int) *buildEntry {
	if be, ok := b.ents[i]; ok {
		return be
	}
	be := &buildEntry{on: b.star && !b.plan.nodes[i].lazy}
	b.ents[i] = be
	return be
}

// selErr is an error in a selection: where (a byte offset in a Select
// spec) and what, as the key of its text in the catalogs
// ("problem.fields.…") and the params of it. It quotes nothing of the
// spec: the offset says where.
type selErr struct {
	off    int
	key    string
	params map[string]any
}

// build compiles a selection into a mask.
func (mb *maskBuilder) build(sel selection) (*building, error) {
	e := mb.e
	var root *building
	switch {
	case sel.hasSpec:
		terms, err := dsl.ParseSelection(sel.spec)
		if err != nil {
			return nil, mb.specError(sel.spec, selectionError(err))
		}
		root = newBuilding(e.view(mb.dir), false)
		if serr := mb.select1(root, terms); serr != nil {
			return nil, mb.specError(sel.spec, *serr)
		}
	case sel.hasOnly:
		root = newBuilding(e.view(mb.dir), false)
		for _, p := range sel.only {
			if err := mb.selectPath(root, p); err != nil {
				return nil, err
			}
		}
	default:
		root = newBuilding(e.view(mb.dir), true)
	}
	for _, p := range sel.except {
		if err := mb.exceptPath(root, p); err != nil {
			return nil, err
		}
	}
	mb.leaveOutEmptyMerges(root, map[*building]bool{})
	return root, nil
}

// leaveOutEmptyMerges leaves out, in b and the objects under it, each
// merged $ref shown whole whose entity writes no field so (every one is
// lazy): a merged object the selection writes nothing of is not read.
// (One shown in part is left out when it is frozen: see writesAny.)
func (mb *maskBuilder) leaveOutEmptyMerges(b *building, seen map[*building]bool) {
	if seen[b] {
		return
	}
	seen[b] = true
	for i, n := range b.plan.nodes {
		be, ok := b.ents[i]
		switch {
		case ok && be.sub != nil:
			mb.leaveOutEmptyMerges(be.sub, seen)
		case !ok && n.merge && b.star && !n.lazy:
			if p, _ := mb.planOf(n); p != nil && !mb.writesWhole(p, 0) {
				b.entry(i).on = false
			}
		}
	}
}

// writesWhole reports whether the object of plan p, shown whole, writes a
// field: one that is not lazy, or one of a merged entity.
func (mb *maskBuilder) writesWhole(p *objectPlan, depth int) bool {
	for _, n := range p.nodes {
		switch {
		case n.lazy:
		case !n.merge:
			return true
		case depth < dsl.MaxSelectionDepth:
			if t, _ := mb.planOf(n); t == nil || mb.writesWhole(t, depth+1) {
				return true
			}
		}
	}
	return false
}

// specError returns the InputError of a bad Select spec.
func (mb *maskBuilder) specError(spec string, se selErr) error {
	params := map[string]any{"offset": se.off}
	maps.Copy(params, se.params)
	return newInputError(ErrInvalidFields, se.key, params)
}

// selectionError returns the selErr of an error of dsl.ParseSelection:
// its code names its text in the catalogs.
func selectionError(err error) selErr {
	se, ok := err.(*dsl.SelectionError)
	if !ok {
		return selErr{0, "problem.fields.name", nil}
	}
	e := selErr{off: se.Offset, key: "problem.fields." + se.Code}
	switch se.Code {
	case "too-long":
		e.params = map[string]any{"max": int64(dsl.MaxSelectionLen)}
	case "deep":
		e.params = map[string]any{"max": int64(dsl.MaxSelectionDepth)}
	case "unclosed":
		e.params = map[string]any{"open": int64(se.Open)}
	}
	return e
}

// select1 applies Select terms to a mask.
func (mb *maskBuilder) select1(b *building, terms []dsl.Term) *selErr {
	for _, t := range terms {
		if err := mb.selectTerm(b, t.Path, t); err != nil {
			return err
		}
	}
	return nil
}

// selectTerm applies the rest of a term's path to b.
func (mb *maskBuilder) selectTerm(b *building, path []dsl.Step, t dsl.Term) *selErr {
	if b.union != nil {
		return mb.selectVariants(b, path, t)
	}
	nm, last := path[0], len(path) == 1
	if nm.Name == "*" {
		if !last || t.Sub != nil {
			return &selErr{nm.Offset, "problem.fields.star", nil}
		}
		mb.all(b)
		return nil
	}
	idx := slices.DeleteFunc(b.plan.named(nm.Name), func(i int) bool { return !mb.visible(b.plan.nodes[i]) })
	if len(idx) == 0 {
		if i := mb.mergedWith(b.plan, nm.Name, mb.visible, 0); i >= 0 { // a key a merged $ref writes here
			sub, _ := mb.child(b, i, b.entry(i))
			return mb.selectTerm(sub, path, t)
		}
		return &selErr{nm.Offset, "problem.fields.unknown", map[string]any{"names": mb.outNames(b.plan, mb.visible)}}
	}
	// Fields sharing the key by version range: each that has fields takes
	// the sub-selection (one building for those of one plan, so that a
	// recursive $ref shared by versions does not double it at each step);
	// it is an error only when none has.
	var noFields *selErr
	applied := false
	var done []*building
	for _, i := range idx {
		n := b.plan.nodes[i]
		be := b.entry(i)
		if last && !(t.Sub != nil) {
			if be.sub != nil {
				mb.all(be.sub) // written whole: all of it, and what was named in it
			}
			be.on = true
			applied = true
			continue
		}
		sub, err := mb.child(b, i, be)
		switch {
		case err != "":
			return &selErr{nm.Offset, "problem.fields.none", nil} // err names the field: the server's words
		case sub == nil:
			if noFields == nil {
				noFields = &selErr{nm.Offset, "problem.fields.scalar", map[string]any{"type": n.typ.String()}}
			}
			continue
		case slices.Contains(done, sub):
			applied = true
			continue
		}
		done = append(done, sub)
		applied = true
		var serr *selErr
		if last {
			serr = mb.select1(sub, t.Sub)
		} else {
			serr = mb.selectTerm(sub, path[1:], t)
		}
		if serr != nil {
			return serr
		}
	}
	if !applied {
		return noFields
	}
	return nil
}

// all marks a selection as whole, as `*` or selecting its node without a
// sub-selection does: every field but the lazy ones, and what was named
// in it before (selections add up, whatever their order).
func (mb *maskBuilder) all(b *building) {
	b.star = true
	for _, a := range b.alts {
		mb.all(a)
	}
	for i, be := range b.ents {
		if b.plan.nodes[i].lazy {
			continue // written only as it was named: * leaves its sub-selection as it is
		}
		be.on = true
		if be.sub != nil {
			mb.all(be.sub)
		}
	}
}

// child returns node i's sub-selection, making it: nil for a value field.
// A node written whole so far gets a sub-selection of all (star).
func (mb *maskBuilder) child(b *building, i int, be *buildEntry) (*building, string) {
	if be.sub != nil {
		be.on = true
		return be.sub, ""
	}
	n := b.plan.nodes[i]
	p, err := mb.planOf(n)
	if p == nil {
		return nil, err
	}
	if n.shared { // one building for the fields of one key and one plan
		for _, j := range b.plan.named(n.out) {
			if o := b.ents[j]; j != i && o != nil && o.sub != nil && o.sub.plan == p {
				be.sub, be.on = o.sub, true
				return be.sub, ""
			}
		}
	}
	be.sub = newBuilding(p, be.on)
	if u := n.union; u != nil {
		be.sub.union = u
		for i := range u.variants {
			vp, err := mb.planOf(u.variants[i].n)
			if vp == nil {
				be.sub = nil
				return nil, err
			}
			be.sub.alts = append(be.sub.alts, newBuilding(vp, be.on))
		}
	}
	be.on = true
	return be.sub, ""
}

// selectVariants applies the rest of a term's path to the selection of a
// union, b: to each variant that has the field it names (a name that
// none has is unknown); the union's key is always written, so naming it
// selects nothing more.
func (mb *maskBuilder) selectVariants(b *building, path []dsl.Step, t dsl.Term) *selErr {
	nm := path[0]
	if nm.Name == "*" {
		if len(path) > 1 || t.Sub != nil {
			return &selErr{nm.Offset, "problem.fields.star", nil}
		}
		mb.all(b)
		return nil
	}
	if nm.Name == b.union.key && len(path) == 1 && t.Sub == nil {
		return nil
	}
	applied := false
	for _, a := range b.alts {
		if len(slices.DeleteFunc(a.plan.named(nm.Name), func(i int) bool { return !mb.visible(a.plan.nodes[i]) })) == 0 && mb.mergedWith(a.plan, nm.Name, mb.visible, 0) < 0 {
			continue
		}
		if err := mb.selectTerm(a, path, t); err != nil {
			return err
		}
		applied = true
	}
	if !applied {
		names := []string{strconv.Quote(jsonwire.ValidUTF8(b.union.key))}
		for _, a := range b.alts {
			if l := mb.outNames(a.plan, mb.visible); l != "none" {
				names = append(names, l)
			}
		}
		return &selErr{nm.Offset, "problem.fields.unknown", map[string]any{"names": strings.Join(names, ", ")}}
	}
	return nil
}

// planOf returns the plan of a group's or a $ref's output object, nil for
// a value field; a $ref to no entity is an error.
func (mb *maskBuilder) planOf(n *node) (*objectPlan, string) {
	switch n.kind {
	case nodeGroup:
		return n.group, ""
	case nodeRef:
		if n.union != nil { // its variants' plans are its selection's alts (child)
			return n.union.keys, ""
		}
		if n.ref == mb.e.slot {
			return mb.e.refView(mb.dir, n.refNested), ""
		}
		for _, d := range mb.deps {
			if d.s == n.ref {
				return d.e.refView(mb.dir, n.refNested), ""
			}
		}
		t := n.ref.e.Load()
		if t == nil { // the server's declarations are at fault: Check reports it
			return nil, fmt.Sprintf("%q has no fields to select", n.out)
		}
		mb.deps = append(mb.deps, pinned{n.ref, t})
		return t.refView(mb.dir, n.refNested), ""
	}
	return nil, ""
}

// walkPath follows a dotted path of Only or Except from b, calling at on
// the entry of every node its last step names; step makes the
// sub-selection of a node on the way (nil: the path ends here, as for a
// node left out already).
func (mb *maskBuilder) walkPath(b *building, path, full string, at func(*building, int), step func(*building, int, *buildEntry) *building) error {
	names := splitDotted(path)
	var walk func(b *building, names []string) error
	walk = func(b *building, names []string) error {
		name := names[0]
		if name == "*" && len(names) == 1 {
			at(b, -1)
			return nil
		}
		idx := b.plan.named(name) // fields sharing the key by version: each (the call writes one), an error only when none has the rest of the path
		if len(idx) == 0 {
			if i := mb.mergedWith(b.plan, name, nil, 0); i >= 0 { // a key a merged $ref writes here (a path of code names what is declared)
				if sub := step(b, i, b.entry(i)); sub != nil {
					return walk(sub, names)
				}
				// Left out already: the rest of the path must still exist.
				p, _ := mb.planOf(b.plan.nodes[i])
				return walk(newBuilding(p, false), names)
			}
			if n := mb.leftOut(b.plan, name, false, 0); n != nil {
				// Declared for the other direction only (a writeonly field
				// of a response): this call writes nothing of it, but the
				// rest of the path must still exist.
				if len(names) == 1 {
					return nil
				}
				p, err := mb.planOf(n)
				if p == nil {
					if err == "" {
						err = fmt.Sprintf("%q is %s %s field: it has no fields", n.out, article(n.typ.String()), n.typ)
					}
					return fmt.Errorf("%w: entity %q has no field at %q: %s", ErrUnknownField, mb.e.name, full, err)
				}
				return walk(newBuilding(p, false), names[1:])
			}
			return fmt.Errorf("%w: entity %q has no field at %q: no %q here (there are %s)", ErrUnknownField, mb.e.name, full, name, mb.outNames(b.plan, nil))
		}
		var noFields error
		applied := false
		var done []*building
		for _, i := range idx {
			if len(names) == 1 {
				at(b, i)
				applied = true
				continue
			}
			n := b.plan.nodes[i]
			if p, err := mb.planOf(n); p == nil {
				if err == "" {
					err = fmt.Sprintf("%q is %s %s field: it has no fields", n.out, article(n.typ.String()), n.typ)
				}
				if noFields == nil {
					noFields = fmt.Errorf("%w: entity %q has no field at %q: %s", ErrUnknownField, mb.e.name, full, err)
				}
				continue // another field of the key (by version) may have fields
			}
			applied = true
			if sub := step(b, i, b.entry(i)); sub != nil {
				if slices.Contains(done, sub) {
					continue
				}
				done = append(done, sub)
				if err := walk(sub, names[1:]); err != nil {
					return err
				}
				continue
			}
			// Left out already: the rest of the path must still exist.
			p, _ := mb.planOf(n)
			if slices.ContainsFunc(done, func(d *building) bool { return d.plan == p }) {
				continue
			}
			v := newBuilding(p, false)
			done = append(done, v)
			if err := walk(v, names[1:]); err != nil {
				return err
			}
		}
		if !applied {
			return noFields
		}
		return nil
	}
	return walk(b, names)
}

// selectPath applies one Only path.
func (mb *maskBuilder) selectPath(b *building, path string) error {
	return mb.walkPath(b, path, path,
		func(b *building, i int) {
			if i < 0 {
				mb.all(b)
				return
			}
			be := b.entry(i)
			if be.sub != nil {
				mb.all(be.sub)
			}
			be.on = true
		},
		func(b *building, i int, be *buildEntry) *building {
			sub, _ := mb.child(b, i, be)
			return sub
		})
}

// exceptPath applies one Except path.
func (mb *maskBuilder) exceptPath(b *building, path string) error {
	return mb.walkPath(b, path, path,
		func(b *building, i int) {
			if i < 0 {
				b.star = false
				for _, be := range b.ents {
					be.on, be.sub = false, nil
				}
				return
			}
			be := b.entry(i)
			be.on, be.sub = false, nil
		},
		func(b *building, i int, be *buildEntry) *building {
			if !be.on {
				return nil // left out already
			}
			sub, _ := mb.child(b, i, be)
			return sub
		})
}

// mergedWith returns the index of the merged $ref node of p whose entity
// writes key out into p's object (through its own merges too), or -1.
func (mb *maskBuilder) mergedWith(p *objectPlan, out string, show func(*node) bool, depth int) int {
	if depth > dsl.MaxSelectionDepth {
		return -1
	}
	for i, n := range p.nodes {
		if !n.merge || show != nil && !show(n) {
			continue
		}
		t, _ := mb.planOf(n)
		if t == nil {
			continue
		}
		for _, j := range t.named(out) {
			if show == nil || show(t.nodes[j]) {
				return i
			}
		}
		if mb.mergedWith(t, out, show, depth+1) >= 0 {
			return i
		}
	}
	return -1
}

// leftOut returns the node declaring key out in p's object that p's view
// leaves out for the other direction (see objectPlan.left), else nil:
// one of p.left, a field of a merged $ref's entity that its view leaves
// out, or, under a merged $ref the view leaves out (all), any field of
// its entity. A Select spec never asks: to a client, such a field does
// not exist.
func (mb *maskBuilder) leftOut(p *objectPlan, out string, all bool, depth int) *node {
	if depth > dsl.MaxSelectionDepth {
		return nil
	}
	if all {
		for _, i := range p.named(out) {
			if !p.nodes[i].merge {
				return p.nodes[i]
			}
		}
	}
	for _, n := range p.left {
		if !n.merge && (n.out == out || jsonwire.ValidUTF8(n.out) == out) {
			return n
		}
	}
	for k, ns := range [...][]*node{p.left, p.nodes} {
		for _, n := range ns {
			if !n.merge {
				continue
			}
			if t, _ := mb.planOf(n); t != nil {
				if f := mb.leftOut(t, out, all || k == 0, depth+1); f != nil {
					return f
				}
			}
		}
	}
	return nil
}

// named returns the indexes of the plan's nodes writing key out: one, or
// several fields of disjoint version ranges. A merged $ref writes no key
// of its own (its entity's keys are written in its place: mergedWith).
func (p *objectPlan) named(out string) []int {
	var idx []int
	for i, n := range p.nodes {
		if !n.merge && (n.out == out || jsonwire.ValidUTF8(n.out) == out) { // as written, invalid UTF-8 as U+FFFD
			idx = append(idx, i)
		}
	}
	return idx
}

// outNames lists the output keys of a plan's object for an error message,
// a merged entity's where it writes them: those of the nodes show accepts
// (all when it is nil).
func (mb *maskBuilder) outNames(p *objectPlan, show func(*node) bool) string {
	const most = 20
	var names []string
	var add func(p *objectPlan, depth int)
	add = func(p *objectPlan, depth int) {
		for _, n := range p.nodes {
			switch {
			case len(names) > most:
				return
			case show != nil && !show(n):
				continue
			case n.merge:
				if t, _ := mb.planOf(n); t != nil && depth < dsl.MaxSelectionDepth {
					add(t, depth+1)
				}
				continue
			}
			if q := strconv.Quote(jsonwire.ValidUTF8(n.out)); !slices.Contains(names, q) { // each key once, as written
				names = append(names, q)
			}
		}
	}
	add(p, 0)
	switch {
	case len(names) == 0:
		return "none"
	case len(names) > most:
		names = append(names[:most], "…")
	}
	return strings.Join(names, ", ")
}
