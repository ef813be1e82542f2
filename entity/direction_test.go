package entity_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// The direction views: a response writes what the response view holds,
// which has no writeonly field, whatever path a value takes to it.

// directionRegistry declares an account with a writeonly password, and
// entities that hold one through a $ref, a []$ref, a merged $ref and a
// group.
func directionRegistry(t testing.TB) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry()
	expose(t, reg, "cred", "user", "string", "req", "password", "string", "writeonly | req | min 6")
	expose(t, reg, "login", "handle", "string", "", "token", "string", "writeonly")
	expose(t, reg, "account", "POST",
		"name", "string", "req",
		"password", "string", "writeonly | req | min 6",
		"cred", "$cred", "",
		"creds", "[]$cred", "",
		"more", "$login", "merge",
		"g", "{", "",
		"pin", "string", "writeonly",
		"g", "}", "",
	)
	return reg
}

// directionBody is a request holding a password at every depth.
const directionBody = `{"name":"a","password":"hunter2","cred":{"user":"u","password":"hunter2"},` +
	`"creds":[{"user":"v","password":"hunter2"}],"handle":"w","token":"hunter2","g":{"pin":"hunter2"}}`

func directionRequest() *http.Request {
	r := httptest.NewRequest("POST", "/", strings.NewReader(directionBody))
	r.Header.Set("Content-Type", "application/json")
	return r
}

// TestWriteOfARequestOmitsWriteOnly: Write, WriteStatus, MakeJSON,
// AppendJSON and Make given an *http.Request validate it as a request and
// answer its response form, which holds no writeonly value.
func TestWriteOfARequestOmitsWriteOnly(t *testing.T) {
	e := directionRegistry(t).Lookup("account")
	const want = `{"name":"a","cred":{"user":"u"},"creds":[{"user":"v"}],"handle":"w","g":{}}`
	rec := httptest.NewRecorder()
	if err := e.WriteStatus(rec, 201, directionRequest()); err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{"WriteStatus": rec.Body.String()}
	rec = httptest.NewRecorder()
	if err := e.Write(rec, directionRequest()); err != nil {
		t.Fatal(err)
	}
	outputs["Write"] = rec.Body.String()
	b, err := e.MakeJSON(directionRequest())
	if err != nil {
		t.Fatal(err)
	}
	outputs["MakeJSON"] = string(b)
	b, err = e.AppendJSON(nil, directionRequest())
	if err != nil {
		t.Fatal(err)
	}
	outputs["AppendJSON"] = string(b)
	o, err := e.Make(directionRequest())
	if err != nil {
		t.Fatal(err)
	}
	outputs["Make"] = o.String()
	for what, got := range outputs {
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", what, got, want)
		}
	}
}

// TestRequestObjectWritesNoWriteOnly: an Object MakeRequest made keeps
// its writeonly values for Get, Map and Decode (Bind needs them), and
// writes none through json.Marshal, AppendJSON, String, or inside a
// none, object or $ref field of a response, nor when made again by Make.
func TestRequestObjectWritesNoWriteOnly(t *testing.T) {
	reg := directionRegistry(t)
	e := reg.Lookup("account")
	o, err := e.MakeRequest(directionRequest())
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := o.Get("password"); !ok || v != "hunter2" {
		t.Errorf("Get(password) = %v, %v; want the request's value", v, ok)
	}
	if m := o.Map(); m["password"] != "hunter2" || m["cred"].(map[string]any)["password"] != "hunter2" {
		t.Errorf("Map lost a writeonly value: %v", m)
	}
	var dec struct {
		Password string `json:"password"`
	}
	if err := o.Decode(&dec); err != nil || dec.Password != "hunter2" {
		t.Errorf("Decode: %+v, %v", dec, err)
	}

	expose(t, reg, "holder", "any", "none", "", "obj", "object", "", "ref", "$account", "")
	holder := reg.Lookup("holder")
	written := map[string]func() ([]byte, error){
		"json.Marshal": func() ([]byte, error) { return json.Marshal(o) },
		"AppendJSON":   func() ([]byte, error) { return o.AppendJSON(nil) },
		"String":       func() ([]byte, error) { return []byte(o.String()), nil },
		"MarshalJSON":  o.MarshalJSON,
		"in a struct":  func() ([]byte, error) { return json.Marshal(struct{ O *entity.Object }{o}) },
		"in a none, an object and a $ref field": func() ([]byte, error) {
			return holder.MakeJSON(map[string]any{"any": o, "obj": o, "ref": o})
		},
		"in a list of a none field": func() ([]byte, error) { return holder.MakeJSON(map[string]any{"any": []any{o}}) },
		"made again by Make":        func() ([]byte, error) { o2, err := e.Make(o); return []byte(o2.String()), err },
		"made again by MakeJSON":    func() ([]byte, error) { return e.MakeJSON(o) },
		"made again in a list":      func() ([]byte, error) { return e.MakeJSON([]*entity.Object{o}) },
	}
	for what, f := range written {
		b, err := f()
		if err != nil {
			t.Errorf("%s: %v", what, err)
			continue
		}
		if strings.Contains(string(b), "hunter2") || strings.Contains(string(b), "password") {
			t.Errorf("%s writes a writeonly field: %s", what, b)
		}
		if !strings.Contains(string(b), `"user":"u"`) {
			t.Errorf("%s lost what it should write: %s", what, b)
		}
	}
}

// TestRequestObjectOfARefMadeAgain: a writeonly field inside a referenced
// entity is not written when a request's Object, or a nested Object of
// it, is made again by a response.
func TestRequestObjectOfARefMadeAgain(t *testing.T) {
	reg := directionRegistry(t)
	o, err := reg.Lookup("account").MakeRequest(directionRequest())
	if err != nil {
		t.Fatal(err)
	}
	cred, _ := o.Get("cred")
	creds, _ := o.Get("creds")
	for what, v := range map[string]any{"the $ref's Object": cred, "the []$ref's Objects": creds} {
		b, err := reg.Lookup("cred").MakeJSON(v)
		if err != nil {
			t.Errorf("%s: %v", what, err)
			continue
		}
		if strings.Contains(string(b), "hunter2") {
			t.Errorf("%s writes a writeonly value: %s", what, b)
		}
	}
}

// TestViewFieldsByDirection: the Field view of a response has no
// writeonly field; that of a request no readonly one.
func TestViewFieldsByDirection(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "acct", "id", "number", "readonly", "name", "string", "", "pw", "string", "writeonly",
		"g", "{", "", "secret_note", "string", "writeonly", "shown", "string", "readonly", "g", "}", "")
	keys := func(fs []*entity.Field) string {
		var ks []string
		for _, f := range fs {
			k := f.Key
			if f.Fields != nil {
				k += "(" + strings.Join(func() []string {
					var sub []string
					for _, g := range f.Fields {
						sub = append(sub, g.Key)
					}
					return sub
				}(), ",") + ")"
			}
			ks = append(ks, k)
		}
		return strings.Join(ks, ",")
	}
	if got, want := keys(e.Fields()), "id,name,g(shown)"; got != want {
		t.Errorf("Fields: %s, want %s", got, want)
	}
	if got, want := keys(e.RequestFields()), "name,pw,g(secret_note)"; got != want {
		t.Errorf("RequestFields: %s, want %s", got, want)
	}
}

// TestRequestObjectCutsWriteOnlyMembers: an Object of a request writes its
// JSON without the writeonly members at any place of an object (first,
// between, last, all of them), in groups, references, lists of them and
// merged references, and what it writes is valid JSON.
func TestRequestObjectCutsWriteOnlyMembers(t *testing.T) {
	tests := []struct {
		name string
		decl []string
		body string
		want string
	}{
		{"first", []string{"p", "string", "writeonly", "a", "string", ""}, `{"p":"x","a":"1"}`, `{"a":"1"}`},
		{"between", []string{"a", "string", "", "p", "string", "writeonly", "b", "string", ""}, `{"a":"1","p":"x","b":"2"}`, `{"a":"1","b":"2"}`},
		{"last", []string{"a", "string", "", "p", "string", "writeonly"}, `{"a":"1","p":"x"}`, `{"a":"1"}`},
		{"all", []string{"p", "string", "writeonly", "q", "number", "writeonly"}, `{"p":"x","q":1}`, `{}`},
		{"two first", []string{"p", "string", "writeonly", "q", "string", "writeonly", "a", "string", ""}, `{"p":"x","q":"y","a":"1"}`, `{"a":"1"}`},
		{"two last", []string{"a", "string", "", "p", "string", "writeonly", "q", "string", "writeonly"}, `{"a":"1","p":"x","q":"y"}`, `{"a":"1"}`},
		{"a writeonly group", []string{"g", "{", "writeonly", "p", "string", "", "g", "}", "", "a", "string", ""}, `{"g":{"p":"x"},"a":"1"}`, `{"a":"1"}`},
		{"inside a group", []string{"a", "string", "", "g", "{", "", "p", "string", "writeonly", "b", "string", "", "g", "}", ""}, `{"a":"1","g":{"p":"x","b":"2"}}`, `{"a":"1","g":{"b":"2"}}`},
		{"a group of writeonly fields only", []string{"g", "{", "", "p", "string", "writeonly", "g", "}", ""}, `{"g":{"p":"x"}}`, `{"g":{}}`},
		{"inside a reference", []string{"c", "$cred", "", "a", "string", ""}, `{"c":{"login":"l","pw":"x"},"a":"1"}`, `{"c":{"login":"l"},"a":"1"}`},
		{"inside a list of references", []string{"cs", "[]$cred", ""}, `{"cs":[{"pw":"x"},{"login":"l","pw":"y"}]}`, `{"cs":[{"login":null},{"login":"l"}]}`},
		{"a merged reference", []string{"a", "string", "", "c", "$cred", "merge"}, `{"a":"1","login":"l","pw":"x"}`, `{"a":"1","login":"l"}`},
		{"a merged reference first", []string{"c", "$cred", "merge", "a", "string", ""}, `{"login":"l","pw":"x","a":"1"}`, `{"login":"l","a":"1"}`},
		{"a writeonly merged reference first", []string{"c", "$cred", "merge | writeonly", "a", "string", ""}, `{"login":"l","pw":"x","a":"1"}`, `{"a":"1"}`},
		{"a merged reference of a writeonly field first", []string{"k", "$pwfirst", "merge", "a", "string", ""}, `{"pw":"x","login":"l","a":"1"}`, `{"login":"l","a":"1"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			expose(t, reg, "cred", "login", "string", "", "pw", "string", "writeonly")
			expose(t, reg, "pwfirst", "pw", "string", "writeonly", "login", "string", "")
			e := expose(t, reg, "e", tt.decl...)
			o, err := e.MakeRequest(bindRequest("POST", "/", tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if got := o.String(); got != tt.want {
				t.Errorf("String() = %s, want %s", got, tt.want)
			}
			b, _ := json.Marshal(map[string]any{"o": o})
			if !json.Valid(b) || strings.Contains(string(b), `"x"`) || strings.Contains(string(b), `"y"`) {
				t.Errorf("json.Marshal = %s", b)
			}
			if got, err := reg.MustLookup("e").MakeJSON(o); err != nil || string(got) != tt.want {
				t.Errorf("MakeJSON(Object) = %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}
