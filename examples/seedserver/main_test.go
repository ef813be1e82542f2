package main

import (
	"net/http/httptest"
	"testing"
)

const seedJSON = `{"offset":0,"limit":2,"list":[{"number":12,"name":"maachang","details":{"age":40,"mail":"maachang@maachang.com"},"code":"unknown"},{"number":21,"name":"saito","details":{"age":27,"mail":"saito@maachang.com"},"code":"unknown"}]}`

func TestAPITest(t *testing.T) {
	if err := checkEntities(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		method     string
		path       string
		wantStatus int
		wantBody   string
	}{
		{"seed payload", "GET", "/api/test", 200, seedJSON},
		{"wrong method", "POST", "/api/test", 405, ""},
		{"unknown path", "GET", "/api/nope", 404, ""},
	}
	mux := newMux()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, nil))
			if rec.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d", rec.Code, tt.wantStatus)
			}
			if tt.wantBody == "" {
				return
			}
			if got := rec.Body.String(); got != tt.wantBody {
				t.Errorf("body:\n got %s\nwant %s", got, tt.wantBody)
			}
			if len(rec.Body.Bytes()) != 227 {
				t.Errorf("body is %d bytes, want the seed's 227", rec.Body.Len())
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type = %q", ct)
			}
		})
	}
}
