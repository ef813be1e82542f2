package entity_test

import (
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestRequestObjectGivesNoWriteOnlyToAResponse: an Object of a request (or
// of a patch) holds writeonly values "which only Get, Map and Decode see"
// (and Bind): a response made from it, by any entity, never writes one.
// Nested writeonly values already stay out (an object field of another
// entity writes the group without them); the top level's are read by key.
func TestRequestObjectGivesNoWriteOnlyToAResponse(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "cred", "login", "string", "", "password", "string", "writeonly")
	e := expose(t, reg, "signup",
		"name", "string", "",
		"password", "string", "writeonly",
		"cred", "$cred", "",
		"g", "{", "",
		"pin", "string", "writeonly",
		"g", "}", "",
	)
	// public is another entity a handler answers with, of the same keys.
	public := expose(t, reg, "public",
		"name", "string", "",
		"password", "string", "",
		"pin", "string", "",
		"g", "object", "",
		"cred", "object", "",
	)
	body := `{"name":"a","password":"hunter2","cred":{"login":"l","password":"hunter2"},"g":{"pin":"hunter2"}}`
	req, err := e.MakeRequest(bindRequest("POST", "/", body))
	if err != nil {
		t.Fatal(err)
	}
	patched, _, err := e.Patch(patchRequest(body), nil)
	if err != nil {
		t.Fatal(err)
	}
	sub := func(o *entity.Object, key string) *entity.Object {
		v, _ := o.Get(key)
		s, _ := v.(*entity.Object)
		return s
	}
	tests := []struct {
		name string
		o    *entity.Object
	}{
		{"a request's Object", req},
		{"a patch's Object", patched},
		{"a request's group", sub(req, "g")},
		{"a request's reference", sub(req, "cred")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.o == nil {
				t.Fatal("no Object")
			}
			got, err := public.MakeJSON(tt.o)
			if err != nil {
				t.Fatalf("MakeJSON: %v", err)
			}
			if strings.Contains(string(got), "hunter2") {
				t.Errorf("public.MakeJSON(Object) = %s: a response writes a writeonly value", got)
			}
		})
	}
}
