package entity_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
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
	_, verr := login.MakeRequest(jsonRequest(t, map[string]any{"name": "a", "password": "hunter2"}))
	var ve *entity.ValidationError
	if !errors.As(verr, &ve) || len(ve.Fields) != 2 {
		t.Fatalf("setup: %v", verr)
	}
	ve.Fields[0].Pointer, ve.Fields[0].Code, ve.Fields[0].Params = "/name", "min", map[string]any{"min": 2}
	ve.Fields[1].Pointer, ve.Fields[1].Code, ve.Fields[1].Params = "/password", "min", map[string]any{"min": 12}

	setLimit(reg, func(l *entity.Limits) { l.Errors = 1 })
	_, capped := login.MakeRequest(jsonRequest(t, map[string]any{"password": "hunter2"}))
	setLimit(reg, func(l *entity.Limits) { l.Errors = 100 })
	_, methodErr := login.MakeRequest(httptest.NewRequest("GET", "/", nil))
	_, jsonAt9 := login.MakeRequest(jsonRequest(t, `{"name":}`))
	_, jsonAt0 := login.MakeRequest(jsonRequest(t, `x`))
	_, serverJSON := login.MakeJSON([]byte(`{"name":}`))

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
		{name: "invalid JSON of the server's data", err: serverJSON, status: 500, typ: "about:blank",
			title: "Internal Server Error", detail: "the server could not answer the request", offset: -1},
		{name: "invalid JSON, offset unknown", err: &entity.InputError{Status: 400, Msg: "the body is not valid JSON", Err: entity.ErrInvalidJSON, Offset: 9},
			status: 400, typ: "/problems/invalid-json", title: "Invalid JSON", detail: "the body is not valid JSON", offset: -1},
		{name: "an offset on another error is not written", err: &entity.InputError{Status: 422, Msg: "no", Offset: 3},
			status: 422, typ: "about:blank", title: "Unprocessable Entity", detail: "no", offset: -1},
		{name: "method not allowed", err: methodErr, status: 405, typ: "about:blank", title: "Method Not Allowed",
			detail: "the method is not allowed; use POST", offset: -1, header: [2]string{"Allow", "POST"}},
		{name: "body too large", err: &entity.InputError{Status: 413, Msg: "the request body is larger than the limit of 64 bytes", Err: entity.ErrBodyTooLarge},
			status: 413, typ: "about:blank", title: "Request Entity Too Large", detail: "the request body is larger than the limit of 64 bytes", offset: -1},
		{name: "unsupported media type", err: &entity.InputError{Status: 415, Msg: "the body is text/plain; send Content-Type: application/json", Err: entity.ErrUnsupportedMediaType},
			status: 415, typ: "/problems/unsupported-media-type", title: "Unsupported Media Type",
			detail: "the body is text/plain; send Content-Type: application/json", offset: -1,
			accept: []string{"application/json"},
			header: [2]string{"Accept", entity.AcceptedMediaTypes()}},
		{name: "unsupported media type, accepting one", err: &entity.InputError{Status: 415, Msg: "send JSON", Accept: "application/json"},
			status: 415, typ: "/problems/unsupported-media-type", title: "Unsupported Media Type", detail: "send JSON", offset: -1,
			accept: []string{"application/json"}, header: [2]string{"Accept", "application/json"}},
		{name: "unsupported media type, accepting forms", err: &entity.InputError{Status: 415, Msg: "send JSON or a form", Accept: "application/json, multipart/form-data"},
			status: 415, typ: "/problems/unsupported-media-type", title: "Unsupported Media Type", detail: "send JSON or a form", offset: -1,
			accept: []string{"application/json", "multipart/form-data"}, header: [2]string{"Accept", "application/json, multipart/form-data"}},
		{name: "the 415 sentinel wrapped", err: fmt.Errorf("upload: %w", entity.ErrUnsupportedMediaType),
			status: 415, typ: "/problems/unsupported-media-type", title: "Unsupported Media Type",
			detail: "the body's media type is not one of " + entity.AcceptedMediaTypes(), offset: -1,
			accept: []string{"application/json"},
			header: [2]string{"Accept", entity.AcceptedMediaTypes()}},
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
			if got := string(entity.ProblemJSON(ve)); got != want {
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
		{"Write's validation error", "https://api.example.com/problems/", func(w *httptest.ResponseRecorder) { e.Write(w, jsonRequest(t, `{}`)) },
			"https://api.example.com/problems/validation"},
		{"Registry.Write's invalid JSON", "https://api.example.com/problems/", func(w *httptest.ResponseRecorder) { reg.Lookup("user").Write(w, jsonRequest(t, `{`)) },
			"https://api.example.com/problems/invalid-json"},
		{"Registry.WriteError's 415", "tag:example.com,2026:", func(w *httptest.ResponseRecorder) {
			reg.WriteError(w, &entity.InputError{Status: 415, Msg: "send JSON"})
		}, "tag:example.com,2026:unsupported-media-type"},
		{"405 stays about:blank", "https://api.example.com/problems/", func(w *httptest.ResponseRecorder) {
			reg.WriteError(w, &entity.InputError{Status: 405, Msg: "no", Allow: "GET"})
		}, "about:blank"},
		{"an empty base is the default", "", func(w *httptest.ResponseRecorder) { e.Write(w, jsonRequest(t, `{}`)) }, "/problems/validation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg.Configure(entity.ProblemTypeBase(tt.base))
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

// jsonRequest returns a POST request whose JSON body is v (raw JSON as it
// is, anything else marshalled), with the headers given as name, value
// pairs.
func jsonRequest(t testing.TB, v any, header ...string) *http.Request {
	t.Helper()
	var body []byte
	switch x := v.(type) {
	case []byte:
		body = x
	case string:
		body = []byte(x)
	default:
		var err error
		if body, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	r := httptest.NewRequest("POST", "/", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	return r
}

// instanceMember matches the "instance" member of a 500, whose id is new
// at each response.
var instanceMember = regexp.MustCompile(`,"instance":"urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"`)

// withoutInstance returns a problem body without its "instance" member.
func withoutInstance(body string) string { return instanceMember.ReplaceAllString(body, "") }

// generic500 is the body of every 500, its instance left out.
const generic500 = `{"type":"about:blank","title":"Internal Server Error","status":500,"detail":"the server could not answer the request"}`

// marker is the client's text that TestProblemsQuoteNoInput sends in every
// part of its input; no body may hold it, in any case.
const marker = "Zq7Mark"

// requestWith returns a request of method with the body and Content-Type
// given (none when ct is ""), and the headers given as pairs.
func requestWith(method, ct, body string, header ...string) *http.Request {
	r := httptest.NewRequest(method, "/items?q="+marker, strings.NewReader(body))
	if body == "" {
		r.Body = http.NoBody
	}
	if ct != "" {
		r.Header.Set("Content-Type", ct)
	}
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	return r
}

// TestProblemsQuoteNoInput drives every error path of a request, and of
// the server's data, with the marker in the input (values, keys, the
// body's text, headers, the method, the Content-Type, a Select spec, a
// Version) and checks that no problem body, in English or Japanese, holds
// any of it. The one exception, the path of an unknown key, is cut to
// its first 64 bytes: the marker placed past them is not written.
func TestProblemsQuoteNoInput(t *testing.T) {
	reg := entity.NewRegistry()
	setLimit(reg, func(l *entity.Limits) { l.BodyBytes = 1 << 10 })
	expose(t, reg, "sub", "city", "string", "req | min 3")
	e := expose(t, reg, "item", "POST|PUT form",
		"name", "string", "req | min 3 | max 5",
		"mail", "string", "email",
		"site", "string", "url",
		"day", "string", "date",
		"color", "string", "in 'red' 'blue'",
		"code", "string", "regex '^[0-9]+$'",
		"n", "number", "range 1 5",
		"tags", "list", "len 2",
		"pw", "string", "secret | min 8",
		"X-Trace", "string", "min 40",
		"sub", "$sub", "",
	)
	longKey := strings.Repeat("k", 64) + marker
	values := `{"name":"` + marker + `","mail":"` + marker + `","site":"` + marker + `","day":"` + marker +
		`","color":"` + marker + `","code":"` + marker + `","n":"` + marker + `","tags":"` + marker +
		`","pw":"` + marker + `","sub":{"city":"` + marker + `x","` + longKey + `":1},"` + longKey + `":2}`
	big := `{"name":"` + strings.Repeat(marker, 200) + `"}`
	requests := []struct {
		name string
		req  func(lang string) *http.Request
		opts []entity.Option
	}{
		{"every value failing", func(l string) *http.Request {
			return requestWith("POST", "application/json", values, "Accept-Language", l, "X-Trace", marker)
		}, []entity.Option{entity.DenyUnknown()}},
		{"every value failing, as a form", func(l string) *http.Request {
			return requestWith("POST", "application/x-www-form-urlencoded", "name="+marker+"&n="+marker+"&mail="+marker+"&"+longKey+"=1", "Accept-Language", l)
		}, []entity.Option{entity.DenyUnknown()}},
		{"values in the query", func(l string) *http.Request {
			return requestWith("POST", "", "", "Accept-Language", l)
		}, []entity.Option{entity.DenyUnknown()}},
		{"an unterminated string", func(l string) *http.Request {
			return requestWith("POST", "application/json", `{"name":"`+marker, "Accept-Language", l)
		}, nil},
		{"a bare word", func(l string) *http.Request {
			return requestWith("POST", "application/json", `{"name":`+marker+`}`, "Accept-Language", l)
		}, nil},
		{"a string body", func(l string) *http.Request {
			return requestWith("POST", "application/json", `"`+marker+`"`, "Accept-Language", l)
		}, nil},
		{"an array body", func(l string) *http.Request {
			return requestWith("POST", "application/json", `["`+marker+`"]`, "Accept-Language", l)
		}, nil},
		{"a Content-Type of another type", func(l string) *http.Request {
			return requestWith("POST", "application/"+marker, `{"name":"x"}`, "Accept-Language", l)
		}, nil},
		{"a Content-Type with parameters", func(l string) *http.Request {
			return requestWith("POST", "text/"+marker+"; charset="+marker, `x`, "Accept-Language", l)
		}, nil},
		{"a Content-Type that does not parse", func(l string) *http.Request {
			return requestWith("POST", marker, `x`, "Accept-Language", l)
		}, nil},
		{"JSON sent as a form", func(l string) *http.Request {
			return requestWith("POST", "application/x-www-form-urlencoded", `{"`+marker+`":1}`, "Accept-Language", l)
		}, nil},
		{"a form that does not parse", func(l string) *http.Request {
			return requestWith("POST", "application/x-www-form-urlencoded", marker+"=%zz", "Accept-Language", l)
		}, nil},
		{"multipart without a boundary", func(l string) *http.Request {
			return requestWith("POST", "multipart/form-data; x="+marker, marker, "Accept-Language", l)
		}, nil},
		{"multipart that does not parse", func(l string) *http.Request {
			return requestWith("POST", "multipart/form-data; boundary="+marker, marker, "Accept-Language", l)
		}, nil},
		{"a body too large", func(l string) *http.Request {
			return requestWith("POST", "application/json", strings.Repeat(" ", 2<<10)+big, "Accept-Language", l)
		}, nil},
		{"a method not allowed", func(l string) *http.Request {
			return requestWith(strings.ToUpper(marker), "application/json", `{}`, "Accept-Language", l)
		}, nil},
	}
	for _, spec := range []string{marker, "name(" + marker + ")", "name)" + marker, "sub(city)" + marker, marker + "/city",
		"sub/" + marker, "*(" + marker + ")", "name,," + marker, "(" + marker, strings.Repeat(marker+",", 700), "sub(" + marker} {
		requests = append(requests, struct {
			name string
			req  func(lang string) *http.Request
			opts []entity.Option
		}{"Select " + clip(spec), func(l string) *http.Request {
			return requestWith("POST", "application/json", `{"name":"abc"}`, "Accept-Language", l)
		}, []entity.Option{entity.Select(spec)}})
	}
	requests = append(requests, struct {
		name string
		req  func(lang string) *http.Request
		opts []entity.Option
	}{"a Version", func(l string) *http.Request {
		return requestWith("POST", "application/json", `{"name":"abc"}`, "Accept-Language", l)
	}, []entity.Option{entity.Version(marker)}})

	check := func(t *testing.T, what, body string) {
		t.Helper()
		if strings.Contains(strings.ToLower(body), strings.ToLower(marker)) {
			t.Errorf("%s holds the client's text: %s", what, clip(body))
		}
	}
	for _, tt := range requests {
		for _, lang := range []string{"en", "ja"} {
			t.Run(tt.name+"/"+lang, func(t *testing.T) {
				rec := httptest.NewRecorder()
				if err := e.Write(rec, tt.req(lang), tt.opts...); err == nil {
					t.Fatalf("Write succeeded: %s", rec.Body)
				}
				check(t, "Write's body", rec.Body.String())
				_, err := e.MakeRequest(tt.req(lang), tt.opts...)
				rec = httptest.NewRecorder()
				entity.WriteError(rec, err)
				check(t, "WriteError's body", rec.Body.String())
				var ie *entity.InputError
				if errors.As(err, &ie) {
					check(t, "InputError.Msg", ie.Msg)
				}
				var ve *entity.ValidationError
				if errors.As(err, &ve) {
					for _, f := range ve.Fields {
						check(t, "a FieldError", f.Message+" "+f.Path+" "+f.Pointer+" "+fmt.Sprint(f.Params))
					}
				}
			})
		}
	}
	// The server's data, and raw JSON given to Make: the marker in values,
	// keys and text.
	server := []struct {
		name string
		in   any
		opts []entity.Option
	}{
		{"values", map[string]any{"name": marker, "mail": marker, "n": marker, "color": marker, "pw": marker, longKey: 1}, []entity.Option{entity.DenyUnknown()}},
		{"raw JSON that does not parse", []byte(`{"name":` + marker), nil},
		{"raw JSON of a string", []byte(`"` + marker + `"`), nil},
		{"raw JSON of an array", []byte(`[{"name":"` + marker + `"}]`), nil},
		{"a Select spec", map[string]any{"name": "abc"}, []entity.Option{entity.Select("name(" + marker + ")")}},
		{"a Version", map[string]any{"name": "abc"}, []entity.Option{entity.Version(marker)}},
	}
	for _, tt := range server {
		for _, lang := range []string{"en", "ja"} {
			t.Run("server data: "+tt.name+"/"+lang, func(t *testing.T) {
				rec := httptest.NewRecorder()
				opts := append([]entity.Option{entity.Lang(lang)}, tt.opts...)
				if err := e.Write(rec, tt.in, opts...); err == nil {
					t.Fatalf("Write succeeded: %s", rec.Body)
				}
				check(t, "Write's body", rec.Body.String())
				_, err := e.Make(tt.in, opts...)
				rec = httptest.NewRecorder()
				entity.WriteError(rec, err)
				check(t, "WriteError's body", rec.Body.String())
			})
		}
	}
}

// TestUnknownKeyPathCut checks that the path and pointer of an unknown key
// hold at most its first 64 bytes (cut at a UTF-8 boundary), and all of a
// shorter one.
func TestUnknownKeyPathCut(t *testing.T) {
	e := exposeOne(t, "string", "")
	tests := []struct{ name, key, path string }{
		{"short", "extra", "extra"},
		{"64 bytes", strings.Repeat("k", 64), strings.Repeat("k", 64)},
		{"65 bytes", strings.Repeat("k", 65), strings.Repeat("k", 64) + "…"},
		{"cut inside a rune", strings.Repeat("k", 63) + "é" + marker, strings.Repeat("k", 63) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.MakeRequest(jsonRequest(t, map[string]any{tt.key: 1}), entity.DenyUnknown())
			fe := oneFieldError(t, err)
			if fe.Code != "unknown" || fe.Path != tt.path || fe.Pointer != "/"+tt.path {
				t.Errorf("path %q, pointer %q, want %q", fe.Path, fe.Pointer, tt.path)
			}
		})
	}
}

// TestProblemsInJapanese checks that the title and the detail of every
// problem type the package writes follow the call's language, as its
// field messages do: a request's Accept-Language, or Lang.
func TestProblemsInJapanese(t *testing.T) {
	reg := entity.NewRegistry()
	setLimit(reg, func(l *entity.Limits) { l.BodyBytes = 64 })
	e := expose(t, reg, "item", "POST", "v", "string", "req")
	forms := expose(t, reg, "formitem", "POST form", "v", "string", "req")
	ja := func(method, ct, body string) func() *http.Request {
		return func() *http.Request { return requestWith(method, ct, body, "Accept-Language", "ja-JP,ja;q=0.9") }
	}
	tests := []struct {
		name          string
		req           func() *http.Request
		opts          []entity.Option
		status        int
		title, detail string
		forms         bool // made with the entity that reads forms
	}{
		{"validation", ja("POST", "application/json", `{}`), nil, 400,
			"入力内容に誤りがあります", "1件の項目に誤りがあります", false},
		{"invalid JSON", ja("POST", "application/json", `{"v":`), nil, 400,
			"JSONとして読めません", "本文がJSONとして正しくありません（5バイト目: 入力が途中で終わっています）", false},
		{"not an object", ja("POST", "application/json", `[1]`), nil, 400,
			"JSONとして読めません", "本文がJSONのオブジェクトではありません（0バイト目: 配列）", false},
		{"invalid fields", ja("POST", "application/json", `{"v":"a"}`), []entity.Option{entity.Select("w")}, 400,
			"項目の選択が正しくありません", `項目の選択が正しくありません（0バイト目: ここにその名前の項目はありません。あるのは "v" です）`, false},
		{"invalid version", ja("POST", "application/json", `{"v":"a"}`), []entity.Option{entity.Version("latest")}, 400,
			"バージョンが正しくありません", "バージョンの指定が正しくありません。v2 や v2.1 のように、ドットで区切った数字（先頭の v は省略可）で指定してください", false},
		{"unsupported media type", ja("POST", "text/plain", `v`), nil, 415,
			"対応していないメディアタイプです", "リクエストの本文の Content-Type が JSON ではありません。Content-Type を application/json（または +json の型）にしてください", false},
		{"unsupported media type, forms read", ja("POST", "text/plain", `v`), nil, 415,
			"対応していないメディアタイプです", "リクエストの本文の Content-Type が JSON でもフォームでもありません。Content-Type を application/json（または +json の型）、application/x-www-form-urlencoded、multipart/form-data のいずれかにしてください", true},
		{"a form, forms not read", ja("POST", "application/x-www-form-urlencoded", "v=a"), nil, 415,
			"対応していないメディアタイプです", "このリクエストはフォームの本文を受け付けません。Content-Type を application/json（または +json の型）にしてください", false},
		{"method not allowed", ja("GET", "", ""), nil, 405,
			"許可されていないメソッドです", "このメソッドは使えません（使えるメソッド: POST）", false},
		{"body too large", ja("POST", "application/json", `{"v":"`+strings.Repeat("a", 100)+`"}`), nil, 413,
			"リクエストが大きすぎます", "リクエストの本文が上限の64バイトを超えています", false},
		{"a form that does not parse", ja("POST", "application/x-www-form-urlencoded", "v=%zz"), nil, 400,
			"リクエストが正しくありません", "リクエストの本文がフォーム（application/x-www-form-urlencoded）として正しくありません", true},
		{"Lang over Accept-Language", ja("POST", "application/json", `{}`), []entity.Option{entity.Lang("en")}, 400,
			"Validation failed", "1 field failed validation", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e
			if tt.forms {
				e = forms
			}
			rec := httptest.NewRecorder()
			e.Write(rec, tt.req(), tt.opts...)
			_, err := e.MakeRequest(tt.req(), tt.opts...)
			rec2 := httptest.NewRecorder()
			entity.WriteError(rec2, err)
			for what, rec := range map[string]*httptest.ResponseRecorder{"Write": rec, "WriteError": rec2} {
				if pb, ok := checkProblem(t, rec, tt.status); ok && (pb.Title != tt.title || pb.Detail != tt.detail) {
					t.Errorf("%s: title %q, detail %q; want %q, %q", what, pb.Title, pb.Detail, tt.title, tt.detail)
				}
			}
		})
	}
	const title500, detail500 = "サーバー内部でエラーが発生しました", "サーバーがリクエストに応えられませんでした"
	t.Run("the server's data", func(t *testing.T) {
		rec := httptest.NewRecorder()
		err := e.Write(rec, map[string]any{}, entity.Lang("ja"))
		rec2 := httptest.NewRecorder()
		entity.WriteError(rec2, err) // the error keeps the call's language
		for what, rec := range map[string]*httptest.ResponseRecorder{"Write": rec, "WriteError": rec2} {
			if pb, ok := checkProblem(t, rec, 500); ok && (pb.Title != title500 || pb.Detail != detail500) {
				t.Errorf("%s: title %q, detail %q", what, pb.Title, pb.Detail)
			}
		}
	})
	t.Run("a server error of no call, written by Write", func(t *testing.T) {
		rec := httptest.NewRecorder()
		reg.Lookup("nothing").Write(rec, map[string]any{}, entity.Lang("ja")) // no entity by that name
		if pb, ok := checkProblem(t, rec, 500); ok && (pb.Title != title500 || pb.Detail != detail500) {
			t.Errorf("title %q, detail %q", pb.Title, pb.Detail)
		}
	})
	t.Run("the handler's own errors", func(t *testing.T) {
		err := e.Fail(ja("POST", "application/json", `{"v":"a"}`)(), nil, entity.NewFieldError("/v", "required", nil))
		rec := httptest.NewRecorder()
		entity.WriteError(rec, err)
		if pb, ok := checkProblem(t, rec, 400); ok && (pb.Title != "入力内容に誤りがあります" || pb.Errors[0].Message != "必須です") {
			t.Errorf("title %q, errors %+v", pb.Title, pb.Errors)
		}
	})
	t.Run("an error of no call stays English", func(t *testing.T) {
		rec := httptest.NewRecorder()
		entity.WriteError(rec, &entity.InputError{Status: 404, Msg: "no such item"})
		if pb, ok := checkProblem(t, rec, 404); ok && (pb.Title != "Not Found" || pb.Detail != "no such item") {
			t.Errorf("an error of no call: title %q, detail %q, want English", pb.Title, pb.Detail)
		}
	})
}

// TestLocalizedProblemsVaryOnAcceptLanguage: a problem written in the
// language of a call (a request's Accept-Language, or Lang) says Vary:
// Accept-Language, once, beside the Vary values a handler set, and its
// Content-Language; one that is English whatever the request (an error of
// no call) says neither.
func TestLocalizedProblemsVaryOnAcceptLanguage(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "item", "POST", "v", "string", "req")
	badRequest := func() *http.Request {
		return requestWith("POST", "application/json", `{}`, "Accept-Language", "ja")
	}
	tests := []struct {
		name  string
		write func(w http.ResponseWriter)
		set   []string // Vary values the handler set first
		want  []string
	}{
		{"a request's validation error", func(w http.ResponseWriter) {
			_, err := e.MakeRequest(badRequest())
			entity.WriteError(w, err)
		}, nil, []string{"Accept-Language"}},
		{"Write of a request", func(w http.ResponseWriter) { e.Write(w, badRequest()) }, nil, []string{"Accept-Language"}},
		{"a method the entity does not take", func(w http.ResponseWriter) {
			_, err := e.MakeRequest(requestWith("GET", "", "", "Accept-Language", "ja"))
			reg.WriteError(w, err)
		}, nil, []string{"Accept-Language"}},
		{"server data written with Lang", func(w http.ResponseWriter) { e.Write(w, map[string]any{}, entity.Lang("ja")) }, nil, []string{"Accept-Language"}},
		{"the handler's Vary kept", func(w http.ResponseWriter) {
			_, err := e.MakeRequest(badRequest())
			entity.WriteError(w, err)
		}, []string{"X-Role"}, []string{"X-Role", "Accept-Language"}},
		{"not twice", func(w http.ResponseWriter) {
			_, err := e.MakeRequest(badRequest())
			entity.WriteError(w, err)
		}, []string{"Origin, accept-language"}, []string{"Origin, accept-language"}},
		{"an error of no call", func(w http.ResponseWriter) {
			entity.WriteError(w, &entity.InputError{Status: 404, Msg: "no such item"})
		}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			for _, v := range tt.set {
				rec.Header().Add("Vary", v)
			}
			tt.write(rec)
			if got := rec.Header().Values("Vary"); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Vary = %q, want %q", got, tt.want)
			}
			if cl, want := rec.Header().Get("Content-Language"), map[bool]string{true: "ja"}[tt.want != nil]; cl != want {
				t.Errorf("Content-Language = %q, want %q", cl, want)
			}
		})
	}
}

// gone is a handler's error that carries its status (410).
type gone struct{}

func (gone) Error() string   { return "the order was archived" }
func (gone) StatusCode() int { return http.StatusGone }

// TestWriteRequestError: a handler's own 4xx errors, written for the
// request they answer, take their title (the status's) and their detail
// (an InputError's Code, declared with DeclareCode) from the catalogs in
// the request's language, and say it with Content-Language and Vary:
// Accept-Language.
func TestWriteRequestError(t *testing.T) {
	reg := entity.NewRegistry()
	err := errors.Join(
		reg.DeclareCode("no_customer", map[string]string{"en": "no customer has this id", "ja": "この ID の顧客はいません"}),
		reg.DeclareCode("no_stock", map[string]string{"en": "only {left} left"}),
		reg.SetMessages("ja", map[string]string{"problem.title.409": "在庫と合いません"}),
		reg.SetMessages("en", map[string]string{"problem.title.403": "Not Yours"}),
	)
	if err != nil {
		t.Fatal(err)
	}
	e := expose(t, reg, "item", "POST", "v", "string", "req")
	notFound := &entity.InputError{Status: http.StatusNotFound, Code: "no_customer", Msg: "no customer"}
	conflict := &entity.InputError{Status: http.StatusConflict, Code: "no_stock", Params: map[string]any{"left": int64(2)}}
	tests := []struct {
		name          string
		lang          string // the request's Accept-Language
		err           func(r *http.Request) error
		status        int
		title, detail string
		contentLang   string // "" for none, and no Vary
	}{
		{"404 of a code, English", "en", func(*http.Request) error { return notFound }, 404,
			"Not Found", "no customer has this id", "en"},
		{"404 of a code, Japanese", "ja-JP,ja;q=0.9", func(*http.Request) error { return notFound }, 404,
			"見つかりません", "この ID の顧客はいません", "ja"},
		{"409 of a code with params, English", "en", func(*http.Request) error { return conflict }, 409,
			"Conflict", "only 2 left", "en"},
		{"409, a title SetMessages set, a code with no Japanese message", "ja", func(*http.Request) error { return conflict }, 409,
			"在庫と合いません", "only 2 left", "ja"},
		{"403 of no code nor Msg, English", "en", func(*http.Request) error { return &entity.InputError{Status: 403} }, 403,
			"Not Yours", "forbidden", "en"},
		{"403 of no code nor Msg, Japanese", "ja", func(*http.Request) error { return &entity.InputError{Status: 403} }, 403,
			"アクセスが許可されていません", "アクセスが許可されていません", "ja"},
		{"a Msg without a code", "ja", func(*http.Request) error { return &entity.InputError{Status: 404, Msg: "no such item"} }, 404,
			"見つかりません", "no such item", "ja"},
		{"a code no catalog has: the Msg", "ja", func(*http.Request) error {
			return &entity.InputError{Status: 404, Code: "nowhere", Msg: "no such item"}
		}, 404, "見つかりません", "no such item", "ja"},
		{"a status carrier", "ja", func(*http.Request) error { return gone{} }, 410,
			"削除されました", "the order was archived", "ja"},
		{"a language the registry lacks", "fr", func(*http.Request) error { return notFound }, 404,
			"Not Found", "no customer has this id", "en"},
		{"a request's error keeps its call's language", "ja", func(r *http.Request) error {
			_, err := e.MakeRequest(r, entity.Lang("en"))
			return err
		}, 400, "Validation failed", "1 field failed validation", "en"},
		{"a request's error in its language", "ja", func(r *http.Request) error {
			_, err := e.MakeRequest(r)
			return err
		}, 400, "入力内容に誤りがあります", "1件の項目に誤りがあります", "ja"},
		{"the server's error", "ja", func(*http.Request) error { return errors.New("db at 10.0.0.5 is down") }, 500,
			"サーバー内部でエラーが発生しました", "サーバーがリクエストに応えられませんでした", "ja"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := func(w http.ResponseWriter, r *http.Request) { reg.WriteRequestError(w, r, tt.err(r)) }
			rec := httptest.NewRecorder()
			h(rec, requestWith("POST", "application/json", `{}`, "Accept-Language", tt.lang))
			pb, ok := checkProblem(t, rec, tt.status)
			if ok && (pb.Title != tt.title || pb.Detail != tt.detail) {
				t.Errorf("title %q, detail %q; want %q, %q", pb.Title, pb.Detail, tt.title, tt.detail)
			}
			if cl := rec.Header().Get("Content-Language"); cl != tt.contentLang {
				t.Errorf("Content-Language %q, want %q", cl, tt.contentLang)
			}
			if vary := rec.Header().Get("Vary"); vary != "Accept-Language" {
				t.Errorf("Vary %q, want Accept-Language", vary)
			}
			if strings.Contains(rec.Body.String(), "10.0.0.5") {
				t.Errorf("the server's words show: %s", rec.Body)
			}
		})
	}
	t.Run("a nil request: English, said by nothing", func(t *testing.T) {
		rec := httptest.NewRecorder()
		reg.WriteRequestError(rec, nil, notFound)
		pb, ok := checkProblem(t, rec, 404)
		if h := rec.Header(); ok && (pb.Title != "Not Found" || pb.Detail != "no customer has this id" || h.Get("Content-Language") != "" || h.Get("Vary") != "") {
			t.Errorf("title %q, detail %q, headers %v", pb.Title, pb.Detail, h)
		}
	})
	t.Run("WriteError renders a code in English", func(t *testing.T) {
		rec := httptest.NewRecorder()
		reg.WriteError(rec, notFound)
		if pb, ok := checkProblem(t, rec, 404); ok && pb.Detail != "no customer has this id" {
			t.Errorf("detail %q", pb.Detail)
		}
	})
	t.Run("the Default registry's", func(t *testing.T) {
		rec := httptest.NewRecorder()
		entity.WriteRequestError(rec, requestWith("GET", "", "", "Accept-Language", "ja"), &entity.InputError{Status: 404})
		if pb, ok := checkProblem(t, rec, 404); ok && (pb.Title != "見つかりません" || rec.Header().Get("Content-Language") != "ja") {
			t.Errorf("title %q, headers %v", pb.Title, rec.Header())
		}
	})
	t.Run("an InputError's text", func(t *testing.T) {
		for _, c := range []struct {
			err  *entity.InputError
			want string
		}{
			{notFound, "entity: no customer"},
			{conflict, "entity: no_stock"},
		} {
			if got := c.err.Error(); got != c.want {
				t.Errorf("Error() = %q, want %q", got, c.want)
			}
		}
	})
}

// ExampleRegistry_WriteRequestError answers a handler's 404 in the
// client's language.
func ExampleRegistry_WriteRequestError() {
	reg := entity.NewRegistry()
	reg.DeclareCode("no_customer", map[string]string{"en": "no customer has this id", "ja": "この ID の顧客はいません"})
	r := httptest.NewRequest("GET", "/customers/999", nil)
	r.Header.Set("Accept-Language", "ja")
	rec := httptest.NewRecorder()
	reg.WriteRequestError(rec, r, &entity.InputError{Status: http.StatusNotFound, Code: "no_customer"})
	fmt.Println(rec.Code, rec.Header().Get("Content-Language"), rec.Header().Get("Vary"))
	fmt.Println(rec.Body)
	// Output:
	// 404 ja Accept-Language
	// {"type":"about:blank","title":"見つかりません","status":404,"detail":"この ID の顧客はいません"}
}
