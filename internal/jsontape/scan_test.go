package jsontape

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/expose-go/expose/internal/jsonwire"
)

// The raw JSON reader must accept exactly what encoding/json accepts: these
// cases are checked against json.Valid as well as against want. An invalid
// case gives the offset where the text stops being JSON and the reason
// SyntaxError finds there (reason "" for valid text).
func TestScanJSON(t *testing.T) {
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	tests := []struct {
		name   string
		in     string
		off    int
		reason string
	}{
		{"empty", ``, 0, "unexpected end of input"},
		{"space only", " \t\r\n", 4, "unexpected end of input"},
		{"empty object", `{}`, 0, ""},
		{"empty array", `[ ]`, 0, ""},
		{"scalar top", `12`, 0, ""},
		{"string top", `"a"`, 0, ""},
		{"literals", `[true,false,null]`, 0, ""},
		{"truncated literal", `[tru]`, 4, "invalid literal, expected true"},
		{"literal at end", `[fal`, 4, "unexpected end of input"},
		{"bad literal", `{"a":nul}`, 8, "invalid literal, expected null"},
		{"literal prefix", `[nulll]`, 5, "expected ',' or ']'"},
		{"nested", `{"a":[1,{"b":{}},[]],"c":"d"}`, 0, ""},
		{"white space everywhere", " { \"a\" : [ 1 , 2 ] , \"b\" : { } } \n", 0, ""},
		{"trailing comma in object", `{"a":1,}`, 7, "expected a string key"},
		{"trailing comma in array", `[1,]`, 3, "expected a value"},
		{"leading comma", `[,1]`, 1, "expected a value"},
		{"missing colon", `{"a" 1}`, 5, "expected ':' after the key"},
		{"missing value", `{"a":}`, 5, "expected a value"},
		{"unquoted key", `{a:1}`, 1, "expected a string key"},
		{"number key", `{1:1}`, 1, "expected a string key"},
		{"missing comma", `{"name":"Ann" "age":3}`, 14, "expected ',' or '}'"},
		{"mismatched close", `[1}`, 2, "expected ',' or ']'"},
		{"mismatched close object", `{"a":1]`, 6, "expected ',' or '}'"},
		{"unclosed", `{"a":[1,2}`, 9, "expected ',' or ']'"},
		{"truncated", `{"a":[1,2`, 9, "unexpected end of input"},
		{"truncated after key", `{"a"`, 4, "unexpected end of input"},
		{"truncated after colon", `{"a": `, 6, "unexpected end of input"},
		{"extra close", `{}}`, 2, "expected the end of input after the value"},
		{"two values", `{} {}`, 3, "expected the end of input after the value"},
		{"garbage after", `[1]x`, 3, "expected the end of input after the value"},
		{"numbers", `[0,-0,1.5,-1.5e10,2E-3,1e+2,123456789012345678901234567890]`, 0, ""},
		{"leading zero", `[01]`, 2, "expected ',' or ']'"},
		{"bare minus", `[-]`, 2, "invalid number"},
		{"minus at end", `-`, 1, "unexpected end of input"},
		{"dot without digits", `[1.]`, 3, "invalid number"},
		{"leading dot", `[.5]`, 1, "expected a value"},
		{"exponent without digits", `[1e]`, 3, "invalid number"},
		{"exponent sign without digits", `[1e+x]`, 4, "invalid number"},
		{"plus sign", `[+1]`, 1, "expected a value"},
		{"hex", `[0x10]`, 2, "expected ',' or ']'"},
		{"NaN", `[NaN]`, 1, "expected a value"},
		{"escapes", `["\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00"]`, 0, ""},
		{"bad escape", `["\x"]`, 3, "invalid escape"},
		{"short unicode escape", `["\u12"]`, 6, "invalid escape"},
		{"bad hex", `["\u12G4"]`, 6, "invalid escape"},
		{"escape at end", `["\`, 3, "unexpected end of input"},
		{"unicode escape at end", `["\u12`, 6, "unexpected end of input"},
		{"control character", "[\"a\x01b\"]", 3, "unescaped control character in a string"},
		{"tab in string", "[\"a\tb\"]", 3, "unescaped control character in a string"},
		{"DEL in string", "[\"a\x7fb\"]", 0, ""},
		{"invalid UTF-8", "[\"a\xffb\"]", 0, ""},
		{"lone surrogate", `["\ud800"]`, 0, ""},
		{"unclosed string", `["abc`, 5, "unexpected end of input"},
		{"unclosed key", `{"abc`, 5, "unexpected end of input"},
		{"long string", `["` + strings.Repeat("abcdefgh", 20) + `"]`, 0, ""},
		{"long string with quote late", `["` + strings.Repeat("abcdefgh", 20) + `\"x"]`, 0, ""},
		{"long string with control late", "[\"" + strings.Repeat("abcdefgh", 3) + "\x1f\"]", 26, "unescaped control character in a string"},
		{"long string with bad escape late", `{"k":"` + strings.Repeat("abcdefgh", 3) + `\q"}`, 31, "invalid escape"},
		{"BOM", "\ufeff{}", 0, "expected a value"},
		{"NUL after", "{}\x00", 2, "expected the end of input after the value"},
		{"too deep", deep, 10000, "nested deeper than 10000 levels"},
		{"too deep in an object", `{"a":` + deep[1:] + `}`, 10004, "nested deeper than 10000 levels"},
		{"deep enough", strings.Repeat("[", 10000) + strings.Repeat("]", 10000), 0, ""},
		{"deep and unclosed", strings.Repeat("[", 20000), 10000, "nested deeper than 10000 levels"},
	}
	var tape []int32
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, off := Scan(tt.in, MaxNesting, &tape)
			if code == OK {
				if tt.reason != "" {
					t.Fatalf("Scan(%.40q) accepts it, want at byte %d, %s", tt.in, tt.off, tt.reason)
				}
				if !json.Valid([]byte(tt.in)) {
					t.Errorf("Scan(%.40q) accepts it, json.Valid does not", tt.in)
				}
				return
			}
			off, reason := SyntaxError(tt.in, code, off)
			if off != tt.off || reason != tt.reason {
				t.Errorf("Scan(%.40q): at byte %d, %s; want at byte %d, %s", tt.in, off, reason, tt.off, tt.reason)
			}
			if code != TooDeep {
				checkSyntaxError(t, tt.in, off)
			}
		})
	}
}

// checkSyntaxError checks the offset of text that Scan refused
// against encoding/json's: its SyntaxError.Offset counts the bytes read up
// to and including the first invalid one, or all of them when the text
// ends too soon, which SyntaxError reports as len(text) (encoding/json's
// offset is then len(text), whatever it says).
func checkSyntaxError(t *testing.T, in string, off int) {
	t.Helper()
	var v any
	err := json.Unmarshal([]byte(in), &v)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("Scan(%.40q) refuses it at byte %d, encoding/json says %v", in, off, err)
	}
	want := int(se.Offset) - 1
	eof := se.Error() == "unexpected end of JSON input" ||
		// in a token, encoding/json ends the text with a space of its own
		int(se.Offset) == len(in) && in[len(in)-1] != ' ' && strings.HasPrefix(se.Error(), "invalid character ' '")
	if eof {
		want = len(in)
	}
	if off != want {
		t.Fatalf("Scan(%.40q) refuses it at byte %d, encoding/json at byte %d: %v", in, off, want, se)
	}
}

// TestScanJSONTestSuite runs JSONTestSuite's parsing corpus
// (testdata/jsontestsuite): y_ files are accepted, n_ files refused at the
// byte encoding/json names, i_ files judged as json.Valid judges them.
func TestScanJSONTestSuite(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "jsontestsuite", "*.json"))
	if err != nil || len(files) < 300 {
		t.Fatalf("the corpus: %d files, %v", len(files), err)
	}
	var tape []int32
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			in := string(b)
			code, off := Scan(in, MaxNesting, &tape)
			want := json.Valid(b)
			switch name[0] {
			case 'y':
				want = true
			case 'n':
				want = false
			}
			if (code == OK) != want {
				t.Fatalf("Scan = %v at %d, want valid %v", code, off, want)
			}
			if code != OK && code != TooDeep {
				off, _ = SyntaxError(in, code, off)
				checkSyntaxError(t, in, off)
			}
		})
	}
}

// FuzzScanJSON checks the validator against encoding/json, and the tape
// and the walkers against the text itself and encoding/json (checkWalkers).
func FuzzScanJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[1,"a",{"b":[null,true]}]`, `{"a":{"b":{"c":[]}},"d":"\u00e9"}`, `[01]`, `"x\u12"`, "[\"\xff\"]"} {
		f.Add(s)
	}
	var tape []int32
	f.Fuzz(func(t *testing.T, in string) {
		got, off := Scan(in, 64, &tape)
		valid := json.Valid([]byte(in))
		switch {
		case got == TooDeep:
			if valid && nesting(in) <= 64 {
				t.Fatalf("Scan(%q) refused as too deep, nesting %d", in, nesting(in))
			}
			return
		case (got == OK) != valid:
			t.Fatalf("Scan(%q) = %v, json.Valid = %v", in, got, valid)
		case got != OK:
			off, _ = SyntaxError(in, got, off)
			checkSyntaxError(t, in, off)
			return
		}
		checkWalkers(t, in, tape)
	})
}

// nesting returns how deep brackets nest in valid JSON text.
func nesting(s string) int {
	level, most := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '{':
			level++
			most = max(most, level)
		case ']', '}':
			level--
		case '"':
			i, _ = jsonwire.StringEnd(s, i)
			i--
		}
	}
	return most
}

// BenchmarkScanJSON times the validator alone on a list of 100 users.
func BenchmarkScanJSON(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"limit":100,"list":[`)
	for i := range 100 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"age":40,"id":"1007","mail":"maachang12@example2.com","name":"maachang12"}`)
	}
	sb.WriteString(`]}`)
	doc := sb.String()
	var tape []int32
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if code, _ := Scan(doc, MaxNesting, &tape); code != OK {
			b.Fatal("invalid")
		}
	}
}

// wantTape returns the tape of valid text as the package doc defines it, built
// apart from the validator: the containers where encoding/json's tokenizer
// finds them, the string literals where the walker does, the plain ones
// judged by their bytes. It also returns the offset of each container's
// entry, by ordinal.
func wantTape(in string) (tape []int32, starts map[int]int) {
	type item struct{ start, end int }
	var items []item
	for i := 0; i < len(in); i++ {
		if in[i] == '"' {
			end, _ := jsonwire.StringEnd(in, i)
			items = append(items, item{i, end})
			i = end - 1
		}
	}
	for _, start := range decoderContainerStarts(in) {
		items = append(items, item{start, jsonwire.NestedEnd(in, start)})
	}
	slices.SortFunc(items, func(a, b item) int { return a.start - b.start })
	ords := make([]int, len(items)+1) // each item's ordinal, and the tape's length
	for k, it := range items {
		ords[k+1] = ords[k] + 1
		if in[it.start] != '"' {
			ords[k+1]++
		}
	}
	starts = make(map[int]int)
	for k, it := range items {
		size := int32(it.end - it.start)
		if in[it.start] == '"' {
			lit := in[it.start+1 : it.end-1]
			if strings.IndexByte(lit, '\\') >= 0 || strings.IndexFunc(lit, func(r rune) bool { return r >= 0x80 }) >= 0 {
				size = -size
			}
			tape = append(tape, size)
			continue
		}
		next := k + 1
		for next < len(items) && items[next].start < it.end {
			next++
		}
		starts[ords[k]] = it.start
		tape = append(tape, size, int32(ords[next]))
	}
	return tape, starts
}

// checkWalkers checks the tape and the walkers on valid text.
func checkWalkers(t *testing.T, in string, tape []int32) {
	t.Helper()
	want, starts := wantTape(in)
	if !slices.Equal(tape, want) {
		t.Fatalf("%q: tape %v, want %v", in, tape, want)
	}
	for k, start := range starts {
		end := start + int(tape[k])
		var v any
		dec := json.NewDecoder(strings.NewReader(in[start:end]))
		dec.UseNumber() // numbers beyond float64 are valid JSON too
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%q: container %d text %q: %v", in, k, in[start:end], err)
		}
		want := 0
		switch v := v.(type) {
		case []any:
			want = len(v)
			// EachObject: the objects, with the right ordinals.
			var got []int
			EachObject(in[start:end], int32(k), tape, func(i int, text string, ord int32) bool {
				if s, ok := starts[int(ord)]; !ok || s != start+strings.Index(in[start:end], text) || text[0] != '{' {
					t.Fatalf("%q: EachObject elem %d: ord %d text %q", in, i, ord, text)
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
				t.Fatalf("%q: EachObject %v, want %v", in, got, wantIdx)
			}
			if got := Count(in[start:end], int32(k), tape); got != len(v) {
				t.Fatalf("%q: Count of %q = %d, want %d", in, in[start:end], got, len(v))
			}
		case map[string]any:
			want = len(v) // distinct keys
		}
		if got := jsonwire.Count(in[start:end]); got != want {
			t.Fatalf("Count(%q) = %d, want %d", in[start:end], got, want)
		}
	}
}

// decoderContainerStarts returns the offsets of the opening brackets of
// valid JSON text, as encoding/json's tokenizer finds them.
func decoderContainerStarts(s string) []int {
	var starts []int
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
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

// BenchmarkScanJSONCold times the validator on 1 MiB documents with a new
// tape each time, growth included: a list of users, and a list of empty
// objects (the most tape a byte).
func BenchmarkScanJSONCold(b *testing.B) {
	user := `{"age":40,"id":"1007","mail":"maachang12@example2.com","name":"maachang12"}`
	for _, bm := range []struct{ name, unit string }{{"users", user}, {"empty", "{}"}} {
		doc := `{"items":[` + strings.Repeat(bm.unit+",", (1<<20)/(len(bm.unit)+1)) + bm.unit + `]}`
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				var tape []int32
				if code, _ := Scan(doc, MaxNesting, &tape); code != OK {
					b.Fatal("invalid")
				}
			}
		})
	}
}

// TestReasons: every reason SyntaxError gives on the refused inputs of
// TestScanJSON is one Reasons lists.
func TestReasons(t *testing.T) {
	listed := map[string]bool{}
	for _, r := range Reasons() {
		listed[r] = true
	}
	var tape []int32
	for _, in := range []string{``, `[tru]`, `[fal`, `{"a":nul}`, `[nulll]`, `{"a":1,}`, `[,1]`, `{"a" 1}`, `{a:1}`, `[1}`, `{"a":1]`, `{}}`,
		`[-]`, `["\x"]`, "[\"a\x01b\"]", strings.Repeat("[", MaxNesting+1)} {
		code, off := Scan(in, MaxNesting, &tape)
		if code == OK {
			t.Fatalf("Scan(%.20q) accepts it", in)
		}
		if _, reason := SyntaxError(in, code, off); !listed[reason] {
			t.Errorf("Scan(%.20q): the reason %q is not listed", in, reason)
		}
	}
}
