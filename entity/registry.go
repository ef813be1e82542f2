package entity

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/engine"
	"github.com/expose-go/expose/internal/suggest"
	"github.com/expose-go/expose/rules"
)

// Registry holds named entities and the rules their declarations may use.
// Entities reference each other by name within one registry. A Registry is
// safe for concurrent use: Expose, Make and rule registration may run at
// the same time. Create one with NewRegistry.
type Registry struct {
	env  *engine.Env              // what the engine reads: rules, formats, flags, key case, limits, slots
	mu   sync.Mutex               // serializes the changes of the registry: Expose, Extend, LoadFS, Configure, SetMessages
	msgs atomic.Pointer[catalogs] // nil: the built-in messages (see SetMessages)

	// Guarded by mu: how Extend declared each extension and, by base, the
	// extensions of each entity (extend.go).
	exts       map[string]*extension
	extendedBy map[string]map[string]bool

	parent *Registry // a scratch registry's (load.go): its entities start with the parent's

	problemBase atomic.Pointer[string]                     // ProblemTypeBase's; nil: the default
	serverLog   atomic.Pointer[func(id string, err error)] // ServerErrors', the log hook of 500s (problem.go); nil: none
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
	r := &Registry{env: engine.NewEnv(rules.Builtin())}
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
	return r.env.Rules
}

// RegisterRule adds a custom rule, usable by name in declarations exposed
// afterwards. See rules.Def.
func (r *Registry) RegisterRule(d rules.Def) error {
	if r == nil {
		return errNilRegistry
	}
	return r.env.Rules.Register(d)
}

// compile compiles decl in the registry's environment, and returns its
// handle (with what compiled, on error: see engine.Compile).
func (r *Registry) compile(decl *dsl.Entity) (*Entity, error) {
	c, err := engine.Compile(r.env, decl)
	return newEntity(r, c), err
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
	e, err := r.compile(tree)
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
	return handleOf(r.env.Lookup(name))
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
// names nearest to it among names (at most 3).
func unknownEntityMessage(op, name string, names []string) string {
	msg := fmt.Sprintf("entity: %s(%q): no entity %q is exposed", op, name, name)
	if len(names) == 0 {
		return msg + " (the registry exposes none)"
	}
	if near := suggest.Nearest(name, names, 3); len(near) > 0 {
		q := make([]string, len(near))
		for i, n := range near {
			q[i] = strconv.Quote(n)
		}
		return msg + "; did you mean " + strings.Join(q, " or ") + "?"
	}
	return msg
}

// Names returns the names of the registered entities, sorted.
func (r *Registry) Names() []string {
	if r == nil {
		return nil
	}
	return r.env.Names()
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
	var es []*engine.Entity
	for _, name := range r.Names() {
		if e := r.env.Lookup(name); e != nil {
			es = append(es, e)
		}
	}
	errs := r.checkEntities(es)
	errs.Sort()
	return errs.Err()
}

// checkEntities reports, for Verify and LoadFS, the references of es that
// name no entity, the bare defaults on references that fail, the merges
// that write a key twice and the flags not declared.
func (r *Registry) checkEntities(es []*engine.Entity) dsl.ErrorList {
	return engine.CheckEntities(es, func(c *engine.Call) string {
		var fe FieldError
		fieldErrorOf(&fe, &c.Failures[0], r.messages(), 0)
		return fe.Error()
	})
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
	return KeyCaseStyle(r.env.KeyCase)
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
	return r.env.DeclareFlags(names...)
}

// DeclaredFlags returns the registry's declared flags, sorted.
func (r *Registry) DeclaredFlags() []string {
	if r == nil {
		return nil
	}
	return r.env.DeclaredFlags()
}

// FormatFunc formats a value for RegisterFormat: it returns the Go value
// the field writes, which the library encodes itself: a string, a number
// (any Go integer or float type, finite), a bool or nil. Anything else,
// or an error, is the field's error (code "format"), so that a formatter
// can never write invalid JSON. args are the format's arguments as written
// after its name. It is called concurrently, on the request path.
type FormatFunc func(v rules.Value, args []string) (any, error)

// RegisterFormat adds a format that declarations exposed afterwards may
// name (`format name args…`) on fields of the given types: f returns
// what the field writes (see FormatFunc). The name may not be a built-in
// format's (rfc1123, unix, unixms, date, fixed) nor one registered
// already; types may not be empty.
func (r *Registry) RegisterFormat(name string, types rules.KindSet, f FormatFunc) error {
	if r == nil {
		return errNilRegistry
	}
	var fn func(rules.Value, []string) (any, error)
	if f != nil {
		fn = f
	}
	return r.env.RegisterFormat(name, types, fn)
}
