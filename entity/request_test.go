package entity_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// Requests: MakeRequest reads the query string, then form values, then a
// JSON body, then X- headers, the later source winning a clash.

// rqRegistry declares the request entities: "search" takes any method,
// "newuser" only POST, both with JSON or form bodies, "edit" PUT or PATCH
// with JSON.
func rqRegistry(t testing.TB) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry()
	expose(t, reg, "search", "form",
		"q", "string", "",
		"page", "number", "default 1",
		"tags", "list", "",
		"k", "string", "",
		"on", "bool", "",
		"X-Mode", "string", "",
		"X-Request-Id", "string", "rename requestId",
		"filter", "{", "",
		"min", "float", "",
		"filter", "}", "",
	)
	expose(t, reg, "newuser", "POST form",
		"name", "string", "req | min 2",
		"mail", "string", "req | email",
		"age", "number", "range 0 150",
		"X-Request-Id", "string", "rename requestId",
	)
	expose(t, reg, "edit", "PUT, PATCH",
		"name", "string", "",
	)
	return reg
}

// rqMultipart returns a multipart/form-data body of fields (repeated keys
// allowed: key, value, key, value…) and its Content-Type.
func rqMultipart(t testing.TB, kv ...string) (string, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for i := 0; i < len(kv); i += 2 {
		if err := w.WriteField(kv[i], kv[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	fw, err := w.CreateFormFile("upload", "a.txt")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write([]byte("file content is not a field"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String(), w.FormDataContentType()
}

// rqRequest builds a request.
func rqRequest(method, target, contentType, body string, header ...string) *http.Request {
	var r *http.Request
	if body == "" {
		r = httptest.NewRequest(method, target, nil)
	} else {
		r = httptest.NewRequest(method, target, strings.NewReader(body))
	}
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	for i := 0; i < len(header); i += 2 {
		r.Header.Add(header[i], header[i+1])
	}
	return r
}

// rqOut is the search entity's output with fields set by key.
func rqOut(kv ...string) string {
	keys := []string{"q", "page", "tags", "k", "on", "X-Mode", "requestId", "filter"}
	vals := map[string]string{"page": "1", "filter": `{"min":null}`}
	for i := 0; i < len(kv); i += 2 {
		vals[kv[i]] = kv[i+1]
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		v, ok := vals[k]
		if !ok {
			v = "null"
		}
		parts[i] = fmt.Sprintf("%q:%s", k, v)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func TestMakeRequestSources(t *testing.T) {
	reg := rqRegistry(t)
	mpBody, mpType := rqMultipart(t, "q", "multi", "tags", "m1", "tags", "m2", "k", "form")
	mpClash, mpClashType := rqMultipart(t, "k", "form", "X-Mode", "form")
	const form = "application/x-www-form-urlencoded"
	const js = "application/json"
	cases := []struct {
		name string
		r    *http.Request
		want string
	}{
		{"nothing", rqRequest("GET", "/", "", ""), rqOut()},
		{"query values, converted; a group's fields are no query keys", rqRequest("GET", "/?q=go&page=3&on=off&min=2.5&other=x", "", ""),
			rqOut("q", `"go"`, "page", "3", "on", "false")},
		{"query bool", rqRequest("GET", "/?on=ON", "", ""), rqOut("on", "true")},
		{"urlencoded form", rqRequest("POST", "/", form, "q=form&page=4&tags=a&tags=b"),
			rqOut("q", `"form"`, "page", "4", "tags", `["a","b"]`)},
		{"multipart form", rqRequest("POST", "/", mpType, mpBody),
			rqOut("q", `"multi"`, "tags", `["m1","m2"]`, "k", `"form"`)},
		{"JSON body, a group as the object under its key", rqRequest("POST", "/", js, `{"q":"json","page":"5","tags":[1,"x"],"on":true,"filter":{"min":0.5},"min":1.5,"zzz":1}`),
			rqOut("q", `"json"`, "page", "5", "tags", `[1,"x"]`, "on", "true", "filter", `{"min":0.5}`)},
		{"JSON body, media type with parameters", rqRequest("PUT", "/", "application/json; charset=utf-8", `{"q":"json"}`),
			rqOut("q", `"json"`)},
		{"JSON body, +json media type", rqRequest("PUT", "/", "application/merge-patch+json", `{"q":"json"}`),
			rqOut("q", `"json"`)},
		{"empty JSON body of a GET: the query", rqRequest("GET", "/?q=query", js, " \n"), rqOut("q", `"query"`)},
		{"empty JSON body of a POST: no query", rqRequest("POST", "/?q=query", js, " \n"), rqOut()},
		{"X- headers", rqRequest("GET", "/", "", "", "X-Mode", "fast", "x-request-id", "r-1"),
			rqOut("X-Mode", `"fast"`, "requestId", `"r-1"`)},
		{"a repeated header gives its first value", rqRequest("GET", "/", "", "", "X-Mode", "a", "X-Mode", "b"),
			rqOut("X-Mode", `"a"`)},
		{"a header that is not X- is not read", rqRequest("GET", "/", "", "", "Q", "header", "K", "header"),
			rqOut()},
		{"repeated query keys: a list gets all",
			rqRequest("GET", "/?tags=a&q=first&tags=b&tags=&page=7", "", ""),
			rqOut("q", `"first"`, "page", "7", "tags", `["a","b",""]`)},
		{"one query value for a list is a list", rqRequest("GET", "/?tags=solo", "", ""),
			rqOut("tags", `["solo"]`)},

		// A field is read from one place: a header field from the
		// headers; any other from the body when there is one, else from
		// the query.
		{"a form body: the query is not read", rqRequest("POST", "/?k=query&tags=q1&q=query", form, "k=form&tags=f1&tags=f2"),
			rqOut("k", `"form"`, "tags", `["f1","f2"]`)},
		{"a multipart body: the query is not read; an X- field is no form value", rqRequest("POST", "/?k=query", mpClashType, mpClash),
			rqOut("k", `"form"`)},
		{"a JSON body: the query is not read", rqRequest("POST", "/?k=query&tags=q1&page=2", js, `{"k":"json","tags":["j"]}`),
			rqOut("k", `"json"`, "tags", `["j"]`)},
		{"a JSON null, and the query not read", rqRequest("POST", "/?k=query", js, `{"k":null}`),
			rqOut()},
		{"header beats query", rqRequest("GET", "/?X-Mode=query", "", "", "X-Mode", "header"),
			rqOut("X-Mode", `"header"`)},
		{"header beats form", rqRequest("POST", "/", mpClashType, mpClash, "X-Mode", "header"),
			rqOut("k", `"form"`, "X-Mode", `"header"`)},
		{"header beats JSON body", rqRequest("POST", "/?X-Mode=query", js, `{"X-Mode":"json"}`, "X-Mode", "header"),
			rqOut("X-Mode", `"header"`)},
		{"an X- field is read from the headers only, never the body", rqRequest("POST", "/", js, `{"X-Mode":"json"}`),
			rqOut()},
		{"nor the query", rqRequest("GET", "/?X-Mode=q", "", ""), rqOut()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj, err := reg.Lookup("search").MakeRequest(c.r)
			if err != nil {
				t.Fatalf("MakeRequest: %v", err)
			}
			b, err := obj.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != c.want {
				t.Errorf("got  %s\nwant %s", b, c.want)
			}
		})
	}
}

// TestMakeRequestRefsAndLists: $ref fields are read from a JSON body (a
// query or form value is text, not an object: null), a $name is one
// object and a []$name a list of objects, and a repeated X- header gives a
// list field every value.
func TestMakeRequestRefsAndLists(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "item", "n", "number", "req", "label", "string", "default 'none'")
	e := expose(t, reg, "order",
		"items", "[]$item", "",
		"main", "$item", "rename first",
		"X-Tags", "list", "",
		"note", "none", "",
	)
	cases := []struct {
		name string
		r    *http.Request
		want string
		path string // the failing field's path, if any
	}{
		{"refs from a JSON body", rqRequest("POST", "/", "application/json",
			`{"items":[{"n":"1"},{"n":2,"label":"b"}],"first":{"n":3},"note":{"b":1.50,"a":"<"}}`),
			`{"items":[{"n":1,"label":"none"},{"n":2,"label":"b"}],"first":{"n":3,"label":"none"},"X-Tags":null,"note":{"b":1.50,"a":"\u003c"}}`, ""},
		{"a ref from the query is null, read leniently", rqRequest("GET", "/?items=x&main=y&note=z", "", ""),
			`{"items":null,"first":null,"X-Tags":null,"note":"z"}`, "lax"},
		{"a repeated X- header for a list", rqRequest("GET", "/", "", "", "X-Tags", "a", "X-Tags", "b"),
			`{"items":null,"first":null,"X-Tags":["a","b"],"note":null}`, ""},
		{"errors inside a ref list carry their path", rqRequest("POST", "/", "application/json", `{"items":[{"label":"x"}]}`),
			"", "items[0].n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var opts []entity.Option
			if c.path == "lax" {
				opts, c.path = []entity.Option{entity.Lax()}, ""
			}
			obj, err := e.MakeRequest(c.r, opts...)
			if c.path != "" {
				fs := fieldErrors(t, err)
				if len(fs) != 1 || fs[0].Path != c.path || fs[0].OutputPath != c.path {
					t.Errorf("got %v, want an error at %s", err, c.path)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := obj.String(); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestMakeRequestEntryPoints: the package-level, Registry and Entity
// MakeRequest agree.
func TestMakeRequestEntryPoints(t *testing.T) {
	const name = "entity_test.request.entrypoints"
	entity.MustExpose(name, "POST", "q", "string", "req", "X-Trace", "string", "")
	reg := rqRegistry(t)
	local := expose(t, reg, name, "POST", "q", "string", "req", "X-Trace", "string", "")
	newReq := func() *http.Request {
		return rqRequest("POST", "/?q=a", "application/json", `{"q":"b"}`, "X-Trace", "t")
	}
	const want = `{"q":"b","X-Trace":"t"}`
	for _, c := range []struct {
		name string
		make func(*http.Request) (*entity.Object, error)
	}{
		{"package", func(r *http.Request) (*entity.Object, error) { return entity.Lookup(name).MakeRequest(r) }},
		{"Registry", func(r *http.Request) (*entity.Object, error) { return reg.Lookup(name).MakeRequest(r) }},
		{"Entity", func(r *http.Request) (*entity.Object, error) { return local.MakeRequest(r) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			obj, err := c.make(newReq())
			if err != nil {
				t.Fatal(err)
			}
			if got := obj.String(); got != want {
				t.Errorf("got %s, want %s", got, want)
			}
			_, err = c.make(rqRequest("GET", "/?q=a", "", ""))
			if !errors.Is(err, entity.ErrMethod) {
				t.Errorf("GET: %v, want ErrMethod", err)
			}
		})
	}
	t.Run("unknown entity", func(t *testing.T) {
		_, err := reg.Lookup("entity_test.nope").MakeRequest(newReq())
		if !errors.Is(err, entity.ErrUnknownEntity) {
			t.Errorf("got %v, want ErrUnknownEntity", err)
		}
	})
}

// TestMakeRequestErrors: errors in the request itself are InputErrors with
// their status (405 with the methods allowed, 413, 400), field errors a
// ValidationError; WriteError answers each with its status, headers and
// JSON body.
func TestMakeRequestErrors(t *testing.T) {
	reg := rqRegistry(t)
	setLimit(reg, func(l *entity.Limits) { l.BodyBytes = 64 })
	big := `{"name":"` + strings.Repeat("x", 100) + `"}`
	bigForm := "name=" + strings.Repeat("x", 100)
	bigMP, bigMPType := rqMultipart(t, "name", strings.Repeat("x", 100))
	atLimit := `{"name":"` + strings.Repeat("x", 64-len(`{"name":""}`)) + `"}`
	cases := []struct {
		name     string
		entity   string
		r        *http.Request
		status   int
		sentinel error  // errors.Is target
		allow    string // the Allow header
		body     string // the body Write sends, when exact
		fields   []string
	}{
		{name: "GET on a POST entity", entity: "newuser", r: rqRequest("GET", "/?name=ab&mail=a@b.co", "", ""),
			status: 405, sentinel: entity.ErrMethod, allow: "POST",
			body: `{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"the method is not allowed; use POST"}`},
		{name: "HEAD on a POST entity", entity: "newuser", r: rqRequest("HEAD", "/", "", ""),
			status: 405, sentinel: entity.ErrMethod, allow: "POST"},
		{name: "POST on a PUT, PATCH entity", entity: "edit", r: rqRequest("POST", "/", "", ""),
			status: 405, sentinel: entity.ErrMethod, allow: "PUT, PATCH"},
		{name: "the method is checked before the body is read", entity: "newuser", r: rqRequest("GET", "/", "application/json", `{`),
			status: 405, sentinel: entity.ErrMethod, allow: "POST"},
		{name: "JSON body over the limit", entity: "newuser", r: rqRequest("POST", "/", "application/json", big),
			status: 413, sentinel: entity.ErrBodyTooLarge, body: `{"type":"about:blank","title":"Request Entity Too Large","status":413,"detail":"the request body is larger than the limit of 64 bytes"}`},
		{name: "urlencoded body over the limit", entity: "newuser", r: rqRequest("POST", "/", "application/x-www-form-urlencoded", bigForm),
			status: 413, sentinel: entity.ErrBodyTooLarge},
		{name: "multipart body over the limit", entity: "newuser", r: rqRequest("POST", "/", bigMPType, bigMP),
			status: 413, sentinel: entity.ErrBodyTooLarge},
		{name: "invalid JSON body", entity: "newuser", r: rqRequest("POST", "/", "application/json", `{"name":`),
			status: 400, sentinel: entity.ErrInvalidJSON, body: `{"type":"/problems/invalid-json","title":"Invalid JSON","status":400,"detail":"the body is not valid JSON: at byte 8, unexpected end of input","offset":8}`},
		{name: "a body of another type", entity: "newuser", r: rqRequest("POST", "/", "text/plain", `{"name":"ab"}`),
			status: 415, sentinel: entity.ErrUnsupportedMediaType},
		{name: "a body without a type", entity: "newuser", r: rqRequest("POST", "/", "", `{"name":"ab"}`),
			status: 415, sentinel: entity.ErrUnsupportedMediaType},
		{name: "JSON array body", entity: "newuser", r: rqRequest("POST", "/", "application/json", `[{"name":"ab"}]`),
			status: 400, sentinel: entity.ErrInvalidJSON},
		{name: "JSON scalar body", entity: "newuser", r: rqRequest("POST", "/", "application/json", `"ab"`),
			status: 400, sentinel: entity.ErrInvalidJSON},
		{name: "validation failure", entity: "newuser",
			r:      rqRequest("POST", "/", "application/json", `{"name":"a","mail":"bad","age":200}`),
			status: 400, sentinel: entity.ErrValidation,
			body:   `{"type":"/problems/validation","title":"Validation failed","status":400,"detail":"3 fields failed validation","errors":[{"pointer":"/name","path":"name","outputPath":"name","code":"min","params":{"min":2},"message":"must be at least 2 characters long"},{"pointer":"/mail","path":"mail","outputPath":"mail","code":"email","message":"must be a valid email address"},{"pointer":"/age","path":"age","outputPath":"age","code":"range","params":{"max":150,"min":0},"message":"must be between 0 and 150"}]}`,
			fields: []string{"name", "mail", "age"}},
		{name: "validation failure, required fields missing", entity: "newuser", r: rqRequest("POST", "/", "", ""),
			status: 400, sentinel: entity.ErrValidation, fields: []string{"name", "mail"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj, err := reg.Lookup(c.entity).MakeRequest(c.r)
			if err == nil {
				t.Fatalf("MakeRequest succeeded: %v", obj)
			}
			if obj != nil {
				t.Errorf("an Object with the error")
			}
			if !errors.Is(err, c.sentinel) {
				t.Errorf("errors.Is(%v, %v) = false", err, c.sentinel)
			}
			var sc interface{ StatusCode() int }
			if !errors.As(err, &sc) || sc.StatusCode() != c.status {
				t.Errorf("StatusCode of %v: want %d", err, c.status)
			}
			var ie *entity.InputError
			if c.status != 400 || c.sentinel == entity.ErrInvalidJSON {
				if !errors.As(err, &ie) {
					t.Errorf("%v (%T) is not an *entity.InputError", err, err)
				} else if ie.Allow != c.allow {
					t.Errorf("Allow = %q, want %q", ie.Allow, c.allow)
				}
			}

			rec := httptest.NewRecorder()
			entity.WriteError(rec, err)
			if rec.Code != c.status {
				t.Errorf("WriteError status %d, want %d", rec.Code, c.status)
			}
			if got := rec.Header().Get("Allow"); got != c.allow {
				t.Errorf("Allow header %q, want %q", got, c.allow)
			}
			if c.body != "" && rec.Body.String() != c.body {
				t.Errorf("body:\n got %s\nwant %s", rec.Body, c.body)
			}
			body, _ := checkProblem(t, rec, c.status)
			var paths []string
			for _, f := range body.Errors {
				paths = append(paths, f.Path)
			}
			if fmt.Sprint(paths) != fmt.Sprint(c.fields) {
				t.Errorf("fields %v, want %v", paths, c.fields)
			}
		})
	}
	t.Run("a body at the limit is read", func(t *testing.T) {
		if len(atLimit) != 64 {
			t.Fatalf("bad case: %d bytes", len(atLimit))
		}
		_, err := reg.Lookup("newuser").MakeRequest(rqRequest("POST", "/", "application/json", atLimit))
		if errors.Is(err, entity.ErrBodyTooLarge) {
			t.Errorf("a body of exactly the limit: %v", err)
		}
	})
	t.Run("the default limit is 1 MiB", func(t *testing.T) {
		reg := rqRegistry(t)
		if n := reg.Limits().BodyBytes; n != 1<<20 {
			t.Errorf("MaxBodyBytes() = %d, want %d", n, 1<<20)
		}
		body := `{"name":"ab","mail":"a@b.co","pad":"` + strings.Repeat("x", 1<<20) + `"}`
		_, err := reg.Lookup("newuser").MakeRequest(rqRequest("POST", "/", "application/json", body))
		if !errors.Is(err, entity.ErrBodyTooLarge) {
			t.Errorf("a body over 1 MiB: %v, want ErrBodyTooLarge", err)
		}
	})
	t.Run("a body that cannot be read", func(t *testing.T) {
		r := httptest.NewRequest("POST", "/", io.MultiReader(strings.NewReader(`{"na`), errReader{}))
		r.Header.Set("Content-Type", "application/json")
		_, err := reg.Lookup("newuser").MakeRequest(r)
		var ie *entity.InputError
		if !errors.As(err, &ie) || ie.StatusCode() != 400 {
			t.Errorf("got %v, want a 400 InputError", err)
		}
	})
}

// errReader fails every read.
type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

// TestMakeRequestHandler: a handler that makes a request and writes the
// result, through a real server: 201 with the shaped user, 400 with every
// field error, 405 with Allow, 413.
func TestMakeRequestHandler(t *testing.T) {
	reg := rqRegistry(t)
	setLimit(reg, func(l *entity.Limits) { l.BodyBytes = 256 })
	newUser := reg.Lookup("newuser")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		obj, err := newUser.MakeRequest(r)
		if err != nil {
			entity.WriteError(w, err)
			return
		}
		b, err := obj.MarshalJSON()
		if err != nil {
			entity.WriteError(w, err)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusCreated)
		w.Write(b)
	}))
	defer srv.Close()
	cases := []struct {
		name, method, query, contentType, body string
		header                                 []string
		status                                 int
		want                                   string
		allow                                  string
	}{
		{"created from JSON", "POST", "", "application/json", `{"name":"Ann","mail":"ann@example.com","age":"30","admin":true}`,
			[]string{"X-Request-Id", "r-1"}, 201, `{"name":"Ann","mail":"ann@example.com","age":30,"requestId":"r-1"}`, ""},
		{"created from a form", "POST", "", "application/x-www-form-urlencoded", url.Values{"name": {"Bo"}, "mail": {"bo@example.com"}, "age": {"7"}}.Encode(),
			nil, 201, `{"name":"Bo","mail":"bo@example.com","age":7,"requestId":null}`, ""},
		{"field errors", "POST", "", "application/json", `{"name":"A","age":-1}`,
			nil, 400, `{"type":"/problems/validation","title":"Validation failed","status":400,"detail":"3 fields failed validation","errors":[{"pointer":"/name","path":"name","outputPath":"name","code":"min","params":{"min":2},"message":"must be at least 2 characters long"},{"pointer":"/mail","path":"mail","outputPath":"mail","code":"required","message":"is required"},{"pointer":"/age","path":"age","outputPath":"age","code":"range","params":{"max":150,"min":0},"message":"must be between 0 and 150"}]}`, ""},
		{"wrong method", "GET", "name=Ann", "", "", nil, 405, `{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"the method is not allowed; use POST"}`, "POST"},
		{"too large", "POST", "", "application/json", `{"name":"` + strings.Repeat("n", 300) + `"}`, nil, 413,
			`{"type":"about:blank","title":"Request Entity Too Large","status":413,"detail":"the request body is larger than the limit of 256 bytes"}`, ""},
		{"not JSON", "POST", "", "application/json", `name=Ann`, nil, 400, `{"type":"/problems/invalid-json","title":"Invalid JSON","status":400,"detail":"the body is not valid JSON: at byte 1, invalid literal, expected null","offset":1}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body io.Reader
			if c.body != "" {
				body = strings.NewReader(c.body)
			}
			req, err := http.NewRequest(c.method, srv.URL+"/?"+c.query, body)
			if err != nil {
				t.Fatal(err)
			}
			if c.contentType != "" {
				req.Header.Set("Content-Type", c.contentType)
			}
			for i := 0; i < len(c.header); i += 2 {
				req.Header.Set(c.header[i], c.header[i+1])
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != c.status {
				t.Errorf("status %d, want %d", resp.StatusCode, c.status)
			}
			if string(got) != c.want {
				t.Errorf("body:\n got %s\nwant %s", got, c.want)
			}
			if a := resp.Header.Get("Allow"); a != c.allow {
				t.Errorf("Allow %q, want %q", a, c.allow)
			}
		})
	}
}

// MakeRequest reads a declaration's fields from the body (JSON; a form too
// where the methods hold the word form), the query string of a GET without
// one, and X- headers; a declaration may start with the methods it
// accepts.
func ExampleEntity_MakeRequest_sources() {
	reg := entity.NewRegistry()
	reg.MustExpose("newuser", "POST",
		"name", "string", "req",
		"age", "number", "range 0 150",
		"tags", "list", "default",
		"X-Request-Id", "string", "rename requestId",
	)
	// With a body, the query is not read: each field comes from one place.
	r := httptest.NewRequest("POST", "/users?age=1", strings.NewReader(`{"name":"Ann","age":"30","tags":["a","b"]}`))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-Request-Id", "r-42")
	obj, err := reg.Lookup("newuser").MakeRequest(r)
	fmt.Println(obj, err)

	_, err = reg.Lookup("newuser").MakeRequest(httptest.NewRequest("GET", "/users", nil))
	rec := httptest.NewRecorder()
	entity.WriteError(rec, err)
	fmt.Println(rec.Code, rec.Header().Get("Allow"), rec.Body)
	// Output:
	// {"name":"Ann","age":30,"tags":["a","b"],"requestId":"r-42"} <nil>
	// 405 POST {"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"the method is not allowed; use POST"}
}

// A handler answers 400 with every field error.
func ExampleEntity_MakeRequest() {
	reg := entity.NewRegistry()
	signup := reg.MustExpose("signup", "POST",
		"name", "string", "req",
		"mail", "string", "req | email",
	)
	handler := func(w http.ResponseWriter, r *http.Request) {
		obj, err := signup.MakeRequest(r)
		if err != nil {
			entity.WriteError(w, err)
			return
		}
		fmt.Fprintln(w, obj)
	}
	rec := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/", strings.NewReader(`{"mail":"nope"}`))
	r.Header.Set("Content-Type", "application/json")
	handler(rec, r)
	fmt.Println(rec.Code, rec.Body)
	// Output:
	// 400 {"type":"/problems/validation","title":"Validation failed","status":400,"detail":"2 fields failed validation","errors":[{"pointer":"/name","path":"name","outputPath":"name","code":"required","message":"is required"},{"pointer":"/mail","path":"mail","outputPath":"mail","code":"email","message":"must be a valid email address"}]}
}

// TestMakeRequestWithoutURL checks the requests MakeRequest used to panic
// on: a nil *http.Request is an empty input (with no method to check), and
// a request whose URL is nil has no query; its body and headers are read.
func TestMakeRequestWithoutURL(t *testing.T) {
	reg := rqRegistry(t)
	noURL := func(method, body string) func() *http.Request {
		return func() *http.Request {
			r := httptest.NewRequest(method, "/", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("X-Mode", "fast")
			r.URL = nil
			return r
		}
	}
	nilRequest := func() *http.Request { return nil }
	tests := []struct {
		name    string
		entity  string
		r       func() *http.Request // a new one for each call: a body is read once
		want    string
		wantErr string
	}{
		{"nil request", "search", nilRequest, `{"q":null,"page":1,"tags":null,"k":null,"on":null,"X-Mode":null,"requestId":null,"filter":{"min":null}}`, ""},
		{"nil request, required fields", "newuser", nilRequest, "", `entity "newuser": 2 fields failed: name: is required (req); mail: is required (req)`},
		{"no URL, JSON body and headers", "search", noURL("POST", `{"q":"go"}`), `{"q":"go","page":1,"tags":null,"k":null,"on":null,"X-Mode":"fast","requestId":null,"filter":{"min":null}}`, ""},
		{"no URL, no body", "search", noURL("GET", ""), `{"q":null,"page":1,"tags":null,"k":null,"on":null,"X-Mode":"fast","requestId":null,"filter":{"min":null}}`, ""},
		{"no URL, method refused", "newuser", noURL("GET", ""), "", "entity: the method is not allowed; use POST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := reg.Lookup(tt.entity).MakeRequest(tt.r())
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("MakeRequest: %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := o.MarshalJSON(); string(got) != tt.want {
				t.Errorf("MakeRequest: %s, want %s", got, tt.want)
			}
			if got, err := reg.Lookup(tt.entity).MakeJSON(tt.r()); err != nil || string(got) != tt.want {
				t.Errorf("MakeJSON(request): %s, %v, want %s", got, err, tt.want)
			}
		})
	}
}
