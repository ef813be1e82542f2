//go:build !race

package main

import (
	"database/sql"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
)

// heapWriter is a ResponseWriter that drops the body, measuring the live
// heap (after a collection) at its first write and at every 16th, and
// keeping the most it saw.
type heapWriter struct {
	h      http.Header
	writes int
	bytes  int
	peak   uint64
}

func (w *heapWriter) Header() http.Header { return w.h }
func (w *heapWriter) WriteHeader(int)     {}
func (w *heapWriter) Write(b []byte) (int, error) {
	w.bytes += len(b)
	if w.writes%16 == 0 {
		w.peak = max(w.peak, liveHeap())
	}
	w.writes++
	return len(b), nil
}

// liveHeap returns the bytes of live heap objects.
func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// heapPerRow returns the live heap an answer of the table of n rows held
// at its most, beyond what was live before it, and the bytes it wrote.
func heapPerRow(t *testing.T, n int, answer func(w http.ResponseWriter, db *sql.DB)) (held uint64, wrote int) {
	t.Helper()
	db, err := openUsersDB(n)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	w := &heapWriter{h: http.Header{}}
	before := liveHeap()
	answer(w, db)
	if w.peak < before {
		return 0, w.bytes
	}
	return w.peak - before, w.bytes
}

// TestDBUsersStreamMemoryIsFlat checks that GET /api/db/users?stream=1
// holds the same memory whatever the table's length: the live heap it
// holds at 10,000 and at 100,000 rows differs by under a byte a row, where
// the same table made whole (MakeJSON's way, which the plain answer takes
// for its page) holds hundreds of bytes more per row.
func TestDBUsersStreamMemoryIsFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("fills tables of 100,000 rows: skipped under -short")
	}
	stream := func(w http.ResponseWriter, db *sql.DB) {
		h := dbUsersHandler(func() (*sql.DB, error) { return db, nil })
		h(w, httptest.NewRequest("GET", "/api/db/users?stream=1", nil))
	}
	whole := func(w http.ResponseWriter, db *sql.DB) {
		users, err := readUsers(t.Context(), db, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		if err := dbUsersEntity.Write(w, dbUsersOut{Count: len(users), List: users}); err != nil {
			t.Fatal(err)
		}
	}
	const small, large = 10_000, 100_000
	tests := []struct {
		name    string
		answer  func(http.ResponseWriter, *sql.DB)
		flat    bool
		minGrow float64 // bytes a row, when not flat
	}{
		{"streamed", stream, true, 0},
		{"made whole", whole, false, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			heldSmall, wroteSmall := heapPerRow(t, small, tt.answer)
			heldLarge, wroteLarge := heapPerRow(t, large, tt.answer)
			perRow := (float64(heldLarge) - float64(heldSmall)) / (large - small)
			t.Logf("%d rows: %d bytes written, %d held (%.1f a row); %d rows: %d written, %d held (%.1f a row); %.2f bytes a row more",
				small, wroteSmall, heldSmall, float64(heldSmall)/small, large, wroteLarge, heldLarge, float64(heldLarge)/large, perRow)
			if wroteLarge < large*100 {
				t.Fatalf("%d rows wrote %d bytes: not the table", large, wroteLarge)
			}
			switch {
			case tt.flat && perRow >= 1:
				t.Errorf("the live heap grows by %.2f bytes a row, want under 1: not flat", perRow)
			case !tt.flat && perRow < tt.minGrow:
				t.Errorf("the live heap grows by %.2f bytes a row, want %v at least: the measure does not see what a response holds", perRow, tt.minGrow)
			}
		})
	}
}
