package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/rules"
)

// Unions: "payment", "$card|$invoice", "by 'method'" is one object made
// with one of the variant entities, told apart by the value of its key
// (method), which is the variant's name. The key is no field of the
// variants: a response writes it first, then the variant's fields; a
// request reads it to pick the variant.

// unionPlan is a union node's table of variants, in the order written.
// The walk matches the key's text against their names, nothing more.
type unionPlan struct {
	key      string    // the key its directive by names
	variants []variant // in the order written
	names    []any     // the variants' names, for the params of a failure at the key
	// keyNode reads the key's value from an object, through keys, a plan
	// of its own whose input table holds only the key.
	keyNode *node
	keys    *objectPlan
	err     error // the error of a missing or unknown key
}

// variant is one variant of a union.
type variant struct {
	idx  int // its index among the union's variants
	name string
	slot *slot
	head []byte // `"key":"name"`, written first in the variant's object
	// n is the union node as a reference to this variant, in the view the
	// union node belongs to (forView): the walk writes the variant's
	// object as it writes a $name's.
	n *node
}

// union compiles a union field: its variants, each an entity named once,
// and the key of its directive by. It takes the directives of a
// reference but for default, merge, from and immutable, which would have
// to choose a variant or a key of their own.
func (c *compiler) union(f *dsl.Field, n *node, by *dsl.Rule) {
	for _, r := range f.Rules {
		switch d := rules.LookupDirective(r.Name); {
		case d == rules.DirectiveBy, d.Cross():
		case d == rules.NotDirective && f.List && listRules[strings.ToLower(r.Name)]:
		case d == rules.DirectiveDefault, d == rules.DirectiveMerge, d == rules.DirectiveFrom, d == rules.DirectiveImmutable, d.Source():
			c.errorf(f, r.Pos, "rule %q cannot apply to a union ($%s): a union takes only %s and by", r.Name, strings.Join(f.Variants, "|$"), directiveList(unionDirectives))
		case !slices.Contains(unionDirectives, d) && c.unknownRule(f, r, directiveNames(unionDirectives), fmt.Sprintf(": a union takes only %s and by", directiveList(unionDirectives))):
		case !slices.Contains(unionDirectives, d):
			c.errorf(f, r.Pos, "rule %q cannot apply to a union ($%s): a union takes only %s and by", r.Name, strings.Join(f.Variants, "|$"), directiveList(unionDirectives))
		}
	}
	key := ""
	switch {
	case by == nil:
		c.errorf(f, f.TypePos, "the union $%s has no key: say which key names the variant with by 'key'", strings.Join(f.Variants, "|$"))
	case len(by.Args) != 1 || by.Args[0].Text == "":
		c.errorf(f, by.Pos, "rule %q takes one argument, the key whose value names the variant", by.Name)
	default:
		key = by.Args[0].Text
	}
	u := &unionPlan{key: key}
	for _, name := range f.Variants {
		s := c.env.slotFor(name)
		head := jsonwire.AppendString(nil, key)
		head = jsonwire.AppendString(append(head, ':'), name)
		u.variants = append(u.variants, variant{idx: len(u.variants), name: name, slot: s, head: head})
		u.names = append(u.names, name)
		if e := s.e.Load(); e != nil && key != "" {
			c.unionKeyClash(f, e, key)
		}
	}
	u.keyNode = &node{kind: nodeValue, in: key, out: key, typ: rules.String, decl: f}
	t := newInputTable()
	u.keyNode.slot = t.slot(key)
	t.keys = jsontape.NewKeyTable(t.slots)
	u.keys = &objectPlan{nodes: []*node{u.keyNode}, head: u.keyNode, in: t, owner: c.ent}
	u.err = errors.New("must be one of " + strings.Join(f.Variants, ", "))
	n.union = u
	n.merge, n.from, n.refDefault, n.hasDefault = false, nil, false, false // refused above
	n.refList = f.List
	n.refOne = !f.List && c.env.SingleRefs
	c.ent.unions = append(c.ent.unions, n)
}

// unionDirectives are the directives a union takes besides by.
var unionDirectives = []rules.Directive{rules.DirectiveNone, rules.DirectiveReq, rules.DirectiveSecret, rules.DirectiveOmitNil,
	rules.DirectiveRename, rules.DirectiveMsg, rules.DirectiveLazy, rules.DirectiveIf, rules.DirectiveUnless,
	rules.DirectiveSince, rules.DirectiveUntil, rules.DirectiveOmitEmpty, rules.DirectiveReadOnly, rules.DirectiveWriteOnly,
	rules.DirectiveDoc}

// unionKeyClash reports a variant that declares the union's key as a
// field of its own: the key names the variant, it is no field of it.
func (c *compiler) unionKeyClash(f *dsl.Field, e *Entity, key string) {
	if msg := variantKeyClash(e, key); msg != "" {
		c.errorf(f, f.TypePos, "%s", msg)
	}
}

// variantKeyClash says how the variant e declares the key, or "".
func variantKeyClash(e *Entity, key string) string {
	for _, bn := range e.base.nodes {
		if bn.in == key || bn.out == key {
			return fmt.Sprintf("variant $%s declares field %q, the union's key: the key names the variant and is written by the union, so no variant may declare it", e.name, bn.decl.Name)
		}
	}
	return ""
}

// forView returns the union of the view node n: its variants as
// references of that view.
func (u *unionPlan) forView(n *node) *unionPlan {
	v := *u
	v.variants = slices.Clone(u.variants)
	for i := range v.variants {
		vn := new(node)
		*vn = *n
		vn.union, vn.ref, vn.wire = nil, v.variants[i].slot, nil
		v.variants[i].n = vn
	}
	return &v
}

// find returns the variant named name, or nil.
func (u *unionPlan) find(name string) *variant {
	for i := range u.variants {
		if u.variants[i].name == name {
			return &u.variants[i]
		}
	}
	return nil
}

// appendUnion writes a union read from src: null, the variant's object
// (the key first), or a list of them ([]$a|$b).
func (r *run) appendUnion(dst []byte, n *node, src *source, depth int) []byte {
	in := r.read(src, n)
	if m, ok := in.a.(json.RawMessage); ok && in.kind == rawAny {
		in = decodeRawMessage(m)
	}
	if r.dir == dirPatch { // a merge patch's merged value
		switch {
		case n.readOnly: // the server's, as it is
			return r.unionInView(dirStored, dst, n, in, depth)
		case in.kind == rawJSON && len(r.js.fresh) > 0:
			if _, ok := slices.BinarySearch(r.js.fresh, int32(in.n)); ok { // a new variant, or list: as a request reads it
				return r.unionInView(dirRequest, dst, n, in, depth)
			}
		}
	}
	if n.refList {
		return r.appendUnionList(dst, n, in, depth)
	}
	return r.appendVariant(dst, n, in, depth)
}

// unionInView writes a union of a merge patch's merged value, read in in,
// with the view d of its variants (see appendInView).
//
//go:noinline
func (r *run) unionInView(d direction, dst []byte, n *node, in raw, depth int) []byte {
	saved, mask := r.dir, r.mask
	r.dir, r.mask = d, nil
	if n.refList {
		dst = r.appendUnionList(dst, n, in, depth)
	} else {
		dst = r.appendVariant(dst, n, in, depth)
	}
	r.dir, r.mask = saved, mask
	return dst
}

// appendVariant writes one object of the union n, read in in.
func (r *run) appendVariant(dst []byte, n *node, in raw, depth int) []byte {
	u := n.union
	if in.isNull() {
		if n.req {
			r.fail(n, "req", errRequired)
		}
		return append(dst, "null"...)
	}
	name, isObj := r.unionKey(u, in)
	if !isObj {
		r.failType(n, arrivedAs(in))
		return append(dst, "null"...)
	}
	v := u.find(name)
	if v == nil { // missing or unknown: at the key, naming the variants (never the value)
		r.push(frame{n: n, kind: frameRef, keys: r.fromKeysOf(n)})
		r.record(u.keyNode, failure{rule: "in", code: "in", params: map[string]any{"values": slices.Clone(u.names)}, err: u.err})
		r.pop()
		return append(dst, "null"...)
	}
	ent := r.refTarget(v.n)
	if ent == nil {
		return append(dst, "null"...)
	}
	p := ent.refView(r.dir, true)
	mark := len(dst)
	dst = append(append(dst, '{'), v.head...) // the key first
	obj := len(dst)
	saved, mask := r.variant, r.mask
	r.variant = variantAt{key: u.key, depth: r.depth + 1} // appendRefObject's frame
	if mask != nil {
		r.mask = mask.alts[v.idx] // the selection of its object (compile_mask.go)
	}
	if in.kind == rawJSON {
		dst = r.appendRefJSON(dst, v.n, p, in.s, int32(in.n), depth)
	} else {
		dst = r.appendRefOther(dst, v.n, p, in, depth)
	}
	r.variant, r.mask = saved, mask
	return joinKey(dst, mark, obj)
}

// variantAt is the key of the union whose variant's object is made at a
// depth of the run's frames.
type variantAt struct {
	key   string
	depth int
}

// variantValue is a Go value of a union's variant that says which
// (package entity's Variant).
type variantValue interface{ Variant() string }

// unionKey reads the key of the union u from in, which obj reports is an
// object; name is the key's text, or "" when it is missing or no string.
func (r *run) unionKey(u *unionPlan, in raw) (name string, obj bool) {
	var v raw
	switch {
	case in.kind == rawJSON && in.s[0] == '{':
		jo := r.takeJSON(in.s, int32(in.n), u.keys.in)
		v = jo.get(u.keyNode.slot)
		r.releaseJSON()
	case in.kind == rawAny:
		if v, ok := in.a.(variantValue); ok { // a Go value that says its variant (entity.Variant)
			return v.Variant(), true
		}
		sub, ok := sourceOf(in.a, u.keys)
		if !ok {
			return "", false
		}
		v = sub.get(u.keyNode)
	default:
		return "", false
	}
	switch v.kind {
	case rawStr:
		return v.s, true
	case rawAny:
		s, _ := v.a.(string)
		return s, true
	}
	return "", true
}

// appendUnionList writes a []$a|$b: a list whose elements are each the
// object of one variant, told by its own key.
func (r *run) appendUnionList(dst []byte, n *node, in raw, depth int) []byte {
	l, dst, ok := r.listHead(dst, n, in, depth)
	if !ok {
		return dst
	}
	r.push(frame{n: n, kind: frameRef, keys: r.fromKeysOf(n)})
	r.push(frame{kind: frameIndex})
	d := r.depth - 1
	f := r.fixedFrame(d)
	dst = append(dst, '[')
	elem := func(i int, x raw) bool {
		if i > 0 {
			dst = append(dst, ',')
		}
		if !r.elemAt(f, i, i, depth <= 1) {
			return false
		}
		dst = r.appendElemVariant(dst, n, x, depth-2)
		return !r.stop
	}
	if l.js != "" {
		jsontape.EachValue(l.js, l.jsOrd, r.js.tape, func(i int, text string, k int32, plain bool) bool {
			return elem(i, jsonElem(text, k, plain))
		})
	} else {
		for i := 0; i < l.len && elem(i, raw{a: l.elem(i)}); i++ {
		}
	}
	r.pop()
	r.pop()
	return append(dst, ']')
}

// appendElemVariant writes one element of the list of unions n, read in
// x, at the index the run's frames hold: null (a strict read refuses
// anything but an object), or the object of its variant, the key first.
func (r *run) appendElemVariant(dst []byte, n *node, x raw, depth int) []byte {
	u := n.union
	name, isObj := "", false
	if !x.isNull() {
		name, isObj = r.unionKey(u, x)
	}
	if !isObj {
		if r.cfg.strict {
			r.failNotObject(notObject(x))
		}
		return append(dst, "null"...)
	}
	v := u.find(name)
	if v == nil {
		r.record(u.keyNode, failure{rule: "in", code: "in", params: map[string]any{"values": slices.Clone(u.names)}, err: u.err})
		return append(dst, "null"...)
	}
	ent := r.refTarget(v.n)
	if ent == nil {
		return append(dst, "null"...)
	}
	if depth < 0 {
		r.fail(n, "depth", ErrDepth)
		return append(dst, "null"...)
	}
	p := ent.refView(r.dir, true)
	mark := len(dst)
	dst = append(append(dst, '{'), v.head...) // the key first
	obj := len(dst)
	saved, mask := r.variant, r.mask
	r.variant = variantAt{key: u.key, depth: r.depth}
	if mask != nil {
		r.mask = mask.alts[v.idx] // the selection of its object (compile_mask.go)
	}
	defer func() { r.variant, r.mask = saved, mask }()
	if x.kind == rawJSON {
		jo := r.takeJSON(x.s, int32(x.n), p.in)
		dst = r.appendObject(dst, p, &source{js: jo}, depth)
		r.releaseJSON()
	} else if sub, ok := sourceOf(x.a, p); ok {
		dst = r.appendMade(dst, p, &sub, depth)
	} else {
		return append(dst[:mark], "null"...)
	}
	return joinKey(dst, mark, obj)
}

// joinKey joins the variant's object, written at dst[obj:], to its key,
// written before it from mark ("{" and the key's member): the object's
// "{" becomes the comma after the key (or its "}" when it is empty), so
// that nothing it wrote moves (an Object keeps the places of its members).
// Anything else written (null, at the depth limit) stands alone.
func joinKey(dst []byte, mark, obj int) []byte {
	switch {
	case len(dst) < obj+2 || dst[obj] != '{':
		return append(dst[:mark], dst[obj:]...)
	case dst[obj+1] == '}':
		dst[obj] = '}'
		return dst[:obj+1]
	}
	dst[obj] = ','
	return dst
}

// of returns the variant whose object v is (the text a union wrote: the
// key first), or nil.
func (u *unionPlan) of(v string) *variant {
	if len(v) < 2 || v[0] != '{' {
		return nil
	}
	for i := range u.variants {
		h := u.variants[i].head
		if len(v) > len(h)+1 && string(v[1:1+len(h)]) == string(h) && (v[1+len(h)] == ',' || v[1+len(h)] == '}') {
			return &u.variants[i]
		}
	}
	return nil
}

// planOf returns the plan of direction d of the variant whose object v
// is, or nil.
func (u *unionPlan) planOf(v []byte, d direction) *objectPlan {
	if x := u.of(bytesString(v)); x != nil {
		if e := x.slot.e.Load(); e != nil {
			return e.refView(d, true)
		}
	}
	return nil
}

// unionValue decodes the current member's value, a union's object or list
// of them, as value does: each object read with its variant's plan (the
// key among its members), or as plain JSON when it names none.
func (it *memberIter) unionValue(v []byte, plain bool) any {
	one := func(v []byte) any {
		p := it.n.union.planOf(v, it.dir)
		switch {
		case p == nil:
			return decodeAny(v)
		case plain:
			return (&Made{plan: p, data: v, made: it.made, hid: it.hid}).mapOf()
		}
		return Sub{plan: p, data: v, made: it.made, hid: it.hid}
	}
	if v[0] == '{' {
		return one(v)
	}
	if !plain {
		return Subs{data: v, made: it.made, hid: it.hid, union: it.n.union, dir: it.dir}
	}
	l := []any{}
	for el := (jsonwire.Elements{Data: v}); el.Next(); {
		if el.Val[0] != '{' {
			l = append(l, nil)
			continue
		}
		l = append(l, one(el.Val))
	}
	return l
}
