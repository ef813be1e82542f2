package engine

import (
	"database/sql/driver"
	"encoding/json"
	"math"
	"reflect"
	"sync"
	"time"

	"github.com/expose-go/expose/internal/jsonfields"
	"github.com/expose-go/expose/internal/structread"
)

// Struct input: fields are matched by their json tag name, else their Go
// name, with embedded structs flattened and conflicts settled as
// encoding/json settles them. What a Go type offers is computed once per
// type (typeFields, cached), and which field each slot of an entity reads
// once per entity and type (structPlan, cached on the entity).

// structField is one JSON-visible field of a struct type.
type structField struct {
	name   string
	index  []int
	valuer bool // implements driver.Valuer: read through Value()
}

var typeFieldsCache sync.Map // reflect.Type → map[string]*structField

var valuerType = reflect.TypeFor[driver.Valuer]()

// typeFields returns the fields of struct type t that encoding/json would
// encode, by name (jsonfields.Of), each with what Make needs to read it.
func typeFields(t reflect.Type) map[string]*structField {
	if f, ok := typeFieldsCache.Load(t); ok {
		return f.(map[string]*structField)
	}
	all := jsonfields.Of(t)
	fields := make(map[string]*structField, len(all))
	for name, jf := range all {
		fields[name] = &structField{name: name, index: jf.Index,
			valuer: jf.Type.Implements(valuerType) || reflect.PointerTo(jf.Type).Implements(valuerType)}
	}
	f, _ := typeFieldsCache.LoadOrStore(t, fields)
	return f.(map[string]*structField)
}

// structPlan says how to read each slot of an input table from one struct
// type: the field's place and kind, found once (structread.Locate), so
// that reading it is a load at an offset.
type structPlan struct {
	typ    reflect.Type
	styp   structread.Type // typ, for the address of a value in an interface
	fields []structSlot    // by slot
}

// structSlot is how one slot is read from a struct.
type structSlot struct {
	loc  structread.Field
	hot  hotRead      // the fast path's read, for a direct field of a common kind
	kind reflect.Kind // loc.Type's kind, for the reads of other kinds

	// ok: the type has the field; valuer: it is read through Value();
	// valueRecv: loc.Type itself (not only its pointer) implements
	// driver.Valuer; number: a json.Number; bytes: a []byte (text, never a
	// list); indirect: an interface holds a loc.Type behind a pointer (a
	// view of it is then no copy); toStruct: a pointer to a struct.
	ok, valuer, valueRecv, number, bytes, indirect, toStruct bool

	rtype structread.Type // loc.Type, for views of it (not interfaces)
	ptype structread.Type // *loc.Type, for its address given as a pointer

	// A slice or an array of structs or of pointers to them (list), which
	// a reference reads at its address (structList): the element struct
	// type, the size of an element, whether elements are pointers, and an
	// array's length.
	list    listKind
	elem    reflect.Type
	esize   uintptr
	eptrs   bool
	arrayOf int
}

// listKind says whether a struct field is a list of structs.
type listKind uint8

const (
	listNone listKind = iota
	listSlice
	listArray
)

// hotRead is the read appendFast makes of a slot without the general
// path: a string or an integer at a fixed offset, or nothing.
type hotRead uint8

const (
	hotNone   hotRead = iota // get, which may give the fast path a string or an integer
	hotAbsent                // the type has no such field
	hotSlow                  // the general path only: a driver.Valuer (read once) or a value of another kind
	hotString                // a string of any named type but json.Number
	hotInt                   // a signed integer of any size
)

// structPlan returns the plan for reading struct type t into the slots of
// table in.
func (in *inputTable) structPlan(t reflect.Type) *structPlan {
	if p := in.lastPlan.Load(); p != nil && p.typ == t { // the type of the last call, most often
		return p
	}
	if p, ok := in.structPlans.Load(t); ok {
		in.lastPlan.Store(p.(*structPlan))
		return p.(*structPlan)
	}
	all := typeFields(t)
	p := &structPlan{typ: t, styp: structread.TypeOf(t), fields: make([]structSlot, in.nslots)}
	for name, i := range in.slots {
		if f := all[name]; f != nil {
			p.fields[i] = newStructSlot(t, f)
		} else {
			p.fields[i].hot = hotAbsent
		}
	}
	got, _ := in.structPlans.LoadOrStore(t, p)
	in.lastPlan.Store(got.(*structPlan))
	return got.(*structPlan)
}

// newStructSlot compiles the read of field f of struct type t.
func newStructSlot(t reflect.Type, f *structField) structSlot {
	loc := structread.Locate(t, f.index)
	ft := loc.Type
	s := structSlot{loc: loc, ok: true, valuer: f.valuer, kind: ft.Kind(), number: ft == jsonNumberType}
	s.valueRecv = ft.Implements(valuerType)
	s.bytes = ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Uint8
	s.toStruct = ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct
	if ft.Kind() != reflect.Interface {
		s.rtype = structread.TypeOf(ft)
		s.indirect = !s.rtype.Direct()
	}
	s.ptype = structread.TypeOf(reflect.PointerTo(ft))
	if k := ft.Kind(); !loc.Deref && (k == reflect.Slice || k == reflect.Array) {
		et := ft.Elem()
		s.esize = et.Size()
		if s.eptrs = et.Kind() == reflect.Pointer; s.eptrs {
			et = et.Elem()
		}
		if readsFields(et) {
			s.list, s.elem = listSlice, et
			if k == reflect.Array {
				s.list, s.arrayOf = listArray, ft.Len()
			}
		}
	}
	if s.valuer || loc.Kind == structread.Other {
		s.hot = hotSlow
	} else if loc.Direct() {
		switch {
		case loc.Kind == structread.String && !s.number:
			s.hot = hotString
		case loc.Kind == structread.Int:
			s.hot = hotInt
		}
	}
	return s
}

// get reads the value node n reads from the struct source src: unboxed
// when its kind allows (structread's loads); otherwise in an interface, a
// view of the value when src's struct is a copy an interface holds, or a
// copy of it when src is the caller's own memory (as reflect gives it). A
// reference (n a $ref) reads a struct, array or list field by its address
// instead, without a copy: it only walks it.
func (sp *structPlan) get(src *source, n *node) raw {
	f := &sp.fields[n.slot]
	if !f.ok {
		return raw{}
	}
	fp := f.loc.Addr(src.sp)
	if fp.IsNil() {
		return raw{} // a field of a nil embedded struct is absent; a nil pointer is null
	}
	frozen := src.frozen && !f.loc.Deref
	if f.valuer {
		return f.valuerRaw(fp, frozen)
	}
	switch f.loc.Kind {
	case structread.String:
		if f.number {
			return f.box(fp, frozen)
		}
		return raw{kind: rawStr, s: fp.String()}
	case structread.Int:
		return raw{kind: rawInt, n: fp.Int(f.loc.Size)}
	case structread.Uint:
		if u := fp.Uint(f.loc.Size); u <= math.MaxInt64 {
			return raw{kind: rawInt, n: int64(u)}
		} else {
			return raw{a: u}
		}
	case structread.Float32:
		return raw{kind: rawFloat, f: float32To64(fp.Float32())}
	case structread.Float64:
		return raw{kind: rawFloat, f: fp.Float64()}
	case structread.Bool:
		return raw{a: fp.Bool()}
	}
	ref := n.kind == nodeRef
	switch f.kind {
	case reflect.Slice:
		switch {
		case !fp.FirstWordNil():
			if ref && !f.bytes {
				return raw{a: fp.Ref(f.ptype)}
			}
		case f.bytes:
			return raw{} // []byte, json.RawMessage: text, and nil is null
		default:
			return raw{a: nilList}
		}
	case reflect.Map:
		if fp.FirstWordNil() {
			if f.loc.Type.Key().Kind() == reflect.String {
				return raw{a: nilObject}
			}
			return raw{}
		}
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		if fp.FirstWordNil() {
			return raw{}
		}
	case reflect.Pointer:
		switch {
		case fp.FirstWordNil():
			return raw{}
		case !f.toStruct:
			return rawOfValue(fp.Value(f.loc.Type).Elem()) // a pointer to a pointer, a list, a map…: followed
		}
	case reflect.Interface:
		v := fp.Value(f.loc.Type)
		if v.IsNil() {
			return raw{}
		}
		return raw{a: v.Interface()}
	case reflect.Struct, reflect.Array:
		if ref && !frozen && f.loc.Type != timeType { // frozen: a view (box), read as a copy is
			return raw{a: fp.Ref(f.ptype)}
		}
	}
	return f.box(fp, frozen)
}

// structList returns the list of structs (or of pointers to them) the
// reference n reads from the struct source src, to be made with the plan
// p, read at its address: its element type's plan found once, no reflect
// on the way. It reports false for a field that is no such list, or that
// is absent, for the general path (get).
func (sp *structPlan) structList(src *source, n *node, p *objectPlan) (elems, bool) {
	f := &sp.fields[n.slot]
	if f.list == listNone {
		return elems{}, false
	}
	fp := f.loc.Addr(src.sp)
	if fp.IsNil() {
		return elems{}, false
	}
	l := elems{sbase: fp, len: f.arrayOf, sfrozen: src.frozen && f.list == listArray}
	if f.list == listSlice {
		l.sbase, l.len = fp.Slice()
	}
	if l.len > 0 {
		l.st, l.ssize, l.sptrs = p.in.structPlan(f.elem), f.esize, f.eptrs
	}
	return l, true
}

// box returns the value at fp in an interface: a view when it is no copy
// (src's struct is an interface's copy, or the value is pointer-shaped),
// a copy otherwise.
func (f *structSlot) box(fp structread.Ptr, frozen bool) raw {
	if frozen || !f.indirect {
		return raw{a: fp.Interface(f.rtype)}
	}
	return raw{a: fp.Value(f.loc.Type).Interface()}
}

// valuerRaw reads a driver.Valuer field at fp (sql.NullString…) through
// its Value: a panic or an error there is the field's failure. A method
// with a pointer receiver is called on the field itself, or on a copy when
// the struct is an interface's copy (frozen), which nothing may write.
func (f *structSlot) valuerRaw(fp structread.Ptr, frozen bool) raw {
	var vr driver.Valuer
	switch t := f.loc.Type; {
	case f.kind == reflect.Interface:
		vr, _ = fp.Value(t).Interface().(driver.Valuer)
	case f.kind == reflect.Pointer:
		if fp.FirstWordNil() {
			return raw{}
		}
		vr, _ = fp.Interface(f.rtype).(driver.Valuer)
	case f.valueRecv || !frozen:
		vr, _ = fp.Ref(f.ptype).(driver.Valuer)
	default:
		c := reflect.New(t)
		c.Elem().Set(fp.Value(t))
		vr, _ = c.Interface().(driver.Valuer)
	}
	if vr == nil {
		return raw{}
	}
	return callValuer(vr)
}

// valued reads a driver.Valuer (sql.NullString…) that a map, a list or an
// interface holds through its Value, as a struct field of that type is
// read (valuerRaw); any other value is read as it is.
func valued(in raw) raw {
	switch in.a.(type) {
	case nil, string, bool, int, int64, float64, json.Number, time.Time, []any, map[string]any, []byte, holder, *Made, Sub, Subs:
		return in
	}
	if vr, ok := in.a.(driver.Valuer); ok && !isNil(vr) {
		return callValuer(vr)
	}
	return in
}

// callValuer calls a driver.Valuer's Value: a panic or an error is the
// field's failure.
func callValuer(vr driver.Valuer) (r raw) {
	defer func() {
		if p := recover(); p != nil {
			r = raw{kind: rawFail, s: "its Value method panicked"}
		}
	}()
	x, err := vr.Value()
	if err != nil {
		return raw{kind: rawFail, s: "its Value method failed"}
	}
	return raw{a: x}
}

// readField reads field f of the struct rv by reflection, absent when f
// is nil: what a `from` path's step into a struct reads (goStep), off the
// walk's path, which reads structs with their plan (structPlan.get).
func readField(rv reflect.Value, f *structField) raw {
	if f == nil {
		return raw{}
	}
	v := rv
	for j, x := range f.index {
		if j > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return raw{} // a field of a nil embedded struct is absent
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	if !v.CanInterface() { // an unexported embedded struct a tag names (typeFields): read, as the plan reads it
		if !v.CanAddr() {
			c := reflect.New(rv.Type()).Elem()
			c.Set(rv)
			return readField(c, f)
		}
		v = reflect.NewAt(v.Type(), v.Addr().UnsafePointer()).Elem()
	}
	if f.valuer {
		return valuerOfValue(v)
	}
	return rawOfValue(v)
}

// valuerOfValue reads a driver.Valuer (sql.NullString…) through its Value,
// by reflection (see readField).
func valuerOfValue(v reflect.Value) raw {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return raw{}
	}
	var vr driver.Valuer
	if x, ok := v.Interface().(driver.Valuer); ok {
		vr = x
	} else if v.CanAddr() {
		vr, _ = v.Addr().Interface().(driver.Valuer)
	} else {
		// A pointer-receiver Value on a struct passed by value: call it on
		// a copy.
		p := reflect.New(v.Type())
		p.Elem().Set(v)
		vr, _ = p.Interface().(driver.Valuer)
	}
	if vr == nil {
		return rawOfValue(v)
	}
	return callValuer(vr)
}

// rawOfValue reads a struct field without boxing it when its kind allows.
func rawOfValue(v reflect.Value) raw {
	switch v.Kind() {
	case reflect.String:
		if v.Type() == jsonNumberType {
			return raw{a: v.Interface()}
		}
		return raw{kind: rawStr, s: v.String()}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return raw{kind: rawInt, n: v.Int()}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if u := v.Uint(); u <= math.MaxInt64 {
			return raw{kind: rawInt, n: int64(u)}
		}
		return raw{a: v.Uint()}
	case reflect.Float32:
		return raw{kind: rawFloat, f: float32To64(float32(v.Float()))}
	case reflect.Float64:
		return raw{kind: rawFloat, f: v.Float()}
	case reflect.Bool:
		return raw{a: v.Bool()}
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return raw{}
		}
		if v.Kind() == reflect.Pointer && v.Elem().Kind() != reflect.Struct {
			return rawOfValue(v.Elem())
		}
		return raw{a: v.Interface()}
	case reflect.Slice:
		if v.IsNil() {
			if v.Type().Elem().Kind() == reflect.Uint8 {
				return raw{} // []byte, json.RawMessage: text, and nil is null
			}
			return raw{a: nilList}
		}
	case reflect.Map:
		if v.IsNil() {
			if v.Type().Key().Kind() == reflect.String {
				return raw{a: nilObject}
			}
			return raw{}
		}
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		if v.IsNil() {
			return raw{}
		}
	}
	if !v.CanInterface() {
		return raw{}
	}
	return raw{a: v.Interface()}
}

var (
	jsonNumberType = reflect.TypeFor[json.Number]()
	rawMessageType = reflect.TypeFor[json.RawMessage]()
)

// nilList stands for a nil slice read from a struct field, as a map value
// holding one reads: null to every value field (isNull), an empty list to a
// reference (listOf), as a nil slice is at the top level of a call. Boxed
// once, so that reading it allocates nothing.
var nilList any = []any(nil)

// nilObject is nilList for a nil map with string keys: null to every value
// field, an empty input to a reference, as a map value holding one reads.
var nilObject any = map[string]any(nil)
