package rules

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/expose-go/expose/internal/textconv"
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

// kindDefs is the vocabulary of types: for each kind, the name a
// declaration writes for it, the other names it accepts, whether it may be
// a typed list's element type (`[]string`), the value of a bare default, a
// sample value, and the JSON Schemas of what a field of the kind
// writes and of what strict input accepts for it. Every other table of types (the parser's, the
// compiler's, the test kit's) is derived from it: adding a type is adding a
// row here, its conversion (entity/convert.go) and how it is written as
// JSON (entity/make.go).
var kindDefs = [...]struct {
	name    string
	aliases []string
	elem    bool       // a scalar: `[]name` is a typed list of it
	zero    func() any // a new value each call: lists and maps are mutable
	sample  func() any
	schema  func() map[string]any   // what a field of the kind writes (see Kind.Schema)
	input   func() []map[string]any // what strict input accepts for it (see Kind.InputSchema)
}{
	Null:   {name: "null", zero: none, sample: none, schema: schemaOf("type", "null"), input: inputOf(schemaOf("type", "null"))},
	String: {name: "string", aliases: []string{"text"}, elem: true, zero: func() any { return "" }, sample: func() any { return "sample" }, schema: schemaOf("type", "string"), input: inputOf(schemaOf("type", "string"))},
	Int:    {name: "number", aliases: []string{"num", "int", "integer", "long"}, elem: true, zero: func() any { return int64(0) }, sample: func() any { return int64(1) }, schema: schemaOf("type", "integer", "format", "int64"), input: inputOf(intSchema, schemaOf("type", "string", "pattern", intTextPattern))},
	Float:  {name: "float", aliases: []string{"double"}, elem: true, zero: func() any { return 0.0 }, sample: func() any { return 1.5 }, schema: schemaOf("type", "number"), input: inputOf(floatSchema, schemaOf("type", "string", "pattern", floatTextPattern))},
	Bool:   {name: "bool", aliases: []string{"boolean", "flag"}, elem: true, zero: func() any { return false }, sample: func() any { return true }, schema: schemaOf("type", "boolean"), input: inputOf(schemaOf("type", "boolean"), schemaOf("enum", []any{int64(0), int64(1)}), schemaOf("type", "string", "pattern", boolPattern))},
	Time:   {name: "date", aliases: []string{"datetime", "timestamp"}, elem: true, zero: func() any { return textconv.IntToTime(0) }, sample: func() any { return sampleTime }, schema: schemaOf("type", "string", "format", "date-time"), input: inputOf(schemaOf("type", "string", "pattern", timestampPattern), millisSchema)},
	List:   {name: "list", aliases: []string{"array"}, zero: func() any { return []any{} }, sample: func() any { return []any{int64(1)} }, schema: schemaOf("type", "array"), input: inputOf(schemaOf("type", "array"))},
	Object: {name: "object", aliases: []string{"map", "json"}, zero: func() any { return map[string]any{} }, sample: func() any { return map[string]any{} }, schema: schemaOf("type", "object"), input: inputOf(schemaOf("type", "object"))},
	Any:    {name: "none", aliases: []string{"no"}, zero: none, sample: func() any { return "sample" }, schema: schemaOf(), input: inputOf(schemaOf())},
}

// The JSON Schemas of the kinds, for kindDefs.
var (
	// intSchema is a JSON integer in the range of int64 (12.0 is one, as
	// JSON Schema counts integers by value).
	intSchema = schemaOf("type", "integer", "format", "int64", "minimum", int64(math.MinInt64), "maximum", int64(math.MaxInt64))
	// floatSchema is a JSON number that a float64 holds: 1e400 is refused.
	floatSchema = schemaOf("type", "number", "minimum", -math.MaxFloat64, "maximum", math.MaxFloat64)
	// millisSchema is a number of Unix milliseconds whose date, its
	// fraction dropped (truncated toward zero), falls in the years
	// 0000–9999, the dates RFC 3339 can write.
	millisSchema = schemaOf("type", "number", "exclusiveMinimum", minMillis-1, "exclusiveMaximum", maxMillis+1)
)

// The first and last millisecond of the years 0000–9999, in Unix
// milliseconds.
const (
	minMillis = -62167219200000 // 0000-01-01T00:00:00Z
	maxMillis = 253402300799999 // 9999-12-31T23:59:59.999Z
)

// schemaOf returns a function that makes a new schema of the keywords and
// values given in pairs.
func schemaOf(kv ...any) func() map[string]any {
	return func() map[string]any {
		m := make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
}

// inputOf returns a function that makes new schemas of the alternatives.
func inputOf(alts ...func() map[string]any) func() []map[string]any {
	return func() []map[string]any {
		out := make([]map[string]any, len(alts))
		for i, a := range alts {
			out[i] = a()
		}
		return out
	}
}

// sampleTime is the sample of a date field and of the rules about times.
var sampleTime = time.Date(2024, 1, 15, 12, 30, 0, 0, time.UTC)

func none() any { return nil }

// kindByName maps every lower-case type name a declaration may write to its
// kind, built from kindDefs.
var kindByName = func() map[string]Kind {
	m := make(map[string]Kind)
	for k := String; k <= Any; k++ {
		m[kindDefs[k].name] = k
		for _, a := range kindDefs[k].aliases {
			m[a] = k
		}
	}
	return m
}()

// LookupKind returns the declared kind that a type name of the DSL names
// (case-insensitive, aliases included): "number", "int" and "long" are Int,
// "date" and "timestamp" are Time, "none" is Any. Null is no declared type.
func LookupKind(name string) (Kind, bool) {
	k, ok := kindByName[strings.ToLower(name)]
	return k, ok
}

// TypeNames returns the canonical name of every declared kind, in the
// order of the kinds: string, number, float, bool, date, list, object, none.
func TypeNames() []string {
	out := make([]string, 0, len(kindDefs)-1)
	for k := String; k <= Any; k++ {
		out = append(out, kindDefs[k].name)
	}
	return out
}

// Aliases returns the other names a declaration may write for the kind
// ("num", "int", "integer", "long" for Int).
func (k Kind) Aliases() []string {
	if int(k) < len(kindDefs) {
		return append([]string(nil), kindDefs[k].aliases...)
	}
	return nil
}

// Zero returns the value of a bare default on a field of the kind, as a Go
// value: "", int64(0), 0.0, false, the Unix epoch, an empty []any, an empty
// map[string]any; nil for Any (none) and Null.
func (k Kind) Zero() any {
	if int(k) < len(kindDefs) {
		return kindDefs[k].zero()
	}
	return nil
}

// Sample returns a value of the kind, as a Go value, for tools that make
// examples: "sample", int64(1), 1.5, true, 2024-01-15T12:30:00Z, []any{1},
// an empty map; "sample" for Any, nil for Null.
func (k Kind) Sample() any {
	if int(k) < len(kindDefs) {
		return kindDefs[k].sample()
	}
	return nil
}

// Schema returns the JSON Schema (2020-12) of the values a field of the
// kind writes, as a new map: {"type": "string"} for String, "integer" of
// format "int64" (OpenAPI's: a signed 64-bit integer) for Int, "number"
// for Float, "boolean" for Bool, a string of format
// "date-time" for Time (RFC 3339 in UTC), "array" for List, "object" for
// Object, and no keyword at all for Any (none writes any JSON value). Null
// is {"type": "null"}. Null values of a field are not included: whether a
// field writes null is the field's business, not its kind's.
func (k Kind) Schema() map[string]any {
	if int(k) < len(kindDefs) {
		return kindDefs[k].schema()
	}
	return map[string]any{}
}

// InputSchema returns the JSON Schemas of the values that strict input
// (entity.Strict, which requests are read with) converts to the kind
// without loss, as new maps, one per form; a value is accepted when it is
// one of them. The first is the form the field writes (its Schema, bounded
// to int64 for Int and to float64 for Float), the others the text and
// numbers that convert:
//
//	string  a string
//	number  an integer in int64's range; text of ParseInt's syntax with no fraction but zeros ("27", "12.0"), in int64's range
//	float   a number a float64 holds; text of ParseFloat's syntax under 1e308
//	bool    a boolean; 0 or 1; text that ParseBool reads ("on", "FALSE")
//	date    text that ParseTime reads; Unix milliseconds of the years 0000–9999
//	list    an array
//	object  an object
//	none    anything
//
// The text of a float from 1e308 up to float64's largest number is read
// but left out of the pattern, which no pattern of bounded size says
// exactly; nothing the conversions refuse ("1e400") matches. See
// InputKeywords for what a rule says of each form.
func (k Kind) InputSchema() []map[string]any {
	if int(k) < len(kindDefs) {
		return kindDefs[k].input()
	}
	return []map[string]any{{}}
}

// IsElem reports whether the kind may be the element type of a typed list
// (`[]string`, `[]number`, `[]date`…): the scalars string, number, float,
// bool and date.
func (k Kind) IsElem() bool { return int(k) < len(kindDefs) && kindDefs[k].elem }

// ElemNames returns the canonical name of every kind that may be a typed
// list's element type, in the order of the kinds.
func ElemNames() []string {
	var out []string
	for k := String; k <= Any; k++ {
		if k.IsElem() {
			out = append(out, kindDefs[k].name)
		}
	}
	return out
}

// String returns the DSL's name for the kind ("number" for Int, "date" for
// Time, "none" for Any).
func (k Kind) String() string {
	if int(k) < len(kindDefs) {
		return kindDefs[k].name
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
