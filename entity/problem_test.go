package entity_test

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestProblemDetails checks the problem details written for each status:
// RFC 9457's members (checkProblem), the package's type, title and
// extension members, and that no secret value reaches any body.
func TestProblemDetails(t *testing.T) {
	reg := entity.NewRegistry()
	login := expose(t, reg, "login", "POST",
		"name", "string", "req | min 2",
		"password", "string", "secret | req | min 12",
	)
	_, verr := login.Make(map[string]any{"name": "a", "password": "hunter2"})
	var ve *entity.ValidationError
	if !errors.As(verr, &ve) || len(ve.Fields) != 2 {
		t.Fatalf("setup: %v", verr)
	}
	ve.Fields[0].Pointer, ve.Fields[0].Code, ve.Fields[0].Params = "/name", "min", map[string]any{"min": 2}
	ve.Fields[1].Pointer, ve.Fields[1].Code, ve.Fields[1].Params = "/password", "min", map[string]any{"min": 12}

	reg.SetMaxErrors(1)
	_, capped := login.Make(map[string]any{"password": "hunter2"})
	reg.SetMaxErrors(100)
	_, methodErr := login.MakeRequest(httptest.NewRequest("GET", "/", nil))
	_, jsonAt9 := login.MakeJSON([]byte(`{"name":}`))
	_, jsonAt0 := login.MakeJSON([]byte(`x`))

	tests := []struct {
		name    string
		err     error
		status  int
		typ     string
		title   string
		detail  string
		errors  int // entries of "errors"
		omitted int
		offset  int // -1: no offset member
		accept  []string
		header  [2]string // a header expected, name and value
	}{
		{name: "validation", err: verr, status: 400, typ: "/problems/validation", title: "Validation failed",
			detail: "2 fields failed validation", errors: 2, offset: -1},
		{name: "validation past the error limit", err: capped, status: 400, typ: "/problems/validation", title: "Validation failed",
			detail: "2 fields failed validation; 1 listed", errors: 1, omitted: 1, offset: -1},
		{name: "invalid JSON with its offset", err: jsonAt9, status: 400, typ: "/problems/invalid-json", title: "Invalid JSON",
			detail: jsonAt9.(*entity.InputError).Msg, offset: 8},
		{name: "invalid JSON at its first byte", err: jsonAt0, status: 400, typ: "/problems/invalid-json", title: "Invalid JSON",
			detail: jsonAt0.(*entity.InputError).Msg, offset: 0},
		{name: "invalid JSON, offset unknown", err: &entity.InputError{Status: 400, Msg: "the body is not valid JSON", Err: entity.ErrInvalidJSON, Offset: 9},
			status: 400, typ: "/problems/invalid-json", title: "Invalid JSON", detail: "the body is not valid JSON", offset: -1},
		{name: "an offset on another error is not written", err: &entity.InputError{Status: 422, Msg: "no", Offset: 3},
			status: 422, typ: "about:blank", title: "Unprocessable Entity", detail: "no", offset: -1},
		{name: "method not allowed", err: methodErr, status: 405, typ: "about:blank", title: "Method Not Allowed",
			detail: "method GET is not allowed; use POST", offset: -1, header: [2]string{"Allow", "POST"}},
		{name: "body too large", err: &entity.InputError{Status: 413, Msg: "the request body is larger than the limit of 64 bytes", Err: entity.ErrBodyTooLarge},
			status: 413, typ: "about:blank", title: "Request Entity Too Large", detail: "the request body is larger than the limit of 64 bytes", offset: -1},
		{name: "unsupported media type", err: &entity.InputError{Status: 415, Msg: "the body is text/plain; send Content-Type: application/json", Err: entity.ErrUnsupportedMediaType},
			status: 415, typ: "/problems/unsupported-media-type", title: "Unsupported Media Type",
			detail: "the body is text/plain; send Content-Type: application/json", offset: -1,
			accept: []string{"application/json", "application/x-www-form-urlencoded", "multipart/form-data"},
			header: [2]string{"Accept", entity.AcceptedMediaTypes}},
		{name: "unsupported media type, accepting one", err: &entity.InputError{Status: 415, Msg: "send JSON", Accept: "application/json"},
			status: 415, typ: "/problems/unsupported-media-type", title: "Unsupported Media Type", detail: "send JSON", offset: -1,
			accept: []string{"application/json"}, header: [2]string{"Accept", "application/json"}},
		{name: "the 415 sentinel wrapped", err: fmt.Errorf("upload: %w", entity.ErrUnsupportedMediaType),
			status: 415, typ: "/problems/unsupported-media-type", title: "Unsupported Media Type",
			detail: "the body's media type is not one of " + entity.AcceptedMediaTypes, offset: -1,
			accept: []string{"application/json", "application/x-www-form-urlencoded", "multipart/form-data"},
			header: [2]string{"Accept", entity.AcceptedMediaTypes}},
		{name: "server error", err: errors.New("pq: password=hunter2 at 10.0.0.5"), status: 500, typ: "about:blank",
			title: "Internal Server Error", detail: "the server could not answer the request", offset: -1},
		{name: "server error of an InputError", err: &entity.InputError{Status: 503, Msg: "hunter2"}, status: 500, typ: "about:blank",
			title: "Internal Server Error", detail: "the server could not answer the request", offset: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			entity.WriteError(rec, tt.err)
			pb, ok := checkProblem(t, rec, tt.status)
			if !ok {
				return
			}
			if pb.Type != tt.typ || pb.Title != tt.title || pb.Detail != tt.detail {
				t.Errorf("type, title, detail = %q, %q, %q; want %q, %q, %q", pb.Type, pb.Title, pb.Detail, tt.typ, tt.title, tt.detail)
			}
			if len(pb.Errors) != tt.errors {
				t.Errorf("%d errors, want %d", len(pb.Errors), tt.errors)
			}
			if ve := (*entity.ValidationError)(nil); errors.As(tt.err, &ve) {
				checkProblemErrors(t, pb, ve)
			} else if pb.Omitted != nil {
				t.Errorf("omitted %d on a problem without errors", *pb.Omitted)
			}
			switch {
			case tt.offset < 0 && pb.Offset != nil:
				t.Errorf("offset %d, want none", *pb.Offset)
			case tt.offset >= 0 && (pb.Offset == nil || *pb.Offset != tt.offset):
				t.Errorf("offset %v, want %d", pb.Offset, tt.offset)
			}
			if fmt.Sprint(pb.Accept) != fmt.Sprint(tt.accept) {
				t.Errorf("accept %q, want %q", pb.Accept, tt.accept)
			}
			if tt.header[0] != "" {
				if got := rec.Header().Get(tt.header[0]); got != tt.header[1] {
					t.Errorf("%s header %q, want %q", tt.header[0], got, tt.header[1])
				}
			}
			for _, secret := range []string{"hunter2", "10.0.0.5"} {
				if strings.Contains(rec.Body.String(), secret) {
					t.Errorf("body holds %q: %s", secret, rec.Body)
				}
			}
		})
	}
}

// TestProblemFieldMembers checks each member of an "errors" entry:
// pointer, path, outputPath, code (the Rule when there is no Code), params
// only when there are some, keys sorted, and message.
func TestProblemFieldMembers(t *testing.T) {
	tests := []struct {
		name  string
		field entity.FieldError
		want  string
	}{
		{"every member", entity.FieldError{Path: "list[1].mail", OutputPath: "list[1].details.mail", Rule: "range", Code: "range",
			Pointer: "/list/1/mail", Params: map[string]any{"min": 1, "max": 9}, Message: "must be between 1 and 9"},
			`{"pointer":"/list/1/mail","path":"list[1].mail","outputPath":"list[1].details.mail","code":"range","params":{"max":9,"min":1},"message":"must be between 1 and 9"}`},
		{"no params", entity.FieldError{Path: "name", OutputPath: "name", Rule: "req", Code: "required", Pointer: "/name", Message: "is required"},
			`{"pointer":"/name","path":"name","outputPath":"name","code":"required","message":"is required"}`},
		{"empty params are left out", entity.FieldError{Path: "a", OutputPath: "a", Rule: "x", Code: "x", Pointer: "/a", Params: map[string]any{}, Message: "m"},
			`{"pointer":"/a","path":"a","outputPath":"a","code":"x","message":"m"}`},
		{"a code from the rule when none is set", entity.FieldError{Path: "a", OutputPath: "b", Rule: "email", Message: "must be a valid email address"},
			`{"pointer":"","path":"a","outputPath":"b","code":"email","message":"must be a valid email address"}`},
		{"params that are not JSON are left out", entity.FieldError{Path: "a", OutputPath: "a", Code: "c", Params: map[string]any{"f": func() {}}, Message: "m"},
			`{"pointer":"","path":"a","outputPath":"a","code":"c","message":"m"}`},
		{"escapes", entity.FieldError{Path: `a"b`, OutputPath: "a\nb", Code: "c", Pointer: "/a\"b~1", Message: "<m>"},
			`{"pointer":"/a\"b~1","path":"a\"b","outputPath":"a\nb","code":"c","message":"\u003cm\u003e"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.field
			ve := &entity.ValidationError{Entity: "e", Fields: []*entity.FieldError{&f}}
			want := `{"type":"/problems/validation","title":"Validation failed","status":400,"detail":"1 field failed validation","errors":[` + tt.want + `]}`
			if got := string(ve.AppendJSON(nil)); got != want {
				t.Errorf("AppendJSON:\n got %s\nwant %s", got, want)
			}
			rec := httptest.NewRecorder()
			entity.WriteError(rec, ve)
			if pb, ok := checkProblem(t, rec, 400); ok {
				checkProblemErrors(t, pb, ve)
			}
		})
	}
}

// TestProblemTypeBase checks that a registry's base names the types of
// the problems Write and the registry's WriteError answer with, and that
// about:blank stays as it is.
func TestProblemTypeBase(t *testing.T) {
	reg := entity.NewRegistry()
	if got := reg.ProblemTypeBase(); got != "/problems/" {
		t.Errorf("default base %q, want /problems/", got)
	}
	e := expose(t, reg, "user", "id", "number", "req")
	tests := []struct {
		name  string
		base  string
		write func(*httptest.ResponseRecorder)
		want  string
	}{
		{"Write's validation error", "https://api.example.com/problems/", func(w *httptest.ResponseRecorder) { e.Write(w, map[string]any{}) },
			"https://api.example.com/problems/validation"},
		{"Registry.Write's invalid JSON", "https://api.example.com/problems/", func(w *httptest.ResponseRecorder) { reg.Write(w, "user", []byte(`{`)) },
			"https://api.example.com/problems/invalid-json"},
		{"Registry.WriteError's 415", "tag:example.com,2026:", func(w *httptest.ResponseRecorder) {
			reg.WriteError(w, &entity.InputError{Status: 415, Msg: "send JSON"})
		}, "tag:example.com,2026:unsupported-media-type"},
		{"405 stays about:blank", "https://api.example.com/problems/", func(w *httptest.ResponseRecorder) {
			reg.WriteError(w, &entity.InputError{Status: 405, Msg: "no", Allow: "GET"})
		}, "about:blank"},
		{"an empty base is the default", "", func(w *httptest.ResponseRecorder) { e.Write(w, map[string]any{}) }, "/problems/validation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg.SetProblemTypeBase(tt.base)
			rec := httptest.NewRecorder()
			tt.write(rec)
			if !strings.HasPrefix(rec.Body.String(), `{"type":"`+tt.want+`",`) {
				t.Errorf("body %s, want type %q", rec.Body, tt.want)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
	if got := entity.Default.ProblemTypeBase(); got != "/problems/" {
		t.Errorf("another registry's base changed the Default's: %q", got)
	}
}
