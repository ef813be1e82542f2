package entity

import (
	"encoding/json"
	"fmt"

	"github.com/expose-go/expose/internal/engine"
)

// made is the engine's Made, which an Object embeds: its text, its plan
// and what reads them back.
type made = engine.Made

// Object is an entity's output held as data: exactly the JSON that
// MakeJSON writes for the same input, read-only, with the compiled plan
// that says what each key holds. Make returns one; Get, Map and Decode read
// values out of it on demand, MarshalJSON and AppendJSON give its bytes
// without writing them again. An Object is immutable and safe for
// concurrent use.
//
// Get returns each key's value as a Go value decided by its declared type:
//
//	number                      int64
//	float                       float64
//	string (and its aliases)    string
//	bool                        bool
//	date                        time.Time, in UTC
//	none, list, object          the JSON value as encoding/json decodes it into an any
//	                            (float64, string, bool, []any, map[string]any); a
//	                            number it cannot decode (1e400) as a json.RawMessage
//	a typed list ([]string…)    []any of what a field of the element type gives
//	                            (int64 for []number, time.Time for []date), nil
//	                            for a null element
//	a group or a $ref object    *Object
//	a $ref list, a []$ref       []*Object
//	null                        nil
//
// The zero Object, like a nil *Object, is an empty object, `{}` (MarshalJSON
// of a nil *Object gives null, as encoding/json writes a nil pointer). An
// Object's bytes are those of the entity versions its Make used: when an
// entity it references is exposed again later, Get still decodes what was
// written, reading a value whose shape the new declaration does not expect
// as plain JSON.
type Object struct {
	made
}

// m returns the Made the Object holds: nil for a nil *Object, which the
// engine reads as the empty object.
func (o *Object) m() *engine.Made {
	if o == nil {
		return nil
	}
	return &o.made
}

// newObject returns a new Object of what a call made.
func newObject(s engine.Sub) *Object {
	o := new(Object)
	engine.Init(&o.made, s)
	return o
}

// newObjects returns the Objects of a list a call made (a null element a
// nil *Object): two allocations (the Objects and the list of pointers to
// them) whatever the list's length.
func newObjects(subs engine.Subs) []*Object {
	n := subs.Len()
	objs := make([]Object, n)
	list := make([]*Object, n)
	subs.Each(func(i int, s engine.Sub) {
		if !s.IsNull() {
			engine.Init(&objs[i].made, s)
			list[i] = &objs[i]
		}
	})
	return list
}

// Len returns the number of keys.
func (o *Object) Len() int { return engine.Len(o.m()) }

// Keys returns the keys in output order, as written (a key holding
// invalid UTF-8 is written, and returned, with U+FFFD in its place).
func (o *Object) Keys() []string { return engine.Keys(o.m()) }

// Get returns the value stored under key, decoded as the Object's doc
// says, and whether the key is there.
func (o *Object) Get(key string) (any, bool) {
	v, ok := engine.Get(o.m(), key)
	switch x := v.(type) {
	case engine.Sub:
		return newObject(x), ok
	case engine.Subs:
		return newObjects(x), ok
	}
	return v, ok
}

// MarshalJSON returns the object's JSON as a response writes it: the same
// bytes as MakeJSON for an Object a response made; for one MakeRequest
// made, its JSON without its writeonly fields (at every depth: groups,
// references, lists of them), which only Get, Map and Decode see; for one
// Patch merged, also without the values its omitnil and omitempty fields
// leave out of a response, which it holds for Bind. The
// slice is the Object's own, as a json.RawMessage would be: it must not be
// modified (copy it first, or use AppendJSON).
func (o *Object) MarshalJSON() ([]byte, error) {
	if o == nil {
		return []byte("null"), nil
	}
	return engine.ResponseText(o.m()), nil
}

// AppendJSON appends the object's JSON to dst, as MarshalJSON gives it.
func (o *Object) AppendJSON(dst []byte) ([]byte, error) {
	if o == nil {
		return append(dst, "null"...), nil
	}
	return append(dst, engine.ResponseText(o.m())...), nil
}

// Bind stores the object's values in dst, a pointer to a struct or a map,
// by their declared names (a group's fields beside their siblings, a
// $ref's by its entity's declared names under the reference's name, a
// merged one's too, with its groups): the struct Make reads, so that
// Make of dst gives this Object's response form again. It is what
// Entity.Bind does with the Object of a request, and what a handler does
// with the Object Patch merged: a field the Object does not hold (a
// writeonly one the patch did not give) stays as it was in dst. (Decode
// reads the output keys instead.)
//
// A struct is filled by a writer compiled once per Go type (the struct
// reader Make uses, in reverse: each value stored at its field's offset),
// which stores what encoding/json would store of the values under their
// declared names, by its rules: fields matched by json tag, else Go name,
// exactly, else but for case; `json:"-"` and unexported fields skipped;
// embedded structs flattened (an embedded nil pointer made when a value
// reaches it); a null leaves a field that cannot hold one (a string, an
// int, a struct) as it was, and clears a pointer, a slice, a map or an
// interface; a list is stored into a slice's own elements when it has
// some, and a map's keys are added to a map that exists; an `any` field
// holds a string, a float64, a bool, a map[string]any or a []any; a value
// of the wrong kind for its field (a string for an int) is a
// *json.UnmarshalTypeError naming the field's path, the other values
// being stored all the same. A field of a type it cannot fill itself is
// filled by its own method: a json.Unmarshaler's UnmarshalJSON (with the
// value's JSON), an encoding.TextUnmarshaler's UnmarshalText (a string's
// text), a sql.Scanner's Scan (the value as Get returns it, nil for a null:
// sql.NullString, sql.NullInt64, sql.NullTime, which Make reads through
// their driver.Valuer); other kinds (an array, a named map, a union's
// object, a field tagged ",string") are decoded with encoding/json. A string in dst shares the
// memory of the Object's text, which is never modified, so that filling
// it allocates nothing: dst holds the text for as long as it holds one.
// A map or an interface dst, and a struct that is a json.Unmarshaler
// itself (what expose gen writes for a struct holding a union), are
// filled by encoding/json of the values under their declared names. entitytest.CheckStruct with Request tells
// in a test whether a struct holds what a request gives.
func (o *Object) Bind(dst any) error {
	if err := bindMade(o.m(), dst); err != nil {
		return fmt.Errorf("entity: Object.Bind: %w", err)
	}
	return nil
}

// Decode stores the object's values in dst, a pointer to a struct (fields
// matched by their json tags to the output keys, as encoding/json matches
// them) or to a map, by decoding its JSON with encoding/json: dates decode
// into time.Time fields, groups and references into nested structs or maps.
func (o *Object) Decode(dst any) error {
	text := []byte("null")
	if o != nil {
		text = engine.Text(o.m())
	}
	if err := json.Unmarshal(text, dst); err != nil {
		return fmt.Errorf("entity: Object.Decode: %w", err)
	}
	return nil
}

// String returns the object's JSON.
func (o *Object) String() string {
	if o == nil {
		return "null"
	}
	return string(engine.ResponseText(o.m()))
}

// Map returns the object as plain Go values, for comparisons in tests
// (go-cmp): values as Get returns them, but nested Objects become
// map[string]any, lists of them []any, and dates their RFC 3339 text as
// written in the JSON.
func (o *Object) Map() map[string]any { return engine.Map(o.m()) }

// A Variant is a Go value of one variant of a union ("payment",
// "$card|$invoice", "by 'method'"): its Variant method returns the
// variant's name, which Make writes as the union's key before the fields
// it reads of the value (a struct, as for a $card). It is how a Go
// program holds a union in a struct: a field of an interface type that
// the variants' types implement, holding one of them, as `expose gen`
// generates it (a map holding the key, or a struct with a field of the
// key, is read too):
//
//	type Payment interface{ Variant() string }
//	func (*Card) Variant() string    { return "card" }
//	func (*Invoice) Variant() string { return "invoice" }
//	type Order struct {
//		Payment Payment `json:"payment"`
//	}
//
// A handler switches on the type the field holds. Bind fills such a
// field when its type decodes the union's JSON (encoding/json's
// Unmarshaler): the types gen generates do, picking the variant's type by
// the key.
type Variant interface {
	Variant() string
}
