package schema_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// TestRequestSchemaOfGroups: a group's request schema is required where a
// request without it fails (a `req` group, its fields all optional or
// not; a group holding a required field), and accepts null where null is
// read as an absent group (any other group), as MakeRequest reads them.
func TestRequestSchemaOfGroups(t *testing.T) {
	tests := []struct {
		name     string
		decl     []string
		required bool
	}{
		{"a req group of optional fields", []string{"g", "{", "req", "a", "string", "", "g", "}", ""}, true},
		{"a group of optional fields", []string{"g", "{", "", "a", "string", "", "g", "}", ""}, false},
		{"a group holding a required field", []string{"g", "{", "", "a", "string", "req", "g", "}", ""}, true},
		{"a group holding a req group", []string{"g", "{", "", "h", "{", "req", "a", "string", "", "h", "}", "", "g", "}", ""}, true},
		{"a group holding a defaulted req field", []string{"g", "{", "", "a", "string", "req | default 'x'", "g", "}", ""}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := expose(t, entity.NewRegistry(), "e", tt.decl...)
			b, err := schema.JSON(e, schema.Request)
			if err != nil {
				t.Fatal(err)
			}
			g, required := property(t, b, "g")
			nullable := strings.HasPrefix(g, `{"properties"`) && strings.Contains(g, `"type":["object","null"]`) ||
				strings.Contains(g, `{"type":"null"}`)
			if required != tt.required || nullable == tt.required {
				t.Errorf("g is required %v, nullable %v; want required %v, nullable %v: %s", required, nullable, tt.required, !tt.required, g)
			}
			for _, body := range []string{`{}`, `{"g":null}`} {
				r := httptest.NewRequest("POST", "/", strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				_, err := e.MakeRequest(r)
				if refused := err != nil; refused != tt.required {
					t.Errorf("MakeRequest of %s: %v, refused %v, want %v", body, err, refused, tt.required)
				}
			}
		})
	}
}
