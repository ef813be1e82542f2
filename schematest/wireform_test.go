package schematest

import (
	"bytes"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

// The Request schema describes a request in the wire form
// Entity.RequestFields gives: the keys a response writes (after rename and
// key case), groups as nested objects, a $ref as one object, []$ref as a
// list of objects, a merged $ref's keys at its level. Until MakeRequest
// reads every part of that form, the agreement tests leave out the
// entities whose requests use a part it does not read yet; the probes
// below ask the library, so that each part is checked as soon as it reads
// it, with no change here.

// wireForm says which parts of the wire form MakeRequest reads.
type wireForm struct {
	keys, groups, oneObject, nullElements, merged bool
}

var wire struct {
	sync.Once
	wireForm
}

// readsWireForm probes MakeRequest for each part of the wire form.
func readsWireForm(t testing.TB) wireForm {
	t.Helper()
	wire.Do(func() {
		reg := entity.NewRegistry()
		reg.MustExpose("t", "x", "string", "req")
		accepts := func(decl []string, body string) bool {
			e := reg.MustExpose("probe", decl...)
			r := httptest.NewRequest("POST", "/", bytes.NewReader([]byte(body)))
			r.Header.Set("Content-Type", "application/json")
			_, err := e.MakeRequest(r)
			return err == nil
		}
		wire.keys = accepts([]string{"a", "string", "req | rename 'b'"}, `{"b":"x"}`)
		wire.groups = accepts([]string{"g", "{", "", "x", "string", "req", "g", "}", ""}, `{"g":{"x":"1"}}`)
		wire.oneObject = !accepts([]string{"r", "$t", "req"}, `{"r":[]}`)
		wire.nullElements = !accepts([]string{"l", "[]$t", ""}, `{"l":[null]}`)
		wire.merged = accepts([]string{"m", "$t", "merge | req"}, `{"x":"1"}`)
	})
	return wire.wireForm
}

// wireFormGap returns why MakeRequest cannot yet be held to e's Request
// schema (a part of the wire form e's requests use, in e or an entity it
// references, that MakeRequest does not read yet), or "".
func wireFormGap(t testing.TB, e *entity.Entity) string {
	t.Helper()
	w := readsWireForm(t)
	seen := map[string]bool{}
	var walk func(e *entity.Entity) string
	var fields func(fs []*entity.Field) string
	fields = func(fs []*entity.Field) string {
		for _, f := range fs {
			switch {
			case !w.keys && (f.Key != f.Name || f.From != nil):
				return "MakeRequest does not read a renamed field under its key yet (" + f.Name + ")"
			case !w.groups && f.Kind == dsl.FieldGroup:
				return "MakeRequest does not read a group as a nested object yet (" + f.Name + ")"
			case !w.merged && f.Merge:
				return "MakeRequest does not read a merged $ref's keys at its level yet (" + f.Name + ")"
			case !w.oneObject && f.Kind == dsl.FieldRef && !f.List && !f.Merge:
				return "MakeRequest accepts a list for a $ref (one object) yet (" + f.Name + ")"
			case !w.nullElements && f.Kind == dsl.FieldRef && f.List:
				return "MakeRequest accepts a null element of a []$ref yet (" + f.Name + ")"
			}
			if gap := fields(f.Fields); gap != "" {
				return gap
			}
			if t := f.Entity(); t != nil {
				if gap := walk(t); gap != "" {
					return gap
				}
			}
		}
		return ""
	}
	walk = func(e *entity.Entity) string {
		if seen[e.Name()] {
			return ""
		}
		seen[e.Name()] = true
		return fields(e.RequestFields())
	}
	return walk(e)
}
