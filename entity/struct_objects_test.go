package entity_test

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestStructFieldsHoldingObjects: an *Object held by a struct field (as an
// any, a *Object, a []any or a []*Object) is read by its keys, as an
// Object anywhere else is, never as a struct of its own fields.
func TestStructFieldsHoldingObjects(t *testing.T) {
	reg := entity.NewRegistry()
	e1 := expose(t, reg, "e1", "name", "string", "", "login", "string", "")
	e0 := expose(t, reg, "e0", "cred", "$e1", "")
	obj, err := e1.Make(map[string]any{"name": "on", "login": "x y"}, entity.Version("v1"))
	if err != nil {
		t.Fatal(err)
	}
	type embedded struct {
		F1 []any `json:"cred"`
	}
	const one, list = `{"cred":{"name":"on","login":"x y"}}`, `{"cred":[{"name":"on","login":"x y"}]}`
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"an any", struct {
			F1 any `json:"cred"`
		}{obj}, one},
		{"a *Object", struct {
			F1 *entity.Object `json:"cred"`
		}{obj}, one},
		{"a []any", struct {
			F1 []any `json:"cred"`
		}{[]any{obj}}, list},
		{"a []*Object", struct {
			F1 []*entity.Object `json:"cred"`
		}{[]*entity.Object{obj}}, list},
		{"an embedded struct's []any", struct{ embedded }{embedded{[]any{obj}}}, list},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e0.MakeJSON(tt.in, entity.Version("v1"), entity.Strict())
			if err != nil || string(got) != tt.want {
				t.Errorf("MakeJSON = %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}
