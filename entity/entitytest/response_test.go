package entitytest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// writeRaw returns a handler that writes a status, a Content-Type and a
// body as given.
func writeRaw(status int, contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(status)
		w.Write([]byte(body))
	}
}

// writeEntity returns a handler that writes v with the corpus entity named.
func writeEntity(name string, v any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		corpus.Lookup(name).Write(w, v)
	}
}

// writeRequest returns a handler that writes the entity named from a
// client's request whose JSON body is body: its field errors are a 400.
func writeRequest(name, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		r := httptest.NewRequest("POST", "/", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		corpus.Lookup(name).Write(w, r)
	}
}

var seedInput = map[string]any{"limit": 2, "list": []any{
	map[string]any{"id": "12", "name": "maachang", "age": 40, "mail": "maachang@maachang.com"},
	map[string]any{"id": "21", "name": "saito", "age": 27, "mail": "saito@maachang.com"},
}}

const jsonCT = "application/json; charset=utf-8"

const problemCT = "application/problem+json"

// contentTypeOf returns the Content-Type entity.Write sends with status.
func contentTypeOf(status int) string {
	if status >= 400 {
		return problemCT
	}
	return jsonCT
}

var responseTests = []struct {
	name       string
	handler    http.HandlerFunc
	entity     string
	wantStatus int
	want       []string
}{
	// Responses that pass.
	{"seed payload", writeEntity("users", seedInput), "users", 200, nil},
	{"list payload", writeEntity("user", []any{map[string]any{"name": "a"}}), "user", 200, nil},
	{"validation error", writeRequest("users", `{"list":[{"mail":"x"}]}`), "users", 400, nil},
	{"validation error past the error limit", writeRequest("users", `{"list":[`+strings.TrimSuffix(strings.Repeat("{},", 150), ",")+`]}`), "users", 400, nil},
	{"the server's data failing", writeEntity("users", map[string]any{"list": []any{map[string]any{"mail": "x"}}}), "users", 500, nil},
	{"other 4xx error", writeRaw(405, problemCT, `{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"method PUT is not allowed; use GET"}`), "users", 405, nil},
	{"invalid JSON with its offset", writeRaw(400, problemCT, `{"type":"/problems/invalid-json","title":"Invalid JSON","status":400,"detail":"the body is not valid JSON","offset":9}`), "users", 400, nil},
	{"415 with the media types accepted", writeRaw(415, problemCT, `{"type":"/problems/unsupported-media-type","title":"Unsupported Media Type","status":415,"detail":"send JSON","accept":["application/json"]}`), "users", 415, nil},
	{"field errors with pointers and params", writeRaw(422, problemCT, `{"type":"https://api.example.com/problems/validation","title":"Validation failed","status":422,"detail":"1 field failed validation","errors":[{"pointer":"/list/0/name","path":"list[0].name","outputPath":"list[0].name","code":"min","params":{"min":2},"message":"must be at least 2 characters long"}],"omitted":3}`), "users", 422, nil},
	{"server error", writeEntity("undeclared", map[string]any{"ghost": map[string]any{}}), "undeclared", 500, nil},
	{"201 created", writeRaw(201, jsonCT, seedJSON), "users", 201, nil},
	{"204 no content", writeRaw(204, "", ""), "users", 204, nil},

	// Responses that fail.
	{"wrong status", writeRequest("users", `{"list":{}}`), "users", 200, []string{
		`status: got 400, want 200; body: {"type":"/problems/validation","title":"Validation failed","status":400,"detail":"1 field failed validation","errors":[{"pointer":"/list/name","path":"list.name","outputPath":"list.name","code":"requi…`,
	}},
	{"wrong status, empty body", writeRaw(404, "", ""), "users", 200, []string{
		`status: got 404, want 200; the body is empty`,
	}},
	{"wrong status, long body", writeRaw(500, "text/plain", strings.Repeat("x", 300)), "users", 200, []string{
		`status: got 500, want 200; body: ` + strings.Repeat("x", 200) + `…`,
	}},
	{"wrong content type", writeRaw(200, "text/plain; charset=utf-8", seedJSON), "users", 200, []string{
		`Content-Type: got "text/plain; charset=utf-8", want "application/json; charset=utf-8"`,
	}},
	{"no content type", writeRaw(200, "", seedJSON), "users", 200, []string{
		`Content-Type: got "", want "application/json; charset=utf-8"`,
	}},
	{"json without charset", writeRaw(200, "application/json", seedJSON), "users", 200, []string{
		`Content-Type: got "application/json", want "application/json; charset=utf-8"`,
	}},
	{"body does not conform", writeRaw(200, jsonCT, `{"offset":0,"limit":"2","list":[]}`), "users", 200, []string{
		`limit: want number, got "2"`,
	}},
	{"body is not JSON", writeRaw(200, jsonCT, `ok`), "users", 200, []string{
		`(root): invalid JSON: invalid character 'o' looking for beginning of value (at byte 1)`,
	}},
	{"bad error body: the old format", writeRaw(400, jsonCT, `{"error":"validation failed","entity":"users","fields":[{"path":"x","outputPath":"x","rule":"req","message":"is required"}]}`), "users", 400, []string{
		`Content-Type: got "application/json; charset=utf-8", want "application/problem+json"`,
		`error body: type: missing key, want string matching min 1`,
		`error body: title: missing key, want string matching min 1`,
		`error body: status: missing key, want number matching range 100 599`,
		`error body: detail: missing key, want string matching min 1`,
		`error body: error: undeclared key, got a string`,
		`error body: entity: undeclared key, got a string`,
		`error body: fields: undeclared key, got an array`,
	}},
	{"bad error body: field error missing a key", writeRaw(400, problemCT, `{"type":"/problems/validation","title":"Validation failed","status":400,"detail":"1 field failed validation","errors":[{"pointer":"/x","path":"x","code":"required","message":"is required"}]}`), "users", 400, []string{
		`error body: errors[0].outputPath: missing key, want string`,
	}},
	{"bad error body: no field errors", writeRaw(400, problemCT, `{"type":"/problems/validation","title":"Validation failed","status":400,"detail":"0 fields failed validation","errors":[]}`), "users", 400, []string{
		`error body: errors: want a list of at least 1 field error, got []`,
	}},
	{"bad error body: errors an object", writeRaw(400, problemCT, `{"type":"/problems/validation","title":"Validation failed","status":400,"detail":"d","errors":{"pointer":"","path":"","outputPath":"","code":"required","message":"m"}}`), "users", 400, []string{
		`error body: errors: want a list of at least 1 field error, got an object`,
	}},
	{"bad error body: status not the response's", writeRaw(422, problemCT, `{"type":"about:blank","title":"Bad Request","status":400,"detail":"d"}`), "users", 422, []string{
		`error body: status: 400 is not the response's 422`,
	}},
	{"bad error body: a value in a field error", writeRaw(422, problemCT, `{"type":"/problems/validation","title":"t","status":422,"detail":"d","errors":[{"pointer":"/a","path":"a","outputPath":"a","code":"","message":"m","value":1}]}`), "users", 422, []string{
		`error body: errors[0].code: want string matching min 1, got "": must be at least 1 character long (min)`,
		`error body: errors[0].value: undeclared key, got a number`,
	}},
	{"bad error body: extension members of the wrong type", writeRaw(400, problemCT, `{"type":"/problems/invalid-json","title":"Invalid JSON","status":400,"detail":"d","omitted":0,"offset":"9","accept":"application/json"}`), "users", 400, []string{
		`error body: omitted: want number matching min 1, got 0: must be at least 1 (min)`,
		`error body: offset: want number matching min 0, got a string`,
		`error body: accept: want list matching min 1, got a string`,
	}},
	{"bad error body: text", writeRaw(400, problemCT, "Bad Request\n"), "users", 400, []string{
		`error body: (root): invalid JSON: invalid character 'B' looking for beginning of value (at byte 1)`,
	}},
	{"bad error body: no detail", writeRaw(404, problemCT, `{"type":"about:blank","title":"Not Found","status":404,"message":"not found"}`), "users", 404, []string{
		`error body: detail: missing key, want string matching min 1`,
		`error body: message: undeclared key, got a string`,
	}},
	{"bad error body: empty title", writeRaw(409, problemCT, `{"type":"about:blank","title":"","status":409,"detail":"d"}`), "users", 409, []string{
		`error body: title: want string matching min 1, got "": must be at least 1 character long (min)`,
	}},
	{"bad server error body: extension members", writeRaw(500, problemCT, `{"type":"about:blank","title":"Internal Server Error","status":500,"detail":"d","errors":[],"offset":3}`), "users", 500, []string{
		`error body: errors: undeclared key, got []`,
		`error body: offset: undeclared key, got a number`,
	}},
	{"a mux's plain-text 405", func(w http.ResponseWriter, r *http.Request) {
		mux := http.NewServeMux()
		mux.HandleFunc("GET /", writeEntity("users", seedInput))
		mux.ServeHTTP(w, r)
	}, "users", 405, []string{
		`Content-Type: got "text/plain; charset=utf-8", want "application/problem+json"`,
		`error body: (root): invalid JSON: invalid character 'M' looking for beginning of value (at byte 1)`,
	}},
	{"204 with a body", writeRaw(204, jsonCT, `{}`), "users", 204, []string{
		`body: want none for 204; body: {}`,
	}},
}

func TestCheckResponse(t *testing.T) {
	for _, tt := range responseTests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			tt.handler(rec, httptest.NewRequest("POST", "/", nil))
			tb := &fakeTB{}
			ok := CheckResponse(tb, rec, corpus.Lookup(tt.entity), tt.wantStatus)
			checkReport(t, tb, ok, tt.want)
		})
	}
}

func TestCheckResponseNilRecorder(t *testing.T) {
	tb := &fakeTB{}
	ok := CheckResponse(tb, nil, corpus.Lookup("users"), 200)
	checkReport(t, tb, ok, []string{"no response to check (nil *httptest.ResponseRecorder)"})
}

// TestCheckResponsePartial: CheckResponse takes Conform's options, for a
// response made with a selection.
func TestCheckResponsePartial(t *testing.T) {
	users := corpus.Lookup("users")
	in := map[string]any{"limit": 1, "list": []any{map[string]any{"id": 1, "name": "a"}}}
	for _, tt := range []struct {
		name string
		opts []Option
		want []string
	}{
		{"partial", []Option{Partial()}, nil},
		{"without Partial", nil, []string{"offset: missing key, want number", "list[0].number: missing key, want number matching num",
			"list[0].details: missing key, want object (group)", "list[0].code: missing key, want string"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			if err := users.Write(rec, in, entity.Select("limit,list(name)")); err != nil {
				t.Fatal(err)
			}
			tb := &fakeTB{}
			ok := CheckResponse(tb, rec, users, http.StatusOK, tt.opts...)
			checkReport(t, tb, ok, tt.want)
		})
	}
}
