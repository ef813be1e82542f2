package engine

import (
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/msgtext"
	"github.com/expose-go/expose/rules"
)

// The plan: what Expose compiles a declaration into and Make runs. Nothing
// in it is looked up by name at run time: keys are pre-escaped bytes, rules
// are compiled Checkers, references are pointers to registry slots.

// nodeKind says what a node writes: the kind of the field it was compiled
// from (dsl.FieldKind, where the kinds are defined).
type nodeKind = dsl.FieldKind

const (
	nodeValue = dsl.FieldValue // a converted, checked value
	nodeGroup = dsl.FieldGroup // an output object read from the same input
	nodeRef   = dsl.FieldRef   // an object or list made with another entity
)

// objectPlan is one output object of one direction: its fields in
// output order, and the table of the input object it reads.
type objectPlan struct {
	nodes  []*node
	ent    *Entity     // the entity whose root the plan is; nil for a group's
	owner  *Entity     // the entity the plan belongs to (a group's too)
	in     *inputTable // the input object its nodes read: a group of the response view shares its parent's
	dir    direction   // the view it belongs to
	shaped bool        // a node is lazy, conditional, omitted when empty or merged: see appendShaped
	// verbatim, in a view that takes values as stored (dirStored, and a
	// patch view's readonly objects), says that reading an object the view
	// wrote in the wire form writes it again byte for byte: its nodes are
	// plain values of strings, numbers and booleans, with no format,
	// omission or condition. A patch's member of the current value read
	// with such a plan is copied as it is (appendShaped).
	verbatim bool
	// conds: a node of it or of its groups has a condition (if, unless,
	// since, until), which a call's flags and version decide: such a
	// plan is pruned for them (compile_prune.go).
	conds bool
	// mayHoldImmutable: an immutable field is among its nodes or its
	// groups', or a $name's object may hold one (a null for the object
	// in a merge patch is then judged: see merger.clearsImmutable).
	mayHoldImmutable bool

	// cross holds the cross-field rules of its fields (compile_cross.go).
	cross []*crossRule

	// checksUnknown: DenyUnknown judges the keys of the object it reads
	// (an entity's, and a group's of a request view, which reads an
	// object of its own).
	checksUnknown bool

	// params are the top-level fields a request view reads from the
	// request itself (path, query, header, cookie), not from its body.
	params []*node

	// left are the base nodes of this object that the view leaves out
	// for the other direction (writeonly in a response, readonly in a
	// request): declared, so that a path of code's Only or Except may
	// name them, selecting nothing (compile_mask.go). Nothing walks them.
	left []*node

	head *node // nodes[0], the first of the chain of next (nil when none)

	// bind is Bind's plan for the Go type a call bound its objects to
	// last (bindPlanFor has the others).
	bind atomic.Pointer[bindPlan]
}

// chain links p's nodes in order (head, next), as the walk follows them.
func (p *objectPlan) chain() {
	p.head = nil
	for i, n := range p.nodes {
		if i == 0 {
			p.head = n
		} else {
			p.nodes[i-1].next = n
		}
	}
}

// direction is one way data goes through an entity: a response writes
// what the server has, a request reads what a client sent. Each entity
// compiles one view of its declaration for each (compile_view.go): the
// response view has no writeonly field, the request view no readonly one
// (their keys are ignored keys) and reads the wire form, so that no
// check made at run time decides what a direction may see.
type direction uint8

const (
	dirResponse direction = iota
	dirRequest
	// The view of a merge patch (patch.go), made on first need: the
	// merged value read in the wire form, as a request is, with every
	// field, readonly and writeonly alike.
	dirPatch
	// The view a merge patch reads the current value with (patch.go),
	// made on first need: the response view without a rule, a
	// transform, a default, an omission or a lazy field, so that it
	// writes the stored value in the wire form as it is, judging
	// nothing.
	dirCurrent
	// The view of a readonly $name's object in a merge patch's merged
	// value (patch.go), made on first need: the patch view without its
	// writeonly fields and without anything that judges a value, since
	// every value there is the server's, taken from the current value as
	// it is.
	dirStored
)

// responds reports whether a view of direction d reads server data: the
// response view, and the one a merge patch reads its current value with.
func (d direction) responds() bool { return d == dirResponse || d == dirCurrent }

// merged reports whether a view of direction d reads a merge patch's
// merged value (as a request is read: responds is false).
func (d direction) merged() bool { return d == dirPatch || d == dirStored }

// inputTable numbers the distinct keys one input object is read by: the
// slots raw JSON objects and structs are read into, their lookup table,
// and for DenyUnknown the conditions under which each is read.
type inputTable struct {
	slots  map[string]int
	nslots int
	keys   jsontape.KeyTable
	// conds holds, per slot, the conditions under which each node reading
	// it is read, when every one has some (see unknown.go); nil when no
	// node has a condition.
	conds [][][]*condition
	// Keys of the other direction's fields (readonly keys in a request)
	// have slots too: read by no node, accepted by DenyUnknown.
	structPlans sync.Map // reflect.Type → *structPlan
	lastPlan    atomic.Pointer[structPlan]
}

// slot returns the slot of key, numbering new keys in order.
func (t *inputTable) slot(key string) int {
	if i, ok := t.slots[key]; ok {
		return i
	}
	i := t.nslots
	t.slots[key] = i
	t.nslots++
	return i
}

func newInputTable() *inputTable { return &inputTable{slots: map[string]int{}} }

// node is one output key and how to fill it.
type node struct {
	kind nodeKind
	in   string // input key (the declared field name)
	out  string // output key (after rename)
	key  []byte // `"out":` pre-escaped, with a leading comma unless first
	// keyPad is key padded to 16 bytes when it is no longer (keyShort),
	// for appendKey's single store.
	keyPad   [16]byte
	keyShort bool

	// next is the node after this one in its view's plan (nil for the
	// last): appendMap's loop follows it, keeping one pointer live where
	// a range over the plan's nodes keeps three.
	next *node

	// Value fields.
	typ       rules.Kind
	inChecks  []check   // judge the input value
	outChecks []check   // judge the converted value
	xforms    []xform   // change the converted value before outChecks (trim, lower…): transform.go
	each      *node     // a typed list ([]string): how each element is converted and checked; see list.go
	elemOf    *node     // an element node: the typed list it is each of
	refList   bool      // nodeRef written []$name: always a list
	refOne    bool      // nodeRef $name of a registry of SingleRefs: one object in responses too
	jsonTyped bool      // a request's body value given as its JSON type only, in a registry of JSONTypes (jsontypes.go)
	format    *format   // how the value is written (format unix…), or nil: format.go
	ruleNames []string  // every check's rule, implied ones included (for Fields)
	uses      []RuleUse // every rule it uses, as compiled (for Fields)
	fast      fastKind  // a fast path for map[string]any input, or fastNone
	strChecks []strCheck
	intChecks []intCheck // outChecks, when all are IntCheckers (fastIntChecked)
	req       bool
	secret    bool
	msg       *msgtext.Template // the field's own message (msg 'text'), or nil
	msgParams []RuleParam       // the params of all the field's rules, for msg's placeholders
	msgSafe   []RuleParam       // those of them that describe no value (QuotesNoValue), which a msg says under a secret

	// The default, when there is one, written as defJSON. A bare default on
	// a reference makes the entity from an empty input instead (refDefault).
	hasDefault bool
	defJSON    []byte
	defPad     [16]byte // defJSON padded, when it is no longer (defShort): see appendPadded
	defShort   bool
	refDefault bool
	defNull    bool // the default is null (a bare default on none): req still rejects

	group *objectPlan // nodeGroup
	ref   *slot       // nodeRef (nil for a union)
	union *unionPlan  // nodeRef of a union ($a|$b): its variants (union.go)
	// pruned, in a plan a selection was pruned into (compile_prune.go),
	// is the plan of the reference's own objects, walked instead of its
	// entity's view.
	pruned *objectPlan

	// Where the value is read from sources that are not maps: its index
	// in its plan's input table (JSON objects, structs), and, in a request
	// view, its canonical header name when it is read from the headers.
	// nested: a group of a request view, which reads the object under its
	// key (the wire form), where a response view's reads its parent's.
	slot   int
	header string
	nested bool
	src    srcKind // where a request reads it (compile_view.go)
	// crossDecls are its cross-field rules as declared (the compiler's);
	// crossIdx is its index among the nodes its plan's cross-field rules
	// track, or -1 (cross.go).
	crossDecls []crossDecl
	crossIdx   int8

	param string // the name its source directive gives, if any

	decl *dsl.Field // the field as declared, for errors and tools

	// What tools read (Field): the field's description (doc, or the
	// comment above it in a file) and its example, written as JSON.
	doc     string
	example []byte

	// Per-call shaping (shape.go): written only when a selection names it
	// (lazy), only when its condition holds (nil: always), and whether
	// another node writes the same key (in another version range).
	lazy   bool
	cond   *condition
	shared bool

	// The directives the walk reads: when the key is left out
	// (omitnil, omitempty), and the direction (readonly: never read from
	// a request; writeonly: never written by a response; immutable: set
	// once, then never changed by a patch).
	omit      omitKind
	readOnly  bool
	writeOnly bool
	// immutable: a merge patch may not change a value the current value
	// holds (see merger.once); a request that creates reads it as any.
	immutable bool
	merge     bool // a $ref whose object's keys are written into this one (merge.go)
	// refNested: a reference below its entity's top level (any but a
	// merged one there), whose entity a request reads with its nested
	// view (Entity.refView).
	refNested bool
	step      bool      // a from path's first node, when what it reads is stepped into or made (not a value field's value)
	from      *fromPath // where it reads its value, when not under its name (from.go)

	// asStored, in a patch view, is the node's twin that reads a member
	// the merger copied from the current value, taken as stored
	// (storedTwins); nil for a node that reads none, or reads it so
	// already.
	asStored *node

	// wire, in a response view, is the node as an Object of its entity is
	// read, in the wire form: under its key, which its errors' paths name
	// (in is out), never at its from path; nil when that is the node
	// itself.
	wire *node
}

// srcKind says where a request reads a top-level field: its body (or its
// query when it has no body), or the place its directive names (path,
// query, header, cookie; a field named X-… is a header field). The field's
// key then names the parameter there (header: its canonical name).
type srcKind uint8

const (
	srcBody srcKind = iota
	srcPath
	srcQuery
	srcHeader
	srcCookie
)

// srcNames are the places a FieldError's In names.
var srcNames = [...]string{srcPath: "path", srcQuery: "query", srcHeader: "header", srcCookie: "cookie"}

// omitKind says when a node's key is left out of its object.
type omitKind uint8

const (
	omitNone  omitKind = iota
	omitNil            // omitnil: when the value written is null
	omitEmpty          // omitempty: also "", 0, false, [] and {}
)

// omits reports whether the node leaves out a key whose value text is v.
func (n *node) omits(v []byte) bool {
	switch n.omit {
	case omitNil:
		return string(v) == "null"
	case omitEmpty:
		switch string(v) {
		case "null", `""`, "0", "false", "[]", "{}":
			return true
		}
		if c := v[0]; c == '-' || c >= '0' && c <= '9' { // 0.0, -0, 0e10, 0.00: zero however spelled
			f, err := strconv.ParseFloat(bytesString(v), 64)
			return err == nil && f == 0
		}
	}
	return false
}

// fastKind names a node's fast path: for the common case of a
// map[string]any holding a Go string or int, write it without building the
// general Value (see appendFast).
type fastKind uint8

const (
	fastNone       fastKind = iota
	fastString              // a string field whose checks are all StringCheckers
	fastInt                 // a number field without checks
	fastIntChecked          // a number field whose checks all judge the converted value (no transform)
)

// isInt reports whether the fast path is a number field's.
func (k fastKind) isInt() bool { return k >= fastInt }

// strCheck is a check of a fast string field.
type strCheck struct {
	rule    string
	c       rules.StringChecker
	noPanic bool // see rules.Def.NoPanic
	info    *ruleInfo
}

// intCheck is a check that judges a bare integer (rules.IntChecker).
type intCheck struct {
	rule    string
	c       rules.IntChecker
	noPanic bool // see rules.Def.NoPanic
	info    *ruleInfo
}

// check is one compiled rule.
type check struct {
	rule    string // the rule's own name (an alias's too), lower-cased
	c       rules.Checker
	noPanic bool // see rules.Def.NoPanic
	info    *ruleInfo
}

// ruleInfo is what a failing check reports besides its error: its code
// and its params, computed once at compile time and read only. A failure
// copies the params into a map of its own (see paramMap).
type ruleInfo struct {
	code   string
	params []RuleParam
	exact  bool // range with equal bounds: its messages say "exactly"
}

// RuleParam is one named argument of a rule's use.
type RuleParam struct {
	Name  string
	Value any // int64, float64 or string: see typedArg
}

// paramMap returns a new map of the params, or nil when there are none.
func (ri *ruleInfo) paramMap() map[string]any {
	if ri == nil || len(ri.params) == 0 {
		return nil
	}
	m := make(map[string]any, len(ri.params))
	for _, p := range ri.params {
		if l, ok := p.Value.([]any); ok { // the values of `in`: the failure's own too
			p.Value = append([]any(nil), l...)
		}
		m[p.Name] = p.Value
	}
	return m
}

// slot holds the entity registered under one name. References point at the
// slot, not at the entity, so that an entity may be referenced before it is
// declared and replaced atomically later.
type slot struct {
	name string
	e    atomic.Pointer[Entity]
}

// Entity is a compiled declaration: its plans, and what it makes on first
// need. It is immutable (but for its cache, which is safe for concurrent
// use). Package entity's Entity is the handle around it.
type Entity struct {
	name string
	slot *slot // the registry slot it was exposed in
	env  *Env
	// decl is the declaration compiled, base the plan of every declared
	// field (what Verify, merges and extensions read), views the plan of
	// each direction, which calls run.
	decl  *dsl.Entity
	base  *objectPlan
	views [2]*objectPlan
	// nested is views as a reference reads them below the top level of a
	// call (refView): its request view is another only when the entity
	// has a parameter field, or a merged reference at its top level,
	// whose entity may have some.
	nested [2]*objectPlan
	refs   []*node // every reference node, for Verify
	// unions are its union nodes ($a|$b), for Verify.
	unions []*node

	// What the entity makes on first need and keeps (the merge patch's
	// views, the compiled selections), shared by its handles.
	cache *entityCache

	methods []string // HTTP methods a request may have; empty for any
	forms   bool     // a request reads a form body (the word form among the methods)

	merges   bool       // a plan of it merges a $ref (merge.go)
	newFlags *flagTable // flags its rules named first, kept by a change that stores it (condition.go)

	// Handle is the API's handle of the entity (package entity's
	// *Entity), set once, before the entity is stored.
	Handle any
}

// view returns the root plan of direction d.
func (e *Entity) view(d direction) *objectPlan {
	if d <= dirRequest {
		return e.views[d]
	}
	return e.patchView(d)
}

// refView returns the view of direction d a reference reads e with,
// below the top level of a call when nested says so. A request's
// parameters are its top level's: an object below it holds no parameter
// field, so that there, in a request's view and a patch's, e's parameter
// fields are the server's, as readonly fields are (compile_view.go). An
// entity without parameter fields (nor a merged reference at its top
// level) has one view of each direction.
func (e *Entity) refView(d direction, nested bool) *objectPlan {
	if d <= dirRequest { // the common cases, inlined
		if nested {
			return e.nested[d]
		}
		return e.views[d]
	}
	return e.patchRefView(d, nested)
}

// patchRefView is refView for a merge patch's directions (apart, so that
// refView stays small enough to inline).
//
//go:noinline
func (e *Entity) patchRefView(d direction, nested bool) *objectPlan {
	if nested && d == dirPatch && e.nested[dirRequest] != e.views[dirRequest] {
		v := &e.cache.views[nestedPatch]
		v.once.Do(func() { v.plan = buildView(e, dirPatch, true) })
		return v.plan
	}
	return e.patchView(d)
}

// patchView returns a view of a merge patch (dirPatch, dirCurrent,
// dirStored), compiling it on first need (an entity that is never patched
// pays nothing for them).
//
//go:noinline
func (e *Entity) patchView(d direction) *objectPlan {
	v := &e.cache.views[d-dirPatch]
	v.once.Do(func() { v.plan = buildView(e, d, false) })
	return v.plan
}

// nestedPatch is the index in entityCache.views of the nested patch view
// (refView).
const nestedPatch = dirStored - dirPatch + 1

// entityCache is what an entity makes on first need and keeps.
type entityCache struct {
	views [4]lazyView // dirPatch, dirCurrent, dirStored (see view), then the nested patch view (refView)
	masks maskCache   // compiled selections (compile_mask.go)
}

// lazyView is a view compiled on first need.
type lazyView struct {
	once sync.Once
	plan *objectPlan
}

// Name returns the name the entity was exposed under.
func (e *Entity) Name() string { return e.name }

// Decl returns a copy of the parsed declaration the entity was compiled
// from: the caller's to modify.
func (e *Entity) Decl() *dsl.Entity { return e.decl.Clone() }

// DeclRef returns the parsed declaration itself, for reading only.
func (e *Entity) DeclRef() *dsl.Entity { return e.decl }

// Forms reports whether a request reads a form body (the word form among
// the methods).
func (e *Entity) Forms() bool { return e.forms }

// Methods returns the HTTP methods a request may have (empty: any); the
// slice is the entity's, for reading only.
func (e *Entity) Methods() []string { return e.methods }
