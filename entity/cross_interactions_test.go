package entity_test

import (
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// crossGot lists an error's field errors as "path code" strings, sorted;
// nil for no error.
func crossGot(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var got []string
	for _, fe := range fieldErrors(t, err) {
		got = append(got, fe.Path+" "+fe.Code)
	}
	slices.Sort(got)
	return got
}

// TestCrossRulesWithShaping: a cross-field rule judges "present" as
// "written and not null (after defaults)", each view with the siblings it
// holds ("a rule that names a field the view lacks is not judged there"),
// and a response does not judge a rule whose field its selection leaves
// out, while a request judges every rule whatever its selection. Defaults,
// omitnil, flags, versions, selections, key case, renames, formats,
// transforms and lists of references each meet the rules here.
func TestCrossRulesWithShaping(t *testing.T) {
	type ent struct {
		name string
		decl []string
	}
	tests := []struct {
		name    string
		keyCase entity.KeyCaseStyle
		ents    []ent // the last is the one made
		request bool  // MakeRequest of the JSON body, else Make of it
		body    string
		opts    []entity.Option
		want    []string // "path code", sorted; nil for success
	}{
		{name: "a default makes the sibling present", ents: []ent{{"e", []string{
			"a", "string", "default 'x'", "b", "string", "required_with 'a'"}}},
			body: `{}`, want: []string{"b required_with"}},
		{name: "a default makes the sibling present (request)", request: true, ents: []ent{{"e", []string{
			"a", "string", "default 'x'", "b", "string", "required_with 'a'"}}},
			body: `{}`, want: []string{"b required_with"}},
		{name: "a default satisfies required_without", ents: []ent{{"e", []string{
			"a", "string", "default 'x'", "b", "string", "required_without 'a'"}}},
			body: `{}`},
		{name: "a default is excluded", request: true, ents: []ent{{"e", []string{
			"a", "string", "default 'x'", "b", "string", "excluded_with 'a'"}}},
			body: `{"b":"y"}`, want: []string{"b excluded_with"}},
		{name: "a default on the target satisfies required_with", request: true, ents: []ent{{"e", []string{
			"a", "string", "", "b", "string", "required_with 'a' | default 'z'"}}},
			body: `{"a":"x"}`},
		{name: "a default of the sibling matches required_if", request: true, ents: []ent{{"e", []string{
			"kind", "string", "default 'ship'", "addr", "string", "required_if 'kind' 'ship'"}}},
			body: `{}`, want: []string{"addr required_if"}},
		{name: "a null omitnil sibling is absent", request: true, ents: []ent{{"e", []string{
			"a", "string", "omitnil", "b", "string", "required_with 'a'"}}},
			body: `{"a":null}`},
		{name: "a value that does not convert is absent (lax)", ents: []ent{{"e", []string{
			"a", "number", "", "b", "string", "required_with 'a'"}}},
			body: `{"a":"abc"}`},
		{name: "required_if compares the written number", request: true, ents: []ent{{"e", []string{
			"n", "number", "", "b", "string", "required_if 'n' '01'"}}},
			body: `{"n":1}`, want: []string{"b required_if"}},
		{name: "required_if compares the written number, from a string", request: true, ents: []ent{{"e", []string{
			"n", "number", "", "b", "string", "required_if 'n' 1"}}},
			body: `{"n":"1"}`, want: []string{"b required_if"}},
		{name: "required_if compares the written bool", request: true, ents: []ent{{"e", []string{
			"f", "bool", "", "b", "string", "required_if 'f' 'on'"}}},
			body: `{"f":true}`, want: []string{"b required_if"}},
		{name: "required_if compares the written date", request: true, ents: []ent{{"e", []string{
			"d", "date", "", "b", "string", "required_if 'd' '2020-01-02'"}}},
			body: `{"d":"2020-01-02T00:00:00Z"}`, want: []string{"b required_if"}},
		{name: "required_if compares the formatted date", request: true, ents: []ent{{"e", []string{
			"d", "date", "format unix", "b", "string", "required_if 'd' '2020-01-02'"}}},
			body: `{"d":1577923200}`, want: []string{"b required_if"}},
		{name: "required_if compares the transformed string", request: true, ents: []ent{{"e", []string{
			"k", "string", "lower", "b", "string", "required_if 'k' 'SHIP'"}}},
			body: `{"k":"Ship"}`, want: []string{"b required_if"}},
		{name: "required_if compares the float", request: true, ents: []ent{{"e", []string{
			"x", "float", "", "b", "string", "required_if 'x' '1.50'"}}},
			body: `{"x":1.5}`, want: []string{"b required_if"}},
		{name: "a sibling hidden by a flag: required_with not judged", ents: []ent{{"e", []string{
			"a", "string", "if 'admin'", "b", "string", "required_with 'a'"}}},
			body: `{"a":"x"}`, opts: []entity.Option{entity.With("guest")}},
		{name: "a sibling shown by a flag: required_with judged", ents: []ent{{"e", []string{
			"a", "string", "if 'admin'", "b", "string", "required_with 'a'"}}},
			body: `{"a":"x"}`, opts: []entity.Option{entity.With("admin")}, want: []string{"b required_with"}},
		{name: "a sibling hidden by a flag: required_without not judged", ents: []ent{{"e", []string{
			"a", "string", "if 'admin'", "b", "string", "required_without 'a'"}}},
			body: `{"a":"x"}`},
		{name: "a sibling hidden by a flag: required_without not judged (request)", request: true, ents: []ent{{"e", []string{
			"a", "string", "if 'admin'", "b", "string", "required_without 'a'"}}},
			body: `{"a":"x"}`},
		{name: "a target hidden by unless", request: true, ents: []ent{{"e", []string{
			"a", "string", "", "b", "string", "unless 'guest' | required_with 'a'"}}},
			body: `{"a":"x"}`, opts: []entity.Option{entity.With("guest")}},
		{name: "a target hidden by a flag, excluded_with", request: true, ents: []ent{{"e", []string{
			"a", "string", "", "b", "string", "if 'admin' | excluded_with 'a'"}}},
			body: `{"a":"x","b":"y"}`},
		{name: "a response selection leaves the sibling out", ents: []ent{{"e", []string{
			"a", "string", "", "b", "string", "required_with 'a'"}}},
			body: `{"a":"x"}`, opts: []entity.Option{entity.Select("b")}},
		{name: "a response selection leaves the target out", ents: []ent{{"e", []string{
			"a", "string", "", "b", "string", "required_with 'a'"}}},
			body: `{"a":"x"}`, opts: []entity.Option{entity.Select("a")}},
		{name: "Except leaves the target out", ents: []ent{{"e", []string{
			"a", "string", "", "b", "string", "required_with 'a'"}}},
			body: `{"a":"x"}`, opts: []entity.Option{entity.Except("b")}},
		{name: "a lazy sibling not selected", ents: []ent{{"e", []string{
			"a", "string", "lazy", "b", "string", "excluded_with 'a'"}}},
			body: `{"a":"x","b":"y"}`},
		{name: "a lazy sibling selected", ents: []ent{{"e", []string{
			"a", "string", "lazy", "b", "string", "excluded_with 'a'"}}},
			body: `{"a":"x","b":"y"}`, opts: []entity.Option{entity.Select("a,b")}, want: []string{"b excluded_with"}},
		{name: "a selection into a group leaves the sibling out", ents: []ent{{"e", []string{
			"g", "{", "", "a", "string", "", "b", "string", "required_with 'a'", "g", "}", ""}}},
			body: `{"a":"x"}`, opts: []entity.Option{entity.Select("g/b")}},
		{name: "a request selection judges every rule", request: true, ents: []ent{{"e", []string{
			"a", "string", "", "b", "string", "required_with 'a'"}}},
			body: `{"a":"x"}`, opts: []entity.Option{entity.Select("a")}, want: []string{"b required_with"}},
		{name: "a request Only judges every rule", request: true, ents: []ent{{"e", []string{
			"a", "string", "", "b", "string", "required_without 'a'"}}},
			body: `{}`, opts: []entity.Option{entity.Only("a")}, want: []string{"b required_without"}},
		{name: "a writeonly sibling in a response is not judged", ents: []ent{{"e", []string{
			"pw", "string", "writeonly", "b", "string", "required_without 'pw'"}}},
			body: `{"pw":"x"}`},
		{name: "a writeonly sibling in a request is judged", request: true, ents: []ent{{"e", []string{
			"pw", "string", "writeonly", "b", "string", "excluded_with 'pw'"}}},
			body: `{"pw":"x","b":"y"}`, want: []string{"b excluded_with"}},
		{name: "a readonly sibling in a request is not judged", request: true, ents: []ent{{"e", []string{
			"id", "number", "readonly", "b", "string", "required_without 'id'"}}},
			body: `{"id":1}`},
		{name: "a readonly sibling in a response is judged", ents: []ent{{"e", []string{
			"id", "number", "readonly", "b", "string", "required_without 'id'"}}},
			body: `{}`, want: []string{"b required_without"}},
		{name: "a sibling of the other version range", ents: []ent{{"e", []string{
			"a", "string", "until 'v2'", "b", "string", "required_without 'a'"}}},
			body: `{"a":"x"}`, opts: []entity.Option{entity.Version("v3")}},
		{name: "a name in two version ranges, judged in v1's", request: true, ents: []ent{{"e", []string{
			"k", "string", "until 'v2' | lower", "k", "string", "since 'v2'", "b", "string", "required_if 'k' 'Ship'"}}},
			body: `{"k":"Ship"}`, opts: []entity.Option{entity.Version("v1")}, want: []string{"b required_if"}},
		{name: "a name in two version ranges, judged in v3's", request: true, ents: []ent{{"e", []string{
			"k", "string", "until 'v2' | lower", "k", "string", "since 'v2'", "b", "string", "required_if 'k' 'Ship'"}}},
			body: `{"k":"Ship"}`, opts: []entity.Option{entity.Version("v3")}, want: []string{"b required_if"}},
		{name: "a name in two version ranges, judged in v3's (response)", ents: []ent{{"e", []string{
			"k", "string", "until 'v2' | lower", "k", "string", "since 'v2'", "b", "string", "required_if 'k' 'Ship'"}}},
			body: `{"k":"Ship"}`, opts: []entity.Option{entity.Version("v3")}, want: []string{"b required_if"}},
		{name: "a name in two version ranges, no version (the latest range)", request: true, ents: []ent{{"e", []string{
			"k", "string", "until 'v2' | lower", "k", "string", "since 'v2'", "b", "string", "required_if 'k' 'Ship'"}}},
			body: `{"k":"Ship"}`, want: []string{"b required_if"}},
		{name: "a name in two version ranges, the old one's value in v3", request: true, ents: []ent{{"e", []string{
			"k", "string", "until 'v2' | lower", "k", "string", "since 'v2'", "b", "string", "required_if 'k' 'Ship'"}}},
			body: `{"k":"ship"}`, opts: []entity.Option{entity.Version("v3")}},
		{name: "a name in two version ranges, only the old one present", ents: []ent{{"e", []string{
			"k", "string", "until 'v2'", "k", "number", "since 'v2' | omitnil", "b", "string", "required_with 'k'"}}},
			body: `{"k":"x"}`, opts: []entity.Option{entity.Version("v3")}},
		{name: "key case: the rules name declared names", keyCase: entity.CamelCase, request: true, ents: []ent{{"e", []string{
			"user_type", "string", "", "ship_to", "string", "required_if 'user_type' 'ship'"}}},
			body: `{"userType":"ship"}`, want: []string{"shipTo required_if"}}, // a request's Path is the key it read,
		{name: "key case (response)", keyCase: entity.CamelCase, ents: []ent{{"e", []string{
			"user_type", "string", "", "ship_to", "string", "required_if 'user_type' 'ship'"}}},
			body: `{"user_type":"ship"}`, want: []string{"ship_to required_if"}},
		{name: "key case: present under its cased key", keyCase: entity.CamelCase, request: true, ents: []ent{{"e", []string{
			"user_type", "string", "", "ship_to", "string", "required_if 'user_type' 'ship'"}}},
			body: `{"userType":"ship","shipTo":"x"}`},
		{name: "a renamed sibling", request: true, ents: []ent{{"e", []string{
			"a", "string", "rename 'A2'", "b", "string", "rename 'B2' | required_with 'a'"}}},
			body: `{"A2":"x"}`, want: []string{"B2 required_with"}},
		{name: "a renamed sibling sent by its declared name", request: true, ents: []ent{{"e", []string{
			"a", "string", "rename 'A2'", "b", "string", "required_with 'a'"}}},
			body: `{"a":"x"}`},
		{name: "rules in a list of references", request: true, ents: []ent{
			{"item", []string{"x", "string", "", "y", "string", "required_with 'x'", "z", "string", "excluded_with 'x'"}},
			{"e", []string{"items", "[]$item", ""}}},
			body: `{"items":[{"y":"1"},{"x":"1","z":"2"},{"x":"1","y":"2"}]}`, want: []string{"items[1].y required_with", "items[1].z excluded_with"}},
		{name: "rules in a list of references (response)", ents: []ent{
			{"item", []string{"x", "string", "", "y", "string", "required_without 'x'"}},
			{"e", []string{"items", "[]$item", ""}}},
			body: `{"items":[{"x":"1"},{},{"y":"1"}]}`, want: []string{"items[1].y required_without"}},
		{name: "rules in a merged reference", request: true, ents: []ent{
			{"m", []string{"x", "string", "", "y", "string", "required_with 'x'"}},
			{"e", []string{"n", "string", "", "mm", "$m", "merge"}}},
			body: `{"x":"1"}`, want: []string{"y required_with"}}, // the merged keys are the body's own
		{name: "rules in a reference's group", request: true, ents: []ent{
			{"m", []string{"g", "{", "", "x", "string", "", "y", "string", "required_with 'x'", "g", "}", ""}},
			{"e", []string{"r", "$m", ""}}},
			body: `{"r":{"g":{"x":"1"}}}`, want: []string{"r.g.y required_with"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry(entity.KeyCase(tt.keyCase))
			if err := reg.DeclareFlags("admin", "guest"); err != nil {
				t.Fatal(err)
			}
			var e *entity.Entity
			for _, en := range tt.ents {
				e = expose(t, reg, en.name, en.decl...)
			}
			var err error
			if tt.request {
				_, err = e.MakeRequest(bindRequest("POST", "/", tt.body), tt.opts...)
			} else {
				_, err = e.Make([]byte(tt.body), tt.opts...)
			}
			if got := crossGot(t, err); !slices.Equal(got, tt.want) {
				t.Errorf("errors = %q (%v), want %q", got, err, tt.want)
			}
		})
	}
}

// TestCrossRuleRefusesGroups: "groups are refused at Expose as targets and
// as named fields", by every cross rule, whatever range or depth names
// them.
func TestCrossRuleRefusesGroups(t *testing.T) {
	grp := []string{"g", "{", "", "c", "string", "", "g", "}", ""}
	tests := []struct {
		name string
		decl []string
	}{
		{"required_with names a group", append(slices.Clone(grp), "b", "string", "required_with 'g'")},
		{"required_without names a group", append(slices.Clone(grp), "b", "string", "required_without 'g'")},
		{"excluded_with names a group", append(slices.Clone(grp), "b", "string", "excluded_with 'g'")},
		{"required_if names a group", append(slices.Clone(grp), "b", "string", "required_if 'g' 'x'")},
		{"a group is a required_with target", []string{"a", "string", "", "g", "{", "required_with 'a'", "c", "string", "", "g", "}", ""}},
		{"a group is an excluded_with target", []string{"a", "string", "", "g", "{", "excluded_with 'a'", "c", "string", "", "g", "}", ""}},
		{"a group is a required_if target", []string{"a", "string", "", "g", "{", "required_if 'a' 'x'", "c", "string", "", "g", "}", ""}},
		{"a name that is a group in one range", []string{
			"g", "string", "until 'v2'", "g", "{", "since 'v2'", "c", "string", "", "g", "}", "", "b", "string", "required_with 'g'"}},
		{"a name that is a group in the other range", []string{
			"g", "{", "until 'v2'", "c", "string", "", "g", "}", "", "g", "string", "since 'v2'", "b", "string", "required_without 'g'"}},
		{"a group named among fields", append(slices.Clone(grp), "a", "string", "", "b", "string", "required_with 'a' 'g'")},
		{"a nested group named in a group", []string{"o", "{", "", "g", "{", "", "c", "string", "", "g", "}", "", "b", "string", "required_with 'g'", "o", "}", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := entity.NewRegistry().Expose("e", tt.decl...)
			if err == nil {
				t.Errorf("Expose succeeded: a cross rule of a group, or naming one, should be refused")
			}
		})
	}
}

// TestCrossRuleNamesNoSecretValueAnywhere: a required_if naming a secret
// field "names none of its values" (Error(), Message, Params, the problem
// body): a field secret by a `secret` $ref around it, a rule in a list of
// references, the field's own msg with a {values} placeholder, key case,
// Japanese messages, a request and a response alike.
func TestCrossRuleNamesNoSecretValueAnywhere(t *testing.T) {
	const val = "zq9731"
	type ent struct {
		name string
		decl []string
	}
	tests := []struct {
		name    string
		keyCase entity.KeyCaseStyle
		ents    []ent
		body    string
		data    string // the server data's form, when it is not body's
	}{
		{name: "secret sibling, msg with {values}", ents: []ent{{"e", []string{
			"pin", "string", "secret", "why", "string", "required_if 'pin' '" + val + "' | msg 'needed when {other} is {values}'"}}},
			body: `{"pin":"` + val + `"}`},
		{name: "secret sibling, msg with {value}", ents: []ent{{"e", []string{
			"pin", "string", "secret", "why", "string", "required_if 'pin' '" + val + "' | msg 'needed when {field} is {value}'"}}},
			body: `{"pin":"` + val + `"}`},
		{name: "secret by a secret $ref", ents: []ent{
			{"inner", []string{"pin", "string", "", "why", "string", "required_if 'pin' '" + val + "'"}},
			{"e", []string{"in", "$inner", "secret"}}},
			body: `{"in":{"pin":"` + val + `"}}`},
		{name: "secret by a secret []$ref", ents: []ent{
			{"inner", []string{"pin", "string", "", "why", "string", "required_if 'pin' '" + val + "'"}},
			{"e", []string{"in", "[]$inner", "secret"}}},
			body: `{"in":[{"pin":"` + val + `"}]}`},
		{name: "secret in a list of references", ents: []ent{
			{"inner", []string{"pin", "string", "secret", "why", "string", "required_if 'pin' 'a' '" + val + "'"}},
			{"e", []string{"in", "[]$inner", ""}}},
			body: `{"in":[{"pin":"` + val + `"}]}`},
		{name: "secret under key case", keyCase: entity.CamelCase, ents: []ent{{"e", []string{
			"the_pin", "string", "secret", "the_why", "string", "required_if 'the_pin' '" + val + "'"}}},
			body: `{"thePin":"` + val + `"}`, data: `{"the_pin":"` + val + `"}`},
		{name: "secret number", ents: []ent{{"e", []string{
			"pin", "number", "secret", "why", "string", "required_if 'pin' 97310"}}},
			body: `{"pin":97310}`},
		{name: "secret sibling in a merged ref", ents: []ent{
			{"inner", []string{"pin", "string", "secret", "why", "string", "required_if 'pin' '" + val + "'"}},
			{"e", []string{"a", "string", "", "in", "$inner", "merge"}}},
			body: `{"pin":"` + val + `"}`, data: `{"in":{"pin":"` + val + `"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry(entity.KeyCase(tt.keyCase))
			var e *entity.Entity
			for _, en := range tt.ents {
				var err error
				e, err = reg.Expose(en.name, en.decl...)
				if err != nil {
					if strings.Contains(err.Error(), "placeholder") {
						return // a msg naming the secret values refused: as good
					}
					t.Fatalf("Expose: %v", err)
				}
			}
			secretVal := val
			if strings.Contains(tt.name, "number") {
				secretVal = "97310"
			}
			for _, lang := range []string{"en", "ja"} {
				calls := map[string]func() error{
					"request": func() error {
						r := bindRequest("POST", "/", tt.body)
						r.Header.Set("Accept-Language", lang)
						_, err := e.MakeRequest(r)
						return err
					},
					"server data": func() error {
						data := tt.data
						if data == "" {
							data = tt.body
						}
						_, err := e.Make([]byte(data), entity.Lang(lang))
						return err
					},
				}
				for what, call := range calls {
					err := call()
					if err == nil {
						t.Errorf("%s %s: no error, the rule should fail", lang, what)
						continue
					}
					w := httptest.NewRecorder()
					reg.WriteError(w, err)
					texts := map[string]string{"Error()": err.Error(), "problem": w.Body.String()}
					for _, fe := range fieldErrors(t, err) {
						texts["Message"] += fe.Message + "|" + fe.Error()
						for k, v := range fe.Params {
							texts["Params"] += k + "=" + fmt.Sprint(v) + ";"
						}
					}
					for k, s := range texts {
						if strings.Contains(s, secretVal) {
							t.Errorf("%s %s: %s = %q holds the secret value", lang, what, k, s)
						}
					}
				}
			}
		})
	}
}
