package entity_test

import (
	"slices"
	"testing"

	"github.com/expose-go/expose/entity"
)

// patchShapingRegistry has fields that flags and versions hide.
func patchShapingRegistry(t testing.TB) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	expose(t, reg, "audit", "by", "string", "readonly")
	expose(t, reg, "shaped",
		"name", "string", "",
		"score", "number", "if 'admin'",
		"x", "string", "until 'v2'",
		"x", "number", "since 'v2'",
	)
	expose(t, reg, "shapedmerge",
		"name", "string", "",
		"a", "$audit", "merge | if 'admin'",
	)
	return reg
}

// TestPatchKeepsWhatTheCallSees: the current value is read for the call
// the patch serves: a field its flags show, or its version's field of a
// key shared by versions, keeps its current value when the patch leaves
// it out (a PATCH of the name by an admin does not clear the score).
func TestPatchKeepsWhatTheCallSees(t *testing.T) {
	e := patchShapingRegistry(t).Lookup("shaped")
	current := map[string]any{"name": "n", "score": 5, "x": "old"}
	tests := []struct {
		name string
		opts []entity.Option
		key  string
		want any
	}{
		{"a field the call's flag shows", []entity.Option{entity.With("admin")}, "score", int64(5)},
		{"the call's version of a shared key", []entity.Option{entity.Version("v1")}, "x", "old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(`{"name":"m"}`), current, tt.opts...)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if got, ok := o.Get(tt.key); !ok || got != tt.want {
				t.Errorf("%s = %#v (present %v), want %#v, its current value; merged: %s", tt.key, got, ok, tt.want, o)
			}
		})
	}
}

// TestPatchHiddenFieldsDoNotExist: to a call, a field its flags hide does
// not exist: the touched paths never name it, and DenyUnknown refuses its
// key as MakeRequest does (a client cannot tell a hidden field from no
// field).
func TestPatchHiddenFieldsDoNotExist(t *testing.T) {
	e := patchShapingRegistry(t).Lookup("shaped")
	t.Run("touched names no hidden field", func(t *testing.T) {
		_, touched, err := e.Patch(patchRequest(`{"score":9}`), map[string]any{"name": "n"})
		if err != nil {
			t.Fatalf("Patch: %v", err)
		}
		if slices.Contains(touched, "score") {
			t.Errorf("touched = %q: names score, which this call does not see (and did not change)", touched)
		}
	})
	t.Run("DenyUnknown refuses a hidden merged readonly key", func(t *testing.T) {
		e := e.Registry().Lookup("shapedmerge")
		body := `{"by":"x"}`
		_, reqErr := e.MakeRequest(bindRequest("POST", "/", body), entity.DenyUnknown())
		_, _, err := e.Patch(patchRequest(body), map[string]any{"name": "n"}, entity.DenyUnknown())
		if (reqErr == nil) != (err == nil) {
			t.Errorf("%s with DenyUnknown: MakeRequest %v, Patch %v; want the same answer (a hidden field does not exist)", body, reqErr, err)
		}
	})
}
