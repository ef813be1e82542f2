package structread

import (
	"reflect"
	"runtime"
	"testing"
	"time"
	"unsafe"
)

// reflectAddr is the address of *p.
func reflectAddr[T any](p *T) unsafe.Pointer { return unsafe.Pointer(p) }

// The stores are Bind's: each writes a value of its kind where reflect
// finds the field, and the slice helpers size a slice as encoding/json
// would, the scratch slice leaving no value behind.

type stored struct {
	S   myString
	B   bool
	I8  int8
	I   myInt
	I4  int32
	I8b int64
	U1  uint8
	U   myUint
	U8  uint64
	F4  float32
	F8  float64
	T   time.Time
	P   *string
	A   any
	L   []string
}

func TestStoresWriteEachKind(t *testing.T) {
	var v stored
	base := Ptr{reflectAddr(&v)}
	at := func(name string) Ptr {
		f, _ := reflect.TypeFor[stored]().FieldByName(name)
		return base.Add(f.Offset)
	}
	s := "p"
	when := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	at("S").SetString("ann")
	at("B").SetBool(true)
	at("I8").SetInt(1, -8)
	at("I").SetInt(2, -300)
	at("I4").SetInt(4, 1<<30)
	at("I8b").SetInt(8, -1<<40)
	at("U1").SetUint(1, 200)
	at("U").SetUint(4, 1<<31)
	at("U8").SetUint(8, 1<<63)
	at("F4").SetFloat32(1.5)
	at("F8").SetFloat64(-2.25)
	*at("T").Time() = when
	at("P").SetPointer(Ptr{reflectAddr(&s)})
	at("A").SetAny(12.5)
	want := stored{S: "ann", B: true, I8: -8, I: -300, I4: 1 << 30, I8b: -1 << 40, U1: 200, U: 1 << 31, U8: 1 << 63,
		F4: 1.5, F8: -2.25, T: when, P: &s, A: 12.5}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("stored %+v, want %+v", v, want)
	}
}

func TestSetSliceLen(t *testing.T) {
	typ := TypeOf(reflect.TypeFor[*[]string]())
	tests := []struct {
		name    string
		in      []string
		n       int
		want    []string
		sameArr bool
	}{
		{name: "a nil slice is made of its length", n: 3, want: []string{"", "", ""}},
		{name: "an empty list is an empty slice, not nil", in: nil, n: 0, want: []string{}},
		{name: "a slice with room keeps its array and elements", in: append(make([]string, 0, 4), "a", "b"), n: 3, want: []string{"a", "b", ""}, sameArr: true},
		{name: "a shorter list shortens it", in: []string{"a", "b", "c"}, n: 1, want: []string{"a"}, sameArr: true},
		{name: "a longer list than its room grows it, keeping its elements", in: []string{"a"}, n: 2, want: []string{"a", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.in
			old := s
			first := Ptr{reflectAddr(&s)}.SetSliceLen(typ, tt.n)
			if !reflect.DeepEqual(s, tt.want) || s == nil {
				t.Fatalf("got %#v, want %#v", s, tt.want)
			}
			if tt.n > 0 && first.p != reflectAddr(&s[0]) {
				t.Errorf("the address returned is not the first element's")
			}
			if tt.sameArr && &old[0] != &s[0] {
				t.Errorf("the array was not kept")
			}
		})
	}
}

func TestScratchMovesItsElements(t *testing.T) {
	sc := NewScratch(reflect.TypeFor[[]*string]())
	typ := TypeOf(reflect.TypeFor[*[]*string]())
	var vals []string
	for i := range 40 { // past the first capacity: the scratch grows
		vals = append(vals, string(rune('a'+i%26)))
	}
	for i := range vals {
		sc.Elem(i).SetPointer(Ptr{reflectAddr(&vals[i])})
	}
	var dst []*string
	if !sc.MoveTo(Ptr{reflectAddr(&dst)}, typ, len(vals)) {
		t.Errorf("a small scratch is not kept")
	}
	if len(dst) != len(vals) || cap(dst) != len(vals) {
		t.Fatalf("moved into len %d cap %d, want %d", len(dst), cap(dst), len(vals))
	}
	for i, p := range dst {
		if p != &vals[i] {
			t.Errorf("element %d is %p, want %p", i, p, &vals[i])
		}
	}
	runtime.GC()
	for i := range len(vals) {
		if p := *(**string)(sc.Elem(i).p); p != nil {
			t.Errorf("scratch element %d still holds %p", i, p)
		}
	}
	var empty []*string
	sc.MoveTo(Ptr{reflectAddr(&empty)}, typ, 0)
	if empty == nil || len(empty) != 0 {
		t.Errorf("an empty list moved as %#v, want an empty slice", empty)
	}
}

func TestMakeSlice(t *testing.T) {
	var s []int64
	first := MakeSlice[int64](Ptr{reflectAddr(&s)}, 3)
	if len(s) != 3 || cap(s) != 3 || first.p != reflectAddr(&s[0]) {
		t.Fatalf("made len %d cap %d, first at %p, want 3, 3, %p", len(s), cap(s), first.p, &s[0])
	}
	first.Index(2, 8).SetInt(8, 9)
	if s[2] != 9 {
		t.Errorf("element 2 is %d, want 9", s[2])
	}
}
