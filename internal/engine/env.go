package engine

import (
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/expose-go/expose/rules"
)

// Env is a registry's state as the engine reads it: what the compiler
// takes (rules, formats, flags, the key case, the slots references
// resolve to, the entities a change stages) and what a call reads (the
// limits, how path values are read). A registry holds one and hands it
// down; nothing in the engine reaches back into the registry.
//
// Its changes (Compile, a Change, DeclareFlags, the key case) are made
// under the registry's lock; calls read it without one: what they read is
// atomic or never modified once stored.
type Env struct {
	Rules   *rules.Set
	KeyCase KeyCase // set before anything is exposed
	// SingleRefs: every $name holds one object in responses too (package
	// entity's SingleRefs); set before anything is exposed.
	SingleRefs bool
	// JSONTypes: a request's JSON body gives a number, float, bool or
	// date field's value as its JSON type only (package entity's
	// JSONTypes); set before anything is exposed.
	JSONTypes bool

	limits     atomic.Pointer[Limits]    // in force, defaults filled in; nil: the defaults
	flags      atomic.Pointer[flagTable] // DeclareFlags' and the rules' flags (condition.go); nil: none
	pathValues atomic.Pointer[func(r *http.Request, name string) string]

	fmu     sync.RWMutex
	formats map[string]*formatDef // RegisterFormat's, guarded by fmu

	slots  sync.Map // name → *slot
	parent *Env     // a scratch env's: its slots start with the parent's entities

	// Guarded by the registry's lock: the change being made, whose
	// entities Compile sees before they are stored; by entity, the
	// entities its plans merge and, by entity merged, the entities that
	// merge it.
	staging  map[string]*Entity
	mergesOf map[string][]string
	mergedBy map[string]map[string]bool
}

// NewEnv returns the environment of a new registry with the rule set rs.
func NewEnv(rs *rules.Set) *Env { return &Env{Rules: rs} }

// Scratch returns an environment with env's rules, formats, key case,
// flags and limits, whose slots hold env's entities (each slot, as it is
// made, takes env's entity of that name): what a declaration compiled in
// it means is what it would mean in env, and it changes nothing in env.
func (env *Env) Scratch() *Env {
	s := &Env{Rules: env.Rules, KeyCase: env.KeyCase, SingleRefs: env.SingleRefs, JSONTypes: env.JSONTypes, parent: env}
	s.limits.Store(env.limits.Load())
	s.flags.Store(env.flags.Load())
	s.pathValues.Store(env.pathValues.Load())
	env.fmu.RLock()
	s.formats = maps.Clone(env.formats) // RegisterFormat's, which the files may name
	env.fmu.RUnlock()
	return s
}

// ---- Limits

// Limits are a registry's limits (package entity's Limits documents each):
// the same fields, so that one converts to the other.
type Limits struct {
	Depth              int
	Errors             int
	BodyBytes          int64
	OutputBytes        int64
	RequestOutputRatio int64
}

// The default limits, and the bounds of Depth and OutputBytes.
const (
	defaultDepth        = 64
	defaultMaxErrors    = 100
	defaultMaxBody      = 1 << 20
	defaultMaxOutput    = 64 << 20
	defaultRequestRatio = 8

	// maxDepthLimit is the highest Depth a registry keeps.
	maxDepthLimit = 10000
	// maxOutputLimit is the highest output limit a run keeps (1 PiB: no
	// output is larger), so that its arithmetic never overflows.
	maxOutputLimit = 1 << 50
	// minRequestOutput is the output limit of a request whatever its
	// body: a query-only GET may still write this much.
	minRequestOutput = 1 << 20
)

// defaultLimits are the limits of a registry given none.
var defaultLimits = Limits{}.Effective()

// Effective returns l with its zero fields set to the defaults and every
// field within its bounds.
func (l Limits) Effective() Limits {
	pick := func(v, def, lo, hi int64) int64 {
		switch {
		case v == 0:
			return def
		case v < lo:
			return lo
		case v > hi:
			return hi
		}
		return v
	}
	return Limits{
		Depth:              int(pick(int64(l.Depth), defaultDepth, 1, maxDepthLimit)),
		Errors:             int(pick(int64(l.Errors), defaultMaxErrors, 1, math.MaxInt32)),
		BodyBytes:          pick(l.BodyBytes, defaultMaxBody, 0, math.MaxInt64),
		OutputBytes:        pick(l.OutputBytes, defaultMaxOutput, 1, maxOutputLimit),
		RequestOutputRatio: pick(l.RequestOutputRatio, defaultRequestRatio, 1, math.MaxInt64),
	}
}

// SetLimits sets the limits in force to l, defaults filled in.
func (env *Env) SetLimits(l Limits) {
	e := l.Effective()
	env.limits.Store(&e)
}

// Limits returns the limits in force; a nil env's are the defaults.
func (env *Env) Limits() Limits { return *env.lim() }

// lim returns the limits in force: the one place every call reads them
// from.
func (env *Env) lim() *Limits {
	if env != nil {
		if l := env.limits.Load(); l != nil {
			return l
		}
	}
	return &defaultLimits
}

// RequestOutputLimit returns a request's output limit for a body of n
// bytes: the smaller of OutputBytes and the larger of 1 MiB and
// RequestOutputRatio times n.
func (env *Env) RequestOutputLimit(n int64) int64 {
	l := env.lim()
	k := l.RequestOutputRatio
	lim := int64(minRequestOutput)
	if n > 0 && n <= math.MaxInt64/k {
		lim = max(lim, n*k)
	} else if n > 0 {
		lim = math.MaxInt64
	}
	return min(lim, l.OutputBytes)
}

// ---- Path values

// SetPathValues sets how a request's path parameters are read (nil:
// http.Request.PathValue).
func (env *Env) SetPathValues(f func(r *http.Request, name string) string) {
	env.pathValues.Store(&f)
}

// pathValue reads the path parameter name of req.
func (env *Env) pathValue(req *http.Request, name string) string {
	if env != nil {
		if f := env.pathValues.Load(); f != nil && *f != nil {
			return (*f)(req, name)
		}
	}
	return req.PathValue(name)
}

// ---- Slots

// slotFor returns the slot for name, creating an empty one.
func (env *Env) slotFor(name string) *slot {
	if s, ok := env.slots.Load(name); ok {
		return s.(*slot)
	}
	n := &slot{name: name}
	if env.parent != nil {
		n.e.Store(env.parent.Lookup(name))
	}
	s, _ := env.slots.LoadOrStore(name, n)
	return s.(*slot)
}

// Put stores e in its slot at once, outside any change: for a scratch
// environment, whose entities are compiled to be checked, never used.
func (env *Env) Put(e *Entity) {
	e.slot = env.slotFor(e.name)
	e.slot.e.Store(e)
}

// Lookup returns the entity stored under name, or nil.
func (env *Env) Lookup(name string) *Entity {
	if env == nil {
		return nil
	}
	if s, ok := env.slots.Load(name); ok {
		return s.(*slot).e.Load()
	}
	return env.parent.Lookup(name)
}

// Names returns the names of the stored entities, sorted.
func (env *Env) Names() []string {
	if env == nil {
		return nil
	}
	var names []string
	env.slots.Range(func(k, v any) bool {
		if v.(*slot).e.Load() != nil {
			names = append(names, k.(string))
		}
		return true
	})
	sort.Strings(names)
	return names
}

// ---- Flags

// DeclareFlags declares the flags the registry's declarations and calls
// may name (package entity's Registry.DeclareFlags says how they are
// judged). The caller holds the registry's lock.
func (env *Env) DeclareFlags(names ...string) error {
	t := env.flags.Load().clone()
	for _, name := range names {
		b, err := t.add(name)
		if err != nil {
			return fmt.Errorf("entity: DeclareFlags: %w", err)
		}
		t.declared |= 1 << b
	}
	env.flags.Store(t)
	return nil
}

// DeclaredFlags returns the declared flags, sorted.
func (env *Env) DeclaredFlags() []string {
	t := env.flags.Load()
	out := t.declaredNames()
	slices.Sort(out)
	return out
}

// FlagBits returns the bits of the declared flags among names (a flag not
// declared has none), and the first of names that is not declared.
func (env *Env) FlagBits(names []string) (bits uint64, unknown string) {
	t := env.flags.Load()
	for _, name := range names {
		if b, ok := t.declaredBit(name); ok {
			bits |= 1 << b
		} else if unknown == "" {
			unknown = name
		}
	}
	return bits, unknown
}

// ---- Formats

// RegisterFormat adds a format that declarations compiled afterwards may
// name (package entity's Registry.RegisterFormat documents it).
func (env *Env) RegisterFormat(name string, types rules.KindSet, f func(v rules.Value, args []string) (any, error)) error {
	key := strings.ToLower(name)
	switch {
	case f == nil:
		return fmt.Errorf("entity: RegisterFormat %q: no function", name)
	case key == "" || strings.ContainsAny(key, " \t\r\n|'\""):
		return fmt.Errorf("entity: RegisterFormat %q: a format's name is one word", name)
	case types == 0:
		return fmt.Errorf("entity: RegisterFormat %q: no types", name)
	case builtinFormats[key] != nil:
		return fmt.Errorf("entity: RegisterFormat %q: %q is a built-in format: register yours under another name", name, key)
	}
	env.fmu.Lock()
	defer env.fmu.Unlock()
	if env.formats[key] != nil {
		return fmt.Errorf("entity: RegisterFormat %q: already registered", name)
	}
	if env.formats == nil {
		env.formats = map[string]*formatDef{}
	}
	env.formats[key] = &formatDef{types: types, user: f}
	return nil
}

// formatNames returns the names of the formats a declaration may name,
// the built-ins' first, each part sorted.
func (env *Env) formatNames() []string {
	names := slices.Sorted(maps.Keys(builtinFormats))
	env.fmu.RLock()
	defer env.fmu.RUnlock()
	return append(names, slices.Sorted(maps.Keys(env.formats))...)
}

// lookupFormat returns the format a declaration names.
func (env *Env) lookupFormat(name string) *formatDef {
	key := strings.ToLower(name)
	if d := builtinFormats[key]; d != nil {
		return d
	}
	env.fmu.RLock()
	defer env.fmu.RUnlock()
	return env.formats[key]
}

// ---- Merges

// indexMerges records, as e is stored, which entities it merges (and no
// longer those its former self merged). The caller holds the registry's
// lock.
func (env *Env) indexMerges(e *Entity) {
	for _, t := range env.mergesOf[e.name] {
		delete(env.mergedBy[t], e.name)
		if len(env.mergedBy[t]) == 0 {
			delete(env.mergedBy, t)
		}
	}
	ts := mergeTargets(e)
	if len(ts) == 0 {
		delete(env.mergesOf, e.name)
		return
	}
	if env.mergesOf == nil {
		env.mergesOf = map[string][]string{}
		env.mergedBy = map[string]map[string]bool{}
	}
	env.mergesOf[e.name] = ts
	for _, t := range ts {
		if env.mergedBy[t] == nil {
			env.mergedBy[t] = map[string]bool{}
		}
		env.mergedBy[t][e.name] = true
	}
}
