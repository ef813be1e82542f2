package entity_test

import (
	"errors"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
)

// DenyUnknown: each key the declaration does not read is a field error of
// code "unknown", at its path, from every kind of input that has keys.
func TestDenyUnknown(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "item", "n", "number", "")
	e := expose(t, reg, "order", "form",
		"id", "number", "rename 'number'",
		"g", "{", "", "note", "string", "", "g", "}", "",
		"items", "$item", "",
	)
	type row struct{ ID, Extra int }
	cases := []struct {
		name string
		in   any
		want []string // Path code
	}{
		{"a map", map[string]any{"id": 1, "zz": 1, "aa": 2, "note": "x", "number": 3}, []string{"aa unknown", "number unknown", "zz unknown"}},
		{"a map[string]string", map[string]string{"id": "1", "x": "y"}, []string{"x unknown"}},
		{"raw JSON", []byte(` { "id" : 1 , "x\u0041" : {"a":[1,{"b":"}"}]}, "items":[{"n":1,"m":2}], "y":"z" } `), []string{"items[0].m unknown", "xA unknown", "y unknown"}},
		{"an empty key", []byte(`{"":1}`), []string{`[""] unknown`}},
		{"an empty key in a list", []byte(`{"items":[{"":1}]}`), []string{`items[0][""] unknown`}},
		{"raw JSON, a key twice", []byte(`{"x":1,"x":2}`), []string{"x unknown"}},
		{"nested in a reference list", map[string]any{"items": []any{map[string]any{"n": 1}, map[string]any{"n": 2, "q": 1}}}, []string{"items[1].q unknown"}},
		{"no unknown keys", map[string]any{"id": 1, "note": "n", "items": []any{}}, nil},
		{"a struct has no keys", row{ID: 1, Extra: 2}, nil},
		{"a typed map", map[string]int{"id": 1, "k": 2}, []string{"k unknown"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.MakeJSON(c.in, entity.DenyUnknown())
			var got []string
			for _, f := range fieldErrorsOrNone(err) {
				got = append(got, f.Path+" "+f.Code)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s\n(%v)", diff, err)
			}
			if _, err := e.MakeJSON(c.in); err != nil {
				t.Errorf("without DenyUnknown: %v", err)
			}
		})
	}
	t.Run("a request: body, form and query keys", func(t *testing.T) {
		// The wire form: "number" (a rename), a group's fields under its
		// key. With a body, the query is no source: its keys are unknown.
		r := rqRequest("POST", "/?number=1&q=2", "application/x-www-form-urlencoded", url.Values{"number": {"2"}, "note": {"n"}, "f": {"1"}}.Encode())
		_, err := e.MakeRequest(r, entity.DenyUnknown())
		var got []string
		for _, f := range fieldErrorsOrNone(err) {
			got = append(got, f.Path+" "+f.Code)
		}
		if diff := cmp.Diff([]string{"f unknown", "note unknown", "number unknown", "q unknown"}, got); diff != "" {
			t.Errorf("errors (-want +got):\n%s", diff)
		}
		r = rqRequest("POST", "/", "application/json", `{"number":1,"g":{"note":"n","x":1}}`)
		_, err = e.MakeRequest(r, entity.DenyUnknown())
		if fs := fieldErrorsOrNone(err); len(fs) != 1 || fs[0].Path != "g.x" || fs[0].Code != "unknown" {
			t.Errorf("a group's own object: %v, want g.x unknown", err)
		}
		body, ct := rqMultipartFile(t, "number", "1", "upload", "f.txt", "data")
		_, err = e.MakeRequest(rqRequest("POST", "/", ct, body), entity.DenyUnknown())
		if fs := fieldErrorsOrNone(err); len(fs) != 1 || fs[0].Path != "upload" || fs[0].Code != "unknown" {
			t.Errorf("a multipart file part: %v, want upload unknown", err)
		}
		r = rqRequest("POST", "/", "application/json", `{"id":1,"zz":true}`)
		r.Header.Set("X-Other", "h")
		if _, err := e.MakeRequest(r, entity.DenyUnknown()); err == nil || !strings.Contains(err.Error(), "zz: is not a known field") {
			t.Errorf("JSON body: %v", err)
		}
		if _, err := e.MakeRequest(rqRequest(http.MethodGet, "/?id=1&q=2", "", "")); err != nil {
			t.Errorf("no option: %v", err)
		}
	})
}

// fieldErrorsOrNone returns err's field errors, or none when err is nil.
func fieldErrorsOrNone(err error) []*entity.FieldError {
	if err == nil {
		return nil
	}
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		return []*entity.FieldError{{Path: err.Error(), Code: "not a ValidationError"}}
	}
	return ve.Fields
}

// failedFields returns the failures of err, a call's, each as its path
// and code ("a.b required"), in order; nil for none.
func failedFields(err error) []string {
	var got []string
	for _, fe := range fieldErrorsOrNone(err) {
		got = append(got, fe.Path+" "+fe.Code)
	}
	return got
}

// rqMultipartFile returns a multipart body of one value and one file part,
// and its Content-Type.
func rqMultipartFile(t *testing.T, key, value, file, filename, content string) (string, string) {
	t.Helper()
	var b strings.Builder
	w := multipart.NewWriter(&b)
	if err := w.WriteField(key, value); err != nil {
		t.Fatal(err)
	}
	fw, err := w.CreateFormFile(file, filename)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String(), w.FormDataContentType()
}

// An empty key's pointer is "/" (RFC 6901: "" is the whole document).
func TestDenyUnknownEmptyKeyPointer(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "one", "a", "number", "")
	_, err := e.MakeJSON([]byte(`{"":1}`), entity.DenyUnknown())
	fs := fieldErrorsOrNone(err)
	if len(fs) != 1 || fs[0].Pointer != "/" || fs[0].Path != `[""]` {
		t.Errorf("got %+v, want pointer / and path [\"\"]", fs)
	}
}

// An X- field is read from the headers only: its name in the query or the
// body is an unknown key there.
func TestDenyUnknownHeaderNamesElsewhere(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "h", "X-Token", "string", "", "n", "number", "")
	cases := []struct {
		name string
		r    *http.Request
		want []string
	}{
		{"in the query", rqRequest("GET", "/?X-Token=1&n=2", "", ""), []string{"X-Token unknown"}},
		{"in a JSON body", rqRequest("POST", "/", "application/json", `{"x-token":"1"}`), []string{"x-token unknown"}},
		{"in the header", rqRequest("GET", "/?n=2", "", "", "X-Token", "1"), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.MakeRequest(c.r, entity.DenyUnknown())
			var got []string
			for _, f := range fieldErrorsOrNone(err) {
				got = append(got, f.Path+" "+f.Code)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDenyUnknownKnowsAReadonlyMergedReferencesKeys: a request ignores a
// readonly key, a readonly merged reference's keys too (at the top level
// and in a group): DenyUnknown knows them.
func TestDenyUnknownKnowsAReadonlyMergedReferencesKeys(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "audit", "by", "string", "", "meta", "{", "rename 'm'", "at", "string", "", "meta", "}", "")
	e := expose(t, reg, "doc",
		"title", "string", "",
		"st", "$audit", "merge | readonly",
		"g", "{", "",
		"inner", "$audit", "merge | readonly",
		"g", "}", "",
	)
	tests := []struct{ name, body, unknown string }{
		{"top-level keys", `{"title":"x","by":"me","m":{"at":"now"}}`, ""},
		{"a group's keys", `{"title":"x","g":{"by":"me","m":{}}}`, ""},
		{"a key of no field", `{"title":"x","g":{"who":"me"}}`, "g.who"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/", strings.NewReader(tt.body))
			r.Header.Set("Content-Type", "application/json")
			o, err := e.MakeRequest(r, entity.DenyUnknown())
			if tt.unknown == "" {
				if err != nil {
					t.Fatalf("MakeRequest: %v; want no error", err)
				}
				if v, ok := o.Get("by"); ok && v != nil {
					t.Errorf("by = %v: a readonly key is ignored", v)
				}
				return
			}
			if fes := fieldErrorsOrNone(err); len(fes) != 1 || fes[0].Path != tt.unknown || fes[0].Code != "unknown" {
				t.Errorf("MakeRequest: %v; want %s unknown", err, tt.unknown)
			}
		})
	}
}

// TestDenyUnknownKnowsABodyKeyLikeAHeaderName: a body field whose wire key
// only looks like a header's (x_trace, kebab-cased: x-trace) is read from
// the body and known there; a header field's key in the body is not.
func TestDenyUnknownKnowsABodyKeyLikeAHeaderName(t *testing.T) {
	e := expose(t, entity.NewRegistry(entity.KeyCase(entity.KebabCase)), "doc",
		"x_trace", "string", "", "X-Count", "number", "")
	tests := []struct{ name, body, unknown string }{
		{"a body key", `{"x-trace":"a"}`, ""},
		{"a header field's key", `{"x-trace":"a","X-Count":1}`, "X-Count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/", strings.NewReader(tt.body))
			r.Header.Set("Content-Type", "application/json")
			o, err := e.MakeRequest(r, entity.DenyUnknown())
			if tt.unknown == "" {
				if err != nil {
					t.Fatalf("MakeRequest: %v; want no error", err)
				}
				if v, _ := o.Get("x-trace"); v != "a" {
					t.Errorf("x-trace = %v, want a", v)
				}
				return
			}
			if fes := fieldErrorsOrNone(err); len(fes) != 1 || fes[0].Path != tt.unknown || fes[0].Code != "unknown" {
				t.Errorf("MakeRequest: %v; want %s unknown", err, tt.unknown)
			}
		})
	}
}

// TestDenyUnknownKnowsAMergedReferencesQueryFields: a merged $name's
// query fields are the top level's parameters: DenyUnknown knows their
// keys in the query, with a body or without.
func TestDenyUnknownKnowsAMergedReferencesQueryFields(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "paging", "q", "string", "query | min 2")
	e := expose(t, reg, "search", "GET|POST", "name", "string", "", "p", "$paging", "merge")
	tests := []struct{ name, method, target, body, unknown string }{
		{"a GET", "GET", "/?q=ab&name=x", "", ""},
		{"a POST", "POST", "/?q=ab", `{"name":"x"}`, ""},
		{"another key", "POST", "/?q=ab&z=1", `{"name":"x"}`, "z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body))
			if tt.body != "" {
				r.Header.Set("Content-Type", "application/json")
			}
			o, err := e.MakeRequest(r, entity.DenyUnknown())
			if tt.unknown == "" {
				if err != nil {
					t.Fatalf("MakeRequest: %v; want no error", err)
				}
				if v, _ := o.Get("q"); v != "ab" {
					t.Errorf("q = %v, want ab", v)
				}
				return
			}
			if fes := fieldErrorsOrNone(err); len(fes) != 1 || fes[0].Path != tt.unknown || fes[0].Code != "unknown" {
				t.Errorf("MakeRequest: %v; want %s unknown", err, tt.unknown)
			}
		})
	}
}
