package jsonwire

import "math/bits"

// Eight bytes at a time: the string scanner looks at a word of text at
// once, and at single bytes only around what stops it.

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// load64 returns s[i:i+8] as a little-endian word (the compiler makes it a
// single load).
func load64[T ~string | ~[]byte](s T, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// unsafeBytes returns a word with the high bit set in each byte of x that
// a JSON string cannot hold as it is (a quote, a backslash, a control
// character), and perhaps in bytes after the first such one (the
// subtractions borrow), never before it: only its lowest set bit is exact.
func unsafeBytes(x uint64) uint64 {
	quote := x ^ (lo8 * '"')
	slash := x ^ (lo8 * '\\')
	return ((quote-lo8) & ^quote | (slash-lo8) & ^slash | (x-lo8*0x20) & ^x) & hi8
}

// htmlBytes returns a word with the high bit set in each byte of x that is
// '<', '>' or '&', and perhaps in bytes after the first such one: only its
// lowest set bit is exact.
func htmlBytes(x uint64) uint64 {
	ltgt := (x | lo8*0x02) ^ (lo8 * '>') // '<' is '>' but for bit 1
	amp := x ^ (lo8 * '&')
	return ((ltgt-lo8)&^ltgt | (amp-lo8)&^amp) & hi8
}

// Stops names the bytes at which Plain stops.
type Stops uint8

const (
	// StopUnsafe stops at the bytes a JSON string cannot hold as they
	// are: a quote, a backslash, a control character.
	StopUnsafe Stops = iota
	// StopNonASCII stops at those and at the bytes of multi-byte UTF-8,
	// so that a string literal made of the bytes before is its own value.
	StopNonASCII
	// StopHTML stops at those and at '<', '>' and '&': the bytes before
	// are written as they are in a string that json.Marshal writes.
	StopHTML
)

// stopBytes[stops][c] is true for the bytes c at which Plain stops. It has
// a fourth row, unused, so that stops&3 indexes it without a bounds check.
var stopBytes = func() (t [4][256]bool) {
	for c := range 256 {
		unsafe := c < 0x20 || c == '"' || c == '\\'
		t[StopUnsafe][c] = unsafe
		t[StopNonASCII][c] = unsafe || c >= 0x80
		t[StopHTML][c] = unsafe || c >= 0x80 || c == '<' || c == '>' || c == '&'
	}
	return t
}()

// Plain returns the offset of the first byte of s at or after i at which
// stops says to stop, or len(s) when there is none. It is the one scanner
// of string content: the writer's (StopHTML), the validator's (StopNonASCII
// until it meets a byte of multi-byte UTF-8, then StopUnsafe) and that of
// the readers of valid text (StopNonASCII), eight bytes at a time, then one
// at a time near the end. (The writer's word loop is apart, so that
// neither loop tests stops at each word.)
func Plain[T ~string | ~[]byte](s T, i int, stops Stops) int {
	if stops == StopHTML {
		for i+8 <= len(s) {
			x := load64(s, i)
			if stop := unsafeBytes(x) | x&hi8 | htmlBytes(x); stop != 0 {
				return i + bits.TrailingZeros64(stop)/8
			}
			i += 8
		}
	} else {
		high := uint64(hi8) // the bytes of multi-byte UTF-8
		if stops == StopUnsafe {
			high = 0
		}
		for i+8 <= len(s) {
			x := load64(s, i)
			if stop := unsafeBytes(x) | x&high; stop != 0 {
				return i + bits.TrailingZeros64(stop)/8
			}
			i += 8
		}
	}
	return plainBytes(s, i, stops)
}

// plainBytes is Plain one byte at a time: Plain's end, and the whole of
// a string too short to hold a word.
func plainBytes[T ~string | ~[]byte](s T, i int, stops Stops) int {
	t := &stopBytes[stops&3]
	for i < len(s) && !t[s[i]] {
		i++
	}
	return i
}
