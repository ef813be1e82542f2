package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/rules"
)

// condition is when a node is shown, compiled from its `if`, `unless`,
// `since` and `until` (and its key's sharing: later).
type condition struct {
	ifs, unless  uint64  // flag bits
	since, until version // unset: unbounded
	// later holds the conditions of the nodes sharing the node's key with
	// a later version range: a call without a version writes the latest
	// of them its flags show (see shown).
	later []*condition

	// The flags as named, for Verify and Fields.
	ifNames, unlessNames []string
	flagPos              map[string]dsl.Pos
}

// ranged reports whether the condition bounds versions.
func (c *condition) ranged() bool { return c != nil && (c.since.IsSet() || c.until.IsSet()) }

// disjoint reports whether two version ranges share no version.
func disjoint(a, b *condition) bool {
	if !a.ranged() || !b.ranged() {
		return false
	}
	// [a.since, a.until) and [b.since, b.until) are disjoint when one ends
	// at or before the other starts.
	ends := func(x, y *condition) bool { return x.until.IsSet() && y.since.IsSet() && x.until.Compare(y.since) <= 0 }
	return ends(a, b) || ends(b, a)
}

// later reports whether a's range ends after b's (unbounded is last).
func later(a, b *condition) bool {
	switch {
	case !a.until.IsSet():
		return true
	case !b.until.IsSet():
		return false
	}
	return a.until.Compare(b.until) > 0
}

// writesFor reports whether, of the nodes sharing a key by version range,
// the one of condition c wrote the key in a call of version v and flags:
// the one whose range holds v; without a version, the latest the flags
// show.
func (c *condition) writesFor(m *objectMade) bool {
	var v version
	var flags uint64
	if m != nil {
		v, flags = m.ver, m.flags
	}
	if !v.IsSet() {
		if !c.flagged(flags) {
			return false
		}
		for _, l := range c.later {
			if l.flagged(flags) {
				return false
			}
		}
		return true
	}
	return !(c.since.IsSet() && v.Compare(c.since) < 0 || c.until.IsSet() && v.Compare(c.until) >= 0)
}

// flagged reports whether flags show a node of condition c: one of its
// `if` flags is set (when it has any), and none of its `unless` flags.
func (c *condition) flagged(flags uint64) bool {
	return (c.ifs == 0 || flags&c.ifs != 0) && flags&c.unless == 0
}

// condRule compiles an `if`, `unless`, `since` or `until` rule of a field
// into its node's condition.
func (c *compiler) condRule(f *dsl.Field, n *node, r *dsl.Rule, d rules.Directive) {
	if n.cond == nil {
		n.cond = &condition{}
	}
	switch d {
	case rules.DirectiveSince, rules.DirectiveUntil:
		if len(r.Args) != 1 {
			c.errorf(f, r.Pos, "rule %q takes one argument, a version such as 'v2'", d)
			return
		}
		v, ok := dsl.ParseVersion(r.Args[0].Text)
		if !ok {
			c.errorf(f, r.Args[0].Pos, "%s: %q is not a version: want dotted numbers with an optional leading v, such as 'v2' or 'v2.1'", d, r.Args[0].Text)
			return
		}
		if d == rules.DirectiveUntil && n.cond.until.IsSet() || d == rules.DirectiveSince && n.cond.since.IsSet() {
			c.errorf(f, r.Pos, "%s is given twice: a field has one version range", d)
			return
		}
		if d == rules.DirectiveUntil {
			n.cond.until = v
		} else {
			n.cond.since = v
		}
		addVersionBound(v)
		if n.cond.since.IsSet() && n.cond.until.IsSet() && n.cond.since.Compare(n.cond.until) >= 0 {
			c.errorf(f, r.Pos, "since %s and until %s leave no version in which the field is written", n.cond.since, n.cond.until)
		}
	default:
		if len(r.Args) == 0 {
			c.errorf(f, r.Pos, "rule %q takes at least one argument, a flag", d)
			return
		}
		t := c.flagTable()
		for _, a := range r.Args {
			b, ok := t.bit[a.Text]
			if t.declared != 0 && (!ok || t.declared&(1<<b) == 0) {
				c.errorf(f, a.Pos, "%s: flag %q is not declared (the registry declares %s)", d, a.Text, strings.Join(c.env.flags.Load().declaredNames(), ", "))
				continue
			}
			if !ok {
				if c.flags == nil { // numbered in a copy, kept if the Expose succeeds
					c.flags = t.clone()
					t = c.flags
				}
				var err error
				if b, err = t.add(a.Text); err != nil {
					c.errorf(f, a.Pos, "%s: %v", d, err)
					continue
				}
			}
			if d == rules.DirectiveUnless {
				n.cond.unless |= 1 << b
			} else {
				n.cond.ifs |= 1 << b
			}
			if d == rules.DirectiveUnless {
				n.cond.unlessNames = append(n.cond.unlessNames, a.Text)
			} else {
				n.cond.ifNames = append(n.cond.ifNames, a.Text)
			}
			if n.cond.flagPos == nil {
				n.cond.flagPos = map[string]dsl.Pos{}
			}
			if _, ok := n.cond.flagPos[a.Text]; !ok {
				n.cond.flagPos[a.Text] = a.Pos
			}
		}
	}
}

// String returns the version as dotted numbers after a v, trailing zeros

// flagTable returns the flags the compiler numbers flag names with: the
// registry's, or its copy holding the names this declaration added.
func (c *compiler) flagTable() *flagTable {
	if c.flags != nil {
		return c.flags
	}
	if t := c.env.flags.Load(); t != nil {
		return t
	}
	return &flagTable{}
}

// checkFlags reports, for Verify, every flag an entity's rules name that
// its registry has not declared.
func (e *Entity) checkFlags(errs *dsl.ErrorList) {
	t := e.env.flags.Load()
	var walk func(p *objectPlan)
	walk = func(p *objectPlan) {
		for _, n := range p.nodes {
			if n.cond != nil {
				for _, name := range slices.Concat(n.cond.ifNames, n.cond.unlessNames) {
					if _, ok := t.declaredBit(name); !ok {
						errs.Add(dsl.NewError(e.name, n.decl, n.cond.flagPos[name],
							fmt.Sprintf("flag %q is not declared: declare it with DeclareFlags, so that a misspelled flag never shows or hides a field", name)))
					}
				}
			}
			if n.group != nil {
				walk(n.group)
			}
		}
	}
	walk(e.base)
}
