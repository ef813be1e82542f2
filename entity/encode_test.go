package entity_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// encodeCases: what escapeTests does not cover: large strings (10 MB)
// written whole, escaped as encoding/json escapes them; invalid UTF-8
// inside lists and raw JSON; keys that JavaScript treats specially, and
// keys with escapes in raw JSON.
func encodeCases() []entryCase {
	const big = 10 << 20 // 10 MB
	const mb = 1 << 20   // the other large inputs: 1 MB keeps the suite quick under -race
	return []entryCase{
		// Large strings (10 MB): written whole, escaped as encoding/json
		// escapes them.
		{name: "10 MB string", ent: "string", in: func() any { return map[string]any{"v": strings.Repeat("a", big)} },
			out: func() string { return `{"v":"` + strings.Repeat("a", big) + `"}` }},
		{name: "10 MB string of characters to escape", ent: "string", in: givenV(strings.Repeat("<\"\\\n\u2028\xff&é", big/16)),
			out: wantMarshalV(strings.Repeat("<\"\\\n\u2028\xff&é", big/16))},
		{name: "1 MB string into none", ent: "none", in: givenV(strings.Repeat("0123456789abcd\x00>", mb/16)), out: wantMarshalV(strings.Repeat("0123456789abcd\x00>", mb/16))},
		{name: "1 MB []byte into string", ent: "string", in: givenV(bytes.Repeat([]byte("\t\u2029"), mb/4)), out: wantMarshalV(strings.Repeat("\t\u2029", mb/4))},
		{name: "1 MB map[string]string value", ent: "string", in: func() any { return map[string]string{"v": strings.Repeat("0123456789abcde&", mb/16)} },
			out: wantMarshalV(strings.Repeat("0123456789abcde&", mb/16))},
		{name: "raw JSON: 1 MB string with escapes", ent: "string",
			in:  func() any { return []byte(`{"v":"` + strings.Repeat(`\n\u00e9\"<`, mb/12) + `"}`) },
			out: wantMarshalV(strings.Repeat("\n\u00e9\"<", mb/12))},
		{name: "1 MB key in none", ent: "none", in: func() any { return map[string]any{"v": map[string]any{strings.Repeat("k", mb): 1}} },
			out: func() string { return `{"v":{"` + strings.Repeat("k", mb) + `":1}}` }},

		// Invalid UTF-8 is replaced with U+FFFD, byte by byte, as
		// encoding/json replaces it.
		{name: "invalid UTF-8 inside a list", ent: "list", in: givenV([]any{"\x80"}), out: wantOut(`{"v":["\ufffd"]}`)},
		{name: "raw JSON: invalid UTF-8 byte in a string", ent: "string", in: given([]byte("{\"v\":\"a\xffb\"}")), out: wantOut("{\"v\":\"a\ufffdb\"}")}, // decoded to U+FFFD, then written as json.Marshal writes it
		{name: "raw JSON: invalid UTF-8 byte passed through none", ent: "none", in: given([]byte("{\"v\":[\"\xff\"]}")), out: wantOut(`{"v":["\ufffd"]}`)},
		{name: "raw JSON: escaped lone surrogate into string", ent: "string", in: given([]byte(`{"v":"\ud800"}`)), out: wantOut("{\"v\":\"\ufffd\"}")},

		// Escaping, keys included.
		{name: "keys with quotes, control characters, <>&, U+2028", ent: "none",
			in:  givenV(map[string]any{`"q"`: 1, "\x00\n": 2, "<&>": 3, "\u2028": 4, `\`: 5}),
			out: wantMarshalV(map[string]any{`"q"`: 1, "\x00\n": 2, "<&>": 3, "\u2028": 4, `\`: 5})},
		{name: "declared field names with quotes, control characters, <>&, U+2028", ent: "keys",
			in: given(map[string]any{`q"uote`: "1", "ctl\x01\x1f\n": "2", "<a>&b": "3", "ls\u2028ps\u2029": "4", "__proto__": map[string]any{"polluted": true},
				"constructor": map[string]any{"prototype": map[string]any{"x": 1}}, "plain": "7"}),
			out: wantOut(`{"q\"uote":"1","ctl\u0001\u001f\n":"2","\u003ca\u003e\u0026b":"3","ls\u2028ps\u2029":"4","__proto__":{"polluted":true},` +
				`"constructor":{"prototype":{"x":1}},"\"\u003cx\u003e\u0026\\u2028":"7"}`)},
		{name: "__proto__ and constructor keys passed through", ent: "object",
			in:  givenV(map[string]any{"__proto__": map[string]any{"isAdmin": true}, "constructor": map[string]any{"prototype": map[string]any{}}}),
			out: wantOut(`{"v":{"__proto__":{"isAdmin":true},"constructor":{"prototype":{}}}}`)},
		{name: "raw JSON: __proto__ key passed through", ent: "object", in: given([]byte(`{"v":{"__proto__":{"isAdmin":true}},"__proto__":1}`)),
			out: wantOut(`{"v":{"__proto__":{"isAdmin":true}}}`)},
		{name: "raw JSON: keys with escapes match declared names", ent: "keys",
			in:  given([]byte(`{"q\"uote":"1","ctl\u0001\u001f\n":"2","\u003ca\u003e\u0026b":"3","ls\u2028ps\u2029":"4","plain":"7"}`)),
			out: wantOut(`{"q\"uote":"1","ctl\u0001\u001f\n":"2","\u003ca\u003e\u0026b":"3","ls\u2028ps\u2029":"4","__proto__":null,"constructor":null,"\"\u003cx\u003e\u0026\\u2028":"7"}`)},
	}
}

// escapeTests are strings that encoding/json escapes.
var escapeTests = []struct{ name, s string }{
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
	{"truncated UTF-8 at the end", "x\xe2\x82"},
	{"two invalid bytes", "\xfe\xff"},
	{"every control escape", "\x00\x01\b\f\n\r\t\x1f\x7f"},
}

// TestEscaping: keys and values are escaped exactly as encoding/json
// escapes them (invalid UTF-8 replaced with U+FFFD, byte by byte), from
// every entry point: each of escapeTests as a value of every input form, as
// a declared and a renamed key, and inside a value passed through; then the
// cases of encodeCases.
func TestEscaping(t *testing.T) {
	// same makes in with e through every entry point and wants want.
	same := func(t *testing.T, e *entity.Entity, in any, want string) {
		t.Helper()
		runEntryCase(t, e, entryCase{in: given(in), out: wantOut(want)})
	}
	for _, c := range escapeTests {
		t.Run(c.name, func(t *testing.T) {
			want := marshal(t, map[string]string{"v": c.s})
			for _, typ := range []string{"string", "none"} {
				e := exposeOne(t, typ, "")
				same(t, e, map[string]any{"v": c.s}, want)
				same(t, e, map[string]string{"v": c.s}, want)
				if typ == "string" {
					same(t, e, map[string]any{"v": []byte(c.s)}, want)
				} else {
					mustMake(t, e, map[string]any{"v": []byte(c.s)})
				}
			}
			if c.s == "" {
				return
			}
			// As a key: the declared name, and a rename.
			wantKey := marshal(t, map[string]int{c.s: 1})
			e := expose(t, entity.NewRegistry(), "k", c.s, "number", "")
			same(t, e, map[string]any{c.s: 1}, wantKey)
			e = expose(t, entity.NewRegistry(), "k", "x", "number", "rename '"+strings.ReplaceAll(c.s, "'", "''")+"'")
			same(t, e, map[string]any{"x": 1}, wantKey)
			// Inside a value passed through, as key and value.
			e = exposeOne(t, "object", "")
			m := map[string]any{c.s: c.s}
			same(t, e, input(m), `{"v":`+marshal(t, m)+`}`)
		})
	}
	runEntryCases(t, encodeCases())
}

// TestEscapingEveryPlace: a byte that needs an escape (and its neighbours
// that do not) is found at every place of the words a string is scanned
// in, and written as encoding/json writes it: each of them alone, at each
// offset of strings of 1 to 24 bytes, from a string field and from a
// struct's.
func TestEscapingEveryPlace(t *testing.T) {
	e := exposeOne(t, "string", "")
	type row struct {
		V string `json:"v"`
	}
	for _, c := range []byte{'<', '>', '&', '"', '\\', 0, 0x1f, 0x7f, 0x80, '=', '?', ';', '\'', '%', '.', 0x3c | 0x80} {
		for n := 1; n <= 24; n++ {
			for i := range n {
				b := bytes.Repeat([]byte{'a'}, n)
				b[i] = c
				s := string(b)
				want := marshal(t, map[string]string{"v": s})
				for _, in := range []any{map[string]any{"v": s}, row{s}} {
					if got, err := e.MakeJSON(in); err != nil || string(got) != want {
						t.Fatalf("%q from %T: got %s, %v; want %s", s, in, got, err, want)
					}
				}
			}
		}
	}
}
