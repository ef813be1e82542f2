package engine

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/rules"
)

// This file writes values exactly as encoding/json.Marshal does: the same
// string escaping and number spelling (package jsonwire's: HTML-safe,
// U+2028/U+2029 escaped, invalid UTF-8 replaced with U+FFFD), map keys
// sorted. It is the only place that writes values; the plan decides which
// value and where.

// appendAny appends v with encoding/json's rules. depth counts the levels of
// nesting left; a value nested deeper fails with ErrDepth, which also ends
// cyclic values. A container that starts past end (the run's output limit)
// fails with errTooLarge, which ends values that share their nodes (a DAG
// of lists doubling at every level).
func appendAny(dst []byte, v any, depth, end int) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return jsonwire.AppendString(dst, v), nil
	case bool:
		return strconv.AppendBool(dst, v), nil
	case int:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int8:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int16:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int32:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(dst, v, 10), nil
	case uint:
		return strconv.AppendUint(dst, uint64(v), 10), nil
	case uint8:
		return strconv.AppendUint(dst, uint64(v), 10), nil
	case uint16:
		return strconv.AppendUint(dst, uint64(v), 10), nil
	case uint32:
		return strconv.AppendUint(dst, uint64(v), 10), nil
	case uint64:
		return strconv.AppendUint(dst, v, 10), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return dst, errUnsupportedValue
		}
		return jsonwire.AppendFloat(dst, v, 64), nil
	case float32:
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return dst, errUnsupportedValue
		}
		return jsonwire.AppendFloat(dst, float64(v), 32), nil
	case json.Number:
		if v == "" {
			return append(dst, '0'), nil
		}
		if !jsonwire.IsNumber(string(v)) {
			return dst, errUnsupportedValue
		}
		return append(dst, v...), nil
	case time.Time:
		if y := v.Year(); y < 0 || y > 9999 {
			return dst, errUnsupportedValue
		}
		return jsonwire.AppendTime(dst, v), nil
	case []byte:
		if v == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, v)
		return append(dst, '"'), nil
	case json.RawMessage:
		if v == nil {
			return append(dst, "null"...), nil
		}
		if !json.Valid(v) {
			return dst, errUnsupportedValue
		}
		return appendCompact(dst, bytesString(v), depth)
	case holder, *Made, Sub: // an Object, or a part of one: as a response writes it
		m := madeIn(v)
		if m == nil {
			return append(dst, "null"...), nil
		}
		return append(dst, m.responseText()...), nil
	}
	if depth <= 0 {
		return dst, ErrDepth
	}
	if len(dst) > end {
		return dst, errTooLarge
	}
	if len(dst) >= growFrom && cap(dst)-len(dst) < growMargin {
		dst = growOutput(dst, end)
	}
	switch v := v.(type) {
	case []any:
		if v == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		for i, e := range v {
			if len(dst) > end {
				return dst, errTooLarge
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendAny(dst, e, depth-1, end); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case []string:
		if v == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		for i, e := range v {
			if len(dst) > end {
				return dst, errTooLarge
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonwire.AppendString(dst, e)
		}
		return append(dst, ']'), nil
	case Subs: // the objects of a list an Object holds, as a response writes them
		if v.data == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		var err error
		v.Each(func(i int, e Sub) {
			switch {
			case err != nil:
			case len(dst) > end:
				err = errTooLarge
			default:
				if i > 0 {
					dst = append(dst, ',')
				}
				dst, err = appendAny(dst, e, depth-1, end)
			}
		})
		if err != nil {
			return dst, err
		}
		return append(dst, ']'), nil
	case map[string]any:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return appendSortedMap(dst, v, depth, end)
	case map[string]string:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return appendSortedMap(dst, v, depth, end)
	case json.Marshaler, interface{ MarshalText() ([]byte, error) }:
		return appendMarshal(dst, v, depth, end)
	}
	return appendReflect(dst, v, depth, end)
}

// appendSortedMap writes a map with its keys sorted, as encoding/json does.
func appendSortedMap[V any](dst []byte, m map[string]V, depth, end int) ([]byte, error) {
	var arr [16]string
	keys := arr[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if len(dst) > end {
			return dst, errTooLarge
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonwire.AppendString(dst, k)
		dst = append(dst, ':')
		var err error
		if dst, err = appendAny(dst, any(m[k]), depth-1, end); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// appendReflect writes slices, arrays and maps of other types element by
// element (so depth still bounds them), and hands anything else to
// encoding/json.
func appendReflect(dst []byte, v any, depth, end int) ([]byte, error) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice:
		if rv.IsNil() {
			return append(dst, "null"...), nil
		}
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return appendMarshal(dst, v, depth, end) // base64, as encoding/json writes byte slices
		}
		fallthrough
	case reflect.Array:
		dst = append(dst, '[')
		for i := 0; i < rv.Len(); i++ {
			if len(dst) > end {
				return dst, errTooLarge
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendAny(dst, rv.Index(i).Interface(), depth-1, end); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String || rv.Type().Key().Implements(textMarshalerType) {
			return appendMarshal(dst, v, depth, end)
		}
		if rv.IsNil() {
			return append(dst, "null"...), nil
		}
		keys := rv.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			switch {
			case a.String() < b.String():
				return -1
			case a.String() > b.String():
				return 1
			}
			return 0
		})
		dst = append(dst, '{')
		for i, k := range keys {
			if len(dst) > end {
				return dst, errTooLarge
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonwire.AppendString(dst, k.String())
			dst = append(dst, ':')
			var err error
			if dst, err = appendAny(dst, rv.MapIndex(k).Interface(), depth-1, end); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return append(dst, "null"...), nil
		}
		if _, ok := v.(json.Marshaler); ok {
			return appendMarshal(dst, v, depth, end)
		}
		return appendAny(dst, rv.Elem().Interface(), depth-1, end)
	case reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
		return dst, errUnsupportedValue
	}
	return appendMarshal(dst, v, depth, end)
}

var textMarshalerType = reflect.TypeFor[interface{ MarshalText() ([]byte, error) }]()

var jsonMarshalerType = reflect.TypeFor[json.Marshaler]()

// appendMarshal hands v to encoding/json: types with their own marshalling,
// structs, and the rare kinds above.
func appendMarshal(dst []byte, v any, depth, end int) (out []byte, err error) {
	defer func() {
		// A MarshalJSON method is user code: its panic is this value's error.
		if p := recover(); p != nil {
			out, err = dst, errUnsupportedValue
		}
	}()
	budget := end - len(dst)
	if err := marshalBound(reflect.ValueOf(v), depth, &budget); err != nil {
		return dst, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return dst, errUnsupportedValue
	}
	if len(dst)+len(b) > end {
		return dst, errTooLarge
	}
	return append(dst, b...), nil
}

// marshalBound walks v as encoding/json will marshal it, before it does,
// so that the limits bound what encoding/json writes for us (structs, maps
// with other keys than strings) as they bound the rest: it fails with
// ErrDepth when v nests deeper than depth (which also ends pointer cycles)
// and with errTooLarge when v holds more than budget values, since each
// writes at least one byte. Without it a struct whose pointers share
// nodes (a DAG) would make encoding/json write 2^depth values. A value
// that marshals itself (json.Marshaler, encoding.TextMarshaler) counts as
// one: its output is measured after.
func marshalBound(rv reflect.Value, depth int, budget *int) error {
	if *budget--; *budget < 0 {
		return errTooLarge
	}
	if depth <= 0 {
		return ErrDepth
	}
	if !rv.IsValid() {
		return nil
	}
	t := rv.Type()
	if t.Implements(jsonMarshalerType) || t.Implements(textMarshalerType) {
		return nil
	}
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil
		}
		return marshalBound(rv.Elem(), depth-1, budget)
	case reflect.Struct:
		for i := range rv.NumField() {
			f := t.Field(i)
			if !f.IsExported() && !f.Anonymous || f.Tag.Get("json") == "-" {
				continue // encoding/json writes neither
			}
			if err := marshalBound(rv.Field(i), depth-1, budget); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil // base64 text, as long as the bytes are
		}
		for i := range rv.Len() {
			if err := marshalBound(rv.Index(i), depth-1, budget); err != nil {
				return err
			}
		}
	case reflect.Map:
		for it := rv.MapRange(); it.Next(); {
			if err := marshalBound(it.Value(), depth-1, budget); err != nil {
				return err
			}
		}
	}
	return nil
}

// appendCompact appends valid JSON text without its insignificant white
// space, as json.Marshal writes a json.RawMessage (jsonwire.AppendCompact):
// text nested deeper than depth fails with ErrDepth.
func appendCompact(dst []byte, text string, depth int) ([]byte, error) {
	dst, err := jsonwire.AppendCompact(dst, text, depth)
	if err != nil { // jsonwire.ErrDepth, its one error
		return dst, ErrDepth
	}
	return dst, nil
}

// The JSON of each declared kind, both ways: appendValue writes a
// converted value as its field's type writes it, and decodeValue
// (decode.go) reads such JSON back into the rules.Value the field's checks
// judge (what Object.Get returns, and what the test kit checks a payload
// with). A new type adds its case to each.

// appendValue writes a converted value of declared kind k.
func appendValue(dst []byte, k rules.Kind, v rules.Value, depth, end int) ([]byte, error) {
	if k == rules.Any && v.Any != nil {
		return appendAny(dst, v.Any, depth, end)
	}
	switch v.Kind {
	case rules.String:
		return jsonwire.AppendString(dst, v.Str), nil
	case rules.Int:
		return strconv.AppendInt(dst, v.Int, 10), nil
	case rules.Float:
		if math.IsNaN(v.Float) || math.IsInf(v.Float, 0) { // conversions never give one: a backstop
			return dst, errUnsupportedValue
		}
		return jsonwire.AppendFloat(dst, v.Float, 64), nil
	case rules.Bool:
		return strconv.AppendBool(dst, v.Bool), nil
	case rules.Time:
		return jsonwire.AppendTime(dst, v.Time), nil
	case rules.Null:
		return append(dst, "null"...), nil
	}
	return appendAny(dst, v.Any, depth, end)
}
