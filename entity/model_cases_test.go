package entity_test

// The reference model on the README's own examples: it must give what the
// README shows, and so must the library.

import (
	"net/http/httptest"
	"strings"
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
		{"versions: a call without one writes the latest range's field, a writeonly one none", mdlCase{
			decls:  []mdlDecl{{"v", []string{"a", "string", "until 'v2'", "a", "float", "since 'v2' | writeonly", "b", "string", ""}}},
			entity: "v",
			input:  map[string]any{"a": "ab", "b": "x"},
		}, `{"b":"x"}`},
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

// TestModelMatchesLibrary holds cases where the library once disagreed with
// the model and now gives what the docs say: both must give want (an
// outcome as mdlDescribe prints it).
func TestModelMatchesLibrary(t *testing.T) {
	tests := []struct {
		name   string
		cs     mdlCase
		setup  func(cs *mdlCase, reg *entity.Registry)
		detail string // "message": want shows the messages
		want   string
	}{
		{
			name: "DenyUnknown refuses the keys of fields the flags or the version hide beside a from field",
			cs: mdlCase{
				flags:  []string{"admin"},
				decls:  []mdlDecl{{"e0", []string{"b", "string", "if 'admin'", "c", "string", "since 'v2'", "a", "string", "from 'x'"}}},
				entity: "e0",
				input:  map[string]any{"b": "1", "c": "2"},
				opts:   mdlOpts{deny: true, version: "v1"},
			},
			want: "field errors: b:unknown c:unknown",
		},
		{
			name: "a selection naming a field the version hides fails",
			cs: mdlCase{
				decls:  []mdlDecl{{"e0", []string{"a", "string", "", "b", "string", "since 'v3'"}}},
				entity: "e0",
				input:  map[string]any{"a": "x", "b": "y"},
				opts:   mdlOpts{hasSel: true, sel: "a,b", version: "v1"},
			},
			want: "fails: fields",
		},
		{
			name: "msg of a typed list names the field for an element's failure",
			cs: mdlCase{
				decls:  []mdlDecl{{"e0", []string{"tags", "[]string", "each 'min 3' | msg 'bad {field}'"}}},
				entity: "e0",
				input:  map[string]any{"tags": []any{"x"}},
			},
			detail: "message",
			want:   `field errors: tags[0]:min (message "bad tags")`,
		},
		{
			name: "DenyUnknown refuses a group's field names beside the group's from key",
			cs: mdlCase{
				decls:  []mdlDecl{{"e0", []string{"g", "{", "from 'addr'", "city", "string", "", "g", "}", ""}}},
				entity: "e0",
				input:  map[string]any{"addr": map[string]any{"city": "x"}, "city": "y"},
				opts:   mdlOpts{deny: true},
			},
			want: "field errors: city:unknown",
		},
		{
			name: "DenyUnknown knows a key a from path reads though a hidden field is named after it",
			cs: mdlCase{
				flags:  []string{"admin"},
				decls:  []mdlDecl{{"e0", []string{"kid", "string", "", "meta", "string", "if 'admin'", "n", "string", "from 'meta.n'"}}},
				entity: "e0",
				input:  map[string]any{"meta": map[string]any{"n": "x"}},
				opts:   mdlOpts{deny: true},
			},
			want: `{"kid":null,"n":"x"}`,
		},
		{
			name: "a nil slice into a list of references is an empty list",
			cs: mdlCase{
				decls:  []mdlDecl{{"e1", []string{"k", "string", ""}}, {"e0", []string{"l", "[]$e1", ""}}},
				entity: "e0",
				input:  map[string]any{"l": []any(nil)},
			},
			want: `{"l":[]}`,
		},
		{
			name: "a sub-selection of the scalar a version writes fails",
			cs: mdlCase{
				decls: []mdlDecl{
					{"e1", []string{"k", "string", ""}},
					{"e0", []string{"amount", "string", "until 'v2'", "amount", "$e1", "since 'v2'"}},
				},
				entity: "e0",
				input:  map[string]any{"amount": "7"},
				opts:   mdlOpts{hasSel: true, sel: "amount(k)", version: "v1"},
			},
			want: "fails: fields",
		},
		{
			name: "Except of a writeonly field is a declared path that leaves nothing out",
			cs: mdlCase{
				decls:  []mdlDecl{{"e0", []string{"login", "string", "", "pw", "string", "writeonly"}}},
				entity: "e0",
				input:  map[string]any{"login": "ann", "pw": "hunter2"},
				opts:   mdlOpts{hasExcept: true, except: []string{"pw"}},
			},
			want: `{"login":"ann"}`,
		},
		{
			name: "Only of a writeonly field alone writes nothing",
			cs: mdlCase{
				decls:  []mdlDecl{{"e0", []string{"login", "string", "", "g", "{", "writeonly", "pw", "string", "", "g", "}", ""}}},
				entity: "e0",
				input:  map[string]any{"login": "ann", "pw": "hunter2"},
				opts:   mdlOpts{hasOnly: true, only: []string{"g.pw"}},
			},
			want: `{}`,
		},
		{
			name: "a client's Select of a writeonly field fails as of an undeclared one",
			cs: mdlCase{
				decls:  []mdlDecl{{"e0", []string{"login", "string", "", "pw", "string", "writeonly"}}},
				entity: "e0",
				input:  map[string]any{"login": "ann", "pw": "hunter2"},
				opts:   mdlOpts{hasSel: true, sel: "pw"},
			},
			want: "fails: fields",
		},
		{
			name: "an echoed request writes no writeonly value of a referenced entity",
			cs: mdlCase{
				decls:  []mdlDecl{{"e1", []string{"pw", "string", "writeonly", "login", "string", ""}}, {"e0", []string{"cred", "$e1", ""}}},
				entity: "e0",
			},
			setup: func(cs *mdlCase, reg *entity.Registry) {
				req := httptest.NewRequest("POST", "/", strings.NewReader(`{"cred":{"pw":"hunter2","login":"ann"}}`))
				req.Header.Set("Content-Type", "application/json")
				obj, err := reg.Lookup("e0").MakeRequest(req)
				if err != nil {
					panic(err)
				}
				cs.input = obj
				cs.prov = map[*entity.Object]mdlProv{obj: {entity: "e0", request: true}}
			},
			want: `{"cred":{"login":"ann"}}`,
		},
		{
			name: "an Object made with shaping options is made again, a formatted value read back in its format",
			cs: mdlCase{
				decls:  []mdlDecl{{"e0", []string{"d", "date", "format '2006-01-02 15:04'", "u", "date", "format unix"}}},
				entity: "e0",
				opts:   mdlOpts{strict: true},
			},
			setup: func(cs *mdlCase, reg *entity.Registry) {
				obj, err := reg.Lookup("e0").Make(map[string]any{"d": "2024-01-15T10:30:00Z", "u": "2018-05-17T14:49:34Z"}, entity.Version("v1"))
				if err != nil {
					panic(err)
				}
				cs.input = obj
				cs.prov = map[*entity.Object]mdlProv{obj: {entity: "e0", shaped: true}}
			},
			want: `{"d":"2024-01-15 10:30","u":1526568574}`,
		},
		{
			name: "a none field judges a request's Object as it writes it, without its writeonly keys",
			cs: mdlCase{
				decls:  []mdlDecl{{"e1", []string{"pw", "string", "writeonly", "login", "string", ""}}, {"e0", []string{"cred", "none", "len 2"}}},
				entity: "e0",
			},
			setup: func(cs *mdlCase, reg *entity.Registry) {
				req := httptest.NewRequest("POST", "/", strings.NewReader(`{"pw":"hunter2","login":"ann"}`))
				req.Header.Set("Content-Type", "application/json")
				obj, err := reg.Lookup("e1").MakeRequest(req)
				if err != nil {
					panic(err)
				}
				cs.input = map[string]any{"cred": obj}
				cs.prov = map[*entity.Object]mdlProv{obj: {entity: "e1", request: true}}
			},
			want: "field errors: cred:len",
		},
		{
			name: "a request's Object made again is read by its output keys",
			cs: mdlCase{
				decls:  []mdlDecl{{"e0", []string{"user_id", "number", "rename 'id'", "g", "{", "", "city", "string", "", "g", "}", "", "pw", "string", "writeonly"}}},
				entity: "e0",
			},
			setup: func(cs *mdlCase, reg *entity.Registry) {
				req := httptest.NewRequest("POST", "/", strings.NewReader(`{"id":7,"g":{"city":"Kyoto"},"pw":"hunter2"}`))
				req.Header.Set("Content-Type", "application/json")
				obj, err := reg.Lookup("e0").MakeRequest(req)
				if err != nil {
					panic(err)
				}
				cs.input = obj
				cs.prov = map[*entity.Object]mdlProv{obj: {entity: "e0", request: true}}
			},
			want: `{"id":7,"g":{"city":"Kyoto"}}`,
		},
		{
			name: "an Object made with shaping options is made again by its output keys under the call's options",
			cs: mdlCase{
				keyCase: entity.CamelCase,
				flags:   []string{"admin"},
				decls:   []mdlDecl{{"e0", []string{"user_id", "number", "", "g", "{", "rename 'grp'", "city", "string", "", "g", "}", "", "note", "string", "if 'admin'"}}},
				entity:  "e0",
				opts:    mdlOpts{hasWith: true, with: []string{"admin"}},
			},
			setup: func(cs *mdlCase, reg *entity.Registry) {
				obj, err := reg.Lookup("e0").Make(map[string]any{"user_id": 7, "city": "Kyoto", "note": "n"}, entity.Version("v1"))
				if err != nil {
					panic(err)
				}
				cs.input = obj
				cs.prov = map[*entity.Object]mdlProv{obj: {entity: "e0", shaped: true}}
			},
			want: `{"userId":7,"grp":{"city":"Kyoto"},"note":null}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := tt.cs
			reg, err := cs.build()
			if err != nil {
				t.Fatal(err)
			}
			if tt.setup != nil {
				tt.setup(&cs, reg)
			}
			mod, err := cs.model()
			if err != nil {
				t.Fatal(err)
			}
			if got := mdlDescribe(mod, tt.detail); got != tt.want {
				t.Errorf("model: %s, want %s", got, tt.want)
			}
			lib, _ := cs.walker(reg)
			if got := mdlDescribe(lib, tt.detail); got != tt.want {
				t.Errorf("library: %s, want %s", got, tt.want)
			}
		})
	}
}

// TestModelMergedKeyClashRefused: two keys written to one object through a
// merge are a declaration error, even where the parent's key is shared by
// disjoint versions; the model reads only declarations the library accepts.
func TestModelMergedKeyClashRefused(t *testing.T) {
	cs := mdlCase{decls: []mdlDecl{
		{"e1", []string{"x", "string", ""}},
		{"e0", []string{"m", "$e1", "merge", "x", "number", "until 'v2'", "x", "bool", "since 'v2'"}},
	}}
	if _, err := cs.build(); err == nil {
		t.Fatal("the library accepts the declarations")
	}
}

// mdlDescribe prints an outcome as the table's lib and mod columns do:
// errors with their messages or output paths where the entry needs them.
func mdlDescribe(o mdlOutcome, detail string) string {
	if o.errs == nil || detail == "" {
		return o.String()
	}
	var parts []string
	for _, e := range o.errs {
		switch detail {
		case "message":
			parts = append(parts, e.path+":"+e.code+` (message "`+e.msg+`")`)
		case "output path":
			parts = append(parts, e.path+":"+e.code+" (output path "+e.outPath+")")
		}
	}
	return "field errors: " + strings.Join(parts, " ")
}
