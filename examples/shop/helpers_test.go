package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// call sends one request to h and returns what it answered. headers are
// name, value pairs; a body without a Content-Type header is sent as
// application/json.
func call(t *testing.T, h http.Handler, method, target, body string, headers ...string) *httptest.ResponseRecorder {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	r := httptest.NewRequest(method, target, rd)
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

// problemEntry is one entry of a problem's "errors".
type problemEntry struct {
	Pointer   string `json:"pointer"`
	Parameter string `json:"parameter"`
	In        string `json:"in"`
	Code      string `json:"code"`
	Message   string `json:"message"`
}

// problem is the body of a problem details answer.
type problem struct {
	Type   string         `json:"type"`
	Title  string         `json:"title"`
	Status int            `json:"status"`
	Detail string         `json:"detail"`
	Errors []problemEntry `json:"errors"`
}

// readProblem decodes a problem details body.
func readProblem(t *testing.T, rec *httptest.ResponseRecorder) problem {
	t.Helper()
	var p problem
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatalf("the body is no problem details: %v\n%s", err, rec.Body)
	}
	return p
}

// where lists each entry of a problem as "pointer code", or for a
// parameter "in:name code".
func where(p problem) []string {
	var out []string
	for _, e := range p.Errors {
		at := e.Pointer
		if e.In != "" {
			at = e.In + ":" + e.Parameter
		}
		out = append(out, at+" "+e.Code)
	}
	return out
}

// keys returns the keys of a JSON object, decoded.
func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, b)
	}
	return m
}

// ann, bob and cid are valid new customers.
const (
	ann = `{"name":"Ann","email":"ann@example.com","password":"s3cret-pw","tier":"gold","address":{"city":"Kyoto","zip":"600-8216"}}`
	bob = `{"name":"Bob","email":"bob@example.com","password":"s3cret-pw","address":{"city":"Osaka","zip":"530-0001"}}`
	cid = `{"name":"Cid","email":"cid@example.com","password":"s3cret-pw","tier":"silver","address":{"city":"Nara","zip":"630-8580"}}`
)

// withCustomers returns a new server holding the customers given, made
// by POST /customers.
func withCustomers(t *testing.T, bodies ...string) http.Handler {
	t.Helper()
	h := newServer()
	for _, b := range bodies {
		if rec := call(t, h, "POST", "/customers", b); rec.Code != http.StatusCreated {
			t.Fatalf("POST /customers %s: %d %s", b, rec.Code, rec.Body)
		}
	}
	return h
}

// varies lists the names a response's Vary headers give, each once.
func varies(h http.Header) []string {
	var out []string
	for _, v := range h.Values("Vary") {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}
