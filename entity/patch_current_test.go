package entity_test

import (
	"errors"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// TestPatchJudgesAStoredValueInTheMergedValue: the current value is read
// without its rules, and the merged value is judged whole, once, as a
// request: a value the patch leaves that fails the entity's rules now (a
// rule tightened since it was stored, a req field the row lacks) fails
// the merged value, a 400 naming the field at its place in the body,
// which the client may then send; nothing of the stored value is quoted.
func TestPatchJudgesAStoredValueInTheMergedValue(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "contact",
		"name", "string", "",
		"email", "string", "req | email",
	)
	tests := []struct {
		name    string
		current map[string]any
		patch   string
		code    string // the one error's, at email; "" for none
	}{
		{"a req field the row lacks", map[string]any{"name": "a"}, `{"name":"b"}`, "required"},
		{"a value the rules refuse", map[string]any{"email": "not-an-email"}, `{"name":"b"}`, "email"},
		{"the patch gives the value", map[string]any{"email": "not-an-email"}, `{"email":"b@example.com"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := e.Patch(patchRequest(tt.patch), tt.current)
			if tt.code == "" {
				if err != nil {
					t.Errorf("Patch: %v, want none", err)
				}
				return
			}
			fes := fieldErrorsOrNone(err)
			if len(fes) != 1 || fes[0].Path != "email" || fes[0].Pointer != "/email" || fes[0].Code != tt.code {
				t.Fatalf("Patch: %v, want one %s error at email", err, tt.code)
			}
			w := httptest.NewRecorder()
			reg.WriteError(w, err)
			if w.Code != 400 || strings.Contains(w.Body.String(), "not-an-email") {
				t.Errorf("WriteError: %d %s, want a 400 quoting no value", w.Code, w.Body)
			}
		})
	}
}

// TestPatchRunsTheRulesOfAStoredValueOnce: the stored value's rules are
// not run twice (once on the current value, once on the merged one):
// each value the patch leaves is judged once, in the merged value, and a
// readonly one not at all (it is the server's, taken as it is).
func TestPatchRunsTheRulesOfAStoredValueOnce(t *testing.T) {
	var runs atomic.Int64
	reg := entity.NewRegistry()
	err := reg.RegisterRule(rules.Def{Name: "counted", Types: rules.Kinds(rules.String), NoPanic: true,
		Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(rules.Value) error { runs.Add(1); return nil }), nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	expose(t, reg, "line", "sku", "string", "counted", "by", "string", "readonly | counted")
	e := expose(t, reg, "order",
		"name", "string", "",
		"note", "string", "counted",
		"id", "string", "readonly | counted",
		"lines", "[]$line", "",
	)
	current := map[string]any{"name": "n", "note": "x", "id": "7",
		"lines": []any{map[string]any{"sku": "a", "by": "b"}, map[string]any{"sku": "c", "by": "d"}}}
	tests := []struct {
		name, patch string
		want        int64
	}{
		{"a patch of another field", `{"name":"m"}`, 3},                  // note, and each line's sku
		{"a patch of the field", `{"note":"y"}`, 3},                      // its new value instead
		{"a patch that replaces the list", `{"lines":[{"sku":"e"}]}`, 2}, // note, and the new line's sku
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs.Store(0)
			if _, _, err := e.Patch(patchRequest(tt.patch), current); err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if got := runs.Load(); got != tt.want {
				t.Errorf("the rule ran %d times, want %d: once per value of the merged value, readonly ones excepted", got, tt.want)
			}
		})
	}
}

// TestPatchOfACurrentValueThatCannotBeRead: a current value that cannot
// be read as the entity's input (one Make refuses, raw JSON that does not
// parse or is no object, a value that fails to be read) is the server's
// error: the client is answered the generic 500.
func TestPatchOfACurrentValueThatCannotBeRead(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "contact", "name", "string", "", "v", "none", "")
	tests := []struct {
		name    string
		current any
	}{
		{"not an object", "a string"},
		{"a list", []any{map[string]any{"name": "a"}}},
		{"raw JSON that does not parse", []byte(`{"name":`)},
		{"raw JSON of a list", []byte(`[{"name":"a"}]`)},
		{"a value that fails to be read", map[string]any{"v": failingValuer{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := e.Patch(patchRequest(`{"name":"b"}`), tt.current)
			if err == nil {
				t.Fatal("Patch: no error")
			}
			var ve *entity.ValidationError
			if errors.As(err, &ve) && ve.StatusCode() != 500 {
				t.Errorf("StatusCode() = %d, want 500 (the server's data)", ve.StatusCode())
			}
			w := httptest.NewRecorder()
			reg.WriteError(w, err)
			if w.Code != 500 || strings.Contains(w.Body.String(), "name") {
				t.Errorf("WriteError: %d %s, want the generic 500", w.Code, w.Body)
			}
		})
	}
}

// TestPatchJudgesTheMergedValue: "a writeonly one the patch does not
// touch is not required (the server need not hold it)": a current value
// held without its writeonly fields is not refused by a cross-field rule
// that requires one, so that a patch the merged value satisfies passes;
// a writeonly field the patch does not give is not read, so the rules
// that name it are not judged (the server may hold it).
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
		{"the patch gives neither", sso, map[string]any{"name": "a"}, `{"name":"b"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := tt.e.Patch(patchRequest(tt.patch), tt.current); err != nil {
				t.Errorf("Patch of %s onto %v: %v; want no error (the merged value passes every rule)", tt.patch, tt.current, err)
			}
		})
	}
}

// TestPatchJudgesCrossRulesNamingAReadonlyField: the merged value holds a
// readonly field's stored value, and a sibling's cross-field rule that
// names it judges that value (a row stored before the rule was declared is
// a 400 naming the sibling); the readonly field's own rules are not judged.
func TestPatchJudgesCrossRulesNamingAReadonlyField(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "ticket",
		"status", "string", "readonly",
		"reason", "string", "required_if 'status' closed",
	)
	tests := []struct {
		name    string
		current map[string]any
		patch   string
		fails   string // the field that fails required_if, or ""
	}{
		{"a stored row the rule refuses", map[string]any{"status": "closed"}, `{}`, "reason"},
		{"the patch gives what the rule asks", map[string]any{"status": "closed"}, `{"reason":"done"}`, ""},
		{"the patch clears it", map[string]any{"status": "closed", "reason": "done"}, `{"reason":null}`, "reason"},
		{"the stored value does not ask", map[string]any{"status": "open"}, `{}`, ""},
		{"the patch's readonly key is ignored", map[string]any{"status": "closed"}, `{"status":"open"}`, "reason"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := e.Patch(patchRequest(tt.patch), tt.current)
			fes := fieldErrorsOrNone(err)
			switch {
			case tt.fails == "" && err != nil:
				t.Errorf("Patch: %v; want no error", err)
			case tt.fails != "" && (len(fes) != 1 || fes[0].Path != tt.fails || fes[0].Code != "required_if"):
				t.Errorf("Patch: %v; want %s required_if", err, tt.fails)
			}
		})
	}
}
