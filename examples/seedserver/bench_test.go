package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// discard is a ResponseWriter that keeps nothing, so that a benchmark times
// the handler, not a recorder.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(int)             {}

// BenchmarkHandlers times each endpoint the load test compares, in process:
// what is left of a request once the network is taken away.
//
//	cd examples && go test ./seedserver -run '^$' -bench Handlers -benchtime 2000x
func BenchmarkHandlers(b *testing.B) {
	mux := newMux()
	for _, target := range []string{"/const/test", "/api/test", "/naive/test",
		"/api/users?n=100", "/naive/users?n=100", "/api/db/users"} {
		b.Run(target, func(b *testing.B) {
			r := httptest.NewRequest("GET", target, nil)
			w := &discard{h: http.Header{}}
			mux.ServeHTTP(w, r) // warm the caches
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				clear(w.h)
				mux.ServeHTTP(w, r)
			}
		})
	}
}
