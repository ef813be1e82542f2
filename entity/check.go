package entity

import (
	"context"
	"errors"
	"net/http"
	"slices"
)

// Request checks: the rules of a request that need more than its
// declaration (a database, another service), attached to an entity's
// handle and run, with the request's context, once the declared rules
// have passed.

// Checked returns a handle of e whose requests (MakeRequest, Bind, Patch)
// also run check, after the declared rules and only when they passed, with
// the request's context and the Object the request made (its writeonly
// values included). check returns nil; or the request's own failures as
// *FieldError values (NewFieldError; several joined with errors.Join, or
// a *ValidationError), which the call answers as one 400 with the
// library's, their messages in the request's language (see DeclareCode);
// or any other error, the server's (a database that is down): the call
// returns it as it is (WriteError answers 500).
//
//	customers := entity.MustLookup("neworder").Checked(func(ctx context.Context, o *entity.Object) error {
//		id, _ := o.Get("customer_id")
//		if !store.HasCustomer(ctx, id.(int64)) {
//			return entity.NewFieldError("/customer_id", "no_customer", map[string]any{"id": id})
//		}
//		return nil
//	})
//
// The handle is a new *Entity: e is unchanged, and references to e's name
// see no check. Checks of a handle made from a checked handle run in
// order, each once the ones before it passed.
func (e *Entity) Checked(check func(ctx context.Context, o *Object) error) *Entity {
	if e == nil || check == nil {
		return e
	}
	h := *e
	h.checks = append(slices.Clip(e.checks), check)
	return &h
}

// runChecks runs the handle's request checks on o, made from r.
func (e *Entity) runChecks(r *http.Request, o *Object) error {
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
		return e.Fail(r, nil, fields...)
	}
	return nil
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
