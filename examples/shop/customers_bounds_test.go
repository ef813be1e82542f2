package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// callBounded is call with a deadline: a handler that panics or leaves the
// store locked must fail the test, not hang it. It reports a panic as
// status -1 and a hang as status -2.
func callBounded(t *testing.T, h http.Handler, method, target, body string, headers ...string) (int, string) {
	t.Helper()
	type answer struct {
		code int
		body string
	}
	done := make(chan answer, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- answer{-1, ""}
			}
		}()
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		if body != "" {
			r.Header.Set("Content-Type", "application/json")
		}
		for i := 0; i+1 < len(headers); i += 2 {
			r.Header.Set(headers[i], headers[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		done <- answer{rec.Code, rec.Body.String()}
	}()
	select {
	case a := <-done:
		return a.code, a.body
	case <-time.After(2 * time.Second):
		return -2, ""
	}
}

// TestListCustomersHugeOffsetIsNoServerFault: offset is declared
// `default 0 | min 0 | query` with no upper bound, so any int64 ≥ 0 is a
// valid request; a page past the end is an empty list (as offset=5 is).
// The README promises "every call's work is bounded by its input" and
// requests never answer 500: a valid offset must not panic the handler,
// and must not leave the store locked for the next request.
func TestListCustomersHugeOffsetIsNoServerFault(t *testing.T) {
	tests := []struct{ name, query string }{
		{"max int64", "offset=9223372036854775807"},
		{"max int64 minus limit plus one", "offset=9223372036854775790&limit=100"},
		{"max int64 limit 1", "offset=9223372036854775807&limit=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := withCustomers(t, ann, bob)
			code, body := callBounded(t, h, "GET", "/customers?"+tt.query, "")
			switch code {
			case -1:
				t.Errorf("GET /customers?%s panicked (slice bounds: offset+limit overflows int64)", tt.query)
			case -2:
				t.Errorf("GET /customers?%s hung", tt.query)
			case http.StatusOK:
				if !strings.Contains(body, `"list":[]`) {
					t.Errorf("GET /customers?%s: %s, want an empty page", tt.query, body)
				}
			default:
				if code >= 500 {
					t.Errorf("GET /customers?%s: %d %s, want 200 with an empty page (or a 400)", tt.query, code, body)
				}
			}
			// The store must still answer: the panic above happened with its mutex held.
			if code, _ := callBounded(t, h, "GET", "/customers/1", ""); code != http.StatusOK {
				t.Errorf("after GET /customers?%s, GET /customers/1 answers %d (-2: hung on the store's mutex), want 200", tt.query, code)
			}
		})
	}
}

// TestRefusedPatchChangesNothing: docs/requests.md, PATCH: "Nothing changes
// on failure." A PATCH the server answers with a 400 — here because its
// fields= selection is not valid for the caller — must leave the customer
// as it was.
func TestRefusedPatchChangesNothing(t *testing.T) {
	tests := []struct {
		name, query string
		headers     []string
	}{
		{name: "unknown field selected", query: "?fields=nope"},
		{name: "selection does not parse", query: "?fields=name("},
		{name: "admin-only field selected by the public", query: "?fields=loyalty_points"},
		{name: "writeonly field selected", query: "?fields=password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := withCustomers(t, ann)
			headers := append([]string{"Content-Type", "application/merge-patch+json"}, tt.headers...)
			rec := call(t, h, "PATCH", "/customers/1"+tt.query, `{"name":"Mallory"}`, headers...)
			if rec.Code != http.StatusBadRequest {
				t.Fatalf("PATCH /customers/1%s: %d %s, want 400", tt.query, rec.Code, rec.Body)
			}
			got := call(t, h, "GET", "/customers/1", "")
			if c := decode(t, got.Body.Bytes()); c["name"] != "Ann" {
				t.Errorf("PATCH /customers/1%s answered 400 but changed the customer: GET says name %v, want Ann", tt.query, c["name"])
			}
		})
	}
}
