package entity

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/expose-go/expose/rules"
)

// This file writes JSON exactly as encoding/json.Marshal does: the same
// string escaping (HTML-safe, U+2028/U+2029 escaped, invalid UTF-8 replaced
// with U+FFFD), the same number spelling, map keys sorted. It is the only
// place that writes values; the plan decides which value and where.

const hexDigits = "0123456789abcdef"

// safeASCII[c] is true for the ASCII bytes encoding/json writes as they are
// (with HTML escaping on, as json.Marshal has it).
var safeASCII = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// plainByte[c] is true for the bytes a JSON string holds as they are: the
// ASCII ones that need no escape (HTML-safe, as json.Marshal writes).
var plainByte = func() (t [256]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		t[c] = safeASCII[c]
	}
	return t
}()

// notPlain returns a word with a high bit set in the bytes of x that are
// not plainByte (and perhaps in bytes after the first of them: only whether
// it is zero is exact).
func notPlain(x uint64) uint64 {
	ltgt := (x | lo8*0x02) ^ (lo8 * '>') // '<' is '>' but for bit 1
	amp := x ^ (lo8 * '&')
	return unsafeBytes(x) | x&hi8 | ((ltgt-lo8)&^ltgt|(amp-lo8)&^amp)&hi8
}

// appendString appends s as a quoted JSON string.
func appendString(dst []byte, s string) []byte {
	i := 0
	for i+8 <= len(s) && notPlain(load64(s, i)) == 0 { // eight bytes at a time
		i += 8
	}
	for i < len(s) && plainByte[s[i]] {
		i++
	}
	dst = append(dst, '"')
	if i == len(s) {
		dst = append(dst, s...)
		return append(dst, '"')
	}
	return appendStringSlow(dst, s, i)
}

// appendStringSlow goes on with a string from its first byte that is not
// plain, s[i]; dst already holds the opening quote.
func appendStringSlow(dst []byte, s string, i int) []byte {
	start := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if safeASCII[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendFloat appends f as encoding/json (and JavaScript) spell it: 0.1,
// 1000000, 1e+21, 1e-7. bits is 32 or 64. f must be finite.
func appendFloat(dst []byte, f float64, bits int) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// appendTime appends t as a quoted RFC 3339 string with nanoseconds, as
// time.Time.MarshalJSON does.
func appendTime(dst []byte, t time.Time) []byte {
	dst = append(dst, '"')
	dst = t.AppendFormat(dst, time.RFC3339Nano)
	return append(dst, '"')
}

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
		return appendString(dst, v), nil
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
		return appendFloat(dst, v, 64), nil
	case float32:
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return dst, errUnsupportedValue
		}
		return appendFloat(dst, float64(v), 32), nil
	case json.Number:
		if v == "" {
			return append(dst, '0'), nil
		}
		if !isJSONNumber(string(v)) {
			return dst, errUnsupportedValue
		}
		return append(dst, v...), nil
	case time.Time:
		if y := v.Year(); y < 0 || y > 9999 {
			return dst, errUnsupportedValue
		}
		return appendTime(dst, v), nil
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
	case *Object:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return v.AppendJSON(dst)
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
			dst = appendString(dst, e)
		}
		return append(dst, ']'), nil
	case []*Object:
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
		dst = appendString(dst, k)
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
			dst = appendString(dst, k.String())
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

// isJSONNumber reports whether s is a number in JSON's grammar.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	return i == len(s)
}

// The JSON of each declared kind, both ways: appendValue writes a
// converted value as its field's type writes it, and decodeValue reads
// such JSON back into the rules.Value the field's checks judge (what
// Object.Get returns, and what the test kit checks a payload with). A new
// type adds its case to each.

// appendValue writes a converted value of declared kind k.
func appendValue(dst []byte, k rules.Kind, v rules.Value, depth, end int) ([]byte, error) {
	if k == rules.Any && v.Any != nil {
		return appendAny(dst, v.Any, depth, end)
	}
	switch v.Kind {
	case rules.String:
		return appendString(dst, v.Str), nil
	case rules.Int:
		return strconv.AppendInt(dst, v.Int, 10), nil
	case rules.Float:
		if math.IsNaN(v.Float) || math.IsInf(v.Float, 0) { // conversions never give one: a backstop
			return dst, errUnsupportedValue
		}
		return appendFloat(dst, v.Float, 64), nil
	case rules.Bool:
		return strconv.AppendBool(dst, v.Bool), nil
	case rules.Time:
		return appendTime(dst, v.Time), nil
	case rules.Null:
		return append(dst, "null"...), nil
	}
	return appendAny(dst, v.Any, depth, end)
}

// decodeValue reads text, the JSON of one value (white space around it
// allowed), as a field of declared kind k holds it. It fails when the JSON
// type is not the one k writes; why then says more when it can (": not an
// integer"). A list, an object or a none value is decoded as encoding/json
// decodes it into an any (Value.Any; numbers as float64), with Len its
// count of elements or keys; a none number is also an Int when its text is
// an integer. Strings view text when they hold no escape: clone what is
// kept.
func decodeValue(k rules.Kind, text []byte) (v rules.Value, why string, ok bool) {
	text = bytes.TrimSpace(text)
	if len(text) == 0 {
		return v, "", false
	}
	switch k {
	case rules.String:
		if text[0] == '"' {
			s := unquote(bytesString(text))
			return rules.Value{Kind: rules.String, Str: s}, "", true
		}
	case rules.Int:
		if isNumberStart(text[0]) {
			n, err := strconv.ParseInt(bytesString(text), 10, 64)
			switch {
			case err == nil:
				return rules.Value{Kind: rules.Int, Int: n}, "", true
			case errors.Is(err, strconv.ErrRange):
				return v, ": out of the int64 range", false
			}
			return v, ": not an integer", false
		}
	case rules.Float:
		if isNumberStart(text[0]) {
			if f, err := strconv.ParseFloat(bytesString(text), 64); err == nil {
				return rules.Value{Kind: rules.Float, Float: f}, "", true
			}
			return v, ": out of the float64 range", false
		}
	case rules.Bool:
		switch string(text) {
		case "true":
			return rules.Value{Kind: rules.Bool, Bool: true}, "", true
		case "false":
			return rules.Value{Kind: rules.Bool}, "", true
		}
	case rules.Time:
		if text[0] == '"' {
			t, err := time.Parse(time.RFC3339Nano, unquote(bytesString(text)))
			if err != nil {
				return v, ": not an RFC 3339 date", false
			}
			return rules.Value{Kind: rules.Time, Time: t.UTC()}, "", true
		}
	case rules.List:
		if text[0] == '[' {
			return decodeAnyValue(text), "", true
		}
	case rules.Object:
		if text[0] == '{' {
			return decodeAnyValue(text), "", true
		}
	case rules.Any:
		return decodeAnyValue(text), "", true
	}
	return v, "", false
}

// isNumberStart reports whether c starts a JSON number.
func isNumberStart(c byte) bool { return c == '-' || c >= '0' && c <= '9' }

// decodeAnyValue reads JSON text as its own kind, as a none field holds it.
func decodeAnyValue(text []byte) rules.Value {
	x := decodeAny(text)
	switch x := x.(type) {
	case nil:
		return rules.Value{}
	case string:
		return rules.Value{Kind: rules.String, Str: x, Any: x}
	case float64:
		if n, err := strconv.ParseInt(bytesString(text), 10, 64); err == nil {
			return rules.Value{Kind: rules.Int, Int: n, Any: x}
		}
		return rules.Value{Kind: rules.Float, Float: x, Any: x}
	case bool:
		return rules.Value{Kind: rules.Bool, Bool: x, Any: x}
	case []any:
		return rules.Value{Kind: rules.List, Len: len(x), Any: x}
	case map[string]any:
		return rules.Value{Kind: rules.Object, Len: len(x), Any: x}
	}
	return rules.Value{Kind: rules.Any, Any: x} // a json.RawMessage: 1e400
}

// decodeAny decodes JSON text as encoding/json decodes it into an any. Text
// encoding/json refuses to decode (a number beyond float64, such as 1e400,
// passed through a none field) is returned as a json.RawMessage copy.
func decodeAny(v []byte) any {
	var x any
	if json.Unmarshal(v, &x) != nil {
		return json.RawMessage(bytes.Clone(v))
	}
	return x
}
