// Package structread reads the fields of Go struct values at their
// offsets: where a field lives is found once per type (Locate), and each
// read is then a load of its kind, with no reflect.Value per field and no
// boxing of scalars into an interface. It is what the entity package's
// struct inputs are read with, and the one package of the module that
// reads memory through unsafe.Pointer.
//
// A Ptr is the address of a value the caller holds for the length of one
// call: the struct given to it, or one inside it. The package writes
// through one only in its stores (Set…), and Interface returns a view of the memory, not a
// copy (as reflect's Value.Interface does for a value that is not
// addressable): the caller must not keep it past the call. The stores
// (SetString…) are Bind's, which fills a struct of the caller's the same
// way: the struct reader in reverse.
package structread

import (
	"reflect"
	"time"
	"unsafe"
)

// Ptr is the address of a value, or nil.
type Ptr struct{ p unsafe.Pointer }

// IsNil reports whether p is the nil address.
func (p Ptr) IsNil() bool { return p.p == nil }

// Kind is how a field is read.
type Kind uint8

const (
	Other   Kind = iota // anything else: read with Interface
	String              // any type whose kind is string
	Bool                // likewise, bool
	Int                 // int, int8, …, int64 (Size says which)
	Uint                // uint, uint8, …, uint64, uintptr
	Float32             // float32
	Float64             // float64
)

// Field is where one field of a struct type lives and how it is read.
type Field struct {
	// Kind is the kind of the value read: the field's own, or when Deref
	// the kind of what it points to.
	Kind Kind
	// Size is the size in bytes of an Int or Uint (1, 2, 4 or 8).
	Size uint8
	// Deref: the field is a pointer to a value of Kind (not Other), which
	// Addr follows; a nil pointer is the nil address.
	Deref bool
	// Type is the type of the value read: the field's type, or when Deref
	// the type it points to.
	Type reflect.Type

	off  uintptr   // the field's offset in the struct reached after hops
	hops []uintptr // offsets of the embedded pointers to follow first
}

// Direct reports whether the field is at a fixed offset of the struct,
// with no embedded pointer and no pointer of its own to follow: Addr is
// then p plus an offset, never nil for a non-nil p.
func (f *Field) Direct() bool { return len(f.hops) == 0 && !f.Deref }

// Locate returns where the field of struct type t at index (as
// reflect.Type.FieldByIndex takes it) lives. A step through an embedded
// pointer is followed at read time, a nil one making the field absent.
func Locate(t reflect.Type, index []int) Field {
	var f Field
	for i, x := range index {
		if i > 0 && t.Kind() == reflect.Pointer {
			f.hops = append(f.hops, f.off)
			f.off = 0
			t = t.Elem()
		}
		sf := t.Field(x)
		f.off += sf.Offset
		t = sf.Type
	}
	f.Type = t
	f.Kind, f.Size = kindOf(t)
	if f.Kind == Other && t.Kind() == reflect.Pointer {
		if k, size := kindOf(t.Elem()); k != Other {
			f.Kind, f.Size, f.Deref, f.Type = k, size, true, t.Elem()
		}
	}
	return f
}

// kindOf returns how a value of type t is read, and its size for integers.
func kindOf(t reflect.Type) (Kind, uint8) {
	switch t.Kind() {
	case reflect.String:
		return String, 0
	case reflect.Bool:
		return Bool, 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Int, uint8(t.Size())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return Uint, uint8(t.Size())
	case reflect.Float32:
		return Float32, 0
	case reflect.Float64:
		return Float64, 0
	}
	return Other, 0
}

// Addr returns the address of the field in the struct at p: nil when an
// embedded pointer on the way is nil, or when the field is a nil pointer
// Deref follows.
func (f *Field) Addr(p Ptr) Ptr {
	for _, h := range f.hops {
		p.p = *(*unsafe.Pointer)(unsafe.Add(p.p, h))
		if p.p == nil {
			return p
		}
	}
	p.p = unsafe.Add(p.p, f.off)
	if f.Deref {
		p.p = *(*unsafe.Pointer)(p.p)
	}
	return p
}

// At returns the address of a field at a fixed offset (see Direct).
func (f *Field) At(p Ptr) Ptr { return Ptr{unsafe.Add(p.p, f.off)} }

// The loads: each reads the value of its kind at p, which must be the
// address of one.

func (p Ptr) String() string      { return *(*string)(p.p) }
func (p Ptr) Bool() bool          { return *(*bool)(p.p) }
func (p Ptr) Float32() float32    { return *(*float32)(p.p) }
func (p Ptr) Float64() float64    { return *(*float64)(p.p) }
func (p Ptr) Int64() int64        { return *(*int64)(p.p) }
func (p Ptr) Uint64() uint64      { return *(*uint64)(p.p) }
func (p Ptr) Pointer() Ptr        { return Ptr{*(*unsafe.Pointer)(p.p)} }
func (p Ptr) Add(off uintptr) Ptr { return Ptr{unsafe.Add(p.p, off)} }

// Index returns the address of element i of an array of elements of size
// bytes at p.
func (p Ptr) Index(i int, size uintptr) Ptr { return Ptr{unsafe.Add(p.p, uintptr(i)*size)} }

// Int reads a signed integer of size bytes.
func (p Ptr) Int(size uint8) int64 {
	switch size {
	case 1:
		return int64(*(*int8)(p.p))
	case 2:
		return int64(*(*int16)(p.p))
	case 4:
		return int64(*(*int32)(p.p))
	}
	return *(*int64)(p.p)
}

// Uint reads an unsigned integer of size bytes.
func (p Ptr) Uint(size uint8) uint64 {
	switch size {
	case 1:
		return uint64(*(*uint8)(p.p))
	case 2:
		return uint64(*(*uint16)(p.p))
	case 4:
		return uint64(*(*uint32)(p.p))
	}
	return *(*uint64)(p.p)
}

// Slice reads the slice header at p: the address of its first element
// and its length.
func (p Ptr) Slice() (Ptr, int) {
	h := (*struct {
		data     unsafe.Pointer
		len, cap int
	})(p.p)
	return Ptr{h.data}, h.len
}

// FirstWordNil reports whether the first word at p is nil: for a slice,
// a map, a channel, a function or a pointer, whether it is nil.
func (p Ptr) FirstWordNil() bool { return *(*unsafe.Pointer)(p.p) == nil }

// eface is the layout of an empty interface.
type eface struct {
	typ, data unsafe.Pointer
}

// typeWord returns the runtime's type descriptor of t, the first word of
// an interface holding a value of t. (A reflect.Type is an interface
// whose value is that descriptor.)
func typeWord(t reflect.Type) unsafe.Pointer {
	return (*eface)(unsafe.Pointer(&t)).data
}

// Interface returns the value of type t at p in an interface, without
// copying it: a view of the memory, as reflect's Value.Interface gives
// for a value that is not addressable. t must not be an interface type
// (read one with Value), and the caller must not keep the result past
// the call.
func (p Ptr) Interface(t Type) any {
	var e eface
	e.typ = t.word
	if t.direct {
		e.data = *(*unsafe.Pointer)(p.p)
	} else {
		e.data = p.p
	}
	return *(*any)(unsafe.Pointer(&e))
}

// Value returns the value of type t at p as an addressable reflect.Value.
func (p Ptr) Value(t reflect.Type) reflect.Value { return reflect.NewAt(t, p.p).Elem() }

// Type is a type prepared for Interface.
type Type struct {
	word   unsafe.Pointer
	direct bool // the runtime stores its values in the interface word itself
}

// TypeOf prepares t (not an interface type) for Interface.
func TypeOf(t reflect.Type) Type { return Type{word: typeWord(t), direct: isDirect(t)} }

// isDirect reports whether an interface holds a value of t in its data
// word itself (pointers, maps, channels, functions, and structs and arrays
// of one such element) rather than a pointer to it: found out from the
// runtime itself, as the data word of its zero value in an interface,
// which is nil only for such types.
func isDirect(t reflect.Type) bool {
	v := reflect.Zero(t).Interface()
	return (*eface)(unsafe.Pointer(&v)).data == nil
}

// Data returns the address of the value of type t that v holds: a view
// of the interface's own copy, which nothing may write. It reports false
// for a type whose values an interface holds directly (see Direct): they
// have no address there.
func (t Type) Data(v any) (Ptr, bool) {
	if t.direct {
		return Ptr{}, false
	}
	return Ptr{(*eface)(unsafe.Pointer(&v)).data}, true
}

// Direct reports whether an interface holds values of t in its data word
// itself rather than a pointer to them.
func (t Type) Direct() bool { return t.direct }

// OfPointer returns the pointer v holds (v's type must be a pointer type).
func OfPointer(v any) Ptr { return Ptr{(*eface)(unsafe.Pointer(&v)).data} }

// OfValue returns the address of the value rv holds, of type t: its own
// when rv is addressable, else the address of the interface copy
// rv.Interface() views (see Data), else that of a new copy (a type an
// interface holds directly: a struct of one pointer field).
func OfValue(rv reflect.Value, t Type) Ptr {
	if rv.CanAddr() {
		return Ptr{rv.Addr().UnsafePointer()}
	}
	if p, ok := t.Data(rv.Interface()); ok {
		return p
	}
	c := reflect.New(rv.Type())
	c.Elem().Set(rv)
	return Ptr{c.UnsafePointer()}
}

// Ref returns an interface holding the pointer p, of the pointer type pt
// (prepared with TypeOf): the address of a field given as a *T.
func (p Ptr) Ref(pt Type) any {
	e := eface{typ: pt.word, data: p.p}
	return *(*any)(unsafe.Pointer(&e))
}

// SliceData returns the address of the first element of the slice or the
// addressable array rv.
func SliceData(rv reflect.Value) Ptr {
	if rv.Kind() == reflect.Array {
		return Ptr{rv.Addr().UnsafePointer()}
	}
	return Ptr{rv.UnsafePointer()}
}

// The stores, Bind's: each writes a value of its kind at p, which must be
// the address of one, in memory the caller owns (the struct Bind fills).

func (p Ptr) SetString(s string)   { *(*string)(p.p) = s }
func (p Ptr) SetBool(b bool)       { *(*bool)(p.p) = b }
func (p Ptr) SetFloat32(f float32) { *(*float32)(p.p) = f }
func (p Ptr) SetFloat64(f float64) { *(*float64)(p.p) = f }
func (p Ptr) SetPointer(q Ptr)     { *(*unsafe.Pointer)(p.p) = q.p }
func (p Ptr) SetAny(v any)         { *(*any)(p.p) = v }

// Time returns p as the address of a time.Time.
func (p Ptr) Time() *time.Time { return (*time.Time)(p.p) }

// SetInt stores a signed integer of size bytes.
func (p Ptr) SetInt(size uint8, v int64) {
	switch size {
	case 1:
		*(*int8)(p.p) = int8(v)
	case 2:
		*(*int16)(p.p) = int16(v)
	case 4:
		*(*int32)(p.p) = int32(v)
	default:
		*(*int64)(p.p) = v
	}
}

// SetUint stores an unsigned integer of size bytes.
func (p Ptr) SetUint(size uint8, v uint64) {
	switch size {
	case 1:
		*(*uint8)(p.p) = uint8(v)
	case 2:
		*(*uint16)(p.p) = uint16(v)
	case 4:
		*(*uint32)(p.p) = uint32(v)
	default:
		*(*uint64)(p.p) = v
	}
}

// New returns the address of a new zero value of type t.
func New(t reflect.Type) Ptr { return Ptr{reflect.New(t).UnsafePointer()} }

// SetSliceLen makes the slice at p, whose pointer type pt is (prepared
// with TypeOf, so that no reflect lookup finds it), n elements long and returns
// the address of its first element, as encoding/json fills a slice: its
// array is kept when it has room (the elements there are written over),
// else a new one holds a copy of its elements; an empty slice is a non-nil
// one.
func (p Ptr) SetSliceLen(pt Type, n int) Ptr {
	v := reflect.ValueOf(p.Ref(pt)).Elem()
	switch {
	case n == 0:
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
	case v.Cap() >= n:
		v.SetLen(n)
	default:
		v.Grow(n - v.Len())
		v.SetLen(n)
	}
	return Ptr{v.UnsafePointer()}
}

// AddrOf returns the address of the value rv, which must be addressable.
func AddrOf(rv reflect.Value) Ptr { return Ptr{rv.Addr().UnsafePointer()} }

// Offset returns the offset of a field at a fixed offset (see Direct).
func (f *Field) Offset() uintptr { return f.off }

// Scratch is a slice that a list's elements are written into before their
// number is known, then moved to the slice that keeps them, made of their
// number: one allocation for the list, the scratch being reused.
type Scratch struct {
	v    reflect.Value  // an addressable slice, as long as its capacity
	data unsafe.Pointer // its first element
	n    int            // its length
	size uintptr        // its element's size
}

// NewScratch returns a scratch slice of slice type t.
func NewScratch(t reflect.Type) *Scratch {
	return &Scratch{v: reflect.New(t).Elem(), size: t.Elem().Size()}
}

// Elem returns the address of element i, growing the scratch when it has
// no room for it (the addresses of the earlier elements then change).
func (s *Scratch) Elem(i int) Ptr {
	if i >= s.n {
		s.v.Grow(max(i+1, 16) - s.v.Len())
		s.v.SetLen(s.v.Cap())
		s.data, s.n = s.v.UnsafePointer(), s.v.Len()
	}
	return Ptr{unsafe.Add(s.data, uintptr(i)*s.size)}
}

// MoveTo makes the slice at p (of pointer type pt), a nil one, hold the first n
// elements of the scratch, in an array of its own, and zeroes them in the
// scratch. It reports whether the scratch is still small enough to keep.
func (s *Scratch) MoveTo(p Ptr, pt Type, n int) bool {
	dst := reflect.ValueOf(p.Ref(pt)).Elem()
	if n == 0 {
		dst.Set(reflect.MakeSlice(dst.Type(), 0, 0))
		return true
	}
	dst.Grow(n)
	dst.SetLen(n)
	reflect.Copy(dst, s.v)
	s.v.SetLen(n)
	s.v.Clear() // (a typed clear: no pointer is left in it, and the collector is told)
	s.v.SetLen(s.n)
	return uintptr(s.n)*s.size <= 64<<10
}

// MakeSlice makes the slice at p, of elements E, a new one of n elements,
// and returns the address of its first: SetSliceLen without reflect, for
// a nil slice of a common element type.
func MakeSlice[E any](p Ptr, n int) Ptr {
	s := make([]E, n)
	*(*[]E)(p.p) = s
	return Ptr{unsafe.Pointer(unsafe.SliceData(s))}
}
