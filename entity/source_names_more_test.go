package entity_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestSourceDirectivesRefuseNamesNoRequestHas: "path names must be Go
// identifiers, header/cookie names HTTP tokens, object fields cannot be
// parameters": every spelling that breaks those is a declaration error,
// the field's own name (or its key) included when the directive is bare.
func TestSourceDirectivesRefuseNamesNoRequestHas(t *testing.T) {
	tests := []struct {
		name    string
		keyCase entity.KeyCaseStyle
		decl    []string
	}{
		{"a path name starting with a digit", 0, []string{"x", "string", "path '1a'"}},
		{"a path name with a dash", 0, []string{"x", "string", "path 'a-b'"}},
		{"a path name with a dot", 0, []string{"x", "string", "path 'a.b'"}},
		{"a path name with dots (a ServeMux tail)", 0, []string{"x", "string", "path 'a...'"}},
		{"a path name empty", 0, []string{"x", "string", "path ''"}},
		{"a path name with a slash", 0, []string{"x", "string", "path 'a/b'"}},
		{"a bare path on a name with a dash", 0, []string{"user-id", "string", "path"}},
		{"a bare path on a name with a space", 0, []string{"user id", "string", "path"}},
		{"a bare path on a name starting with a digit", 0, []string{"1st", "string", "path"}},
		{"a bare path on a key case key with a dash", entity.KebabCase, []string{"user_id", "string", "path"}},
		{"a header name empty", 0, []string{"x", "string", "header ''"}},
		{"a header name with a colon", 0, []string{"x", "string", "header 'X:Y'"}},
		{"a header name with a slash", 0, []string{"x", "string", "header 'X/Y'"}},
		{"a header name with a non-ASCII letter", 0, []string{"x", "string", "header 'X-É'"}},
		{"a header name with a tab", 0, []string{"x", "string", "header 'X\tY'"}},
		{"a header name with a quote", 0, []string{"x", "string", "header 'X\"Y'"}},
		{"a bare header on a name with a space", 0, []string{"user agent", "string", "header"}},
		{"a cookie name empty", 0, []string{"x", "string", "cookie ''"}},
		{"a cookie name with a comma", 0, []string{"x", "string", "cookie 'a,b'"}},
		{"a cookie name with a bracket", 0, []string{"x", "string", "cookie 'a[b]'"}},
		{"a cookie name with a non-ASCII letter", 0, []string{"x", "string", "cookie 'é'"}},
		{"a bare cookie on a name with a space", 0, []string{"my sid", "string", "cookie"}},
		{"an X- field with a space", 0, []string{"X-A B", "string", ""}},
		{"an X- field with a colon", 0, []string{"X-A:B", "string", ""}},
		{"an object read from a path", 0, []string{"o", "object", "path 'o'"}},
		{"an object read from a cookie", 0, []string{"o", "object", "cookie"}},
		{"a reference read from the query", 0, []string{"o", "$x", "query"}},
		{"a list of references read from a header", 0, []string{"o", "[]$x", "header"}},
		{"a group read from the query", 0, []string{"g", "{", "query", "a", "string", "", "g", "}", ""}},
		{"a field in a group read from the query", 0, []string{"g", "{", "", "a", "string", "query", "g", "}", ""}},
		{"a field in a group read from a path", 0, []string{"g", "{", "", "a", "string", "path", "g", "}", ""}},
		{"an object field named X-", 0, []string{"X-Obj", "object", ""}},
		{"two source directives", 0, []string{"a", "string", "query | header"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry(entity.KeyCase(tt.keyCase))
			expose(t, reg, "x", "v", "string", "")
			if _, err := reg.Expose("sourced", tt.decl...); err == nil {
				t.Errorf("Expose(%q): no error, want the directive refused", tt.decl)
			}
		})
	}
}

// TestSourceDirectivesAcceptWhatARequestHas: names a request can carry are
// accepted and read: a path wildcard of Unicode letters and underscores
// (a Go identifier), a header or cookie token with every tchar.
func TestSourceDirectivesAcceptWhatARequestHas(t *testing.T) {
	tests := []struct {
		name string
		decl []string
		req  func() *http.Request
		want string
	}{
		{"a path wildcard of underscores and digits", []string{"x", "string", "path 'a_1'"},
			func() *http.Request { r := httptest.NewRequest("GET", "/", nil); r.SetPathValue("a_1", "v"); return r }, `{"x":"v"}`},
		{"a path wildcard of Unicode letters", []string{"x", "string", "path 'ユーザー'"},
			func() *http.Request {
				r := httptest.NewRequest("GET", "/", nil)
				r.SetPathValue("ユーザー", "v")
				return r
			}, `{"x":"v"}`},
		{"a header of every tchar", []string{"x", "string", "header 'A!#$%&*+.^_`|~-9'"},
			func() *http.Request {
				r := httptest.NewRequest("GET", "/", nil)
				r.Header["A!#$%&*+.^_`|~-9"] = []string{"v"}
				return r
			}, `{"x":"v"}`},
		{"a cookie of tchars", []string{"x", "string", "cookie 'a.b-c_d'"},
			func() *http.Request {
				r := httptest.NewRequest("GET", "/", nil)
				r.AddCookie(&http.Cookie{Name: "a.b-c_d", Value: "v"})
				return r
			}, `{"x":"v"}`},
		{"a typed list from the query", []string{"x", "[]number", "query"},
			func() *http.Request { return httptest.NewRequest("GET", "/?x=1&x=2", nil) }, `{"x":[1,2]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := entity.NewRegistry().Expose("sourced", tt.decl...)
			if err != nil {
				t.Fatalf("Expose(%q): %v", tt.decl, err)
			}
			o, err := e.MakeRequest(tt.req())
			if err != nil {
				t.Fatalf("MakeRequest: %v", err)
			}
			if got := o.String(); got != tt.want {
				t.Errorf("MakeRequest = %s, want %s", got, tt.want)
			}
		})
	}
}
