package entity_test

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestCrossRuleOfAKeySharedByVersions: a cross-field rule names a sibling
// by its declared name; where that name is declared in two version ranges,
// the rule judges the call's field of that name, whichever range it is
// in, on requests and responses alike (it is never left unjudged because
// the first declaration is not the call's).
func TestCrossRuleOfAKeySharedByVersions(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "shipment",
		"x", "string", "until 'v2'",
		"x", "number", "since 'v2'",
		"y", "string", "required_with 'x'",
	)
	tests := []struct {
		name string
		body string
		opts []entity.Option
	}{
		{"a v3 call", `{"x":5}`, []entity.Option{entity.Version("v3")}},
		{"a call without version (the latest range)", `{"x":5}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name+", request", func(t *testing.T) {
			o, err := e.MakeRequest(bindRequest("POST", "/", tt.body), tt.opts...)
			if err == nil {
				t.Fatalf("MakeRequest of %s = %s, want y required_with", tt.body, o)
			}
			if fes := fieldErrors(t, err); len(fes) != 1 || fes[0].Code != "required_with" {
				t.Errorf("MakeRequest of %s: %v, want y required_with", tt.body, err)
			}
		})
		t.Run(tt.name+", response", func(t *testing.T) {
			b, err := e.MakeJSON([]byte(tt.body), tt.opts...)
			if err == nil {
				t.Errorf("MakeJSON of %s = %s, want y required_with", tt.body, b)
			}
		})
	}
}
