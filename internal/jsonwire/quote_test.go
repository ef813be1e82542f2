package jsonwire

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// quoteTests are strings that encoding/json escapes, and some it does not.
var quoteTests = []struct{ name, s string }{
	{"plain", "plain"},
	{"empty", ""},
	{"quote", `a"b`},
	{"backslash", `a\b`},
	{"slash", `a/b`},
	{"newline tab cr", "a\nb\tc\rd"},
	{"backspace formfeed", "\b\f"},
	{"NUL", "a\x00b"},
	{"control chars", "\x01\x02\x1f\x0b"},
	{"DEL", "\x7f"},
	{"html", "<script>&</script>"},
	{"U+2028 U+2029", "a\u2028b\u2029c"},
	{"invalid UTF-8 byte", "a\xffb"},
	{"truncated UTF-8", "a\xc3"},
	{"surrogate half", "\xed\xa0\x80"},
	{"overlong", "\xc0\xaf"},
	{"non-ASCII", "héllo 日本語 😀"},
	{"U+FFFD itself", "\ufffd"},
	{"mixed", "\"<\u2028\xff\x00>\""},
	{"long plain", strings.Repeat("abcdefgh", 9) + "xyz"},
	{"long, escape late", strings.Repeat("abcdefgh", 5) + "<" + strings.Repeat("z", 11)},
	{"long non-ASCII", strings.Repeat("日本語", 20)},
}

// TestAppendString: strings are written exactly as json.Marshal writes
// them.
func TestAppendString(t *testing.T) {
	for _, tt := range quoteTests {
		t.Run(tt.name, func(t *testing.T) {
			want, _ := json.Marshal(tt.s)
			if got := AppendString([]byte("x"), tt.s); string(got) != "x"+string(want) {
				t.Errorf("AppendString(%q) = %s, want %s", tt.s, got[1:], want)
			}
		})
	}
}

func FuzzAppendString(f *testing.F) {
	for _, tt := range quoteTests {
		f.Add(tt.s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}

// TestUnquote: string literals are read exactly as encoding/json decodes
// them, surrogates included: a lone or mismatched surrogate is U+FFFD and
// the escape after it is kept.
func TestUnquote(t *testing.T) {
	tests := []struct{ name, in string }{
		{"plain", `"abc"`},
		{"empty", `""`},
		{"escapes", `"\"\\\/\b\f\n\r\t"`},
		{"unicode escape", `"\u00e9\u65e5"`},
		{"pair", `"\ud83d\ude00"`},
		{"lone high", `"\ud800"`},
		{"lone low", `"\udc00"`},
		{"high then a letter", `"\ud800\u0041"`},
		{"high then high", `"\ud800\udbff"`},
		{"high then high then low", `"\ud800\ud83d\ude00"`},
		{"high then a newline escape", `"\ud800\n"`},
		{"low then high", `"\udc00\ud800"`},
		{"invalid UTF-8, no escape", "\"a\xffb\""},
		{"invalid UTF-8 and an escape", "\"\xff\\n\xfe\""},
		{"non-ASCII", `"héllo 日本語"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want string
			if err := json.Unmarshal([]byte(tt.in), &want); err != nil {
				t.Fatal(err)
			}
			if got := Unquote(tt.in); got != want {
				t.Errorf("Unquote(%q) = %q, want %q", tt.in, got, want)
			}
		})
	}
}

// TestValidUTF8: invalid bytes are replaced one by one, as encoding/json
// decodes them (what a json.Marshal and json.Unmarshal round trip gives);
// valid text is returned as it is.
func TestValidUTF8(t *testing.T) {
	for _, tt := range quoteTests {
		t.Run(tt.name, func(t *testing.T) {
			var want string
			q, _ := json.Marshal(tt.s)
			if err := json.Unmarshal(q, &want); err != nil {
				t.Fatal(err)
			}
			got := ValidUTF8(tt.s)
			if got != want {
				t.Errorf("ValidUTF8(%q) = %q, want %q", tt.s, got, want)
			}
			if utf8.ValidString(tt.s) && got != tt.s {
				t.Errorf("ValidUTF8(%q) changed valid text", tt.s)
			}
		})
	}
}

func BenchmarkAppendString(b *testing.B) {
	for _, bm := range []struct{ name, s string }{
		{"short", "maachang12"},
		{"mail", "maachang12@example2.com"},
		{"long", strings.Repeat("abcdefgh", 16)},
		{"escapes", `<a href="x">&amp;</a>` + "\n"},
	} {
		b.Run(bm.name, func(b *testing.B) {
			buf := make([]byte, 0, 256)
			b.SetBytes(int64(len(bm.s)))
			for b.Loop() {
				buf = AppendString(buf[:0], bm.s)
			}
		})
	}
}
