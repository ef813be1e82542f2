package engine

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"time"

	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/internal/structread"
	"github.com/expose-go/expose/internal/textconv"
	"github.com/expose-go/expose/rules"
)

// rawKind says where a raw value's content is.
type rawKind uint8

const (
	rawAny   rawKind = iota // a: a Go value (nil is null)
	rawStr                  // s: a string, unboxed (map[string]string, JSON, struct fields)
	rawNum                  // s: the text of a JSON number
	rawJSON                 // s: the text of a JSON object or array, n: its number on the run's tape
	rawInt                  // n: an integer read from a struct field
	rawFloat                // f: a float read from a struct field
	rawFail                 // s: why reading the value failed (a driver.Valuer's error)
)

// raw is one input value as read from a source, before conversion. Values
// that are not already interfaces are carried unboxed, since boxing a string
// or an int into an interface allocates.
type raw struct {
	kind rawKind
	view bool // s views the caller's bytes (raw JSON input): an Object copies it
	// param: s (or each string of a []string a) is the text of a request's
	// parameter (path, query, header, cookie), where an integer is decimal
	// digits with an optional minus sign, nothing else (exactInt).
	param bool
	s     string
	n     int64
	f     float64
	a     any
}

// isNull reports whether the value is absent or null: nil, or a nil
// pointer, map, slice or other nilable value, which encoding/json writes as
// null.
func (r raw) isNull() bool { return r.kind == rawAny && isNil(r.a) }

// isNil reports whether v is nil or holds a nil value.
func isNil(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string, bool, int, int64, float64, json.Number, time.Time:
		return false
	case []any:
		return v == nil
	case map[string]any:
		return v == nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return rv.IsNil()
	}
	return false
}

// isNilObject reports a nil map with string keys: an empty object, which
// a $name reads as {}.
func isNilObject(in raw) bool {
	rv := reflect.ValueOf(in.a)
	return in.kind == rawAny && rv.Kind() == reflect.Map && rv.Type().Key().Kind() == reflect.String && rv.IsNil()
}

// source is an object an entity reads its fields from: exactly one of its
// fields is set.
type source struct {
	ma  map[string]any
	ms  map[string]string
	obj *Made
	rv  reflect.Value // a map with string keys of another type
	st  *structPlan   // a struct, at sp
	sp  structread.Ptr
	js  *jsonObject
	req *requestSource

	// frozen: the struct at sp is the copy an interface holds (it came by
	// value), which nothing may write (see structPlan.get).
	frozen bool

	// wire: obj is an Object of the entity being made, read by its output
	// keys (the wire form: a group as the object under its key), as a
	// request is. merged: the object is also read by the plan around a
	// merged reference of a request, which judges its keys (unknownKeys).
	// writeOnly: in a merge patch's merged value, the object read for a
	// writeonly merged reference, whose fields are writeonly too.
	wire, merged, writeOnly bool

	// unpatched: in a merge patch's merged value, the object of a group,
	// or a $name's made from its bare default, that is not writeonly
	// where the merged value holds none (the patch removed it, or neither
	// holds it): the patch gives none of its
	// writeonly fields, whose values stay the server's (see present). A
	// writeonly group's null clears its fields instead: they are read.
	unpatched bool

	// noReadOnly: in a merge patch's merged value, the object of a
	// writeonly $name or of a group of one (or of a writeonly merged
	// reference): it holds no readonly value, which no request gives and
	// the current value does not hold (its response form hides the
	// writeonly value). appendShaped leaves such nodes out.
	noReadOnly bool
}

// get returns the value the node reads.
func (s *source) get(n *node) raw {
	switch {
	case s.ma != nil:
		return raw{a: s.ma[n.in]}
	case s.ms != nil:
		if v, ok := s.ms[n.in]; ok {
			return raw{kind: rawStr, s: v}
		}
	case s.js != nil:
		if n.src != srcBody {
			return raw{} // a parameter is read from the request itself, never from a body's object
		}
		return s.js.get(n.slot)
	case s.st != nil:
		return s.st.get(s, n)
	case s.obj != nil:
		return s.objectGet(n)
	case s.req != nil:
		return s.req.get(n)
	case s.rv.IsValid():
		v := s.rv.MapIndex(reflect.ValueOf(n.in).Convert(s.rv.Type().Key()))
		if v.IsValid() {
			return raw{a: v.Interface()}
		}
	}
	return raw{}
}

// objectGet returns the value node n reads from an Object: by its key in
// the wire form, else by its name. A value field reads the member's JSON
// text as raw JSON input is read (a string as a string, a number as its
// text, an object or array as its text, which Get would decode: numbers
// through float64, keys sorted, a date as a time.Time), with no place on a
// tape, which only a typed list's elements, a from path's steps and a
// reference need (a from path's first node reads what Get gives for
// them: see node.step); a
// formatted value is read in the format of the node that wrote it (of the
// version range the Object was made in).
func (s *source) objectGet(n *node) raw {
	key := n.in
	if s.wire {
		key = n.out
	}
	text, w, ok := s.obj.member(key)
	switch {
	case !ok:
		return raw{}
	case w != nil && w.kind == nodeValue && (w.format != nil || w.each != nil && w.each.format != nil):
		if s.wire {
			return unformatted(w, text)
		}
	case n.kind == nodeValue && n.each == nil && !n.step:
		t := bytesString(text)
		return jsonElem(t, -1, t[0] == '"' && strings.IndexByte(t, '\\') < 0)
	}
	v, _ := s.obj.get(key)
	return raw{a: v}
}

// unformatted reads text, what the formatted field n (or a typed list of
// formatted elements) of an Object in the wire form wrote, as the value it
// formatted: what Make reads, so that Make of the Object writes the same.
func unformatted(n *node, text []byte) raw {
	one := func(f *format, v []byte) any {
		if x, ok := f.unformat(v); ok && x.Kind == rules.Time {
			return x.Time
		}
		return decodeAny(v)
	}
	switch {
	case n.each == nil:
		return raw{a: one(n.format, text)}
	case text[0] != '[':
		return raw{a: decodeAny(text)}
	}
	l := []any{}
	for el := (jsonwire.Elements{Data: text}); el.Next(); {
		l = append(l, one(n.each.format, el.Val))
	}
	return raw{a: l}
}

// empty reports whether the source reads nothing: the empty input a bare
// default on a reference makes its entity from.
func (s *source) empty() bool {
	return s.ma == nil && s.ms == nil && s.obj == nil && !s.rv.IsValid() && s.st == nil && s.js == nil && s.req == nil
}

// sourceOf returns v as a source for the plan p when it is an object: a
// map with string keys, an *Object, a struct or a pointer to one. A nil map
// is an empty object. An Object of p's entity is read in its wire form
// (but at a group's from path: see appendGroupApart).
func sourceOf(v any, p *objectPlan) (source, bool) {
	switch v := v.(type) {
	case map[string]any:
		return source{ma: v}, true
	case map[string]string:
		return source{ms: v}, true
	case json.RawMessage: // JSON text a Go value holds: its object, as encoding/json decodes it
		if m, ok := decodeRawMessage(v).a.(map[string]any); ok {
			return source{ma: m}, true
		}
		return source{}, false
	case nil, string, []any, bool, int, int64, float64, json.Number, time.Time, []byte, Subs:
		return source{}, false
	case holder, *Made, Sub: // an Object, or a part of one
		m := madeIn(v)
		if m == nil {
			return source{}, false
		}
		m = m.visible() // what a response sees of it
		return source{obj: m, wire: m.plan != nil && p.owner != nil && m.plan.owner != nil && m.plan.owner.slot == p.owner.slot}, true
	}
	return sourceOfOther(v, p)
}

// sourceOfOther is sourceOf for the types it does not name: a struct or a
// pointer to one is read through its plan at its address, without
// reflection; anything else through sourceOfValue.
func sourceOfOther(v any, p *objectPlan) (source, bool) {
	switch t := reflect.TypeOf(v); t.Kind() {
	case reflect.Pointer:
		if et := t.Elem(); readsFields(et) {
			sp := structread.OfPointer(v)
			if sp.IsNil() {
				return source{}, false
			}
			return source{st: p.in.structPlan(et), sp: sp}, true
		}
	case reflect.Struct:
		if readsFields(t) {
			st := p.in.structPlan(t)
			if sp, ok := st.styp.Data(v); ok {
				return source{st: st, sp: sp, frozen: true}, true
			}
		}
	}
	return sourceOfValue(reflect.ValueOf(v), p)
}

// sourceOfValue is sourceOf for a reflect.Value.
func sourceOfValue(rv reflect.Value, p *objectPlan) (source, bool) {
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return source{}, false
		}
		if rv.Kind() == reflect.Pointer && isObjectType(rv.Type().Elem()) && rv.CanInterface() { // an Object is read by its keys, never as a struct
			return sourceOf(rv.Interface(), p)
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Slice:
		if rv.Type() == rawMessageType { // an element of a []json.RawMessage
			return sourceOf(rv.Interface(), p)
		}
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return source{}, false
		}
		if rv.IsNil() {
			return source{}, true
		}
		if m, ok := rv.Interface().(map[string]any); ok {
			return source{ma: m}, true
		}
		return source{rv: rv}, true
	case reflect.Struct:
		if !readsFields(rv.Type()) {
			return source{}, false
		}
		st := p.in.structPlan(rv.Type())
		return source{st: st, sp: structread.OfValue(rv, st.styp), frozen: !rv.CanAddr()}, true
	}
	return source{}, false
}

var (
	timeType = reflect.TypeFor[time.Time]()
	subType  = reflect.TypeFor[Sub]()
	subsType = reflect.TypeFor[Subs]()
)

// readsFields reports whether a value of type t is an object read field by
// field (through its struct plan): a struct, but a time.Time (a value) and
// an Object (read by its keys).
func readsFields(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t != timeType && t != subType && t != subsType && t != madeType && !isObjectType(t)
}

// elems is a list read element by element: a Go slice or array, or the text
// of a JSON array (js).
type elems struct {
	la    []any
	lm    []map[string]any
	ls    []map[string]string
	lsub  []Sub // the objects of a list an Object holds
	rv    reflect.Value
	js    string // a JSON array
	jsOrd int32  // its number on the run's tape
	len   int    // Go lists only

	// A slice (or addressable array) of structs or of pointers to them,
	// once structs has found it: its elements are read at their
	// addresses, with the plan of their type looked up once for the list.
	st      *structPlan
	sbase   structread.Ptr
	ssize   uintptr
	sptrs   bool
	sfrozen bool // the elements are in an interface's copy of a struct (see source)
}

// structs readies a Go list of structs (or pointers to them) to be read
// with the plan p (see at): its element type's plan is found once here
// instead of once per element.
func (l *elems) structs(p *objectPlan) {
	if !l.rv.IsValid() || l.len == 0 || l.rv.Kind() == reflect.Array && !l.rv.CanAddr() {
		return
	}
	et := l.rv.Type().Elem()
	size := et.Size()
	ptrs := et.Kind() == reflect.Pointer
	if ptrs {
		et = et.Elem()
	}
	if !readsFields(et) {
		return
	}
	l.st, l.sbase, l.ssize, l.sptrs = p.in.structPlan(et), structread.SliceData(l.rv), size, ptrs
}

// at returns Go list element i as a source for the plan p.
func (l *elems) at(i int, p *objectPlan) (source, bool) {
	switch {
	case l.st != nil:
		e := l.sbase.Index(i, l.ssize)
		if l.sptrs {
			if e = e.Pointer(); e.IsNil() {
				return source{}, false
			}
		}
		return source{st: l.st, sp: e, frozen: l.sfrozen && !l.sptrs}, true
	case l.la != nil:
		return sourceOf(l.la[i], p)
	case l.lm != nil:
		return source{ma: l.lm[i]}, true
	case l.ls != nil:
		return source{ms: l.ls[i]}, true
	case l.lsub != nil:
		return sourceOf(l.lsub[i], p)
	}
	return sourceOfValue(l.rv.Index(i), p)
}

// listLen returns the length of l, a list of the run's input (a JSON
// array's counted with the run's tape).
func (r *run) listLen(l *elems) int {
	if l.js != "" {
		return jsontape.Count(l.js, l.jsOrd, r.js.tape)
	}
	return l.len
}

// isNil reports whether a Go list is a nil slice.
func (l *elems) isNil() bool {
	switch {
	case l.la != nil || l.lm != nil || l.ls != nil || l.lsub != nil || l.js != "":
		return false
	case l.rv.IsValid():
		return l.rv.Kind() == reflect.Slice && l.rv.IsNil()
	}
	return true
}

// listOf returns v as a list when it is a slice or an array (byte slices,
// which are text, excepted).
func listOf(v any) (elems, bool) {
	switch v := v.(type) {
	case []any:
		return elems{la: v, len: len(v)}, true
	case []map[string]any:
		return elems{lm: v, len: len(v)}, true
	case []map[string]string:
		return elems{ls: v, len: len(v)}, true
	case Subs: // a list an Object holds: its objects, at hand by index
		subs := make([]Sub, 0, v.Len())
		v.Each(func(_ int, s Sub) { subs = append(subs, s) })
		return elems{lsub: subs, len: len(subs)}, true
	case nil, string, []byte, json.RawMessage, map[string]any, map[string]string, bool, int, int64, float64, json.Number, time.Time, holder:
		return elems{}, false
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() && (rv.Elem().Kind() == reflect.Slice || rv.Elem().Kind() == reflect.Array) {
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return elems{}, false
		}
		return elems{rv: rv, len: rv.Len()}, true
	case reflect.Array:
		return elems{rv: rv, len: rv.Len()}, true
	}
	return elems{}, false
}

// listOfRaw returns a raw value as a list: a Go list or a JSON array.
func listOfRaw(r raw) (elems, bool) {
	switch r.kind {
	case rawAny:
		return listOf(r.a)
	case rawJSON:
		if r.s[0] == '[' {
			return elems{js: r.s, jsOrd: int32(r.n)}, true
		}
	}
	return elems{}, false
}

// bytesString views b as a string without copying. The result must not
// outlive the call that reads it (checks and writers only); values kept in
// an Object are copied.
func bytesString(b []byte) string { return jsonwire.View(b) }

// inputValue describes an input value as its own kind, before any
// conversion: what Input-stage checks and `none` fields see. A JSON object
// or array (rawJSON) is described by its kind and length only.
func inputValue(r raw) rules.Value {
	switch r.kind {
	case rawStr:
		return rules.Value{Kind: rules.String, Str: r.s}
	case rawNum, rawFloat:
		if f, ok := floatOf(r); ok {
			return rules.Value{Kind: rules.Float, Float: f}
		}
		return rules.Value{Kind: rules.Any}
	case rawInt:
		return rules.Value{Kind: rules.Int, Int: r.n}
	case rawJSON:
		if r.s[0] == '[' {
			return rules.Value{Kind: rules.List, Len: jsonwire.Count(r.s)}
		}
		return rules.Value{Kind: rules.Object, Len: jsonwire.Count(r.s)}
	}
	switch v := r.a.(type) {
	case nil:
		return rules.Value{}
	case string:
		return rules.Value{Kind: rules.String, Str: v, Any: r.a}
	case []byte:
		return rules.Value{Kind: rules.String, Str: bytesString(v), Any: r.a}
	case bool:
		return rules.Value{Kind: rules.Bool, Bool: v, Any: r.a}
	case time.Time:
		return rules.Value{Kind: rules.Time, Time: v, Any: r.a}
	case json.Number:
		if n, ok := textconv.ParseInt(string(v)); ok && jsonwire.IsInt(string(v)) {
			return rules.Value{Kind: rules.Int, Int: n, Any: r.a}
		}
		if f, ok := textconv.ParseFloat(string(v)); ok {
			return rules.Value{Kind: rules.Float, Float: f, Any: r.a}
		}
		return rules.Value{Kind: rules.Any, Any: r.a}
	}
	if n, ok := intOf(r); ok {
		return rules.Value{Kind: rules.Int, Int: n, Any: r.a}
	}
	if f, ok := floatOf(r); ok {
		return rules.Value{Kind: rules.Float, Float: f, Any: r.a}
	}
	if l, ok := listOf(r.a); ok {
		if l.isNil() {
			return rules.Value{} // a nil slice through a pointer: null
		}
		return rules.Value{Kind: rules.List, Len: l.len, Any: r.a}
	}
	if o, ok := objectLen(r.a); ok {
		return rules.Value{Kind: rules.Object, Len: o, Any: r.a}
	}
	if u, ok := underlying(r.a); ok {
		v := inputValue(raw{a: u})
		v.Any = r.a
		return v
	}
	if p, ok := pointee(r.a); ok {
		// Judged as what it points to, as a struct field's pointer is;
		// written as the pointer, which encoding/json follows.
		v := inputValue(p)
		if v.Kind != rules.Null {
			v.Any = r.a
		}
		return v
	}
	return rules.Value{Kind: rules.Any, Any: r.a}
}

// textOf returns the text of a string-like input.
func textOf(r raw) (string, bool) {
	switch r.kind {
	case rawStr:
		return r.s, true
	case rawAny:
		switch v := r.a.(type) {
		case string:
			return v, true
		case []byte:
			return bytesString(v), true
		}
	}
	return "", false
}

// intOf returns a Go integer of any size as an int64. A uint64 above
// MaxInt64 is not one.
func intOf(r raw) (int64, bool) {
	if r.kind == rawInt {
		return r.n, true
	}
	if r.kind != rawAny {
		return 0, false
	}
	switch v := r.a.(type) {
	case int:
		return int64(v), true
	case int64:
		return v, true
	case int32:
		return int64(v), true
	case int16:
		return int64(v), true
	case int8:
		return int64(v), true
	case uint:
		if uint64(v) > math.MaxInt64 {
			return 0, false
		}
		return int64(v), true
	case uint64:
		if v > math.MaxInt64 {
			return 0, false
		}
		return int64(v), true
	case uint32:
		return int64(v), true
	case uint16:
		return int64(v), true
	case uint8:
		return int64(v), true
	}
	return 0, false
}

// floatOf returns a float as a float64: a Go float, a uint64 too large for
// int64, or a JSON number (read as encoding/json reads it into an any: a
// float64). A float32 keeps its shortest decimal spelling (0.1, not
// 0.10000000149011612).
func floatOf(r raw) (float64, bool) {
	switch r.kind {
	case rawFloat:
		return r.f, true
	case rawNum:
		return textconv.ParseFloat(r.s)
	case rawAny:
	default:
		return 0, false
	}
	switch v := r.a.(type) {
	case float64:
		return v, true
	case float32:
		return float32To64(v), true
	case uint64:
		return float64(v), true
	case uint:
		return float64(v), true
	}
	return 0, false
}

func float32To64(f float32) float64 {
	var buf [32]byte
	b := jsonwire.AppendFloat(buf[:0], float64(f), 32)
	if g, ok := textconv.ParseFloat(bytesString(b)); ok {
		return g
	}
	return float64(f)
}

// objectLen returns the size of v when it is an object.
func objectLen(v any) (int, bool) {
	switch v := v.(type) {
	case map[string]any:
		return len(v), true
	case map[string]string:
		return len(v), true
	case holder, *Made, Sub:
		m := madeIn(v)
		if m == nil {
			return 0, false
		}
		return m.visible().count(), true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Map && rv.Type().Key().Kind() == reflect.String {
		return rv.Len(), true
	}
	return 0, false
}

// elem returns element i of a Go list.
func (l *elems) elem(i int) any {
	switch {
	case l.la != nil:
		return l.la[i]
	case l.lm != nil:
		return l.lm[i]
	case l.ls != nil:
		return l.ls[i]
	case l.lsub != nil:
		return l.lsub[i]
	}
	return l.rv.Index(i).Interface()
}

// read returns the value node n reads from src: under its name, or at its
// from path (and which of its number steps read an object's key: see
// fromKeysOf).
func (r *run) read(src *source, n *node) raw {
	if n.from == nil {
		return src.get(n)
	}
	in, keys := r.descend(src.get(n.from.first), n.from.rest)
	r.fromOf, r.fromKeys = n, keys
	return in
}
