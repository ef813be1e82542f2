package entity_test

import (
	"testing"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

// TestDeclReturnsACopy checks that the declaration Decl and Fields give a
// tool is its own: modifying it changes neither the next one given nor
// what the entity makes.
func TestDeclReturnsACopy(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "user", "POST",
		"id", "number", "req | range 1 10",
		"details", "{", "",
		"mail", "string", "email",
		"details", "}", "",
	)
	want := e.Decl().String()
	tests := []struct {
		name   string
		modify func()
	}{
		{"Decl's name", func() { e.Decl().Name = "x" }},
		{"Decl's methods", func() { e.Decl().Methods[0] = "GET" }},
		{"Decl's field", func() { e.Decl().Fields[0].Name = "x" }},
		{"Decl's rule argument", func() { e.Decl().Fields[0].Rules[1].Args[1].Text = "99" }},
		{"Decl's group field", func() { e.Decl().Fields[1].Fields[0].Rules = nil }},
		{"Fields' Decl", func() { e.Fields()[0].Decl.Rules[0].Name = "x" }},
		{"Fields' group Decl", func() { e.Fields()[1].Fields[0].Decl.Name = "x" }},
		{"Fields' group's Decl fields", func() { e.Fields()[1].Decl.Fields[0] = &dsl.Field{Name: "x"} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.modify()
			if got := e.Decl().String(); got != want {
				t.Errorf("after the change, Decl() is\n%s\nwant\n%s", got, want)
			}
			for i, f := range e.Fields() {
				if got, want := f.Decl.String(), e.Decl().Fields[i].String(); got != want {
					t.Errorf("Fields()[%d].Decl is %s, want %s", i, got, want)
				}
			}
			got, err := e.MakeJSON(map[string]any{"id": 5, "mail": "a@example.com"})
			if err != nil || string(got) != `{"id":5,"details":{"mail":"a@example.com"}}` {
				t.Errorf("MakeJSON after the change: %s, %v", got, err)
			}
		})
	}
}
