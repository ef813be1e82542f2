package entity_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/expose-go/expose/entity"
)

// This file holds the helpers every table of the suite runs its cases
// through. The central one, makeAll, makes an input through every entry
// point of an entity and checks that they agree, so that each successful
// case of each table also asserts that Object.MarshalJSON gives the same
// bytes as MakeJSON, and each failing case that nothing partial is written.

// absent stands for a field that is not in the input at all.
type absentT struct{}

var absent absentT

// input returns {"v": v}, or {} when v is absent.
func input(v any) map[string]any {
	if _, ok := v.(absentT); ok {
		return map[string]any{}
	}
	return map[string]any{"v": v}
}

// expose exposes an entity in reg, failing the test on a declaration error.
func expose(t testing.TB, reg *entity.Registry, name string, decl ...string) *entity.Entity {
	t.Helper()
	e, err := reg.Expose(name, decl...)
	if err != nil {
		t.Fatalf("Expose(%q): %v", name, err)
	}
	return e
}

// exposeOne exposes a one-field entity `"v", typ, rules` in a new registry.
func exposeOne(t testing.TB, typ, rules string) *entity.Entity {
	t.Helper()
	return expose(t, entity.NewRegistry(), "one", "v", typ, rules)
}

const appendPrefix = "prefix:"

// makeAll makes v, an object, with e through MakeJSON, AppendJSON (onto a
// prefix, and onto a buffer with spare capacity) and Make, and checks that
// they agree:
//   - on success: the JSON is valid, AppendJSON appends exactly MakeJSON's
//     bytes after the prefix, Make gives an Object whose MarshalJSON (and
//     json.Marshal of it) is MakeJSON's output byte for byte;
//   - on failure: MakeJSON returns nil, AppendJSON returns dst unchanged
//     (same length, prefix intact), Make returns a nil Object, and the three
//     errors read the same.
//
// It returns MakeJSON's output, Make's Object and the error.
func makeAll(t testing.TB, e *entity.Entity, v any) ([]byte, *entity.Object, error) {
	t.Helper()
	out, err := e.MakeJSON(v)

	prefix := []byte(appendPrefix)
	app, aerr := e.AppendJSON(prefix, v)
	roomy := make([]byte, len(appendPrefix), 4096)
	copy(roomy, appendPrefix)
	app2, aerr2 := e.AppendJSON(roomy, v)

	obj, merr := e.Make(v)

	if err != nil {
		if out != nil {
			t.Errorf("MakeJSON failed (%v) but returned %q, want nil", err, out)
		}
		for i, a := range []struct {
			b   []byte
			err error
		}{{app, aerr}, {app2, aerr2}} {
			if a.err == nil {
				t.Errorf("MakeJSON failed (%v) but AppendJSON #%d succeeded: %s", err, i, a.b)
			} else if a.err.Error() != err.Error() {
				t.Errorf("AppendJSON #%d error differs from MakeJSON's:\n got %v\nwant %v", i, a.err, err)
			}
			if string(a.b) != appendPrefix {
				t.Errorf("AppendJSON #%d on failure returned %q, want dst unchanged %q", i, a.b, appendPrefix)
			}
		}
		if merr == nil {
			t.Errorf("MakeJSON failed (%v) but Make succeeded: %v", err, obj)
		} else if merr.Error() != err.Error() {
			t.Errorf("Make error differs from MakeJSON's:\n got %v\nwant %v", merr, err)
		}
		if obj != nil {
			t.Errorf("Make failed but returned an Object: %v", obj)
		}
		return nil, nil, err
	}

	if !json.Valid(out) {
		t.Errorf("MakeJSON gave invalid JSON: %s", out)
	}
	for i, a := range []struct {
		b   []byte
		err error
	}{{app, aerr}, {app2, aerr2}} {
		if a.err != nil {
			t.Errorf("MakeJSON succeeded but AppendJSON #%d failed: %v", i, a.err)
		} else if want := appendPrefix + string(out); string(a.b) != want {
			t.Errorf("AppendJSON #%d:\n got %s\nwant %s", i, a.b, want)
		}
	}
	if merr != nil {
		t.Errorf("MakeJSON succeeded (%s) but Make failed: %v", out, merr)
		return out, nil, nil
	}
	if obj == nil {
		t.Errorf("Make returned a nil Object and no error")
		return out, nil, nil
	}
	mj, jerr := obj.MarshalJSON()
	if jerr != nil {
		t.Errorf("Object.MarshalJSON: %v (MakeJSON gave %s)", jerr, out)
	} else if !bytes.Equal(mj, out) {
		t.Errorf("Object.MarshalJSON differs from MakeJSON:\n got %s\nwant %s", mj, out)
	}
	if jm, jerr := json.Marshal(obj); jerr != nil {
		t.Errorf("json.Marshal(Object): %v", jerr)
	} else if !bytes.Equal(jm, out) {
		t.Errorf("json.Marshal(Object) differs from MakeJSON:\n got %s\nwant %s", jm, out)
	}
	if obj.Len() != len(obj.Keys()) {
		t.Errorf("Len() = %d but Keys() has %d", obj.Len(), len(obj.Keys()))
	}
	return out, obj, nil
}

// mustMake is makeAll for an input that must succeed.
func mustMake(t testing.TB, e *entity.Entity, v any) ([]byte, *entity.Object) {
	t.Helper()
	out, obj, err := makeAll(t, e, v)
	if err != nil {
		t.Fatalf("make %s: %v", e.Name(), err)
	}
	return out, obj
}

// fieldErrors returns the FieldErrors of a *ValidationError, failing the
// test when err is anything else.
func fieldErrors(t testing.TB, err error) []*entity.FieldError {
	t.Helper()
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error %v (%T) is not a *entity.ValidationError", err, err)
	}
	if !errors.Is(err, entity.ErrValidation) {
		t.Errorf("errors.Is(%v, ErrValidation) = false", err)
	}
	if ve.StatusCode() != 400 {
		t.Errorf("StatusCode() = %d, want 400", ve.StatusCode())
	}
	return ve.Fields
}

// marshal is json.Marshal that fails the test on error.
func marshal(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%#v): %v", v, err)
	}
	return string(b)
}
