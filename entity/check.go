package entity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/expose-go/expose/internal/engine"
	"github.com/expose-go/expose/internal/pathfmt"
)

// Request checks: the rules of a request that need more than its
// declaration (a database, another service), attached to an entity's
// handle and run, with the request's context, after the declared rules,
// whether they passed or not, so that one problem says everything that is
// wrong with a request.

// Checked returns a handle of e whose requests (MakeRequest, Bind, Patch)
// also run check, after the declared rules, with the request's context
// and the Object the request made (its writeonly values included). check
// returns nil; or the request's own failures as *FieldError values
// (NewFieldError; several joined with errors.Join, or a
// *ValidationError), which the call answers as one 400 with the
// library's, their messages in the request's language (see DeclareCode);
// or any other error, the server's (a database that is down): the call
// returns it as it is (WriteError answers 500), whatever else failed.
//
// The check runs even when declared rules failed, so that a client learns
// of a bad email and an unknown customer in one answer: its field errors
// follow theirs in the one *ValidationError the call returns. The Object
// then holds each value as the walk wrote it, a failing one included (null
// for a value that did not convert), and Object.Failed says which fields
// failed; Value, which a check reads its values with, reports no value for
// them. (When more fields failed than the registry's Limits.Errors lists,
// the problem is full and the checks do not run.) The Object of a request
// that failed is the check's only: the call returns none.
//
//	orders := reg.MustLookup("order").Checked(func(ctx context.Context, o *entity.Object) error {
//		id, ok, err := entity.Value[int64](o, "customer_id")
//		if err != nil || !ok { // a programming error (500); or no valid id, which the declared rules report
//			return err
//		}
//		if !store.HasCustomer(ctx, id) {
//			return entity.NewFieldError("/customer_id", "no_customer", nil)
//		}
//		return nil
//	})
//
// The handle is a new *Entity: e is unchanged, and references to e's name
// see no check. Checks of a handle made from a checked handle run in
// order, each once the ones before it returned nil.
func (e *Entity) Checked(check func(ctx context.Context, o *Object) error) *Entity {
	if e == nil || check == nil {
		return e
	}
	h := *e
	h.checks = append(slices.Clip(e.checks), check)
	return &h
}

// runChecks runs the handle's request checks on o, made from r, and
// returns the request's error: declared, the error of the declared rules
// when they failed (o.Failed reports its fields), joined with the field
// errors of the first check that returns some (Fail), or a check's error
// of the server's.
func (e *Entity) runChecks(r *http.Request, o *Object, declared *ValidationError) error {
	ctx := context.Background()
	if r != nil {
		ctx = r.Context()
	}
	for _, check := range e.checks {
		err := check(ctx, o)
		if err == nil {
			continue
		}
		fields, ok := fieldErrorsOf(err)
		if !ok {
			return err // the server's
		}
		if declared == nil {
			return e.Fail(r, nil, fields...)
		}
		return e.Fail(r, declared, fields...)
	}
	if declared == nil {
		return nil // a nil *ValidationError is no nil error
	}
	return declared
}

// Failed reports whether the declared rules of the request o was made
// from failed at path, a path as FieldError.Path writes it ("customer_id",
// "address.city", "items[0].sku"; a parameter's name), at a value below
// it ("address" when "address.city" failed) or at one above it
// ("address.city" when "address", the object, failed): the value there is
// none the declaration accepts. Failed("") reports whether any field
// failed. It is false for every Object but the one a handle's check gets
// for a request whose declared rules failed (see Entity.Checked); not the
// Objects its Get returns either: ask the check's own, with the whole
// path ("address.city").
func (o *Object) Failed(path string) bool { return engine.FailedAt(o.m(), path) }

// Value returns the value of o at path as a T, the type Object.Get returns
// for the field's declared type (int64 for a number, string, bool,
// float64, time.Time for a date, *Object for a group or a $name,
// []*Object for a list of them, []any for a typed list; an interface any
// of them satisfies, such as any), and whether there is one: a path of
// keys as FieldError.Path writes it ("customer_id", "address.city",
// "items[0].sku", `meta["a.b"]` for a key holding '.', '[' or ']'; each
// key an output key of the Object at that depth).
//
// ok is false, with a nil error, when the field is absent, null, or
// failed the declared rules of the request o was made from (Object.Failed:
// a handle's check never reads a value they refused). err is a
// programming error, which a check returns as it is (the server's, 500):
// a key the entity does not declare (a typo), an index into what is no
// list, or a value that is no T, each named with the path and the types,
// never the value:
//
//	id, ok, err := entity.Value[int64](o, "customer_id")
//	_, _, err = entity.Value[int](o, "customer_id")  // entity: Value: "customer_id" holds an int64, not an int
//	_, _, err = entity.Value[int64](o, "custmer_id") // entity: Value: "custmer_id": entity "order" declares no such key
func Value[T any](o *Object, path string) (v T, ok bool, err error) {
	x, canon, found, err := o.at(path)
	if err != nil || !found || x == nil || o.Failed(canon) {
		return v, false, err
	}
	if v, ok = x.(T); !ok {
		return v, false, errors.New("entity: Value: " + strconv.Quote(path) + " holds " + article(fmt.Sprintf("%T", x)) + ", not " + article(typeName[T]()))
	}
	return v, true, nil
}

// typeName returns the name of the type T, for Value's errors.
func typeName[T any]() string { return reflect.TypeFor[T]().String() }

// article returns a type's name after "a" or "an".
func article(name string) string {
	if name != "" && strings.ContainsRune("aeiouAEIOU", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// quotedEnd returns the index of the quote that ends the JSON string s
// starts with, or -1.
func quotedEnd(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// at returns the value of o at path, as Get returns it, the path as
// FieldError.Path writes it (`address["city"]` is "address.city"), and
// whether the value is there; the error of a path that o's entity does not
// have.
func (o *Object) at(path string) (any, string, bool, error) {
	var cur any = o
	var canon []byte
	rest := path
	for rest != "" {
		var key string
		index := -1
		switch {
		case strings.HasPrefix(rest, `["`): // a key a dot would make ambiguous, quoted as JSON
			end := quotedEnd(rest[1:])
			if end < 0 || end+2 >= len(rest) || rest[end+2] != ']' || json.Unmarshal([]byte(rest[1:end+2]), &key) != nil {
				return nil, "", false, errors.New("entity: Value: " + strconv.Quote(path) + `: a quoted key is ["key"], the key a JSON string`)
			}
			rest = rest[end+3:]
		case rest[0] == '[':
			end := strings.IndexByte(rest, ']')
			n, err := strconv.Atoi(rest[1:max(end, 1)])
			if end < 0 || err != nil || n < 0 {
				return nil, "", false, errors.New("entity: Value: " + strconv.Quote(path) + ": an index is [n], n of digits")
			}
			index, rest = n, rest[end+1:]
		default:
			rest = strings.TrimPrefix(rest, ".")
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			key, rest = rest[:end], rest[end:]
		}
		switch x := cur.(type) {
		case nil:
			return nil, "", false, nil // below a null or an absent value: none
		case *Object:
			if index >= 0 {
				return nil, "", false, errors.New("entity: Value: " + strconv.Quote(path) + ": an index into an object")
			}
			if ok, name := engine.Declares(x.m(), key); !ok {
				of := "entity " + strconv.Quote(name)
				if name == "" {
					of = "an Object of no entity (a nil or zero one)"
				}
				return nil, "", false, errors.New("entity: Value: " + strconv.Quote(path) + ": " + of + " declares no key " + strconv.Quote(key))
			}
			v, ok := x.Get(key)
			if !ok {
				return nil, "", false, nil
			}
			cur = v
			if len(canon) == 0 {
				canon = pathfmt.AppendFirstKey(canon, key)
			} else {
				canon = pathfmt.AppendKey(canon, key)
			}
			continue
		case []*Object:
			if index < 0 {
				return nil, "", false, errors.New("entity: Value: " + strconv.Quote(path) + ": a key of a list")
			}
			if index >= len(x) {
				return nil, "", false, nil
			}
			cur = x[index]
			if x[index] == nil {
				cur = nil
			}
		case []any:
			if index < 0 {
				return nil, "", false, errors.New("entity: Value: " + strconv.Quote(path) + ": a key of a list")
			}
			if index >= len(x) {
				return nil, "", false, nil
			}
			cur = x[index]
		default:
			return nil, "", false, errors.New("entity: Value: " + strconv.Quote(path) + ": below " + article(fmt.Sprintf("%T", x)) + ", which holds no fields")
		}
		canon = pathfmt.AppendIndex(canon, index) // the cases of lists
	}
	return cur, string(canon), true, nil
}

// fieldErrorsOf returns the field errors err holds (a *FieldError, a
// *ValidationError, or errors joined of them), and whether it holds
// nothing else.
func fieldErrorsOf(err error) ([]*FieldError, bool) {
	var fe *FieldError
	var ve *ValidationError
	switch {
	case errors.As(err, &ve) && ve == err:
		return ve.listedFields(), !ve.response
	case errors.As(err, &fe) && fe == err:
		return []*FieldError{fe}, true
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var all []*FieldError
		for _, e := range j.Unwrap() {
			fs, ok := fieldErrorsOf(e)
			if !ok {
				return nil, false
			}
			all = append(all, fs...)
		}
		return all, len(all) > 0
	}
	return nil, false
}
