package entity

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/suggest"
	"github.com/expose-go/expose/rules"
)

// defaultDepth is the nesting limit a new Registry starts with.
const defaultDepth = 64

// Registry holds named entities and the rules their declarations may use.
// Entities reference each other by name within one registry. A Registry is
// safe for concurrent use: Expose, Make and rule registration may run at
// the same time. Create one with NewRegistry.
type Registry struct {
	rules    *rules.Set
	maxDepth atomic.Int64
	maxBody  atomic.Int64
	maxErrs  atomic.Int64
	maxOut   atomic.Int64
	reqRatio atomic.Int64
	mu       sync.Mutex                // serializes Expose and SetMessages
	keyCase  KeyCaseStyle              // guarded by mu; see KeyCase
	msgs     atomic.Pointer[catalogs]  // nil: the built-in messages (see SetMessages)
	slots    sync.Map                  // name → *slot
	flags    atomic.Pointer[flagTable] // DeclareFlags' and the rules' flags (shape.go); nil: none
	exts     map[string]*extension     // guarded by mu: how Extend declared each extension (extend.go)
	extErrs  map[string]error          // guarded by mu: the extensions that no longer compile

	problemBase atomic.Pointer[string] // SetProblemTypeBase's; nil: the default

	fmu     sync.RWMutex
	formats map[string]*formatDef // RegisterFormat's (format.go), guarded by fmu
}

// NewRegistry returns an empty registry with the built-in rules, a depth
// limit of 64 levels of output nesting and the options given, such as
// KeyCase(CamelCase).
func NewRegistry(opts ...RegistryOption) *Registry {
	r := &Registry{rules: rules.Builtin()}
	for _, o := range opts {
		switch o.kind {
		case regOptKeyCase:
			r.keyCase = o.keyCase
		}
	}
	r.maxDepth.Store(defaultDepth)
	r.maxBody.Store(defaultMaxBody)
	r.maxErrs.Store(defaultMaxErrors)
	r.maxOut.Store(defaultMaxOutput)
	r.reqRatio.Store(defaultRequestRatio)
	return r
}

// defaultMaxOutput is the output limit a new Registry starts with.
const defaultMaxOutput = 64 << 20

// maxOutputLimit is the highest output limit a run keeps (1 PiB: no output
// is larger), so that its arithmetic never overflows.
const maxOutputLimit = 1 << 50

// MaxOutputBytes returns the most bytes of JSON one call writes.
func (r *Registry) MaxOutputBytes() int64 { return r.maxOut.Load() }

// SetMaxOutputBytes sets the most bytes of JSON one call (Make, MakeJSON,
// AppendJSON, MakeList, Write, MakeRequest) may write (default 64 MiB).
// Past it the walk stops and the call fails with an error wrapping
// ErrTooLarge: Write answers 500 (the data is the server's), MakeRequest's
// InputError 413 (the request's). It bounds the work of one call whatever
// the data: a DAG of Go values that shares nodes, or declarations whose
// bare defaults on references multiply objects from an empty input. Values
// below 1 are taken as 1.
func (r *Registry) SetMaxOutputBytes(n int64) { r.maxOut.Store(max(n, 1)) }

// defaultRequestRatio is the request output ratio a new Registry starts
// with.
const defaultRequestRatio = 8

// minRequestOutput is the output limit of a request whatever its body: a
// query-only GET may still write this much.
const minRequestOutput = 1 << 20

// RequestOutputRatio returns how many bytes of output MakeRequest writes
// at most per byte of request body.
func (r *Registry) RequestOutputRatio() int64 { return r.reqRatio.Load() }

// SetRequestOutputRatio sets how many bytes of output MakeRequest may
// write per byte of request body (default 8), so that a request's memory
// is proportional to its body: MakeRequest's output limit is the smaller
// of MaxOutputBytes and the larger of 1 MiB and k times the body's length.
// Past it MakeRequest fails with an InputError of status 413 wrapping
// ErrTooLarge. Values below 1 are taken as 1.
func (r *Registry) SetRequestOutputRatio(k int64) { r.reqRatio.Store(max(k, 1)) }

// requestOutputLimit returns MakeRequest's output limit for a body of n
// bytes.
func (r *Registry) requestOutputLimit(n int64) int64 {
	k := r.RequestOutputRatio()
	lim := int64(minRequestOutput)
	if n > 0 && n <= math.MaxInt64/k {
		lim = max(lim, n*k)
	} else if n > 0 {
		lim = math.MaxInt64
	}
	return min(lim, r.MaxOutputBytes())
}

// defaultMaxErrors is the field error limit a new Registry starts with.
const defaultMaxErrors = 100

// MaxErrors returns how many field errors one Make collects before it
// only counts them.
func (r *Registry) MaxErrors() int { return int(r.maxErrs.Load()) }

// SetMaxErrors sets how many field errors one Make collects (default 100).
// Work stays bounded on hostile input: past the limit errors are counted,
// not built. Values below 1 are taken as 1.
func (r *Registry) SetMaxErrors(n int) {
	if n < 1 {
		n = 1
	}
	r.maxErrs.Store(int64(n))
}

// defaultMaxBody is the request body limit a new Registry starts with.
const defaultMaxBody = 1 << 20

// MaxBodyBytes returns the largest request body MakeRequest reads.
func (r *Registry) MaxBodyBytes() int64 { return r.maxBody.Load() }

// SetMaxBodyBytes sets the largest request body MakeRequest reads (default
// 1 MiB); a larger body is an InputError with status 413.
func (r *Registry) SetMaxBodyBytes(n int64) {
	if n < 0 {
		n = 0
	}
	r.maxBody.Store(n)
}

// KeyCase returns the style the registry writes output keys in (see
// KeyCase and SetKeyCase).
func (r *Registry) KeyCase() KeyCaseStyle {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.keyCase
}

// SetKeyCase sets the style the registry writes output keys in, as the
// KeyCase option of NewRegistry does; it is meant for the Default
// registry. It must be called before anything is exposed, so that every
// entity of a registry, and every reference between them, writes keys in
// one style: once an entity is exposed it changes nothing and returns an
// error, as it does for a style that is not one of the constants.
func (r *Registry) SetKeyCase(style KeyCaseStyle) error {
	if !style.valid() {
		return fmt.Errorf("entity: SetKeyCase: unknown key case style %v", style)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if names := r.Names(); len(names) > 0 {
		return fmt.Errorf("entity: SetKeyCase(%v) after entity %q was exposed: set the key case before exposing anything", style, names[0])
	}
	r.keyCase = style
	return nil
}

// Rules returns the registry's rule set. Rules registered in it may be used
// by declarations exposed afterwards.
func (r *Registry) Rules() *rules.Set { return r.rules }

// RegisterRule adds a custom rule, usable by name in declarations exposed
// afterwards. See rules.Def.
func (r *Registry) RegisterRule(d rules.Def) error { return r.rules.Register(d) }

// MaxDepth returns the nesting limit: how many levels of objects and lists
// an output may hold, counting the entity itself. Deeper input (recursive
// references on deep data, cyclic maps) fails with a FieldError of rule
// "depth" instead of exhausting the stack.
func (r *Registry) MaxDepth() int { return int(r.maxDepth.Load()) }

// SetMaxDepth sets the nesting limit (default 64). Values below 1 are
// taken as 1, and values above 10000 (encoding/json's own limit, and a
// depth the stack always has room for) as 10000.
func (r *Registry) SetMaxDepth(n int) {
	r.maxDepth.Store(int64(min(max(n, 1), maxDepthLimit)))
}

// maxDepthLimit is the highest nesting limit SetMaxDepth accepts.
const maxDepthLimit = 10000

// slotFor returns the slot for name, creating an empty one.
func (r *Registry) slotFor(name string) *slot {
	if s, ok := r.slots.Load(name); ok {
		return s.(*slot)
	}
	s, _ := r.slots.LoadOrStore(name, &slot{name: name})
	return s.(*slot)
}

// Expose parses and compiles a declaration of field, type, rules triples
// and registers it under name, replacing (atomically, for references too)
// any entity of that name. A declaration error is a dsl.ErrorList listing
// every problem found.
func (r *Registry) Expose(name string, decl ...string) (*Entity, error) {
	tree, perr := dsl.ParsePartial(name, decl...)
	r.mu.Lock()
	defer r.mu.Unlock()
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
	if err := r.store(name, e); err != nil {
		return nil, err
	}
	delete(r.exts, name) // exposed as declared: no longer an extension
	delete(r.extErrs, name)
	r.reextend(name, map[string]bool{name: true})
	return e, nil
}

// store registers a compiled entity under name, after checking that the
// registry's entities that merge it write no key twice; the flags its
// rules named first are the registry's from then on. The caller holds mu.
func (r *Registry) store(name string, e *Entity) error {
	if errs := r.mergeDependents(e); len(errs) > 0 {
		var l dsl.ErrorList
		for _, x := range errs {
			x.Msg += fmt.Sprintf(" (if %q were exposed as declared)", name)
			l.Add(x)
		}
		l.Sort()
		return l
	}
	r.keepFlags(e)
	e.slot = r.slotFor(name)
	e.slot.e.Store(e)
	return nil
}

// keepFlags makes the flags e's rules named first the registry's. A
// compile numbers new flags in a copy of the registry's table, so that
// only a declaration that is exposed adds any; one compiled against an
// older table is numbered again (see compile).
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
	return nil
}

// Names returns the names of the registered entities, sorted.
func (r *Registry) Names() []string {
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

// Check reports, all at once as a dsl.ErrorList, what Expose cannot know
// because references may point forward: every `$ref` of every registered
// entity that names no entity, every bare default on a `$ref` whose
// entity fails when made from an empty input (a `req` field without a
// default), since that default would fail on every call, and every flag
// an `if` or `unless` names that the registry has not declared
// (DeclareFlags). Call it once every declaration is exposed.
func (r *Registry) Check() error {
	var es []*Entity
	for _, name := range r.Names() {
		if e := r.Lookup(name); e != nil {
			es = append(es, e)
		}
	}
	errs := checkEntities(es)
	r.checkExtensions(&errs)
	errs.Sort()
	return errs.Err()
}

// checkEntities reports, for Check and LoadFS, the references of es that
// name no entity, the bare defaults on references that fail and the flags
// not declared.
func checkEntities(es []*Entity) dsl.ErrorList {
	var errs dsl.ErrorList
	probed := map[*Entity]error{}     // each entity is made from {} once
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
			if n.refDefault {
				err, seen := probed[target]
				if !seen {
					err = target.makeEmpty()
					probed[target] = err
				}
				var ve *ValidationError
				pos.Part = dsl.PartRules
				switch {
				case errors.As(err, &ve):
					errs.Add(dsl.NewError(e.name, n.decl, pos,
						fmt.Sprintf("its bare default makes $%s from an empty input, which fails: %s", n.ref.name, ve.Fields[0].Error())))
				case errors.Is(err, ErrTooLarge):
					errs.Add(dsl.NewError(e.name, n.decl, pos,
						fmt.Sprintf("its bare default makes $%s from an empty input, which writes more than %d bytes: bare defaults on references multiply objects", n.ref.name, checkOutputLimit)))
				}
			}
		}
	}
	return errs
}

// checkOutputLimit bounds what Check lets an entity write when it makes it
// from an empty input: no bare default worth having writes a megabyte from
// nothing, and a chain of them that doubles at every reference must not
// make Check itself run away.
const checkOutputLimit = 1 << 20

// makeEmpty makes the entity from an empty input, under Check's output
// limit, and returns the error.
func (e *Entity) makeEmpty() error {
	r := run{top: topObject}
	r.init(e, nil)
	r.maxOut = int(min(e.reg.MaxOutputBytes(), checkOutputLimit))
	bp := bufPool.Get().(*[]byte)
	b := r.appendTop((*bp)[:0], e, nil)
	r.done()
	_, err := copyOut(bp, b, r.err())
	return err
}

// entity returns the entity named, or an error wrapping ErrUnknownEntity.
func (r *Registry) entity(name string) (*Entity, error) {
	if e := r.Lookup(name); e != nil {
		return e, nil
	}
	return nil, fmt.Errorf("%w: %q is not exposed", ErrUnknownEntity, name)
}

// Make makes v with the entity named. See Entity.Make.
func (r *Registry) Make(name string, v any, opts ...Option) (*Object, error) {
	e, err := r.entity(name)
	if err != nil {
		return nil, err
	}
	return e.Make(v, opts...)
}

// MakeList makes each object of v with the entity named. See
// Entity.MakeList.
func (r *Registry) MakeList(name string, v any, opts ...Option) ([]*Object, error) {
	e, err := r.entity(name)
	if err != nil {
		return nil, err
	}
	return e.MakeList(v, opts...)
}

// MakeJSON makes v with the entity named and returns its JSON. See
// Entity.MakeJSON.
func (r *Registry) MakeJSON(name string, v any, opts ...Option) ([]byte, error) {
	e, err := r.entity(name)
	if err != nil {
		return nil, err
	}
	return e.MakeJSON(v, opts...)
}

// AppendJSON makes v with the entity named and appends its JSON to dst.
// See Entity.AppendJSON.
func (r *Registry) AppendJSON(dst []byte, name string, v any, opts ...Option) ([]byte, error) {
	e, err := r.entity(name)
	if err != nil {
		return dst, err
	}
	return e.AppendJSON(dst, v, opts...)
}

// Bind reads the request r with the entity named and stores the values it
// made in dst. See Entity.Bind.
func (r *Registry) Bind(name string, req *http.Request, dst any, opts ...Option) error {
	e, err := r.entity(name)
	if err != nil {
		return err
	}
	return e.Bind(req, dst, opts...)
}
