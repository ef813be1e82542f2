package entitytest

import (
	"net/http/httptest"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestConformJudgesCrossRulesAsMakeDoes: Conform and CheckResponse "judge
// the cross rules as Make does", in every shape a response takes: rules
// naming siblings by declared names under key case and renames, inside
// groups, lists of references and merged references, with omitted
// siblings (absent), a Partial payload that leaves a field out (not
// judged, as a selection's response does not judge it), flags and
// version ranges given by Call.
func TestConformJudgesCrossRulesAsMakeDoes(t *testing.T) {
	type ent struct {
		name string
		decl []string
	}
	tests := []struct {
		name    string
		keyCase entity.KeyCaseStyle
		ents    []ent // the last is checked
		payload string
		opts    []Option
		ok      bool // whether the payload is one Make writes
	}{
		{name: "key case, required_if holds", keyCase: entity.CamelCase, ents: []ent{{"e", []string{
			"user_type", "string", "", "ship_to", "string", "required_if 'user_type' 'ship'"}}},
			payload: `{"userType":"ship","shipTo":"x"}`, ok: true},
		{name: "key case, required_if fails", keyCase: entity.CamelCase, ents: []ent{{"e", []string{
			"user_type", "string", "", "ship_to", "string", "required_if 'user_type' 'ship'"}}},
			payload: `{"userType":"ship","shipTo":null}`},
		{name: "renamed, excluded_with fails", ents: []ent{{"e", []string{
			"a", "string", "rename 'A'", "b", "string", "rename 'B' | excluded_with 'a'"}}},
			payload: `{"A":"x","B":"y"}`},
		{name: "renamed, excluded_with holds", ents: []ent{{"e", []string{
			"a", "string", "rename 'A'", "b", "string", "rename 'B' | excluded_with 'a'"}}},
			payload: `{"A":null,"B":"y"}`, ok: true},
		{name: "in a group", ents: []ent{{"e", []string{
			"g", "{", "", "a", "string", "", "b", "string", "required_with 'a'", "g", "}", ""}}},
			payload: `{"g":{"a":"x","b":null}}`},
		{name: "in a list of references", ents: []ent{
			{"item", []string{"a", "string", "", "b", "string", "required_without 'a'"}},
			{"e", []string{"items", "[]$item", ""}}},
			payload: `{"items":[{"a":"x","b":null},{"a":null,"b":null}]}`},
		{name: "in a list of references, holding", ents: []ent{
			{"item", []string{"a", "string", "", "b", "string", "required_without 'a'"}},
			{"e", []string{"items", "[]$item", ""}}},
			payload: `{"items":[{"a":"x","b":null},{"a":null,"b":"y"}]}`, ok: true},
		{name: "in a merged reference", ents: []ent{
			{"m", []string{"a", "string", "", "b", "string", "required_with 'a'"}},
			{"e", []string{"n", "string", "", "mm", "$m", "merge"}}},
			payload: `{"n":"z","a":"x","b":null}`},
		{name: "an omitempty sibling absent", ents: []ent{{"e", []string{
			"a", "string", "omitempty", "b", "string", "required_without 'a'"}}},
			payload: `{"b":null}`},
		{name: "an omitnil sibling absent, required_with", ents: []ent{{"e", []string{
			"a", "string", "omitnil", "b", "string", "required_with 'a'"}}},
			payload: `{"b":null}`, ok: true},
		{name: "Partial leaves the sibling out", ents: []ent{{"e", []string{
			"a", "string", "", "b", "string", "required_without 'a'"}}},
			payload: `{"b":null}`, opts: []Option{Partial()}, ok: true},
		{name: "Partial leaves the target out", ents: []ent{{"e", []string{
			"a", "string", "", "b", "string", "required_with 'a'"}}},
			payload: `{"a":"x"}`, opts: []Option{Partial()}, ok: true},
		{name: "a flag hides the sibling", ents: []ent{{"e", []string{
			"a", "string", "if 'admin'", "b", "string", "required_without 'a'"}}},
			payload: `{"b":null}`, ok: true},
		{name: "a flag shows the sibling", ents: []ent{{"e", []string{
			"a", "string", "if 'admin'", "b", "string", "excluded_with 'a'"}}},
			payload: `{"a":"x","b":"y"}`, opts: []Option{Call(entity.With("admin"))}},
		{name: "a version range, v3", ents: []ent{{"e", []string{
			"k", "string", "until 'v2' | lower", "k", "string", "since 'v2'", "b", "string", "required_if 'k' 'Ship'"}}},
			payload: `{"k":"Ship","b":null}`, opts: []Option{Call(entity.Version("v3"))}},
		{name: "a version range, v1", ents: []ent{{"e", []string{
			"k", "string", "until 'v2' | lower", "k", "string", "since 'v2'", "b", "string", "required_if 'k' 'Ship'"}}},
			payload: `{"k":"ship","b":null}`, opts: []Option{Call(entity.Version("v1"))}},
		{name: "required_if on a number", ents: []ent{{"e", []string{
			"n", "number", "", "b", "string", "required_if 'n' '01'"}}},
			payload: `{"n":1,"b":null}`},
		{name: "required_if on a float", ents: []ent{{"e", []string{
			"n", "float", "", "b", "string", "required_if 'n' 1.50"}}},
			payload: `{"n":1.5,"b":null}`},
		{name: "a writeonly sibling is not in a response", ents: []ent{{"e", []string{
			"pw", "string", "writeonly", "b", "string", "required_without 'pw'"}}},
			payload: `{"b":null}`, ok: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry(entity.KeyCase(tt.keyCase))
			if err := reg.DeclareFlags("admin"); err != nil {
				t.Fatal(err)
			}
			var e *entity.Entity
			for _, en := range tt.ents {
				var err error
				if e, err = reg.Expose(en.name, en.decl...); err != nil {
					t.Fatal(err)
				}
			}
			tb := &fakeTB{}
			if got := Conform(tb, e, []byte(tt.payload), tt.opts...); got != tt.ok {
				t.Errorf("Conform(%s) = %v, want %v (errors %q)", tt.payload, got, tt.ok, tb.errors)
			}
			rec := httptest.NewRecorder()
			rec.Header().Set("Content-Type", "application/json; charset=utf-8")
			rec.WriteHeader(200)
			rec.Body.WriteString(tt.payload)
			tb = &fakeTB{}
			if got := CheckResponse(tb, rec, e, 200, tt.opts...); got != tt.ok {
				t.Errorf("CheckResponse(%s) = %v, want %v (errors %q)", tt.payload, got, tt.ok, tb.errors)
			}
		})
	}
}
