package engine

import (
	"slices"

	"github.com/expose-go/expose/dsl"
)

// A change is one step of a registry, all or nothing: the entities it
// stages (compiled, seen by the compiles of the same change), checked
// for keys that merges would write twice, then stored together. When it
// is not committed nothing is stored and the flags are put back. The
// registry's lock is held from Begin to End.

// Change is a step being made.
type Change struct {
	env    *Env
	staged map[string]*Entity // what the step exposes, by name: Compile sees them (Env.staging)
	order  []*Entity          // staged, in the order they were compiled
	flags  *flagTable         // the flags before the step
	done   bool
}

// Begin starts a change of env.
func (env *Env) Begin() *Change {
	ch := &Change{env: env, staged: map[string]*Entity{}, flags: env.flags.Load()}
	env.staging = ch.staged
	return ch
}

// End closes the change; unless it was committed, the flags are what they
// were before it.
func (ch *Change) End() {
	ch.env.staging = nil
	if !ch.done {
		ch.env.flags.Store(ch.flags)
	}
}

// Stage adds a compiled entity to the change. The flags its rules named
// first are the registry's at once, so that the next compile of the
// change numbers its own after them (End puts them back if the change
// fails; calls only read declared flags, which no compile adds).
func (ch *Change) Stage(e *Entity) {
	if e.newFlags != nil {
		ch.env.flags.Store(e.newFlags)
		e.newFlags = nil
	}
	if _, again := ch.staged[e.name]; again {
		ch.order = slices.DeleteFunc(ch.order, func(x *Entity) bool { return x.name == e.name })
	}
	ch.staged[e.name] = e
	ch.order = append(ch.order, e)
}

// Staged reports whether the change stages an entity of this name.
func (ch *Change) Staged(name string) bool {
	_, ok := ch.staged[name]
	return ok
}

// Order returns what the change stages, in the order it was staged; the
// caller may append to the change while it ranges over the result by
// index (len(ch.Order()) again each time).
func (ch *Change) Order() []*Entity { return ch.order }

// MergeErrors returns the merge errors the change would give: in its own
// entities when it stages several (each compile saw those staged before
// it only), and in the stored entities that merge one of them, directly
// or through others; why says what an error due to staged entity p
// comes from ("if "user" were exposed as declared").
func (ch *Change) MergeErrors(why func(p *Entity) string) dsl.ErrorList {
	var errs dsl.ErrorList
	seen := map[string]bool{}
	add := func(x *dsl.Error, p *Entity) {
		if p != nil {
			x.Msg += " (" + why(p) + ")"
		}
		if k := x.Error(); !seen[k] {
			seen[k] = true
			errs.Add(x)
		}
	}
	ps := pendingSet{more: ch.staged}
	if len(ch.order) > 1 {
		for _, e := range ch.order {
			if e.merges {
				for _, x := range mergeErrors(e, e.base, ps) {
					add(x, nil)
				}
			}
		}
	}
	mergers := ch.mergers()
	for _, p := range ch.order {
		for _, x := range dependentMergeErrors(p, ps, mergers) {
			add(x, p)
		}
	}
	return errs
}

// Store stores what the change stages, each entity in its slot, and
// makes the change done (End keeps its flags).
func (ch *Change) Store() {
	env := ch.env
	for _, e := range ch.order {
		env.indexMerges(e)
		e.slot = env.slotFor(e.name)
		e.slot.e.Store(e)
	}
	ch.done = true
}

// mergers returns the function that lists, sorted, the entities that
// merge the entity named once the change is stored.
func (ch *Change) mergers() func(name string) []string {
	var staged map[string][]string // target → staged entities that merge it
	for _, e := range ch.order {
		for _, t := range mergeTargets(e) {
			if staged == nil {
				staged = map[string][]string{}
			}
			staged[t] = append(staged[t], e.name)
		}
	}
	return func(name string) []string {
		var out []string
		for d := range ch.env.mergedBy[name] {
			if _, ok := ch.staged[d]; !ok {
				out = append(out, d)
			}
		}
		out = append(out, staged[name]...)
		slices.Sort(out)
		return out
	}
}
