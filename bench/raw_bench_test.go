package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkRaw compares the input side: raw JSON bytes given to
// MakeJSON against json.Unmarshal into a map and MakeJSON of the map, and
// against HandwrittenGJSON, the hand-written gjson shaper for the same
// shape, writing into a reused buffer (as AppendJSON does in impl=append).
func BenchmarkRaw(b *testing.B) {
	users := NewRegistry().Lookup("users")
	for _, n := range Sizes {
		raw, err := json.Marshal(Users(n))
		if err != nil {
			b.Fatal(err)
		}
		want, err := users.MakeJSON(raw)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("impl=raw/users=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := users.MakeJSON(raw); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("impl=unmarshal/users=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var m map[string]any
				if err := json.Unmarshal(raw, &m); err != nil {
					b.Fatal(err)
				}
				out, err := users.MakeJSON(m)
				if err != nil {
					b.Fatal(err)
				}
				if len(out) != len(want) {
					b.Fatalf("the two paths differ: %d and %d bytes", len(out), len(want))
				}
			}
		})
		b.Run(fmt.Sprintf("impl=append/users=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			dst, err := users.AppendJSON(nil, raw)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if dst, err = users.AppendJSON(dst[:0], raw); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("impl=gjson/users=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			dst, err := HandwrittenGJSON(nil, raw)
			if err != nil {
				b.Fatal(err)
			}
			if !bytes.Equal(dst, want) {
				b.Fatalf("HandwrittenGJSON differs from MakeJSON:\n got %s\nwant %s", dst, want)
			}
			for b.Loop() {
				if dst, err = HandwrittenGJSON(dst[:0], raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
