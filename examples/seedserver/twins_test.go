package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"testing"
)

// decode decodes JSON as encoding/json does into an any, numbers kept as
// json.Number so that 12 and 12.0 would differ.
func decode(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v in %.200s", err, b)
	}
	return v
}

// get serves one GET request.
func get(mux http.Handler, target string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
	return rec
}

func TestNaiveTwins(t *testing.T) {
	tests := []struct {
		name         string
		naive, shape string
	}{
		{"seed", "/naive/test", "/api/test"},
		{"one user", "/naive/users?n=1", "/api/users?n=1"},
		{"100 users", "/naive/users?n=100", "/api/users?n=100"},
		{"10000 users", "/naive/users?n=10000", "/api/users?n=10000"},
	}
	mux := newMux()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			naive, shaped := get(mux, tt.naive), get(mux, tt.shape)
			if naive.Code != http.StatusOK || shaped.Code != http.StatusOK {
				t.Fatalf("status %d and %d, want 200", naive.Code, shaped.Code)
			}
			for _, h := range []string{"Content-Type", "Content-Length"} {
				if a, b := naive.Header().Get(h), shaped.Header().Get(h); a != b {
					t.Errorf("%s: naive %q, entity %q", h, a, b)
				}
			}
			if cl := naive.Header().Get("Content-Length"); cl != strconv.Itoa(naive.Body.Len()) {
				t.Errorf("Content-Length = %q, body is %d bytes", cl, naive.Body.Len())
			}
			// Maps marshal with sorted keys: the bytes differ, the values
			// must not.
			if a, b := decode(t, naive.Body.Bytes()), decode(t, shaped.Body.Bytes()); !reflect.DeepEqual(a, b) {
				t.Errorf("the naive output decodes differently:\nnaive  %.300s\nentity %.300s", naive.Body, shaped.Body)
			}
		})
	}
}

func TestNaiveUsersN(t *testing.T) {
	mux := newMux()
	for _, n := range []string{"", "abc", "0", "-1", "10001", "2.5", "1e3"} {
		t.Run("n="+n, func(t *testing.T) {
			rec := get(mux, "/naive/users?n="+n)
			if rec.Code != http.StatusBadRequest {
				t.Fatalf("status = %d, want 400", rec.Code)
			}
			if got, want := rec.Body.String(), `{"error":"n must be an integer between 1 and 10000"}`; got != want {
				t.Errorf("body %s, want %s", got, want)
			}
		})
	}
}

// TestNaiveUserChecks checks that the hand-written conversions and checks
// agree with the user entity's on the inputs the twins compare them on,
// and on the edge cases where a hand-written check usually slips.
func TestNaiveUserChecks(t *testing.T) {
	tests := []struct {
		name    string
		in      map[string]any
		wantErr bool
	}{
		{name: "the seed's first", in: map[string]any{"id": "12", "name": "maachang", "age": 40, "mail": "maachang@maachang.com"}},
		{name: "numbers as Go ints", in: map[string]any{"id": 12, "name": "a", "age": int64(40), "mail": "a@b.co"}},
		{name: "a float age is truncated", in: map[string]any{"id": "1", "name": "a", "age": 40.9}},
		{name: "an id that is no number is null", in: map[string]any{"id": "x12", "name": "a"}},
		{name: "a code given is kept", in: map[string]any{"name": "a", "code": "vip"}},
		{name: "nothing but a name", in: map[string]any{"name": "a"}},
		{name: "no name", in: map[string]any{"id": "1"}, wantErr: true},
		{name: "a null name", in: map[string]any{"name": nil}, wantErr: true},
		{name: "mail without @", in: map[string]any{"name": "a", "mail": "a.example.com"}, wantErr: true},
		{name: "mail with two @", in: map[string]any{"name": "a", "mail": "a@b@example.com"}, wantErr: true},
		{name: "mail without local part", in: map[string]any{"name": "a", "mail": "@example.com"}, wantErr: true},
		{name: "mail without dot", in: map[string]any{"name": "a", "mail": "a@localhost"}, wantErr: true},
		{name: "mail with an empty label", in: map[string]any{"name": "a", "mail": "a@example..com"}, wantErr: true},
		{name: "mail ending in a dot", in: map[string]any{"name": "a", "mail": "a@example.com."}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, werr := userEntity.MakeJSON(tt.in)
			got, gerr := naiveUser(tt.in)
			if (werr != nil) != tt.wantErr || (gerr != nil) != tt.wantErr {
				t.Fatalf("entity error %v, naive error %v; want an error: %v", werr, gerr, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if a, w := decode(t, b), decode(t, want); !reflect.DeepEqual(a, w) {
				t.Errorf("naive %s, entity %s", b, want)
			}
		})
	}
}

// TestConstTest checks that the ceiling answers what /api/test answers,
// byte for byte and header for header.
func TestConstTest(t *testing.T) {
	mux := newMux()
	cons, shaped := get(mux, "/const/test"), get(mux, "/api/test")
	if cons.Code != http.StatusOK || shaped.Code != http.StatusOK {
		t.Fatalf("status %d and %d, want 200", cons.Code, shaped.Code)
	}
	if !bytes.Equal(cons.Body.Bytes(), shaped.Body.Bytes()) {
		t.Errorf("bodies differ:\nconst %s\napi   %s", cons.Body, shaped.Body)
	}
	if cons.Body.Len() != 227 {
		t.Errorf("body is %d bytes, want the seed's 227", cons.Body.Len())
	}
	if !reflect.DeepEqual(cons.Header(), shaped.Header()) {
		t.Errorf("headers differ:\nconst %v\napi   %v", cons.Header(), shaped.Header())
	}
	// The precomputed slices are shared between responses: a second answer
	// is the same.
	if again := get(mux, "/const/test"); !bytes.Equal(again.Body.Bytes(), cons.Body.Bytes()) ||
		!reflect.DeepEqual(again.Header(), cons.Header()) {
		t.Error("a second answer differs from the first")
	}
}
