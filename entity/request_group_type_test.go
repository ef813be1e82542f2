package entity_test

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestRequestGroupTypeError: a request reads a group as the object under
// its key; a value of another kind there is a type error that says an
// object was wanted, as a $name's does ("must be an object, got a
// number"), never "must be null".
func TestRequestGroupTypeError(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "grouped",
		"g", "{", "",
		"x", "string", "",
		"g", "}", "",
	)
	tests := []struct{ name, body, want string }{
		{"a number", `{"g":5}`, "must be an object, got a number"},
		{"a string", `{"g":"s"}`, "must be an object, got a string"},
		{"a list", `{"g":[]}`, "must be an object, got an array"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.MakeRequest(bindRequest("POST", "/", tt.body))
			if err == nil {
				t.Fatalf("MakeRequest of %s: no error", tt.body)
			}
			fes := fieldErrors(t, err)
			if len(fes) != 1 || fes[0].Code != "type" || fes[0].Message != tt.want {
				t.Errorf("MakeRequest of %s: %v, want one type error at g: %q", tt.body, err, tt.want)
			}
			if len(fes) == 1 && fes[0].Params["type"] == "null" {
				t.Errorf("params = %v: the type wanted is an object", fes[0].Params)
			}
		})
	}
}
