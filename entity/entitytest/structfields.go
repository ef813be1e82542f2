package entitytest

import (
	"reflect"
	"strings"
	"sync"
	"unicode"
)

// The struct fields Make reads: fields are matched by their json tag name,
// else their Go name, with embedded structs flattened and conflicts
// settled as encoding/json settles them. This is entity's own rule (Make
// reads structs so), written again here from its documentation, since
// entity exports no view of it.

// structField is one JSON-visible field of a struct type.
type structField struct {
	typ    reflect.Type
	tagged bool
}

var structFieldsCache sync.Map // reflect.Type → map[string]*structField

// structFields returns the fields of struct type t that encoding/json
// would encode, by name.
func structFields(t reflect.Type) map[string]*structField {
	if f, ok := structFieldsCache.Load(t); ok {
		return f.(map[string]*structField)
	}
	type candidate struct {
		f     *structField
		depth int
	}
	byName := map[string][]candidate{}
	current := []reflect.Type{t}
	visited := map[reflect.Type]bool{} // types whose fields a shallower level already offered
	for depth := 0; len(current) > 0; depth++ {
		var next []reflect.Type
		seen := map[reflect.Type]bool{}
		for _, lt := range current {
			if visited[lt] {
				continue
			}
			seen[lt] = true
			for i := 0; i < lt.NumField(); i++ {
				sf := lt.Field(i)
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
				if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					next = append(next, ft)
					continue
				}
				// Past here an unexported field is an embedded struct a tag
				// names: a field of that name, as encoding/json has it.
				tagged := name != ""
				if !tagged {
					name = sf.Name
				}
				// The same embedded type twice at one depth offers each of
				// its names twice, which makes them ambiguous.
				byName[name] = append(byName[name], candidate{&structField{typ: sf.Type, tagged: tagged}, depth})
			}
		}
		for lt := range seen {
			visited[lt] = true
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
	f, _ := structFieldsCache.LoadOrStore(t, fields)
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
