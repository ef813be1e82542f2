package entity_test

import (
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// An Object made again is read in the wire form (by its output keys) by
// its own entity, at every level below it; anywhere else it is an object
// like any, read by the declared names.

// TestObjectAtAGroupsFromPathIsServerData: an Object of the entity found
// at a group's from path is read by the group's declared names, as any
// object there (the group's fields are no keys of the entity's Object).
func TestObjectAtAGroupsFromPathIsServerData(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "e",
		"zip", "none", "",
		"meta", "none", "",
		"a", "{", "from 'meta'",
		"zip", "bool", "rename 'k'",
		"a", "}", "",
	)
	good, err := e.Make(map[string]any{"zip": "true"})
	if err != nil {
		t.Fatal(err)
	}
	bad, err := e.Make(map[string]any{"zip": []any{nil}})
	if err != nil {
		t.Fatal(err)
	}
	type holder struct {
		Meta *entity.Object `json:"meta"`
	}
	for name, in := range map[string]func(o *entity.Object) any{
		"a map":            func(o *entity.Object) any { return map[string]any{"meta": o} },
		"a struct's field": func(o *entity.Object) any { return holder{o} },
	} {
		t.Run(name, func(t *testing.T) {
			out, err := e.MakeJSON(in(good), entity.Strict())
			if err != nil || !strings.Contains(string(out), `"a":{"k":true}`) {
				t.Errorf("got %s, %v; want the group's zip read from the Object's zip", out, err)
			}
			_, err = e.Make(in(bad), entity.Strict()) // a list is no bool
			if fes := fieldErrors(t, err); len(fes) != 1 || fes[0].Path != "meta.zip" || fes[0].Code != "type" {
				t.Errorf("Strict: got %v, want a type error at meta.zip", err)
			}
		})
	}
}

// TestMergedFromFieldOfAnAbsentGroupInTheWireForm: an Object without a
// group's object (a readonly group a request does not read) is read by key
// inside the group too, a merged entity's fields among them: the error of
// a from field there is at its key, never at its from path.
func TestMergedFromFieldOfAnAbsentGroupInTheWireForm(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "tag", "t", "string", "from 'kid' | req")
	e := expose(t, reg, "doc",
		"title", "string", "",
		"n", "{", "readonly",
		"m", "$tag", "merge",
		"n", "}", "",
	)
	o, err := e.MakeRequest(bindRequest("POST", "/", `{"title":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Make(o)
	if fes := fieldErrors(t, err); len(fes) != 1 || fes[0].Path != "n.t" || fes[0].Code != "required" {
		t.Errorf("got %v, want t required at n.t", err)
	}
}
