package rules

import (
	"strconv"
	"time"
)

// Kind classifies a value: the type a field declares, and the kind of a
// value a check is given at run time.
type Kind uint8

// The kinds. Null is only ever a run-time kind (a value that is absent or
// did not convert); Any is only ever a declared kind (the DSL's `none`).
const (
	Null   Kind = iota // no value
	String             // Value.Str
	Int                // Value.Int; the DSL's number, int, long…
	Float              // Value.Float
	Bool               // Value.Bool
	Time               // Value.Time; the DSL's date, datetime, timestamp
	List               // Value.Any holds the slice or array, Value.Len its length
	Object             // Value.Any holds the map, Value.Len its size
	Any                // declared `none`; at run time, a value of no other kind (Value.Any)
)

var kindNames = [...]string{
	Null:   "null",
	String: "string",
	Int:    "number",
	Float:  "float",
	Bool:   "bool",
	Time:   "date",
	List:   "list",
	Object: "object",
	Any:    "none",
}

// String returns the DSL's name for the kind ("number" for Int, "date" for
// Time, "none" for Any).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// KindSet is a set of kinds, used to say which declared types a rule applies to.
type KindSet uint16

// Kinds returns the set holding the given kinds.
func Kinds(ks ...Kind) KindSet {
	var s KindSet
	for _, k := range ks {
		s |= 1 << k
	}
	return s
}

// Has reports whether k is in the set.
func (s KindSet) Has(k Kind) bool { return s&(1<<k) != 0 }

// Value is a value as a check sees it: a tagged union that needs no
// allocation to build or to pass. Only the field named by Kind is meaningful.
//
// A Value is valid only during the Check it is given to. Str, in
// particular, may view the caller's raw JSON bytes or a scratch buffer that
// is reused as soon as Check returns: a check that keeps the string past
// the call (to cache it, log it later, hand it to a goroutine) must copy it
// first with strings.Clone. The same holds for what Any holds.
//
// Checks of stage Output (the default) see the value after the field's
// conversion: on a field declared `number` Kind is Int, on `none` it is the
// kind of whatever the input held. Checks of stage Input see the input value
// as it was given, before conversion.
type Value struct {
	Kind  Kind
	Str   string
	Int   int64
	Float float64
	Bool  bool
	Time  time.Time
	Len   int
	Any   any
}

// StringValue returns a Value of kind String.
func StringValue(s string) Value { return Value{Kind: String, Str: s} }

// IntValue returns a Value of kind Int.
func IntValue(n int64) Value { return Value{Kind: Int, Int: n} }

// FloatValue returns a Value of kind Float.
func FloatValue(f float64) Value { return Value{Kind: Float, Float: f} }

// BoolValue returns a Value of kind Bool.
func BoolValue(b bool) Value { return Value{Kind: Bool, Bool: b} }

// TimeValue returns a Value of kind Time.
func TimeValue(t time.Time) Value { return Value{Kind: Time, Time: t} }

// IsNull reports whether the value is absent.
func (v Value) IsNull() bool { return v.Kind == Null }

// Number returns the value as a float64 and true when its kind is Int or
// Float.
func (v Value) Number() (float64, bool) {
	switch v.Kind {
	case Int:
		return float64(v.Int), true
	case Float:
		return v.Float, true
	}
	return 0, false
}
