package engine

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"time"

	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/internal/textconv"
	"github.com/expose-go/expose/rules"
)

// The conversions of dsl's table (its doc's section Conversions): each turns an input value into
// the field's declared kind, or into a Null value when it cannot. None of
// them allocates: text produced from numbers and times is written into the
// run's scratch buffer, and the result is then marked borrowed so that an
// Object keeps a copy.

// convert converts r to kind k. A pointer (in a map, an interface or a
// struct field) is followed to the value it points to, as encoding/json
// follows it, and a named scalar type converts as its basic type; both are
// tried only once the value itself has failed, off the common path.
func convert(k rules.Kind, r raw, sc *run) (v rules.Value, borrowed bool) {
	v, borrowed = convertBasic(k, r, sc)
	if v.Kind == rules.Null && r.kind == rawAny && r.a != nil && k != rules.Any {
		if p, ok := pointee(r.a); ok {
			return convert(k, p, sc)
		}
		if _, ok := r.a.(json.Number); ok {
			// A number or nothing: its text is never read as a string's
			// ("NaN", "0x10" and "true" are no numbers).
			return v, borrowed
		}
		if u, ok := underlying(r.a); ok {
			return convertBasic(k, raw{a: u}, sc)
		}
	}
	return v, borrowed
}

// maxPointerHops bounds how many pointers pointee follows: a chain longer
// than any real data has is a cycle (var p any; p = &p).
const maxPointerHops = 32

// pointee returns the value v points to, read as a struct field is read,
// when v is a non-nil pointer (through any number of pointers and
// interfaces) to anything but a struct other than time.Time (a pointer to a
// struct is an object, which a reference reads). A nil pointer on the way
// is null.
func pointee(v any) (raw, bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer {
		return raw{}, false
	}
	for range maxPointerHops {
		switch rv.Kind() {
		case reflect.Pointer, reflect.Interface:
			if rv.IsNil() {
				return raw{}, true
			}
			rv = rv.Elem()
			continue
		case reflect.Struct:
			if rv.Type() != timeType {
				return raw{}, false
			}
		}
		return rawOfValue(rv), true
	}
	return raw{}, false
}

// underlying returns a value of a named scalar type (type Celsius float64)
// as its basic type, so that it converts as the basic type would.
func underlying(v any) (any, bool) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Type().PkgPath() == "" {
		return nil, false
	}
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return rv.Uint(), true
	case reflect.Float32:
		return float32(rv.Float()), true
	case reflect.Float64:
		return rv.Float(), true
	case reflect.String:
		return rv.String(), true
	case reflect.Bool:
		return rv.Bool(), true
	}
	return nil, false
}

func convertBasic(k rules.Kind, r raw, sc *run) (v rules.Value, borrowed bool) {
	switch k {
	case rules.String:
		return toString(r, sc)
	case rules.Int:
		return toInt(r), false
	case rules.Float:
		return toFloat(r), false
	case rules.Bool:
		return toBool(r), false
	case rules.Time:
		return toTime(r), false
	case rules.List:
		if r.kind == rawJSON {
			if r.s[0] == '[' {
				return rules.Value{Kind: rules.List, Len: jsonwire.Count(r.s)}, false
			}
			return rules.Value{}, false
		}
		if r.kind != rawAny {
			return rules.Value{}, false
		}
		if rm, ok := r.a.(json.RawMessage); ok { // JSON text: a list when it is an array
			return rawMessageValue(rm, '[', rules.List), false
		}
		if l, ok := listOf(r.a); ok {
			if l.isNil() {
				// A nil slice through a pointer (or a struct field's, read
				// through one): null, as encoding/json writes it.
				return rules.Value{}, false
			}
			return rules.Value{Kind: rules.List, Len: l.len, Any: r.a}, false
		}
	case rules.Object:
		if r.kind == rawJSON {
			if r.s[0] == '{' {
				return rules.Value{Kind: rules.Object, Len: jsonwire.Count(r.s)}, false
			}
			return rules.Value{}, false
		}
		if r.kind != rawAny {
			return rules.Value{}, false
		}
		if rm, ok := r.a.(json.RawMessage); ok { // JSON text: an object when it is one
			return rawMessageValue(rm, '{', rules.Object), false
		}
		if n, ok := objectLen(r.a); ok {
			return rules.Value{Kind: rules.Object, Len: n, Any: r.a}, false
		}
	case rules.Any:
		// The value passes through as it is; an Object keeps the original,
		// or a copy of text that views the caller's bytes. A []byte passes
		// as encoding/json writes it, base64 text, and is checked as such
		// (through a pointer too).
		v := inputValue(r)
		if b, ok := noneBytes(r, v); ok {
			v.Str = base64.StdEncoding.EncodeToString(b)
		}
		if v.Kind == rules.Float && v.Any == nil && (math.IsNaN(v.Float) || math.IsInf(v.Float, 0)) {
			// A struct's float read unboxed: JSON cannot hold it. Boxed,
			// it fails to write as a map's NaN does, with a field error of
			// rule json (this boxing happens only on that failure).
			v.Any = v.Float
		}
		return v, r.view
	}
	return rules.Value{}, false
}

// isNoneBytes reports whether a none field is given a []byte (see
// noneBytes).
func isNoneBytes(r raw) bool {
	_, ok := noneBytes(r, inputValue(r))
	return ok
}

// noneBytes returns the []byte a none field is given, directly or through
// pointers, which it writes as encoding/json does (base64 text); v is what
// inputValue made of r (a string, for one).
func noneBytes(r raw, v rules.Value) ([]byte, bool) {
	switch x := r.a.(type) {
	case []byte:
		return x, x != nil
	case string, nil:
		return nil, false
	}
	if v.Kind != rules.String || r.kind != rawAny {
		return nil, false
	}
	if p, ok := pointee(r.a); ok && p.kind == rawAny {
		b, ok := p.a.([]byte)
		return b, ok && b != nil
	}
	return nil, false
}

func toString(r raw, sc *run) (rules.Value, bool) {
	if s, ok := textOf(r); ok {
		_, isBytes := r.a.([]byte)
		return rules.Value{Kind: rules.String, Str: s}, isBytes || r.view
	}
	switch v := r.a.(type) {
	case bool:
		if v {
			return rules.Value{Kind: rules.String, Str: "true"}, false
		}
		return rules.Value{Kind: rules.String, Str: "false"}, false
	case time.Time:
		v = v.UTC()
		if y := v.Year(); y < 0 || y > 9999 {
			return rules.Value{}, false // not RFC 3339, as on a date field
		}
		b := v.AppendFormat(sc.scratchBuf(), time.RFC3339Nano)
		return rules.Value{Kind: rules.String, Str: bytesString(b)}, true
	case json.Number:
		// An integer keeps its text, when float64 can hold it as raw
		// JSON's number is held (no integer of up to 300 characters
		// exceeds it); any other number is written as its float, and text
		// that is no number, or beyond float64's range, is null.
		if jsonwire.IsInt(string(v)) && (len(v) <= 300 || isFinite(string(v))) {
			return rules.Value{Kind: rules.String, Str: trimZeros(string(v))}, false
		}
		return toString(numberValue(v), sc)
	case uint64:
		return rules.Value{Kind: rules.String, Str: bytesString(strconv.AppendUint(sc.scratchBuf(), v, 10))}, true
	case uint:
		return rules.Value{Kind: rules.String, Str: bytesString(strconv.AppendUint(sc.scratchBuf(), uint64(v), 10))}, true
	}
	if n, ok := intOf(r); ok {
		return rules.Value{Kind: rules.String, Str: bytesString(strconv.AppendInt(sc.scratchBuf(), n, 10))}, true
	}
	if f, ok := floatOf(r); ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
		bits := 64
		if _, ok := r.a.(float32); ok {
			bits = 32
		}
		return rules.Value{Kind: rules.String, Str: bytesString(jsonwire.AppendFloat(sc.scratchBuf(), f, bits))}, true
	}
	return rules.Value{}, false
}

// numberValue turns a json.Number into an integer or float input; one that
// is not a number becomes null.
func numberValue(jn json.Number) raw {
	s := string(jn)
	if jsonwire.IsInt(s) {
		if n, ok := textconv.ParseInt(s); ok {
			return raw{kind: rawInt, n: n}
		}
	}
	if f, ok := textconv.ParseFloat(s); ok {
		return raw{kind: rawFloat, f: f}
	}
	return raw{}
}

// isFinite reports whether s is a number float64 can hold.
func isFinite(s string) bool {
	_, ok := textconv.ParseFloat(s)
	return ok
}

// truncate converts f toward zero when the result fits in an int64.
func truncate(f float64) (int64, bool) {
	if math.IsNaN(f) || f < -9223372036854775808.0 || f >= 9223372036854775808.0 {
		return 0, false
	}
	return int64(f), true
}

func toInt(r raw) rules.Value {
	if s, ok := textOf(r); ok {
		if n, ok := textconv.ParseInt(s); ok {
			return rules.Value{Kind: rules.Int, Int: n}
		}
		return rules.Value{}
	}
	if jn, ok := r.a.(json.Number); ok {
		// Its exact decimal value, never through float64.
		if n, ok := textconv.TruncInt(string(jn)); ok {
			return rules.Value{Kind: rules.Int, Int: n}
		}
		return rules.Value{}
	}
	if n, ok := intOf(r); ok {
		return rules.Value{Kind: rules.Int, Int: n}
	}
	if f, ok := floatOf(r); ok {
		if n, ok := truncate(f); ok {
			return rules.Value{Kind: rules.Int, Int: n}
		}
	}
	return rules.Value{}
}

func toFloat(r raw) rules.Value {
	if s, ok := textOf(r); ok {
		if f, ok := textconv.ParseFloat(s); ok {
			return rules.Value{Kind: rules.Float, Float: f}
		}
		return rules.Value{}
	}
	if jn, ok := r.a.(json.Number); ok {
		// Its text read as a float, as raw JSON's is: "-0" is -0.
		if f, ok := textconv.ParseFloat(string(jn)); ok {
			return rules.Value{Kind: rules.Float, Float: f}
		}
		return rules.Value{}
	}
	if n, ok := intOf(r); ok {
		return rules.Value{Kind: rules.Float, Float: float64(n)}
	}
	if f, ok := floatOf(r); ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
		return rules.Value{Kind: rules.Float, Float: f}
	}
	return rules.Value{}
}

func toBool(r raw) rules.Value {
	if s, ok := textOf(r); ok {
		if b, ok := textconv.ParseBool(s); ok {
			return rules.Value{Kind: rules.Bool, Bool: b}
		}
		return rules.Value{}
	}
	switch v := r.a.(type) {
	case bool:
		return rules.Value{Kind: rules.Bool, Bool: v}
	case json.Number:
		return toBool(numberValue(v))
	}
	var b, ok bool
	if i, isInt := intOf(r); isInt {
		b, ok = textconv.IntToBool(i)
	} else if f, isFloat := floatOf(r); isFloat {
		b, ok = textconv.FloatToBool(f)
	}
	if !ok {
		return rules.Value{}
	}
	return rules.Value{Kind: rules.Bool, Bool: b}
}

func toTime(r raw) rules.Value {
	var t time.Time
	if s, ok := textOf(r); ok {
		var ok bool
		if t, ok = textconv.ParseTime(s); !ok {
			return rules.Value{}
		}
	} else {
		switch v := r.a.(type) {
		case time.Time:
			t = v.UTC()
		case json.Number:
			// Milliseconds, truncated toward zero from the exact text.
			n, ok := textconv.TruncInt(string(v))
			if !ok {
				return rules.Value{}
			}
			t = textconv.IntToTime(n)
		default:
			if n, ok := intOf(r); ok {
				t = textconv.IntToTime(n)
			} else if f, ok := floatOf(r); ok {
				if t, ok = textconv.FloatToTime(f); !ok {
					return rules.Value{}
				}
			} else {
				return rules.Value{}
			}
		}
	}
	if y := t.Year(); y < 0 || y > 9999 {
		return rules.Value{} // RFC 3339 has four-digit years only
	}
	return rules.Value{Kind: rules.Time, Time: t}
}

// trimZeros drops the leading zeros of integer text: "-007" is "-7", and
// "-00" is "-0", as a float -0 is written on a string field.
func trimZeros(s string) string {
	text := s
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	switch {
	case !neg:
		return s
	case len(s)+1 == len(text):
		return text // nothing dropped: no copy
	}
	return "-" + s
}

// rawMessageValue returns a json.RawMessage as a list or an object (kind k,
// whose JSON text starts with open), written as its text; null when it is
// not valid JSON of that kind.
func rawMessageValue(rm json.RawMessage, open byte, k rules.Kind) rules.Value {
	t := jsonwire.TrimSpace(bytesString(rm))
	if t == "" || t[0] != open || !json.Valid(rm) {
		return rules.Value{}
	}
	return rules.Value{Kind: k, Len: jsonwire.Count(t), Any: rm}
}
