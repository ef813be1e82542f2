package entity_test

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestPatchOfACurrentValueThatFails: "a current value that does not make
// (it fails its entity as server data) is the server's error (500)":
// the client is answered the generic 500, never the server's data's
// field errors as its own 400.
func TestPatchOfACurrentValueThatFails(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "contact",
		"name", "string", "",
		"email", "string", "req | email",
	)
	tests := []struct {
		name    string
		current map[string]any
	}{
		{"a req field the row lacks", map[string]any{"name": "a"}},
		{"a value the rules refuse", map[string]any{"email": "not-an-email"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := e.Patch(patchRequest(`{"name":"b"}`), tt.current)
			if err == nil {
				t.Fatal("Patch: no error")
			}
			var ve *entity.ValidationError
			if errors.As(err, &ve) && ve.StatusCode() != 500 {
				t.Errorf("StatusCode() = %d, want 500 (the server's data fails)", ve.StatusCode())
			}
			w := httptest.NewRecorder()
			reg.WriteError(w, err)
			if w.Code != 500 || strings.Contains(w.Body.String(), "email") {
				t.Errorf("WriteError: %d %s, want the generic 500", w.Code, w.Body)
			}
		})
	}
}

// TestPatchJudgesTheMergedValue: "a writeonly one the patch does not
// touch is not required (the server need not hold it)": a current value
// held without its writeonly fields is not refused by a cross-field rule
// that requires one, so that a patch the merged value satisfies passes.
func TestPatchJudgesTheMergedValue(t *testing.T) {
	reg := entity.NewRegistry()
	sso := expose(t, reg, "login",
		"name", "string", "",
		"password", "string", "writeonly | required_without 'sso'",
		"sso", "string", "",
	)
	tests := []struct {
		name    string
		e       *entity.Entity
		current map[string]any
		patch   string
	}{
		{"the patch gives the other field", sso, map[string]any{"name": "a"}, `{"sso":"s"}`},
		{"the patch gives the writeonly field", sso, map[string]any{"name": "a"}, `{"password":"p"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := tt.e.Patch(patchRequest(tt.patch), tt.current); err != nil {
				t.Errorf("Patch of %s onto %v: %v; want no error (the merged value passes every rule)", tt.patch, tt.current, err)
			}
		})
	}
}
