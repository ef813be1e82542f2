package schematest

import (
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// TestRefNamesResolve: a $ref to an entity whose name a URI fragment must
// escape resolves, in both validators, to that entity's schema.
func TestRefNamesResolve(t *testing.T) {
	reg := entity.NewRegistry()
	for _, d := range [][]string{{"top", "x", "$a b/c~é", "req"}, {"a b/c~é", "y", "number", "req"}} {
		if _, err := reg.Expose(d[0], d[1:]...); err != nil {
			t.Fatal(err)
		}
	}
	s, err := schema.JSON(reg.Lookup("top"), schema.Response)
	if err != nil {
		t.Fatal(err)
	}
	sch := compile(t, "top", s)
	var js ajvBatch
	js.schema("top", s)
	tests := []struct {
		name, doc string
		valid     bool
	}{
		{"an object of the entity", `{"x":{"y":1}}`, true},
		{"a list of them", `{"x":[{"y":1},{"y":2}]}`, true},
		{"not of the entity", `{"x":{"y":"1"}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := validate(sch, []byte(tt.doc)); (err == nil) != tt.valid {
				t.Errorf("validate(%s) = %v, want valid %v", tt.doc, err, tt.valid)
			}
		})
		js.check("top", []byte(tt.doc), tt.valid, tt.name)
	}
	js.run(t, 10)
}
