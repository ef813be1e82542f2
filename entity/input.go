package entity

import (
	"encoding/json"
	"reflect"
	"time"
	"unsafe"

	"github.com/expose-go/expose/rules"
)

// raw is one input value as read from a source, before conversion. A
// map[string]string holds plain strings: they are carried in s so that
// reading them never boxes them into an interface (which would allocate).
type raw struct {
	a     any
	s     string
	isStr bool
}

// isNull reports whether the value is absent or JSON null.
func (r raw) isNull() bool { return !r.isStr && r.a == nil }

// source is an object an entity reads its fields from.
type source struct {
	ma  map[string]any
	ms  map[string]string
	obj *Object
	rv  reflect.Value // any other map with string keys
}

// get returns the value stored under key.
func (s *source) get(key string) (raw, bool) {
	switch {
	case s.ma != nil:
		v, ok := s.ma[key]
		return raw{a: v}, ok
	case s.ms != nil:
		v, ok := s.ms[key]
		if !ok {
			return raw{}, false
		}
		return raw{s: v, isStr: true}, true
	case s.obj != nil:
		v, ok := s.obj.Get(key)
		return raw{a: v}, ok
	case s.rv.IsValid():
		v := s.rv.MapIndex(reflect.ValueOf(key).Convert(s.rv.Type().Key()))
		if !v.IsValid() {
			return raw{}, false
		}
		return raw{a: v.Interface()}, true
	}
	return raw{}, false
}

// sourceOf returns v as a source when it is an object: a map with string
// keys or an *Object. A nil map is an empty object.
func sourceOf(v any) (source, bool) {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return source{}, true
		}
		return source{ma: v}, true
	case map[string]string:
		if v == nil {
			return source{}, true
		}
		return source{ms: v}, true
	case *Object:
		if v == nil {
			return source{}, false
		}
		return source{obj: v}, true
	case nil, string, []any, bool, int, int64, float64, json.Number, time.Time, []byte:
		return source{}, false
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Map && rv.Type().Key().Kind() == reflect.String {
		if rv.IsNil() {
			return source{}, true
		}
		return source{rv: rv}, true
	}
	return source{}, false
}

// elems is a list read element by element.
type elems struct {
	la  []any
	lm  []map[string]any
	ls  []map[string]string
	lo  []*Object
	rv  reflect.Value
	len int
}

// at returns element i as a value.
func (l *elems) at(i int) any {
	switch {
	case l.la != nil:
		return l.la[i]
	case l.lm != nil:
		return l.lm[i]
	case l.ls != nil:
		return l.ls[i]
	case l.lo != nil:
		return l.lo[i]
	}
	return l.rv.Index(i).Interface()
}

// listOf returns v as a list when it is a slice or an array (byte slices,
// which are text, excepted).
func listOf(v any) (elems, bool) {
	switch v := v.(type) {
	case []any:
		return elems{la: v, len: len(v)}, true
	case []map[string]any:
		return elems{lm: v, len: len(v)}, true
	case []map[string]string:
		return elems{ls: v, len: len(v)}, true
	case []*Object:
		return elems{lo: v, len: len(v)}, true
	case nil, string, []byte, json.RawMessage, map[string]any, map[string]string, *Object, bool, int, int64, float64, json.Number, time.Time:
		return elems{}, false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return elems{}, false
		}
		return elems{rv: rv, len: rv.Len()}, true
	case reflect.Array:
		return elems{rv: rv, len: rv.Len()}, true
	}
	return elems{}, false
}

// bytesString views b as a string without copying. The result must not
// outlive the call that reads it (checks and writers only); values kept in
// an Object are copied.
func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// inputValue describes an input value as its own kind, before any
// conversion: what Input-stage checks and `none` fields see.
func inputValue(r raw) rules.Value {
	if r.isStr {
		return rules.Value{Kind: rules.String, Str: r.s}
	}
	switch v := r.a.(type) {
	case nil:
		return rules.Value{}
	case string:
		return rules.Value{Kind: rules.String, Str: v, Any: r.a}
	case []byte:
		return rules.Value{Kind: rules.String, Str: bytesString(v), Any: r.a}
	case bool:
		return rules.Value{Kind: rules.Bool, Bool: v, Any: r.a}
	case time.Time:
		return rules.Value{Kind: rules.Time, Time: v, Any: r.a}
	case json.Number:
		if n, ok := rules.ParseInt(string(v)); ok && isIntegerText(string(v)) {
			return rules.Value{Kind: rules.Int, Int: n, Any: r.a}
		}
		if f, ok := rules.ParseFloat(string(v)); ok {
			return rules.Value{Kind: rules.Float, Float: f, Any: r.a}
		}
		return rules.Value{Kind: rules.Any, Any: r.a}
	}
	if n, ok := intOf(r.a); ok {
		return rules.Value{Kind: rules.Int, Int: n, Any: r.a}
	}
	if f, ok := floatOf(r.a); ok {
		return rules.Value{Kind: rules.Float, Float: f, Any: r.a}
	}
	if l, ok := listOf(r.a); ok {
		return rules.Value{Kind: rules.List, Len: l.len, Any: r.a}
	}
	if o, ok := objectLen(r.a); ok {
		return rules.Value{Kind: rules.Object, Len: o, Any: r.a}
	}
	if u, ok := underlying(r.a); ok {
		v := inputValue(raw{a: u})
		v.Any = r.a
		return v
	}
	return rules.Value{Kind: rules.Any, Any: r.a}
}

// isIntegerText reports whether s is -?digits, with no fraction.
func isIntegerText(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// intOf returns a Go integer of any size as an int64. A uint64 above
// MaxInt64 is not one.
func intOf(v any) (int64, bool) {
	switch v := v.(type) {
	case int:
		return int64(v), true
	case int64:
		return v, true
	case int32:
		return int64(v), true
	case int16:
		return int64(v), true
	case int8:
		return int64(v), true
	case uint:
		if uint64(v) > 1<<63-1 {
			return 0, false
		}
		return int64(v), true
	case uint64:
		if v > 1<<63-1 {
			return 0, false
		}
		return int64(v), true
	case uint32:
		return int64(v), true
	case uint16:
		return int64(v), true
	case uint8:
		return int64(v), true
	}
	return 0, false
}

// floatOf returns a Go float as a float64; a uint64 too large for int64 is
// one too. A float32 keeps its shortest decimal spelling (0.1, not
// 0.10000000149011612).
func floatOf(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case float32:
		return float32To64(v), true
	case uint64:
		return float64(v), true
	case uint:
		return float64(v), true
	}
	return 0, false
}

func float32To64(f float32) float64 {
	var buf [32]byte
	b := appendFloat(buf[:0], float64(f), 32)
	if g, ok := rules.ParseFloat(bytesString(b)); ok {
		return g
	}
	return float64(f)
}

// objectLen returns the size of v when it is an object.
func objectLen(v any) (int, bool) {
	switch v := v.(type) {
	case map[string]any:
		return len(v), true
	case map[string]string:
		return len(v), true
	case *Object:
		if v == nil {
			return 0, false
		}
		return v.Len(), true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Map && rv.Type().Key().Kind() == reflect.String {
		return rv.Len(), true
	}
	return 0, false
}
