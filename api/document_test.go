package api_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/expose-go/expose/api"
	"github.com/expose-go/expose/entity"
)

// roles is the shop's middleware: X-Role: admin makes the request the
// staff's (in production an authenticating proxy sets the header, never a
// client).
func roles(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Role") == "admin" {
			r = r.WithContext(entity.NewContext(r.Context(), "admin"))
		}
		next.ServeHTTP(w, r)
	})
}

// TestDocumentsGolden: the shop's documents, the public one and the
// staff's, and the public docs page, are the golden files of testdata (go
// test -run DocumentsGolden -update rewrites them), the same bytes from
// two APIs made alike.
func TestDocumentsGolden(t *testing.T) {
	_, a := shopAPI(t, api.Config{})
	_, again := shopAPI(t, api.Config{})
	tests := []struct {
		file string
		make func(*api.API) ([]byte, error)
	}{
		{"shop.openapi.json", func(a *api.API) ([]byte, error) { return a.OpenAPI(api.Audience{}) }},
		{"shop-admin.openapi.json", func(a *api.API) ([]byte, error) { return a.OpenAPI(api.Audience{Flags: []string{"admin"}}) }},
		{"shop.docs.html", func(a *api.API) ([]byte, error) { return a.Docs(api.Audience{}) }},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := tt.make(a)
			if err != nil {
				t.Fatal(err)
			}
			if other, _ := tt.make(again); !bytes.Equal(got, other) {
				t.Errorf("two APIs made alike give two documents")
			}
			golden(t, "testdata/"+tt.file, got)
		})
	}
}

// TestDocumentsPerAudience: /openapi.json and /docs are made for the
// audience of the request (by default the flags a middleware put in its
// context): the public ones have no admin-only field, the staff's have it;
// both say Vary with the header that picks the audience, so that a cache
// never serves the staff's to the public.
func TestDocumentsPerAudience(t *testing.T) {
	mux, _ := shopAPI(t, api.Config{Vary: []string{"X-Role"}})
	h := roles(mux)
	for _, path := range []string{"/openapi.json", "/docs"} {
		for _, tt := range []struct {
			name, role string
			admin      bool
		}{{"public", "", false}, {"staff", "admin", true}, {"another role", "clerk", false}} {
			t.Run(path+"/"+tt.name, func(t *testing.T) {
				rec := serve(h, "GET", path, "X-Role", tt.role)
				if rec.Code != 200 {
					t.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
				if got := strings.Contains(rec.Body.String(), "loyalty_points"); got != tt.admin {
					t.Errorf("loyalty_points on the page: %v, want %v", got, tt.admin)
				}
				if v := rec.Header().Values("Vary"); fmt.Sprint(v) != "[X-Role]" {
					t.Errorf("Vary %q, want [X-Role]", v)
				}
				if cc := rec.Header().Get("Cache-Control"); cc != "" {
					t.Errorf("Cache-Control %q where Vary says it", cc)
				}
			})
		}
	}
}

// TestDocumentsCacheControl: documents whose audience is picked by what no
// Vary names are private to a cache; an API whose audiences cannot differ
// says nothing.
func TestDocumentsCacheControl(t *testing.T) {
	tests := []struct {
		name string
		cfg  api.Config
		want string
	}{
		{"declared flags, no Vary", api.Config{}, "private"},
		{"an Audience, no Vary", api.Config{Audience: func(*http.Request) api.Audience { return api.Audience{} }}, "private"},
		{"a Vary", api.Config{Vary: []string{"X-Role"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mux, _ := shopAPI(t, tt.cfg)
			if got := serve(mux, "GET", "/openapi.json").Header().Get("Cache-Control"); got != tt.want {
				t.Errorf("Cache-Control %q, want %q", got, tt.want)
			}
		})
	}
}

// TestDocumentsOfAVersion: an Audience's version picks the fields of its
// version range; versions a call does not tell apart give one document; a
// version that is not one is a 400 problem.
func TestDocumentsOfAVersion(t *testing.T) {
	reg := entity.NewRegistry()
	e := reg.MustExpose("thing", "name", "string", "req", "legacy", "string", "until 'v2'", "color", "string", "since 'v2'")
	mux := http.NewServeMux()
	a := api.New(mux, api.Config{
		Info:     shopInfo,
		Audience: func(r *http.Request) api.Audience { return api.Audience{Version: r.Header.Get("API-Version")} },
		Vary:     []string{"API-Version"},
	})
	a.HandleFunc("GET /things", func(http.ResponseWriter, *http.Request) {}, api.Operation{Response: e})
	tests := []struct {
		version     string
		has, hasNot string
	}{
		{"", "legacy", ""}, // a call without a version writes every field
		{"v1", "legacy", "color"},
		{"1.9", "legacy", "color"},
		{"v2", "color", "legacy"},
		{"V2.0.0", "color", "legacy"},
	}
	for _, tt := range tests {
		t.Run("version "+tt.version, func(t *testing.T) {
			doc, err := a.OpenAPI(api.Audience{Version: tt.version})
			if err != nil {
				t.Fatal(err)
			}
			if props := at(t, doc, "components", "schemas", "thing", "properties"); !strings.Contains(props, `"`+tt.has+`"`) || tt.hasNot != "" && strings.Contains(props, `"`+tt.hasNot+`"`) {
				t.Errorf("properties %s: want %s, not %s", props, tt.has, tt.hasNot)
			}
			rec := serve(mux, "GET", "/openapi.json", "API-Version", tt.version)
			if !bytes.Equal(rec.Body.Bytes(), doc) {
				t.Errorf("GET /openapi.json with API-Version %q is not OpenAPI's document", tt.version)
			}
		})
	}
	for _, bad := range []string{"latest", "v", "1..2", "v1.2.3.4.5", "v1234567890"} {
		t.Run("bad version "+bad, func(t *testing.T) {
			if _, err := a.OpenAPI(api.Audience{Version: bad}); err == nil {
				t.Errorf("OpenAPI took version %q", bad)
			}
			p := readProblem(t, serve(mux, "GET", "/docs", "API-Version", bad), 400)
			if p.Type != "/problems/invalid-version" {
				t.Errorf("type %q", p.Type)
			}
		})
	}
}

// TestDocumentsFollowRoutes: a route registered after a document was made
// is in the next one.
func TestDocumentsFollowRoutes(t *testing.T) {
	_, a := shopAPI(t, api.Config{})
	before, err := a.OpenAPI(api.Audience{})
	if err != nil {
		t.Fatal(err)
	}
	before[0] = 'x' // the caller's bytes
	a.HandleFunc("DELETE /customers/{id}", func(http.ResponseWriter, *http.Request) {}, api.Operation{Status: http.StatusNoContent})
	after, err := a.OpenAPI(api.Audience{})
	if err != nil {
		t.Fatal(err)
	}
	if got := at(t, after, "paths", "/customers/{id}", "delete", "operationId"); got != `"deleteCustomersById"` {
		t.Errorf("the new route's operationId: %s", got)
	}
	docs, _ := a.Docs(api.Audience{})
	if !bytes.Contains(docs, []byte(`id="op-deleteCustomersById"`)) {
		t.Errorf("the docs page has no section of the new route")
	}
}

// TestDocumentsCacheKeepsAudiencesApart: audiences whose flags would
// read alike joined by commas ({admin, staff} and the one flag
// "admin,staff") are two documents, each with its own fields, whichever
// is asked for first.
func TestDocumentsCacheKeepsAudiencesApart(t *testing.T) {
	for _, first := range []int{0, 1} {
		reg := entity.NewRegistry()
		if err := reg.DeclareFlags("admin", "staff", "admin,staff"); err != nil {
			t.Fatal(err)
		}
		e := reg.MustExpose("member",
			"name", "string", "",
			"salary", "number", "if 'admin' | if 'staff'",
			"badge", "string", "if 'admin,staff'",
		)
		a := api.New(http.NewServeMux(), api.Config{Info: shopInfo})
		a.HandleFunc("GET /member", func(http.ResponseWriter, *http.Request) {}, api.Operation{Response: e})
		audiences := []struct {
			aud        api.Audience
			has, lacks string
		}{
			{api.Audience{Flags: []string{"admin", "staff"}}, `"salary"`, `"badge"`},
			{api.Audience{Flags: []string{"admin,staff"}}, `"badge"`, `"salary"`},
		}
		order := []int{first, 1 - first}
		for _, i := range order {
			tt := audiences[i]
			doc, err := a.OpenAPI(tt.aud)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(doc, []byte(tt.has)) || bytes.Contains(doc, []byte(tt.lacks)) {
				t.Errorf("asked for first %v: the document of %q does not list %s alone of %s and %s",
					audiences[order[0]].aud.Flags, tt.aud.Flags, tt.has, tt.has, tt.lacks)
			}
		}
	}
}
