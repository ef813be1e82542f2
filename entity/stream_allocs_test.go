package entity_test

import (
	"encoding/json"
	"io"
	"iter"
	"net/http"
	"runtime"
	"strconv"
	"testing"

	"github.com/expose-go/expose/entity"
)

// cycle returns a sequence of n elements, the values given over and over:
// a source that allocates nothing per element.
func cycle[T any](n int, vs ...T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for i := range n {
			if !yield(vs[i%len(vs)], nil) {
				return
			}
		}
	}
}

// totalAlloc returns the bytes f allocates in all.
func totalAlloc(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestEncodeSeqAllocs checks that a stream allocates nothing per element:
// a million rows written to a discarding writer allocate under 1 MiB in
// all, for every kind of element and form, shaped or not.
func TestEncodeSeqAllocs(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	e := exposeRow(t)
	const rows = 1_000_000
	maps := make([]map[string]any, 16)
	structs := make([]streamRow, 16)
	ptrs := make([]*streamRow, 16)
	raws := make([][]byte, 16)
	anys := make([]any, 16)
	for i := range maps {
		mail := "u" + strconv.Itoa(i) + "@example.com"
		maps[i] = map[string]any{"id": i + 1, "mail": mail}
		structs[i] = streamRow{int64(i + 1), mail}
		ptrs[i] = &structs[i]
		raws[i], _ = json.Marshal(maps[i])
		anys[i] = maps[i]
		if i%2 == 1 {
			anys[i] = ptrs[i]
		}
	}
	tests := []struct {
		name string
		run  func(w io.Writer, opts ...entity.Option) error
	}{
		{"maps", func(w io.Writer, opts ...entity.Option) error {
			return entity.EncodeSeq(w, e, cycle(rows, maps...), opts...)
		}},
		{"struct values", func(w io.Writer, opts ...entity.Option) error {
			return entity.EncodeSeq(w, e, cycle(rows, structs...), opts...)
		}},
		{"struct pointers", func(w io.Writer, opts ...entity.Option) error {
			return entity.EncodeSeq(w, e, cycle(rows, ptrs...), opts...)
		}},
		{"raw JSON", func(w io.Writer, opts ...entity.Option) error {
			return entity.EncodeSeq(w, e, cycle(rows, raws...), opts...)
		}},
		{"interfaces", func(w io.Writer, opts ...entity.Option) error {
			return entity.EncodeSeq(w, e, cycle(rows, anys...), opts...)
		}},
	}
	ctx := entity.NewContext(t.Context(), "other")
	shapes := []struct {
		name string
		w    func() io.Writer
		opts []entity.Option
	}{
		{"plain", func() io.Writer { return io.Discard }, nil},
		{"a ResponseWriter", func() io.Writer { return &discardResponse{h: http.Header{}} }, []entity.Option{entity.WithContext(ctx)}},
		{"NDJSON", func() io.Writer {
			return &discardResponse{h: http.Header{"Content-Type": {"application/x-ndjson"}}}
		}, nil},
		{"a selection", func() io.Writer { return io.Discard }, []entity.Option{entity.Select("number,tag")}},
	}
	for _, tt := range tests {
		for _, sh := range shapes {
			t.Run(tt.name+"/"+sh.name, func(t *testing.T) {
				w := sh.w()
				var err error
				n := totalAlloc(func() { err = tt.run(w, sh.opts...) })
				if err != nil {
					t.Fatal(err)
				}
				if n >= 1<<20 {
					t.Errorf("%d rows allocated %d bytes (%.1f a row), want under 1 MiB in all", rows, n, float64(n)/rows)
				}
			})
		}
	}
}

// discardResponse is an http.ResponseWriter that drops the body.
type discardResponse struct{ h http.Header }

func (w *discardResponse) Header() http.Header         { return w.h }
func (w *discardResponse) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardResponse) WriteHeader(int)             {}
func (w *discardResponse) Flush()                      {}
