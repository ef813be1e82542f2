// Package jsonfields finds the fields of a struct type that encoding/json
// encodes, by name: matched by their json tag name, else their Go name,
// with embedded structs flattened and conflicts settled as encoding/json
// settles them (the shallowest field wins; among those, a tagged one if it
// is alone; otherwise the name is ambiguous and no field has it). It is the
// one statement of that rule: Make reads structs by it, and the test kit
// checks struct types by it.
package jsonfields

import (
	"reflect"
	"strings"
	"sync"
	"unicode"
)

// Field is one JSON-visible field of a struct type.
type Field struct {
	Name   string
	Index  []int        // as reflect.Value.FieldByIndex takes it
	Type   reflect.Type // the field's declared type
	Tagged bool         // its name is its json tag's
}

var cache sync.Map // reflect.Type → map[string]*Field

// Of returns the fields of struct type t that encoding/json would encode,
// by name. It computes them once per type; the map returned is shared and
// must not be changed.
func Of(t reflect.Type) map[string]*Field {
	if f, ok := cache.Load(t); ok {
		return f.(map[string]*Field)
	}
	type candidate struct {
		f     *Field
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
				if !ValidTag(name) {
					name = ""
				}
				index := append(append([]int(nil), lv.index...), i)
				if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					next = append(next, level{t: ft, index: index})
					continue
				}
				// Past here an unexported field is an embedded struct a tag
				// names: a field of that name, as encoding/json has it.
				tagged := name != ""
				if !tagged {
					name = sf.Name
				}
				// The same embedded type twice at one depth offers each of its
				// names twice, which makes them ambiguous, as in encoding/json.
				byName[name] = append(byName[name], candidate{&Field{Name: name, Index: index, Type: sf.Type, Tagged: tagged}, depth})
			}
		}
		for t := range seen {
			visited[t] = true
		}
		current = next
	}
	fields := make(map[string]*Field, len(byName))
	for name, cs := range byName {
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
				if c.f.Tagged {
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
	f, _ := cache.LoadOrStore(t, fields)
	return f.(map[string]*Field)
}

// ValidTag reports whether a json tag name is one encoding/json accepts;
// it ignores others and uses the Go name. (expose gen writes only tags it
// accepts.)
func ValidTag(s string) bool {
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
