package entity_test

// How the reference model makes an object: field by field, values,
// typed lists, groups and references, merges.

import (
	"encoding/json"
	"math/big"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// makeEntity makes one object of entity e from the object at lvl.
func (c *mdlCall) makeEntity(e *mdlEntity, lvl mdlLevel, sel *mdlSel, exc *mdlExc) any {
	if o, ok := lvl.in.(mdlObjIn); ok {
		if o.prov.entity == e.name && !o.prov.request && !o.prov.shaped && !c.shaped && !c.request {
			b, _ := o.obj.MarshalJSON()
			return mdlRaw(b)
		}
		if o.prov.entity == e.name {
			lvl.wire = true
		}
		lvl.in = o.js
	}
	fields := c.fieldsAt(e, lvl.top)
	c.denyUnknown(fields, lvl, lvl.top)
	obj := &mdlObj{}
	c.writeFields(obj, fields, lvl, sel, exc)
	return obj
}

// mdlMade is what a field made, for the cross-field rules of its object:
// whether it is present (written and not null, after defaults), its
// written value, the codes of its own failures, and whether any failure
// was recorded while it was made (its own, or one inside its value: an
// element's, a nested field's).
type mdlMade struct {
	present       bool
	out           any
	codes         []string
	failed        bool
	path, outPath mdlPath
	sec           bool
	unjudged      bool // a patch's readonly value: its own cross-field rules are not judged
	// kept: a patch's member of the current value, taken as stored
	// (keptStored): its own cross-field rules are judged only when the
	// patch gives or clears a field they name
	kept bool
}

// writeFields writes the fields of one output object, then judges their
// cross-field rules.
func (c *mdlCall) writeFields(obj *mdlObj, fields []*mdlField, lvl mdlLevel, sel *mdlSel, exc *mdlExc) {
	if w := c.reg.work; w != nil {
		if *w += 1 + len(lvl.outP); *w > mdlWorkBudget { // (each object's fields copy its path)
			panic(mdlOverBudget{})
		}
	}
	vis := c.visible(fields, false)
	var keys map[*mdlField]bool
	if c.patching {
		keys = c.visible(fields, true)
	}
	made := map[*mdlField]*mdlMade{}
	for _, f := range fields {
		if c.patching && (f.readOnly || lvl.ro) && (f.writeOnly || lvl.wo || lvl.woCleared) {
			// readonly in a writeonly group or $name (or writeonly in a
			// readonly one): no request gives it, and the current value
			// holds none, its response form hiding it (docs/requests.md)
			continue
		}
		kept := c.patching && !f.readOnly && !lvl.ro && c.keptStored(f, lvl)
		if c.patching && (f.readOnly || lvl.ro || kept) && keys[f] && !(f.kind == dsl.FieldRef && f.merge) {
			if lvl.fromPatch {
				continue // what a patch gives whole holds no readonly field (docs/requests.md)
			}
			c.writeCurrent(obj, f, lvl, sel, exc)
			// the stored value is in the merged value, which the siblings'
			// cross-field rules judge; its own are not judged
			var v any
			if cur := mdlAt(lvl.cur, f.key); cur != nil && cur.kind != mdlJNull {
				v = mdlRaw(cur.compacted())
			}
			if !lvl.fromPatch { // what a patch gives whole holds no readonly value: a rule naming one is not judged there, as in a request
				made[f] = &mdlMade{present: v != nil && !mdlOmit(f, v), out: v, unjudged: true, kept: kept,
					sec: lvl.sec || f.secret, path: lvl.inP.key(f.key), outPath: lvl.outP.key(f.key)}
			}
			continue
		}
		roMerge := c.patching && f.kind == dsl.FieldRef && f.merge && (f.readOnly || lvl.ro) && keys[f] && !lvl.fromPatch
		if !vis[f] && !roMerge {
			// (a readonly merged reference of a patch's merged value is
			// the current value's: its keys are written as stored, each a
			// readonly value of writeCurrent)
			continue
		}
		if f.kind == dsl.FieldRef && f.merge {
			if roMerge && !c.holdsKeyOf(lvl.cur, f) {
				continue // a merged reference the stored value does not hold: Make writes none of its keys
			}
			c.writeMerge(obj, f, lvl, sel, exc)
			continue
		}
		if c.patching && (f.writeOnly || lvl.wo) && !lvl.fromPatch && !lvl.woCleared && f.src == "" && mdlAt(lvl.pin, f.key) == nil {
			// a writeonly value is not part of the current value: the
			// merged Object has it only when the patch sets it or clears
			// it (a parameter is the top level's, read from the request,
			// as any: a nested object's is readonly, fieldsAt)
			continue
		}
		// a request keeps a lazy field like any other: * selects it, whole
		// (docs/shaping.md)
		sub, selected := sel.pickAs(f.key, f.lazy && !c.request)
		if (sel == nil && c.request) || c.keepAll {
			// a selection shapes what a call returns, never what a request
			// reads: without one, a lazy request field is kept
			selected = true
		}
		if f.kind == dsl.FieldValue && sub != nil && sub.path && !sub.leaf {
			selected = false // a path into a value field's fields: it has none
		}
		esub, excluded := exc.pick(f.key)
		if !c.request && (!selected || excluded) {
			continue
		}
		before := len(c.errs)
		c.lastOut, c.lastNull = nil, true
		var v any
		var omit bool
		if cur, refused := c.immutableChange(f, lvl); refused {
			// docs/requests.md, immutable: a 400 at the field, and the
			// merged value keeps the stored value there, which no other
			// rule judges
			_, _, p := c.read(f, lvl)
			c.fail(f, p, lvl.outP.key(f.key), "immutable", lvl.sec || f.secret)
			stored := lvl
			stored.in = &mdlJSON{kind: mdlJObj, keys: []string{f.key}, obj: map[string]*mdlJSON{f.key: cur}}
			mark := len(c.errs)
			v, omit = c.makeField(f, stored, sub, esub)
			c.errs = c.errs[:mark]
		} else {
			v, omit = c.makeField(f, lvl, sub, esub)
		}
		m := &mdlMade{out: c.lastOut, sec: lvl.sec || f.secret, outPath: lvl.outP.key(f.key)}
		_, _, m.path = c.read(f, lvl)
		m.present = !c.lastNull && !mdlOmit(f, c.lastOut)
		m.failed = len(c.errs) > before
		for _, e := range c.errs[before:] {
			if e.path == m.path.String() && e.in == m.path.in() {
				m.codes = append(m.codes, e.code)
			}
		}
		if lvl.cleared {
			// in an object a refused null leaves as stored, each value is
			// the server's (a refused immutable one, an object holding
			// one): taken as stored, its own cross-field rules too
			m.unjudged, m.kept = true, true
		}
		made[f] = m
		hidden := false
		if omit && (c.keepAll || (c.patching && !lvl.fromPatch)) {
			// the current value itself, which holds every field (nothing
			// left out by omitnil or omitempty), and so the merged value
			// does: a key the patch sets or clears stays, so that Bind of
			// the merged Object clears it too, but the merged Object's
			// response form leaves it out (go doc Patch: MarshalJSON writes
			// it through the response view); so does an object the
			// current value does not hold, made from a default or by a
			// writeonly group's null (docs/requests.md: the values omitnil
			// and omitempty leave out are in the merged Object, hidden)
			omit, hidden = false, c.patching
		}
		if omit || !selected || excluded {
			continue
		}
		obj.addWO(f.key, v, f.writeOnly || lvl.wo || hidden)
	}
	c.judgeCross(fields, made)
}

// keptStored reports whether, patching, f's value in the merged value is
// a member of the current value that the patch leaves, in an object the
// patch merges into: the server's, taken as stored as a readonly value is
// (docs/requests.md, step 3: no rule, type, transform, req or default
// judges it, nor its own cross-field rules). A writeonly field is never
// one (the current value holds none), nor a parameter of the top level
// (read from the request), nor what the patch gives whole or clears (a
// group's object a null leaves its readonly values of is not one the
// patch merges into).
//
// In a stored object that a refused null leaves as stored (lvl.cleared)
// every field is one, but a writeonly one, an immutable value the null
// changes (immutableChange) and a group or $name whose object holds one
// (patchCleared): the null judges nothing else of it (docs/requests.md,
// immutable).
func (c *mdlCall) keptStored(f *mdlField, lvl mdlLevel) bool {
	if lvl.cleared && !lvl.fromPatch && !lvl.woCleared && !lvl.wo && !f.writeOnly {
		cur := mdlAt(lvl.cur, f.key)
		switch {
		case f.immutable && f.kind == dsl.FieldValue && cur != nil && cur.kind != mdlJNull:
			return false
		case (f.kind == dsl.FieldGroup || f.kind == dsl.FieldRef && !f.list) && c.patchCleared(f, lvl, cur):
			return false
		}
		return true
	}
	if lvl.fromPatch || lvl.fresh || lvl.cleared || lvl.woCleared || lvl.wo || f.writeOnly || (lvl.top && f.src != "") {
		return false
	}
	return lvl.pin != nil && lvl.pin.kind == mdlJObj && mdlAt(lvl.pin, f.key) == nil && mdlAt(lvl.cur, f.key) != nil
}

// immutableChange reports whether a patch changes the immutable field f
// (docs/requests.md, "Fields set once"), and the value the current value
// holds: where it holds one (not null), outside what the patch gives
// whole, the merged value must be the same JSON value (numbers exactly,
// members in any order), or read as the same value of the field's type;
// a null that clears it is a change, and so is the null for the group or
// $name holding it (cleared).
func (c *mdlCall) immutableChange(f *mdlField, lvl mdlLevel) (*mdlJSON, bool) {
	if !c.patching || !f.immutable || lvl.fromPatch || f.kind != dsl.FieldValue {
		return nil, false
	}
	cur := mdlAt(lvl.cur, f.key)
	if cur == nil || cur.kind == mdlJNull {
		return nil, false
	}
	if lvl.cleared {
		return cur, true
	}
	in, _ := lvl.in.(*mdlJSON)
	merged := mdlAt(in, f.key)
	if merged == nil || merged.kind == mdlJNull {
		return cur, true
	}
	if mdlSameJSON(merged, cur) {
		return nil, false
	}
	if f.list || f.typ == rules.Any || f.typ == rules.Object || f.typ == rules.List {
		return cur, true
	}
	// both read as the request reads them, but that under JSONTypes a
	// value of another JSON type is compared too: the same value is a
	// type error then (its own path says so), another a change
	// (docs/requests.md, immutable)
	lenient := func(raw any) (rules.Value, any, bool, bool) {
		if v, ok := mdlUnformat(f.typ, f.format, raw); ok {
			return v, nil, false, false
		}
		return c.convert(f.typ, raw)
	}
	a, asrc, anull, abad := lenient(merged)
	b, bsrc, bnull, bbad := lenient(cur)
	if anull || bnull || abad || bbad {
		return cur, true
	}
	// the values compared, not what a format writes of them: two instants
	// a date format writes alike are two values (docs/requests.md: two
	// spellings of one instant, or a format's form of it, are the same)
	wa, errA := c.write(f.typ, a, asrc, nil)
	wb, errB := c.write(f.typ, b, bsrc, nil)
	if errA != nil || errB != nil {
		return cur, true
	}
	ta, tb := string(mdlEncode(nil, wa)), string(mdlEncode(nil, wb))
	if f.typ == rules.Int || f.typ == rules.Float {
		// numbers are the same number exactly, as two JSON numbers are
		// (mdlSameJSON): -0 and 0 are one
		x, okA := new(big.Rat).SetString(ta)
		y, okB := new(big.Rat).SetString(tb)
		if okA && okB && x.Cmp(y) == 0 {
			return nil, false
		}
		if okA && okB {
			return cur, true
		}
	}
	if ta != tb {
		return cur, true
	}
	return nil, false
}

// patchCleared reports whether, patching, the group or $name f is one the
// patch gives a null for (or one inside such, lvl.cleared) while its
// stored object, cur, holds an immutable value: the object then stays as
// stored (docs/requests.md, immutable).
func (c *mdlCall) patchCleared(f *mdlField, lvl mdlLevel, cur *mdlJSON) bool {
	if !c.patching || lvl.fromPatch || cur == nil || cur.kind != mdlJObj {
		return false
	}
	if !lvl.cleared {
		// a null, or in a lax patch anything but an object, which a lax
		// request reads as null (docs/requests.md, PATCH)
		if p := mdlAt(lvl.pin, f.key); p == nil || p.kind != mdlJNull && (c.strict || p.kind == mdlJObj) {
			return false
		}
	}
	fields := f.children
	if f.kind == dsl.FieldRef {
		e := c.reg.ents[f.ref]
		if e == nil {
			return false
		}
		fields = e.fields
	}
	return c.mdlHoldsImmutable(fields, cur, 0)
}

// mdlSameJSON reports whether two JSON values are the same: literals and
// strings (unescaped) equal, numbers of the same exact value, arrays
// element by element, objects with the same members in any order.
func mdlSameJSON(a, b *mdlJSON) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case mdlJObj:
		if len(a.keys) != len(b.keys) {
			return false
		}
		for _, k := range a.keys {
			bv, ok := b.obj[k]
			if !ok || !mdlSameJSON(a.obj[k], bv) {
				return false
			}
		}
		return true
	case mdlJArr:
		if len(a.arr) != len(b.arr) {
			return false
		}
		for i := range a.arr {
			if !mdlSameJSON(a.arr[i], b.arr[i]) {
				return false
			}
		}
		return true
	case mdlJNum:
		x, okA := new(big.Rat).SetString(string(a.raw))
		y, okB := new(big.Rat).SetString(string(b.raw))
		return okA && okB && x.Cmp(y) == 0
	case mdlJStr:
		return a.s == b.s
	case mdlJBool:
		return a.b == b.b
	}
	return true
}

// mdlHoldsImmutable reports whether the stored object cur of fields holds
// an immutable value (not null), in its groups, the objects of its $names
// and the entities merged into it too.
func (c *mdlCall) mdlHoldsImmutable(fields []*mdlField, cur *mdlJSON, depth int) bool {
	if cur == nil || cur.kind != mdlJObj || depth > 16 {
		return false
	}
	vis := c.visible(fields, true)
	for _, f := range fields {
		if !vis[f] {
			continue
		}
		switch {
		case f.merge:
			if e := c.reg.ents[f.ref]; e != nil && c.mdlHoldsImmutable(e.fields, cur, depth+1) {
				return true
			}
		case f.kind == dsl.FieldGroup:
			if !f.readOnly && c.mdlHoldsImmutable(f.children, mdlSub(cur, f.key), depth+1) {
				return true
			}
		case f.kind == dsl.FieldRef && !f.list:
			if e := c.reg.ents[f.ref]; e != nil && !f.readOnly && !f.writeOnly && c.mdlHoldsImmutable(e.fields, mdlSub(cur, f.key), depth+1) {
				return true
			}
		case f.immutable:
			if v := mdlAt(cur, f.key); v != nil && v.kind != mdlJNull {
				return true
			}
		}
	}
	return false
}

// writeCurrent writes a readonly field of a patch's merged value: the
// current value's, never the patch's (null where the current value has
// none: inside a list the patch replaces).
func (c *mdlCall) writeCurrent(obj *mdlObj, f *mdlField, lvl mdlLevel, sel *mdlSel, exc *mdlExc) {
	if _, selected := sel.pick(f); sel != nil && !selected {
		return
	}
	if _, excluded := exc.pick(f.key); excluded {
		return
	}
	cur := mdlAt(lvl.cur, f.key)
	if cur == nil && f.kind == dsl.FieldGroup && !f.list {
		// a group the current value does not hold (inside a writeonly
		// group, which is not read): read from nothing, as stored, it is
		// an object of its fields (a group always is)
		sc := &mdlCall{reg: c.reg.stored(), flags: c.flags, ver: c.ver, lang: c.lang, keepAll: true}
		g, _ := sc.makeGroup(mdlStoredFields([]*mdlField{f})[0], mdlLevel{in: &mdlJSON{kind: mdlJObj, obj: map[string]*mdlJSON{}}}, nil, nil)
		if js, err := mdlParseJSON(mdlEncode(nil, g)); err == nil {
			cur = js
		}
	}
	v := c.storedValue(f, cur, 0)
	// the merged Object holds it; its response form leaves out what
	// omitnil or omitempty leave out (go doc Patch)
	obj.addWO(f.key, v, lvl.wo || mdlOmit(f, v))
}

// storedValue is what the merged value holds of the current value's v for
// the readonly field f, taken as stored: its JSON, but that the objects of
// a group or a $name hold their members as the walk's objects do, those
// omitnil or omitempty leave out hidden from the response form.
func (c *mdlCall) storedValue(f *mdlField, v *mdlJSON, depth int) any {
	if v == nil || v.kind == mdlJNull {
		return nil
	}
	var fields []*mdlField
	switch {
	case f.kind == dsl.FieldGroup:
		fields = f.children
	case f.kind == dsl.FieldRef && c.reg.ents[f.ref] != nil:
		fields = c.reg.ents[f.ref].fields
	}
	if fields == nil || depth > mdlMaxStoredDepth {
		return mdlRaw(v.compacted())
	}
	if v.kind == mdlJArr && f.kind == dsl.FieldRef {
		list := []any{}
		for _, el := range v.arr {
			list = append(list, c.storedObject(fields, el, depth+1))
		}
		return list
	}
	return c.storedObject(fields, v, depth+1)
}

// mdlMaxStoredDepth bounds storedValue's recursion, which the stored
// value's own nesting bounds already: past the library's depth limit
// (Limits.Depth, 64 by default), so that the model never gives up where
// the library goes on.
const mdlMaxStoredDepth = 1000

// storedObject is storedValue of an object of fields.
func (c *mdlCall) storedObject(fields []*mdlField, v *mdlJSON, depth int) any {
	if v == nil || v.kind != mdlJObj {
		return c.rawOrNil(v)
	}
	obj := &mdlObj{}
	for _, k := range v.keys {
		f := c.storedField(fields, k, 0)
		if f == nil {
			obj.addWO(k, c.rawOrNil(v.obj[k]), false)
			continue
		}
		out := c.storedValue(f, v.obj[k], depth)
		obj.addWO(k, out, mdlOmit(f, out))
	}
	return obj
}

// storedField finds the field of fields (merged entities' in place) whose
// wire key is k, whatever the call's direction, among those the call's
// version and flags show: nil for none.
func (c *mdlCall) storedField(fields []*mdlField, k string, depth int) *mdlField {
	vis := c.visible(fields, true) // the call's version's and flags' (two fields may share a key across versions)
	for _, f := range fields {
		if !vis[f] {
			continue
		}
		if f.merge {
			if e := c.reg.ents[f.ref]; e != nil && depth < 16 {
				if mf := c.storedField(e.fields, k, depth+1); mf != nil {
					return mf
				}
			}
			continue
		}
		if f.key == k {
			return f
		}
	}
	return nil
}

// holdsKeyOf reports whether the object cur holds a key of the merged
// reference f's entity (of the entities it merges too).
func (c *mdlCall) holdsKeyOf(cur *mdlJSON, f *mdlField) bool {
	e := c.reg.ents[f.ref]
	if cur == nil || cur.kind != mdlJObj || e == nil {
		return false
	}
	for _, k := range cur.keys {
		if c.storedField(e.fields, k, 0) != nil {
			return true
		}
	}
	return false
}

// rawOrNil is v's JSON, nil for none or null.
func (c *mdlCall) rawOrNil(v *mdlJSON) any {
	if v == nil || v.kind == mdlJNull {
		return nil
	}
	return mdlRaw(v.compacted())
}

// writeMerge writes a merged reference's keys into obj.
func (c *mdlCall) writeMerge(obj *mdlObj, f *mdlField, lvl mdlLevel, sel *mdlSel, exc *mdlExc) {
	e := c.reg.ents[f.ref]
	sub := lvl
	sub.sec = lvl.sec || f.secret
	sub.wo = lvl.wo || f.writeOnly
	sub.ro = lvl.ro || f.readOnly
	if !lvl.wire || !c.request {
		sub.top = false // a request's merged keys are the top level's own: sources are read there
	}
	if f.lazy && (!lvl.wire || !c.request) && !c.keepAll {
		// a lazy merge field is written only where a selection names its
		// keys (an Object made again, in the wire form, too)
		named := &mdlSel{names: map[string]*mdlSel{}}
		if sel != nil {
			named.names = sel.names
		}
		sel = named
	}
	if lvl.wire {
		if mdlAbsent(lvl.in) {
			// its keys read from no object at all: its entity is made from
			// an empty input, as a bare default makes one, and one that
			// comes back to an entity being made so is a cycle
			if slices.Contains(c.stack, e.name) {
				_, _, p := c.read(f, lvl)
				c.fail(f, p, lvl.outP, "default", lvl.sec)
				return
			}
			c.stack = append(c.stack, e.name)
			defer func() { c.stack = c.stack[:len(c.stack)-1] }()
		}
		c.writeFields(obj, c.fieldsAt(e, sub.top), sub, sel, exc)
		return
	}
	// fields that are not selected are not read: the merge field is read
	// when one of its entity's fields is written
	if !c.request && (sel != nil && !sel.bare || exc != nil) && !c.mergePicked(e, sel, exc, 0) {
		// without a selection the merge field is read like any other; with
		// one, when a field of its entity is written
		return
	}
	raw, found, p := c.read(f, lvl)
	in := c.readObject(mdlNorm(raw))
	sub.inP = p
	if found && in != nil && !mdlIsObject(in) {
		// a list or anything else merges nothing: it is null
		if c.strict {
			c.fail(f, p, lvl.outP, "type", lvl.sec)
			return
		}
		in = nil
	}
	if in == nil {
		if !f.hasDefault {
			if f.req {
				c.fail(f, p, lvl.outP, "required", lvl.sec)
			}
			return
		}
		// its bare default makes the entity from an empty input, in place:
		// one that comes back to an entity being made so is a cycle
		if slices.Contains(c.stack, e.name) {
			c.fail(f, p, lvl.outP, "default", lvl.sec)
			return
		}
		c.stack = append(c.stack, e.name)
		defer func() { c.stack = c.stack[:len(c.stack)-1] }()
	}
	if o, ok := in.(mdlObjIn); ok {
		sub.wire = o.prov.entity == e.name
		in = o.js
	}
	sub.in = in
	c.denyUnknown(c.fieldsAt(e, sub.top), sub, false)
	c.writeFields(obj, c.fieldsAt(e, sub.top), sub, sel, exc)
}

// mdlAbsent reports whether an input level is no object at all (not an
// empty one).
func mdlAbsent(v any) bool {
	if js, ok := v.(*mdlJSON); ok {
		return js == nil
	}
	return v == nil
}

// mergePicked reports whether the selection writes a field of the merged
// entity e (through nested merges too).
func (c *mdlCall) mergePicked(e *mdlEntity, sel *mdlSel, exc *mdlExc, depth int) bool {
	for _, mf := range e.fields {
		if mf.merge {
			if me := c.reg.ents[mf.ref]; me != nil && depth < 16 && !mf.lazy && c.mergePicked(me, sel, exc, depth+1) {
				return true
			}
			continue
		}
		if c.directionHides(mf) { // a writeonly field of a response, which a selection may name, writes nothing
			continue
		}
		if _, ok := sel.pick(mf); ok || (sel == nil && !mf.lazy) {
			if _, ex := exc.pick(mf.key); !ex {
				return true
			}
		}
	}
	return false
}

// makeField makes one field's value; omit reports a key left out.
func (c *mdlCall) makeField(f *mdlField, lvl mdlLevel, sel *mdlSel, exc *mdlExc) (any, bool) {
	switch f.kind {
	case dsl.FieldGroup:
		return c.makeGroup(f, lvl, sel, exc)
	case dsl.FieldRef:
		if f.variants != nil {
			return c.makeUnion(f, lvl)
		}
		return c.makeRef(f, lvl, sel, exc)
	}
	raw, found, p := c.read(f, lvl)
	op := lvl.outP.key(f.key)
	sec := lvl.sec || f.secret
	if pv, ok := raw.(mdlParam); ok {
		if raw, found = c.paramInput(f, pv, p, op); !found {
			return nil, false
		}
	}
	var out any
	if f.list {
		out = c.makeTypedList(f, raw, found, p, op, sec, lvl.wire)
	} else {
		out = c.makeValue(f, raw, found, p, op, sec, lvl.wire)
		if out == nil && !c.lastNull {
			// a value its rules refuse is written all the same (its key is
			// in its object, which is then no empty one): omitnil and
			// omitempty judge what it wrote
			return nil, mdlOmit(f, c.lastOut)
		}
	}
	return out, mdlOmit(f, out)
}

// mdlOmit reports whether omitnil or omitempty leave the written value out.
func mdlOmit(f *mdlField, out any) bool {
	if out == nil {
		return f.omitNil || f.omitEmpty
	}
	if !f.omitEmpty {
		return false
	}
	switch v := out.(type) {
	case *mdlObj:
		return len(v.keys) == 0
	case []any:
		return len(v) == 0
	case mdlRaw:
		s := string(v)
		switch s {
		case "null", `""`, "false", "[]", "{}":
			return true
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && f == 0 && strings.Trim(s, "-0123456789.eE+") == "" {
			return true
		}
	}
	return false
}

// mdlObjectJSON reads an Object as a field writes it: its JSON.
func mdlObjectJSON(o *entity.Object) *mdlJSON {
	b, _ := o.MarshalJSON()
	js, err := mdlParseJSON(b)
	if err != nil || js.kind != mdlJObj {
		return &mdlJSON{kind: mdlJObj, obj: map[string]*mdlJSON{}}
	}
	return js
}

// convertWire converts as convert does, but that the wire form (a request,
// an Object made again) reads a formatted value as its format writes it.
func (c *mdlCall) convertWire(typ rules.Kind, format []string, raw any, wire bool) (rules.Value, any, bool, bool) {
	if wire {
		if v, ok := mdlUnformat(typ, format, raw); ok {
			return v, nil, false, false
		}
	}
	if len(format) == 0 && c.notJSONType(typ, raw) {
		return rules.Value{}, nil, true, true
	}
	return c.convert(typ, raw)
}

// mdlDateTime is RFC 3339's date-time (go doc entity, JSONTypes).
var mdlDateTime = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$`)

// notJSONType reports whether raw, a value of a strict request's JSON
// body in a registry of JSONTypes, is not of the JSON type of a field of
// typ that has no format (go doc entity, JSONTypes): a string for a
// number or float, a string or number for a bool, a number or text other
// than RFC 3339's date-time for a date. (A patch's current value is in
// the wire form, of those types already.)
func (c *mdlCall) notJSONType(typ rules.Kind, raw any) bool {
	j, ok := raw.(*mdlJSON)
	if !ok || !c.reg.jsonTypes || !c.request || !c.strict {
		return false
	}
	switch typ {
	case rules.Int, rules.Float:
		return j.kind == mdlJStr
	case rules.Bool:
		return j.kind == mdlJStr || j.kind == mdlJNum
	case rules.Time:
		return j.kind == mdlJNum || j.kind == mdlJStr && !mdlDateTime.MatchString(j.s)
	}
	return false
}

// convert converts an input to a value of typ: the value, what the field
// writes a list, object or none value from, whether it is null, and whether
// it failed strict conversion (a type error).
func (c *mdlCall) convert(typ rules.Kind, raw any) (rules.Value, any, bool, bool) {
	if pt, ok := raw.(mdlParamText); ok {
		return c.convertParam(typ, string(pt))
	}
	in := mdlNorm(raw)
	if in == nil || mdlIsNilCollection(in) {
		return rules.Value{}, nil, true, false
	}
	if _, ok := in.(mdlValuerFailed); ok {
		return rules.Value{}, in, true, false
	}
	bad := func() (rules.Value, any, bool, bool) {
		return rules.Value{}, nil, true, c.strict
	}
	switch typ {
	case rules.List:
		if mdlIsNilCollection(in) {
			return rules.Value{}, nil, true, false
		}
		if !mdlIsList(in) {
			return bad()
		}
		return rules.Value{Kind: rules.List, Len: mdlLen(in), Any: in}, in, false, false
	case rules.Object:
		if mdlIsNilCollection(in) {
			return rules.Value{}, nil, true, false
		}
		switch v := in.(type) {
		case *entity.Object:
			// judged as the field writes it: the Object's JSON, which holds
			// no writeonly value of a request's Object
			js := mdlObjectJSON(v)
			return rules.Value{Kind: rules.Object, Len: len(js.keys), Any: js.goValue()}, v, false, false
		case *mdlJSON:
			if v.kind != mdlJObj {
				return bad()
			}
			return rules.Value{Kind: rules.Object, Len: len(v.keys), Any: v.goValue()}, in, false, false
		case mdlObjIn:
			return rules.Value{Kind: rules.Object, Len: len(v.js.keys), Any: v.js.goValue()}, v.obj, false, false
		}
		rv := reflect.ValueOf(in)
		if rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
			return bad()
		}
		return rules.Value{Kind: rules.Object, Len: rv.Len(), Any: in}, in, false, false
	case rules.Any:
		if mdlIsNilCollection(in) {
			return rules.Value{}, nil, true, false
		}
		if o, ok := in.(mdlObjIn); ok {
			return rules.Value{Kind: rules.Object, Len: len(o.js.keys), Any: o.js.goValue()}, o.obj, false, false
		}
		if o, ok := in.(*entity.Object); ok {
			js := mdlObjectJSON(o)
			return rules.Value{Kind: rules.Object, Len: len(js.keys), Any: js.goValue()}, o, false, false
		}
		return mdlNoneValue(in), in, false, false
	}
	if mdlIsList(in) || mdlIsObject(in) {
		return bad()
	}
	v, ok := mdlConvertScalar(typ, in, c.strict)
	if !ok {
		return bad()
	}
	return v, nil, false, false
}

// defaultValue is the value a default fills a null with, converted and
// transformed as the field's own values are.
func (c *mdlCall) defaultValue(f *mdlField, typ rules.Kind) (rules.Value, any, bool) {
	if f.defArg == nil {
		switch typ {
		case rules.Any:
			return rules.Value{}, nil, true
		case rules.List:
			return rules.Value{Kind: rules.List, Any: []any{}}, []any{}, false
		case rules.Object:
			return rules.Value{Kind: rules.Object, Any: map[string]any{}}, map[string]any{}, false
		}
		v, _ := mdlConvertScalar(typ, typ.Zero(), false)
		return v, nil, false
	}
	text := f.defArg.Text
	var raw any = text
	switch typ {
	case rules.List, rules.Object:
		js, err := mdlParseJSON([]byte(text))
		if err != nil {
			panic("model: a list or object default that is not JSON: " + text)
		}
		raw = js
	case rules.Any:
		if !f.defArg.Quoted {
			if js, err := mdlParseJSON([]byte(text)); err == nil {
				raw = js
			}
		}
	}
	saved := c.strict
	c.strict = false
	v, src, null, _ := c.convert(typ, raw)
	c.strict = saved
	if !null {
		v, _ = mdlTransform(f.ops, v)
	}
	return v, src, null
}

// mdlHasTransform reports a transform among ops.
func mdlHasTransform(ops []mdlOp) bool {
	for _, o := range ops {
		if o.transform != nil {
			return true
		}
	}
	return false
}

// mdlTransform runs a field's transforms in order; a failing one gives its
// code.
func mdlTransform(ops []mdlOp, v rules.Value) (rules.Value, string) {
	for _, op := range ops {
		if op.transform == nil {
			continue
		}
		if v.Kind != rules.String {
			continue // on none, transforms change strings only
		}
		nv, _, err := op.transform.Transform(v, nil)
		if err != nil {
			return v, op.code
		}
		if nv.Kind == rules.String {
			nv.Str = strings.Clone(nv.Str)
		}
		v = nv
	}
	return v, ""
}

// makeValue makes a value field: convert, default, transform, req, checks,
// write.
func (c *mdlCall) makeValue(f *mdlField, raw any, found bool, p, op mdlPath, sec, wire bool) any {
	v, src, null, typeErr := c.convertWire(f.typ, f.format, raw, wire)
	if typeErr {
		c.fail(f, p, op, "type", sec)
		return nil
	}
	if _, ok := src.(mdlValuerFailed); ok {
		c.fail(f, p, op, "value", sec)
		return nil
	}
	fromDefault := false
	if null && f.hasDefault {
		v, src, null = c.defaultValue(f, f.typ)
		fromDefault = true
	}
	if null {
		if f.req {
			c.fail(f, p, op, "required", sec)
		}
		return nil
	}
	_, isBytes := src.([]byte)
	if !fromDefault && !isBytes {
		// on none, transforms change strings only: a []byte is written as
		// base64, not as text
		var code string
		if v, code = mdlTransform(f.ops, v); code != "" {
			c.fail(f, p, op, code, sec)
			return nil
		}
		if isBytes && mdlHasTransform(f.ops) {
			src = nil
		}
	}
	passed := c.check(f, f.ops, f.typ, v, p, op, sec)
	out, err := c.write(f.typ, v, src, f.format)
	if err != nil {
		c.fail(f, p, op, "json", sec)
		return nil
	}
	c.lastOut, c.lastNull = out, false
	if !passed {
		return nil
	}
	return out
}

// check runs the checks of ops on v; it reports whether all passed.
func (c *mdlCall) check(f *mdlField, ops []mdlOp, typ rules.Kind, v rules.Value, p, op mdlPath, sec bool) bool {
	ok := true
	for _, o := range ops {
		if o.check == nil || o.def.Implied.Has(typ) {
			continue
		}
		if err := o.check.Check(v); err != nil {
			c.fail(f, p, op, o.code, sec)
			if (sec || (f != nil && f.secret)) && o.code == "in" {
				// a secret field's own values (those its in lists) are in no
				// message or param
				e := &c.errs[len(c.errs)-1]
				e.secret, e.forbidden = true, append(e.forbidden, o.args...)
			}
			ok = false
		}
	}
	return ok
}

// write writes a value of typ.
func (c *mdlCall) write(typ rules.Kind, v rules.Value, src any, format []string) (mdlRaw, error) {
	switch typ {
	case rules.List, rules.Object, rules.Any:
		if b, ok := src.([]byte); ok && typ == rules.Any {
			out, _ := json.Marshal(b)
			return mdlRaw(out), nil
		}
		if typ == rules.Any && v.Kind == rules.String {
			return mdlRaw(mdlEncodeString(nil, v.Str)), nil
		}
		if j, ok := src.(*mdlJSON); ok {
			return mdlRaw(j.compacted()), nil
		}
		b, err := json.Marshal(src)
		if err != nil {
			return nil, err
		}
		return mdlRaw(b), nil
	}
	return mdlWriteScalar(typ, v, format)
}

// makeTypedList makes a []string (…) field.
func (c *mdlCall) makeTypedList(f *mdlField, raw any, found bool, p, op mdlPath, sec, wire bool) any {
	in := mdlNorm(raw)
	var out []any
	switch {
	case in == nil || mdlIsNilCollection(in):
	case !mdlIsList(in):
		if c.strict {
			c.fail(f, p, op, "type", sec)
			return nil
		}
	default:
		out = []any{}
		for i, el := range mdlElems(in) {
			if c.request && c.strict && mdlNorm(el) == nil {
				// a null element of a typed list in a request is a type
				// error at its index, as for a []$x
				c.fail(f, p.idx(i), op.idx(i), "type", sec)
				out = append(out, nil)
				continue
			}
			out = append(out, c.makeElem(f, el, p.idx(i), op.idx(i), sec, wire))
		}
	}
	if out == nil && f.hasDefault {
		out = []any{}
		if f.defArg != nil {
			js, err := mdlParseJSON([]byte(f.defArg.Text))
			if err != nil || js.kind != mdlJArr {
				panic("model: a typed list default that is not a JSON array")
			}
			saved := c.strict
			c.strict = false
			for i, el := range js.arr {
				out = append(out, c.makeElem(f, el, p.idx(i), op.idx(i), sec, false))
			}
			c.strict = saved
		}
	}
	if out == nil {
		if f.req {
			c.fail(f, p, op, "required", sec)
		}
		return nil
	}
	c.lastOut, c.lastNull = out, false
	if !c.check(f, f.ops, rules.List, rules.Value{Kind: rules.List, Len: len(out), Any: out}, p, op, sec) {
		return nil
	}
	return out
}

// makeElem makes one element of a typed list, as a field of the element
// type with the each rules.
func (c *mdlCall) makeElem(f *mdlField, raw any, p, op mdlPath, sec, wire bool) any {
	v, _, null, typeErr := c.convertWire(f.elem, f.eachFormat, raw, wire)
	if typeErr {
		c.fail(f, p, op, "type", sec)
		return nil
	}
	if null {
		return nil
	}
	var code string
	if v, code = mdlTransform(f.each, v); code != "" {
		c.fail(f, p, op, code, sec)
		return nil
	}
	if !c.check(f, f.each, f.elem, v, p, op, sec) {
		return nil
	}
	out, _ := mdlWriteScalar(f.elem, v, f.eachFormat)
	return out
}

// makeGroup makes a group: an object of fields read from the same input
// level, or from the object at its from path (in the wire form, the object
// under its key).
func (c *mdlCall) makeGroup(f *mdlField, lvl mdlLevel, sel *mdlSel, exc *mdlExc) (any, bool) {
	sub := lvl
	sub.outP = lvl.outP.key(f.key)
	sub.sec = lvl.sec || f.secret
	sub.top = false
	if c.patching && (f.writeOnly || lvl.wo) && !lvl.woCleared {
		// a writeonly group's fields are writeonly: a patch's merged value
		// holds each only where the patch gives its key; a null for the
		// group (or, under Lax, anything else that is no object, read as
		// null) clears them all, which are then read (a req one fails),
		// those of its groups too (a group in a writeonly group is one
		// too: a null for it clears its fields)
		p := mdlAt(lvl.pin, f.key)
		sub.wo = p == nil || p.kind == mdlJObj
		sub.woCleared = !sub.wo
	}
	if lvl.wire || f.from != nil {
		var raw any
		var found bool
		if lvl.wire {
			raw, found = mdlLookup(lvl.in, f.key)
			if pv, ok := raw.(mdlParam); ok {
				raw = mdlParamText(pv.vals[0]) // a parameter is text, no object
			}
			sub.inP = c.keyPath(lvl, f.key)
			sub.cur, sub.pin = mdlSub(lvl.cur, f.key), mdlSub(lvl.pin, f.key)
			if lvl.fromPatch {
				sub.cur = nil
			}
		} else {
			raw, found, sub.inP = c.readFrom(lvl.in, f.from, lvl.inP)
		}
		in := c.readObject(mdlNorm(raw))
		if o, ok := in.(mdlObjIn); ok {
			in = o.js
		}
		if c.patchCleared(f, lvl, sub.cur) {
			in, sub.cleared = sub.cur, true // kept as stored: each immutable value in it fails
		}
		if !mdlIsObject(in) {
			if found && in != nil && c.strict && lvl.wire {
				c.fail(f, sub.inP, sub.outP, "type", lvl.sec)
				return nil, false
			}
			if f.req && lvl.wire && c.request {
				// a request must send a req group's object
				c.fail(f, sub.inP, sub.outP, "required", lvl.sec)
				return nil, false
			}
			in = nil
		}
		sub.in = in
		if lvl.wire {
			c.denyUnknown(f.children, sub, false)
		}
	}
	obj := &mdlObj{}
	c.writeFields(obj, f.children, sub, sel, exc)
	return obj, f.omitEmpty && len(obj.keys) == 0
}

// makeRef makes a $x or []$x field.
func (c *mdlCall) makeRef(f *mdlField, lvl mdlLevel, sel *mdlSel, exc *mdlExc) (any, bool) {
	raw, _, p := c.read(f, lvl)
	if pv, ok := raw.(mdlParam); ok {
		raw = mdlParamText(pv.vals[0]) // a parameter is text, no object
		if f.list && len(pv.vals) > 1 && (c.strict || pv.in != "query") {
			// a repeated key is a list, of texts, no objects (one value is
			// the field's text; Lax reads a repeated query key's first, as
			// for any field that is no list of values)
			l := make([]any, len(pv.vals))
			for i, v := range pv.vals {
				l[i] = mdlParamText(v)
			}
			raw = l
		}
	}

	op := lvl.outP.key(f.key)
	e := c.reg.ents[f.ref]
	in := c.readObject(mdlNorm(raw))
	sec := lvl.sec || f.secret
	// patching, an element of a list the patch replaces is read as a
	// request's; any other object has the current value's beside it
	// an object the patch gives where none is stored is read as a request
	// reads it, once merged into nothing (its nulls removed, RFC 7396)
	fresh := c.patching && !lvl.fromPatch && !f.list && mdlSub(lvl.pin, f.key) != nil && mdlSub(lvl.cur, f.key) == nil
	replaced := lvl.fromPatch || (f.list && mdlAt(lvl.pin, f.key) != nil) || fresh
	curOf := func(i int) *mdlJSON {
		v := mdlAt(lvl.cur, f.key)
		if replaced || v == nil {
			return nil
		}
		if i < 0 {
			return mdlSub(lvl.cur, f.key)
		}
		if v.kind == mdlJArr && i < len(v.arr) && v.arr[i].kind == mdlJObj {
			return v.arr[i]
		}
		return nil
	}
	pinOf := func(obj any, i int) *mdlJSON {
		if i < 0 {
			return mdlSub(lvl.pin, f.key)
		}
		if js, ok := obj.(*mdlJSON); ok && replaced {
			return js
		}
		return nil
	}
	cleared := lvl.cleared && !replaced && !f.list // a list's elements have no identity: none is compared
	// a patch's null for a writeonly $name (itself, or as a field of a
	// writeonly group) clears it, as a writeonly group's: its default's
	// object holds each of its fields (read from
	// nothing), writeonly ones too; so does (under Lax) any value that is
	// no object, read as null
	pv := mdlAt(lvl.pin, f.key)
	woCleared := lvl.woCleared || c.patching && !lvl.fromPatch && (f.writeOnly || lvl.wo) && pv != nil && pv.kind != mdlJObj && pv.kind != mdlJArr
	make1 := func(obj any, p, op mdlPath, i int) any {
		// (a bare default's empty input is no wire form, but in a request,
		// whose paths are those of the wire form: a group's fields are
		// under its key)
		return c.makeEntity(e, mdlLevel{in: obj, inP: p, outP: op, wire: lvl.wire && (obj != nil || c.request), sec: sec,
			cur: curOf(i), pin: pinOf(obj, i), fromPatch: replaced, cleared: cleared, fresh: (lvl.fresh || fresh) && i < 0, woCleared: woCleared}, sel, exc)
	}
	if !f.list && !replaced && !f.readOnly && c.patchCleared(f, lvl, curOf(-1)) {
		in, cleared = curOf(-1), true // kept as stored: each immutable value in it fails
	}
	var out any
	null := false
	switch {
	case in == nil:
		null = true
	case f.list && mdlIsList(in):
		list := []any{}
		for i, el := range mdlElems(in) {
			el = c.readObject(mdlNorm(el))
			if mdlIsObject(el) {
				list = append(list, make1(el, p.idx(i), op.idx(i), i))
				continue
			}
			if c.strict {
				c.fail(f, p.idx(i), op.idx(i), "type", sec)
			}
			list = append(list, nil)
		}
		out = list
	case !f.list && mdlIsObject(in):
		out = make1(in, p, op, -1)
	case !f.list && mdlIsList(in) && !(c.request && lvl.wire):
		list := []any{}
		for i, el := range mdlElems(in) {
			el = c.readObject(mdlNorm(el))
			if mdlIsObject(el) {
				list = append(list, make1(el, p.idx(i), op.idx(len(list)), i))
				continue
			}
			if c.strict {
				c.fail(f, p.idx(i), op.idx(len(list)), "type", sec)
			}
		}
		out = list
	default:
		if c.strict {
			c.fail(f, p, op, "type", sec)
			return nil, mdlOmit(f, nil) // a failed value is null: omitnil and omitempty leave it out, as any null (its object's emptiness, for a cross-field rule)
		}
		null = true
	}
	if null && f.hasDefault {
		null = false
		if f.list {
			out = []any{}
		} else {
			out = c.makeFromEmpty(f, e, make1, p, op, sec)
		}
	}
	if null {
		if f.req {
			c.fail(f, p, op, "required", sec)
		}
		return nil, f.omitNil || f.omitEmpty
	}
	c.lastOut, c.lastNull = out, out == nil // nil: a cycle of defaults, which writes null
	if l, ok := out.([]any); ok && len(f.ops) > 0 {
		c.check(f, f.ops, rules.List, rules.Value{Kind: rules.List, Len: len(l), Any: l}, p, op, sec)
	}
	return out, mdlOmit(f, out)
}

// makeFromEmpty makes the entity of a bare default from an empty input;
// bare defaults that come back to an entity being made this way are a
// cycle (code "default").
func (c *mdlCall) makeFromEmpty(f *mdlField, e *mdlEntity, make1 func(any, mdlPath, mdlPath, int) any, p, op mdlPath, sec bool) any {
	for _, n := range c.stack {
		if n == e.name {
			c.fail(f, p, op, "default", sec)
			return nil
		}
	}
	c.stack = append(c.stack, e.name)
	defer func() { c.stack = c.stack[:len(c.stack)-1] }()
	return make1(nil, p, op, -1)
}
