package structread

import (
	"reflect"
	"testing"
	"time"
)

// The tests compare every read with what reflect reads from the same
// value: the field Locate finds is the one FieldByIndex finds, each load
// gives the field's value, and Interface gives a value equal to the field.
// Run them with -race and -gcflags=all=-d=checkptr (test.sh does), which
// check each pointer conversion.

type (
	myString string
	myInt    int16
	myUint   uint32
	myFloat  float32
	myBool   bool
)

type Inner struct {
	S string
	I int64
}

type Outer struct {
	*Inner
	Val   Inner
	N     myInt
	Str   myString
	U8    uint8
	U     myUint
	U64   uint64
	I8    int8
	I32   int32
	I     int
	F32   myFloat
	F64   float64
	B     myBool
	P     *int
	PS    *string
	PP    **int
	T     time.Time
	M     map[string]int
	Sl    []int
	Arr   [2]byte
	Any   any
	Fn    func()
	Ch    chan int
	One   struct{ P *int }
	Two   struct{ P, Q *int }
	Empty struct{}
}

func sample() *Outer {
	n, s := 7, "pointed"
	pn := &n
	return &Outer{
		Inner: &Inner{S: "embedded", I: -9},
		Val:   Inner{S: "val", I: 3}, N: -300, Str: "named", U8: 250, U: 4e9, U64: 1 << 63,
		I8: -128, I32: -1 << 31, I: 1 << 40, F32: 0.1, F64: -2.5, B: true,
		P: &n, PS: &s, PP: &pn, T: time.Date(2020, 1, 2, 3, 4, 5, 6, time.UTC),
		M: map[string]int{"a": 1}, Sl: []int{1, 2}, Arr: [2]byte{1, 2}, Any: 42,
		Fn: func() {}, Ch: make(chan int), One: struct{ P *int }{&n}, Two: struct{ P, Q *int }{&n, nil},
	}
}

// readAs reads field f of the struct at p by its kind, in an any.
func readAs(f *Field, p Ptr) any {
	a := f.Addr(p)
	if a.IsNil() {
		return nil
	}
	switch f.Kind {
	case String:
		return a.String()
	case Bool:
		return a.Bool()
	case Int:
		return a.Int(f.Size)
	case Uint:
		return a.Uint(f.Size)
	case Float32:
		return a.Float32()
	case Float64:
		return a.Float64()
	}
	if f.Type.Kind() == reflect.Interface {
		return a.Value(f.Type).Interface()
	}
	return a.Interface(TypeOf(f.Type))
}

// want is what reflect reads of the same field, converted as readAs's
// kinds are.
func want(f *Field, rv reflect.Value) any {
	if f.Deref {
		if rv.IsNil() {
			return nil
		}
		rv = rv.Elem()
	}
	switch f.Kind {
	case String:
		return rv.String()
	case Bool:
		return rv.Bool()
	case Int:
		return rv.Int()
	case Uint:
		return rv.Uint()
	case Float32:
		return float32(rv.Float())
	case Float64:
		return rv.Float()
	}
	return rv.Interface()
}

func TestLocateAndLoad(t *testing.T) {
	o := sample()
	typ := reflect.TypeFor[Outer]()
	rv := reflect.ValueOf(o).Elem()
	p := OfPointer(o)
	for i := range typ.NumField() {
		sf := typ.Field(i)
		t.Run(sf.Name, func(t *testing.T) {
			f := Locate(typ, []int{i})
			if !f.Direct() && !f.Deref {
				t.Fatalf("a field of the struct itself is not direct")
			}
			got, exp := readAs(&f, p), want(&f, rv.Field(i))
			switch sf.Type.Kind() {
			case reflect.Func: // functions are not comparable: compare their pointers
				if reflect.ValueOf(got).Pointer() != reflect.ValueOf(exp).Pointer() {
					t.Errorf("func differs")
				}
				return
			}
			if !reflect.DeepEqual(got, exp) {
				t.Errorf("read %#v, reflect reads %#v", got, exp)
			}
		})
	}
}

func TestKinds(t *testing.T) {
	typ := reflect.TypeFor[Outer]()
	cases := []struct {
		field string
		kind  Kind
		size  uint8
		deref bool
	}{
		{"N", Int, 2, false}, {"Str", String, 0, false}, {"U8", Uint, 1, false}, {"U", Uint, 4, false},
		{"U64", Uint, 8, false}, {"I8", Int, 1, false}, {"I32", Int, 4, false}, {"I", Int, 8, false},
		{"F32", Float32, 0, false}, {"F64", Float64, 0, false}, {"B", Bool, 0, false},
		{"P", Int, 8, true}, {"PS", String, 0, true}, {"PP", Other, 0, false}, {"T", Other, 0, false},
		{"Val", Other, 0, false}, {"M", Other, 0, false}, {"Any", Other, 0, false},
	}
	for _, c := range cases {
		sf, _ := typ.FieldByName(c.field)
		f := Locate(typ, sf.Index)
		if f.Kind != c.kind || f.Size != c.size || f.Deref != c.deref {
			t.Errorf("%s: kind %d size %d deref %t, want %d %d %t", c.field, f.Kind, f.Size, f.Deref, c.kind, c.size, c.deref)
		}
	}
}

func TestEmbeddedPointer(t *testing.T) {
	typ := reflect.TypeFor[Outer]()
	s, _ := typ.FieldByName("S") // promoted through *Inner
	f := Locate(typ, s.Index)
	if f.Direct() {
		t.Fatalf("a field through an embedded pointer is direct")
	}
	o := sample()
	if got := f.Addr(OfPointer(o)).String(); got != "embedded" {
		t.Errorf("got %q", got)
	}
	o.Inner = nil
	if !f.Addr(OfPointer(o)).IsNil() {
		t.Errorf("a field behind a nil embedded pointer has an address")
	}
	pf := Locate(typ, []int{mustIndex(typ, "P")})
	o.P = nil
	if !pf.Addr(OfPointer(o)).IsNil() {
		t.Errorf("a nil pointer field Deref follows has an address")
	}
}

func mustIndex(t reflect.Type, name string) int {
	sf, _ := t.FieldByName(name)
	return sf.Index[0]
}

func TestDirect(t *testing.T) {
	cases := []struct {
		v      any
		direct bool
	}{
		{new(int), true}, {map[string]int{}, true}, {make(chan int), true}, {func() {}, true},
		{struct{ P *int }{}, true}, {[1]*int{}, true}, {struct{ A [1]map[int]int }{}, true},
		{struct{ P, Q *int }{}, false}, {"s", false}, {0, false}, {struct{}{}, false}, {[2]*int{}, false},
		{time.Time{}, false}, {[]int{}, false}, {Inner{}, false},
	}
	for _, c := range cases {
		if got := TypeOf(reflect.TypeOf(c.v)).Direct(); got != c.direct {
			t.Errorf("%T: Direct %t, want %t", c.v, got, c.direct)
		}
	}
}

func TestAddresses(t *testing.T) {
	o := sample()
	it := TypeOf(reflect.TypeFor[Inner]())
	// A struct in an interface: the interface's copy.
	var boxed any = *o.Inner
	p, ok := it.Data(boxed)
	if !ok || p.String() != "embedded" {
		t.Fatalf("Data: %v %v", p, ok)
	}
	// A type an interface holds directly has no address there.
	if _, ok := TypeOf(reflect.TypeFor[struct{ P *int }]()).Data(o.One); ok {
		t.Errorf("Data of a direct type")
	}
	// OfValue: addressable, not addressable, direct.
	if got := OfValue(reflect.ValueOf(o).Elem().Field(1), it).String(); got != "val" {
		t.Errorf("OfValue(addressable) = %q", got)
	}
	if got := OfValue(reflect.ValueOf(*o).Field(1), it); got.String() != "val" {
		t.Errorf("OfValue(not addressable) = %q", got.String())
	}
	one := TypeOf(reflect.TypeFor[struct{ P *int }]())
	if got := OfValue(reflect.ValueOf(o.One), one).Pointer(); got.p != OfPointer(o.One.P).p {
		t.Errorf("OfValue(direct): %v", got)
	}
	// Ref: the field's address as a pointer.
	vf := Locate(reflect.TypeFor[Outer](), []int{mustIndex(reflect.TypeFor[Outer](), "Val")})
	ref := vf.Addr(OfPointer(o)).Ref(TypeOf(reflect.TypeFor[*Inner]()))
	if ref.(*Inner) != &o.Val {
		t.Errorf("Ref is not the field's address")
	}
	// Index: the elements of a slice and of an addressable array.
	size := reflect.TypeFor[Inner]().Size()
	rows := []Inner{{S: "a"}, {S: "b"}, {S: "c"}}
	base := SliceData(reflect.ValueOf(rows))
	for i := range rows {
		if got := base.Index(i, size).String(); got != rows[i].S {
			t.Errorf("Index(%d) = %q", i, got)
		}
	}
	arr := &[2]Inner{{S: "x"}, {S: "y"}}
	if got := SliceData(reflect.ValueOf(arr).Elem()).Index(1, size).String(); got != "y" {
		t.Errorf("array Index(1) = %q", got)
	}
}

// TestInterfaceViews: Interface gives the value without copying it (the
// view of a struct sees a later change of it), and values of direct types
// as themselves.
func TestInterfaceViews(t *testing.T) {
	o := sample()
	typ := reflect.TypeFor[Outer]()
	vf := Locate(typ, []int{mustIndex(typ, "Val")})
	view := vf.Addr(OfPointer(o)).Interface(TypeOf(vf.Type))
	if view.(Inner) != o.Val {
		t.Fatalf("view %v, want %v", view, o.Val)
	}
	mf := Locate(typ, []int{mustIndex(typ, "M")})
	m := mf.Addr(OfPointer(o)).Interface(TypeOf(mf.Type)).(map[string]int)
	m["b"] = 2
	if o.M["b"] != 2 {
		t.Errorf("the map read is not the field's map")
	}
	tf := Locate(typ, []int{mustIndex(typ, "T")})
	if got := tf.Addr(OfPointer(o)).Interface(TypeOf(tf.Type)).(time.Time); !got.Equal(o.T) {
		t.Errorf("time %v, want %v", got, o.T)
	}
}
