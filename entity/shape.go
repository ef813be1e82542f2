package entity

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/jsonwire"
)

// This file holds per-call shaping: which of an entity's fields one call
// writes. A selection (Select, Only, Except) is compiled once per entity
// and spec into a mask, cached; flags (With, WithContext) and a version
// (Version) are read once per call into the run. The walker reads them in
// appendShaped; an entity without `lazy`, `if`, `unless`, `since`,
// `until`, `omitnil`, `omitempty`, `readonly`, `writeonly` or `merge`, in a
// call without a selection, never reaches it.

// Select makes a call write only the fields spec names, in the grammar of
// Google APIs' partial responses, for a `fields` query parameter passed
// straight in:
//
//	a,b        fields a and b
//	a/b        field b of a (a group, a $ref, or a list of $refs)
//	a(b,c)     fields b and c of a
//	*          every field of a level (but the lazy ones)
//
// Names are output names (after rename and the registry's key case). A
// group or $ref selected without a sub-selection is written whole (its
// lazy fields left out); a lazy field is written only when named. The
// empty spec selects nothing away: it is the call without Select.
//
// A spec that does not parse, or names a field the entity does not have,
// fails the call at once with an *InputError (400, wrapping
// ErrInvalidFields) whose message says what is wrong at its byte offset
// (Offset, HasOffset), quoting nothing of the spec. Specs longer than 4096 bytes or nested more than
// 64 levels are refused the same way.
//
// On a response, fields that are not selected are neither read, converted,
// checked nor written: a selection saves work. On a request (MakeRequest,
// Bind) every declared field is still read and checked, so that a client
// can never skip `req`: the selection only shapes what is returned.
//
// Each spec is compiled once per entity into a mask kept in a cache of at
// most 256 specs per entity (a client sending endless different specs
// costs a compile each, never memory without bound); a call with a spec
// already seen allocates nothing for it.
func Select(spec string) Option { return Option{kind: optSelect, str: spec} }

// Only is Select for code: it writes only the fields at the dotted output
// paths given (list.details.mail; `\.` is a dot within a name; `*` as the
// last step selects every field of that level). A path the entity does not
// have is a programming error: the call fails with an error wrapping
// ErrUnknownField (500 in Write). Only and Select may not be combined.
func Only(paths ...string) Option { return Option{kind: optOnly, list: paths} }

// Except leaves out the fields at the dotted output paths given, from
// what the call would write otherwise (everything, or what Select or Only
// selects). An unknown path is an error wrapping ErrUnknownField.
func Except(paths ...string) Option { return Option{kind: optExcept, list: paths} }

// With sets flags for one call: a field whose rules say `if 'admin'` is
// written only in calls that set admin (or another flag its `if` names),
// one with `unless 'guest'` is left out of calls that set guest. Flags
// apply to nested groups and referenced entities at any depth. Every flag
// must be declared first (Registry.DeclareFlags): a call naming one that
// is not fails with an error wrapping ErrUnknownFlag, so that a misspelled
// flag can never expose a field. Several With options add up.
func With(flags ...string) Option { return Option{kind: optWith, list: flags} }

// WithContext sets the flags stored in ctx by NewContext, as With does:
// middleware sets a request's roles once, handlers pass r.Context(). It
// also binds a stream to ctx: EncodeSeq stops when ctx is done.
//
// Unlike With, it ignores a flag the registry has not declared: one
// middleware may set flags for every registry of a server, and a flag no
// declaration names can show no field (Verify refuses undeclared flags in
// rules), so ignoring it fails closed.
func WithContext(ctx context.Context) Option {
	return Option{kind: optWithContext, list: FlagsFromContext(ctx), ctx: ctx}
}

// flagsKey is the context key of NewContext's flags.
type flagsKey struct{}

// NewContext returns a copy of ctx holding flags, added to those ctx
// already holds, for WithContext.
func NewContext(ctx context.Context, flags ...string) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	all := slices.Concat(FlagsFromContext(ctx), flags)
	return context.WithValue(ctx, flagsKey{}, slices.Compact(sortedCopy(all)))
}

// FlagsFromContext returns the flags NewContext stored in ctx, sorted; nil
// when there are none. The slice is shared: do not modify it.
func FlagsFromContext(ctx context.Context) []string {
	if ctx == nil {
		return nil
	}
	f, _ := ctx.Value(flagsKey{}).([]string)
	return f
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// Version sets the API version of one call, for fields declared with
// `since 'v2'` (written to calls of v2 and later) and `until 'v3'` (to
// calls before v3). A version is a dotted list of at most 4 numbers with
// an optional leading v: v2, 2.1, v2.10 (numbers compare numerically, so
// v2.10 is after v2.9, and missing numbers are 0: v2 is v2.0). Versions
// usually come from the client, so a malformed one fails the call with an
// *InputError (400, wrapping ErrInvalidVersion), whose message does not
// quote it. A call without Version
// writes every field; where two fields share an output key by disjoint
// version ranges, it writes the one of the latest range. The empty string
// is no version.
func Version(v string) Option { return Option{kind: optVersion, str: v} }

// ---- Flags

// maxFlags is how many flags a registry knows: a call's flags are bits.
const maxFlags = 64

// flagTable is a registry's flags: every name declared or named by a rule,
// numbered, and which of them are declared. It is replaced, never
// modified, so that calls read it without a lock.
type flagTable struct {
	bit      map[string]uint8
	names    []string // by bit
	declared uint64
}

// DeclareFlags declares the flags the registry's declarations and calls
// may name (`if 'admin'`, With("admin")). Once any is declared, Expose
// refuses a rule naming a flag that is not; Verify refuses every undeclared
// flag whenever it runs, so that declarations exposed before (package-level
// variables run before init) are checked too. A registry knows at most 64
// flags; a flag is a non-empty name.
func (r *Registry) DeclareFlags(names ...string) error {
	if r == nil {
		return errNilRegistry
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.flags.Load().clone()
	for _, name := range names {
		b, err := t.add(name)
		if err != nil {
			return fmt.Errorf("entity: DeclareFlags: %w", err)
		}
		t.declared |= 1 << b
	}
	r.flags.Store(t)
	return nil
}

// declaredNames returns the names of the declared flags, by bit.
func (t *flagTable) declaredNames() []string {
	var out []string
	for b, name := range t.list() {
		if t.declared&(1<<b) != 0 {
			out = append(out, name)
		}
	}
	return out
}

func (t *flagTable) list() []string {
	if t == nil {
		return nil
	}
	return t.names
}

func (t *flagTable) clone() *flagTable {
	c := &flagTable{bit: map[string]uint8{}}
	if t != nil {
		for k, v := range t.bit {
			c.bit[k] = v
		}
		c.names = slices.Clone(t.names)
		c.declared = t.declared
	}
	return c
}

// add numbers a flag, if it is new.
func (t *flagTable) add(name string) (uint8, error) {
	if b, ok := t.bit[name]; ok {
		return b, nil
	}
	switch {
	case strings.TrimSpace(name) == "":
		return 0, errors.New("a flag is a non-empty name")
	case len(t.names) >= maxFlags:
		return 0, fmt.Errorf("flag %q would be the %dth: a registry knows at most %d", name, maxFlags+1, maxFlags)
	}
	b := uint8(len(t.names))
	t.bit[name] = b
	t.names = append(t.names, name)
	return b, nil
}

// declaredBit returns the bit of a declared flag.
func (t *flagTable) declaredBit(name string) (uint8, bool) {
	if t == nil {
		return 0, false
	}
	b, ok := t.bit[name]
	return b, ok && t.declared&(1<<b) != 0
}

// ---- Versions

// maxVersionParts is how many numbers a version has at most.
const maxVersionParts = 4

// version is a parsed version: its numbers, the missing ones 0.
type version struct {
	part [maxVersionParts]uint32
	set  bool
}

// parseVersion reads a version: an optional v or V, then dotted decimal
// numbers of at most 9 digits.
func parseVersion(s string) (version, bool) {
	var v version
	if s != "" && (s[0] == 'v' || s[0] == 'V') {
		s = s[1:]
	}
	n, digits := 0, 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if digits == 0 || i < len(s) && n+1 == maxVersionParts {
				return version{}, false
			}
			n, digits = n+1, 0
			continue
		}
		c := s[i] - '0'
		if c > 9 || digits == 9 {
			return version{}, false
		}
		v.part[n] = v.part[n]*10 + uint32(c)
		digits++
	}
	v.set = true
	return v, true
}

// compare returns -1, 0 or +1 as v is before, the same as or after w.
func (v version) compare(w version) int {
	for i := range v.part {
		switch {
		case v.part[i] < w.part[i]:
			return -1
		case v.part[i] > w.part[i]:
			return 1
		}
	}
	return 0
}

// ---- Conditions

// shown reports whether a node of condition c is written in this call.
func (r *run) shown(c *condition) bool { return c.shownFor(r.flags, r.ver) }

// shownFor reports whether a node of condition c is written in a call of
// these flags and version: its flags hold, and its version range holds
// the version; a call without a version writes the latest range its flags
// show.
func (c *condition) shownFor(flags uint64, ver version) bool {
	switch {
	case !c.flagged(flags):
		return false
	case !ver.set:
		for _, l := range c.later {
			if l.flagged(flags) {
				return false // a later version of the key is written
			}
		}
		return true
	case c.since.set && ver.compare(c.since) < 0, c.until.set && ver.compare(c.until) >= 0:
		return false
	}
	return true
}

// ---- The run's shape

// shape reads the call's shaping options for entity e: its flags, its
// version and its mask. A bad option ends the call before it starts.
func (r *run) shape(e *Entity, opts []Option) {
	// The selection's cache key: each part its kind, its length and its
	// bytes, so that no two selections have one key. Built on the stack, or
	// in a pooled buffer when longer.
	var arr [256]byte
	key := arr[:0]
	var pooled *[]byte
	defer func() {
		if pooled != nil {
			putScratch(pooled)
		}
	}()
	part := func(kind byte, s string) {
		if len(key)+len(s)+binary.MaxVarintLen64+1 > cap(key) && pooled == nil {
			pooled = scratchPool.Get().(*[]byte)
			key = append((*pooled)[:0], key...)
		}
		key = append(binary.AppendUvarint(append(key, kind), uint64(len(s))), s...)
	}
	selects := 0
	for _, o := range opts {
		switch o.kind {
		case optSelect:
			if o.str != "" {
				selects++
				part('S', o.str)
			}
		case optOnly, optExcept:
			kind := byte('E')
			if o.kind == optOnly {
				selects++
				kind = 'O'
			}
			part(kind, "")
			for _, p := range o.list {
				part('.', p)
			}
		case optWith, optWithContext:
			t := e.reg.flags.Load()
			for _, name := range o.list {
				b, ok := t.declaredBit(name)
				switch {
				case ok:
					r.flags |= 1 << b
				case o.kind == optWith:
					r.stopWith(fmt.Errorf("%w %q in With: declare it with Registry.DeclareFlags", ErrUnknownFlag, name))
					return
				}
			}
		case optVersion:
			if o.str == "" {
				continue
			}
			v, ok := parseVersion(o.str)
			if !ok {
				r.stopWith(newInputError(ErrInvalidVersion, "problem.version", nil)) // nothing of the client's text
				return
			}
			r.ver = v
		}
	}
	switch {
	case selects > 1:
		r.stopWith(fmt.Errorf("entity: entity %q: a call takes one Select or Only, not several", e.name))
		return
	case len(key) == 0:
		return
	}
	// A selection is compiled for the call's flags, version and direction:
	// to a client, a field they hide does not exist (see
	// maskBuilder.visible).
	var fl [9 + maxVersionParts*4]byte
	binary.LittleEndian.PutUint64(fl[:], r.flags)
	fl[8] = byte(r.dir)
	if r.ver.set {
		fl[8] |= 2
		for i, p := range r.ver.part {
			binary.LittleEndian.PutUint32(fl[9+4*i:], p)
		}
	}
	part('F', string(fl[:]))
	m := e.cache.masks.lookup(e, key)
	if m == nil {
		var err error
		sel := selectionOf(opts)
		sel.flags, sel.ver, sel.dir = r.flags, r.ver, r.dir
		if m, err = e.cache.masks.compile(e, key, sel); err != nil {
			r.stopWith(err)
			return
		}
	}
	r.mask = m.root
	for _, d := range m.deps {
		r.pin(d.s, d.e)
	}
}

// selection is what a call's Select, Only and Except options say, copied
// out of them (so that the options never escape: With's flags are then
// free to stay on the caller's stack).
type selection struct {
	spec         string // Select's
	only, except []string
	hasSpec      bool
	hasOnly      bool
	flags        uint64    // the call's (see maskBuilder.visible)
	ver          version   // likewise
	dir          direction // the view the call walks
}

func selectionOf(opts []Option) selection {
	var s selection
	for _, o := range opts {
		switch {
		case o.kind == optSelect && o.str != "":
			s.spec, s.hasSpec = strings.Clone(o.str), true
		case o.kind == optOnly:
			s.hasOnly = true
			for _, p := range o.list {
				s.only = append(s.only, strings.Clone(p))
			}
		case o.kind == optExcept:
			for _, p := range o.list {
				s.except = append(s.except, strings.Clone(p))
			}
		}
	}
	return s
}

// stopWith ends the run before it starts, with err.
func (r *run) stopWith(err error) {
	r.fatal, r.stop = err, true
}

// ---- Masks

// mask is a compiled selection of one output object (plan): which of its
// nodes are written. Entries name nodes by index, in order; a node without
// one is written when star is set and it is not lazy.
type mask struct {
	plan *objectPlan
	star bool
	ents []maskEntry
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

// maskCache holds an entity's compiled selections by spec.
type maskCache struct {
	mu sync.RWMutex
	m  map[string]*compiledMask
}

// maxCachedMasks is how many selections an entity keeps compiled.
const maxCachedMasks = 256

// lookup returns the compiled selection cached under key, if it is still
// fresh.
func (c *maskCache) lookup(e *Entity, key []byte) *compiledMask {
	c.mu.RLock()
	m := c.m[string(key)]
	c.mu.RUnlock()
	if m != nil && m.fresh(e) {
		return m
	}
	return nil
}

// compile compiles a selection and caches it under key.
func (c *maskCache) compile(e *Entity, key []byte, sel selection) (*compiledMask, error) {
	b := maskBuilder{e: e, flags: sel.flags, ver: sel.ver, dir: sel.dir}
	root, err := b.build(sel)
	if err != nil {
		return nil, err
	}
	m := &compiledMask{root: root.freeze(map[*building]*mask{}), deps: b.deps}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*compiledMask{}
	}
	if len(c.m) >= maxCachedMasks {
		for k := range c.m { // map order is random: a random victim
			delete(c.m, k)
			break
		}
	}
	c.m[string(key)] = m
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
		}
		m.ents = append(m.ents, me)
	}
	return m
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
	return root, nil
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
		return &selErr{nm.Offset, "problem.fields.unknown", map[string]any{"names": b.plan.outNames(mb.visible)}}
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
	for i, be := range b.ents {
		if !b.plan.nodes[i].lazy {
			be.on = true
		}
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
	be.on = true
	return be.sub, ""
}

// planOf returns the plan of a group's or a $ref's output object, nil for
// a value field; a $ref to no entity is an error.
func (mb *maskBuilder) planOf(n *node) (*objectPlan, string) {
	switch n.kind {
	case nodeGroup:
		return n.group, ""
	case nodeRef:
		if n.ref == mb.e.slot {
			return mb.e.view(mb.dir), ""
		}
		for _, d := range mb.deps {
			if d.s == n.ref {
				return d.e.view(mb.dir), ""
			}
		}
		t := n.ref.e.Load()
		if t == nil { // the server's declarations are at fault: Check reports it
			return nil, fmt.Sprintf("%q has no fields to select", n.out)
		}
		mb.deps = append(mb.deps, pinned{n.ref, t})
		return t.view(mb.dir), ""
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
		idx := b.plan.named(name)
		if len(idx) > 1 { // fields sharing the key by version: the one the call sees
			if vis := slices.DeleteFunc(slices.Clone(idx), func(i int) bool { return !mb.visible(b.plan.nodes[i]) }); len(vis) > 0 {
				idx = vis
			} else {
				idx = idx[:1]
			}
		}
		if len(idx) == 0 {
			if i := mb.mergedWith(b.plan, name, nil, 0); i >= 0 { // a key a merged $ref writes here
				if sub := step(b, i, b.entry(i)); sub != nil {
					return walk(sub, names)
				}
				return nil // left out already
			}
			return fmt.Errorf("%w: entity %q has no field at %q: no %q here (there are %s)", ErrUnknownField, mb.e.name, full, name, b.plan.outNames(nil))
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

// named returns the indexes of the plan's nodes writing key out: one, or
// several fields of disjoint version ranges.
func (p *objectPlan) named(out string) []int {
	var idx []int
	for i, n := range p.nodes {
		if n.out == out || jsonwire.ValidUTF8(n.out) == out { // as written, invalid UTF-8 as U+FFFD
			idx = append(idx, i)
		}
	}
	return idx
}

// outNames lists a plan's output keys for an error message: those of the
// nodes show accepts (all when it is nil).
func (p *objectPlan) outNames(show func(*node) bool) string {
	var names []string
	for _, n := range p.nodes {
		if show != nil && !show(n) {
			continue
		}
		if q := strconv.Quote(jsonwire.ValidUTF8(n.out)); !slices.Contains(names, q) { // each key once, as written
			names = append(names, q)
		}
		if len(names) == 20 {
			names = append(names, "…")
			break
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// made returns how the run shaped what it wrote, for the Objects made of
// it: nil for a call without shaping options (an allocation for one
// with them).
func (r *run) made() *objectMade {
	if !r.cfg.shaped {
		return nil
	}
	return &objectMade{ver: r.ver, flags: r.flags}
}

// DeclaredFlags returns the registry's declared flags, sorted.
func (r *Registry) DeclaredFlags() []string {
	if r == nil {
		return nil
	}
	t := r.flags.Load()
	var out []string
	for b, name := range t.list() {
		if t.declared&(1<<b) != 0 {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
