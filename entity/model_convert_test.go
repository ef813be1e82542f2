package entity_test

// The reference model's reading of inputs and its conversions, written from
// the README's Conversion table, "Requests are read strictly" and the go doc
// of Strict: a Go value or a raw JSON value in, a rules.Value of the declared
// type out, or null.

import (
	"database/sql/driver"
	"encoding/base64"
	"encoding/json"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/internal/textconv"
	"github.com/expose-go/expose/rules"
)

// mdlValuerFailed marks a driver.Valuer whose Value failed (code "value").
type mdlValuerFailed struct{}

// mdlNorm follows pointers and reads driver.Valuers, as every input is read:
// a nil pointer is null.
func mdlNorm(v any) any {
	for i := 0; i < 100; i++ {
		if v == nil {
			return nil
		}
		switch v.(type) {
		case *mdlJSON, *entity.Object, mdlObjIn:
			if j, ok := v.(*mdlJSON); ok && (j == nil || j.kind == mdlJNull) {
				return nil
			}
			return v
		}
		rv := reflect.ValueOf(v)
		if rv.Kind() == reflect.Pointer && rv.IsNil() {
			return nil
		}
		if val, ok := v.(driver.Valuer); ok {
			got, err := val.Value()
			if err != nil {
				return mdlValuerFailed{}
			}
			v = got
			continue
		}
		if rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
			v = rv.Elem().Interface()
			continue
		}
		return v
	}
	return nil
}

// mdlIsObject reports whether v (normalized) is an object input: a map with
// string keys, a struct, a raw JSON object, an *Object.
func mdlIsObject(v any) bool {
	switch v := v.(type) {
	case *mdlJSON:
		return v.kind == mdlJObj
	case *entity.Object, mdlObjIn:
		return true
	case time.Time, nil:
		return false
	}
	rv := reflect.ValueOf(v)
	return (rv.Kind() == reflect.Map && rv.Type().Key().Kind() == reflect.String) || rv.Kind() == reflect.Struct
}

// mdlIsList reports whether v (normalized) is a list: a slice or an array
// (not []byte, which is text), a raw JSON array.
func mdlIsList(v any) bool {
	switch v := v.(type) {
	case *mdlJSON:
		return v.kind == mdlJArr
	case json.RawMessage, []byte, nil:
		return false
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
		return false
	}
	return rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array
}

// mdlElems returns the elements of a list (mdlIsList).
func mdlElems(v any) []any {
	if j, ok := v.(*mdlJSON); ok {
		out := make([]any, len(j.arr))
		for i, e := range j.arr {
			out[i] = e
		}
		return out
	}
	rv := reflect.ValueOf(v)
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out
}

// mdlIsNilCollection reports a nil slice or a nil map, which list, object
// and none fields read as encoding/json writes them: null.
func mdlIsNilCollection(v any) bool {
	if v == nil {
		return false
	}
	rv := reflect.ValueOf(v)
	return (rv.Kind() == reflect.Slice || rv.Kind() == reflect.Map) && rv.IsNil()
}

// mdlScalar is a scalar input as the conversions see it.
type mdlScalar struct {
	kind byte // 's' string, 'i' int, 'u' uint, 'f' float, 'b' bool, 't' time, 'n' json.Number, 0 other
	f32  bool
	s    string
	i    int64
	u    uint64
	f    float64
	b    bool
	t    time.Time
}

func mdlScalarOf(v any) mdlScalar {
	switch v := v.(type) {
	case nil:
		return mdlScalar{}
	case *mdlJSON:
		switch v.kind {
		case mdlJStr:
			return mdlScalar{kind: 's', s: v.s}
		case mdlJNum:
			return mdlScalar{kind: 'f', f: v.f}
		case mdlJBool:
			return mdlScalar{kind: 'b', b: v.b}
		}
		return mdlScalar{}
	case json.Number:
		return mdlScalar{kind: 'n', s: string(v)}
	case time.Time:
		return mdlScalar{kind: 't', t: v}
	case []byte:
		return mdlScalar{kind: 's', s: string(v)}
	case json.RawMessage:
		return mdlScalar{kind: 's', s: string(v)}
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String:
		return mdlScalar{kind: 's', s: rv.String()}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return mdlScalar{kind: 'i', i: rv.Int()}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return mdlScalar{kind: 'u', u: rv.Uint()}
	case reflect.Float32:
		return mdlScalar{kind: 'f', f: rv.Float(), f32: true}
	case reflect.Float64:
		return mdlScalar{kind: 'f', f: rv.Float()}
	case reflect.Bool:
		return mdlScalar{kind: 'b', b: rv.Bool()}
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return mdlScalar{kind: 's', s: string(rv.Bytes())}
		}
	}
	return mdlScalar{}
}

var mdlIntText = regexp.MustCompile(`^-?[0-9]+$`)

// mdlFloatText spells f as JavaScript and encoding/json do.
func mdlFloatText(f float64, f32 bool) (string, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", false
	}
	var b []byte
	if f32 {
		b, _ = json.Marshal(float32(f))
	} else {
		b, _ = json.Marshal(f)
	}
	return string(b), true
}

func mdlYearOK(t time.Time) bool {
	y := t.UTC().Year()
	return y >= 0 && y <= 9999
}

// mdlToString is the string conversion.
func mdlToString(sc mdlScalar, strict bool) (string, bool) {
	switch sc.kind {
	case 's':
		return sc.s, true
	}
	if strict {
		return "", false
	}
	switch sc.kind {
	case 'i':
		return strconv.FormatInt(sc.i, 10), true
	case 'u':
		return strconv.FormatUint(sc.u, 10), true
	case 'f':
		return mdlFloatText(sc.f, sc.f32)
	case 'b':
		return strconv.FormatBool(sc.b), true
	case 't':
		if !mdlYearOK(sc.t) {
			return "", false
		}
		return sc.t.UTC().Format(time.RFC3339Nano), true
	case 'n':
		if mdlIntText.MatchString(sc.s) {
			neg := strings.HasPrefix(sc.s, "-")
			d := strings.TrimLeft(strings.TrimPrefix(sc.s, "-"), "0")
			if d == "" {
				d = "0"
			}
			if neg {
				d = "-" + d
			}
			return d, true
		}
		f, ok := textconv.ParseFloat(sc.s)
		if !ok {
			return "", false
		}
		return mdlFloatText(f, false)
	}
	return "", false
}

var mdlStrictIntText = regexp.MustCompile(`^-?[0-9]+(\.0+)?$`)

// mdlToInt is the number conversion.
func mdlToInt(sc mdlScalar, strict bool) (int64, bool) {
	switch sc.kind {
	case 'i':
		return sc.i, true
	case 'u':
		if sc.u > math.MaxInt64 {
			return 0, false
		}
		return int64(sc.u), true
	case 'f':
		if math.IsNaN(sc.f) || math.IsInf(sc.f, 0) {
			return 0, false
		}
		t := math.Trunc(sc.f)
		if t < -9223372036854775808 || t >= 9223372036854775808 {
			return 0, false
		}
		if strict && t != sc.f {
			return 0, false
		}
		return int64(t), true
	case 's':
		if strict && !mdlStrictIntText.MatchString(sc.s) {
			return 0, false
		}
		return textconv.ParseInt(sc.s)
	case 'n':
		if strict {
			if !json.Valid([]byte(sc.s)) {
				return 0, false
			}
			return textconv.ExactInt(sc.s)
		}
		return textconv.TruncInt(sc.s)
	}
	return 0, false
}

// mdlToFloat is the float conversion.
func mdlToFloat(sc mdlScalar) (float64, bool) {
	switch sc.kind {
	case 'i':
		return float64(sc.i), true
	case 'u':
		return float64(sc.u), true
	case 'f':
		if math.IsNaN(sc.f) || math.IsInf(sc.f, 0) {
			return 0, false
		}
		return sc.f, true
	case 's', 'n':
		return textconv.ParseFloat(sc.s)
	}
	return 0, false
}

// mdlToBool is the bool conversion.
func mdlToBool(sc mdlScalar) (bool, bool) {
	switch sc.kind {
	case 'b':
		return sc.b, true
	case 'i':
		return textconv.IntToBool(sc.i)
	case 'u':
		if sc.u > 1 {
			return false, false
		}
		return sc.u == 1, true
	case 'f':
		return textconv.FloatToBool(sc.f)
	case 's':
		return textconv.ParseBool(sc.s)
	case 'n':
		f, ok := textconv.ParseFloat(sc.s)
		if !ok {
			return false, false
		}
		return textconv.FloatToBool(f)
	}
	return false, false
}

// mdlToTime is the date conversion.
func mdlToTime(sc mdlScalar) (time.Time, bool) {
	var t time.Time
	ok := false
	switch sc.kind {
	case 't':
		t, ok = sc.t.UTC(), true
	case 's':
		t, ok = textconv.ParseTime(sc.s)
	case 'i':
		t, ok = textconv.IntToTime(sc.i), true
	case 'u':
		if sc.u <= math.MaxInt64 {
			t, ok = textconv.IntToTime(int64(sc.u)), true
		}
	case 'f':
		t, ok = textconv.FloatToTime(sc.f)
	case 'n':
		if n, exact := textconv.ExactInt(sc.s); exact {
			t, ok = textconv.IntToTime(n), true
		} else if f, isF := textconv.ParseFloat(sc.s); isF {
			t, ok = textconv.FloatToTime(f)
		}
	}
	if !ok || !mdlYearOK(t) {
		return time.Time{}, false
	}
	return t.UTC(), true
}

// mdlConvertScalar converts a scalar input to a value of a scalar type.
// ok is false when it does not convert (null when lenient; a type error
// when strict).
func mdlConvertScalar(typ rules.Kind, v any, strict bool) (rules.Value, bool) {
	sc := mdlScalarOf(v)
	switch typ {
	case rules.String:
		s, ok := mdlToString(sc, strict)
		return rules.StringValue(s), ok
	case rules.Int:
		n, ok := mdlToInt(sc, strict)
		return rules.IntValue(n), ok
	case rules.Float:
		f, ok := mdlToFloat(sc)
		return rules.FloatValue(f), ok
	case rules.Bool:
		b, ok := mdlToBool(sc)
		return rules.BoolValue(b), ok
	case rules.Time:
		t, ok := mdlToTime(sc)
		return rules.TimeValue(t), ok
	}
	return rules.Value{}, false
}

// mdlLen is the count a rule sees of a list or an object: elements, or
// distinct keys.
func mdlLen(v any) int {
	if j, ok := v.(*mdlJSON); ok {
		if j.kind == mdlJObj {
			return len(j.keys)
		}
		return len(j.arr)
	}
	if o, ok := v.(*entity.Object); ok {
		return o.Len()
	}
	return reflect.ValueOf(v).Len()
}

// mdlNoneValue is the value a check of a none field sees: the kind of what
// the input holds.
func mdlNoneValue(v any) rules.Value {
	if b, ok := v.([]byte); ok {
		// a none field writes []byte as encoding/json does, base64, and its
		// checks judge what it writes
		return rules.StringValue(base64.StdEncoding.EncodeToString(b))
	}
	if t, ok := v.(time.Time); ok {
		return rules.TimeValue(t)
	}
	if n, ok := v.(json.Number); ok {
		if f, ok := textconv.ParseFloat(string(n)); ok {
			return rules.FloatValue(f)
		}
		return rules.Value{Kind: rules.Any, Any: v}
	}
	if j, ok := v.(*mdlJSON); ok {
		switch j.kind {
		case mdlJStr:
			return rules.StringValue(j.s)
		case mdlJNum:
			return rules.FloatValue(j.f)
		case mdlJBool:
			return rules.BoolValue(j.b)
		case mdlJArr:
			return rules.Value{Kind: rules.List, Len: len(j.arr), Any: j.goValue()}
		case mdlJObj:
			return rules.Value{Kind: rules.Object, Len: len(j.keys), Any: j.goValue()}
		}
		return rules.Value{}
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String:
		return rules.StringValue(rv.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rules.IntValue(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if rv.Uint() > math.MaxInt64 {
			return rules.FloatValue(float64(rv.Uint()))
		}
		return rules.IntValue(int64(rv.Uint()))
	case reflect.Float32, reflect.Float64:
		return rules.FloatValue(rv.Float())
	case reflect.Bool:
		return rules.BoolValue(rv.Bool())
	case reflect.Slice, reflect.Array:
		return rules.Value{Kind: rules.List, Len: rv.Len(), Any: v}
	case reflect.Map:
		return rules.Value{Kind: rules.Object, Len: rv.Len(), Any: v}
	}
	return rules.Value{Kind: rules.Any, Any: v}
}

// mdlWriteScalar writes a value of a scalar type, with the field's format
// if it has one.
func mdlWriteScalar(typ rules.Kind, v rules.Value, format []string) (mdlRaw, error) {
	if len(format) > 0 {
		switch typ {
		case rules.Time:
			t := v.Time.UTC()
			switch format[0] {
			case "rfc1123":
				return mdlRaw(mdlEncodeString(nil, t.Format("Mon, 02 Jan 2006 15:04:05 GMT"))), nil
			case "unix":
				return mdlRaw(strconv.FormatInt(t.Unix(), 10)), nil
			case "unixms":
				return mdlRaw(strconv.FormatInt(t.UnixMilli(), 10)), nil
			case "date":
				return mdlRaw(mdlEncodeString(nil, t.Format("2006-01-02"))), nil
			default:
				return mdlRaw(mdlEncodeString(nil, t.Format(format[0]))), nil
			}
		case rules.Float:
			if format[0] == "fixed" && len(format) == 2 {
				n, _ := strconv.Atoi(format[1])
				return mdlRaw(strconv.FormatFloat(v.Float, 'f', n, 64)), nil
			}
		}
	}
	switch typ {
	case rules.String:
		return mdlRaw(mdlEncodeString(nil, v.Str)), nil
	case rules.Int:
		return mdlRaw(strconv.FormatInt(v.Int, 10)), nil
	case rules.Float:
		s, _ := mdlFloatText(v.Float, false)
		return mdlRaw(s), nil
	case rules.Bool:
		return mdlRaw(strconv.FormatBool(v.Bool)), nil
	case rules.Time:
		return mdlRaw(mdlEncodeString(nil, v.Time.UTC().Format(time.RFC3339Nano))), nil
	}
	panic("model: not a scalar type")
}

// mdlUnformat reads a value as the field's built-in format writes it, as
// a request reads it and an Object made again is read back (go doc entity,
// Field.Unformat): a date from a layout's text, unix seconds or unixms
// milliseconds. ok is false when the value is not one the format writes:
// it is then converted as any value of the type is. (fixed writes the
// float it holds: its text converts to the same value.)
func mdlUnformat(typ rules.Kind, format []string, raw any) (rules.Value, bool) {
	if typ != rules.Time || len(format) == 0 {
		return rules.Value{}, false
	}
	js, ok := raw.(*mdlJSON)
	if !ok {
		return rules.Value{}, false
	}
	var t time.Time
	var err error
	switch name := format[0]; name {
	case "unix", "unixms":
		if js.kind != mdlJNum {
			return rules.Value{}, false
		}
		n, err := strconv.ParseInt(string(js.raw), 10, 64)
		if err != nil {
			return rules.Value{}, false
		}
		if name == "unix" {
			if n > 1<<40 || n < -(1<<40) {
				return rules.Value{}, false
			}
			t = time.Unix(n, 0)
		} else {
			t = time.UnixMilli(n)
		}
	default:
		if js.kind != mdlJStr {
			return rules.Value{}, false
		}
		layout := name
		switch name {
		case "rfc1123":
			layout = "Mon, 02 Jan 2006 15:04:05 GMT"
		case "date":
			layout = "2006-01-02"
		}
		if t, err = time.ParseInLocation(layout, js.s, time.UTC); err != nil {
			return rules.Value{}, false
		}
	}
	t = t.UTC()
	if !mdlYearOK(t) {
		return rules.Value{}, false
	}
	return rules.TimeValue(t), true
}
