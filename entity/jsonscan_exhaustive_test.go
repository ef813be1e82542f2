package entity

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Exhaustive tests of the raw JSON reader, written by a review session
// that did not write it: every short input over an alphabet of JSON's
// structural bytes, and every short string body over an alphabet of
// escapes and odd bytes padded across the scanners' 8-byte words, must be
// judged as json.Valid judges it; for valid input the tape, countJSON,
// eachJSONObject, stringEnd and unquote must agree with encoding/json.

// exhaustiveLen is the longest input enumerated: 5 (a million inputs a
// test, seconds), 4 under the race detector, which is ten times slower.
var exhaustiveLen = map[bool]int{false: 5, true: 4}[raceDetector]

// checkWalkers checks the tape and the walkers on valid text.
func checkWalkers(t *testing.T, in string, tape []span, ends []int32) {
	t.Helper()
	checkStringEnds(t, in, tape, ends)
	starts := decoderContainerStarts(in)
	if len(starts) != len(tape) {
		t.Fatalf("%q: %d containers, tape %d", in, len(starts), len(tape))
	}
	for k, start := range starts {
		end := nestedEnd(in, start)
		if int(tape[k].size) != end-start {
			t.Fatalf("%q: container %d: span %d, want %d", in, k, tape[k].size, end-start)
		}
		var v any
		if err := json.Unmarshal([]byte(in[start:end]), &v); err != nil {
			t.Fatalf("%q: container %d text %q: %v", in, k, in[start:end], err)
		}
		want := 0
		switch v := v.(type) {
		case []any:
			want = len(v)
			// eachJSONObject: the objects, with the right ordinals.
			var got []int
			eachJSONObject(in[start:end], int32(k), tape, func(i int, text string, ord int32) bool {
				if int(ord) >= len(starts) || starts[ord] != start+strings.Index(in[start:end], text) || text[0] != '{' {
					t.Fatalf("%q: eachJSONObject elem %d: ord %d text %q", in, i, ord, text)
				}
				got = append(got, i)
				return true
			})
			var wantIdx []int
			for i, e := range v {
				if _, ok := e.(map[string]any); ok {
					wantIdx = append(wantIdx, i)
				}
			}
			if !reflect.DeepEqual(got, wantIdx) {
				t.Fatalf("%q: eachJSONObject %v, want %v", in, got, wantIdx)
			}
		case map[string]any:
			want = len(v) // distinct keys
		}
		if got := countJSON(in[start:end]); got != want {
			t.Fatalf("countJSON(%q) = %d, want %d", in[start:end], got, want)
		}
	}
}

// decoderContainerStarts returns the offsets of the opening brackets of
// valid JSON text, as encoding/json's tokenizer finds them.
func decoderContainerStarts(s string) []int {
	var starts []int
	dec := json.NewDecoder(strings.NewReader(s))
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') {
			// InputOffset before the token may point at white space or a
			// separator before the delimiter.
			i := int(off)
			for s[i] != byte(d) {
				i++
			}
			starts = append(starts, i)
		}
	}
	return starts
}

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
	var tape []span
	var ends, stack []int32
	n := 0
	enumerate("{}[]\",:0-.e1 \\ut", exhaustiveLen, func(s string) {
		n++
		got := scanJSON(s, maxJSONNesting, &tape, &ends, &stack)
		if (got == scanOK) != json.Valid([]byte(s)) {
			t.Fatalf("scanJSON(%q) = %v, json.Valid = %v", s, got, json.Valid([]byte(s)))
		}
		if got == scanOK {
			checkWalkers(t, s, tape, ends)
		}
	})
	t.Logf("%d inputs", n)
}

// TestScanJSONExhaustiveStrings: every short string body of escapes and
// odd bytes, at every offset in a word, as a value, a key, a top-level
// string, an unclosed string and a nested one.
func TestScanJSONExhaustiveStrings(t *testing.T) {
	var tape []span
	var ends, stack []int32
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
				got := scanJSON(s, maxJSONNesting, &tape, &ends, &stack)
				if (got == scanOK) != json.Valid([]byte(s)) {
					t.Fatalf("scanJSON(%q) = %v, json.Valid = %v", s, got, json.Valid([]byte(s)))
				}
				if got == scanOK {
					checkWalkers(t, s, tape, ends)
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
