package entity_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// woSecret is the value every writeonly field of these tables is sent; no
// response may ever hold it.
const woSecret = "hunter2"

// woCheckOut fails the test when out is not valid JSON, holds woSecret, or
// lacks one of the visible strings.
func woCheckOut(t *testing.T, what string, out []byte, visible []string) {
	t.Helper()
	if !json.Valid(out) {
		t.Errorf("%s = %s: not valid JSON", what, out)
		return
	}
	if strings.Contains(string(out), woSecret) {
		t.Errorf("%s = %s: writes a writeonly value", what, out)
	}
	for _, v := range visible {
		if !strings.Contains(string(out), v) {
			t.Errorf("%s = %s: lacks the visible %s", what, out, v)
		}
	}
}

// woCheckObject checks every written form of o, and of its sub-Objects.
func woCheckObject(t *testing.T, what string, o *entity.Object, visible []string, depth int) {
	t.Helper()
	if o == nil || depth > 6 {
		return
	}
	mj, err := o.MarshalJSON()
	if err != nil {
		t.Errorf("%s.MarshalJSON: %v", what, err)
	}
	woCheckOut(t, what+".MarshalJSON()", mj, visible)
	app, err := o.AppendJSON([]byte("x"))
	if err != nil {
		t.Errorf("%s.AppendJSON: %v", what, err)
	} else {
		woCheckOut(t, what+".AppendJSON()", app[1:], visible)
	}
	woCheckOut(t, what+".String()", []byte(o.String()), visible)
	jm, err := json.Marshal(o)
	if err != nil {
		t.Errorf("json.Marshal(%s): %v", what, err)
	}
	woCheckOut(t, "json.Marshal("+what+")", jm, visible)
	inList, err := json.Marshal([]any{o, map[string]any{"o": o}})
	if err != nil {
		t.Errorf("json.Marshal([%s]): %v", what, err)
	}
	woCheckOut(t, "json.Marshal([]any{"+what+"})", inList, visible)
	keys := o.Keys()
	if o.Len() != len(keys) {
		t.Errorf("%s: Len() = %d, len(Keys()) = %d", what, o.Len(), len(keys))
	}
	for _, k := range keys {
		v, ok := o.Get(k)
		if !ok {
			t.Errorf("%s: Keys() holds %q but Get(%q) has none", what, k, k)
		}
		switch s := v.(type) {
		case *entity.Object:
			woCheckObject(t, fmt.Sprintf("%s.Get(%q)", what, k), s, nil, depth+1)
		case []*entity.Object:
			for i, e := range s {
				woCheckObject(t, fmt.Sprintf("%s.Get(%q)[%d]", what, k, i), e, nil, depth+1)
			}
		}
	}
}

// TestRequestObjectWritesNoWriteOnlyInAnyShape: an Object a request (or
// Patch) made "records where its writeonly members lie as they are
// written": MarshalJSON, AppendJSON, String, a sub-Object from Get, an
// Object placed in a none, object or $ref field of another response, and
// Make, MakeJSON, AppendJSON and Write of the same entity reading it, all
// give valid JSON without them, whatever the shape around the writeonly
// fields (first, last, all of an object, groups, references, lists of
// references, merges, omitted siblings, selections, flags, versions, key
// case, renames, defaults), and every value that is not writeonly is
// there.
func TestRequestObjectWritesNoWriteOnlyInAnyShape(t *testing.T) {
	type ent struct {
		name string
		decl []string
	}
	tests := []struct {
		name    string
		keyCase entity.KeyCaseStyle
		ents    []ent // the last is the one requested
		body    string
		opts    []entity.Option
		visible []string // strings the response form must hold
	}{
		{name: "writeonly first", ents: []ent{{"e", []string{
			"pw", "string", "writeonly", "a", "string", "", "b", "string", ""}}},
			body: `{"pw":"hunter2","a":"va","b":"vb"}`, visible: []string{`"a":"va"`, `"b":"vb"`}},
		{name: "writeonly last", ents: []ent{{"e", []string{
			"a", "string", "", "b", "string", "", "pw", "string", "writeonly"}}},
			body: `{"pw":"hunter2","a":"va","b":"vb"}`, visible: []string{`"a":"va"`, `"b":"vb"`}},
		{name: "all writeonly", ents: []ent{{"e", []string{
			"pw", "string", "writeonly", "pin", "string", "writeonly"}}},
			body: `{"pw":"hunter2","pin":"hunter2"}`},
		{name: "writeonly between omitempty siblings left out", ents: []ent{{"e", []string{
			"a", "string", "omitempty", "pw", "string", "writeonly", "b", "string", "omitnil", "c", "string", ""}}},
			body: `{"pw":"hunter2","c":"vc"}`, visible: []string{`"c":"vc"`}},
		{name: "writeonly after every field is omitted", ents: []ent{{"e", []string{
			"a", "string", "omitempty", "b", "string", "omitnil", "pw", "string", "writeonly"}}},
			body: `{"pw":"hunter2","a":""}`},
		{name: "writeonly group", ents: []ent{{"e", []string{
			"a", "string", "",
			"g", "{", "writeonly", "x", "string", "", "y", "string", "", "g", "}", "",
			"b", "string", ""}}},
			body: `{"a":"va","g":{"x":"hunter2","y":"hunter2"},"b":"vb"}`, visible: []string{`"a":"va"`, `"b":"vb"`}},
		{name: "group of only writeonly fields", ents: []ent{{"e", []string{
			"g", "{", "", "x", "string", "writeonly", "y", "string", "writeonly", "g", "}", "",
			"b", "string", ""}}},
			body: `{"g":{"x":"hunter2","y":"hunter2"},"b":"vb"}`, visible: []string{`"b":"vb"`}},
		{name: "group of only writeonly fields, omitempty", ents: []ent{{"e", []string{
			"g", "{", "omitempty", "x", "string", "writeonly", "g", "}", "",
			"b", "string", ""}}},
			body: `{"g":{"x":"hunter2"},"b":"vb"}`, visible: []string{`"b":"vb"`}},
		{name: "nested groups, writeonly deep", ents: []ent{{"e", []string{
			"g", "{", "", "h", "{", "", "pw", "string", "writeonly", "v", "string", "", "h", "}", "", "g", "}", ""}}},
			body: `{"g":{"h":{"pw":"hunter2","v":"vv"}}}`, visible: []string{`"v":"vv"`}},
		{name: "writeonly in a $ref", ents: []ent{
			{"cred", []string{"login", "string", "", "pw", "string", "writeonly"}},
			{"e", []string{"c", "$cred", "", "n", "string", ""}}},
			body: `{"c":{"login":"vl","pw":"hunter2"},"n":"vn"}`, visible: []string{`"login":"vl"`, `"n":"vn"`}},
		{name: "writeonly $ref", ents: []ent{
			{"cred", []string{"login", "string", "", "pw", "string", ""}},
			{"e", []string{"c", "$cred", "writeonly", "n", "string", ""}}},
			body: `{"login":"hunter2","pw":"hunter2","n":"vn"}`, visible: []string{`"n":"vn"`}},
		{name: "writeonly merged $ref whose first field is a writeonly group", ents: []ent{
			{"cred", []string{"g", "{", "writeonly", "x", "string", "", "g", "}", "", "login", "string", "", "pw", "string", ""}},
			{"e", []string{"c", "$cred", "merge | writeonly", "n", "string", ""}}},
			body: `{"g":{"x":"hunter2"},"login":"hunter2","pw":"hunter2","n":"vn"}`, visible: []string{`"n":"vn"`}},
		{name: "writeonly merged $ref whose first field is a writeonly $ref", ents: []ent{
			{"k", []string{"v", "string", ""}},
			{"cred", []string{"key", "$k", "writeonly", "login", "string", ""}},
			{"e", []string{"n", "string", "", "c", "$cred", "merge | writeonly"}}},
			body: `{"key":{"v":"hunter2"},"login":"hunter2","n":"vn"}`, visible: []string{`"n":"vn"`}},
		{name: "[]$ref with writeonly members", ents: []ent{
			{"cred", []string{"pw", "string", "writeonly", "login", "string", ""}},
			{"e", []string{"cs", "[]$cred", "", "n", "string", ""}}},
			body:    `{"cs":[{"login":"l1","pw":"hunter2"},{"pw":"hunter2"},{"login":"l3"}],"n":"vn"}`,
			visible: []string{`"login":"l1"`, `"login":"l3"`, `"n":"vn"`}},
		{name: "[]$ref with null elements (lax)", ents: []ent{
			{"cred", []string{"pw", "string", "writeonly", "login", "string", ""}},
			{"e", []string{"cs", "[]$cred", "", "n", "string", ""}}},
			body: `{"cs":[null,{"login":"l1","pw":"hunter2"},null,{"pw":"hunter2"}],"n":"vn"}`,
			opts: []entity.Option{entity.Lax()}, visible: []string{`"login":"l1"`, `"n":"vn"`}},
		{name: "$ref holding a list input", ents: []ent{
			{"cred", []string{"pw", "string", "writeonly", "login", "string", ""}},
			{"e", []string{"cs", "$cred", "", "n", "string", ""}}},
			body: `{"cs":[{"login":"l1","pw":"hunter2"},{"pw":"hunter2"}],"n":"vn"}`,
			opts: []entity.Option{entity.Lax()}, visible: []string{`"n":"vn"`}},
		{name: "merged $ref with writeonly members", ents: []ent{
			{"cred", []string{"pw", "string", "writeonly", "login", "string", ""}},
			{"e", []string{"a", "string", "", "c", "$cred", "merge", "n", "string", ""}}},
			body:    `{"a":"va","login":"vl","pw":"hunter2","n":"vn"}`,
			visible: []string{`"a":"va"`, `"login":"vl"`, `"n":"vn"`}},
		{name: "merged $ref first member", ents: []ent{
			{"cred", []string{"pw", "string", "writeonly", "login", "string", ""}},
			{"e", []string{"c", "$cred", "merge", "n", "string", ""}}},
			body:    `{"login":"vl","pw":"hunter2","n":"vn"}`,
			visible: []string{`"login":"vl"`, `"n":"vn"`}},
		{name: "merged $ref of only writeonly members, first", ents: []ent{
			{"cred", []string{"pw", "string", "writeonly"}},
			{"e", []string{"c", "$cred", "merge", "n", "string", ""}}},
			body: `{"pw":"hunter2","n":"vn"}`, visible: []string{`"n":"vn"`}},
		{name: "merged $ref of only writeonly members, last", ents: []ent{
			{"cred", []string{"pw", "string", "writeonly"}},
			{"e", []string{"n", "string", "", "c", "$cred", "merge"}}},
			body: `{"pw":"hunter2","n":"vn"}`, visible: []string{`"n":"vn"`}},
		{name: "writeonly merged $ref", ents: []ent{
			{"cred", []string{"login", "string", "", "pw", "string", ""}},
			{"e", []string{"c", "$cred", "merge | writeonly", "n", "string", ""}}},
			body: `{"login":"hunter2","pw":"hunter2","n":"vn"}`, visible: []string{`"n":"vn"`}},
		{name: "merge of a merge", ents: []ent{
			{"inner", []string{"pw", "string", "writeonly", "i", "string", ""}},
			{"mid", []string{"in", "$inner", "merge", "m", "string", "", "pin", "string", "writeonly"}},
			{"e", []string{"n", "string", "", "md", "$mid", "merge", "z", "string", ""}}},
			body:    `{"n":"vn","pw":"hunter2","i":"vi","m":"vm","pin":"hunter2","z":"vz"}`,
			visible: []string{`"n":"vn"`, `"i":"vi"`, `"m":"vm"`, `"z":"vz"`}},
		{name: "merge in a group in a $ref list", ents: []ent{
			{"inner", []string{"pw", "string", "writeonly", "i", "string", ""}},
			{"row", []string{"g", "{", "", "in", "$inner", "merge", "g", "}", ""}},
			{"e", []string{"rows", "[]$row", ""}}},
			body:    `{"rows":[{"g":{"pw":"hunter2","i":"v1"}},{"g":{"pw":"hunter2","i":"v2"}}]}`,
			visible: []string{`"i":"v1"`, `"i":"v2"`}},
		{name: "Select on the request", ents: []ent{{"e", []string{
			"a", "string", "", "pw", "string", "writeonly", "b", "string", "", "g", "{", "", "pin", "string", "writeonly", "c", "string", "", "g", "}", ""}}},
			body: `{"a":"va","pw":"hunter2","b":"vb","g":{"pin":"hunter2","c":"vc"}}`,
			opts: []entity.Option{entity.Select("a,g")}, visible: []string{`"a":"va"`, `"c":"vc"`}},
		{name: "Only on the request", ents: []ent{{"e", []string{
			"a", "string", "", "pw", "string", "writeonly", "b", "string", "", "g", "{", "", "pin", "string", "writeonly", "c", "string", "", "g", "}", ""}}},
			body: `{"a":"va","pw":"hunter2","b":"vb","g":{"pin":"hunter2","c":"vc"}}`,
			opts: []entity.Option{entity.Only("b", "g.c")}, visible: []string{`"b":"vb"`, `"c":"vc"`}},
		{name: "Except on the request", ents: []ent{{"e", []string{
			"a", "string", "", "pw", "string", "writeonly", "b", "string", ""}}},
			body: `{"a":"va","pw":"hunter2","b":"vb"}`,
			opts: []entity.Option{entity.Except("a")}, visible: []string{`"b":"vb"`}},
		{name: "Except the last visible field", ents: []ent{{"e", []string{
			"a", "string", "", "b", "string", "", "pw", "string", "writeonly"}}},
			body: `{"a":"va","pw":"hunter2","b":"vb"}`,
			opts: []entity.Option{entity.Except("b")}, visible: []string{`"a":"va"`}},
		{name: "flags", ents: []ent{{"e", []string{
			"a", "string", "if 'admin'", "pw", "string", "writeonly | if 'admin'", "b", "string", "unless 'admin'", "c", "string", ""}}},
			body: `{"a":"va","pw":"hunter2","b":"vb","c":"vc"}`,
			opts: []entity.Option{entity.With("admin")}, visible: []string{`"a":"va"`, `"c":"vc"`}},
		{name: "versions", ents: []ent{{"e", []string{
			"pw", "string", "writeonly | since 'v2'", "k", "string", "until 'v2'", "k", "string", "since 'v2' | writeonly", "c", "string", ""}}},
			body: `{"pw":"hunter2","k":"hunter2","c":"vc"}`,
			opts: []entity.Option{entity.Version("v3")}, visible: []string{`"c":"vc"`}},
		{name: "versions, the writeonly one is the older range", ents: []ent{{"e", []string{
			"k", "string", "until 'v2' | writeonly", "k", "string", "since 'v2'", "c", "string", ""}}},
			body: `{"k":"hunter2","c":"vc"}`,
			opts: []entity.Option{entity.Version("v1")}, visible: []string{`"c":"vc"`}},
		{name: "key case and rename", keyCase: entity.CamelCase, ents: []ent{
			{"cred", []string{"user_login", "string", "", "pass_word", "string", "writeonly"}},
			{"e", []string{"pass_word", "string", "writeonly | rename 'visibleName'", "user_name", "string", "", "the_cred", "$cred", ""}}},
			body:    `{"visibleName":"hunter2","userName":"vn","theCred":{"userLogin":"vl","passWord":"hunter2"}}`,
			visible: []string{`"userName":"vn"`, `"userLogin":"vl"`}},
		{name: "writeonly default", ents: []ent{{"e", []string{
			"a", "string", "", "pw", "string", "writeonly | default 'hunter2'", "g", "{", "", "pin", "string", "writeonly | default 'hunter2'", "g", "}", ""}}},
			body: `{"a":"va"}`, visible: []string{`"a":"va"`}},
		{name: "writeonly bare default $ref", ents: []ent{
			{"cred", []string{"login", "string", "default 'hunter2'"}},
			{"e", []string{"a", "string", "", "c", "$cred", "writeonly | default"}}},
			body: `{"a":"va"}`, visible: []string{`"a":"va"`}},
		{name: "writeonly list and object values", ents: []ent{{"e", []string{
			"l", "[]string", "writeonly", "o", "object", "writeonly", "n", "none", "writeonly", "a", "string", ""}}},
			body: `{"l":["hunter2"],"o":{"k":"hunter2"},"n":{"x":["hunter2"]},"a":"va"}`, visible: []string{`"a":"va"`}},
		{name: "writeonly keys needing escapes", ents: []ent{{"e", []string{
			"p\"w<", "string", "writeonly", "a\u2028", "string", "", "é", "string", "writeonly"}}},
			body: `{"p\"w<":"hunter2","a\u2028":"va","é":"hunter2"}`, visible: []string{`"va"`}},
		{name: "recursive entity", ents: []ent{
			{"node", []string{"pw", "string", "writeonly", "v", "string", "", "kids", "[]$node", ""}},
			{"e", []string{"root", "$node", ""}}},
			body:    `{"root":{"pw":"hunter2","v":"v0","kids":[{"pw":"hunter2","v":"v1","kids":[{"pw":"hunter2","v":"v2"}]}]}}`,
			visible: []string{`"v":"v0"`, `"v":"v1"`, `"v":"v2"`}},
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
			wrap := expose(t, reg, "wrap", "n", "none", "", "ob", "object", "", "r", "$"+e.Name(), "", "rs", "[]$"+e.Name(), "")
			for _, call := range []string{"MakeRequest", "Patch"} {
				t.Run(call, func(t *testing.T) {
					var o *entity.Object
					var err error
					if call == "MakeRequest" {
						o, err = e.MakeRequest(bindRequest("POST", "/", tt.body), tt.opts...)
					} else {
						o, _, err = e.Patch(patchRequest(tt.body), nil, tt.opts...)
					}
					if err != nil {
						t.Fatalf("%s: %v", call, err)
					}
					woCheckObject(t, "o", o, tt.visible, 0)

					// The same entity reads it again, as a response.
					for i, opt := range [][]entity.Option{nil, tt.opts} {
						visible := tt.visible
						if i == 0 && len(tt.opts) > 0 {
							visible = nil // the call's own shaping decides what it writes
						}
						out, err := e.MakeJSON(o, opt...)
						if err != nil {
							t.Errorf("e.MakeJSON(o): %v", err)
						} else {
							woCheckOut(t, "e.MakeJSON(o)", out, visible)
						}
						if again, err := e.Make(o, opt...); err != nil {
							t.Errorf("e.Make(o): %v", err)
						} else {
							woCheckObject(t, "e.Make(o)", again, visible, 0)
						}
						if out, err := e.AppendJSON(nil, []any{o, o}, opt...); err != nil {
							t.Errorf("e.AppendJSON([o,o]): %v", err)
						} else {
							woCheckOut(t, "e.AppendJSON([o,o])", out, visible)
						}
						rec := httptest.NewRecorder()
						if err := e.Write(rec, o, opt...); err != nil {
							t.Errorf("e.Write(o): %v", err)
						}
						woCheckOut(t, "e.Write(o)", rec.Body.Bytes(), visible)
					}
					// Another entity places it in none, object, $ref and []$ref fields.
					out, err := wrap.MakeJSON(map[string]any{"n": o, "ob": o, "r": o, "rs": []any{o, o}})
					if err != nil {
						t.Errorf("wrap.MakeJSON: %v", err)
					} else {
						woCheckOut(t, "wrap.MakeJSON", out, nil)
					}
					wo, err := wrap.Make(map[string]any{"n": o, "ob": o, "r": o, "rs": []*entity.Object{o}})
					if err != nil {
						t.Errorf("wrap.Make: %v", err)
					} else {
						woCheckObject(t, "wrap.Make", wo, nil, 0)
					}
					// Its sub-Objects, read by another entity's object field.
					for _, k := range o.Keys() {
						v, _ := o.Get(k)
						if s, ok := v.(*entity.Object); ok {
							out, err := wrap.MakeJSON(map[string]any{"n": s, "ob": s})
							if err != nil {
								t.Errorf("wrap.MakeJSON(Get(%q)): %v", k, err)
							} else {
								woCheckOut(t, fmt.Sprintf("wrap.MakeJSON(Get(%q))", k), out, nil)
							}
						}
						if s, ok := v.([]*entity.Object); ok {
							out, err := wrap.MakeJSON(map[string]any{"n": s})
							if err != nil {
								t.Errorf("wrap.MakeJSON(Get(%q)): %v", k, err)
							} else {
								woCheckOut(t, fmt.Sprintf("wrap.MakeJSON(Get(%q))", k), out, nil)
							}
						}
					}
				})
			}
		})
	}
}
