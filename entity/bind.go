package entity

import (
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"strings"
)

// Bind reads the request r with the entity (MakeRequest: the wire form,
// strictly unless Lax is given) and stores the values it made in dst by
// their declared names (Object.Bind): dst is a pointer to a struct whose
// fields are matched by their json tags to the declared names, a group's
// fields beside their siblings, a reference's in a struct or a slice of
// structs, a date in a time.Time, as Make reads a struct, so that Make of
// dst writes the request's response form again; or a pointer to a map.
// What reaches dst has been validated, converted and defaulted; writeonly
// values are there, readonly ones are not. `expose gen` writes such a
// struct from .entity files.
//
//	type newUser struct { // entity: name, born, address { city }, tags []$tag
//		Name string    `json:"name"`
//		Born time.Time `json:"born"`
//		City string    `json:"city"` // the group's field, beside its siblings
//		Tags []tag     `json:"tags"`
//	}
//
//	func createUser(w http.ResponseWriter, r *http.Request) {
//		var u newUser
//		if err := users.Bind(r, &u); err != nil {
//			entity.WriteError(w, err) // 400, 405, 413, 415 or 500, as problem details
//			return
//		}
//		// u holds what the declaration allows, nothing else
//	}
//
// The errors are MakeRequest's, as they are: a *ValidationError (400) for
// the fields that fail, an *InputError for the request itself, each in the
// request's language. A handler's own checks join the library's errors in
// one problem through Entity.Fail or Entity.Checked. A dst that is not a
// non-nil pointer to a struct, a map or an interface is a programming
// error, returned before the request is read. A dst whose fields cannot
// hold the values the entity makes (an int field for a string key) is one
// too, found when such a value is decoded, after the request is read (a
// null decodes into any field). Both are plain errors, which Write answers
// with 500, and neither quotes a value; entitytest.CheckStruct(t, e, T{},
// entitytest.Input) tells in a test whether a struct holds what a request
// gives.
func (e *Entity) Bind(r *http.Request, dst any, opts ...Option) error {
	if e == nil {
		return errNilEntity
	}
	if err := checkDst(e, dst); err != nil {
		return err
	}
	o, err := e.MakeRequest(r, opts...)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(o.declaredText(), dst); err != nil {
		return inLang(decodeError(e, dst, err), e.reg.requestLang(r, opts)) // its 500 in the request's language
	}
	return nil
}

// checkDst reports a dst that Bind cannot store into.
func checkDst(e *Entity, dst any) error {
	rv := reflect.ValueOf(dst)
	switch {
	case dst == nil:
		return errors.New(bindPrefix(e) + "dst is nil, want a pointer to a struct or a map")
	case rv.Kind() != reflect.Pointer:
		return errors.New(bindPrefix(e) + "dst is a " + rv.Type().String() + ", not a pointer: pass &dst")
	case rv.IsNil():
		return errors.New(bindPrefix(e) + "dst is a nil " + rv.Type().String())
	}
	switch k := rv.Type().Elem().Kind(); {
	case k == reflect.Struct, k == reflect.Map, k == reflect.Interface:
	case k == reflect.Pointer && rv.Type().Elem().Elem().Kind() == reflect.Struct:
	default:
		return errors.New(bindPrefix(e) + "dst is a " + rv.Type().String() + ": want a pointer to a struct or a map")
	}
	return nil
}

func bindPrefix(e *Entity) string {
	return "entity " + strconv.Quote(e.name) + ": Bind: "
}

// decodeError describes why the values made could not be stored in dst,
// without the values: encoding/json quotes numbers in its messages, and an
// UnmarshalJSON method (time.Time's) its whole input, which may be a
// secret. The original error stays reachable through errors.As.
func decodeError(e *Entity, dst any, err error) error {
	var b strings.Builder
	b.WriteString(bindPrefix(e))
	b.WriteString("the values do not decode into ")
	b.WriteString(reflect.TypeOf(dst).String())
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		b.WriteString(": ")
		if ute.Field != "" {
			b.WriteString("field ")
			b.WriteString(ute.Field)
			b.WriteString(" of ")
		}
		b.WriteString("Go type ")
		if ute.Type != nil {
			b.WriteString(ute.Type.String())
		}
		kind, _, _ := strings.Cut(ute.Value, " ") // "number 12.5": the kind only
		b.WriteString(" cannot hold a JSON ")
		b.WriteString(kind)
	} else {
		b.WriteString(": a value fails the UnmarshalJSON of its Go field")
	}
	return &bindError{msg: b.String(), err: err}
}
