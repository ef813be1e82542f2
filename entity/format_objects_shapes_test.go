package entity_test

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestMakeOfARequestObjectKeepsFormatsInEveryShape: "Make of an Object of
// the same entity (a request's Object made again by a response) keeps
// formatted values": in groups, merged references, lists of references,
// typed lists with each 'format', formats on defaults, renamed and
// key-cased fields, with a selection or a version on the response, and
// for two fields of one key whose version ranges format differently.
func TestMakeOfARequestObjectKeepsFormatsInEveryShape(t *testing.T) {
	type ent struct {
		name string
		decl []string
	}
	tests := []struct {
		name     string
		keyCase  entity.KeyCaseStyle
		ents     []ent
		body     string // the request, in the wire form
		reqOpts  []entity.Option
		respOpts []entity.Option
		want     string // the response Make writes of the request's Object
	}{
		{name: "in a group", ents: []ent{{"e", []string{
			"g", "{", "", "u", "date", "format unix", "ms", "date", "format unixms", "g", "}", ""}}},
			body: `{"g":{"u":1577836800,"ms":1577836800123}}`, want: `{"g":{"u":1577836800,"ms":1577836800123}}`},
		{name: "in a merged reference", ents: []ent{
			{"st", []string{"u", "date", "format unix", "r", "date", "format rfc1123"}},
			{"e", []string{"n", "string", "", "s", "$st", "merge"}}},
			body: `{"n":"a","u":1577836800,"r":"Wed, 01 Jan 2020 00:00:00 GMT"}`,
			want: `{"n":"a","u":1577836800,"r":"Wed, 01 Jan 2020 00:00:00 GMT"}`},
		{name: "in a list of references, typed lists inside", ents: []ent{
			{"st", []string{"lu", "[]date", "each 'format unixms'", "fx", "[]float", "each 'format fixed 1'"}},
			{"e", []string{"rs", "[]$st", ""}}},
			body:    `{"rs":[{"lu":[1577836800123,null],"fx":[1.5]},{"lu":[],"fx":null}]}`,
			reqOpts: []entity.Option{entity.Lax()}, // a strict request refuses the null element
			want:    `{"rs":[{"lu":[1577836800123,null],"fx":[1.5]},{"lu":[],"fx":null}]}`},
		{name: "a layout and fixed", ents: []ent{{"e", []string{
			"lay", "date", "format '02 Jan 06 15:04 MST'", "dt", "date", "format date", "fx", "float", "format fixed 3"}}},
			body: `{"lay":"01 Jan 20 10:00 UTC","dt":"2020-01-01","fx":2.125}`,
			want: `{"lay":"01 Jan 20 10:00 UTC","dt":"2020-01-01","fx":2.125}`},
		{name: "a formatted default", ents: []ent{{"e", []string{
			"u", "date", "format unix | default '2020-01-01'", "fx", "float", "format fixed 2 | default 1"}}},
			body: `{}`, want: `{"u":1577836800,"fx":1.00}`},
		{name: "renamed and key-cased", keyCase: entity.CamelCase, ents: []ent{{"e", []string{
			"seen_at", "date", "format unix", "b", "date", "format unixms | rename 'B_at'"}}},
			body: `{"seenAt":1577836800,"B_at":1577836800000}`, want: `{"seenAt":1577836800,"B_at":1577836800000}`},
		{name: "a response with a selection", ents: []ent{{"e", []string{
			"u", "date", "format unix", "ms", "date", "format unixms", "n", "string", ""}}},
			body: `{"u":1577836800,"ms":1577836800123,"n":"a"}`, respOpts: []entity.Option{entity.Select("u,ms")},
			want: `{"u":1577836800,"ms":1577836800123}`},
		{name: "one key, a format per version range, v1 both", ents: []ent{{"e", []string{
			"d", "date", "until 'v2' | format unix", "d", "date", "since 'v2' | format unixms"}}},
			body: `{"d":1577836800}`, reqOpts: []entity.Option{entity.Version("v1")}, respOpts: []entity.Option{entity.Version("v1")},
			want: `{"d":1577836800}`},
		{name: "one key, a format per version range, v1 request, v3 response", ents: []ent{{"e", []string{
			"d", "date", "until 'v2' | format unix", "d", "date", "since 'v2' | format unixms"}}},
			body: `{"d":1577836800}`, reqOpts: []entity.Option{entity.Version("v1")}, respOpts: []entity.Option{entity.Version("v3")},
			want: `{"d":1577836800000}`},
		{name: "one key, a format per version range, v3 request, v1 response", ents: []ent{{"e", []string{
			"d", "date", "until 'v2' | format unix", "d", "date", "since 'v2' | format unixms"}}},
			body: `{"d":1577836800000}`, reqOpts: []entity.Option{entity.Version("v3")}, respOpts: []entity.Option{entity.Version("v1")},
			want: `{"d":1577836800}`},
		{name: "a flag on the response", ents: []ent{{"e", []string{
			"u", "date", "format unix | if 'admin'", "ms", "date", "format unixms"}}},
			body: `{"u":1577836800,"ms":1577836800123}`, reqOpts: []entity.Option{entity.With("admin")}, respOpts: []entity.Option{entity.With("admin")},
			want: `{"u":1577836800,"ms":1577836800123}`},
		{name: "a writeonly sibling", ents: []ent{{"e", []string{
			"pw", "string", "writeonly", "u", "date", "format unix"}}},
			body: `{"pw":"hunter2","u":1577836800}`, want: `{"u":1577836800}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry(entity.KeyCase(tt.keyCase))
			if err := reg.DeclareFlags("admin"); err != nil {
				t.Fatal(err)
			}
			var e *entity.Entity
			for _, en := range tt.ents {
				e = expose(t, reg, en.name, en.decl...)
			}
			o, err := e.MakeRequest(bindRequest("POST", "/", tt.body), tt.reqOpts...)
			if err != nil {
				t.Fatalf("MakeRequest: %v", err)
			}
			got, err := e.MakeJSON(o, tt.respOpts...)
			if err != nil {
				t.Fatalf("MakeJSON(request Object): %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("MakeJSON(request Object) = %s, want %s (the request's Object is %s)", got, tt.want, o)
			}
			again, err := e.Make(o, tt.respOpts...)
			if err != nil {
				t.Fatalf("Make(request Object): %v", err)
			}
			if twice, err := e.MakeJSON(again, tt.respOpts...); err != nil || string(twice) != tt.want {
				t.Errorf("MakeJSON(Make(request Object)) = %s, %v; want %s", twice, err, tt.want)
			}
			if len(tt.reqOpts) == 0 {
				p, _, err := e.Patch(patchRequest(`{}`), o)
				if err != nil {
					t.Fatalf("Patch(current: the request's Object): %v", err)
				}
				if got, err := e.MakeJSON(p, tt.respOpts...); err != nil || string(got) != tt.want {
					t.Errorf("MakeJSON(Patch of the request's Object) = %s, %v; want %s", got, err, tt.want)
				}
			}
		})
	}
}
