package entity_test

// The reference model on the README's own examples: it must give what the
// README shows, and so must the library.

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

var mdlSeedDecls = []mdlDecl{
	{"user", []string{
		"id", "number", "num | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown'",
	}},
	{"users", []string{
		"offset", "number", "default 0",
		"limit", "number", "default 0",
		"list", "$user", "",
	}},
}

func TestModelReadmeExamples(t *testing.T) {
	tests := []struct {
		name string
		cs   mdlCase
		want string
	}{
		{"quick start", mdlCase{
			decls:  []mdlDecl{{"quickuser", []string{"id", "number", "num | rename 'number'", "name", "string", "req"}}},
			entity: "quickuser",
			input:  map[string]any{"id": "12", "name": "maachang", "x": 1},
		}, `{"number":12,"name":"maachang"}`},
		{"the seed", mdlCase{
			decls:  mdlSeedDecls,
			entity: "users",
			input: map[string]any{"limit": 2, "list": []any{
				map[string]any{"id": "12", "name": "maachang", "age": 40, "mail": "maachang@maachang.com"},
				map[string]any{"id": "21", "name": "saito", "age": 27, "mail": "saito@maachang.com"}}},
		}, `{"offset":0,"limit":2,"list":[{"number":12,"name":"maachang","details":{"age":40,"mail":"maachang@maachang.com"},"code":"unknown"},{"number":21,"name":"saito","details":{"age":27,"mail":"saito@maachang.com"},"code":"unknown"}]}`},
		{"key case", mdlCase{
			keyCase: entity.CamelCase,
			decls: []mdlDecl{{"user", []string{
				"user_id", "number", "",
				"http_code", "number", "",
				"contact_info", "{", "",
				"mail_address", "string", "",
				"contact_info", "}", "",
				"full_name", "string", "rename 'full_name'",
			}}},
			entity: "user",
			input:  map[string]any{"user_id": 1, "http_code": 200, "mail_address": "a@example.com", "full_name": "Ann Lee"},
		}, `{"userId":1,"httpCode":200,"contactInfo":{"mailAddress":"a@example.com"},"full_name":"Ann Lee"}`},
		{"select", mdlCase{
			decls:  mdlSeedDecls,
			entity: "users",
			input: map[string]any{"limit": 2, "list": []any{
				map[string]any{"id": 1000, "name": "maachang0", "mail": "maachang0@example0.com"},
				map[string]any{"id": 1007, "name": "saito1", "mail": "saito1@example1.com"}}},
			opts: mdlOpts{hasSel: true, sel: "limit,list(number,details/mail)"},
		}, `{"limit":2,"list":[{"number":1000,"details":{"mail":"maachang0@example0.com"}},{"number":1007,"details":{"mail":"saito1@example1.com"}}]}`},
		{"trim lower email", mdlCase{
			decls:  []mdlDecl{{"m", []string{"mail", "string", "trim | lower | email"}}},
			entity: "m",
			input:  map[string]any{"mail": " Ann@Example.COM "},
		}, `{"mail":"ann@example.com"}`},
		{"versions", mdlCase{
			decls: []mdlDecl{{"v", []string{
				"id", "string", "until 'v2' | rename 'number'",
				"id", "number", "num | since 'v2' | rename 'number'",
			}}},
			entity: "v",
			input:  []any{map[string]any{"id": 1000}},
			opts:   mdlOpts{version: "v1"},
		}, `[{"number":"1000"}]`},
		{"raw JSON", mdlCase{
			decls:  []mdlDecl{{"r", []string{"n", "none", "", "l", "list", "", "f", "float", "", "s", "string", ""}}},
			entity: "r",
			input:  []byte(`{"n": {"b": 1.50, "a": [1e2]}, "l": [ 1 , "\u0041" ], "f": 1e2, "s": -0}`),
		}, `{"n":{"b":1.50,"a":[1e2]},"l":[1,"\u0041"],"f":100,"s":"-0"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.cs.model()
			if err != nil {
				t.Fatal(err)
			}
			if string(got.json) != tt.want {
				t.Errorf("model: %s\nwant %s", got, tt.want)
			}
			reg, err := tt.cs.build()
			if err != nil {
				t.Fatal(err)
			}
			lib, _ := tt.cs.walker(reg)
			if d := mdlDiff(lib, got); d != "" {
				t.Errorf("%s", d)
			}
		})
	}
}
