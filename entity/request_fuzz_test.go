package entity_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
)

// FuzzMakeRequest makes random HTTP requests: any method, query string,
// Content-Type, body (JSON, form, multipart, garbage) and headers (X-
// fields among them), to an entity that reads forms and one that does not. Properties: MakeRequest never panics; it fails with
// an *InputError of status 400, 405 (with the allowed methods), 413 or 415, or
// a *ValidationError, or succeeds with an Object whose JSON is valid and
// conforms to the entity; WriteError answers with the error's status.
func FuzzMakeRequest(f *testing.F) {
	type seed struct {
		method, query string
		ct            uint8
		rawCT         string
		body          string
		hname, hval   string
	}
	for _, s := range []seed{
		{"POST", "name=ann&age=40", 0, "", "", "X-Id", "7"},
		{"GET", "name=ann", 0, "", "", "", ""},
		{"POST", "", 1, "", `{"name":"bob","age":"41","tags":["a","b"],"kids":[{"n":"c"}],"mail":"b@x.io"}`, "X-Token", "abcd"},
		{"PUT", "tags=a&tags=b&tags=c&tags=d", 2, "", "name=cy&age=200&ok=on", "X-Token", "x"},
		{"POST", "", 3, "", "--xx\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\ndee\r\n--xx--\r\n", "", ""},
		{"POST", "", 3, "", "--xx\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\n\r\n" + strings.Repeat("z", 300) + "\r\n--xx--\r\n", "", ""},
		{"POST", "", 1, "", `{"name":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, "", ""},
		{"POST", "", 1, "", `[{"name":"a"}]`, "", ""},
		{"POST", "", 1, "", `{"name":"a"`, "", ""},
		{"POST", "", 1, "", strings.Repeat(" ", 300), "", ""},
		{"POST", "", 6, "", "\xef\xbb\xbf{}", "", ""},
		{"POST", "", 7, "", `{"name":"e","meta":{"__proto__":1}}`, "", ""},
		{"DELETE", "%zz=%", 5, "application/json; charset", "{}", "x-id", "-1"},
		{"post", "", 4, "", "name=x", "X-Id", "9223372036854775808"},
		{"POST", "name=" + strings.Repeat("%41", 100), 2, "", "name=%zz", "", ""},
		{"", "", 5, ";;;", "\x00\xff", "X-Token", "\xff"},
	} {
		f.Add(s.method, s.query, s.ct, s.rawCT, []byte(s.body), s.hname, s.hval)
	}
	reg := entity.NewRegistry()
	setLimit(reg, func(l *entity.Limits) { l.BodyBytes = 256 })
	expose(f, reg, "rqkid", "n", "string", "req | max 5")
	post := expose(f, reg, "rqpost", "POST|PUT form",
		"name", "string", "req | max 20",
		"age", "number", "range 0 150",
		"tags", "list", "max 3",
		"X-Token", "string", "min 3 | secret",
		"X-Id", "number", "",
		"when", "date", "",
		"ok", "bool", "",
		"meta", "none", "",
		"kids", "$rqkid", "",
		"g", "{", "",
		"mail", "string", "email",
		"g", "}", "",
	)
	anyMethod := expose(f, reg, "rqany", "a", "string", "", "l", "list", "", "X-Id", "float", "default 1.5", "name", "text", "")
	cts := []string{"", "application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=xx",
		"text/plain", "", "application/json; charset=utf-8", "application/problem+json"}

	f.Fuzz(func(t *testing.T, method, query string, ct uint8, rawCT string, body []byte, hname, hval string) {
		contentType := cts[int(ct)%len(cts)]
		if int(ct)%len(cts) == 5 {
			contentType = rawCT
		}
		for _, base := range []*entity.Entity{post, anyMethod} {
			var seen *entity.Object // what the check got
			e := base.Checked(func(_ context.Context, o *entity.Object) error {
				seen = o
				fzCheckedObject(t, o)
				return nil
			})
			r := fzRequest(method, query, contentType, body, hname, hval)
			o, err := e.MakeRequest(r)
			var ve *entity.ValidationError
			if errors.As(err, &ve) && seen != nil {
				for _, fe := range ve.Fields {
					if !seen.Failed(fe.Path) {
						t.Fatalf("%s: the check's Object does not say %q failed", e.Name(), fe.Path)
					}
				}
			}
			if err != nil {
				fzReqCheckError(t, e, r, err)
				continue
			}
			if o == nil {
				t.Fatal("MakeRequest returned neither an Object nor an error")
			}
			out, jerr := o.MarshalJSON()
			if jerr != nil || !json.Valid(out) {
				t.Fatalf("MarshalJSON: %s, %v", out, jerr)
			}
			rec := &tbRecorder{TB: t}
			if !entitytest.Conform(rec, e, out) {
				t.Fatalf("%s: the output does not conform: %q\noutput %s", e.Name(), rec.msgs, out)
			}
		}
	})
}

// fzCheckedObject checks the Object a handle's check gets, of a request
// whose declared rules passed or failed: its JSON is valid, and Value
// reads every key it holds without an error.
func fzCheckedObject(t *testing.T, o *entity.Object) {
	t.Helper()
	if out := []byte(o.String()); !json.Valid(out) {
		t.Fatalf("the check's Object is not JSON: %s", out)
	}
	o.Map()
	for _, k := range o.Keys() {
		path := k
		if k == "" || strings.ContainsAny(k, ".[]") { // quoted, as a FieldError's Path has it
			q, _ := json.Marshal(k)
			path = "[" + string(q) + "]"
		}
		if _, _, err := entity.Value[any](o, path); err != nil {
			t.Fatalf("Value of %q: %v", path, err)
		}
	}
}

// fzRequest builds a request without httptest.NewRequest, which panics on
// a malformed method or target: a server's handler gets whatever the
// client sent.
func fzRequest(method, query, contentType string, body []byte, hname, hval string) *http.Request {
	r := &http.Request{
		Method:        method,
		URL:           &url.URL{Path: "/", RawQuery: query},
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Host:          "example.com",
		RemoteAddr:    "192.0.2.1:1234",
		RequestURI:    "/?" + query,
	}
	if len(body) == 0 {
		r.Body = http.NoBody
	}
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	if hname != "" {
		r.Header[hname] = []string{hval}
	}
	r.Header.Set("X-Token", hval)
	return r
}

// fzReqCheckError checks an error of MakeRequest and how WriteError answers it.
func fzReqCheckError(t *testing.T, e *entity.Entity, r *http.Request, err error) {
	t.Helper()
	var ie *entity.InputError
	var ve *entity.ValidationError
	status := 400
	switch {
	case errors.As(err, &ie):
		status = ie.StatusCode()
		switch status {
		case 400:
		case 405:
			if !errors.Is(err, entity.ErrMethod) || ie.Allow == "" {
				t.Fatalf("405 %v: not ErrMethod, or no Allow (%q)", err, ie.Allow)
			}
			if r.Method == "POST" || r.Method == "PUT" {
				t.Fatalf("405 for an allowed method %q", r.Method)
			}
		case 413:
			if !errors.Is(err, entity.ErrBodyTooLarge) {
				t.Fatalf("413 %v is not ErrBodyTooLarge", err)
			}
		case 415:
			if !errors.Is(err, entity.ErrUnsupportedMediaType) {
				t.Fatalf("415 %v is not ErrUnsupportedMediaType", err)
			}
			switch mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt {
			case "application/json":
				t.Fatalf("415 %v for a body of type %s", err, mt)
			case "multipart/form-data":
				if e.Decl().Forms {
					t.Fatalf("415 %v for a body of type %s, which %s reads", err, mt, e.Name())
				}
			}
		default:
			t.Fatalf("InputError with status %d: %v", status, err)
		}
	case errors.As(err, &ve):
		if len(ve.Fields) == 0 {
			t.Fatalf("a ValidationError without fields: %v", err)
		}
	default:
		t.Fatalf("%s: error %v (%T) is neither an InputError nor a ValidationError", e.Name(), err, err)
	}
	rec := httptest.NewRecorder()
	entity.WriteError(rec, err)
	if rec.Code != status || !json.Valid(rec.Body.Bytes()) {
		t.Fatalf("WriteError(%v): %d %s, want %d and JSON", err, rec.Code, rec.Body, status)
	}
}
