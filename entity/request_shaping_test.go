package entity_test

import (
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

