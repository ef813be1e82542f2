package entitytest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"

	"github.com/expose-go/expose/entity"
)

// Equal reports whether got and want hold the same JSON value, and reports
// each difference with t.Errorf. Each of got and want may be:
//
//   - JSON text: []byte, json.RawMessage or string, decoded in order;
//   - an *entity.Object (and []*entity.Object), whose keys are in order;
//   - Go values: maps with string keys, slices, numbers, strings, bools,
//     nil, time.Time (as the entity writes a date); anything else is
//     compared as encoding/json writes it.
//
// Numbers compare by value (12, 12.0 and int64(12) are equal). Key order
// counts where both sides have one (JSON text, Objects) and is ignored where
// either is a Go map. Each difference is reported on a line of its own with
// its path (as Conform writes paths), followed by go-cmp's diff:
//
//	list[0].name: got "saito", want "sato"
//	(-want +got):
//	  …
//
// Equal knows no entity, so it cannot tell a secret field: it prints the
// values that differ as they are. Compare payloads that hold secrets with
// Conform, or leave the secrets out of what Equal is given.
func Equal(t testing.TB, got, want any) bool {
	t.Helper()
	lines, diff, err := equal(got, want)
	if err != nil {
		t.Errorf("%v", err)
		return false
	}
	if len(lines) == 0 {
		return true
	}
	t.Errorf("%s\n(-want +got):\n%s", strings.Join(lines, "\n"), diff)
	return false
}

// equal compares got and want, returning one line per difference and
// go-cmp's diff.
func equal(got, want any) (lines []string, diff string, err error) {
	g, err := decode(got)
	if err != nil {
		return nil, "", fmt.Errorf("got: %w", err)
	}
	w, err := decode(want)
	if err != nil {
		return nil, "", fmt.Errorf("want: %w", err)
	}
	alignOrder(w, g)
	r := &pathReporter{}
	if cmp.Equal(w, g, cmp.Reporter(r)) {
		return nil, "", nil
	}
	return r.lines, cmp.Diff(w, g), nil
}

// object is a decoded JSON object. Keys holds the keys in order, or is nil
// when the order is unknown (a Go map) or does not count.
type object struct {
	Keys   []string
	Fields map[string]any
}

// decode turns a value given to Equal into the tree that it compares: nil,
// string, bool, int64, float64, []any and *object.
func decode(v any) (any, error) {
	switch v := v.(type) {
	case []byte:
		return decodeJSON(v)
	case json.RawMessage:
		return decodeJSON(v)
	case string:
		return decodeJSON([]byte(v))
	}
	return fromGo(v, 0)
}

// decodeJSON decodes JSON text in order.
func decodeJSON(b []byte) (any, error) {
	if !gjson.ValidBytes(b) {
		return nil, errors.New("invalid JSON: " + syntaxError(b, false))
	}
	return fromJSON(gjson.ParseBytes(b)), nil
}

// fromJSON is the ordered decoder: it keeps each object's keys in order (a
// repeated key keeps its first place and its last value, as encoding/json
// decodes it).
func fromJSON(v gjson.Result) any {
	switch v.Type {
	case gjson.String:
		return v.Str
	case gjson.Number:
		return number(v.Raw)
	case gjson.True:
		return true
	case gjson.False:
		return false
	case gjson.JSON:
		if v.IsArray() {
			l := []any{}
			v.ForEach(func(_, el gjson.Result) bool {
				l = append(l, fromJSON(el))
				return true
			})
			return l
		}
		o := &object{Keys: []string{}, Fields: map[string]any{}}
		v.ForEach(func(k, el gjson.Result) bool {
			if _, dup := o.Fields[k.Str]; !dup {
				o.Keys = append(o.Keys, k.Str)
			}
			o.Fields[k.Str] = fromJSON(el)
			return true
		})
		return o
	}
	return nil
}

// number returns a JSON number as an int64 when it is a whole number that
// an int64 holds exactly, else as a float64.
func number(raw string) any {
	if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
		return n
	}
	f, _ := strconv.ParseFloat(raw, 64)
	return floatNumber(f)
}

func floatNumber(f float64) any {
	if f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
		return int64(f)
	}
	return f
}

// maxGoDepth bounds the nesting of Go values, against cycles.
const maxGoDepth = 1000

var (
	objectType = reflect.TypeFor[*entity.Object]()
	marshaler  = reflect.TypeFor[json.Marshaler]()
)

// fromGo turns a Go value into the compared tree.
func fromGo(v any, depth int) (any, error) {
	if depth > maxGoDepth {
		return nil, errors.New("value nested too deep (a cycle?)")
	}
	switch v := v.(type) {
	case nil:
		return nil, nil
	case *entity.Object:
		if v == nil {
			return nil, nil
		}
		o := &object{Keys: v.Keys(), Fields: make(map[string]any, v.Len())}
		for _, k := range o.Keys {
			x, _ := v.Get(k)
			y, err := fromGo(x, depth+1)
			if err != nil {
				return nil, err
			}
			o.Fields[k] = y
		}
		return o, nil
	case string:
		return v, nil
	case bool:
		return v, nil
	case time.Time:
		return v.UTC().Format(time.RFC3339Nano), nil
	case json.Number:
		if _, err := strconv.ParseFloat(string(v), 64); err != nil {
			return nil, fmt.Errorf("json.Number %q is not a number", string(v))
		}
		return number(string(v)), nil
	case json.RawMessage:
		return decodeJSON(v)
	}
	rv := reflect.ValueOf(v)
	if rv.Type().Implements(marshaler) && rv.Type() != objectType {
		if rv.Kind() == reflect.Pointer && rv.IsNil() {
			return nil, nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		return decodeJSON(b)
	}
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if u := rv.Uint(); u <= math.MaxInt64 {
			return int64(u), nil
		}
		return float64(rv.Uint()), nil
	case reflect.Float32:
		return number(strconv.FormatFloat(rv.Float(), 'g', -1, 32)), nil
	case reflect.Float64:
		return floatNumber(rv.Float()), nil
	case reflect.String:
		return rv.String(), nil
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil, nil
		}
		return fromGo(rv.Elem().Interface(), depth+1)
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			break
		}
		if rv.IsNil() {
			return nil, nil
		}
		o := &object{Fields: make(map[string]any, rv.Len())}
		for it := rv.MapRange(); it.Next(); {
			y, err := fromGo(it.Value().Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			o.Fields[it.Key().String()] = y
		}
		return o, nil
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return nil, nil // encoding/json writes null
		}
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			break // base64 text, as encoding/json writes it
		}
		l := make([]any, rv.Len())
		for i := range l {
			y, err := fromGo(rv.Index(i).Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			l[i] = y
		}
		return l, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeJSON(b)
}

// alignOrder drops the key order of objects whose counterpart has none,
// so that only orders both sides have are compared.
func alignOrder(a, b any) {
	switch a := a.(type) {
	case *object:
		b, ok := b.(*object)
		if !ok {
			return
		}
		if a.Keys == nil || b.Keys == nil {
			a.Keys, b.Keys = nil, nil
		}
		for k, x := range a.Fields {
			if y, ok := b.Fields[k]; ok {
				alignOrder(x, y)
			}
		}
	case []any:
		b, ok := b.([]any)
		if !ok {
			return
		}
		for i := 0; i < len(a) && i < len(b); i++ {
			alignOrder(a[i], b[i])
		}
	}
}

// pathReporter collects a line for each difference go-cmp finds, comparing
// want (x) with got (y).
type pathReporter struct {
	steps cmp.Path
	lines []string
	order map[string]bool // objects whose key order was reported
}

// PushStep implements go-cmp's reporter interface: it enters a step.
func (r *pathReporter) PushStep(s cmp.PathStep) { r.steps = append(r.steps, s) }

// PopStep implements go-cmp's reporter interface: it leaves a step.
func (r *pathReporter) PopStep() { r.steps = r.steps[:len(r.steps)-1] }

// Report implements go-cmp's reporter interface: it records the path of
// each difference.
func (r *pathReporter) Report(res cmp.Result) {
	if res.Equal() {
		return
	}
	var p path
	for _, s := range r.steps {
		switch s := s.(type) {
		case cmp.MapIndex:
			p = p.key(s.Key().String())
		case cmp.SliceIndex:
			x, y := s.SplitKeys()
			if y < 0 {
				y = x
			}
			p = p.index(y)
		case cmp.StructField:
			if s.Name() == "Keys" {
				r.reportOrder(p, s)
				return
			}
		}
	}
	wx, gy := r.steps.Last().Values()
	switch {
	case !wx.IsValid():
		r.lines = append(r.lines, p.String()+": unexpected, got "+encode(gy.Interface()))
	case !gy.IsValid():
		r.lines = append(r.lines, p.String()+": missing, want "+encode(wx.Interface()))
	default:
		r.lines = append(r.lines, p.String()+": got "+encode(gy.Interface())+", want "+encode(wx.Interface()))
	}
}

// reportOrder reports, once per object, keys that both sides hold in a
// different order.
func (r *pathReporter) reportOrder(p path, s cmp.StructField) {
	if r.order == nil {
		r.order = make(map[string]bool)
	}
	if r.order[p.String()] {
		return
	}
	r.order[p.String()] = true
	wx, gy := s.Values()
	w, _ := wx.Interface().([]string)
	g, _ := gy.Interface().([]string)
	if sameSet(w, g) {
		r.lines = append(r.lines, p.String()+": keys out of order: got ["+strings.Join(g, " ")+"], want ["+strings.Join(w, " ")+"]")
	}
	// Otherwise the keys differ, and each missing or unexpected key is
	// reported where go-cmp compares the fields.
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = append([]string(nil), a...), append([]string(nil), b...)
	sort.Strings(a)
	sort.Strings(b)
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}

// encode writes a compared tree back as JSON, keys in order.
func encode(v any) string {
	var b strings.Builder
	writeJSON(&b, v)
	return clip(b.String(), maxShown)
}

func writeJSON(b *strings.Builder, v any) {
	switch v := v.(type) {
	case *object:
		keys := v.Keys
		if keys == nil {
			keys = make([]string, 0, len(v.Fields))
			for k := range v.Fields {
				keys = append(keys, k)
			}
			sort.Strings(keys)
		}
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(gjson.AppendJSONString(nil, k))
			b.WriteByte(':')
			writeJSON(b, v.Fields[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, x)
		}
		b.WriteByte(']')
	case string:
		b.Write(gjson.AppendJSONString(nil, v))
	default:
		j, err := json.Marshal(v)
		if err != nil {
			fmt.Fprintf(b, "%v", v)
			return
		}
		b.Write(j)
	}
}
