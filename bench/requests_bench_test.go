package bench

import (
	"strconv"
	"testing"
)

// BenchmarkRequest times the request side at 3 and 130 order lines (bodies
// of about 280 bytes and 4 KB), named impl=…/lines=…: each of RequestOps
// (Bind, MakeRequest, their baselines, the failing body, the POST handler
// against huma's, Patch against a merge and decode). Each checks its
// outcome once before its timer starts; requests_equal_test.go checks that
// the library and the baselines agree on every body of its table.
func BenchmarkRequest(b *testing.B) {
	for _, lines := range LineCounts {
		for _, op := range RequestOps(lines) {
			if err := op.Run(); err != nil {
				b.Fatalf("%s, %d lines: %v", op.Name, lines, err)
			}
			b.Run("impl="+op.Name+"/lines="+strconv.Itoa(lines), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := op.Run(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
