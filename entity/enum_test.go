package entity_test

import (
	"errors"
	"testing"

	"github.com/expose-go/expose/entity"
)

// The rules `in` and `len` (rules/in.go, rules/length.go) in declarations:
// alone and with rename, default, req, groups, references, lists, raw JSON
// and struct inputs, and Strict.

type enumStruct struct {
	Role string
	N    int
	Tags []string
}

func TestRuleInLen(t *testing.T) {
	refs := map[string][]string{"u": {"role", "string", "in admin user"}}
	runDeclCases(t, refs, []declCase{
		{name: "in passes", decl: []string{"Role", "string", "in admin user"}, in: `{"Role":"user"}`,
			st: func() any { return enumStruct{Role: "user"} }, out: `{"Role":"user"}`},
		{name: "in fails", decl: []string{"Role", "string", "in admin user"}, in: `{"Role":"root"}`,
			st: func() any { return enumStruct{Role: "root"} }, fails: []string{"Role in"}},
		{name: "in on a number field compares after conversion", decl: []string{"N", "number", "in 1 2 3"}, in: `{"N":"2"}`,
			out: `{"N":2}`},
		{name: "in on a number field fails", decl: []string{"N", "number", "in 1 2 3"}, in: `{"N":4}`,
			st: func() any { return enumStruct{N: 4} }, fails: []string{"N in"}},
		{name: "in on a float field", decl: []string{"f", "float", "in 0.5 1"}, in: `{"f":1.0}`, out: `{"f":1}`},
		{name: "in on a bool field", decl: []string{"b", "bool", "in true"}, in: `{"b":"on"}`, out: `{"b":true}`},
		{name: "in on a date field", decl: []string{"d", "date", "in 2024-01-15"}, in: `{"d":"2024-01-15T00:00:00Z"}`, out: `{"d":"2024-01-15T00:00:00Z"}`},
		{name: "in with rename", decl: []string{"Role", "string", "in a b | rename r"}, in: `{"Role":"c"}`, fails: []string{"Role in"}},
		{name: "in absent, no req", decl: []string{"Role", "string", "in a b"}, in: `{}`, out: `{"Role":null}`},
		{name: "in absent, req", decl: []string{"Role", "string", "req | in a b"}, in: `{}`, fails: []string{"Role required"}},
		{name: "in with a default", decl: []string{"Role", "string", "in a b | default b"}, in: `{}`, out: `{"Role":"b"}`},
		{name: "in within a group", decl: []string{"g", "{", "", "Role", "string", "in a", "g", "}", ""}, in: `{"Role":"x"}`, fails: []string{"Role in"}},
		{name: "in under a reference", decl: []string{"u", "$u", ""}, in: `{"u":{"role":"x"}}`, fails: []string{"u.role in"}},
		{name: "in under a list of references", decl: []string{"u", "$u", ""}, in: `{"u":[{"role":"user"},{"role":"x"}]}`, fails: []string{"u[1].role in"}},
		{name: "in strict", decl: []string{"N", "number", "in 1 2"}, in: `{"N":1.5}`, strict: true, fails: []string{"N type"}},
		{name: "in strict passes", decl: []string{"N", "number", "in 1 2"}, in: `{"N":1}`, strict: true, out: `{"N":1}`},
		{name: "len on a string", decl: []string{"Role", "string", "len 2"}, in: `{"Role":"日本"}`,
			st: func() any { return enumStruct{Role: "日本"} }, out: `{"Role":"日本"}`},
		{name: "len on a string fails", decl: []string{"Role", "string", "len 2"}, in: `{"Role":"abc"}`,
			st: func() any { return enumStruct{Role: "abc"} }, fails: []string{"Role len"}},
		{name: "len on a list", decl: []string{"Tags", "list", "len 2"}, in: `{"Tags":["a","b"]}`,
			st: func() any { return enumStruct{Tags: []string{"a", "b"}} }, out: `{"Tags":["a","b"]}`},
		{name: "len on a list fails", decl: []string{"Tags", "list", "len 2"}, in: `{"Tags":["a"]}`,
			st: func() any { return enumStruct{Tags: []string{"a"}} }, fails: []string{"Tags len"}},
		{name: "len on an object", decl: []string{"o", "object", "len 1"}, in: `{"o":{"a":1}}`, out: `{"o":{"a":1}}`},
		{name: "len on an object fails", decl: []string{"o", "object", "len 1"}, in: `{"o":{}}`, fails: []string{"o len"}},
		{name: "len and in", decl: []string{"Role", "string", "len 1 | in a bb"}, in: `{"Role":"bb"}`, fails: []string{"Role len"}},
	})
}

func TestRuleInLenMessages(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "t",
		"role", "string", "in admin 'power user'",
		"n", "number", "in 1 2",
		"code", "string", "len 3",
		"tags", "list", "len 2",
		"o", "object", "len 1",
	)
	in := map[string]any{"role": "x", "n": 3, "code": "ab", "tags": []any{1}, "o": map[string]any{}}
	tests := []struct {
		lang string
		want []string
	}{
		{"en", []string{`must be one of "admin", "power user"`, "must be one of 1, 2", "must be exactly 3 characters long", "must have exactly 2 elements", "must have exactly 1 key"}},
		{"ja", []string{"admin, power userのいずれかを指定してください", "1, 2のいずれかを指定してください", "3文字で入力してください", "要素をちょうど2個にしてください", "項目をちょうど1個にしてください"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			_, err := e.MakeJSON(in, entity.Lang(tt.lang))
			var ve *entity.ValidationError
			if !errors.As(err, &ve) || len(ve.Fields) != len(tt.want) {
				t.Fatalf("error %v, want %d field errors", err, len(tt.want))
			}
			for i, fe := range ve.Fields {
				if fe.Message != tt.want[i] {
					t.Errorf("%s: Message %q, want %q", fe.Path, fe.Message, tt.want[i])
				}
			}
			values, ok := ve.Fields[0].Params["values"].([]any)
			if !ok || len(values) != 2 || values[0] != "admin" || values[1] != "power user" {
				t.Errorf("Params[values] = %#v, want [admin power user]", ve.Fields[0].Params["values"])
			}
		})
	}
}
