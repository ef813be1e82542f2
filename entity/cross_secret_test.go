package entity_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestCrossRuleNamesNoSecretValue: a secret field's value "never appears
// in an error": a required_if that compares a secret sibling with a
// value says the rule failed without the value (in Error, Message, Params
// and the problem body), as `in` says "is not valid" under secret.
func TestCrossRuleNamesNoSecretValue(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "unlock",
		"pin", "string", "secret",
		"reason", "string", "required_if 'pin' '9731'",
	)
	tests := []struct {
		name string
		make func() error
	}{
		{"a request", func() error {
			_, err := e.MakeRequest(bindRequest("POST", "/", `{"pin":"9731"}`))
			return err
		}},
		{"server data", func() error {
			_, err := e.Make(map[string]any{"pin": "9731"})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.make()
			if err == nil {
				t.Fatal("no error: the rule should fail")
			}
			w := httptest.NewRecorder()
			reg.WriteError(w, err)
			texts := map[string]string{"Error()": err.Error(), "the problem body": w.Body.String()}
			for _, fe := range fieldErrors(t, err) {
				texts["Message"] += fe.Message
				for _, v := range fe.Params {
					texts["Params"] += fmt.Sprint(v)
				}
			}
			for what, s := range texts {
				if strings.Contains(s, "9731") {
					t.Errorf("%s = %q: holds the secret field's value", what, s)
				}
			}
		})
	}
}
