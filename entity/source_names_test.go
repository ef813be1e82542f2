package entity_test

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestSourceDirectivesRefuseWhatNoRequestHas: a source directive names a
// place a request can have: a path wildcard's name (Go's patterns take a
// Go identifier), a cookie's name (an HTTP token); and a parameter is
// text, which an object field can never read (every value would be a
// type error). Such declarations are refused at Expose, as an empty
// header name is.
func TestSourceDirectivesRefuseWhatNoRequestHas(t *testing.T) {
	tests := []struct {
		name string
		decl []string
	}{
		{"a path name with a space", []string{"x", "string", "path 'a b'"}},
		{"a path name with a brace", []string{"x", "string", "path 'a}'"}},
		{"a header name with a space", []string{"x", "string", "header 'X A'"}},
		{"a cookie name with separators", []string{"x", "string", "cookie '=;'"}},
		{"an object read from a header", []string{"o", "object", "header"}},
		{"an object read from the query", []string{"o", "object", "query"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := entity.NewRegistry().Expose("sourced", tt.decl...); err == nil {
				t.Errorf("Expose(%q): no error, want the directive refused", tt.decl)
			}
		})
	}
}
