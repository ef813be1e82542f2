package entity_test

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/rules"

	"github.com/expose-go/expose/entity"
)

// TestWriteOnlyNotEchoed: an Object MakeRequest made holds the
// writeonly fields (so that Bind fills them); handing it to a response
// call must not write them (README: writeonly is "never written by Make,
// MakeJSON, AppendJSON, MakeList or Write").
func TestWriteOnlyNotEchoed(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "u", "name", "string", "", "password", "string", "writeonly", "id", "number", "readonly")
	req := httptest.NewRequest("POST", "/", strings.NewReader(`{"name":"ann","password":"hunter2","id":3}`))
	req.Header.Set("Content-Type", "application/json")
	o, err := e.MakeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"name":"ann","id":null}`
	out, _ := e.MakeJSON(o)
	app, _ := e.AppendJSON(nil, o)
	made, _ := e.Make(o)
	mb, _ := made.MarshalJSON()
	w := httptest.NewRecorder()
	_ = e.Write(w, o)
	for call, got := range map[string]string{"MakeJSON": string(out), "AppendJSON": string(app), "Make": string(mb), "Write": strings.TrimSpace(w.Body.String())} {
		if got != want {
			t.Errorf("%s(MakeRequest's Object) = %s, want %s", call, got, want)
		}
	}
}

// TestSelectHidesWriteOnly: to a response's Select, a writeonly
// field is one the entity does not have (as an `if` field the call's
// flags hide is): naming it is the same 400 as an unknown name, and no
// error message lists it.
func TestSelectHidesWriteOnly(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "u", "a", "string", "", "password", "string", "writeonly")
	in := map[string]any{"a": "x", "password": "p"}
	if _, err := e.MakeJSON(in, entity.Select("password")); err == nil {
		t.Errorf(`Select("password") on a response succeeded; want the error of an unknown field`)
	}
	_, err := e.MakeJSON(in, entity.Select("nope"))
	if err == nil || strings.Contains(err.Error(), "password") {
		t.Errorf(`Select("nope"): %v; want an error that does not name the writeonly field`, err)
	}
}

// TestInputStageSeesInputAsItCame: README says input-stage checks
// still see the input as it came when a transform runs; the fast path
// (a plain string) runs them after trim, the general path (a named string
// type) before: the same text passes or fails by its Go type.
func TestInputStageSeesInputAsItCame(t *testing.T) {
	reg := entity.NewRegistry()
	err := reg.RegisterRule(rules.Def{Name: "nospace", Stage: rules.Input, Types: rules.Kinds(rules.String), NoPanic: true,
		Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return noSpace{}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	e := expose(t, reg, "one", "v", "string", "trim | nospace")
	type name string
	_, errPlain := e.MakeJSON(map[string]any{"v": " ab "})
	_, errNamed := e.MakeJSON(map[string]any{"v": name(" ab ")})
	if (errPlain == nil) != (errNamed == nil) {
		t.Errorf("string: %v; named string type: %v; want the same", errPlain, errNamed)
	}
}

// noSpace is a Checker and a StringChecker: strings keep the fast path.
type noSpace struct{}

func (noSpace) Check(v rules.Value) error { return noSpace{}.CheckString(v.Str) }
func (noSpace) CheckString(s string) error {
	if strings.ContainsRune(s, ' ') {
		return errors.New("has a space")
	}
	return nil
}
