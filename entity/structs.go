package entity

import (
	"database/sql/driver"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"sync"
	"unicode"
)

// Struct input: fields are matched by their json tag name, else their Go
// name, with embedded structs flattened and conflicts settled as
// encoding/json settles them. What a Go type offers is computed once per
// type (typeFields, cached), and which field each slot of an entity reads
// once per entity and type (structPlan, cached on the entity).

// structField is one JSON-visible field of a struct type.
type structField struct {
	name   string
	index  []int
	tagged bool
	valuer bool // implements driver.Valuer: read through Value()
}

var typeFieldsCache sync.Map // reflect.Type → map[string]*structField

var valuerType = reflect.TypeFor[driver.Valuer]()

// typeFields returns the fields of struct type t that encoding/json would
// encode, by name.
func typeFields(t reflect.Type) map[string]*structField {
	if f, ok := typeFieldsCache.Load(t); ok {
		return f.(map[string]*structField)
	}
	type candidate struct {
		f     *structField
		depth int
	}
	byName := map[string][]candidate{}
	type level struct {
		t     reflect.Type
		index []int
	}
	current := []level{{t: t}}
	visited := map[reflect.Type]bool{} // types whose fields a shallower level already offered
	for depth := 0; len(current) > 0; depth++ {
		var next []level
		seen := map[reflect.Type]bool{}
		for _, lv := range current {
			if visited[lv.t] {
				continue
			}
			seen[lv.t] = true
			for i := 0; i < lv.t.NumField(); i++ {
				sf := lv.t.Field(i)
				ft := sf.Type
				if sf.Anonymous && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if !sf.IsExported() && !(sf.Anonymous && ft.Kind() == reflect.Struct) {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, _, _ := strings.Cut(tag, ",")
				if !isValidTag(name) {
					name = ""
				}
				index := append(append([]int(nil), lv.index...), i)
				if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					next = append(next, level{t: ft, index: index})
					continue
				}
				if !sf.IsExported() {
					continue
				}
				tagged := name != ""
				if !tagged {
					name = sf.Name
				}
				f := &structField{name: name, index: index, tagged: tagged,
					valuer: sf.Type.Implements(valuerType) || reflect.PointerTo(sf.Type).Implements(valuerType)}
				// The same embedded type twice at one depth offers each of its
				// names twice, which makes them ambiguous, as in encoding/json.
				byName[name] = append(byName[name], candidate{f, depth})
			}
		}
		for t := range seen {
			visited[t] = true
		}
		current = next
	}
	fields := make(map[string]*structField, len(byName))
	for name, cs := range byName {
		// The shallowest field wins; among those, a tagged one if it is
		// alone; otherwise the name is ambiguous and dropped.
		best := cs[0].depth
		for _, c := range cs {
			best = min(best, c.depth)
		}
		var top []candidate
		for _, c := range cs {
			if c.depth == best {
				top = append(top, c)
			}
		}
		if len(top) > 1 {
			var tagged []candidate
			for _, c := range top {
				if c.f.tagged {
					tagged = append(tagged, c)
				}
			}
			if len(tagged) != 1 {
				continue
			}
			top = tagged
		}
		fields[name] = top[0].f
	}
	f, _ := typeFieldsCache.LoadOrStore(t, fields)
	return f.(map[string]*structField)
}

// isValidTag reports whether a json tag name is one encoding/json accepts;
// it ignores others and uses the Go name.
func isValidTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// structPlan says which field of one struct type each slot of an input
// table reads (nil for none).
type structPlan struct {
	fields []*structField
}

// structPlan returns the plan for reading struct type t into the slots of
// table in.
func (in *inputTable) structPlan(t reflect.Type) *structPlan {
	if p, ok := in.structPlans.Load(t); ok {
		return p.(*structPlan)
	}
	all := typeFields(t)
	p := &structPlan{fields: make([]*structField, in.nslots)}
	for name, i := range in.slots {
		p.fields[i] = all[name]
	}
	got, _ := in.structPlans.LoadOrStore(t, p)
	return got.(*structPlan)
}

// get reads slot i of the struct rv.
func (p *structPlan) get(rv reflect.Value, i int) raw {
	return readField(rv, p.fields[i])
}

// readField reads field f of the struct rv: absent when f is nil.
func readField(rv reflect.Value, f *structField) raw {
	if f == nil {
		return raw{}
	}
	v := rv
	for j, x := range f.index {
		if j > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return raw{} // a field of a nil embedded struct is absent
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	if f.valuer {
		return valuerRaw(v)
	}
	return rawOfValue(v)
}

// valuerRaw reads a driver.Valuer (sql.NullString…) through its Value.
func valuerRaw(v reflect.Value) (r raw) {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return raw{}
	}
	var vr driver.Valuer
	if x, ok := v.Interface().(driver.Valuer); ok {
		vr = x
	} else if v.CanAddr() {
		vr, _ = v.Addr().Interface().(driver.Valuer)
	} else {
		// A pointer-receiver Value on a struct passed by value: call it on
		// a copy.
		p := reflect.New(v.Type())
		p.Elem().Set(v)
		vr, _ = p.Interface().(driver.Valuer)
	}
	if vr == nil {
		return rawOfValue(v)
	}
	defer func() {
		if p := recover(); p != nil {
			r = raw{kind: rawFail, s: "its Value method panicked"}
		}
	}()
	x, err := vr.Value()
	if err != nil {
		return raw{kind: rawFail, s: "its Value method failed"}
	}
	return raw{a: x}
}

// rawOfValue reads a struct field without boxing it when its kind allows.
func rawOfValue(v reflect.Value) raw {
	switch v.Kind() {
	case reflect.String:
		if v.Type() == jsonNumberType {
			return raw{a: v.Interface()}
		}
		return raw{kind: rawStr, s: v.String()}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return raw{kind: rawInt, n: v.Int()}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if u := v.Uint(); u <= math.MaxInt64 {
			return raw{kind: rawInt, n: int64(u)}
		}
		return raw{a: v.Uint()}
	case reflect.Float32:
		return raw{kind: rawFloat, f: float32To64(float32(v.Float()))}
	case reflect.Float64:
		return raw{kind: rawFloat, f: v.Float()}
	case reflect.Bool:
		return raw{a: v.Bool()}
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return raw{}
		}
		if v.Kind() == reflect.Pointer && v.Elem().Kind() != reflect.Struct {
			return rawOfValue(v.Elem())
		}
		return raw{a: v.Interface()}
	case reflect.Slice:
		if v.IsNil() {
			if v.Type().Elem().Kind() == reflect.Uint8 {
				return raw{} // []byte, json.RawMessage: text, and nil is null
			}
			return raw{a: nilList}
		}
	case reflect.Map:
		if v.IsNil() {
			if v.Type().Key().Kind() == reflect.String {
				return raw{a: nilObject}
			}
			return raw{}
		}
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		if v.IsNil() {
			return raw{}
		}
	}
	if !v.CanInterface() {
		return raw{}
	}
	return raw{a: v.Interface()}
}

var jsonNumberType = reflect.TypeFor[json.Number]()

// nilList stands for a nil slice read from a struct field, as a map value
// holding one reads: null to every value field (isNull), an empty list to a
// reference (listOf), as a nil slice is at the top level of a call. Boxed
// once, so that reading it allocates nothing.
var nilList any = []any(nil)

// nilObject is nilList for a nil map with string keys: null to every value
// field, an empty input to a reference, as a map value holding one reads.
var nilObject any = map[string]any(nil)
