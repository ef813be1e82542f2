package entity

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/suggest"
	"github.com/expose-go/expose/rules"
)

// Registry holds named entities and the rules their declarations may use.
// Entities reference each other by name within one registry. A Registry is
// safe for concurrent use: Expose, Make and rule registration may run at
// the same time. Create one with NewRegistry.
type Registry struct {
	rules   *rules.Set
	limits  atomic.Pointer[Limits]    // in force, defaults filled in (configure.go); nil: the defaults
	mu      sync.Mutex                // serializes the changes of the registry: Expose, Extend, LoadFS, Configure, SetMessages
	keyCase KeyCaseStyle              // guarded by mu; see KeyCase
	msgs    atomic.Pointer[catalogs]  // nil: the built-in messages (see SetMessages)
	slots   sync.Map                  // name → *slot
	flags   atomic.Pointer[flagTable] // DeclareFlags' and the rules' flags (condition.go); nil: none

	// Guarded by mu: how Extend declared each extension and, by base, the
	// extensions of each entity (extend.go); by entity, the entities its
	// plans merge and, by entity merged, the entities that merge it
	// (merge.go); the change being made, whose entities compile sees
	// before they are stored (change.go).
	exts       map[string]*extension
	extendedBy map[string]map[string]bool
	mergesOf   map[string][]string
	mergedBy   map[string]map[string]bool
	staging    map[string]*Entity

	parent *Registry // a scratch registry's (load.go): its slots start with the parent's entities
	// singleRefs: every $name holds one object in responses too
	// (SingleRefs), guarded by mu; set before anything is exposed.
	singleRefs bool

	problemBase atomic.Pointer[string]                                    // ProblemTypeBase's; nil: the default
	serverLog   atomic.Pointer[func(id string, err error)]                // ServerErrors', the log hook of 500s (problem.go); nil: none
	pathValues  atomic.Pointer[func(r *http.Request, name string) string] // PathValues'; nil: http.Request.PathValue

	fmu     sync.RWMutex
	formats map[string]*formatDef // RegisterFormat's (format.go), guarded by fmu
}

// errNilRegistry is what a nil *Registry's methods that can fail return.
var errNilRegistry = errors.New("entity: nil *Registry: create one with NewRegistry")

// NewRegistry returns an empty registry with the built-in rules and the
// settings opts give (see RegistryOption), such as
// NewRegistry(KeyCase(CamelCase), Limits{Depth: 16}). Those not given are
// the defaults: keys as declared, the limits Limits documents,
// problem types under "/problems/", no server error log. A key case style
// that is not one of the constants makes every Expose of the registry
// fail.
func NewRegistry(opts ...RegistryOption) *Registry {
	r := &Registry{rules: rules.Builtin()}
	c := configOf(opts)
	r.apply(&c)
	return r
}

// Rules returns the registry's rule set. Rules registered in it may be used
// by declarations exposed afterwards.
func (r *Registry) Rules() *rules.Set {
	if r == nil {
		return nil
	}
	return r.rules
}

// RegisterRule adds a custom rule, usable by name in declarations exposed
// afterwards. See rules.Def.
func (r *Registry) RegisterRule(d rules.Def) error {
	if r == nil {
		return errNilRegistry
	}
	return r.rules.Register(d)
}

// slotFor returns the slot for name, creating an empty one.
func (r *Registry) slotFor(name string) *slot {
	if s, ok := r.slots.Load(name); ok {
		return s.(*slot)
	}
	n := &slot{name: name}
	if r.parent != nil {
		n.e.Store(r.parent.Lookup(name))
	}
	s, _ := r.slots.LoadOrStore(name, n)
	return s.(*slot)
}

// Expose parses and compiles a declaration of field, type, rules triples
// and registers it under name, replacing (atomically, for references too)
// any entity of that name. A declaration error is a dsl.ErrorList listing
// every problem found.
//
// Exposing an entity again compiles again, in the same step, every
// extension of it (see Extend), and checks that the entities that merge
// it, or any of them, write no key twice: when one of them would fail,
// Expose changes nothing and its errors name them.
func (r *Registry) Expose(name string, decl ...string) (*Entity, error) {
	if r == nil {
		return nil, errNilRegistry
	}
	tree, perr := dsl.ParsePartial(name, decl...)
	r.mu.Lock()
	defer r.mu.Unlock()
	ch := r.begin()
	defer ch.end()
	e, err := compile(r, tree)
	if perr != nil {
		// The rules of the triples that parsed are compiled too, so that
		// one syntax error hides no other error.
		l := perr.(dsl.ErrorList)
		var cl dsl.ErrorList
		if errors.As(err, &cl) {
			l = append(l, cl...)
			l.Sort()
		}
		return nil, l
	}
	if err != nil {
		return nil, err
	}
	ch.stage(e)
	ch.endExtension(name) // exposed as declared: no longer an extension
	if err := ch.commit(name, "exposed"); err != nil {
		return nil, err
	}
	return e, nil
}

// keepFlags makes the flags e's rules named first the registry's. A
// compile numbers new flags in a copy of the registry's table, so that
// only a declaration that is exposed adds any (a change that fails puts
// the registry's table back: see change.end).
func (r *Registry) keepFlags(e *Entity) {
	if e.newFlags != nil {
		r.flags.Store(e.newFlags)
		e.newFlags = nil
	}
}

// MustExpose is like Expose but panics with every declaration error. It is
// meant for package-level variables and init.
func (r *Registry) MustExpose(name string, decl ...string) *Entity {
	e, err := r.Expose(name, decl...)
	if err != nil {
		panic(fullError(err))
	}
	return e
}

// fullError renders every error of a list, one per line.
func fullError(err error) string {
	var l dsl.ErrorList
	if !errors.As(err, &l) {
		return err.Error()
	}
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Lookup returns the entity registered under name, or nil.
func (r *Registry) Lookup(name string) *Entity {
	if r == nil {
		return nil
	}
	if s, ok := r.slots.Load(name); ok {
		return s.(*slot).e.Load()
	}
	return r.parent.Lookup(name)
}

// MustLookup returns the entity registered under name, and panics when
// there is none, naming the registered names nearest to it ("did you mean
// \"customer\"?"). It is meant for package-level variables and init, so that
// a misspelled name fails at start-up rather than on every call.
func (r *Registry) MustLookup(name string) *Entity {
	if e := r.Lookup(name); e != nil {
		return e
	}
	panic(unknownEntityMessage("MustLookup", name, r.Names()))
}

// unknownEntityMessage says that no entity is exposed under name, with the
// names nearest to it among names.
func unknownEntityMessage(op, name string, names []string) string {
	msg := fmt.Sprintf("entity: %s(%q): no entity %q is exposed", op, name, name)
	near := nearNames(name, names)
	switch {
	case len(names) == 0:
		return msg + " (the registry exposes none)"
	case len(near) > 0:
		q := make([]string, len(near))
		for i, n := range near {
			q[i] = strconv.Quote(n)
		}
		return msg + "; did you mean " + strings.Join(q, " or ") + "?"
	}
	return msg
}

// nearNames returns the names of names at most a third of name's length
// of edits away from it (at least one), or equal but for case, nearest
// first; at most 3.
func nearNames(name string, names []string) []string {
	type near struct {
		name string
		d    int
	}
	limit := max(1, utf8.RuneCountInString(name)/3)
	var found []near
	for _, n := range names {
		d := editDistance(strings.ToLower(name), strings.ToLower(n), limit)
		if d <= limit {
			found = append(found, near{n, d})
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].d < found[j].d })
	var out []string
	for _, f := range found[:min(len(found), 3)] {
		out = append(out, f.name)
	}
	return out
}

// editDistance returns the Levenshtein distance of a and b in runes, or
// limit+1 when it is larger than limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			low = min(low, cur[j])
		}
		if low > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Names returns the names of the registered entities, sorted.
func (r *Registry) Names() []string {
	if r == nil {
		return nil
	}
	var names []string
	r.slots.Range(func(k, v any) bool {
		if v.(*slot).e.Load() != nil {
			names = append(names, k.(string))
		}
		return true
	})
	sort.Strings(names)
	return names
}

// Verify reports, all at once as a dsl.ErrorList, what Expose cannot know
// because references may point forward: every `$ref` of every registered
// entity that names no entity; every bare default on a `$ref` whose entity
// fails when made from an empty input, by a response (a `req` field
// without a default) or by a request (also a `req` field that is lazy or
// writeonly, which a request reads), since that default would fail on
// every call; every merge that writes a key twice; and every flag an `if`
// or `unless` names that the registry has not declared (DeclareFlags).
// Call it once every declaration is exposed.
func (r *Registry) Verify() error {
	if r == nil {
		return errNilRegistry
	}
	var es []*Entity
	for _, name := range r.Names() {
		if e := r.Lookup(name); e != nil {
			es = append(es, e)
		}
	}
	errs := checkEntities(es)
	errs.Sort()
	return errs.Err()
}

// checkEntities reports, for Verify and LoadFS, the references of es that
// name no entity, the bare defaults on references that fail, the merges
// that write a key twice and the flags not declared.
func checkEntities(es []*Entity) dsl.ErrorList {
	var errs dsl.ErrorList
	type probe struct {
		e       *Entity
		request bool
	}
	probed := map[probe]error{}       // each entity is made from {} once a direction
	names := map[*Registry][]string{} // the entities a misspelt $ref may have meant
	for _, e := range es {
		e.checkFlags(&errs)
		e.checkMergesOf(&errs)
		for _, n := range e.refs {
			target := n.ref.e.Load()
			pos := n.decl.Pos // the field's place, in triples or in a file
			pos.Part, pos.Offset = dsl.PartType, -1
			if target == nil {
				if names[e.reg] == nil {
					names[e.reg] = e.reg.Names()
				}
				if n.decl.TypePos != (dsl.Pos{}) { // zero in a declaration built by hand
					pos = n.decl.TypePos
				}
				hint := suggest.DidYouMean(n.ref.name, names[e.reg], func(s string) string { return "$" + s })
				errs.Add(dsl.NewError(e.name, n.decl, pos, fmt.Sprintf("$%s names no entity%s", n.ref.name, hint)))
				continue
			}
			if !n.refDefault {
				continue
			}
			pos.Part = dsl.PartRules
			// A response fills the default unless the field is writeonly,
			// a request unless it is readonly.
			for _, request := range []bool{false, true} {
				if request && n.readOnly || !request && n.writeOnly {
					continue
				}
				p := probe{target, request}
				err, seen := probed[p]
				if !seen {
					err = target.makeEmpty(request)
					probed[p] = err
				}
				by := "" // a response, as Make
				if request {
					by = " in a request"
				}
				var ve *ValidationError
				switch {
				case errors.As(err, &ve):
					errs.Add(dsl.NewError(e.name, n.decl, pos,
						fmt.Sprintf("its bare default makes $%s from an empty input, which fails%s: %s", n.ref.name, by, ve.Fields[0].Error())))
				case errors.Is(err, ErrTooLarge):
					errs.Add(dsl.NewError(e.name, n.decl, pos,
						fmt.Sprintf("its bare default makes $%s from an empty input, which writes more than %d bytes: bare defaults on references multiply objects", n.ref.name, checkOutputLimit)))
				}
				if err != nil {
					break // one error a field
				}
			}
		}
	}
	return errs
}

// checkOutputLimit bounds what Verify lets an entity write when it makes
// it from an empty input: no bare default worth having writes a megabyte
// from nothing, and a chain of them that doubles at every reference must
// not make Verify itself run away.
const checkOutputLimit = 1 << 20

// makeEmpty makes the entity from an empty input, under Verify's output
// limit, as a response does, or as a request does a bare default's (every
// field a request reads: lazy and writeonly ones too, no readonly one),
// and returns the error.
func (e *Entity) makeEmpty(request bool) error {
	d := dirResponse
	if request {
		d = dirRequest
	}
	var r run
	r.start(e, topObject, d, nil)
	r.maxOut = int(min(e.reg.lim().OutputBytes, checkOutputLimit))
	_, err := r.walkCopy(e, nil)
	return err
}

// entity returns the entity named, or an error wrapping ErrUnknownEntity.
func (r *Registry) entity(name string) (*Entity, error) {
	if e := r.Lookup(name); e != nil {
		return e, nil
	}
	return nil, fmt.Errorf("%w: %q is not exposed", ErrUnknownEntity, name)
}

// KeyCase returns the style the registry writes output keys in (see
// KeyCase); a nil registry's is AsDeclared.
func (r *Registry) KeyCase() KeyCaseStyle {
	if r == nil {
		return AsDeclared
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.keyCase
}
