package entity_test

import (
	"encoding/json"
	"io"
	"iter"
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
		run  func(opts ...entity.Option) error
	}{
		{"maps", func(opts ...entity.Option) error {
			return entity.EncodeSeq(io.Discard, e, cycle(rows, maps...), opts...)
		}},
		{"struct values", func(opts ...entity.Option) error {
			return entity.EncodeSeq(io.Discard, e, cycle(rows, structs...), opts...)
		}},
		{"struct pointers", func(opts ...entity.Option) error {
			return entity.EncodeSeq(io.Discard, e, cycle(rows, ptrs...), opts...)
		}},
		{"raw JSON", func(opts ...entity.Option) error {
			return entity.EncodeSeq(io.Discard, e, cycle(rows, raws...), opts...)
		}},
		{"interfaces", func(opts ...entity.Option) error {
			return entity.EncodeSeq(io.Discard, e, cycle(rows, anys...), opts...)
		}},
	}
	shapes := []struct {
		name string
		opts []entity.Option
	}{
		{"plain", nil},
		{"NDJSON", []entity.Option{entity.NDJSON()}},
		{"a selection", []entity.Option{entity.Select("number,tag")}},
	}
	for _, tt := range tests {
		for _, sh := range shapes {
			t.Run(tt.name+"/"+sh.name, func(t *testing.T) {
				var err error
				n := totalAlloc(func() { err = tt.run(sh.opts...) })
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
