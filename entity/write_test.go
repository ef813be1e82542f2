package entity_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// wrUser is the entity of the Write tests: one required field.
func wrUser(t testing.TB) *entity.Entity {
	t.Helper()
	return expose(t, entity.NewRegistry(), "user", "id", "number", "req", "name", "string", "")
}

// TestWriteStatusOutOfRange checks that a status outside 100–599 is an
// error and that nothing at all is written: no header, no status, no body.
func TestWriteStatusOutOfRange(t *testing.T) {
	e := wrUser(t)
	for _, status := range []int{0, -1, 99, 600, 1000} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			w := &recordingWriter{h: http.Header{}}
			err := e.WriteStatus(w, status, map[string]any{"id": 1})
			if err == nil || !strings.HasPrefix(err.Error(), "entity: ") || !strings.Contains(err.Error(), fmt.Sprint(status)) {
				t.Errorf("WriteStatus(%d) = %v, want an entity error naming the status", status, err)
			}
			if w.wroteHeader || w.body.Len() > 0 || len(w.h) > 0 {
				t.Errorf("WriteStatus(%d) wrote status %d, header %v, body %q", status, w.status, w.h, w.body.String())
			}
		})
	}
}

// TestWriteStatusWithoutBody checks that the statuses that have no body
// (1xx, 204, 205, 304) are written alone: no body, no Content-Length, no
// Content-Type, a nil error, whatever v is.
func TestWriteStatusWithoutBody(t *testing.T) {
	e := wrUser(t)
	tests := []struct {
		name   string
		status int
		v      any
	}{
		{"204 with a value", http.StatusNoContent, map[string]any{"id": 1}},
		{"204 with nil", http.StatusNoContent, nil},
		{"304 with a value that would fail", http.StatusNotModified, map[string]any{}},
		{"205 Reset Content", http.StatusResetContent, map[string]any{"id": 1}},
		{"100 Continue", http.StatusContinue, nil},
		{"103 Early Hints", http.StatusEarlyHints, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &recordingWriter{h: http.Header{}}
			if err := e.WriteStatus(w, tt.status, tt.v); err != nil {
				t.Fatalf("WriteStatus(%d) = %v, want nil", tt.status, err)
			}
			if w.status != tt.status || w.body.Len() > 0 {
				t.Errorf("WriteStatus(%d) wrote status %d and body %q", tt.status, w.status, w.body.String())
			}
			for _, k := range []string{"Content-Length", "Content-Type"} {
				if v, ok := w.h[k]; ok {
					t.Errorf("WriteStatus(%d) set %s: %q", tt.status, k, v)
				}
			}
		})
	}
	// Through a real server too: net/http writes no body and no length.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := e.WriteStatus(w, http.StatusNoContent, map[string]any{"id": 1}); err != nil {
			t.Errorf("WriteStatus(204) = %v", err)
		}
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Content-Length") != "" || resp.ContentLength > 0 {
		t.Errorf("204 over HTTP: status %d, Content-Length %q", resp.StatusCode, resp.Header.Get("Content-Length"))
	}
}

// TestWriteTypedNilRequest checks that a typed nil *http.Request is an
// empty input for Write and AppendJSON, as a typed nil is for Make: no
// client sent it, so its failing fields are the server's (500).
func TestWriteTypedNilRequest(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "opt", "POST", "name", "string", "default 'x'", "n", "number", "")
	expose(t, reg, "req", "id", "number", "req")
	var nilReq *http.Request
	tests := []struct {
		name     string
		entity   string
		status   int
		body     string
		wantFail bool
	}{
		{"optional fields give their defaults", "opt", 200, `{"name":"x","n":null}`, false},
		{"a required field fails as on an empty input", "req", 500, generic500, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := reg.Lookup(tt.entity)
			rec := httptest.NewRecorder()
			err := e.Write(rec, nilReq)
			if (err != nil) != tt.wantFail {
				t.Fatalf("Write(nil request) = %v", err)
			}
			if rec.Code != tt.status || withoutInstance(rec.Body.String()) != tt.body {
				t.Errorf("Write(nil request): %d %s, want %d %s", rec.Code, rec.Body, tt.status, tt.body)
			}
			b, err := e.AppendJSON([]byte("prefix"), nilReq)
			switch {
			case tt.wantFail && (err == nil || string(b) != "prefix"):
				t.Errorf("AppendJSON(nil request) = %q, %v; want prefix untouched and an error", b, err)
			case !tt.wantFail && (err != nil || string(b) != "prefix"+tt.body):
				t.Errorf("AppendJSON(nil request) = %q, %v; want %q", b, err, "prefix"+tt.body)
			}
		})
	}
}

// TestWriteErrorTypedNil checks that WriteError of a typed nil error (or
// an error wrapping one) writes the generic 500, as for any error it does
// not know, instead of panicking.
func TestWriteErrorTypedNil(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"nil", nil},
		{"typed nil *ValidationError", (*entity.ValidationError)(nil)},
		{"typed nil *InputError", (*entity.InputError)(nil)},
		{"typed nil *FieldError", (*entity.FieldError)(nil)},
		{"typed nil *PanicError", (*entity.PanicError)(nil)},
		{"wrapped typed nil *ValidationError", fmt.Errorf("save: %w", (*entity.ValidationError)(nil))},
		{"wrapped typed nil *InputError", fmt.Errorf("read: %w", (*entity.InputError)(nil))},
		{"typed nil with a StatusCode method", (*codedError)(nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			entity.WriteError(rec, tt.err)
			if rec.Code != 500 || withoutInstance(rec.Body.String()) != generic500 {
				t.Errorf("WriteError: %d %s, want the generic 500", rec.Code, rec.Body)
			}
		})
	}
}

// codedError is an error that carries its own status.
type codedError struct{ status int }

func (e *codedError) Error() string   { return "coded " + fmt.Sprint(e.status) }
func (e *codedError) StatusCode() int { return e.status }

// TestWriteErrorStatus checks the status and body WriteError gives each
// kind of error: all of them decided in one place.
func TestWriteErrorStatus(t *testing.T) {
	e := wrUser(t)
	_, verr := e.MakeRequest(jsonRequest(t, `{}`))
	_, jerr := e.MakeRequest(jsonRequest(t, `{"id":`))
	_, serverJSON := e.MakeJSON([]byte(`{"id":`))
	_, merr := expose(t, entity.NewRegistry(), "post", "POST", "a", "string", "").MakeRequest(httptest.NewRequest("GET", "/", nil))
	tests := []struct {
		name   string
		err    error
		status int
		body   string
		allow  string
	}{
		{"validation error", verr, 400, `{"type":"/problems/validation","title":"Validation failed","status":400,"detail":"1 field failed validation","errors":[{"pointer":"/id","path":"id","outputPath":"id","code":"required","message":"is required"}]}`, ""},
		{"wrapped validation error", fmt.Errorf("handler: %w", verr), 400, `{"type":"/problems/validation","title":"Validation failed","status":400,"detail":"1 field failed validation","errors":[{"pointer":"/id","path":"id","outputPath":"id","code":"required","message":"is required"}]}`, ""},
		{"invalid JSON", jerr, 400, `{"type":"/problems/invalid-json","title":"Invalid JSON","status":400,"detail":"the body is not valid JSON: at byte 6, unexpected end of input","offset":6}`, ""},
		{"invalid JSON of the server's data", serverJSON, 500, `{"type":"about:blank","title":"Internal Server Error","status":500,"detail":"the server could not answer the request"}`, ""},
		{"method", merr, 405, `{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"the method is not allowed; use POST"}`, "POST"},
		{"input error of a status given", &entity.InputError{Status: 422, Msg: "no"}, 422, `{"type":"about:blank","title":"Unprocessable Entity","status":422,"detail":"no"}`, ""},
		{"input error of a server status", &entity.InputError{Status: 503, Msg: "secret detail"}, 500, `{"type":"about:blank","title":"Internal Server Error","status":500,"detail":"the server could not answer the request"}`, ""},
		{"input error without status, wrapping a sentinel", &entity.InputError{Msg: "bad", Err: entity.ErrBodyTooLarge}, 413, `{"type":"about:blank","title":"Request Entity Too Large","status":413,"detail":"bad"}`, ""},
		{"sentinel wrapped by another error", fmt.Errorf("db 10.0.0.5: %w", entity.ErrInvalidJSON), 400, `{"type":"/problems/invalid-json","title":"Invalid JSON","status":400,"detail":"the body is not valid JSON"}`, ""},
		{"error with a 4xx StatusCode", &codedError{409}, 409, `{"type":"about:blank","title":"Conflict","status":409,"detail":"coded 409"}`, ""},
		{"error with a 4xx StatusCode, wrapped", fmt.Errorf("db at 10.0.0.5 password=hunter2: %w", &codedError{404}), 404, `{"type":"about:blank","title":"Not Found","status":404,"detail":"coded 404"}`, ""},
		{"error with a 5xx StatusCode", &codedError{502}, 500, `{"type":"about:blank","title":"Internal Server Error","status":500,"detail":"the server could not answer the request"}`, ""},
		{"plain error", errors.New("pq: password=hunter2"), 500, `{"type":"about:blank","title":"Internal Server Error","status":500,"detail":"the server could not answer the request"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			entity.WriteError(rec, tt.err)
			if rec.Code != tt.status || withoutInstance(rec.Body.String()) != tt.body {
				t.Errorf("WriteError(%v): %d %s, want %d %s", tt.err, rec.Code, rec.Body, tt.status, tt.body)
			}
			if got := rec.Header().Get("Allow"); got != tt.allow {
				t.Errorf("Allow: %q, want %q", got, tt.allow)
			}
			if got, want := rec.Header().Get("Content-Length"), fmt.Sprint(rec.Body.Len()); got != want {
				t.Errorf("Content-Length %s, body %s bytes", got, want)
			}
		})
	}
}

// TestWriteHeadersNotShared checks that every response gets header values
// of its own: a handler that modifies one response's value in place
// changes nothing in the next response's, of Write, WriteStatus or
// WriteError.
func TestWriteHeadersNotShared(t *testing.T) {
	e := wrUser(t)
	good := map[string]any{"id": 1}
	tests := []struct {
		name  string
		write func(http.ResponseWriter)
	}{
		{"Write", func(w http.ResponseWriter) { e.Write(w, good) }},
		{"WriteStatus", func(w http.ResponseWriter) { e.WriteStatus(w, 201, good) }},
		{"Write of a failing value", func(w http.ResponseWriter) { e.Write(w, map[string]any{}) }},
		{"WriteError", func(w http.ResponseWriter) { entity.WriteError(w, errors.New("x")) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := httptest.NewRecorder()
			tt.write(first)
			want := first.Header().Clone()
			for k, vs := range first.Header() {
				vs[0] = "text/html" // in place, as a careless middleware might
				first.Header()[k] = append(vs, "appended")
			}
			for range 2 {
				next := httptest.NewRecorder()
				tt.write(next)
				for k, vs := range want {
					if got := next.Header()[k]; len(got) != 1 || got[0] != vs[0] {
						t.Errorf("after the first response's %s was modified, the next one's is %q, want %q", k, got, vs)
					}
				}
			}
		})
	}
}

// recordingWriter records everything written to it, and whether
// WriteHeader was called at all.
type recordingWriter struct {
	h           http.Header
	status      int
	wroteHeader bool
	body        strings.Builder
}

func (w *recordingWriter) Header() http.Header { return w.h }
func (w *recordingWriter) WriteHeader(status int) {
	w.status, w.wroteHeader = status, true
}

func (w *recordingWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.body.Write(b)
}

// Nil receivers and arguments are errors, never panics: a nil *Entity is
// what Lookup returns for a name that is not exposed.
func TestNilReceivers(t *testing.T) {
	var e *entity.Entity
	var reg *entity.Registry
	var ve *entity.ValidationError
	cases := []struct {
		name string
		call func() error
	}{
		{"Make", func() error { _, err := e.Make(nil); return err }},
		{"MakeJSON", func() error { _, err := e.MakeJSON(nil); return err }},
		{"AppendJSON", func() error { _, err := e.AppendJSON(nil, nil); return err }},
		{"MakeList", func() error { _, err := e.MakeList(nil); return err }},
		{"MakeRequest", func() error { _, err := e.MakeRequest(httptest.NewRequest("GET", "/", nil)); return err }},
		{"Write", func() error { return e.Write(httptest.NewRecorder(), nil) }},
		{"a nil registry's Make", func() error { _, err := reg.Lookup("x").Make(nil); return err }},
		{"a nil registry's Lookup", func() error {
			if reg.Lookup("x") != nil {
				return errors.New("found an entity")
			}
			return entity.ErrUnknownEntity
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			noPanic(t, c.name, func() { err = c.call() })
			if !errors.Is(err, entity.ErrUnknownEntity) {
				t.Errorf("got %v, want ErrUnknownEntity", err)
			}
		})
	}
	noPanic(t, "accessors", func() {
		if e.Name() != "" || e.Fields() != nil || e.Decl() != nil || e.Registry() != nil {
			t.Error("a nil *Entity's accessors are not empty")
		}
	})
	noPanic(t, "a nil ValidationError's JSON", func() {
		if b := entity.ProblemJSON(ve); !json.Valid(b) {
			t.Errorf("invalid JSON %s", b)
		}
	})
	noPanic(t, "a nil ResponseWriter", func() {
		if err := wrUser(t).Write(nil, map[string]any{"id": 1}); err == nil {
			t.Error("Write to a nil ResponseWriter succeeded")
		}
		entity.WriteError(nil, errors.New("x"))
	})
}

// TestServerDataFailsWith500 checks that server data failing its entity is
// the server's fault: every response-side call's ValidationError answers
// 500; Write writes the generic body with an instance id, returns the
// error with every field, and hands it, under the same id, to the
// registry's log hook.
func TestServerDataFailsWith500(t *testing.T) {
	reg := entity.NewRegistry()
	type logged struct {
		id  string
		err error
	}
	var log []logged
	entity.SetServerErrors(reg, func(id string, err error) { log = append(log, logged{id, err}) })
	e := expose(t, reg, "customer", "name", "string", "req", "mail", "string", "email")
	row := map[string]any{"mail": "not an address"} // a row from the database
	calls := []struct {
		name string
		call func() error
	}{
		{"Make", func() error { _, err := e.Make(row); return err }},
		{"MakeJSON", func() error { _, err := e.MakeJSON(row); return err }},
		{"AppendJSON", func() error { _, err := e.AppendJSON(nil, row); return err }},
		{"MakeList", func() error { _, err := e.MakeList([]any{row}); return err }},
		{"raw JSON", func() error { _, err := e.MakeJSON([]byte(`{"mail":"x"}`)); return err }},
		{"Write", func() error { return e.Write(httptest.NewRecorder(), row) }},
	}
	for _, tt := range calls {
		t.Run(tt.name, func(t *testing.T) {
			var ve *entity.ValidationError
			if err := tt.call(); !errors.As(err, &ve) || ve.StatusCode() != 500 || len(ve.Fields) != 2 {
				t.Errorf("error %v, want a ValidationError of 2 fields answering 500", err)
			}
		})
	}
	log = nil
	rec := httptest.NewRecorder()
	err := e.Write(rec, row)
	pb, ok := checkProblem(t, rec, 500)
	if !ok {
		return
	}
	if withoutInstance(rec.Body.String()) != generic500 || pb.Instance == "" {
		t.Errorf("body %s, want the generic 500 with an instance", rec.Body)
	}
	var ve *entity.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) != 2 || ve.Fields[0].Path != "name" || ve.Fields[1].Path != "mail" {
		t.Errorf("Write returned %v, want every field", err)
	}
	if len(log) != 1 || log[0].id != pb.Instance || log[0].err != err {
		t.Errorf("the hook got %v, want the id %q and the error Write returned", log, pb.Instance)
	}
	rec2 := httptest.NewRecorder()
	reg.WriteError(rec2, err)
	if pb2, _ := checkProblem(t, rec2, 500); pb2.Instance == pb.Instance || len(log) != 2 || log[1].id != pb2.Instance {
		t.Errorf("a second answer: instance %q (first %q), log %v", pb2.Instance, pb.Instance, log)
	}
	t.Run("every 500 is logged", func(t *testing.T) {
		log = nil
		rec := httptest.NewRecorder()
		reg.WriteError(rec, errors.New("pq: connection refused"))
		if pb, _ := checkProblem(t, rec, 500); len(log) != 1 || log[0].id != pb.Instance {
			t.Errorf("log %v, instance %q", log, pb.Instance)
		}
	})
	t.Run("no hook", func(t *testing.T) {
		entity.SetServerErrors(reg, nil)
		rec := httptest.NewRecorder()
		e.Write(rec, row)
		if pb, _ := checkProblem(t, rec, 500); pb.Instance == "" {
			t.Errorf("no instance without a hook: %s", rec.Body)
		}
	})
}

// TestServerRawJSONThatDoesNotParse: raw JSON the server writes (a
// document column, a cache entry) that does not parse is the server's
// data at fault, as its fields failing are: every response that writes it
// answers 500 with the generic body, never 400 "invalid-json" with an
// offset into the server's own bytes, which would tell a client (of a GET,
// with no body) that its body is not JSON. The error returned, and the one
// the log hook gets under the body's instance, still wraps ErrInvalidJSON
// and says where.
func TestServerRawJSONThatDoesNotParse(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "row", "id", "number", "req")
	var logged []error
	entity.SetServerErrors(reg, func(_ string, err error) { logged = append(logged, err) })
	ndjson := func(w http.ResponseWriter) { w.Header().Set("Content-Type", "application/x-ndjson") }
	// rows is n good rows, past a stream's first chunk, then one that
	// does not parse.
	rows := func(n int) iter.Seq2[[]byte, error] {
		return func(yield func([]byte, error) bool) {
			for i := range n {
				if !yield([]byte(`{"id":`+strconv.Itoa(i)+`}`), nil) {
					return
				}
			}
			yield([]byte(`{"id":`), nil)
		}
	}
	tests := []struct {
		name  string
		write func(w http.ResponseWriter) error
		line  bool // the problem is the body's last line (NDJSON past its first chunk)
	}{
		{"Write of truncated raw JSON", func(w http.ResponseWriter) error { return e.Write(w, []byte(`{"id":`)) }, false},
		{"Write of trailing garbage", func(w http.ResponseWriter) error { return e.Write(w, json.RawMessage(`{"id":1} x`)) }, false},
		{"Write of raw JSON that is not an object", func(w http.ResponseWriter) error { return e.Write(w, []byte(`"id"`)) }, false},
		{"WriteStatus of truncated raw JSON", func(w http.ResponseWriter) error {
			return e.WriteStatus(w, http.StatusCreated, []byte(`{"id":`))
		}, false},
		{"WriteError of MakeJSON's error", func(w http.ResponseWriter) error {
			_, err := e.MakeJSON([]byte(`{"id":`))
			reg.WriteError(w, err)
			return err
		}, false},
		{"EncodeSeq of an element that does not parse", func(w http.ResponseWriter) error {
			return entity.EncodeSeq(w, e, seqOf([]byte(`{"id":1}`), []byte(`{"id":`)))
		}, false},
		{"EncodeSeq as NDJSON, in its first chunk", func(w http.ResponseWriter) error {
			ndjson(w)
			return entity.EncodeSeq(w, e, seqOf(json.RawMessage(`{"id":1}`), json.RawMessage(`[`)))
		}, false},
		{"EncodeSeq as NDJSON, past its first chunk", func(w http.ResponseWriter) error {
			ndjson(w)
			return entity.EncodeSeq(w, e, rows(10_000))
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logged = nil
			rec := httptest.NewRecorder()
			err := tt.write(rec)
			var ie *entity.InputError
			if !errors.As(err, &ie) || !errors.Is(err, entity.ErrInvalidJSON) || !ie.HasOffset() || ie.StatusCode() != 500 {
				t.Errorf("error %v (%T), want an InputError of status 500 wrapping ErrInvalidJSON, with its offset", err, err)
			}
			if len(logged) != 1 || logged[0] != err {
				t.Errorf("the log hook got %v, want the error returned", logged)
			}
			if tt.line {
				body := strings.TrimSuffix(rec.Body.String(), "\n")
				last := body[strings.LastIndexByte(body, '\n')+1:]
				if rec.Code != 200 || withoutInstance(last) != generic500 || !strings.Contains(last, `"instance":"urn:uuid:`) {
					t.Errorf("%d, last line %s; want 200 and the generic 500's line with an instance", rec.Code, last)
				}
				return
			}
			if pb, ok := checkProblem(t, rec, 500); ok && (withoutInstance(rec.Body.String()) != generic500 || pb.Instance == "") {
				t.Errorf("body %s, want the generic 500 with an instance", rec.Body)
			}
		})
	}
}

// TestRequestErrorsStay400 checks that what a client sent stays the
// client's fault: MakeRequest, Bind and Write of an *http.Request answer
// 400 with every field, and so do a bad selection or version given to a
// response-side call, which are InputErrors.
func TestRequestErrorsStay400(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "customer", "name", "string", "req", "mail", "string", "email")
	body := `{"mail":"not an address"}`
	var dst struct {
		Name string `json:"name"`
	}
	calls := []struct {
		name string
		call func(*httptest.ResponseRecorder) error
	}{
		{"MakeRequest", func(*httptest.ResponseRecorder) error { _, err := e.MakeRequest(jsonRequest(t, body)); return err }},
		{"Make of a request", func(*httptest.ResponseRecorder) error { _, err := e.Make(jsonRequest(t, body)); return err }},
		{"Bind", func(*httptest.ResponseRecorder) error { return e.Bind(jsonRequest(t, body), &dst) }},
		{"Write of a request", func(w *httptest.ResponseRecorder) error { return e.Write(w, jsonRequest(t, body)) }},
		{"AppendJSON of a request", func(*httptest.ResponseRecorder) error { _, err := e.AppendJSON(nil, jsonRequest(t, body)); return err }},
	}
	for _, tt := range calls {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			err := tt.call(rec)
			var ve *entity.ValidationError
			if !errors.As(err, &ve) || ve.StatusCode() != 400 || len(ve.Fields) != 2 {
				t.Fatalf("error %v, want a ValidationError of 2 fields answering 400", err)
			}
			if rec.Code == 200 { // not written by the call: write it
				entity.WriteError(rec, err)
			}
			if pb, ok := checkProblem(t, rec, 400); ok && len(pb.Errors) != 2 {
				t.Errorf("%d errors listed, want 2", len(pb.Errors))
			}
		})
	}
	for _, opt := range []entity.Option{entity.Select("nmae"), entity.Version("latest")} {
		rec := httptest.NewRecorder()
		err := e.Write(rec, map[string]any{"name": "a"}, opt)
		var ie *entity.InputError
		if !errors.As(err, &ie) || rec.Code != 400 {
			t.Errorf("Write with a bad option: %d %v, want a 400 InputError", rec.Code, err)
		}
	}
}
