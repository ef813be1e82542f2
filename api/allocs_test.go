//go:build !race

package api_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/expose-go/expose/api"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// TestAnswerAllocs: what the API adds to a route's answer costs one
// allocation on a tagged route (its writer, which holds the ETag's
// value) and none on another, beside the handler's own (entity.Write's
// header values). The race detector allocates: the file is built
// without it.
func TestAnswerAllocs(t *testing.T) {
	reg := entity.NewRegistry()
	e := reg.MustExpose("x", "id", "number", "", "name", "string", "")
	v := map[string]any{"id": 1, "name": "ann"}
	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "t", Version: "1"}})
	write := func(w http.ResponseWriter, r *http.Request) { e.Write(w, v) }
	a.HandleFunc("GET /tagged", write, api.Operation{Response: e})
	a.HandleFunc("GET /plain", write, api.Operation{})
	tests := []struct {
		name, target, ifNoneMatch string
		want                      float64
	}{
		{"a tagged route", "/tagged", "", 2},
		{"its 304", "/tagged", `"x", *`, 2},
		{"an untagged route", "/plain", "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", tt.target, nil)
			if tt.ifNoneMatch != "" {
				r.Header.Set("If-None-Match", tt.ifNoneMatch)
			}
			w := httptest.NewRecorder()
			got := testing.AllocsPerRun(200, func() {
				clear(w.Header())
				w.Body.Reset()
				mux.ServeHTTP(w, r)
			})
			if got != tt.want {
				t.Errorf("%.1f allocations, want %.0f", got, tt.want)
			}
		})
	}
}
