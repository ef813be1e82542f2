package entity

import (
	"errors"
	"fmt"
	"slices"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/engine"
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
	r     *Registry
	ch    *engine.Change // the entities it stages, their merges, the flags
	exts  map[string]*extension
	ended map[string]bool // names that are no longer extensions
}

// begin starts a change of r.
func (r *Registry) begin() *change {
	return &change{r: r, ch: r.env.Begin()}
}

// end closes the change; unless it was committed, the registry's flags
// are what they were before it.
func (ch *change) end() { ch.ch.End() }

// stage adds a compiled entity to the change.
func (ch *change) stage(e *Entity) { ch.ch.Stage(e.c) }

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
	if errs := ch.ch.MergeErrors(func(p *engine.Entity) string { return why(handleOf(p)) }); len(errs) > 0 {
		errs.Sort()
		return errs
	}
	r := ch.r
	ch.ch.Store()
	for name := range ch.ended {
		r.setExtension(name, nil)
	}
	for name, x := range ch.exts {
		r.setExtension(name, x)
	}
	return nil
}

// rebuildExtensions compiles again, with the bases the change stages,
// every extension of them, and the extensions of those in turn, and stages
// them. It returns the errors of those that no longer compile, each
// naming the extension.
func (ch *change) rebuildExtensions(why func(p *Entity) string) error {
	var errs dsl.ErrorList
	r := ch.r
	for i := 0; i < len(ch.ch.Order()); i++ { // the extensions staged are bases in turn
		base := handleOf(ch.ch.Order()[i])
		for _, name := range sortedNames(r.extendedBy[base.Name()]) {
			if ch.ch.Staged(name) || ch.ended[name] {
				continue
			}
			e, err := r.extend(name, base, r.exts[name].own)
			if err == nil {
				ch.stage(e)
				continue
			}
			note := fmt.Sprintf(" (%s, its extension %q would no longer compile)", why(base), name)
			if base.Name() != ch.ch.Order()[0].Name() {
				note = fmt.Sprintf(" (%s, %q, which extends %q, would no longer compile)", why(base), name, base.Name())
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
