package entity_test

// The reference model's per-call selection: Select's grammar (a,b a/b
// a(b,c) *), Only's and Except's dotted paths, read from their go doc and
// the README's "Field selection" section.

import (
	"strings"

	"github.com/expose-go/expose/dsl"
)

// mdlSel is a selection at one output level: every non-lazy field (all),
// and the fields named, each with the selection of its own level. A nil
// *mdlSel is no selection: every field but the lazy ones.
type mdlSel struct {
	all   bool
	names map[string]*mdlSel
	sub   bool // written as a sub-selection (a/… or a(…)), not a bare name
	// bare: the level of a field named bare (a), and of nothing else:
	// written whole, as with no selection (its merged $names read as any
	// field, whatever their entities write)
	bare bool
	// path: an Only path steps through this level to fields under it;
	// leaf: an Only path ends here. A value field stepped through and
	// named by no path is not selected: it has no fields.
	path, leaf bool
}

// pick reports whether f is written under the selection, and the selection
// of its level.
func (s *mdlSel) pick(f *mdlField) (*mdlSel, bool) { return s.pickAs(f.key, f.lazy) }

// pickAs is pick of a field of key k that is lazy or not.
func (s *mdlSel) pickAs(k string, lazy bool) (*mdlSel, bool) {
	if s == nil {
		return nil, !lazy
	}
	if sub, ok := s.names[k]; ok {
		if s.all && !lazy && !sub.bare {
			// * and a(b) add up: a is written whole (a bare a stays so)
			sub = mdlMergeSel(sub, &mdlSel{all: true})
		}
		return sub, true
	}
	if s.all && !lazy {
		return nil, true
	}
	return nil, false
}

// mdlMergeSel adds two selections up.
func mdlMergeSel(a, b *mdlSel) *mdlSel {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := &mdlSel{all: a.all || b.all, sub: a.sub || b.sub, path: a.path || b.path, leaf: a.leaf || b.leaf, bare: a.bare && b.bare, names: map[string]*mdlSel{}}
	for k, v := range a.names {
		out.names[k] = v
	}
	for k, v := range b.names {
		out.names[k] = mdlMergeSel(out.names[k], v)
	}
	return out
}

// mdlExc is what Except leaves out at one level: every field (all), the
// fields named as leaves, and deeper paths under the others.
type mdlExc struct {
	all   bool
	leaf  bool
	names map[string]*mdlExc
}

func (e *mdlExc) pick(key string) (*mdlExc, bool) {
	if e == nil {
		return nil, false
	}
	if e.all {
		return nil, true
	}
	c := e.names[key]
	if c == nil {
		return nil, false
	}
	if c.leaf {
		return nil, true
	}
	return c, false
}

// selFields gives the fields a selection may name at one output level:
// merged entities' fields in place. When every is set (Only's and
// Except's paths, the server's code), every declared field: those the
// call's flags, version or direction hide too (a writeonly field of a
// response is a path that selects nothing, as a hidden one is); else (a
// client's Select) only those the call reads and writes (visible: shown by
// its flags and version, which in a call without one is the latest range
// of a shared key, and in its direction; a key whose latest range's field
// the direction hides is no name to select).
func (c *mdlCall) selFields(fields []*mdlField, every, top bool) []*mdlField {
	var out []*mdlField
	var vis map[*mdlField]bool
	if !every {
		vis = c.visible(fields, false)
	}
	for _, f := range fields {
		if !every && !vis[f] {
			continue
		}
		if f.kind == dsl.FieldRef && f.merge {
			if e := c.reg.ents[f.ref]; e != nil {
				out = append(out, c.selFields(c.fieldsAt(e, top), every, top)...)
			}
			continue
		}
		out = append(out, f)
	}
	return out
}

// mdlMatch gives the fields of a level whose key is name.
func mdlMatch(level []*mdlField, name string) []*mdlField {
	var out []*mdlField
	for _, f := range level {
		if f.key == name {
			out = append(out, f)
		}
	}
	return out
}

// childFields gives the fields of the levels under the candidates that have
// fields (groups and references); ok is false when none has.
func (c *mdlCall) childFields(cands []*mdlField, every bool) ([]*mdlField, bool) {
	var out []*mdlField
	ok := false
	for _, f := range cands {
		switch f.kind {
		case dsl.FieldGroup:
			out = append(out, c.selFields(f.children, every, false)...)
			ok = true
		case dsl.FieldRef:
			if e := c.reg.ents[f.ref]; e != nil {
				out = append(out, c.selFields(c.fieldsAt(e, false), every, false)...)
				ok = true
			}
		}
	}
	return out, ok
}

type mdlSelParser struct {
	c *mdlCall
	s string
	i int
}

// compileSelect reads a Select spec against the entity's fields; ok is
// false for a spec that does not parse or names a field the call cannot
// see.
func (c *mdlCall) compileSelect(fields []*mdlField, spec string) (*mdlSel, bool) {
	if len(spec) > 4096 {
		return nil, false
	}
	p := &mdlSelParser{c: c, s: spec}
	sel, ok := p.list(c.selFields(fields, false, true), 1)
	if !ok || p.i != len(p.s) {
		return nil, false
	}
	return sel, true
}

func (p *mdlSelParser) list(level []*mdlField, depth int) (*mdlSel, bool) {
	if depth > 64 {
		return nil, false
	}
	sel := &mdlSel{names: map[string]*mdlSel{}}
	for {
		if !p.item(level, sel, depth) {
			return nil, false
		}
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		return sel, true
	}
}

func (p *mdlSelParser) item(level []*mdlField, sel *mdlSel, depth int) bool {
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune(",/()", rune(p.s[p.i])) {
		p.i++
	}
	name := strings.Trim(p.s[start:p.i], " \t")
	if name == "" {
		return false
	}
	next := byte(0)
	if p.i < len(p.s) {
		next = p.s[p.i]
	}
	if name == "*" {
		if next == '/' || next == '(' {
			return false
		}
		sel.all = true
		return true
	}
	cands := mdlMatch(level, name)
	if len(cands) == 0 {
		return false
	}
	var sub *mdlSel
	switch next {
	case '/', '(':
		child, ok := p.c.childFields(cands, false)
		if !ok {
			return false
		}
		p.i++
		if next == '/' {
			sub = &mdlSel{names: map[string]*mdlSel{}}
			if !p.item(child, sub, depth+1) {
				return false
			}
		} else {
			sub, ok = p.list(child, depth+1)
			if !ok || p.i >= len(p.s) || p.s[p.i] != ')' {
				return false
			}
			p.i++
		}
		sub.sub = true
	default:
		sub = &mdlSel{all: true, bare: true}
	}
	sel.names[name] = mdlMergeSel(sel.names[name], sub)
	return true
}

// compilePaths reads Only's dotted paths: any declared field may be named
// (one its flags, version or direction hide stays hidden); ok is false for
// a path the entity does not have.
func (c *mdlCall) compilePaths(fields []*mdlField, paths []string) (*mdlSel, bool) {
	root := &mdlSel{names: map[string]*mdlSel{}}
	for _, path := range paths {
		steps := mdlSplitFrom(path)
		level := c.selFields(fields, true, true)
		node := root
		for i, st := range steps {
			last := i == len(steps)-1
			if st == "*" && last {
				node.all = true
				break
			}
			cands := mdlMatch(level, st)
			if len(cands) == 0 {
				return nil, false
			}
			child := node.names[st]
			if child == nil {
				child = &mdlSel{names: map[string]*mdlSel{}}
				node.names[st] = child
			}
			if last {
				child.all, child.leaf = true, true
				break
			}
			child.path = true
			var ok bool
			if level, ok = c.childFields(cands, true); !ok {
				return nil, false
			}
			node = child
		}
	}
	return root, true
}

// compileExcept reads Except's dotted paths.
func (c *mdlCall) compileExcept(fields []*mdlField, paths []string) (*mdlExc, bool) {
	root := &mdlExc{names: map[string]*mdlExc{}}
	for _, path := range paths {
		steps := mdlSplitFrom(path)
		level := c.selFields(fields, true, true)
		node := root
		for i, st := range steps {
			last := i == len(steps)-1
			if st == "*" && last {
				node.all = true
				break
			}
			cands := mdlMatch(level, st)
			if len(cands) == 0 {
				return nil, false
			}
			child := node.names[st]
			if child == nil {
				child = &mdlExc{names: map[string]*mdlExc{}}
				node.names[st] = child
			}
			if last {
				child.leaf = true
				break
			}
			var ok bool
			if level, ok = c.childFields(cands, true); !ok {
				return nil, false
			}
			node = child
		}
	}
	return root, true
}
