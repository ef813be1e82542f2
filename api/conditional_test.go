package api_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/expose-go/expose/api"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// notes is a small API of notes over HTTP, for the conditional requests
// and the caches' headers: GET /notes/{id} and PATCH /notes/{id} with a
// staff-only field, GET /notes/{id}/plain of a note without one, and the
// handlers that write in other ways.
type notes struct {
	mu   sync.Mutex
	list []map[string]any
	reg  *entity.Registry
	note *entity.Entity
}

// newNotes returns the notes' handler (X-Role: admin is the staff) over
// one note, its API made with cfg.
func newNotes(t *testing.T, cfg api.Config) (*notes, http.Handler) {
	t.Helper()
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	n := &notes{reg: reg, list: []map[string]any{{"id": 1, "text": "hello", "audit": "seen by ann"}}}
	n.note = reg.MustExpose("note", "id", "number", "readonly | req", "text", "string", "req | max 100",
		"audit", "string", "readonly | if 'admin'")
	plain := reg.MustExpose("plain", "id", "number", "req", "text", "string", "")
	page := reg.MustExpose("page", "list", "[]$note", "")
	ref := reg.MustExpose("note_ref", "id", "number", "req | path | min 1", "fields", "string", "query | default ''")
	cfg.Info = schema.Info{Title: "notes", Version: "1"}
	mux := http.NewServeMux()
	a := api.New(mux, cfg)
	a.HandleFunc("GET /notes/{id}", n.get, api.Operation{Request: ref, Response: n.note, Select: "fields"})
	a.HandleFunc("PATCH /notes/{id}", n.patch, api.Operation{Params: ref, Request: n.note, Response: n.note, Select: "fields", IfMatch: true})
	a.HandleFunc("GET /notes", func(w http.ResponseWriter, r *http.Request) {
		page.Write(w, map[string]any{"list": n.list}, entity.WithContext(r.Context()))
	}, api.Operation{Response: page})
	a.HandleFunc("GET /plain/{id}", func(w http.ResponseWriter, r *http.Request) {
		plain.Write(w, n.list[0])
	}, api.Operation{Request: ref, Response: plain})
	a.HandleFunc("GET /parts", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"id":1,`)) // in parts, no Content-Length: no tag
		w.Write([]byte(`"text":"x"}`))
	}, api.Operation{Response: plain})
	a.HandleFunc("GET /own", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		plain.Write(w, n.list[0])
	}, api.Operation{Response: plain})
	a.HandleFunc("GET /empty", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}, api.Operation{Response: plain})
	a.HandleFunc("GET /stream", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", schema.NDJSONType)
		entity.EncodeSeq(w, n.note, seqOf(n.list), entity.WithContext(r.Context()))
	}, api.Operation{Response: n.note, Stream: schema.StreamNDJSON})
	return n, roles(mux)
}

// seqOf returns the sequence of the elements of list.
func seqOf[T any](list []T) func(yield func(T, error) bool) {
	return func(yield func(T, error) bool) {
		for _, v := range list {
			if !yield(v, nil) {
				return
			}
		}
	}
}

// find returns the note of the request's {id}, or answers 404.
func (n *notes) find(w http.ResponseWriter, r *http.Request) (map[string]any, bool) {
	if r.PathValue("id") != "1" {
		n.reg.WriteError(w, &entity.InputError{Status: http.StatusNotFound})
		return nil, false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.list[0], true
}

func (n *notes) get(w http.ResponseWriter, r *http.Request) {
	if v, ok := n.find(w, r); ok {
		n.note.Write(w, v, entity.WithContext(r.Context()), entity.Select(r.FormValue("fields")))
	}
}

func (n *notes) patch(w http.ResponseWriter, r *http.Request) {
	cur, ok := n.find(w, r)
	if !ok {
		return
	}
	opts := []entity.Option{entity.WithContext(r.Context()), entity.Select(r.URL.Query().Get("fields"))}
	if err := api.Precondition(r, n.note, cur, opts...); err != nil {
		n.reg.WriteError(w, err)
		return
	}
	merged, _, err := n.note.Patch(r, cur)
	if err != nil {
		n.reg.WriteError(w, err)
		return
	}
	next := merged.Map()
	next["audit"] = cur["audit"]
	n.mu.Lock()
	n.list[0] = next
	n.mu.Unlock()
	n.note.Write(w, next, opts...)
}

// send answers one request of h: method, target, a body (a merge patch
// when not empty) and header pairs.
func send(h http.Handler, method, target, body string, header ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	if body != "" {
		r.Header.Set("Content-Type", entity.MergePatchType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Add(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

var strongTag = regexp.MustCompile(`^"[0-9a-f]{32}"$`)

// TestGetAnswersETag: a GET with a Response entity answers a strong ETag
// of the bytes it wrote; If-None-Match that names it (weakly, in a list,
// or *) is a 304 with no body; another tag, or none, the 200.
func TestGetAnswersETag(t *testing.T) {
	_, h := newNotes(t, api.Config{Vary: []string{"X-Role"}})
	first := send(h, "GET", "/notes/1", "")
	tag := first.Header().Get("ETag")
	if first.Code != 200 || !strongTag.MatchString(tag) {
		t.Fatalf("GET: %d, ETag %q, want 200 and a strong tag", first.Code, tag)
	}
	tests := []struct {
		name, method, ifNoneMatch string
		status                    int
	}{
		{"no If-None-Match", "GET", "", 200},
		{"its tag", "GET", tag, 304},
		{"its tag, weak", "GET", "W/" + tag, 304},
		{"a list holding it", "GET", `"other", ` + tag, 304},
		{"a list without spaces", "GET", `W/"other",` + tag, 304},
		{"any", "GET", "*", 304},
		{"another tag", "GET", `"other"`, 200},
		{"its opaque tag unquoted", "GET", strings.Trim(tag, `"`), 200},
		{"an unterminated tag", "GET", `"` + strings.Trim(tag, `"`), 200},
		{"HEAD with its tag", "HEAD", tag, 304},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hd []string
			if tt.ifNoneMatch != "" {
				hd = []string{"If-None-Match", tt.ifNoneMatch}
			}
			rec := send(h, tt.method, "/notes/1", "", hd...)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d", rec.Code, tt.status)
			}
			if got := rec.Header().Get("ETag"); got != tag {
				t.Errorf("ETag %q, want %q", got, tag)
			}
			if got := rec.Header().Get("Vary"); got != "X-Role" {
				t.Errorf("Vary %q, want X-Role", got)
			}
			if tt.status == 304 {
				if rec.Body.Len() != 0 || rec.Header().Get("Content-Type") != "" || rec.Header().Get("Content-Length") != "" {
					t.Errorf("a 304 with a body or its headers: %q %v", rec.Body, rec.Header())
				}
			} else if tt.method == "GET" && rec.Body.String() != first.Body.String() {
				t.Errorf("body %s, want %s", rec.Body, first.Body)
			}
		})
	}
}

// TestETagPerRepresentation: two audiences, or two selections, of one
// value are two representations with two tags; one's tag is no other's
// 304.
func TestETagPerRepresentation(t *testing.T) {
	_, h := newNotes(t, api.Config{Vary: []string{"X-Role"}})
	tags := map[string]string{}
	for _, c := range []struct{ name, target, role string }{
		{"public", "/notes/1", ""},
		{"admin", "/notes/1", "admin"},
		{"public text", "/notes/1?fields=text", ""},
		{"public id", "/notes/1?fields=id", ""},
	} {
		rec := send(h, "GET", c.target, "", "X-Role", c.role)
		tag := rec.Header().Get("ETag")
		for other, ot := range tags {
			if ot == tag {
				t.Errorf("%s and %s share the tag %s", c.name, other, tag)
			}
		}
		tags[c.name] = tag
	}
	if rec := send(h, "GET", "/notes/1", "", "If-None-Match", tags["admin"]); rec.Code != 200 {
		t.Errorf("the staff's tag to the public: %d, want 200", rec.Code)
	}
	if rec := send(h, "GET", "/notes/1", "", "If-None-Match", tags["admin"], "X-Role", "admin"); rec.Code != 304 {
		t.Errorf("the staff's tag to the staff: %d, want 304", rec.Code)
	}
}

// TestIfMatch: a PATCH whose If-Match does not name the current value's
// tag, as the same caller's GET answers it, is a 412 problem that changes
// nothing; one that does proceeds and answers the new value's tag, the
// next GET's.
func TestIfMatch(t *testing.T) {
	tests := []struct {
		name   string
		header func(public, admin, publicText string) []string // the PATCH's
		target string
		status int
	}{
		{"no precondition", func(p, a, pt string) []string { return nil }, "/notes/1", 200},
		{"the current tag", func(p, a, pt string) []string { return []string{"If-Match", p} }, "/notes/1", 200},
		{"a list holding it", func(p, a, pt string) []string { return []string{"If-Match", `"old", ` + p} }, "/notes/1", 200},
		{"two headers, one holding it", func(p, a, pt string) []string { return []string{"If-Match", `"old"`, "If-Match", p} }, "/notes/1", 200},
		{"any", func(p, a, pt string) []string { return []string{"If-Match", "*"} }, "/notes/1", 200},
		{"the staff's tag by the staff", func(p, a, pt string) []string { return []string{"If-Match", a, "X-Role", "admin"} }, "/notes/1", 200},
		{"the selection's tag with it", func(p, a, pt string) []string { return []string{"If-Match", pt} }, "/notes/1?fields=text", 200},
		{"a stale tag", func(p, a, pt string) []string { return []string{"If-Match", `"old"`} }, "/notes/1", 412},
		{"the current tag, weak", func(p, a, pt string) []string { return []string{"If-Match", "W/" + p} }, "/notes/1", 412},
		{"the staff's tag by the public", func(p, a, pt string) []string { return []string{"If-Match", a} }, "/notes/1", 412},
		{"the selection's tag without it", func(p, a, pt string) []string { return []string{"If-Match", pt} }, "/notes/1", 412},
		{"If-None-Match: *", func(p, a, pt string) []string { return []string{"If-None-Match", "*"} }, "/notes/1", 412},
		{"If-None-Match of the current tag", func(p, a, pt string) []string { return []string{"If-None-Match", "W/" + p} }, "/notes/1", 412},
		{"If-None-Match of another", func(p, a, pt string) []string { return []string{"If-None-Match", `"old"`} }, "/notes/1", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, h := newNotes(t, api.Config{Vary: []string{"X-Role"}})
			public := send(h, "GET", "/notes/1", "").Header().Get("ETag")
			admin := send(h, "GET", "/notes/1", "", "X-Role", "admin").Header().Get("ETag")
			publicText := send(h, "GET", "/notes/1?fields=text", "").Header().Get("ETag")
			hd := tt.header(public, admin, publicText)
			rec := send(h, "PATCH", tt.target, `{"text":"changed"}`, hd...)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
			role := ""
			for i := 0; i+1 < len(hd); i += 2 {
				if hd[i] == "X-Role" {
					role = hd[i+1]
				}
			}
			after := send(h, "GET", tt.target, "", "X-Role", role)
			if tt.status == 412 {
				p := readProblem(t, rec, 412)
				if p.Title != "Precondition Failed" {
					t.Errorf("title %q", p.Title)
				}
				if n.list[0]["text"] != "hello" {
					t.Errorf("a 412 changed the note: %v", n.list[0])
				}
				if rec.Header().Get("ETag") != "" {
					t.Errorf("a 412 with an ETag")
				}
				return
			}
			if n.list[0]["text"] != "changed" {
				t.Errorf("the note is %v, want the change", n.list[0])
			}
			got := rec.Header().Get("ETag")
			if !strongTag.MatchString(got) || got == public || got == admin || got == publicText {
				t.Errorf("the PATCH's ETag %q: no new strong tag", got)
			}
			if want := after.Header().Get("ETag"); got != want {
				t.Errorf("the PATCH's ETag %q, the next GET's %q", got, want)
			}
		})
	}
}

// TestPreconditionWithoutValue: with no current value (nil), If-Match
// matches nothing, If-None-Match: * holds; a request without either
// never makes the value (nor fails on it).
func TestPreconditionWithoutValue(t *testing.T) {
	n, _ := newNotes(t, api.Config{})
	tests := []struct {
		name    string
		method  string
		header  []string
		current any
		status  int // 0: nil
	}{
		{"If-Match, no value", "PUT", []string{"If-Match", "*"}, nil, 412},
		{"If-None-Match: *, no value", "PUT", []string{"If-None-Match", "*"}, nil, 0},
		{"If-Match, a nil pointer", "PUT", []string{"If-Match", "*"}, (*struct{ ID int })(nil), 412},
		{"If-None-Match: *, a value", "PUT", []string{"If-None-Match", "*"}, map[string]any{"id": 1, "text": "x"}, 412},
		{"no header, a value Make refuses", "PUT", nil, 12, 0},
		{"a header, a value Make refuses", "PUT", []string{"If-Match", "*"}, 12, 500},
		{"If-None-Match on a GET is the API's", "GET", []string{"If-None-Match", "*"}, map[string]any{"id": 1}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, "/notes/1", nil)
			for i := 0; i+1 < len(tt.header); i += 2 {
				r.Header.Set(tt.header[i], tt.header[i+1])
			}
			err := api.Precondition(r, n.note, tt.current)
			var status int
			if err != nil {
				status = 500
				if sc, ok := err.(interface{ StatusCode() int }); ok {
					status = sc.StatusCode()
				}
			}
			if status != tt.status {
				t.Errorf("Precondition: %v (%d), want status %d", err, status, tt.status)
			}
		})
	}
}

// TestAnswersVary: every answer of a route whose entity has fields some
// flags show (its own, or an entity's it references) says Vary with
// Config.Vary, or Cache-Control: private without it; a route whose
// entity has none says neither.
func TestAnswersVary(t *testing.T) {
	tests := []struct {
		name             string
		vary             []string
		method, target   string
		wantVary, wantCC string
		header           []string
		wantStatus       int
	}{
		{"a flagged field", []string{"X-Role"}, "GET", "/notes/1", "X-Role", "", nil, 200},
		{"two headers", []string{"X-Role", "X-Version"}, "GET", "/notes/1", "X-Role, X-Version", "", nil, 200},
		{"its 404", []string{"X-Role"}, "GET", "/notes/2", "X-Role", "", nil, 404},
		{"its PATCH", []string{"X-Role"}, "PATCH", "/notes/1", "X-Role", "", nil, 200},
		{"its 304", []string{"X-Role"}, "GET", "/notes/1", "X-Role", "", []string{"If-None-Match", "*"}, 304},
		{"through a reference", []string{"X-Role"}, "GET", "/notes", "X-Role", "", nil, 200},
		{"a stream", []string{"X-Role"}, "GET", "/stream", "X-Role", "", nil, 200},
		{"no flagged field", []string{"X-Role"}, "GET", "/plain/1", "", "", nil, 200},
		{"no Vary configured", nil, "GET", "/notes/1", "", "private", nil, 200},
		{"no Vary configured, no flagged field", nil, "GET", "/plain/1", "", "", nil, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, h := newNotes(t, api.Config{Vary: tt.vary})
			body := ""
			if tt.method == "PATCH" {
				body = `{"text":"changed"}`
			}
			rec := send(h, tt.method, tt.target, body, tt.header...)
			if rec.Code != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.wantStatus, rec.Body)
			}
			if got := strings.Join(rec.Header().Values("Vary"), ", "); got != tt.wantVary {
				t.Errorf("Vary %q, want %q", got, tt.wantVary)
			}
			if got := rec.Header().Get("Cache-Control"); got != tt.wantCC {
				t.Errorf("Cache-Control %q, want %q", got, tt.wantCC)
			}
		})
	}
}

// TestETagPassesThrough: an answer the API cannot tag whole passes
// through as the handler writes it: a body written in parts, a success
// without a body, a stream; a handler's own ETag is the one If-None-Match
// is compared with.
func TestETagPassesThrough(t *testing.T) {
	_, h := newNotes(t, api.Config{})
	tests := []struct {
		name, target string
		header       []string
		status       int
		etag, body   string
	}{
		{"a body in parts", "/parts", nil, 200, "", `{"id":1,"text":"x"}`},
		{"a 204", "/empty", nil, 204, "", ""},
		{"a stream", "/stream", nil, 200, "", "{\"id\":1,\"text\":\"hello\"}\n"},
		{"the handler's tag", "/own", nil, 200, `"v1"`, `{"id":1,"text":"hello"}`},
		{"the handler's tag, matched", "/own", []string{"If-None-Match", `"v1"`}, 304, `"v1"`, ""},
		{"an error", "/notes/9", nil, 404, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := send(h, "GET", tt.target, "", tt.header...)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d", rec.Code, tt.status)
			}
			if got := rec.Header().Get("ETag"); got != tt.etag {
				t.Errorf("ETag %q, want %q", got, tt.etag)
			}
			if tt.status != 404 && rec.Body.String() != tt.body {
				t.Errorf("body %q, want %q", rec.Body, tt.body)
			}
		})
	}
}

// TestAnswersVaryThroughUnion: a route whose entity holds a union, one of
// whose variants has a flagged field, varies with Config.Vary too.
func TestAnswersVaryThroughUnion(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	reg.MustExpose("card", "last4", "string", "", "risk", "number", "if 'admin'")
	reg.MustExpose("invoice", "po_number", "string", "")
	orders := reg.MustExpose("order", "payment", "$card|$invoice", "by 'method'")
	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "unions", Version: "1"}, Registry: reg, Vary: []string{"X-Role"}})
	a.HandleFunc("GET /orders/1", func(w http.ResponseWriter, r *http.Request) {
		orders.Write(w, map[string]any{"payment": map[string]any{"method": "card", "last4": "1234", "risk": 1}}, entity.WithContext(r.Context()))
	}, api.Operation{Response: orders})
	rec := serve(mux, "GET", "/orders/1")
	if rec.Code != 200 || rec.Header().Get("Vary") != "X-Role" {
		t.Errorf("%d, Vary %q: want 200 and X-Role", rec.Code, rec.Header().Get("Vary"))
	}
}
