package engine

import (
	"bytes"
	"database/sql"
	"encoding"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/expose-go/expose/internal/jsonfields"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/internal/structread"
	"github.com/expose-go/expose/rules"
)

// Bind: the struct reader in reverse. A Made's values are stored in a Go
// struct by their declared names (a group's fields beside their siblings,
// a $ref's object in a nested struct), as encoding/json would store the
// declared text (declaredText) into it, but without writing that text
// and without encoding/json: the members of the Made's text are walked
// once, by its plan, and each value is written at its field's offset by a
// switch on the field's kind (bindOp), compiled once per (plan, Go type)
// and cached (bindPlanFor).
//
// Strings are views of the Made's text (which is never modified), so that
// a string value costs no allocation; a slice, a map or a pointer the
// values fill costs one each. A field of a type the writer has no kind
// for (a named map, an array, a non-empty interface, a value a format
// writes that the field does not hold as a time.Time, a union's object,
// each by its variant's declared names) is decoded with
// encoding/json from its value's declared text alone; a plan that merges
// a $ref's keys into its own, a struct with a field tagged ",string" or
// a json.Unmarshaler of its own, and a map or an interface as dst, take
// the declared text whole (BindText).

// bindOp is how a value is written into a field of one kind.
type bindOp uint8

const (
	bindJSON      bindOp = iota // encoding/json of the value's declared text
	bindString                  // a string of any named type
	bindInt                     // int, int8, …, int64
	bindUint                    // uint, …, uint64, uintptr
	bindFloat                   // float32, float64
	bindBool                    // bool
	bindTime                    // time.Time
	bindPtr                     // a pointer: null clears it, else its element (made when nil)
	bindSlice                   // a slice (not []byte) of elements
	bindStruct                  // a struct from a $ref's object
	bindAny                     // an empty interface: what encoding/json stores there
	bindMapAny                  // map[string]any
	bindUnmarshal               // a json.Unmarshaler (its pointer's): UnmarshalJSON of the declared text
	bindText                    // an encoding.TextUnmarshaler: UnmarshalText of a string
	bindScan                    // a sql.Scanner: Scan of the value as Get reads it (sql.NullString)
)

// bindWriter writes one JSON value into memory of type typ.
type bindWriter struct {
	op   bindOp
	typ  reflect.Type
	size uint8       // of an int or a uint; 4 or 8 for a float
	elem *bindWriter // bindPtr's, bindSlice's element
	n    *node       // the node whose values it writes (its kind, format, reference)

	// ptyp is bindSlice's pointer type (*typ), prepared for structread.
	ptyp structread.Type

	// common is bindSlice's element type when it is one of the common
	// ones, whose nil slices are made without reflect.
	common commonElem

	// scratch holds bindSlice's scratch slices (structread.Scratch).
	scratch sync.Pool

	// last is bindStruct's plan for the objects of the entity the
	// reference named last, so that the elements of a list find it
	// without a lookup.
	last atomic.Pointer[bindPlan]
}

// bindField is where one plan node's value goes in a struct.
type bindField struct {
	w     *bindWriter // nil: the struct has no field of its declared name
	off   uintptr     // the field's offset, when index is nil
	index []int       // the field's index, when the way to it goes through an embedded pointer
	name  string      // the declared name, for errors
	group *bindPlan   // a group's plan over the same struct
}

// bindPlan is how the objects one plan writes are stored in one struct
// type.
type bindPlan struct {
	plan   *objectPlan // the plan whose objects it stores
	typ    reflect.Type
	fields []bindField // by node index
	keys   [][]byte    // the nodes' keys, quoted as written (quotedKey)
	words  []keyWord   // by node index: the key and its colon as one word, when they fit in one
	whole  bool        // the plan merges a $ref's keys: bound through the declared text
}

// keyWord is a key, quoted, and its colon, as the little-endian word of
// their n bytes (n ≤ 8; 0: longer, or no key) and the mask of those bytes:
// a member that begins with it is found with one load and one compare.
type keyWord struct {
	w, mask uint64
	n       int
}

// keyWordOf returns the keyWord of the quoted key k.
func keyWordOf(k []byte) keyWord {
	n := len(k) + 1
	if len(k) == 0 || n > 8 {
		return keyWord{}
	}
	var b [8]byte
	copy(b[:], k)
	b[len(k)] = ':'
	return keyWord{w: binary.LittleEndian.Uint64(b[:]), mask: ^uint64(0) >> (64 - 8*n), n: n}
}

type bindKey struct {
	p *objectPlan
	t reflect.Type
}

var bindPlans sync.Map // bindKey → *bindPlan

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textType        = reflect.TypeFor[encoding.TextUnmarshaler]()
	scannerType     = reflect.TypeFor[sql.Scanner]()
	mapAnyType      = reflect.TypeFor[map[string]any]()
)

// bindPlanFor returns the plan storing p's objects in struct type t.
func bindPlanFor(p *objectPlan, t reflect.Type) *bindPlan {
	k := bindKey{p, t}
	if bp, ok := bindPlans.Load(k); ok {
		return bp.(*bindPlan)
	}
	bp, _ := bindPlans.LoadOrStore(k, compileBind(p, t))
	return bp.(*bindPlan)
}

// compileBind compiles the plan storing p's objects in struct type t.
func compileBind(p *objectPlan, t reflect.Type) *bindPlan {
	bp := &bindPlan{plan: p, typ: t, fields: make([]bindField, len(p.nodes)), keys: make([][]byte, len(p.nodes)), words: make([]keyWord, len(p.nodes))}
	if pt := reflect.PointerTo(t); pt.Implements(unmarshalerType) || pt.Implements(textType) {
		bp.whole = true // its own method reads the whole object (expose gen's, for a struct holding a union)
		return bp
	}
	all := jsonfields.Of(t)
	for i, n := range p.nodes {
		if !n.merge && !n.shared { // (the others are matched by the general loop, as memberIter does)
			bp.keys[i] = quotedKey(n)
			bp.words[i] = keyWordOf(bp.keys[i])
		}
		if n.merge {
			bp.whole = true
			continue
		}
		f := &bp.fields[i]
		f.name = n.decl.Name
		if n.kind == nodeGroup {
			f.group = compileBind(n.group, t)
			if f.group.whole {
				bp.whole = true
			}
		}
		jf := fieldByName(t, all, n.decl.Name)
		if jf == nil {
			continue
		}
		loc := structread.Locate(t, jf.Index)
		if loc.Direct() {
			f.off = loc.Offset()
		} else {
			f.index = jf.Index
		}
		if stringTagged(t, jf.Index) { // encoding/json's own option: it reads the whole object
			bp.whole = true
			continue
		}
		f.w = compileWriter(n, jf.Type, false)
	}
	return bp
}

// fieldByName returns the field encoding/json stores a key of the name
// in: the one of that name, else the first, in field order, whose name
// equals it but for case.
func fieldByName(t reflect.Type, all map[string]*jsonfields.Field, name string) *jsonfields.Field {
	if f := all[name]; f != nil {
		return f
	}
	var best *jsonfields.Field
	for _, f := range all {
		if strings.EqualFold(f.Name, name) && (best == nil || indexLess(f.Index, best.Index)) {
			best = f
		}
	}
	return best
}

func indexLess(a, b []int) bool {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

// stringTagged reports whether the field's json tag has the ",string"
// option, which only encoding/json reads.
func stringTagged(t reflect.Type, index []int) bool {
	for i, x := range index {
		if i > 0 && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		sf := t.Field(x)
		if i == len(index)-1 {
			tag := sf.Tag.Get("json")
			_, opts, _ := strings.Cut(tag, ",")
			for opts != "" {
				var o string
				o, opts, _ = strings.Cut(opts, ",")
				if o == "string" {
					return true
				}
			}
		}
		t = sf.Type
	}
	return false
}

// compileWriter compiles the write of node n's values (of its elements,
// with elem) into memory of type t.
func compileWriter(n *node, t reflect.Type, elem bool) *bindWriter {
	w := &bindWriter{typ: t, n: n}
	pt := reflect.PointerTo(t)
	switch {
	case t.Kind() == reflect.Pointer:
		w.op, w.elem = bindPtr, compileWriter(n, t.Elem(), elem)
		if w.elem.op == bindJSON {
			w.op = bindJSON
		}
		return w
	case t == timeType:
		if n.kind == nodeValue && (elem || n.each == nil) {
			w.op = bindTime
		}
		return w
	case pt.Implements(unmarshalerType):
		w.op = bindUnmarshal
		return w
	case pt.Implements(textType):
		if n.kind == nodeValue && (elem || n.each == nil) && n.format == nil {
			w.op = bindText
		}
		return w
	case pt.Implements(scannerType):
		if n.kind == nodeValue && (elem || n.each == nil) && n.typ != rules.Any {
			w.op = bindScan
		}
		return w
	}
	if n.kind == nodeRef {
		switch {
		case t.Kind() == reflect.Struct:
			w.op = bindStruct
		case t.Kind() == reflect.Slice && !elem:
			if w.elem = compileWriter(n, t.Elem(), true); w.elem.op != bindJSON {
				w.op, w.ptyp = bindSlice, structread.TypeOf(pt)
			}
		}
		return w
	}
	if n.kind != nodeValue {
		return w // a group holding no object: its null
	}
	if n.each != nil && !elem {
		if t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8 {
			if w.elem = compileWriter(n.each, t.Elem(), true); w.elem.op != bindJSON {
				w.op, w.common, w.ptyp = bindSlice, commonElems[t.Elem()], structread.TypeOf(pt)
			}
		}
		return w
	}
	if n.format != nil {
		return w // what the format wrote, as its date: encoding/json
	}
	switch t.Kind() {
	case reflect.String:
		if t != jsonNumberType {
			w.op = bindString
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.op, w.size = bindInt, uint8(t.Size())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		w.op, w.size = bindUint, uint8(t.Size())
	case reflect.Float32, reflect.Float64:
		w.op, w.size = bindFloat, uint8(t.Size())
	case reflect.Bool:
		w.op = bindBool
	case reflect.Interface:
		if t.NumMethod() == 0 {
			w.op = bindAny
		}
	case reflect.Map:
		if t == mapAnyType {
			w.op = bindMapAny
		}
	}
	return w
}

// commonElem is a typed list's element type of those whose slices Bind
// makes without reflect.
type commonElem uint8

const (
	commonNone commonElem = iota
	commonString
	commonInt64
	commonInt
	commonFloat64
	commonBool
)

var commonElems = map[reflect.Type]commonElem{
	reflect.TypeFor[string](): commonString, reflect.TypeFor[int64](): commonInt64, reflect.TypeFor[int](): commonInt,
	reflect.TypeFor[float64](): commonFloat64, reflect.TypeFor[bool](): commonBool,
}

// binder is one Bind: the Made's memos, and the first error, which
// encoding/json's rule makes the one returned while the other values are
// still stored.
type binder struct {
	made  *objectMade
	dir   direction
	depth int // of the $ref objects around the one written

	// err is the first error; its path is gathered as the writes return,
	// without costing the others anything: names holds the declared names
	// from the failing value up, errDepth the depth of the next one (-1
	// once the top is reached).
	err      error
	errDepth int
	names    []string
}

// BindStruct stores m's values in the struct dst points to (a pointer to
// a struct, or to a pointer to one), as json.Unmarshal would store
// DeclaredText(m) in it. ok is false, with nothing stored, when m's plan
// is bound through the declared text instead (see BindText) or dst is no
// such pointer.
func BindStruct(m *Made, dst any) (ok bool, err error) {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false, nil
	}
	t := rv.Type().Elem()
	if t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		if rv.Elem().IsNil() {
			if m != nil && m.plan != nil && bindPlanFor(m.plan, t.Elem()).whole {
				return false, nil
			}
			rv.Elem().Set(reflect.New(t.Elem()))
		}
		rv, t = rv.Elem(), t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return false, nil
	}
	if m == nil || m.plan == nil {
		return true, nil // the empty object
	}
	bp := m.plan.bind.Load()
	if bp == nil || bp.typ != t {
		bp = bindPlanFor(m.plan, t)
		m.plan.bind.Store(bp)
	}
	if bp.whole {
		return false, nil
	}
	b := binder{made: m.made, dir: m.plan.dir, errDepth: -1}
	b.object(bp, m.plan.nodes, structread.OfPointer(rv.Interface()), m.text(), 0)
	return true, b.error()
}

// error returns the first error, encoding/json's type error naming the
// path of its field (declared names joined by dots, no list index), as
// encoding/json names it.
func (b *binder) error() error {
	if b.err != nil {
		b.namePath()
	}
	return b.err
}

// namePath sets the path of the first error, a type error.
func (b *binder) namePath() {
	var ute *json.UnmarshalTypeError
	if errors.As(b.err, &ute) {
		path := make([]string, 0, len(b.names)+1)
		for i := len(b.names) - 1; i >= 0; i-- {
			path = append(path, b.names[i])
		}
		if ute.Field != "" {
			path = append(path, ute.Field) // encoding/json's own, below the value it decoded
		}
		ute.Field = strings.Join(path, ".")
	}
}

// named adds name to the path of the first error when the value of that
// name holds it.
func (b *binder) named(name string) {
	if b.errDepth == b.depth {
		b.names = append(b.names, name)
		b.errDepth--
	}
}

// BindText stores m's declared text in dst with encoding/json: Bind's way
// for what BindStruct leaves (a map or an interface dst, a plan merging a
// $ref's keys).
func BindText(m *Made, dst any) error { return json.Unmarshal(m.declaredText(), dst) }

// fail keeps err when it is the first.
func (b *binder) fail(err error) {
	if b.err == nil {
		b.err, b.errDepth = err, b.depth
	}
}

// typeError is encoding/json's error for a value of another kind than
// the Go type holds.
func (b *binder) typeError(val []byte, t reflect.Type) {
	kind := "number"
	switch val[0] {
	case '"':
		kind = "string"
	case 't', 'f':
		kind = "bool"
	case '{':
		kind = "object"
	case '[':
		kind = "array"
	case 'n':
		kind = "null"
	}
	if kind == "number" {
		kind += " " + string(val) // as encoding/json words it (decodeError keeps the kind only)
	}
	b.fail(&json.UnmarshalTypeError{Value: kind, Type: t})
}

// object stores the members of the object at data[start:], which nodes
// wrote, in the struct at base by bp, and returns the offset after it. It
// steps through the members as memberIter does (a member no node wrote is
// stored by its key's name), but reads each value where it lies: a list's
// or a $ref's object is walked once, as it is stored.
func (b *binder) object(bp *bindPlan, nodes []*node, base structread.Ptr, data []byte, start int) int {
	pos, want := start+1, 0
	for data[pos] != '}' {
		if data[pos] == ',' {
			pos++
		}
		i, key, vpos := -1, []byte(nil), 0
		if want < len(nodes) { // the node after the last, most often: its key, whole, is where the member starts
			if kw := &bp.words[want]; kw.n > 0 && len(data)-pos >= 8 {
				if binary.LittleEndian.Uint64(data[pos:])&kw.mask == kw.w {
					i, key, vpos = want, bp.keys[want], pos+kw.n
					want++
				}
			} else if k := bp.keys[want]; k != nil && len(data)-pos > len(k) && bytes.Equal(data[pos:pos+len(k)], k) {
				i, key, vpos = want, k, pos+len(k)+1
				want++
			}
		}
		if i < 0 {
			kend := jsonwire.QuoteEnd(data, pos)
			key, vpos = data[pos:kend], kend+1
			for j := want; j < len(nodes); j++ {
				if m := nodes[j]; !m.merge && bytes.Equal(quotedKey(m), key) && (!m.shared || m.cond.writesFor(b.made)) {
					i, want = j, j+1
					break
				}
			}
		}
		if i < 0 {
			pos = jsonwire.ValueEnd(data, vpos)
			b.unknown(bp.typ, base, key, data[vpos:pos])
			continue
		}
		f := &bp.fields[i]
		if f.group != nil && data[vpos] == '{' {
			pos = b.object(f.group, nodes[i].group.nodes, base, data, vpos)
			continue
		}
		p, ok := base.Add(f.off), f.w != nil // no field of that name: encoding/json skips it too
		if ok && f.index != nil {
			p, ok = b.fieldAddr(bp.typ, base, f)
		}
		if !ok {
			pos = jsonwire.ValueEnd(data, vpos)
			continue
		}
		pos = b.writeAt(f.w, p, data, vpos)
		if b.err != nil {
			b.named(f.name)
		}
	}
	return pos + 1 // past its '}'
}

// writeAt stores the value at data[pos:] at p, as write does, and
// returns the offset after it: a string, a list or a $ref's object is
// read in the one pass that finds its end.
func (b *binder) writeAt(w *bindWriter, p structread.Ptr, data []byte, pos int) int {
	switch c := data[pos]; {
	case w.op == bindString && c == '"':
		if q := bytes.IndexByte(data[pos+1:], '"'); bytes.IndexByte(data[pos+1:pos+1+q], '\\') < 0 { // no escape: its content is its value
			p.SetString(bytesString(data[pos+1 : pos+1+q]))
			return pos + q + 2
		}
		end := jsonwire.QuoteEnd(data, pos)
		p.SetString(jsonwire.Unquote(bytesString(data[pos:end])))
		return end
	case w.op == bindInt && jsonwire.IsNumberStart(c):
		end := jsonwire.ScalarEnd(data, pos)
		b.writeInt(w, p, data[pos:end])
		return end
	case w.op == bindSlice && c == '[':
		return b.writeSliceAt(w, p, data, pos)
	case w.op == bindStruct && c == '{':
		if end, ok := b.writeStructAt(w, p, data, pos); ok {
			return end
		}
	case w.op == bindPtr && c != 'n':
		if p.FirstWordNil() {
			p.SetPointer(structread.New(w.elem.typ))
		}
		return b.writeAt(w.elem, p.Pointer(), data, pos)
	}
	end := jsonwire.ValueEnd(data, pos)
	b.write(w, p, data[pos:end])
	return end
}

// fieldAddr returns the address of f in the struct at base, making the
// embedded structs on the way that are nil pointers, as encoding/json
// does (ok false, with its error, for an unexported one).
func (b *binder) fieldAddr(t reflect.Type, base structread.Ptr, f *bindField) (structread.Ptr, bool) {
	if f.index == nil {
		return base.Add(f.off), true
	}
	v := base.Value(t)
	for i, x := range f.index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					b.fail(errors.New("json: cannot set embedded pointer to unexported struct: " + v.Type().Elem().String()))
					return structread.Ptr{}, false
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return structread.AddrOf(v), true
}

// unknown stores a member no node of the plan wrote, under key (quoted
// as written), as encoding/json would.
func (b *binder) unknown(t reflect.Type, base structread.Ptr, key, val []byte) {
	name := jsonwire.Unquote(bytesString(key))
	jf := fieldByName(t, jsonfields.Of(t), name)
	if jf == nil {
		return
	}
	f := bindField{index: jf.Index, name: name}
	p, ok := b.fieldAddr(t, base, &f)
	if ok {
		b.decodeJSON(jf.Type, p, val)
	}
	if b.err != nil {
		b.named(name)
	}
}

// decodeJSON stores text in the value of type t at p with encoding/json.
func (b *binder) decodeJSON(t reflect.Type, p structread.Ptr, text []byte) {
	if err := json.Unmarshal(text, p.Value(t).Addr().Interface()); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) && ute.Field == "" && ute.Type == reflect.PointerTo(t) {
			ute.Type = t // the field's type, not that of the pointer given to encoding/json
		}
		b.fail(err)
	}
}

// write stores val, a value w's node wrote, at p.
func (b *binder) write(w *bindWriter, p structread.Ptr, val []byte) {
	if val[0] == 'n' { // null: a pointer, a slice, a map or an interface is cleared; the rest stays
		switch w.op {
		case bindUnmarshal:
			b.unmarshal(w, p, val)
		case bindScan:
			if err := p.Value(w.typ).Addr().Interface().(sql.Scanner).Scan(nil); err != nil {
				b.fail(err)
			}
		case bindJSON:
			b.decodeJSON(w.typ, p, val)
		case bindPtr, bindSlice, bindAny, bindMapAny:
			p.Value(w.typ).SetZero()
		}
		return
	}
	switch w.op {
	case bindString:
		if val[0] != '"' {
			b.typeError(val, w.typ)
			return
		}
		b.writeAt(w, p, val, 0)
	case bindInt:
		b.writeInt(w, p, val)
	case bindUint:
		b.writeUint(w, p, val)
	case bindFloat:
		if !jsonwire.IsNumberStart(val[0]) {
			b.typeError(val, w.typ)
			return
		}
		f, err := strconv.ParseFloat(bytesString(val), int(w.size)*8)
		if err != nil {
			b.typeError(val, w.typ)
			return
		}
		if w.size == 4 {
			p.SetFloat32(float32(f))
		} else {
			p.SetFloat64(f)
		}
	case bindBool:
		if val[0] != 't' && val[0] != 'f' {
			b.typeError(val, w.typ)
			return
		}
		p.SetBool(val[0] == 't')
	case bindTime:
		b.writeTime(w, p, val)
	case bindPtr:
		b.writeAt(w, p, val, 0)
	case bindSlice:
		b.writeSlice(w, p, val)
	case bindStruct:
		b.writeStruct(w, p, val)
	case bindAny:
		if !p.FirstWordNil() && p.Value(w.typ).Elem().Kind() == reflect.Pointer {
			b.decodeJSON(w.typ, p, b.declared(w.n, val)) // encoding/json decodes into what the pointer it holds points to
			return
		}
		if v, ok := b.anyValue(w, val); ok {
			p.SetAny(v)
		}
	case bindMapAny:
		if val[0] != '{' {
			b.typeError(val, w.typ)
			return
		}
		if !p.FirstWordNil() {
			b.decodeJSON(w.typ, p, b.declared(w.n, val)) // encoding/json adds the keys to the map's
			return
		}
		if v, ok := b.anyValue(w, val); ok {
			p.Value(w.typ).Set(reflect.ValueOf(v))
		}
	case bindUnmarshal:
		b.unmarshal(w, p, val)
	case bindText:
		if val[0] != '"' {
			b.typeError(val, w.typ)
			return
		}
		s := jsonwire.Unquote(bytesString(val))
		if err := p.Value(w.typ).Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
			b.fail(err)
		}
	case bindScan:
		v := scalarValue(w.n.typ, val)
		if s, ok := v.(string); ok && len(s) == len(val)-2 {
			v = jsonwire.Unquote(bytesString(val)) // a view: the Scanner copies what it keeps
		}
		if err := p.Value(w.typ).Addr().Interface().(sql.Scanner).Scan(v); err != nil {
			b.fail(err)
		}
	default:
		b.decodeJSON(w.typ, p, b.declared(w.n, val))
	}
}

func (b *binder) writeInt(w *bindWriter, p structread.Ptr, val []byte) {
	i, ok := jsonwire.ParseCanonicalInt(val)
	if !ok {
		var err error
		if !jsonwire.IsNumberStart(val[0]) {
			b.typeError(val, w.typ)
			return
		}
		if i, err = strconv.ParseInt(bytesString(val), 10, 64); err != nil {
			b.typeError(val, w.typ)
			return
		}
	}
	if w.size < 8 && (i < -1<<(w.size*8-1) || i > 1<<(w.size*8-1)-1) {
		b.typeError(val, w.typ)
		return
	}
	p.SetInt(w.size, i)
}

func (b *binder) writeUint(w *bindWriter, p structread.Ptr, val []byte) {
	if !jsonwire.IsDigit(val[0]) {
		b.typeError(val, w.typ)
		return
	}
	u, err := strconv.ParseUint(bytesString(val), 10, 64)
	if err != nil || w.size < 8 && u > 1<<(w.size*8)-1 {
		b.typeError(val, w.typ)
		return
	}
	p.SetUint(w.size, u)
}

func (b *binder) writeTime(w *bindWriter, p structread.Ptr, val []byte) {
	t := p.Time()
	if f := w.n.format; f != nil {
		if v, ok := f.unformat(val); ok {
			*t = v.Time
			return
		}
	}
	if err := t.UnmarshalJSON(val); err != nil {
		b.fail(err)
	}
}

func (b *binder) unmarshal(w *bindWriter, p structread.Ptr, val []byte) {
	if err := p.Value(w.typ).Addr().Interface().(json.Unmarshaler).UnmarshalJSON(b.declared(w.n, val)); err != nil {
		b.fail(err)
	}
}

// declared returns val, what node n wrote, as the declared text holds it.
func (b *binder) declared(n *node, val []byte) []byte {
	if n == nil {
		return val
	}
	return declaredValue(nil, n, val, b.made, b.dir, b.depth)
}

func (b *binder) writeSlice(w *bindWriter, p structread.Ptr, val []byte) {
	if val[0] != '[' {
		if w.n.kind == nodeRef && val[0] == '{' {
			b.decodeJSON(w.typ, p, b.declared(w.n, val)) // encoding/json's error for an object
			return
		}
		b.typeError(val, w.typ)
		return
	}
	b.writeSliceAt(w, p, val, 0)
}

// writeSliceAt stores the list at data[pos:] in the slice at p, and
// returns the offset after it. The slice is made once, of the list's
// length: counted first for a short list of values (under smallList
// bytes), and for a slice that holds elements (or room for them), which
// is written as encoding/json writes it, the elements in its array (over
// what they held, as encoding/json decodes into them); a list of objects,
// or a long one, into a nil slice is written into a scratch slice first,
// then moved to one of its number of elements, so that its text is read
// once.
func (b *binder) writeSliceAt(w *bindWriter, p structread.Ptr, data []byte, pos int) int {
	ew := w.elem
	n, counted := 0, false
	if ew.op != bindStruct {
		n, counted = countElements(data[pos:], smallList)
	}
	if counted || !p.FirstWordNil() {
		if !counted {
			n, _ = countElements(data[pos:], len(data)-pos)
		}
		var elems structread.Ptr
		switch k := w.common; {
		case n == 0 || k == commonNone || !p.FirstWordNil():
			elems = p.SetSliceLen(w.ptyp, n)
		case k == commonString:
			elems = structread.MakeSlice[string](p, n)
		case k == commonInt64:
			elems = structread.MakeSlice[int64](p, n)
		case k == commonInt:
			elems = structread.MakeSlice[int](p, n)
		case k == commonFloat64:
			elems = structread.MakeSlice[float64](p, n)
		default:
			elems = structread.MakeSlice[bool](p, n)
		}
		size := ew.typ.Size()
		pos++ // past '['
		for i := range n {
			if data[pos] == ',' {
				pos++
			}
			pos = b.writeAt(ew, elems.Index(i, size), data, pos)
		}
		return pos + 1 // past ']'
	}
	sc, _ := w.scratch.Get().(*structread.Scratch)
	if sc == nil {
		sc = structread.NewScratch(w.typ)
	}
	i := 0
	for pos++; data[pos] != ']'; i++ {
		if data[pos] == ',' {
			pos++
		}
		pos = b.writeAt(ew, sc.Elem(i), data, pos)
	}
	if sc.MoveTo(p, w.ptyp, i) {
		w.scratch.Put(sc)
	}
	return pos + 1
}

// smallList is the length of a list's text under which writeSliceAt
// counts its values first, rather than going through a scratch slice.
const smallList = 256

// countElements returns the number of elements of a JSON array's compact
// text, its commas outside strings and nested values plus one, and
// whether it found its end within the first max bytes.
func countElements(val []byte, max int) (int, bool) {
	if len(val) < 3 || val[1] == ']' {
		return 0, true
	}
	n, level := 1, 0
	for i := 1; i < len(val); i++ {
		if i >= max {
			return 0, false
		}
		switch val[i] {
		case ',':
			if level == 0 {
				n++
			}
		case '[', '{':
			level++
		case ']', '}':
			if level--; level < 0 {
				return n, true
			}
		case '"': // to its closing quote: a byte loop, the strings of a short list being short
			for i++; val[i] != '"'; i++ {
				if val[i] == '\\' {
					i++
				}
			}
		}
	}
	return n, true
}

func (b *binder) writeStruct(w *bindWriter, p structread.Ptr, val []byte) {
	if val[0] != '{' {
		b.decodeJSON(w.typ, p, b.declared(w.n, val)) // encoding/json's error for a list
		return
	}
	if _, ok := b.writeStructAt(w, p, val, 0); !ok {
		b.decodeJSON(w.typ, p, b.declared(w.n, val))
	}
}

// writeStructAt stores the object at data[pos:], a $ref's, in the struct
// at p by its entity's plan, and returns where the object ends; ok is
// false, with nothing stored, when the reference names no entity now, or
// one whose plan merges another's keys (then encoding/json decodes its
// declared text).
func (b *binder) writeStructAt(w *bindWriter, p structread.Ptr, data []byte, pos int) (end int, ok bool) {
	if b.depth >= maxMergeDepth*16 || w.n.union != nil || (pos == 0 && !w.n.holds(data)) {
		return 0, false // (a union's objects are decoded by encoding/json, each by its variant's declared names)
	}
	rp := refPlan(w.n, b.dir)
	if rp == nil {
		return 0, false
	}
	bp := w.last.Load()
	if bp == nil || bp.plan != rp {
		bp = bindPlanFor(rp, w.typ)
		w.last.Store(bp)
	}
	if bp.whole {
		return 0, false
	}
	b.depth++
	end = b.object(bp, rp.nodes, p, data, pos)
	b.depth--
	return end, true
}

// anyValue returns what encoding/json stores in an empty interface for
// val: a string, a float64, a bool, and for an object or a list (or a
// value a format or a reference wrote) what it decodes of the declared
// text.
func (b *binder) anyValue(w *bindWriter, val []byte) (any, bool) {
	switch c := val[0]; {
	case c == '"' && w.n.kind == nodeValue && w.n.format == nil:
		return jsonwire.Unquote(bytesString(val)), true
	case c == 't' || c == 'f':
		return c == 't', true
	case jsonwire.IsNumberStart(c) && w.n.kind == nodeValue && w.n.format == nil:
		f, err := strconv.ParseFloat(bytesString(val), 64)
		if err != nil || math.IsInf(f, 0) {
			b.typeError(val, w.typ)
			return nil, false
		}
		return f, true
	}
	var v any
	if err := json.Unmarshal(b.declared(w.n, val), &v); err != nil {
		b.fail(err)
		return nil, false
	}
	return v, true
}
