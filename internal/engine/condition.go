package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/expose-go/expose/dsl"
)

// This file holds the conditions of fields: the flags a registry
// declares, the versions a call asks for, and whether a field's condition
// (if, unless, since, until) shows it to the call.

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

// version is a parsed version (dsl.Version: its grammar is the
// language's).
type version = dsl.Version

// versionBounds are the versions that the `since` and `until` of every
// entity compiled in the process name, sorted and distinct: two versions
// no bound lies between show the same fields of every entity. A call's
// selection is compiled once per range between bounds, not once per
// version a client sends (shape.go keys it by versionRange). It only
// grows, with declarations (never with calls); gen counts its changes.
var versionBounds atomic.Pointer[boundList]

type boundList struct {
	gen  uint64
	list []version
}

var boundsMu sync.Mutex // the compilers' that add to versionBounds

// addVersionBound adds v, a version a `since` or `until` names, to
// versionBounds.
func addVersionBound(v version) {
	boundsMu.Lock()
	defer boundsMu.Unlock()
	old := versionBounds.Load()
	var list []version
	var gen uint64
	if old != nil {
		list, gen = old.list, old.gen
	}
	i, found := slices.BinarySearchFunc(list, v, func(a, b version) int { return a.Compare(b) })
	if found {
		return
	}
	versionBounds.Store(&boundList{gen: gen + 1, list: slices.Insert(slices.Clone(list), i, v)})
}

// versionRange returns where v lies among versionBounds: the generation
// of the bounds and how many of them are at or below v.
func versionRange(v version) (gen uint64, at int) {
	b := versionBounds.Load()
	if b == nil {
		return 0, 0
	}
	i, found := slices.BinarySearchFunc(b.list, v, func(a, b version) int { return a.Compare(b) })
	if found {
		i++
	}
	return b.gen, i
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
	case !ver.IsSet():
		for _, l := range c.later {
			if l.flagged(flags) {
				return false // a later version of the key is written
			}
		}
		return true
	case c.since.IsSet() && ver.Compare(c.since) < 0, c.until.IsSet() && ver.Compare(c.until) >= 0:
		return false
	}
	return true
}
