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

// TestSecretFieldErrorsNameNoValueOfIt: a secret field's own values (the
// values its in lists, its pattern, what it was sent) are never in a
// FieldError's params, its message or the problem body: a rule whose words
// would describe them is "is not valid" without params. A cross-field
// rule on a secret field names its siblings, and the values of a sibling
// that is no secret, as anywhere; one naming a secret sibling quotes none
// of that sibling's values.
func TestSecretFieldErrorsNameNoValueOfIt(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "login",
		"mode", "string", "",
		"pw", "string", "secret | in 'alpha' 'beta' | required_if 'mode' 'legacy'",
		"code", "string", "secret | regex '^[0-9]{6}$' | min 4",
		"pin", "string", "secret | in 'kestrel'",
		"reason", "string", "required_if 'pin' 'kestrel'",
	)
	tests := []struct {
		name, body string
		want       string // path code params message, one a line
	}{
		{"in", `{"pw":"gamma"}`, `pw in map[] "is not valid"`},
		{"regex", `{"code":"abcdef"}`, `code regex map[] "is not valid"`},
		{"min keeps its params", `{"code":"123"}`, `code regex map[] "is not valid"` + "\n" + `code min map[min:4] "must be at least 4 characters long"`},
		{"required_if on a secret field", `{"mode":"legacy"}`, `pw required_if map[other:mode values:[legacy]] "is required when mode is legacy"`},
		{"required_if naming a secret sibling", `{"pin":"kestrel"}`, `reason required_if map[other:pin] "is required for the value pin has"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.MakeRequest(bindRequest("POST", "/", tt.body))
			var lines []string
			for _, fe := range fieldErrors(t, err) {
				lines = append(lines, fmt.Sprintf("%s %s %v %q", fe.Path, fe.Code, fe.Params, fe.Message))
			}
			if got := strings.Join(lines, "\n"); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			w := httptest.NewRecorder()
			reg.WriteError(w, err)
			for _, v := range []string{"alpha", "beta", "gamma", "abcdef", "[0-9]", "kestrel"} {
				if strings.Contains(w.Body.String(), v) || strings.Contains(err.Error(), v) {
					t.Errorf("%q in the problem or the error: %s", v, w.Body)
				}
			}
		})
	}
	t.Run("a secret field's msg names no value", func(t *testing.T) {
		_, err := entity.NewRegistry().Expose("e", "pw", "string", "secret | in 'a' 'b' | msg 'must be one of {values}'")
		if err == nil || !strings.Contains(err.Error(), "placeholder {values} would say what the secret field may hold") {
			t.Errorf("got %v", err)
		}
		if _, err := entity.NewRegistry().Expose("e", "pw", "string", "secret | min 8 | msg 'at least {min}'"); err != nil {
			t.Error(err)
		}
	})
	t.Run("under a secret $ref, a msg's value placeholders say nothing", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "cred", "kind", "string", "in 'otter' 'heron' | min 2 | msg 'must be one of {values}, {min} or more'")
		e := expose(t, reg, "user", "cred", "$cred", "secret")
		_, err := e.MakeRequest(bindRequest("POST", "/", `{"cred":{"kind":"x"}}`))
		fes := fieldErrors(t, err)
		if len(fes) != 2 || fes[0].Message != "must be one of , 2 or more" || fes[0].Params != nil || strings.Contains(err.Error(), "otter") {
			t.Errorf("got %v", fes)
		}
	})
}
