package entitytest

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestConformJudgesCrossRules: Conform checks "every rule holding",
// cross-field rules among them, as Make judges them: a payload Make would
// refuse (both of two exclusive fields, a field required by another's
// value left null) does not conform.
func TestConformJudgesCrossRules(t *testing.T) {
	r := entity.NewRegistry()
	e := r.MustExpose("contact",
		"phone", "string", "excluded_with 'email'",
		"email", "string", "required_without 'phone'",
		"delivery", "string", "in ship pickup",
		"ship_to", "string", "required_if 'delivery' 'ship'",
	)
	tests := []struct{ name, payload string }{
		{"excluded_with", `{"phone":"1","email":"a@b.c","delivery":null,"ship_to":null}`},
		{"required_without", `{"phone":null,"email":null,"delivery":null,"ship_to":null}`},
		{"required_if", `{"phone":"1","email":null,"delivery":"ship","ship_to":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := e.MakeJSON([]byte(tt.payload)); err == nil {
				t.Fatalf("MakeJSON(%s): no error; the case expects Make to refuse it", tt.payload)
			}
			tb := &fakeTB{}
			if Conform(tb, e, []byte(tt.payload)) {
				t.Errorf("Conform(%s) = true, want a mismatch for %s (Make refuses it)", tt.payload, tt.name)
			}
		})
	}
}
