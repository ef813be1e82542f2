package schema_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
	"github.com/expose-go/expose/internal/testkit"
)

// exposeImmutable exposes an account with immutable fields: at the top,
// with a description of its own, in a group and in a referenced entity.
func exposeImmutable(t testing.TB) *entity.Entity {
	t.Helper()
	reg := entity.NewRegistry()
	expose(t, reg, "person", "ssn", "string", "immutable", "nick", "string", "")
	return expose(t, reg, "account",
		"id", "number", "readonly",
		"handle", "string", "immutable | min 3 | doc 'The login name.'",
		"profile", "{", "",
		"born", "string", "immutable",
		"profile", "}", "",
		"owner", "$person", "",
	)
}

// TestImmutableSchemas: an immutable field's schema says in its
// description, in each mode, that it is set once, after its own
// description; it is never marked readOnly (a request that creates sends
// it), and a Patch schema still lets it be sent. The Patch schema is a
// golden file.
func TestImmutableSchemas(t *testing.T) {
	e := exposeImmutable(t)
	tests := []struct {
		mode  schema.Mode
		words string
	}{
		{schema.Response, "Set once: it never changes once set."},
		{schema.Request, "Set once: a patch cannot change it once set."},
		{schema.Patch, "Set once: a patch may send the value it holds, or give one where it holds none, but not change nor clear it (code immutable)."},
	}
	for _, tt := range tests {
		t.Run(tt.mode.String(), func(t *testing.T) {
			doc, err := schema.JSON(e, tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range [][]string{
				{"properties", "handle"},
				{"properties", "profile", "properties", "born"},
				{"$defs", "person", "properties", "ssn"},
			} {
				s := testkit.At(t, doc, path...)
				if !strings.Contains(s, tt.words) {
					t.Errorf("%s: %s, want a description saying %q", strings.Join(path, "."), s, tt.words)
				}
				if strings.Contains(s, "readOnly") {
					t.Errorf("%s: %s is marked readOnly", strings.Join(path, "."), s)
				}
			}
			if got, want := testkit.At(t, doc, "properties", "handle", "description"), `"The login name. `+tt.words+`"`; got != want {
				t.Errorf("handle's description = %s, want %s", got, want)
			}
			if s := testkit.At(t, doc, "properties", "id"); strings.Contains(s, "Set once") {
				t.Errorf("id: %s says set once", s)
			}
			if tt.mode == schema.Patch {
				golden(t, filepath.Join("testdata", "immutable.patch.json"), doc)
			}
		})
	}
}

// TestImmutableOpenAPI: in an OpenAPI document, a PATCH's merge patch body
// (the component NAME.patch) says that an immutable field cannot change,
// and a POST's body (NAME.request) that it is set once.
func TestImmutableOpenAPI(t *testing.T) {
	e := exposeImmutable(t)
	doc, err := schema.OpenAPI(schema.Info{Title: "accounts", Version: "1"}, []schema.Route{
		{Method: "POST", Path: "/accounts", Request: e, Response: e, Status: 201},
		{Method: "PATCH", Path: "/accounts/{id}", Request: e, Response: e},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		path  []string
		words string
	}{
		{"the PATCH body's ref", []string{"paths", "/accounts/{id}", "patch", "requestBody", "content", entity.MergePatchType, "schema", "$ref"}, "#/components/schemas/account.patch"},
		{"the PATCH body", []string{"components", "schemas", "account.patch", "properties", "handle", "description"}, "not change nor clear it"},
		{"the PATCH body, in a group", []string{"components", "schemas", "account.patch", "properties", "profile", "properties", "born", "description"}, "not change nor clear it"},
		{"the PATCH body, in a $name", []string{"components", "schemas", "person.patch", "properties", "ssn", "description"}, "not change nor clear it"},
		{"the POST body", []string{"components", "schemas", "account.request", "properties", "handle", "description"}, "a patch cannot change it once set"},
		{"the response", []string{"components", "schemas", "account", "properties", "handle", "description"}, "it never changes once set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := testkit.At(t, doc, tt.path...); !strings.Contains(got, tt.words) {
				t.Errorf("%s = %s, want it to say %q", strings.Join(tt.path, "."), got, tt.words)
			}
		})
	}
}
