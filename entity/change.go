package entity

import (
	"errors"
	"fmt"
	"slices"

	"github.com/expose-go/expose/dsl"
)

// This file holds the change: one step of a registry, all or nothing.
// Expose, Extend and LoadFS stage every entity the step exposes (the
// entity, the extensions of it compiled again, the entities of the
// files), the change checks that no entity of the registry that merges
// one of them would write a key twice, and only then stores them all.
// When anything fails nothing is stored and the registry's flags are put
// back. The registry's indexes (who extends whom, who merges whom) let a
// change touch only the entities that depend on what it stores.

// change is a step being made. The caller holds the registry's mu from
// begin to end.
type change struct {
	r      *Registry
	staged map[string]*Entity // what the step exposes, by name: compile sees them (Registry.staging)
	order  []*Entity          // staged, in the order they were compiled
	flags  *flagTable         // the registry's flags before the step
	exts   map[string]*extension
	ended  map[string]bool // names that are no longer extensions
	done   bool
}

// begin starts a change of r.
func (r *Registry) begin() *change {
	ch := &change{r: r, staged: map[string]*Entity{}, flags: r.flags.Load()}
	r.staging = ch.staged
	return ch
}

// end closes the change; unless it was committed, the registry's flags
// are what they were before it.
func (ch *change) end() {
	ch.r.staging = nil
	if !ch.done {
		ch.r.flags.Store(ch.flags)
	}
}

// stage adds a compiled entity to the change. The flags its rules named
// first are the registry's at once, so that the next compile of the
// change numbers its own after them (end puts them back if the change
// fails; calls only read declared flags, which no compile adds).
func (ch *change) stage(e *Entity) {
	ch.r.keepFlags(e)
	if _, again := ch.staged[e.name]; again {
		ch.order = slices.DeleteFunc(ch.order, func(x *Entity) bool { return x.name == e.name })
	}
	ch.staged[e.name] = e
	ch.order = append(ch.order, e)
}

// commit compiles again the extensions of what the change stages, checks
// that the entities that merge any of it write no key twice, and stores
// it all. Its errors name the entities that would fail and say why: "if
// name were <how> as declared".
func (ch *change) commit(name, how string) error {
	return ch.commitWith(func(*Entity) string { return fmt.Sprintf("if %q were %s as declared", name, how) })
}

// commitWith is commit, where why says what an error due to staged entity
// p comes from ("if "user" were exposed as declared").
func (ch *change) commitWith(why func(p *Entity) string) error {
	if err := ch.rebuildExtensions(why); err != nil {
		return err
	}
	if errs := ch.mergeErrors(why); len(errs) > 0 {
		errs.Sort()
		return errs
	}
	r := ch.r
	for _, e := range ch.order {
		r.indexMerges(e)
		e.slot = r.slotFor(e.name)
		e.slot.e.Store(e)
	}
	for name := range ch.ended {
		r.setExtension(name, nil)
	}
	for name, x := range ch.exts {
		r.setExtension(name, x)
	}
	ch.done = true
	return nil
}

// mergeErrors returns the merge errors the change would give: in its own
// entities when it stages several (each compile saw those staged before
// it only), and in the registry's entities that merge one of them,
// directly or through others.
func (ch *change) mergeErrors(why func(p *Entity) string) dsl.ErrorList {
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

// rebuildExtensions compiles again, with the bases the change stages,
// every extension of them, and the extensions of those in turn, and stages
// them. It returns the errors of those that no longer compile, each
// naming the extension.
func (ch *change) rebuildExtensions(why func(p *Entity) string) error {
	var errs dsl.ErrorList
	r := ch.r
	for i := 0; i < len(ch.order); i++ { // the extensions staged are bases in turn
		base := ch.order[i]
		for _, name := range sortedNames(r.extendedBy[base.name]) {
			if _, ok := ch.staged[name]; ok || ch.ended[name] {
				continue
			}
			e, err := r.extend(name, base, r.exts[name].own)
			if err == nil {
				ch.stage(e)
				continue
			}
			note := fmt.Sprintf(" (%s, its extension %q would no longer compile)", why(base), name)
			if base.name != ch.order[0].name {
				note = fmt.Sprintf(" (%s, %q, which extends %q, would no longer compile)", why(base), name, base.name)
			}
			var l dsl.ErrorList
			if !errors.As(err, &l) {
				l = dsl.ErrorList{{Entity: name, Pos: dsl.Pos{Offset: -1}, Msg: err.Error()}}
			}
			for _, x := range l {
				y := *x
				y.Entity = name
				y.Msg += note
				errs.Add(&y)
			}
		}
	}
	errs.Sort()
	return errs.Err()
}

// endExtension makes name no longer an extension once the change is
// stored: it is exposed as declared.
func (ch *change) endExtension(name string) {
	if _, ok := ch.r.exts[name]; !ok {
		return
	}
	if ch.ended == nil {
		ch.ended = map[string]bool{}
	}
	ch.ended[name] = true
}

// setExtension records, once the change is stored, that name extends
// x.base with x.own.
func (ch *change) setExtension(name string, x *extension) {
	if ch.exts == nil {
		ch.exts = map[string]*extension{}
	}
	ch.exts[name] = x
	delete(ch.ended, name)
}

// sortedNames returns the keys of set, sorted.
func sortedNames(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// mergers returns the function that lists, sorted, the entities that
// merge the entity named once the change is stored.
func (ch *change) mergers() func(name string) []string {
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
		for d := range ch.r.mergedBy[name] {
			if _, ok := ch.staged[d]; !ok {
				out = append(out, d)
			}
		}
		out = append(out, staged[name]...)
		slices.Sort(out)
		return out
	}
}
