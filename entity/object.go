package entity

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/expose-go/expose/rules"
)

// Object is an entity's output as Go values: its keys in declaration order
// and their values. Values are nil (null), string, int64, float64, bool,
// time.Time (in UTC), *Object (groups and references), []*Object (lists of
// references), or the value passed through for none, list and object
// fields. An Object is immutable.
type Object struct {
	plan *objectPlan // the keys, pre-escaped too: shared, never modified
	vals []ovalue
}

// ovalue is one value of an Object, kept unboxed: boxing every int and
// string into an interface would cost an allocation per field.
type ovalue struct {
	kind ovKind
	ns   uint32 // ovTime: nanoseconds
	s    string // ovString
	n    uint64 // ovInt: int64 bits; ovFloat: float64 bits; ovBool: 0 or 1; ovTime: Unix seconds
	a    any    // ovAny: *Object, []*Object or a passed-through value
}

type ovKind uint8

const (
	ovNull ovKind = iota
	ovString
	ovInt
	ovFloat
	ovBool
	ovTime
	ovAny
)

// get returns the value as the Go value Object documents.
func (v ovalue) get() any {
	switch v.kind {
	case ovString:
		return v.s
	case ovInt:
		return int64(v.n)
	case ovFloat:
		return math.Float64frombits(v.n)
	case ovBool:
		return v.n != 0
	case ovTime:
		return v.time()
	}
	return v.a
}

// time returns an ovTime value's time, in UTC.
func (v ovalue) time() time.Time { return time.Unix(int64(v.n), int64(v.ns)).UTC() }

// appendJSON writes the value as MakeJSON writes it.
func (v ovalue) appendJSON(dst []byte, depth int) ([]byte, error) {
	switch v.kind {
	case ovNull:
		return append(dst, "null"...), nil
	case ovString:
		return appendString(dst, v.s), nil
	case ovInt:
		return strconv.AppendInt(dst, int64(v.n), 10), nil
	case ovFloat:
		return appendFloat(dst, math.Float64frombits(v.n), 64), nil
	case ovBool:
		return strconv.AppendBool(dst, v.n != 0), nil
	case ovTime:
		return appendTime(dst, v.time()), nil
	}
	return appendAny(dst, v.a, depth)
}

// Len returns the number of keys.
func (o *Object) Len() int { return len(o.vals) }

// Keys returns the keys in output order.
func (o *Object) Keys() []string { return append([]string(nil), o.plan.keys...) }

// Get returns the value stored under key and whether the key is there.
func (o *Object) Get(key string) (any, bool) {
	for i, k := range o.plan.keys {
		if k == key {
			return o.vals[i].get(), true
		}
	}
	return nil, false
}

// MarshalJSON writes the object; it gives the same bytes as MakeJSON.
func (o *Object) MarshalJSON() ([]byte, error) {
	bp := bufPool.Get().(*[]byte)
	b, err := o.appendJSON((*bp)[:0], objectDepth)
	return copyOut(bp, b, err)
}

// madeBy reports whether e made the object: its keys are e's own.
func (o *Object) madeBy(e *Entity) bool {
	return o.plan == e.root
}

// AppendJSON appends the object's JSON to dst, as MarshalJSON writes it.
func (o *Object) AppendJSON(dst []byte) ([]byte, error) {
	return o.appendJSON(dst, objectDepth)
}

// objectDepth bounds MarshalJSON. An Object is a finite tree that Make
// already held to its registry's depth limit, which may be raised above the
// default, so this is only a backstop.
const objectDepth = 1 << 16

func (o *Object) appendJSON(dst []byte, depth int) ([]byte, error) {
	if depth <= 0 {
		return dst, ErrDepth
	}
	dst = append(dst, '{')
	for i, n := range o.plan.nodes {
		dst = append(dst, n.key...)
		var err error
		if dst, err = o.vals[i].appendJSON(dst, depth-1); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// String returns the object's JSON, or a note of why it has none.
func (o *Object) String() string {
	b, err := o.MarshalJSON()
	if err != nil {
		return "<entity.Object: " + err.Error() + ">"
	}
	return string(b)
}

// Map returns the object as plain Go values: nested Objects become
// map[string]any and lists of them []any; dates become their RFC 3339 text
// as written in JSON. It is meant for comparisons in tests (go-cmp).
func (o *Object) Map() map[string]any {
	m := make(map[string]any, len(o.vals))
	for i, k := range o.plan.keys {
		m[k] = plain(o.vals[i].get())
	}
	return m
}

func plain(v any) any {
	switch v := v.(type) {
	case *Object:
		if v == nil {
			return nil
		}
		return v.Map()
	case []*Object:
		l := make([]any, len(v))
		for i, o := range v {
			l[i] = plain(o)
		}
		return l
	case time.Time:
		return v.Format(time.RFC3339Nano)
	case json.RawMessage:
		var x any
		if json.Unmarshal(v, &x) == nil {
			return x
		}
	}
	return v
}

// objectValue is the value an Object keeps for a converted value.
func objectValue(k rules.Kind, v rules.Value, borrowed bool) ovalue {
	if k == rules.Any && v.Any != nil && !borrowed {
		return ovalue{kind: ovAny, a: v.Any}
	}
	switch v.Kind {
	case rules.Null:
		return ovalue{}
	case rules.String:
		if borrowed {
			return ovalue{kind: ovString, s: strings.Clone(v.Str)}
		}
		return ovalue{kind: ovString, s: v.Str}
	case rules.Int:
		return ovalue{kind: ovInt, n: uint64(v.Int)}
	case rules.Float:
		return ovalue{kind: ovFloat, n: math.Float64bits(v.Float)}
	case rules.Bool:
		if v.Bool {
			return ovalue{kind: ovBool, n: 1}
		}
		return ovalue{kind: ovBool}
	case rules.Time:
		return ovalue{kind: ovTime, n: uint64(v.Time.Unix()), ns: uint32(v.Time.Nanosecond())}
	}
	return ovalue{kind: ovAny, a: v.Any}
}

// scratchPool holds buffers Make writes pass-through values into, to find
// the ones JSON cannot hold before it returns an Object that MarshalJSON
// would fail on.
var scratchPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// putScratch returns a buffer to scratchPool unless it grew too large.
func putScratch(bp *[]byte) {
	if cap(*bp) <= maxPooled {
		*bp = (*bp)[:0]
		scratchPool.Put(bp)
	}
}

// reserve makes room in the run's blocks for objs Objects and vals values
// (a list's elements, counted from their entity's plan): one block of the
// right size rather than blocks doubling up to it. Objects made for
// references inside the elements still come from growing blocks.
func (r *run) reserve(objs, vals int) {
	if len(r.objSlab) < objs {
		r.objSlab = make([]Object, objs)
		r.slabSize = max(r.slabSize, min(objs, 512))
	}
	if len(r.valSlab) < vals {
		r.valSlab = make([]ovalue, vals)
	}
}

// newObject returns an Object for plan p. The Objects of one Make, and
// their values, are carved from blocks the run allocates, growing, so that
// Make allocates per block, not per object.
func (r *run) newObject(p *objectPlan) *Object {
	if len(r.objSlab) == 0 {
		r.slabSize = min(max(r.slabSize*2, 4), 512)
		r.objSlab = make([]Object, r.slabSize)
	}
	o := &r.objSlab[0]
	r.objSlab = r.objSlab[1:]
	n := len(p.nodes)
	if len(r.valSlab) < n {
		r.valSlab = make([]ovalue, max(n, r.slabSize*4))
	}
	o.plan, o.vals = p, r.valSlab[:n:n]
	r.valSlab = r.valSlab[n:]
	return o
}

// makeTop makes v, an object, with e.
func (r *run) makeTop(e *Entity, v any) *Object {
	depth := e.reg.MaxDepth()
	var b []byte
	if isNil(v) {
		return r.makeObject(e.root, &source{}, depth-1)
	}
	switch x := v.(type) {
	case []byte:
		b = x
	case json.RawMessage:
		b = x
	default:
		if src, ok := sourceOf(v, e); ok {
			return r.makeObject(e.root, &src, depth-1)
		}
		r.fatal = unsupported(e, v)
		return nil
	}
	text, err := r.parseJSON(b)
	if err == nil && text[0] != '{' {
		err = &InputError{Status: 400, Msg: "the body is a JSON array, not an object", Err: ErrInvalidJSON}
	}
	if err != nil {
		r.fatal = err
		return nil
	}
	jo := r.takeJSON(text, 0, e)
	defer r.releaseJSON()
	return r.makeObject(e.root, &source{js: jo}, depth-1)
}

// makeObject builds one output object: the Object twin of appendObject.
func (r *run) makeObject(p *objectPlan, src *source, depth int) *Object {
	o := r.newObject(p)
	for i, n := range p.nodes {
		switch n.kind {
		case nodeValue:
			if in, ok := fastInput(n, src); ok && n.fast != fastNone {
				if ov, ok := r.makeFast(n, in); ok {
					if ov.kind == ovString && in.view {
						ov.s = strings.Clone(ov.s)
					}
					o.vals[i] = ov
					continue
				}
			}
			v, in, borrowed, fromDefault := r.resolve(n, src)
			switch {
			case fromDefault:
				o.vals[i] = n.defValue
			case v.Kind == rules.Null:
			case passesText(n.typ, in):
				b, err := appendCompact(nil, in.s, depth)
				if err != nil {
					r.failValue(n, err)
					continue
				}
				o.vals[i] = ovalue{kind: ovAny, a: json.RawMessage(b)}
			case n.typ == rules.List || n.typ == rules.Object || n.typ == rules.Any && v.Any != nil:
				// Find now what MarshalJSON would fail on.
				bp := scratchPool.Get().(*[]byte)
				b, err := appendValue((*bp)[:0], n.typ, v, depth)
				*bp = b
				putScratch(bp)
				if err != nil {
					r.failValue(n, err)
					continue
				}
				o.vals[i] = objectValue(n.typ, v, borrowed)
			default:
				o.vals[i] = objectValue(n.typ, v, borrowed)
			}
		case nodeGroup:
			if depth <= 0 {
				r.fail(n, "depth", ErrDepth)
				continue
			}
			r.push(frame{n: n, kind: frameGroup})
			o.vals[i] = ovalue{kind: ovAny, a: r.makeObject(n.group, src, depth-1)}
			r.pop()
		case nodeRef:
			if v := r.makeRef(n, src, depth); v != nil {
				o.vals[i] = ovalue{kind: ovAny, a: v}
			}
		}
	}
	return o
}

// makeRef builds a reference: the Object twin of appendRef.
func (r *run) makeRef(n *node, src *source, depth int) any {
	ent := r.refTarget(n)
	if ent == nil {
		return nil
	}
	in := src.get(n)
	var sub source
	var list elems
	isList, ok := false, true
	if in.kind == rawJSON && in.s[0] == '{' {
		sub = source{js: r.takeJSON(in.s, int32(in.n), ent)}
		defer r.releaseJSON()
	} else if sub, list, isList, ok = r.refInput(n, in, ent); !ok {
		return nil
	}
	if depth <= 0 {
		r.fail(n, "depth", ErrDepth)
		return nil
	}
	if !isList && sub.empty() {
		if !r.enterDefault(n, ent) {
			return nil
		}
		defer r.leaveDefault()
	}
	r.push(frame{n: n, kind: frameRef})
	var v any
	if isList {
		v = r.makeList(ent, &list, depth-1)
	} else {
		v = r.makeObject(ent.root, &sub, depth-1)
	}
	r.pop()
	return v
}

// makeList builds the objects of a list made with e, skipping elements that
// are not objects.
func (r *run) makeList(e *Entity, l *elems, depth int) []*Object {
	var objs []*Object
	elem := func(sub *source, i int) bool {
		r.push(frame{kind: frameIndex, idx: int32(i), outIdx: int32(len(objs))})
		if depth <= 0 {
			if !r.full() {
				r.errs = append(r.errs, r.depthError())
			}
			r.pop()
			return false
		}
		objs = append(objs, r.makeObject(e.root, sub, depth-1))
		r.pop()
		return true
	}
	if l.js != "" {
		objs = []*Object{}
		r.eachJSONObject(l.js, l.jsOrd, func(idx int, text string, ord int32) bool {
			jo := r.takeJSON(text, ord, e)
			defer r.releaseJSON()
			return elem(&source{js: jo}, idx)
		})
		return objs
	}
	objs = make([]*Object, 0, l.len)
	if depth > 0 {
		n := l.objectCount()
		r.reserve(n*e.objsPer, n*e.valsPer)
	}
	for i := 0; i < l.len; i++ {
		if sub, ok := l.at(i, e); ok && !elem(&sub, i) {
			break
		}
	}
	return objs
}

// makeFast reads a value field when it holds what the node's fast path
// expects: nothing (default, req or null), a string for a string field, an
// int, int64, numeric string or short JSON integer for a number field. It
// reports false for anything else, which the general path then converts.
// A string that views the caller's bytes is returned as it is: makeObject
// copies it.
func (r *run) makeFast(n *node, in raw) (ovalue, bool) {
	var s string
	switch in.kind {
	case rawStr:
		s = in.s
	case rawInt:
		if n.fast == fastInt {
			return ovalue{kind: ovInt, n: uint64(in.n)}, true
		}
		return ovalue{}, false
	case rawNum:
		if n.fast == fastInt && isShortInt(in.s) {
			i, _ := rules.ParseInt(in.s)
			return ovalue{kind: ovInt, n: uint64(i)}, true
		}
		return ovalue{}, false
	case rawAny:
		switch x := in.a.(type) {
		case nil:
			switch {
			case n.hasDefault && !n.defNull:
				return n.defValue, true
			case n.req:
				r.fail(n, "req", errRequired)
			}
			return ovalue{}, true
		case string:
			s = x
		case int:
			if n.fast == fastInt {
				return ovalue{kind: ovInt, n: uint64(int64(x))}, true
			}
			return ovalue{}, false
		case int64:
			if n.fast == fastInt {
				return ovalue{kind: ovInt, n: uint64(x)}, true
			}
			return ovalue{}, false
		default:
			return ovalue{}, false
		}
	default:
		return ovalue{}, false
	}
	switch n.fast {
	case fastString:
		for _, ck := range n.strChecks {
			if err := runStringCheck(ck, s); err != nil {
				r.fail(n, ck.rule, err)
			}
		}
		return ovalue{kind: ovString, s: s}, true
	case fastInt:
		if i, ok := rules.ParseInt(s); ok {
			return ovalue{kind: ovInt, n: uint64(i)}, true
		}
	}
	return ovalue{}, false
}

// canonicalInt reports whether s is an integer spelled exactly as
// strconv.FormatInt spells it (an optional minus, no leading zero, no "-0",
// at most 18 digits so that it is an int64), so that a number field may
// write s itself instead of parsing and formatting it.
func canonicalInt(s string) bool {
	i := 0
	if len(s) > 0 && s[0] == '-' {
		i = 1
	}
	switch {
	case len(s)-i == 0 || len(s)-i > 18:
		return false
	case s[i] == '0':
		return len(s) == 1
	}
	for ; i < len(s); i++ {
		if s[i]-'0' > 9 {
			return false
		}
	}
	return true
}

// isShortInt reports whether JSON number text is an integer that a float64
// holds exactly (at most 15 digits), so that reading it as an integer gives
// what encoding/json's float64 would.
func isShortInt(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 15 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// fastInput returns what a fast path reads from src, and whether src is of
// a kind fast paths read (a map[string]any or a JSON object).
func fastInput(n *node, src *source) (raw, bool) {
	switch {
	case src.ma != nil:
		return raw{a: src.ma[n.in]}, true
	case src.js != nil:
		return src.js.get(n.slot), true
	case src.st != nil:
		return src.st.get(src.rv, n.slot), true
	}
	return raw{}, false
}
