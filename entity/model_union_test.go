package entity_test

// The reference model's unions, from dsl's go doc (Unions): "$a|$b" by
// 'key' is one object of the variant its key names, the key written first;
// a missing or unknown key fails at the key (code "in"); anything else is
// the variant's. The model covers responses and requests (MakeRequest,
// Bind), not selections inside a union nor merge patches of one, which
// union_test.go and patch_union_test.go check against the docs.

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// makeUnion makes a union field's value: null (req fails), one variant's
// object, or for []$a|$b a list of them.
func (c *mdlCall) makeUnion(f *mdlField, lvl mdlLevel) (any, bool) {
	raw, _, p := c.read(f, lvl)
	op := lvl.outP.key(f.key)
	sec := lvl.sec || f.secret
	in := c.readObject(mdlNorm(raw))
	one := func(obj any, p, op mdlPath) any {
		name, ok := mdlVariantName(obj, f.by)
		known := false
		for _, v := range f.variants {
			known = known || ok && v == name
		}
		if !known {
			c.fail(f, p.key(f.by), op.key(f.by), "in", sec)
			return nil
		}
		out := c.makeEntity(c.reg.ents[name], mdlLevel{in: obj, inP: p, outP: op, wire: lvl.wire, sec: sec}, nil, nil)
		o, _ := out.(*mdlObj)
		if o == nil {
			return out
		}
		keyed := &mdlObj{}
		keyed.addWO(f.by, mdlRaw(mdlEncodeString(nil, name)), false)
		for i, k := range o.keys {
			keyed.addWO(k, o.vals[i], o.wo[i])
		}
		return keyed
	}
	var out any
	switch {
	case in == nil:
		if f.req {
			c.fail(f, p, op, "required", sec)
		}
		return nil, f.omitNil || f.omitEmpty
	case f.list && mdlIsList(in):
		list := []any{}
		for i, el := range mdlElems(in) {
			el = c.readObject(mdlNorm(el))
			if !mdlIsObject(el) {
				if c.strict && el != nil {
					c.fail(f, p.idx(i), op.idx(i), "type", sec)
				}
				list = append(list, nil)
				continue
			}
			list = append(list, one(el, p.idx(i), op.idx(i)))
		}
		out = list
	case !f.list && mdlIsObject(in):
		out = one(in, p, op)
	default:
		c.fail(f, p, op, "type", sec)
		return nil, false
	}
	return out, mdlOmit(f, out)
}

// mdlVariantName reads a union's key from an object input: its value when
// it is a string.
func mdlVariantName(obj any, key string) (string, bool) {
	if v, ok := obj.(interface{ Variant() string }); ok {
		return v.Variant(), true
	}
	v, ok := mdlLookup(obj, key)
	if !ok {
		return "", false
	}
	switch v := mdlNorm(v).(type) {
	case string:
		return v, true
	case *mdlJSON:
		return v.s, v.kind == mdlJStr
	}
	return "", false
}

// TestModelUnions: the model gives what dsl's doc says of unions, and so
// does the library, on responses and requests.
func TestModelUnions(t *testing.T) {
	decls := []mdlDecl{
		{"card", []string{"token", "string", "writeonly | req", "last4", "string", "readonly"}},
		{"invoice", []string{"po_number", "string", "req | min 1 | max 40"}},
		{"order", []string{"id", "number", "", "payment", "$card|$invoice", "req | by 'method'", "history", "[]$card|$invoice", "by 'method'"}},
	}
	tests := []struct {
		name  string
		input any
		want  string
	}{
		{"a card", map[string]any{"id": 1, "payment": map[string]any{"method": "card", "last4": "1234", "token": "t"}},
			`{"id":1,"payment":{"method":"card","last4":"1234"},"history":null}`},
		{"raw JSON, a list", []byte(`{"id":2,"payment":{"po_number":"A","method":"invoice"},"history":[{"method":"card"},null,{"method":"invoice","po_number":"B"}]}`),
			`{"id":2,"payment":{"method":"invoice","po_number":"A"},"history":[{"method":"card","last4":null},null,{"method":"invoice","po_number":"B"}]}`},
		{"no key", map[string]any{"payment": map[string]any{"po_number": "A"}}, "field errors: payment.method:in"},
		{"an unknown key", map[string]any{"payment": map[string]any{"method": "cash"}}, "field errors: payment.method:in"},
		{"a variant's failure", map[string]any{"payment": map[string]any{"method": "invoice", "po_number": ""}}, "field errors: payment.po_number:min"},
		{"missing", map[string]any{"id": 3}, "field errors: payment:required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := mdlCase{decls: decls, entity: "order", input: tt.input}
			got, err := cs.model()
			if err != nil {
				t.Fatal(err)
			}
			if d := mdlDescribe(got, ""); d != tt.want && string(got.json) != tt.want {
				t.Errorf("model: %s\nwant %s", d, tt.want)
			}
			reg, err := cs.build()
			if err != nil {
				t.Fatal(err)
			}
			lib, _ := cs.walker(reg)
			if d := mdlDiff(lib, got); d != "" {
				t.Errorf("%s", d)
			}
		})
	}
	requests := []struct{ name, body, want string }{
		{"a card", `{"id":1,"payment":{"token":"t","method":"card","last4":"9"}}`, `{"id":1,"payment":{"method":"card"},"history":null}`},
		{"an invoice and a list", `{"payment":{"method":"invoice","po_number":"A"},"history":[{"method":"card","token":"x"}]}`,
			`{"id":null,"payment":{"method":"invoice","po_number":"A"},"history":[{"method":"card"}]}`},
		{"no key", `{"payment":{"token":"t"}}`, "field errors: payment.method:in"},
		{"a key that is no string", `{"payment":{"method":1}}`, "field errors: payment.method:in"},
		{"the variant's req", `{"payment":{"method":"card"}}`, "field errors: payment.token:required"},
		{"no object", `{"payment":[]}`, "field errors: payment:type"},
	}
	for _, tt := range requests {
		t.Run("request "+tt.name, func(t *testing.T) {
			cs := mdlCase{decls: decls, entity: "order", mode: "request", opts: mdlOpts{request: true}, request: func() *http.Request {
				r := httptest.NewRequest("POST", "/orders", strings.NewReader(tt.body))
				r.Header.Set("Content-Type", "application/json")
				return r
			}}
			got, err := cs.model()
			if err != nil {
				t.Fatal(err)
			}
			if d := mdlDescribe(got, ""); d != tt.want && string(got.json) != tt.want {
				t.Errorf("model: %s\nwant %s", d, tt.want)
			}
			reg, err := cs.build()
			if err != nil {
				t.Fatal(err)
			}
			lib, _ := cs.walker(reg)
			if d := mdlDiff(lib, got); d != "" {
				t.Errorf("%s", d)
			}
		})
	}
}
