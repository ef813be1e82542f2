package bench

import (
	"bytes"
	stdjson "encoding/json"
	"strconv"
	"testing"
)

// The benchmarks are named impl=…/users=…, so that benchstat can set the
// implementations side by side (benchstat -col /impl). Each checks its
// output against the library's once, before its timer starts, so that
// even a `-run '^$'` run times only code that is right. run.sh runs them
// and cmd/ratios turns the medians into the speed targets' ratios.

// appendBench times an append-style function with a buffer reused across
// calls, grown once before timing.
func appendBench(b *testing.B, f func([]byte) ([]byte, error)) {
	buf, _ := f(nil)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		var err error
		if buf, err = f(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}

// loopBench times f, which returns its output as a new slice.
func loopBench(b *testing.B, f func() ([]byte, error)) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f(); err != nil {
			b.Fatal(err)
		}
	}
}

func name(impl string, n int) string { return "impl=" + impl + "/users=" + strconv.Itoa(n) }

// BenchmarkUsers is the success path of every implementation.
func BenchmarkUsers(b *testing.B) {
	for _, n := range Sizes {
		in := Users(n)
		checkAll(b, in)
		b.Run(name("AppendJSON", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return usersEntity.AppendJSON(dst, in) })
		})
		b.Run(name("MakeJSON", n), func(b *testing.B) {
			loopBench(b, func() ([]byte, error) { return usersEntity.MakeJSON(in) })
		})
		// Make alone: the *Object form, a view of the bytes MakeJSON writes
		// (the target: at most 1.3x MakeJSON, at most 3 allocations).
		b.Run(name("Make", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := usersEntity.Make(in); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name("Make+Marshal", n), func(b *testing.B) {
			loopBench(b, func() ([]byte, error) {
				o, err := usersEntity.Make(in)
				if err != nil {
					return nil, err
				}
				return stdjson.Marshal(o)
			})
		})
		// Not a target: Make then the Object's own MarshalJSON, without
		// encoding/json's re-scan (compact) of a Marshaler's output.
		b.Run(name("Make+MarshalJSON", n), func(b *testing.B) {
			loopBench(b, func() ([]byte, error) {
				o, err := usersEntity.Make(in)
				if err != nil {
					return nil, err
				}
				return o.MarshalJSON()
			})
		})
		// Not a target: what json.Marshal adds to a Marshaler's output
		// alone (it compacts, that is re-scans, the bytes MarshalJSON
		// returns), the floor of Make+Marshal over Make+MarshalJSON.
		out, err := usersEntity.MakeJSON(in)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name("json.Compact", n), func(b *testing.B) {
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := stdjson.Compact(&buf, out); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name("handwritten", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return AppendUsers(dst, in) })
		})
		for _, enc := range Encoders {
			b.Run(name(enc.Name, n), func(b *testing.B) {
				loopBench(b, func() ([]byte, error) { return Naive(enc.Marshal, in) })
			})
		}
	}
}

// BenchmarkFailing is the failure path: one bad mail in the last user.
func BenchmarkFailing(b *testing.B) {
	for _, n := range Sizes {
		in := FailingUsers(n)
		checkFails(b, in)
		b.Run(name("AppendJSON", n), func(b *testing.B) {
			failBench(b, func(dst []byte) ([]byte, error) { return usersEntity.AppendJSON(dst, in) })
		})
		b.Run(name("handwritten", n), func(b *testing.B) {
			failBench(b, func(dst []byte) ([]byte, error) { return AppendUsers(dst, in) })
		})
	}
}

// failBench times f on a failing input, with a buffer that has room for
// the whole output.
func failBench(b *testing.B, f func([]byte) ([]byte, error)) {
	buf := make([]byte, 0, 256<<10)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = f(buf[:0]); err == nil {
			b.Fatal("no error")
		}
	}
}

// BenchmarkParallel is AppendJSON from every P at once, each goroutine with
// its own buffer; run it with -cpu 1,2 for the scaling ratio.
func BenchmarkParallel(b *testing.B) {
	for _, n := range Sizes {
		in := Users(n)
		checkAll(b, in)
		b.Run(name("AppendJSON", n), func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				buf, _ := usersEntity.AppendJSON(nil, in)
				for pb.Next() {
					var err error
					if buf, err = usersEntity.AppendJSON(buf[:0], in); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
