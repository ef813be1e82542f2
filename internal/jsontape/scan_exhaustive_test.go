package jsontape

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/expose-go/expose/internal/jsonwire"
)

// Exhaustive tests of the raw JSON reader, written by a review session
// that did not write it: every short input over an alphabet of JSON's
// structural bytes, and every short string body over an alphabet of
// escapes and odd bytes padded across the scanners' 8-byte words, must be
// judged as json.Valid judges it, invalid input refused at the byte
// encoding/json's SyntaxError names; for valid input the tape, jsonwire.Count,
// EachObject, jsonwire.StringEnd and jsonwire.Unquote must agree with
// encoding/json.

// exhaustiveLen is the longest input enumerated: 5 (a million inputs a
// test, seconds), 4 under the race detector, which is ten times slower.
var exhaustiveLen = map[bool]int{false: 5, true: 4}[raceDetector]

// enumerate calls f with every string over alpha of at most maxLen bytes.
func enumerate(alpha string, maxLen int, f func(string)) {
	buf := make([]byte, 0, maxLen)
	var rec func()
	rec = func() {
		f(string(buf))
		if len(buf) == maxLen {
			return
		}
		for i := 0; i < len(alpha); i++ {
			buf = append(buf, alpha[i])
			rec()
			buf = buf[:len(buf)-1]
		}
	}
	rec()
}

// TestScanJSONExhaustiveStructure: every short arrangement of brackets,
// separators, literals' and numbers' bytes.
func TestScanJSONExhaustiveStructure(t *testing.T) {
	var tape []int32
	n := 0
	enumerate("{}[]\",:0-.e1 \\ut", exhaustiveLen, func(s string) {
		n++
		got, off := Scan(s, MaxNesting, &tape)
		if (got == OK) != json.Valid([]byte(s)) {
			t.Fatalf("Scan(%q) = %v, json.Valid = %v", s, got, json.Valid([]byte(s)))
		}
		if got == OK {
			checkWalkers(t, s, tape)
		} else {
			off, _ = SyntaxError(s, got, off)
			checkSyntaxError(t, s, off)
		}
	})
	t.Logf("%d inputs", n)
}

// TestScanJSONExhaustiveStrings: every short string body of escapes and
// odd bytes, at every offset in a word, as a value, a key, a top-level
// string, an unclosed string and a nested one.
func TestScanJSONExhaustiveStrings(t *testing.T) {
	var tape []int32
	n := 0
	enumerate("\\\"u0aF/\x01\xffn", exhaustiveLen, func(x string) {
		for pad := 0; pad <= 9; pad++ {
			p := strings.Repeat("a", pad)
			for _, s := range []string{
				`["` + p + x + `"]`,
				`{"` + p + x + `":1}`,
				`{"k":"` + p + x + `"}`,
				`"` + p + x + `"`,
				`["` + p + x,
				`[["` + p + x + `"],{"a":"` + x + `"}]`,
			} {
				n++
				got, off := Scan(s, MaxNesting, &tape)
				if (got == OK) != json.Valid([]byte(s)) {
					t.Fatalf("Scan(%q) = %v, json.Valid = %v", s, got, json.Valid([]byte(s)))
				}
				if got != OK {
					off, _ = SyntaxError(s, got, off)
					checkSyntaxError(t, s, off)
				}
				if got == OK {
					checkWalkers(t, s, tape)
					if s[0] == '"' {
						end, plain := jsonwire.StringEnd(s, 0)
						if end != len(s) {
							t.Fatalf("StringEnd(%q) = %d", s, end)
						}
						var v string
						json.Unmarshal([]byte(s), &v)
						if u := jsonwire.Unquote(s); u != v {
							t.Fatalf("Unquote(%q) = %q, want %q", s, u, v)
						}
						if plain && s[1:len(s)-1] != v {
							t.Fatalf("plain %q but value %q", s, v)
						}
					}
				}
			}
		}
	})
	t.Logf("%d inputs", n)
}
