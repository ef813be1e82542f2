package entity

import (
	"encoding/json"
	"strings"
	"testing"
)

// Exhaustive tests of the raw JSON reader, written by a review session
// that did not write it: every short input over an alphabet of JSON's
// structural bytes, and every short string body over an alphabet of
// escapes and odd bytes padded across the scanners' 8-byte words, must be
// judged as json.Valid judges it, invalid input refused at the byte
// encoding/json's SyntaxError names; for valid input the tape, countJSON,
// eachJSONObject, stringEnd and unquote must agree with encoding/json.

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
		got, off := scanJSON(s, maxJSONNesting, &tape)
		if (got == scanOK) != json.Valid([]byte(s)) {
			t.Fatalf("scanJSON(%q) = %v, json.Valid = %v", s, got, json.Valid([]byte(s)))
		}
		if got == scanOK {
			checkWalkers(t, s, tape)
		} else {
			off, _ = syntaxError(s, got, off)
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
				got, off := scanJSON(s, maxJSONNesting, &tape)
				if (got == scanOK) != json.Valid([]byte(s)) {
					t.Fatalf("scanJSON(%q) = %v, json.Valid = %v", s, got, json.Valid([]byte(s)))
				}
				if got != scanOK {
					off, _ = syntaxError(s, got, off)
					checkSyntaxError(t, s, off)
				}
				if got == scanOK {
					checkWalkers(t, s, tape)
					if s[0] == '"' {
						end, plain := stringEnd(s, 0)
						if end != len(s) {
							t.Fatalf("stringEnd(%q) = %d", s, end)
						}
						var v string
						json.Unmarshal([]byte(s), &v)
						if u := unquote(s); u != v {
							t.Fatalf("unquote(%q) = %q, want %q", s, u, v)
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
