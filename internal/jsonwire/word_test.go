package jsonwire

import (
	"bytes"
	"math/bits"
	"testing"
)

// The word-at-a-time scanners must stop exactly where the byte-at-a-time
// ones do: every byte value at every position of a word.
func TestUnsafeBytes(t *testing.T) {
	eachWord([]byte{'a', 0x20, 0x7f, 0xff, '"'}, func(s string) {
		want := 8
		for i := 0; i < 8; i++ {
			if stopBytes[StopUnsafe][s[i]] {
				want = i
				break
			}
		}
		got := 8
		if stop := unsafeBytes(load64(s, 0)); stop != 0 {
			got = bits.TrailingZeros64(stop) / 8
		}
		if got != want {
			t.Fatalf("word %q: stops at %d, want %d", s, got, want)
		}
		wantASCII := 8
		for i := 0; i < 8; i++ {
			if stopBytes[StopNonASCII][s[i]] {
				wantASCII = i
				break
			}
		}
		gotASCII := 8
		if stop := unsafeBytes(load64(s, 0)) | load64(s, 0)&hi8; stop != 0 {
			gotASCII = bits.TrailingZeros64(stop) / 8
		}
		if gotASCII != wantASCII {
			t.Fatalf("word %q: ASCII scan stops at %d, want %d", s, gotASCII, wantASCII)
		}
	})
}

// eachWord calls f with every 8-byte word holding each byte value at each
// position, 'x' before it and each of fills after it.
func eachWord(fills []byte, f func(w string)) {
	for pos := 0; pos < 8; pos++ {
		for c := 0; c < 256; c++ {
			for _, fill := range fills {
				w := bytes.Repeat([]byte{'x'}, 8)
				for i := pos + 1; i < 8; i++ {
					w[i] = fill
				}
				w[pos] = byte(c)
				f(string(w))
			}
		}
	}
}

// The writer's word test (StopHTML) finds no stop exactly in the words
// whose eight bytes are all plain, and else the first byte that is not:
// every byte value at every position.
func TestNotPlain(t *testing.T) {
	eachWord([]byte{'a', '<', 0x7f, 0xff, '"', 0}, func(w string) {
		want := true
		first := 8
		for i := 0; i < len(w); i++ {
			if stopBytes[StopHTML][w[i]] {
				want = false
				first = min(first, i)
			}
		}
		got := Plain(w, 0, StopHTML)
		if (got == 8) != want {
			t.Fatalf("word %q: plain %v, want %v", w, got == 8, want)
		}
		if got != first {
			t.Fatalf("word %q: stops at %d, want %d", w, got, first)
		}
	})
}

// wantStop is the definition of each set of stops, byte by byte: what
// encoding/json writes as it is in a string (HTML-safe), and what a JSON
// string literal holds as it is.
func wantStop(stops Stops, c byte) bool {
	unsafe := c < 0x20 || c == '"' || c == '\\'
	switch stops {
	case StopUnsafe:
		return unsafe
	case StopNonASCII:
		return unsafe || c >= 0x80
	}
	return unsafe || c >= 0x80 || c == '<' || c == '>' || c == '&'
}

// TestPlain checks the one scanner against the byte-by-byte definition of
// each set of stops: every byte value at every position of strings of up
// to 19 bytes (so that the word loop and the byte loop after it both meet
// it), from every start, as a string and as a []byte.
func TestPlain(t *testing.T) {
	for _, stops := range []Stops{StopUnsafe, StopNonASCII, StopHTML} {
		for n := 0; n <= 19; n++ {
			for pos := 0; pos < max(n, 1); pos++ {
				for c := 0; c < 256; c++ {
					b := bytes.Repeat([]byte{'x'}, n)
					if pos < n {
						b[pos] = byte(c)
					}
					for i := 0; i <= n; i++ {
						want := i
						for want < n && !wantStop(stops, b[want]) {
							want++
						}
						if got := Plain(string(b), i, stops); got != want {
							t.Fatalf("Plain(%q, %d, %d) = %d, want %d", b, i, stops, got, want)
						}
						if got := Plain(b, i, stops); got != want {
							t.Fatalf("Plain([]byte(%q), %d, %d) = %d, want %d", b, i, stops, got, want)
						}
					}
				}
			}
		}
	}
}
