package entity_test

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestCrossRulePresentIsWritten: "present means written and not null
// (after defaults)": an omitempty sibling the call leaves out for its
// empty value is not present; a group, which is always written, is
// present only when it holds a value (or the rule is refused at Expose,
// as required_if refuses a group).
func TestCrossRulePresentIsWritten(t *testing.T) {
	tests := []struct {
		name string
		decl []string
		body string
	}{
		{"an omitempty sibling left out", []string{"a", "string", "omitempty", "b", "string", "required_with 'a'"}, `{"a":""}`},
		{"an omitempty zero left out", []string{"n", "number", "omitempty", "b", "string", "required_with 'n'"}, `{"n":0}`},
		{"an empty group", []string{"g", "{", "", "c", "string", "", "g", "}", "", "b", "string", "required_with 'g'"}, `{}`},
		{"an empty group, excluded_with", []string{"g", "{", "", "c", "string", "", "g", "}", "", "b", "string", "excluded_with 'g'"}, `{"b":"x"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := entity.NewRegistry().Expose("present", tt.decl...)
			if err != nil {
				return // refused at Expose: as good as judged right
			}
			if _, err := e.MakeJSON([]byte(tt.body)); err != nil {
				t.Errorf("MakeJSON of %s: %v, want no error (the sibling is not written, so not present)", tt.body, err)
			}
			if _, err := e.MakeRequest(bindRequest("POST", "/", tt.body)); err != nil {
				t.Errorf("MakeRequest of %s: %v, want no error", tt.body, err)
			}
		})
	}
}
