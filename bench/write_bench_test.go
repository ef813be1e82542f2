package bench

import (
	"net/http"
	"testing"
)

// discardWriter is a ResponseWriter that keeps its header map and drops
// the body, as a server's connection buffers it.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(int)             {}
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }

// BenchmarkWrite is Write of the users payload to a ResponseWriter.
func BenchmarkWrite(b *testing.B) {
	users := NewRegistry().Lookup("users")
	for _, n := range Sizes {
		in := Users(n)
		b.Run(name("Write", n), func(b *testing.B) {
			w := &discardWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				if err := users.Write(w, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
