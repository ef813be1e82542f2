package dsl

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestParseMethods: a declaration may start with one extra string naming
// the HTTP methods a request must use, as msful's validate took the method
// first. Only a string of HTTP method names (and the word form), in front
// of whole triples, counts.
func TestParseMethods(t *testing.T) {
	tests := []struct {
		name    string
		decl    []string
		methods []string
		fields  int
		errText string
		forms   bool
	}{
		{"form", []string{"POST form", "name", "string", "req"}, []string{"POST"}, 1, "", true},
		{"form alone, any case", []string{"Form", "name", "string", "req"}, nil, 1, "", true},
		{"form among bars", []string{"PUT|form|PATCH", "name", "string", "req"}, []string{"PUT", "PATCH"}, 1, "", true},
		{"forms is no method", []string{"POST forms", "name", "string", "req"}, nil, 0, "whole triple", false},
		{"one method", []string{"POST", "name", "string", "req"}, []string{"POST"}, 1, "", false},
		{"bar separated", []string{"GET|HEAD", "id", "number", ""}, []string{"GET", "HEAD"}, 1, "", false},
		{"comma and space separated", []string{"PUT, PATCH", "id", "number", ""}, []string{"PUT", "PATCH"}, 1, "", false},
		{"methods and nothing else", []string{"DELETE"}, []string{"DELETE"}, 0, "", false},
		{"no methods", []string{"id", "number", ""}, nil, 1, "", false},
		{"lower case is no method", []string{"post", "id", "number", ""}, nil, 0, "whole triple", false},
		{"an unknown word is no method", []string{"FETCH", "id", "number", ""}, nil, 0, "whole triple", false},
		{"a method in front of broken triples", []string{"POST", "id", "number"}, nil, 0, "unknown type", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse("e", tt.decl...)
			if tt.errText != "" {
				var l ErrorList
				if !errors.As(err, &l) {
					t.Fatalf("Parse = %v, want an ErrorList", err)
				}
				for _, e := range l {
					if strings.Contains(e.Msg, tt.errText) {
						return
					}
				}
				t.Fatalf("Parse = %v, want an error about %q", err, tt.errText)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(e.Methods, tt.methods) || len(e.Fields) != tt.fields || e.Forms != tt.forms {
				t.Fatalf("Methods %q, %d fields, Forms %v; want %q, %d, %v", e.Methods, len(e.Fields), e.Forms, tt.methods, tt.fields, tt.forms)
			}
			back, err := Parse("e", e.Triples()...)
			if err != nil || !slices.Equal(back.Methods, e.Methods) || back.Forms != e.Forms {
				t.Fatalf("round trip: %v, %v", back, err)
			}
		})
	}
}
