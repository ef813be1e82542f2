package entity_test

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// A JSON body is read whatever its Content-Length says: the stated length
// only sizes the read.
func TestRequestBodyLength(t *testing.T) {
	const body = `{"name":"ann"}`
	cases := []struct {
		name    string
		length  int64
		limit   int64
		want    string
		wantErr int
	}{
		{"the stated length", int64(len(body)), 1 << 20, `{"name":"ann"}`, 0},
		{"no length", -1, 1 << 20, `{"name":"ann"}`, 0},
		{"a length too short", 5, 1 << 20, `{"name":"ann"}`, 0},
		{"a length too long", 1000, 1 << 20, `{"name":"ann"}`, 0},
		{"over the limit", int64(len(body)), 8, "", http.StatusRequestEntityTooLarge},
		{"over the limit, stated short", 4, 8, "", http.StatusRequestEntityTooLarge},
		{"over the limit, no length", -1, 8, "", http.StatusRequestEntityTooLarge},
		{"a body that breaks off", int64(len(body)), 1 << 20, "", http.StatusBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			setLimit(reg, func(l *entity.Limits) { l.BodyBytes = c.limit })
			e := expose(t, reg, "user", "name", "string", "req")
			var rd io.Reader = strings.NewReader(body)
			if c.wantErr == http.StatusBadRequest {
				rd = io.MultiReader(strings.NewReader(body[:5]), errReader{})
			}
			r := httptest.NewRequest(http.MethodPost, "/", io.NopCloser(rd))
			r.ContentLength = c.length
			r.Header.Set("Content-Type", "application/json")
			o, err := e.MakeRequest(r)
			if c.wantErr != 0 {
				var ie *entity.InputError
				if !errors.As(err, &ie) || ie.StatusCode() != c.wantErr {
					t.Fatalf("got %v, want an InputError %d", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := o.String(); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

// A body is read as JSON (application/json or any +json type, parameters
// ignored) or, by an entity whose methods hold the word form, as a form
// (urlencoded or multipart); any other, or none with something in the
// body, is a 415 naming what to send. JSON sent as a form (curl -d '{…}')
// is a 415 that says to send application/json.
func TestRequestMediaType(t *testing.T) {
	mp, mpType := rqMultipart(t, "name", "ann")
	const accepted = "send Content-Type: application/json (or any +json type), application/x-www-form-urlencoded or multipart/form-data"
	const sendJSON = "the request body is JSON sent as a form (application/x-www-form-urlencoded, what curl -d sends): send Content-Type: application/json"
	cases := []struct {
		name string
		ct   string // "-" for no Content-Type header
		body string
		nil_ bool   // a request without a body (Body nil)
		want string // the output, or the error's message
	}{
		{"json", "application/json", `{"name":"ann"}`, false, `{"name":"ann","age":null}`},
		{"+json", "application/merge-patch+json", `{"name":"ann"}`, false, `{"name":"ann","age":null}`},
		{"json with parameters", "application/json; charset=utf-8", `{"name":"ann"}`, false, `{"name":"ann","age":null}`},
		{"json with a bad parameter", "application/json; charset", `{"name":"ann"}`, false, `{"name":"ann","age":null}`},
		{"json in capitals", "Application/JSON", `{"name":"ann"}`, false, `{"name":"ann","age":null}`},
		{"empty json", "application/json", ``, false, `{"name":null,"age":null}`},
		{"form", "application/x-www-form-urlencoded", `name=ann&age=3`, false, `{"name":"ann","age":3}`},
		{"form of undeclared keys", "application/x-www-form-urlencoded", `other=1`, false, `{"name":null,"age":null}`},
		{"form with a declared key whose value is JSON", "application/x-www-form-urlencoded", `name={}`, false, `{"name":"{}","age":null}`},
		{"multipart", mpType, mp, false, `{"name":"ann","age":null}`},
		{"no type, no body", "-", ``, true, `{"name":null,"age":null}`},
		{"no type, an empty body", "-", ``, false, `{"name":null,"age":null}`},
		{"no type, white space", "-", " \r\n", false, `{"name":null,"age":null}`},
		{"text/plain, no body", "text/plain", ``, true, `{"name":null,"age":null}`},
		{"text/plain, an empty body", "text/plain", ``, false, `{"name":null,"age":null}`},
		{"a form that does not parse", "application/x-www-form-urlencoded", `name=%zz`, false,
			"400 the request body is not a valid form (application/x-www-form-urlencoded)"},
		{"multipart without a boundary", "multipart/form-data", `--x--`, false,
			"400 the multipart body's Content-Type has no boundary parameter"},
		{"multipart that does not parse", "multipart/form-data; boundary=x", `garbage`, false,
			"400 the request body is not a valid multipart form"},
		{"+json alone is no JSON type", "+json", `{"name":"ann"}`, false,
			"415 the request body's Content-Type is not JSON or a form: " + accepted},
		{"a +json subtype without a name", "application/+json", `{"name":"ann"}`, false,
			"415 the request body's Content-Type is not JSON or a form: " + accepted},

		{"text/plain", "text/plain", `{"name":"ann"}`, false,
			"415 the request body's Content-Type is not JSON or a form: " + accepted},
		{"xml", "application/xml; charset=utf-8", `<name>ann</name>`, false,
			"415 the request body's Content-Type is not JSON or a form: " + accepted},
		{"no type, a body", "-", `{"name":"ann"}`, false, "415 the request body has no Content-Type: " + accepted},
		{"a type that does not parse", ";;;", `{"name":"ann"}`, false, "415 the request's Content-Type does not parse: " + accepted},
		{"curl -d '{…}'", "application/x-www-form-urlencoded", `{"name":"ann"}`, false, "415 " + sendJSON},
		{"curl -d '[…]'", "application/x-www-form-urlencoded", ` [{"name":"ann"}]`, false, "415 " + sendJSON},
		{"curl -d, JSON that is a bad form", "application/x-www-form-urlencoded", `{"name":"50%"}`, false, "415 " + sendJSON},
		{"curl -d, JSON with = and &", "application/x-www-form-urlencoded", `{"q":"a=b&c"}`, false, "415 " + sendJSON},
		{"a form of undeclared keys that is bad JSON", "application/x-www-form-urlencoded", `{"name":}`, false, `{"name":null,"age":null}`},
	}
	reg := entity.NewRegistry()
	e := expose(t, reg, "user", "form", "name", "string", "", "age", "number", "")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(c.body))
			if c.nil_ {
				r.Body = nil
			}
			if c.ct != "-" {
				r.Header.Set("Content-Type", c.ct)
			}
			o, err := e.MakeRequest(r)
			if err != nil {
				var ie *entity.InputError
				if !errors.As(err, &ie) {
					t.Fatalf("%v (%T) is not an InputError", err, err)
				}
				if got := strconv.Itoa(ie.StatusCode()) + " " + ie.Msg; got != c.want {
					t.Fatalf("error\n got %s\nwant %s", got, c.want)
				}
				if ie.StatusCode() == http.StatusUnsupportedMediaType && !errors.Is(err, entity.ErrUnsupportedMediaType) {
					t.Errorf("a 415 that is not ErrUnsupportedMediaType: %v", err)
				}
				if ie.StatusCode() == http.StatusUnsupportedMediaType && ie.Accept != "application/json, application/x-www-form-urlencoded, multipart/form-data" {
					t.Errorf("a 415 accepting %q", ie.Accept)
				}
				if ie.HasOffset() {
					t.Errorf("HasOffset for %v", err)
				}
				return
			}
			if got := o.String(); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

// TestRequestFormsAreOptIn: an entity whose methods do not hold the word
// form reads JSON only: a form body (urlencoded or multipart) is a 415
// accepting application/json, and the other 415s name JSON alone.
func TestRequestFormsAreOptIn(t *testing.T) {
	mp, mpType := rqMultipart(t, "name", "ann")
	const sendJSON = "send Content-Type: application/json (or any +json type)"
	cases := []struct {
		name string
		ct   string // "-" for no Content-Type header
		body string
		want string // the output, or the error's status and message
	}{
		{"json", "application/json", `{"name":"ann"}`, `{"name":"ann","age":null}`},
		{"form", "application/x-www-form-urlencoded", `name=ann&age=3`, "415 this request takes no form body: " + sendJSON},
		{"form with parameters", "application/x-www-form-urlencoded; charset=utf-8", `name=ann`, "415 this request takes no form body: " + sendJSON},
		{"an empty form", "application/x-www-form-urlencoded", ``, `{"name":null,"age":null}`},
		{"a form that does not parse", "application/x-www-form-urlencoded", `name=%zz`, "415 this request takes no form body: " + sendJSON},
		{"multipart", mpType, mp, "415 this request takes no form body: " + sendJSON},
		{"multipart without a boundary", "multipart/form-data", `--x--`, "415 this request takes no form body: " + sendJSON},
		{"curl -d '{…}'", "application/x-www-form-urlencoded", `{"name":"ann"}`,
			"415 the request body is JSON sent as a form (application/x-www-form-urlencoded, what curl -d sends): send Content-Type: application/json"},
		{"text/plain", "text/plain", `{"name":"ann"}`, "415 the request body's Content-Type is not JSON: " + sendJSON},
		{"no type, a body", "-", `{"name":"ann"}`, "415 the request body has no Content-Type: " + sendJSON},
		{"a type that does not parse", ";;;", `{"name":"ann"}`, "415 the request's Content-Type does not parse: " + sendJSON},
	}
	reg := entity.NewRegistry()
	for _, methods := range []string{"", "POST"} {
		decl := []string{"name", "string", "", "age", "number", ""}
		if methods != "" {
			decl = append([]string{methods}, decl...)
		}
		e := expose(t, reg, "user", decl...)
		for _, c := range cases {
			t.Run(methods+" "+c.name, func(t *testing.T) {
				r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(c.body))
				if c.ct != "-" {
					r.Header.Set("Content-Type", c.ct)
				}
				o, err := e.MakeRequest(r)
				if err != nil {
					var ie *entity.InputError
					if !errors.As(err, &ie) {
						t.Fatalf("%v (%T) is not an InputError", err, err)
					}
					if got := strconv.Itoa(ie.StatusCode()) + " " + ie.Msg; got != c.want {
						t.Fatalf("error\n got %s\nwant %s", got, c.want)
					}
					if !errors.Is(err, entity.ErrUnsupportedMediaType) || ie.Accept != "application/json" {
						t.Errorf("%v: not ErrUnsupportedMediaType, or accepting %q", err, ie.Accept)
					}
					rec := httptest.NewRecorder()
					entity.WriteError(rec, err)
					if got := rec.Header().Get("Accept"); got != "application/json" {
						t.Errorf("Accept: %q", got)
					}
					if !strings.Contains(rec.Body.String(), `"accept":["application/json"]`) {
						t.Errorf("problem %s", rec.Body)
					}
					return
				}
				if got := o.String(); got != c.want {
					t.Errorf("got %s, want %s", got, c.want)
				}
			})
		}
	}
	t.Run("Bind", func(t *testing.T) {
		e := expose(t, reg, "login", "POST", "name", "string", "req")
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader("name=ann"))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		var dst struct{ Name string }
		if err := e.Bind(r, &dst); !errors.Is(err, entity.ErrUnsupportedMediaType) || dst.Name != "" {
			t.Errorf("got %v, %q", err, dst.Name)
		}
	})
	t.Run("an empty body is no body, whatever its type", func(t *testing.T) {
		forms := expose(t, reg, "withforms", "form", "name", "string", "")
		json := expose(t, reg, "jsononly", "name", "string", "")
		for _, e := range []*entity.Entity{forms, json} {
			for _, ct := range []string{"application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"} {
				if e == forms && strings.HasPrefix(ct, "multipart/") {
					continue // read as a form: an empty one is no multipart form, a 400
				}
				r := httptest.NewRequest(http.MethodGet, "/?name=q", strings.NewReader(" \n"))
				r.Header.Set("Content-Type", ct)
				o, err := e.MakeRequest(r)
				if got := outcome(t, o, err); got != `{"name":"q"}` {
					t.Errorf("%s, %s: got %s, want the query's name", e.Name(), ct, got)
				}
			}
		}
	})
	t.Run("an entity of parameters only reads no body", func(t *testing.T) {
		e := expose(t, reg, "byid", "id", "number", "query")
		r := httptest.NewRequest(http.MethodPost, "/?id=1", strings.NewReader("name=ann"))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if _, err := e.MakeRequest(r); err != nil {
			t.Error(err)
		}
	})
}

// A JSON body that does not parse, or is not an object, is a 400 giving
// the byte offset (from the body's first byte) and what was expected
// there; raw JSON given to Make and MakeJSON gets the same offset and
// message, for the log, but is the server's data: 500.
func TestRequestInvalidJSON(t *testing.T) {
	deep := strings.Repeat(`[`, 10001)
	cases := []struct {
		name   string
		body   string
		offset int
		msg    string
	}{
		{"truncated", `{"name":"ann"`, 13, "the body is not valid JSON: at byte 13, unexpected end of input"},
		{"truncated string", `{"name":"an`, 11, "the body is not valid JSON: at byte 11, unexpected end of input"},
		{"missing comma", `{"name":"ann" "age":3}`, 14, "the body is not valid JSON: at byte 14, expected ',' or '}'"},
		{"bad escape", `{"name":"a\qn"}`, 11, "the body is not valid JSON: at byte 11, invalid escape"},
		{"bad unicode escape", `{"name":"\u00zz"}`, 13, "the body is not valid JSON: at byte 13, invalid escape"},
		{"control character", "{\"name\":\"a\nb\"}", 10, "the body is not valid JSON: at byte 10, unescaped control character in a string"},
		{"trailing comma", `{"name":"ann",}`, 14, "the body is not valid JSON: at byte 14, expected a string key"},
		{"trailing comma in a list", `{"tags":[1,]}`, 11, "the body is not valid JSON: at byte 11, expected a value"},
		{"bad literal", `{"name":tru}`, 11, "the body is not valid JSON: at byte 11, invalid literal, expected true"},
		{"bad number", `{"age":-x}`, 8, "the body is not valid JSON: at byte 8, invalid number"},
		{"single quotes", `{'name':1}`, 1, "the body is not valid JSON: at byte 1, expected a string key"},
		{"missing colon", `{"name" "ann"}`, 8, "the body is not valid JSON: at byte 8, expected ':' after the key"},
		{"unquoted value", `{"name":ann}`, 8, "the body is not valid JSON: at byte 8, expected a value"},
		{"offset counts leading space", "\n\n  {\"name\":}", 12, "the body is not valid JSON: at byte 12, expected a value"},
		{"trailing garbage", `{"name":"ann"}x`, 14, "the body is not valid JSON: at byte 14, expected the end of input after the value"},
		{"two objects", `{"name":"ann"} {}`, 15, "the body is not valid JSON: at byte 15, expected the end of input after the value"},
		{"deep nesting", `{"name":` + deep, 10007, "the body is not valid JSON: at byte 10007, nested deeper than 10000 levels"},
		{"top-level array", `[{"name":"ann"}]`, 0, "the body is not a JSON object: at byte 0, got an array"},
		{"top-level string", ` "ann"`, 1, "the body is not a JSON object: at byte 1, got a string"},
		{"top-level number", `12`, 0, "the body is not a JSON object: at byte 0, got a number"},
		{"top-level null", "\tnull", 1, "the body is not a JSON object: at byte 1, got null"},
		{"top-level bool", `true`, 0, "the body is not a JSON object: at byte 0, got a boolean"},
	}
	reg := entity.NewRegistry()
	e := expose(t, reg, "user", "name", "string", "", "age", "number", "", "tags", "list", "")
	check := func(t *testing.T, what string, err error, status, offset int, msg string) {
		t.Helper()
		var ie *entity.InputError
		switch {
		case !errors.As(err, &ie):
			t.Errorf("%s: %v (%T) is not an InputError", what, err, err)
		case ie.Msg != msg:
			t.Errorf("%s: message\n got %s\nwant %s", what, ie.Msg, msg)
		case !ie.HasOffset() || ie.Offset != offset:
			t.Errorf("%s: Offset %d (HasOffset %v), want %d", what, ie.Offset, ie.HasOffset(), offset)
		case ie.StatusCode() != status || !errors.Is(err, entity.ErrInvalidJSON):
			t.Errorf("%s: %v: status %d, want %d and ErrInvalidJSON", what, err, ie.StatusCode(), status)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(c.body))
			r.Header.Set("Content-Type", "application/json")
			_, err := e.MakeRequest(r)
			check(t, "MakeRequest", err, http.StatusBadRequest, c.offset, c.msg)
			if strings.HasPrefix(c.msg, "the body is not a JSON object") {
				return // Make reads arrays too; its own message
			}
			_, err = e.Make([]byte(c.body))
			check(t, "Make", err, http.StatusInternalServerError, c.offset, c.msg)
			_, err = e.MakeJSON(json.RawMessage(c.body))
			check(t, "MakeJSON", err, http.StatusInternalServerError, c.offset, c.msg)
		})
	}
}

// HasOffset is true only for the errors of JSON that does not parse.
func TestInputErrorHasOffset(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "user", "POST", "name", "string", "")
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"invalid JSON", func() error { _, err := e.MakeJSON([]byte(`{`)); return err }(), true},
		{"not an object", func() error { _, err := e.MakeJSON([]byte(`1`)); return err }(), true},
		{"405", func() error { _, err := e.MakeRequest(httptest.NewRequest("GET", "/", nil)); return err }(), false},
		{"415", func() error {
			_, err := e.MakeRequest(httptest.NewRequest("POST", "/", strings.NewReader("x")))
			return err
		}(), false},
		{"built outside", &entity.InputError{Status: 400, Msg: "no", Err: entity.ErrInvalidJSON}, false},
		{"nil", (*entity.InputError)(nil), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ie *entity.InputError
			if !errors.As(c.err, &ie) {
				t.Fatalf("%v (%T) is not an InputError", c.err, c.err)
			}
			if got := ie.HasOffset(); got != c.want {
				t.Errorf("HasOffset() = %v, want %v (%v)", got, c.want, c.err)
			}
		})
	}
}

// TestRequestBodyMemoryFollowsWhatArrives: reading a body allocates with
// the bytes that arrive, never with what its Content-Length claims: a
// 9-byte body claiming 256 MiB allocates a few KiB, a claim near MaxInt64
// is read as any other (no panic), and a large honest body allocates a
// small multiple of its length.
func TestRequestBodyMemoryFollowsWhatArrives(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	large := `{"text":"` + strings.Repeat("a", 4<<20-11) + `"}`
	tests := []struct {
		name   string
		limit  int64
		body   string
		length int64
		most   uint64 // bytes the call may allocate
	}{
		{"9 bytes claiming 256 MiB", 1 << 30, `{"text":1`, 256 << 20, 256 << 10},
		{"10 bytes claiming MaxInt64", math.MaxInt64, `{"text":1}`, math.MaxInt64, 256 << 10},
		{"10 bytes claiming MaxInt64 - 1", math.MaxInt64, `{"text":1}`, math.MaxInt64 - 1, 256 << 10},
		{"4 MiB stated", 1 << 30, large, int64(len(large)), 4 * uint64(len(large))},
		{"4 MiB not stated", 1 << 30, large, -1, 4 * uint64(len(large))},
		{"4 MiB claiming 5 bytes", 1 << 30, large, 5, 4 * uint64(len(large))},
		{"4 MiB claiming 1 GiB", 1 << 30, large, 1 << 30, 4 * uint64(len(large))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry(entity.Limits{BodyBytes: tt.limit})
			e := expose(t, reg, "doc", "text", "none", "")
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tt.body))
			r.Header.Set("Content-Type", "application/json")
			r.ContentLength = tt.length
			var err error
			alloc, _ := allocated(func() { _, err = e.MakeRequest(r) })
			if tt.body == large && err != nil {
				t.Fatal(err)
			}
			if alloc > tt.most {
				t.Errorf("allocated %d bytes for a body of %d, want at most %d", alloc, len(tt.body), tt.most)
			}
		})
	}
}
