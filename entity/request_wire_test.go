package entity_test

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// A request reads the wire form: the keys a response writes, a group as
// the object under its key, a $name as one object, a []$name as a list of
// objects; header fields from the headers only, at the top level only.

// TestHeaderFieldsOnlyFromHeaders: a header field is read from the
// headers, never from a body; one in a group is refused at Expose; one in
// a referenced entity (merged or not) is never read from the body object
// that the reference reads.
func TestHeaderFieldsOnlyFromHeaders(t *testing.T) {
	reg := entity.NewRegistry()
	_, err := reg.Expose("grouped", "meta", "{", "", "X-User-Id", "string", "", "meta", "}", "")
	if err == nil || !strings.Contains(err.Error(), "header field") {
		t.Errorf("a header field in a group: %v, want a declaration error", err)
	}
	expose(t, reg, "who", "X-User-Id", "string", "", "name", "string", "")
	e := expose(t, reg, "post", "by", "$who", "", "also", "$who", "merge", "X-Trace", "string", "")
	r := rqRequest("POST", "/", "application/json",
		`{"by":{"X-User-Id":"spoofed","name":"n"},"X-User-Id":"spoofed","name":"m","X-Trace":"body"}`,
		"X-User-Id", "proxy", "X-Trace", "t-1")
	o, err := e.MakeRequest(r)
	if err != nil {
		t.Fatal(err)
	}
	got := o.String()
	if strings.Contains(got, "spoofed") || strings.Contains(got, "body") {
		t.Errorf("a body value was read for a header field: %s", got)
	}
	if !strings.Contains(got, `"X-Trace":"t-1"`) {
		t.Errorf("the top-level header field was not read from the headers: %s", got)
	}
}

// TestRequestRefIsOneObject: in a request a $name is one object (a list
// there is a type error) and a []$name a list of objects whose null
// element is a type error at its index; responses keep msful's
// object-or-list reading.
func TestRequestRefIsOneObject(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "address", "city", "string", "req")
	expose(t, reg, "line", "sku", "string", "req", "quantity", "number", "range 1 1000")
	e := expose(t, reg, "order", "ship", "$address", "req", "items", "[]$line", "")
	tests := []struct {
		name, body string
		fails      string // path code, comma-separated
	}{
		{"a list for a $name", `{"ship":[]}`, "ship type"},
		{"a list of objects for a $name", `{"ship":[{"city":"x"}]}`, "ship type"},
		{"a null element of a []$name", `{"ship":{"city":"x"},"items":[null]}`, "items[0] type"},
		{"a scalar element of a []$name", `{"ship":{"city":"x"},"items":[{"sku":"a","quantity":1},3]}`, "items[1] type"},
		{"an object", `{"ship":{"city":"x"},"items":[{"sku":"a","quantity":1}]}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.MakeRequest(rqRequest("POST", "/", "application/json", tt.body))
			var got []string
			for _, f := range fieldErrorsOrNone(err) {
				got = append(got, f.Path+" "+f.Code)
			}
			if strings.Join(got, ",") != tt.fails {
				t.Errorf("got %q (%v), want %q", got, err, tt.fails)
			}
			var ve *entity.ValidationError
			if tt.fails != "" && (!errors.As(err, &ve) || ve.StatusCode() != 400) {
				t.Errorf("%v: want a 400 ValidationError", err)
			}
		})
	}
	t.Run("a response reads a list for a $name", func(t *testing.T) {
		out, err := e.MakeJSON(map[string]any{"ship": []any{map[string]any{"city": "x"}}})
		if err != nil || string(out) != `{"ship":[{"city":"x"}],"items":null}` {
			t.Errorf("got %s, %v", out, err)
		}
	})
}

// TestRequestReadsWireKeys: a request sends the keys a response writes:
// renamed, key-cased, groups nested; server data is read by the declared
// names.
func TestRequestReadsWireKeys(t *testing.T) {
	reg := entity.NewRegistry(entity.KeyCase(entity.CamelCase))
	e := expose(t, reg, "customer",
		"customer_id", "number", "req",
		"full_name", "string", "rename 'name'",
		"home_address", "{", "",
		"zip_code", "string", "req",
		"home_address", "}", "",
	)
	const wire = `{"customerId":7,"name":"Ann","homeAddress":{"zipCode":"100"}}`
	o, err := e.MakeRequest(rqRequest("POST", "/", "application/json", wire))
	if err != nil {
		t.Fatal(err)
	}
	if got := o.String(); got != wire {
		t.Errorf("request: got %s, want %s", got, wire)
	}
	out, err := e.MakeJSON(map[string]any{"customer_id": 7, "full_name": "Ann", "zip_code": "100"})
	if err != nil || string(out) != wire {
		t.Errorf("response from declared names: %s, %v", out, err)
	}
	_, err = e.MakeRequest(rqRequest("POST", "/", "application/json", `{"customer_id":7,"zip_code":"100"}`))
	var got []string
	for _, f := range fieldErrorsOrNone(err) {
		got = append(got, f.Pointer+" "+f.Code)
	}
	if strings.Join(got, ",") != "/customerId required,/homeAddress/zipCode required" {
		t.Errorf("declared names in a request: %q", got)
	}
}

// TestRequestGroupObject: a request's group is the object under its key:
// a req group must be sent (one error at the group), anything but an
// object there is a type error wanting an object.
func TestRequestGroupObject(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "customer",
		"name", "string", "",
		"address", "{", "req",
		"city", "string", "req",
		"address", "}", "",
	)
	tests := []struct{ name, body, fails, message string }{
		{"absent", `{"name":"a"}`, "/address required", "is required"},
		{"null", `{"address":null}`, "/address required", "is required"},
		{"a list", `{"address":[]}`, "/address type", "must be an object, got an array"},
		{"its field", `{"address":{}}`, "/address/city required", "is required"},
		{"fine", `{"address":{"city":"x"}}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.MakeRequest(rqRequest("POST", "/", "application/json", tt.body))
			fs := fieldErrorsOrNone(err)
			var got, msg string
			if len(fs) > 0 {
				got, msg = fs[0].Pointer+" "+fs[0].Code, fs[0].Message
			}
			if len(fs) > 1 || got != tt.fails || msg != tt.message {
				t.Errorf("got %v, want %q (%q)", err, tt.fails, tt.message)
			}
		})
	}
}

// TestNilSliceIsAnEmptyRefList: a nil Go slice read into a []$name is an
// empty list, as at the top of a call (a handler's empty result set).
func TestNilSliceIsAnEmptyRefList(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "c", "id", "number", "")
	e := expose(t, reg, "page", "list", "[]$c", "req")
	type c struct{ ID int64 }
	type page struct {
		List []c `json:"list"`
	}
	for what, in := range map[string]any{"a struct": page{}, "a map": map[string]any{"list": []c(nil)}, "a []any": map[string]any{"list": []any(nil)}} {
		if out, err := e.MakeJSON(in); err != nil || string(out) != `{"list":[]}` {
			t.Errorf("%s: %s, %v", what, out, err)
		}
	}
	if _, err := e.MakeJSON(map[string]any{}); err == nil {
		t.Error("an absent list passes req")
	}
}

// TestObjectWithoutAGroupsObject: an Object in the wire form that holds no
// object for a group (a request's Object has none of a readonly group; an
// Object of another version none of a group of this one) is read in the
// wire form inside the group too: its fields under their keys, finding
// nothing, a nested group at its own key, a merged entity's keys in place.
func TestObjectWithoutAGroupsObject(t *testing.T) {
	for _, tt := range []struct {
		name    string
		decl    []string
		request bool   // the Object is a request's (else a response's of v3)
		call    string // the version of the call that makes it again
		want    string // the output, or the path and code of each error
	}{
		{"a nested group's field", []string{"note", "{", "readonly", "pw", "text", "default", "mail", "{", "readonly", "pw", "bool", "req", "mail", "}", "", "note", "}", "", "k", "string", ""},
			true, "", "note.mail.pw required"},
		{"a from field", []string{"n", "{", "readonly", "id", "number", "req | from 'items.0.id'", "n", "}", "", "k", "string", ""},
			true, "", "n.id required"},
		{"a merged entity's keys", []string{"g", "{", "until 'v3'", "m", "$addr", "merge", "u", "string", "", "g", "}", "", "m2", "$addr", "merge", "k", "string", ""},
			false, "v2", `{"g":{"addr":null,"u":null},"addr":null,"k":"x"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			expose(t, reg, "addr", "addr", "none", "")
			e := expose(t, reg, "e", tt.decl...)
			var o *entity.Object
			var err error
			if tt.request {
				o, err = e.MakeRequest(rqRequest("POST", "/", "application/json", `{"k":"x"}`))
			} else {
				o, err = e.Make(map[string]any{"k": "x"}, entity.Version("v3"))
			}
			if err != nil {
				t.Fatal(err)
			}
			var opts []entity.Option
			if tt.call != "" {
				opts = append(opts, entity.Version(tt.call))
			}
			out, err := e.MakeJSON(o, opts...)
			got := string(out)
			if fs := fieldErrorsOrNone(err); len(fs) > 0 {
				var l []string
				for _, f := range fs {
					l = append(l, f.Path+" "+f.Code)
				}
				got = strings.Join(l, ", ")
			} else if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestMergedKeysPathInTheWireForm: in the wire form (a request, an Object
// made again) a merged entity's keys are members of the object around the
// merge field, and their errors are at those members: no step of the merge
// field's name.
func TestMergedKeysPathInTheWireForm(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "addr", "city", "string", "until 'v2'", "city", "string", "since 'v2' | min 5")
	e := expose(t, reg, "e", "m", "$addr", "merge", "g", "{", "", "m2", "$addr", "merge", "g", "}", "")
	o, err := e.Make(map[string]any{"m": map[string]any{"city": "abc"}, "m2": map[string]any{"city": "abc"}}, entity.Version("v1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		make func() error
	}{
		{"a request", func() error {
			_, err := e.MakeRequest(rqRequest("POST", "/", "application/json", `{"city":"abc","g":{"city":"abc"}}`), entity.Version("v2"))
			return err
		}},
		{"an Object made again", func() error { _, err := e.MakeJSON(o, entity.Version("v2")); return err }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range fieldErrorsOrNone(tt.make()) {
				got = append(got, f.Path+" "+f.Pointer+" "+f.OutputPath)
			}
			if want := "city /city city, g.city /g/city g.city"; strings.Join(got, ", ") != want {
				t.Errorf("got %q, want %s", got, want)
			}
		})
	}
}

// TestRequestTypedListNullElement: a request's typed list holds values of
// its element type: a null element is a type error at its index, as in a
// []$name, where a response writes it as null. Under Lax a request keeps
// it, as a response does.
func TestRequestTypedListNullElement(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "post", "POST|PATCH",
		"tags", "[]string", "each 'min 1'",
		"ns", "[]int", "",
		"g", "{", "",
		"flags", "[]bool", "",
		"g", "}", "",
	)
	tests := []struct {
		name, body string
		opts       []entity.Option
		want       string // the Object's response form, or the failing paths and codes
	}{
		{"a null element", `{"tags":["a",null]}`, nil, "tags[1] type"},
		{"null elements of every type", `{"tags":[null],"ns":[1,null],"g":{"flags":[null,true]}}`, nil, "tags[0] type, ns[1] type, g.flags[0] type"},
		{"a null list is no element", `{"tags":null}`, nil, `{"tags":null,"ns":null,"g":{"flags":null}}`},
		{"values", `{"tags":["a"],"ns":[2]}`, nil, `{"tags":["a"],"ns":[2],"g":{"flags":null}}`},
		{"Lax keeps a null element", `{"tags":["a",null]}`, []entity.Option{entity.Lax()}, `{"tags":["a",null],"ns":null,"g":{"flags":null}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := e.MakeRequest(rqRequest("POST", "/", "application/json", tt.body), tt.opts...)
			if got := outcome(t, o, err); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	t.Run("the message", func(t *testing.T) {
		_, err := e.MakeRequest(rqRequest("POST", "/", "application/json", `{"tags":[null]}`))
		fes := fieldErrors(t, err)
		if len(fes) != 1 || fes[0].Message != "must be a string, got null" || fes[0].Pointer != "/tags/0" ||
			fes[0].Params["type"] != "string" || fes[0].Params["got"] != "null" {
			t.Errorf("got %+v", fes[0])
		}
	})
	t.Run("Bind stores no empty string for it", func(t *testing.T) {
		var dst struct {
			Tags []string `json:"tags"`
		}
		err := e.Bind(rqRequest("POST", "/", "application/json", `{"tags":["a",null]}`), &dst)
		if got := outcome(t, nil, err); got != "tags[1] type" || dst.Tags != nil {
			t.Errorf("got %s, %q", got, dst.Tags)
		}
	})
	t.Run("a merge patch's list", func(t *testing.T) {
		r := rqRequest("PATCH", "/", entity.MergePatchType, `{"tags":["b",null]}`)
		_, _, err := e.Patch(r, map[string]any{"tags": []string{"a"}})
		if got := outcome(t, nil, err); got != "tags[1] type" {
			t.Errorf("got %s", got)
		}
	})
	t.Run("a response writes it as null", func(t *testing.T) {
		out, err := e.MakeJSON(map[string]any{"tags": []any{"a", nil}}, entity.Strict())
		if err != nil || string(out) != `{"tags":["a",null],"ns":null,"g":{"flags":null}}` {
			t.Errorf("got %s, %v", out, err)
		}
	})
}

// TestMsgFieldOfAListElementInARequest: {field} is the name a request
// reads the field under (go doc dsl, msg), for a failing element of a
// typed list too: its wire key, renamed or key-cased.
func TestMsgFieldOfAListElementInARequest(t *testing.T) {
	tests := []struct {
		name    string
		reg     *entity.Registry
		triples []string
		body    string
		want    string
	}{
		{"renamed", entity.NewRegistry(), []string{"tags", "[]string", "rename 'labels' | each 'min 2' | msg 'bad {field}'"}, `{"labels":["a"]}`, "bad labels"},
		{"key-cased", entity.NewRegistry(entity.KeyCase(entity.CamelCase)), []string{"user_tags", "[]string", "each 'min 2' | msg 'bad {field}'"}, `{"userTags":["a"]}`, "bad userTags"},
		{"the list itself", entity.NewRegistry(), []string{"tags", "[]string", "rename 'labels' | max 1 | msg 'bad {field}'"}, `{"labels":["ab","cd"]}`, "bad labels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := expose(t, tt.reg, "doc", tt.triples...)
			r := httptest.NewRequest("POST", "/", strings.NewReader(tt.body))
			r.Header.Set("Content-Type", "application/json")
			_, err := e.MakeRequest(r)
			if fes := fieldErrorsOrNone(err); len(fes) != 1 || fes[0].Message != tt.want {
				t.Errorf("MakeRequest: %v; want one error saying %q", err, tt.want)
			}
		})
	}
}
