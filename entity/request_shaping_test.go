package entity_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// Per-call shaping on the request side: what a request reads is what its
// flags and version show, never what a selection or `lazy` writes.

// TestRequestKeepsLazyFields: a lazy field (written by a response only
// when a selection names it) is read, checked and kept by a request, as any
// field: MakeRequest's Object holds it, Bind stores it, a merge patch sets
// it.
func TestRequestKeepsLazyFields(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "profile", "POST|PATCH",
		"name", "string", "req",
		"bio", "string", "lazy | req | min 3",
		"extra", "{", "lazy",
		"note", "string", "",
		"extra", "}", "",
	)
	body := `{"name":"a","bio":"hello","extra":{"note":"n"}}`
	post := func() *entity.Object {
		t.Helper()
		r := httptest.NewRequest("POST", "/", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		o, err := e.MakeRequest(r)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	t.Run("MakeRequest", func(t *testing.T) {
		o := post()
		if v, ok := o.Get("bio"); !ok || v != "hello" {
			t.Errorf(`Get("bio") = %v, %v; want "hello", true`, v, ok)
		}
		if v, ok := o.Get("extra"); !ok || v.(*entity.Object).String() != `{"note":"n"}` {
			t.Errorf(`Get("extra") = %v, %v; want {"note":"n"}, true`, v, ok)
		}
		if got, _ := o.MarshalJSON(); string(got) != body {
			t.Errorf("MarshalJSON = %s, want %s", got, body)
		}
	})
	t.Run("still checked", func(t *testing.T) {
		for _, b := range []string{`{"name":"a"}`, `{"name":"a","bio":"hi"}`} {
			r := httptest.NewRequest("POST", "/", strings.NewReader(b))
			r.Header.Set("Content-Type", "application/json")
			_, err := e.MakeRequest(r)
			if fes := fieldErrors(t, err); len(fes) != 1 || fes[0].Path != "bio" {
				t.Errorf("%s: got %v, want one error at bio", b, err)
			}
		}
	})
	t.Run("a selection still shapes what is returned", func(t *testing.T) {
		r := httptest.NewRequest("POST", "/", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		o, err := e.MakeRequest(r, entity.Select("name"))
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := o.MarshalJSON(); string(got) != `{"name":"a"}` {
			t.Errorf("got %s", got)
		}
	})
	t.Run("Bind", func(t *testing.T) {
		r := httptest.NewRequest("POST", "/", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		var dst struct {
			Name string  `json:"name"`
			Bio  *string `json:"bio"`
			Note string  `json:"note"`
		}
		if err := e.Bind(r, &dst); err != nil {
			t.Fatal(err)
		}
		if dst.Bio == nil || *dst.Bio != "hello" || dst.Note != "n" {
			t.Errorf("Bind gave bio %v, note %q", dst.Bio, dst.Note)
		}
	})
	t.Run("Patch", func(t *testing.T) {
		r := httptest.NewRequest("PATCH", "/", strings.NewReader(`{"bio":"hello again"}`))
		r.Header.Set("Content-Type", entity.MergePatchType)
		merged, touched, err := e.Patch(r, map[string]any{"name": "a", "bio": "old bio"})
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := merged.Get("bio"); !ok || v != "hello again" {
			t.Errorf(`Get("bio") = %v, %v; want "hello again", true`, v, ok)
		}
		if len(touched) != 1 || touched[0] != "bio" {
			t.Errorf("touched %q", touched)
		}
	})
	t.Run("RequestFields", func(t *testing.T) {
		for _, f := range e.RequestFields() {
			if f.Lazy {
				t.Errorf("RequestFields: %s is lazy: a request reads every field", f.Name)
			}
		}
		if fs := e.Fields(); !fs[1].Lazy {
			t.Errorf("Fields: bio is not lazy")
		}
	})
}

// TestRequestFlagsFromContext: the flags NewContext stored in a request's
// context are the flags of every call that reads it (MakeRequest, Bind,
// Patch), without WithContext, as its Accept-Language is its language.
func TestRequestFlagsFromContext(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin", "staff"); err != nil {
		t.Fatal(err)
	}
	e := expose(t, reg, "account", "POST|PATCH",
		"name", "string", "req",
		"role", "string", "if 'admin' | req",
		"desk", "string", "if 'staff'",
	)
	request := func(method, ct, body string, flags ...string) *http.Request {
		r := httptest.NewRequest(method, "/", strings.NewReader(body))
		r.Header.Set("Content-Type", ct)
		if flags != nil {
			r = r.WithContext(entity.NewContext(r.Context(), flags...))
		}
		return r
	}
	tests := []struct {
		name  string
		flags []string
		opts  []entity.Option
		body  string
		want  string // the Object's response form, or the failing paths and codes
	}{
		{"admin's echo is read", []string{"admin"}, nil, `{"name":"a","role":"r"}`, `{"name":"a","role":"r"}`},
		{"admin's req applies", []string{"admin"}, nil, `{"name":"a"}`, "role required"},
		{"no flags: the key is unknown", nil, []entity.Option{entity.DenyUnknown()}, `{"name":"a","role":"r"}`, "role unknown"},
		{"admin under DenyUnknown", []string{"admin"}, []entity.Option{entity.DenyUnknown()}, `{"name":"a","role":"r"}`, `{"name":"a","role":"r"}`},
		{"With adds to them", []string{"admin"}, []entity.Option{entity.With("staff")}, `{"name":"a","role":"r","desk":"d"}`, `{"name":"a","role":"r","desk":"d"}`},
		{"an undeclared flag is ignored", []string{"root"}, []entity.Option{entity.DenyUnknown()}, `{"name":"a","role":"r"}`, "role unknown"},
		{"with a selection", []string{"admin"}, []entity.Option{entity.Select("role")}, `{"name":"a","role":"r"}`, `{"role":"r"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := e.MakeRequest(request("POST", "application/json", tt.body, tt.flags...), tt.opts...)
			got := outcome(t, o, err)
			if got != tt.want {
				t.Errorf("MakeRequest: got %s, want %s", got, tt.want)
			}
			var dst map[string]any
			err = e.Bind(request("POST", "application/json", tt.body, tt.flags...), &dst, tt.opts...)
			if (err == nil) != strings.HasPrefix(tt.want, "{") {
				t.Errorf("Bind: %v, want %s", err, tt.want)
			}
			if err == nil && tt.opts == nil && dst["role"] != "r" {
				t.Errorf("Bind: %v, want the role", dst)
			}
		})
	}
	t.Run("Patch", func(t *testing.T) {
		current := map[string]any{"name": "a", "role": "r"}
		merged, touched, err := e.Patch(request("PATCH", entity.MergePatchType, `{"role":"s"}`, "admin"), current, entity.DenyUnknown())
		if got := outcome(t, merged, err); got != `{"name":"a","role":"s"}` || len(touched) != 1 {
			t.Errorf("admin: got %s, touched %q", got, touched)
		}
		// Without the flag the current value has no role, and the key is unknown.
		_, _, err = e.Patch(request("PATCH", entity.MergePatchType, `{"role":"s"}`), current, entity.DenyUnknown())
		if got := outcome(t, nil, err); got != "role unknown" {
			t.Errorf("no flag: got %s", got)
		}
		// The current value is made with the flags too: the admin's stored
		// role is kept, and judged.
		merged, _, err = e.Patch(request("PATCH", entity.MergePatchType, `{"name":"b"}`, "admin"), current)
		if got := outcome(t, merged, err); got != `{"name":"b","role":"r"}` {
			t.Errorf("admin, role kept: got %s", got)
		}
	})
}

// outcome describes a request call's result: the Object's response form,
// or its failing paths and codes.
func outcome(t testing.TB, o *entity.Object, err error) string {
	t.Helper()
	if err != nil {
		var parts []string
		for _, fe := range fieldErrors(t, err) {
			parts = append(parts, fe.Path+" "+fe.Code)
		}
		return strings.Join(parts, ", ")
	}
	b, _ := o.MarshalJSON()
	return string(b)
}
