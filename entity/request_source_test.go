package entity_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// Where a request's field comes from: its source directive (path, query,
// header, cookie), an X-… name (a header), else the body when the request
// has one, and when it has none the query for GET, HEAD, DELETE and
// OPTIONS, nothing for another method; never from two places.

func sourceRegistry(t testing.TB, opts ...entity.RegistryOption) *entity.Entity {
	t.Helper()
	reg := entity.NewRegistry(opts...)
	return expose(t, reg, "edit", "PATCH, GET",
		"id", "number", "path | req",
		"limit", "number", "query | default 20 | range 1 100",
		"token", "string", "header 'Authorization'",
		"session", "string", "cookie 'sid'",
		"name", "string", "",
		"X-Role", "string", "",
	)
}

// serve runs r through a ServeMux with the pattern, so that PathValue
// reads its wildcards, and returns what the handler made of it.
func serve(t *testing.T, e *entity.Entity, pattern string, r *http.Request, opts ...entity.Option) (*entity.Object, error) {
	t.Helper()
	var o *entity.Object
	var err error
	mux := http.NewServeMux()
	mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) { o, err = e.MakeRequest(r, opts...) })
	mux.ServeHTTP(httptest.NewRecorder(), r)
	return o, err
}

func TestRequestSources(t *testing.T) {
	e := sourceRegistry(t)
	t.Run("each from its place", func(t *testing.T) {
		r := rqRequest("PATCH", "/customers/42?limit=5&name=q", "application/json", `{"name":"Ann","id":7,"limit":1,"token":"b"}`,
			"Authorization", "Bearer t", "X-Role", "admin", "Cookie", "sid=s1")
		o, err := serve(t, e, "PATCH /customers/{id}", r)
		if err != nil {
			t.Fatal(err)
		}
		const want = `{"id":42,"limit":5,"token":"Bearer t","session":"s1","name":"Ann","X-Role":"admin"}`
		if got := o.String(); got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	})
	t.Run("without a body, the query", func(t *testing.T) {
		o, err := serve(t, e, "GET /customers/{id}", rqRequest("GET", "/customers/1?name=q", "", ""))
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := o.Get("name"); got != "q" {
			t.Errorf("name = %v, want the query's", got)
		}
	})
	t.Run("a path value that does not convert names the parameter", func(t *testing.T) {
		_, err := serve(t, e, "GET /customers/{id}", rqRequest("GET", "/customers/abc?limit=0", "", ""))
		fs := fieldErrorsOrNone(err)
		if len(fs) != 2 || fs[0].Path != "id" || fs[0].In != "path" || fs[0].Code != "type" || fs[1].Path != "limit" || fs[1].In != "query" {
			t.Fatalf("got %v", err)
		}
		rec := httptest.NewRecorder()
		entity.WriteError(rec, err)
		var body struct {
			Errors []map[string]any `json:"errors"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != 400 {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
		if p := body.Errors[0]; p["parameter"] != "id" || p["in"] != "path" || p["pointer"] != nil {
			t.Errorf("errors[0] = %v, want parameter id in path", p)
		}
		if strings.Contains(rec.Body.String(), "abc") {
			t.Errorf("the problem quotes the input: %s", rec.Body)
		}
	})
	t.Run("DenyUnknown covers the body and the query", func(t *testing.T) {
		r := rqRequest("PATCH", "/customers/1?limit=5&x=1", "application/json", `{"name":"a","id":1,"Authorization":"t"}`)
		_, err := serve(t, e, "PATCH /customers/{id}", r, entity.DenyUnknown())
		var got []string
		for _, f := range fieldErrorsOrNone(err) {
			got = append(got, f.Path+" "+f.In)
		}
		if strings.Join(got, ",") != "Authorization ,id ,x query" {
			t.Errorf("got %q (%v)", got, err)
		}
	})
	t.Run("another router, through PathValues", func(t *testing.T) {
		e := sourceRegistry(t, entity.PathValues(func(r *http.Request, name string) string {
			if name == "id" {
				return strings.TrimPrefix(r.URL.Path, "/c/")
			}
			return ""
		}))
		o, err := e.MakeRequest(rqRequest("GET", "/c/9", "", ""))
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := o.Get("id"); got != int64(9) {
			t.Errorf("id = %v", got)
		}
	})
}

// TestSourceDeclarations: a source directive belongs to a value field at
// the top level of an entity, once.
func TestSourceDeclarations(t *testing.T) {
	for _, tt := range []struct {
		name string
		decl []string
		want string
	}{
		{"in a group", []string{"g", "{", "", "id", "number", "path", "g", "}", ""}, "top level"},
		{"on a group", []string{"g", "{", "query", "id", "number", "", "g", "}", ""}, "value field"},
		{"two sources", []string{"id", "number", "path | query"}, "one place"},
		{"an X- field from a query", []string{"X-Id", "number", "query"}, "one place"},
		{"two names", []string{"id", "number", "path a b"}, "at most one argument"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := entity.NewRegistry().Expose("e", tt.decl...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestParamsOnlyEntityLeavesTheBody: an entity whose fields are all
// parameters reads no body, so that a handler can read a PATCH's path
// parameter, then its merge patch.
func TestParamsOnlyEntityLeavesTheBody(t *testing.T) {
	reg := entity.NewRegistry()
	byID := expose(t, reg, "by_id", "id", "number", "path | req")
	patchable := expose(t, reg, "item", "name", "string", "")
	r := rqRequest("PATCH", "/items/7", entity.MergePatchType, `{"name":"b"}`)
	r.SetPathValue("id", "7")
	o, err := byID.MakeRequest(r)
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := o.Get("id"); id != int64(7) {
		t.Errorf("id = %v", id)
	}
	merged, _, err := patchable.Patch(r, map[string]any{"name": "a"})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := merged.Get("name"); v != "b" {
		t.Errorf("the patch read after the path parameter: %v", v)
	}
}

// TestBodyMethodsReadNoQuery: a request whose method has a body (every
// method but GET, HEAD, DELETE and OPTIONS) reads its body fields from the
// body only: without one they are absent, whatever the query holds (a link
// or a cross-site form can set a URL's query); a field declared query is
// read from there.
func TestBodyMethodsReadNoQuery(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "user",
		"name", "string", "req",
		"mail", "string", "",
		"dry", "bool", "query",
	)
	tests := []struct {
		method, target, ct, body string
		opts                     []entity.Option
		want                     string // the Object, or the failing paths and codes
	}{
		{"POST", "/u?name=Ann&mail=a@b.c", "", "", nil, "name required"},
		{"PUT", "/u?name=Ann", "", "", nil, "name required"},
		{"PATCH", "/u?name=Ann", "", "", nil, "name required"},
		{"PROPPATCH", "/u?name=Ann", "", "", nil, "name required"},
		{"POST", "/u?name=Ann", "application/json", "  ", nil, "name required"},
		{"POST", "/u?name=Ann&dry=true", "", "", nil, "name required"},
		{"POST", "/u?dry=true", "application/json", `{"name":"Bo"}`, nil, `{"name":"Bo","mail":null,"dry":true}`},
		{"POST", "/u?name=Ann", "", "", []entity.Option{entity.DenyUnknown()}, "name required, name unknown"},
		{"GET", "/u?name=Ann&mail=a@b.c", "", "", nil, `{"name":"Ann","mail":"a@b.c","dry":null}`},
		{"HEAD", "/u?name=Ann", "", "", nil, `{"name":"Ann","mail":null,"dry":null}`},
		{"DELETE", "/u?name=Ann", "", "", nil, `{"name":"Ann","mail":null,"dry":null}`},
		{"OPTIONS", "/u?name=Ann", "", "", nil, `{"name":"Ann","mail":null,"dry":null}`},
		{"GET", "/u?name=Ann", "application/json", `{"name":"Bo"}`, nil, `{"name":"Bo","mail":null,"dry":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.target+" "+tt.body, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body))
			if tt.ct != "" {
				r.Header.Set("Content-Type", tt.ct)
			}
			o, err := e.MakeRequest(r, tt.opts...)
			if got := outcome(t, o, err); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	t.Run("the error says the body", func(t *testing.T) {
		_, err := e.MakeRequest(httptest.NewRequest("POST", "/u?name=Ann", nil))
		if fes := fieldErrors(t, err); len(fes) != 1 || fes[0].In != "" || fes[0].Pointer != "/name" {
			t.Errorf("got %+v", fes)
		}
	})
}

// TestParameterIntegersAreDecimal: a path, query, header or cookie value
// read for an integer is decimal digits with an optional minus sign,
// nothing else: "1.0", "2.00", "1e3" and "+1" are type errors naming the
// parameter (a JSON body's 2.0 stays an integer). Lax reads them as
// before.
func TestParameterIntegersAreDecimal(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "customer", "GET|POST",
		"id", "number", "path",
		"limit", "number", "query",
		"ids", "[]int", "query",
		"page", "number", "header 'X-Page'",
		"n", "number", "cookie 'n'",
		"k", "number", "",
	)
	get := func(target, header, cookie string) *http.Request {
		r := httptest.NewRequest("GET", target, nil)
		if header != "" {
			r.Header.Set("X-Page", header)
		}
		if cookie != "" {
			r.AddCookie(&http.Cookie{Name: "n", Value: cookie})
		}
		return r
	}
	tests := []struct {
		name, target, header, cookie string
		want                         string // the Object, or the failing paths, places and gots
	}{
		{"digits", "/customers/7?limit=-3&ids=1&ids=007&k=2", "4", "5", `{"id":7,"limit":-3,"ids":[1,7],"page":4,"n":5,"k":2}`},
		{"a path integer with a fraction", "/customers/1.0", "", "", "id path string with a fraction"},
		{"a query integer with a fraction", "/customers/1?limit=2.0", "", "", "limit query string with a fraction"},
		{"in exponent form", "/customers/1?limit=1e3", "", "", "limit query string"},
		{"with a plus sign", "/customers/1?limit=%2B1", "", "", "limit query string"},
		{"a list's element", "/customers/1?ids=1&ids=2.0", "", "", "ids[1]  string with a fraction"}, // below the top level: no In
		{"a header", "/customers/1", "2.0", "", "X-Page header string with a fraction"},
		{"a cookie", "/customers/1", "", "3.00", "n cookie string with a fraction"},
		{"a body field read from the query", "/customers/1?k=2.0", "", "", "k query string with a fraction"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := serve(t, e, "GET /customers/{id}", get(tt.target, tt.header, tt.cookie))
			if got := paramOutcome(t, o, err); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if err == nil {
				return
			}
			if _, err := serve(t, e, "GET /customers/{id}", get(tt.target, tt.header, tt.cookie), entity.Lax()); err != nil {
				t.Errorf("Lax: %v", err)
			}
		})
	}
	t.Run("a JSON body's integral number is an integer", func(t *testing.T) {
		r := httptest.NewRequest("POST", "/customers/1", strings.NewReader(`{"k":2.0}`))
		r.Header.Set("Content-Type", "application/json")
		o, err := serve(t, e, "POST /customers/{id}", r)
		if got := paramOutcome(t, o, err); got != `{"id":1,"limit":null,"ids":null,"page":null,"n":null,"k":2}` {
			t.Errorf("got %s", got)
		}
	})
}

// TestRepeatedQueryKeyForAScalar: a query key repeated for a field that is
// no list is a type error naming the parameter (it arrived as a list),
// never its first value silently; a list field takes them all. Under Lax
// the first value is read, as msful read it.
func TestRepeatedQueryKeyForAScalar(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "search", "GET|POST",
		"limit", "number", "query",
		"tags", "[]string", "query",
		"q", "string", "",
	)
	tests := []struct {
		name, method, target string
		opts                 []entity.Option
		want                 string
	}{
		{"a query field", "GET", "/?limit=1&limit=2", nil, "limit query array"},
		{"a body field read from the query", "GET", "/?q=a&q=b", nil, "q query array"},
		{"a list field", "GET", "/?tags=a&tags=b&limit=1", nil, `{"limit":1,"tags":["a","b"],"q":null}`},
		{"Lax: the first", "GET", "/?limit=1&limit=2&q=a&q=b", []entity.Option{entity.Lax()}, `{"limit":1,"tags":null,"q":"a"}`},
		{"with a body", "POST", "/?limit=1&limit=2", nil, "limit query array"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r *http.Request
			if tt.method == "POST" {
				r = httptest.NewRequest("POST", tt.target, strings.NewReader(`{"q":"x"}`))
				r.Header.Set("Content-Type", "application/json")
			} else {
				r = httptest.NewRequest(tt.method, tt.target, nil)
			}
			o, err := e.MakeRequest(r, tt.opts...)
			if got := paramOutcome(t, o, err); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	t.Run("the problem names the parameter", func(t *testing.T) {
		_, err := e.MakeRequest(httptest.NewRequest("GET", "/?limit=1&limit=2", nil))
		rec := httptest.NewRecorder()
		entity.WriteError(rec, err)
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), `"parameter":"limit","in":"query"`) {
			t.Errorf("%d %s", rec.Code, rec.Body)
		}
	})
	t.Run("a repeated form key", func(t *testing.T) {
		f := expose(t, reg, "login", "POST form", "user", "string", "req")
		r := httptest.NewRequest("POST", "/", strings.NewReader("user=a&user=b"))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		_, err := f.MakeRequest(r)
		if got := paramOutcome(t, nil, err); got != "user  array" {
			t.Errorf("got %s", got)
		}
	})
}

// paramOutcome describes a request call's result: the Object, or each
// failure's path, place and what the value arrived as.
func paramOutcome(t testing.TB, o *entity.Object, err error) string {
	t.Helper()
	if err != nil {
		var parts []string
		for _, fe := range fieldErrors(t, err) {
			parts = append(parts, fmt.Sprint(fe.Path, " ", fe.In, " ", fe.Params["got"]))
		}
		return strings.Join(parts, ", ")
	}
	b, _ := o.MarshalJSON()
	return string(b)
}

// TestFieldErrorInOfMergedKeys: a merged $name's keys are the top level's
// own, so that a failure of one read from the query (a GET's body fields)
// says it was in the query, as a field of the entity itself does.
func TestFieldErrorInOfMergedKeys(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "contact", "role", "string", "url")
	e := expose(t, reg, "person", "site", "string", "url", "c", "$contact", "merge")
	tests := []struct{ name, target, path, in string }{
		{"a field of the entity", "/?site=abc", "site", "query"},
		{"a merged key", "/?role=abc", "role", "query"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.MakeRequest(httptest.NewRequest("GET", tt.target, nil))
			fes := fieldErrorsOrNone(err)
			if len(fes) != 1 || fes[0].Path != tt.path || fes[0].In != tt.in {
				t.Fatalf("MakeRequest: %v; want one error at %s in the %s", err, tt.path, tt.in)
			}
		})
	}
}
