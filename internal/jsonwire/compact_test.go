package jsonwire

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAppendCompact: valid text is written as json.Marshal writes it as a
// json.RawMessage, but for invalid UTF-8, which it replaces byte by byte
// (marshalRaw), and text nested deeper than the depth left fails with
// ErrDepth.
func TestAppendCompact(t *testing.T) {
	tests := []struct {
		name, in string
		depth    int
		err      error
	}{
		{"scalar", ` 12 `, 1, nil},
		{"white space everywhere", " { \"a\" : [ 1 , 2 ] ,\n\t\"b\" : { } }\r\n", 3, nil},
		{"strings keep their escapes", `["\u00e9\n\"", "\/"]`, 2, nil},
		{"html escaped", `{"<a>":"&amp;"}`, 2, nil},
		{"U+2028 and U+2029 escaped", "[\"a\u2028b\u2029c\"]", 2, nil},
		{"invalid UTF-8 replaced", "[\"a\xffb\", \"\xc3\"]", 2, nil},
		{"spaces in strings kept", `[" a b "]`, 2, nil},
		{"just deep enough", `[[[1]]]`, 3, nil},
		{"too deep", `[[[[1]]]]`, 3, ErrDepth},
		{"too deep in an object", `{"a":{"b":{}}}`, 2, ErrDepth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AppendCompact([]byte("x"), tt.in, tt.depth)
			if !errors.Is(err, tt.err) {
				t.Fatalf("AppendCompact(%q, %d) error %v, want %v", tt.in, tt.depth, err, tt.err)
			}
			if err != nil {
				return
			}
			if want := marshalRaw(t, tt.in); string(got) != "x"+want {
				t.Errorf("AppendCompact(%q) = %s, want %s", tt.in, got[1:], want)
			}
		})
	}
}

func FuzzAppendCompact(f *testing.F) {
	for _, s := range []string{`{}`, ` [1, "a<>", {"b":[null, true]}] `, "\"\xff\u2028\"", `{"a":{"b":{"c":[]}}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		got, err := AppendCompact(nil, s, 1<<20)
		if err != nil {
			t.Fatalf("AppendCompact(%q): %v", s, err)
		}
		if want := marshalRaw(t, s); string(got) != want {
			t.Fatalf("AppendCompact(%q) = %s, want %s", s, got, want)
		}
		if strings.Count(s, "[")+strings.Count(s, "{") == 0 {
			return
		}
		if _, err := AppendCompact(nil, s, 0); err == nil && strings.ContainsAny(strings.TrimSpace(s)[:1], "[{") {
			t.Fatalf("AppendCompact(%q, 0) wrote a container", s)
		}
	})
}

// marshalRaw returns what json.Marshal writes for the json.RawMessage s,
// each byte of invalid UTF-8 in it (which json.Marshal copies) written
// \ufffd, as json.Marshal writes it in a string.
func marshalRaw(t *testing.T, s string) string {
	t.Helper()
	out, err := json.Marshal(json.RawMessage(s))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRune(out[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\ufffd`)
		} else {
			b.Write(out[i : i+size])
		}
		i += size
	}
	return b.String()
}
