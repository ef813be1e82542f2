package entity

import (
	"errors"
	"reflect"
	"strconv"
	"strings"

	"github.com/expose-go/expose/dsl"
)

// CheckType reports whether Make, given a value of the struct type t (or a
// pointer to one), finds a field for every declared field: a struct field
// is matched by its json tag, else its Go name, to the field's input name,
// with embedded structs flattened, exactly as Make reads structs. A field
// the type cannot supply is read as absent, so that Make writes null or the
// default for it without a word; CheckType, run in a test, says so.
//
// The fields of a group are read from the same struct as their siblings.
// A reference is read from the struct field of its name; when that field
// is a struct, or a slice or array of structs (through pointers), its type
// is checked against the referenced entity the same way (each pair of
// entity and type once, so recursive types end). A reference held in a
// map, an interface, raw JSON or an *Object is not checked: its keys are
// known only at run time; nor one to an entity not declared yet
// (Registry.Check reports those).
//
// The error lists every declared key the type cannot supply, by input
// name, those of references as paths from t ("posts[].title"):
//
//	entity "user": type main.User has no field for "id", "user_name"
//
// A t that is not a struct, nor a pointer to one, is an error too.
func (e *Entity) CheckType(t reflect.Type) error {
	if e == nil {
		return errNilEntity
	}
	prefix := "entity " + strconv.Quote(e.name) + ": "
	if t == nil {
		return errors.New(prefix + "CheckType: the type is nil")
	}
	st := t
	for st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if !readsFields(st) {
		return errors.New(prefix + "type " + t.String() + " is not a struct, nor a pointer to one: Make does not read it by field")
	}
	c := typeCheck{seen: map[typePair]bool{}}
	c.entity(e, st, nil)
	if len(c.missing) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString(prefix)
	b.WriteString("type ")
	b.WriteString(st.String())
	b.WriteString(" has no field for ")
	for i, m := range c.missing {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(m))
	}
	return errors.New(b.String())
}

// readsFields reports whether Make reads a value of struct type t field by
// field: a time.Time is a value, and an Object is read by its keys.
func readsFields(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t != timeType && t != objectType
}

var objectType = reflect.TypeFor[Object]()

// typeCheck collects the declared keys a struct type cannot supply.
type typeCheck struct {
	seen    map[typePair]bool
	missing []string // paths, in declaration order
}

// typePair is an entity checked against a type.
type typePair struct {
	e *Entity
	t reflect.Type
}

// entity checks the struct type t against e; path is where t is read,
// from the type CheckType was given (nil at its top).
func (c *typeCheck) entity(e *Entity, t reflect.Type, path []byte) {
	if c.seen[typePair{e, t}] {
		return
	}
	c.seen[typePair{e, t}] = true
	// The struct plan Make reads t with: which struct field, if any, each
	// input name of e reads.
	plan := e.views[dirResponse].in.structPlan(t)
	done := make([]bool, e.views[dirResponse].in.nslots) // an input name two fields read is reported once
	c.object(e.views[dirResponse], t, plan, done, path)
}

// object checks the fields of p, a plan of e, read from struct type t.
func (c *typeCheck) object(p *objectPlan, t reflect.Type, plan *structPlan, done []bool, path []byte) {
	for _, n := range p.nodes {
		if n.kind == dsl.FieldGroup {
			c.object(n.group, t, plan, done, path) // read from the same struct
			continue
		}
		if done[n.slot] {
			continue
		}
		done[n.slot] = true
		at := appendPath(path, n.in)
		f := plan.fields[n.slot]
		if f == nil {
			c.missing = append(c.missing, string(at))
			continue
		}
		if n.kind != dsl.FieldRef {
			continue
		}
		ref := n.ref.e.Load()
		if ref == nil {
			continue // not declared: Registry.Check's to report
		}
		ft := derefType(t.FieldByIndex(f.index).Type)
		if k := ft.Kind(); (k == reflect.Slice || k == reflect.Array) && ft.Elem().Kind() != reflect.Uint8 {
			ft = derefType(ft.Elem())
			at = append(at, "[]"...)
		}
		if readsFields(ft) {
			c.entity(ref, ft, at)
		}
	}
}

// appendPath appends the step into key to path, as FieldError's Path
// writes it.
func appendPath(path []byte, key string) []byte {
	at := path[:len(path):len(path)] // siblings must not share the tail
	if len(path) == 0 {
		return AppendPathFirstKey(at, key)
	}
	return AppendPathKey(at, key)
}

// derefType returns the type a chain of pointers ends at.
func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}
