package entitytest

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestSampleInputHasOnlyBodyFields: Sample(e, Request) is "a valid request
// body, in the wire form a client sends": a field read from the path, the
// query, a header or a cookie is no key of a body (a body never supplies
// one, and DenyUnknown refuses its key there), so the sample has none.
func TestSampleInputHasOnlyBodyFields(t *testing.T) {
	r := entity.NewRegistry()
	e := r.MustExpose("sourced",
		"id", "number", "path",
		"page", "number", "query",
		"tok", "string", "header 'Authorization'",
		"sid", "string", "cookie",
		"X-Tenant", "string", "",
		"name", "string", "req",
	)
	in := Sample(e, Request())
	var got map[string]any
	if err := json.Unmarshal(in, &got); err != nil {
		t.Fatalf("Sample(Request()) = %s: %v", in, err)
	}
	tests := []struct{ name, key string }{
		{"a path field", "id"},
		{"a query field", "page"},
		{"a header field, by its header name", "Authorization"},
		{"a header field, by its name", "tok"},
		{"a cookie field", "sid"},
		{"an X- field", "X-Tenant"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := got[tt.key]; ok {
				t.Errorf("Sample(Request()) = %s: has the key %q, which a body never supplies", in, tt.key)
			}
		})
	}
	t.Run("the body is made with DenyUnknown", func(t *testing.T) {
		req := httptest.NewRequest("POST", "/", bytes.NewReader(in))
		req.Header.Set("Content-Type", "application/json")
		if _, err := e.MakeRequest(req, entity.DenyUnknown()); err != nil {
			t.Errorf("MakeRequest(Sample(Request()) = %s, DenyUnknown): %v", in, err)
		}
	})
}

// TestSampleMeetsCrossRules: Sample builds a valid payload, and
// Sample(e, Request) a valid request body: the cross-field rules hold on
// them as every other rule does (excluded_with leaves one of the fields
// out), so Make and MakeRequest take them.
func TestSampleMeetsCrossRules(t *testing.T) {
	r := entity.NewRegistry()
	e := r.MustExpose("contact",
		"phone", "string", "excluded_with 'email'",
		"email", "string", "required_without 'phone'",
		"delivery", "string", "req | in ship pickup",
		"ship_to", "string", "required_if 'delivery' 'ship'",
	)
	t.Run("a response sample", func(t *testing.T) {
		out := Sample(e)
		if _, err := e.MakeJSON(out); err != nil {
			t.Errorf("MakeJSON(Sample = %s): %v", out, err)
		}
	})
	t.Run("a request sample", func(t *testing.T) {
		in := Sample(e, Request())
		req := httptest.NewRequest("POST", "/", bytes.NewReader(in))
		req.Header.Set("Content-Type", "application/json")
		if _, err := e.MakeRequest(req); err != nil {
			t.Errorf("MakeRequest(Sample(Request()) = %s): %v", in, err)
		}
	})
}
