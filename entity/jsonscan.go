package entity

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// The raw JSON reader. A document is read in two passes, never more:
//
//  1. scanJSON validates the whole input once, exactly as encoding/json's
//     Valid does, without recursion (so no input can exhaust the stack),
//     and records every string literal, object and array it meets on a
//     tape (see below). It also refuses nesting deeper than
//     maxJSONNesting, as encoding/json does.
//  2. Each object an entity reads is walked once, member by member, by
//     jsonObject.fill, which keeps the values of the keys the entity reads
//     in slots. A nested object or array is stepped over in one jump with
//     its tape entry, and a string literal's end is read from the tape,
//     so the bytes of a list of objects are read by the validator, and
//     only the bytes between their strings by each element's fill.
//
// Both walkers after the first trust the text: it is valid JSON, and each
// container handed to them is one the validator measured.
//
// The tape is one []int32 with an entry for each string literal and each
// container, in the order they begin in the text; a container is known by
// the number of its entry, its ordinal. A string literal's entry is one
// word: its size in bytes, quotes included, negated when the literal is
// not plain (plain: no escapes, all ASCII, so that its content is its
// value). A container's is two: its size in bytes, from its opening
// bracket to its closing one included, and the ordinal of the entry after
// everything nested in it. Each literal owns at least two bytes of the
// text (its quotes) and each container two (its brackets), so the tape
// holds at most one word per byte of valid text (plus one for each bracket
// that invalid text leaves open, at most maxNesting). When the tape it is
// given is full, scanJSON grows it once, to a count of those bytes in the
// rest of the text (growTape): at most 4 bytes of memory per byte of
// input, whatever the input.

// jsonKind is the type of a JSON value, by its first byte.
type jsonKind uint8

const (
	jsonNone   jsonKind = iota // no value: the slot was not in the object
	jsonNull                   // null
	jsonFalse                  // false
	jsonTrue                   // true
	jsonNumber                 // a number
	jsonString                 // a string literal; plain when it has no escapes and is all ASCII
	jsonNested                 // an object or an array
)

// strSafe holds the bytes a JSON string holds as they are (not a quote, a
// backslash or a control character); strASCII the same less the bytes of
// multi-byte UTF-8, so that a string made of them alone is its own value.
var strSafe, strASCII = func() (safe, ascii [256]bool) {
	for c := 0x20; c < 256; c++ {
		safe[c] = c != '"' && c != '\\'
		ascii[c] = safe[c] && c < 0x80
	}
	return
}()

// scanError says why scanJSON refused its input. With it, scanJSON
// returns the offset where the text stopped being JSON; for the codes
// marked "refined", syntaxError finds the exact byte inside the token
// that begins there.
type scanError uint8

const (
	scanOK          scanError = iota
	scanTooDeep               // nested deeper than the limit
	scanTooLarge              // larger than the tape's offsets can say
	scanEOF                   // the text ends where more is needed
	scanWantKey               // an object member must begin with a string key
	scanWantColon             // a key must be followed by ':'
	scanWantObjNext           // a member must be followed by ',' or '}'
	scanWantArrNext           // an element must be followed by ',' or ']'
	scanWantEnd               // the top-level value must be followed by nothing
	scanBadString             // refined: the string literal beginning here is invalid
	scanBadNumber             // refined: no value, or an invalid number, begins here
	scanBadLiteral            // refined: the true, false or null beginning here is misspelt

	// Found by syntaxError's walks only.
	scanBadControl // an unescaped control character in a string
	scanWantValue  // no value begins here
)

// tapeWriter is what scanJSON keeps of the containers it meets: the tape,
// and the containers open, as a list through the tape. While a container
// is open, its entry holds its start and the ordinal of the container
// around it (-1 for none), so that no stack is needed.
type tapeWriter struct {
	t     []int32
	open  int32 // the innermost open container
	depth int   // how many are open
}

// scanJSON validates b as one JSON value with optional white space around
// it, nested at most maxNesting deep, and records its string literals and
// containers in *tape (reusing its storage). On failure it also returns
// the offset where b stops being JSON, or, for the refined codes, where
// the token that is invalid begins (see syntaxError).
func scanJSON(b string, maxNesting int, tape *[]int32) (scanError, int) {
	if len(b) > math.MaxInt32 {
		return scanTooLarge, 0
	}
	// The tape and the open containers are kept in memory, where the
	// deferred store makes them live: in registers, they would be saved
	// and restored around each string literal scanned, which costs more
	// than the few loads and stores where they are used.
	w := tapeWriter{t: (*tape)[:0], open: -1}
	defer func() { *tape = w.t }()
	n := len(b)
	i := 0
	closer := byte(0) // what closes the innermost open container
	wantKey := false
value:
	for {
		for i < n && isSpace(b[i]) {
			i++
		}
		if i == n {
			return scanEOF, n
		}
		c := b[i]
		if wantKey && c != '"' {
			return scanWantKey, i
		}
		switch c {
		case '"':
			end, plain := scanString(b, i)
			if end < 0 {
				return scanBadString, i
			}
			size := int32(end - i)
			if !plain {
				size = -size
			}
			t := w.t
			if len(t) == cap(t) {
				t = growTape(t, b, i, maxNesting-w.depth)
			}
			w.t = append(t, size)
			i = end
			if wantKey {
				wantKey = false
				for i < n && isSpace(b[i]) {
					i++
				}
				if i == n || b[i] != ':' {
					return scanWantColon, i
				}
				i++
				continue value
			}
		case '{', '[':
			if w.depth == maxNesting {
				return scanTooDeep, i
			}
			if len(w.t)+2 > cap(w.t) {
				w.t = growTape(w.t, b, i, maxNesting-w.depth)
			}
			w.t = append(w.t, int32(i), w.open)
			w.open = int32(len(w.t) - 2)
			w.depth++
			closer = c + 2 // '{'+2 is '}', '['+2 is ']'
			i++
			for i < n && isSpace(b[i]) {
				i++
			}
			if i < n && b[i] == closer {
				break // empty: closed below
			}
			wantKey = c == '{'
			continue value
		case 't':
			if i+4 > n || b[i:i+4] != "true" {
				return scanBadLiteral, i
			}
			i += 4
		case 'f':
			if i+5 > n || b[i:i+5] != "false" {
				return scanBadLiteral, i
			}
			i += 5
		case 'n':
			if i+4 > n || b[i:i+4] != "null" {
				return scanBadLiteral, i
			}
			i += 4
		default:
			end := scanNumber(b, i)
			if end < 0 {
				return scanBadNumber, i
			}
			i = end
		}
		for {
			for i < n && isSpace(b[i]) {
				i++
			}
			if i == n {
				if w.depth == 0 {
					return scanOK, 0
				}
				return scanEOF, n
			}
			switch c := b[i]; {
			case c == ',' && closer != 0:
				i++
				wantKey = closer == '}'
				continue value
			case c == closer && closer != 0:
				e := w.t[w.open : w.open+2 : w.open+2]
				start, outer := e[0], e[1]
				e[0], e[1] = int32(i)-start+1, int32(len(w.t))
				w.open, w.depth = outer, w.depth-1
				closer = 0
				if w.open >= 0 {
					closer = b[w.t[w.open]] + 2
				}
				i++
			case closer == '}':
				return scanWantObjNext, i
			case closer == ']':
				return scanWantArrNext, i
			default:
				return scanWantEnd, i
			}
		}
	}
}

// growTape returns t with room for every entry of the text from b[i:] on,
// in one allocation of just that (a slice grown by append would allocate
// about five times its final size in all on the way). unclosed is how
// many containers may still be opened there and not closed before
// scanJSON refuses the text. Each container begun in b[i:] has its opening
// bracket there and, unless it is one of those, its closing bracket; each
// string literal its two quotes. So the count is at most a word for each
// byte, and a word for each unclosed container (see the tape).
//
//go:noinline
func growTape(t []int32, b string, i, unclosed int) []int32 {
	rest := b[i:]
	containers := strings.Count(rest, "{") + strings.Count(rest, "[")
	if containers > unclosed { // most text has fewer: no need to count further
		containers = min(containers, strings.Count(rest, "}")+strings.Count(rest, "]")+unclosed)
	}
	grown := make([]int32, len(t), len(t)+2*containers+strings.Count(rest, `"`)/2)
	copy(grown, t)
	return grown
}

// scanString validates the string literal at b[i:] and returns the offset
// after its closing quote, or -1, and whether the literal is plain: no
// escapes, all ASCII, so that its content is its value. Bytes of invalid
// UTF-8 are accepted, as encoding/json accepts them (its decoder replaces
// them with U+FFFD).
func scanString(b string, i int) (int, bool) {
	n := len(b)
	i++
	ascii := uint64(hi8) // stop at non-ASCII bytes too, until one is found
	for {
		// Find the first byte that is not plain text: eight at a time,
		// then one at a time near the end of the input.
		if i+8 <= n {
			x := load64(b, i)
			stop := unsafeBytes(x) | x&ascii
			if stop == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(stop) / 8
		} else {
			for i < n && strSafe[b[i]] && (b[i] < 0x80 || ascii == 0) {
				i++
			}
			if i == n {
				return -1, false
			}
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, ascii != 0
		case c == '\\':
			ascii = 0
			if i++; i == n {
				return -1, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= n || hex4(b, i+1) < 0 {
					return -1, false
				}
				i += 4
			default:
				return -1, false
			}
			i++
		case c >= 0x80:
			ascii = 0
			i++
		default: // a control character
			return -1, false
		}
	}
}

// scanNumber validates the number at b[i:] and returns the offset after
// it, or -1.
func scanNumber(b string, i int) int {
	n := len(b)
	if i < n && b[i] == '-' {
		i++
	}
	switch {
	case i < n && b[i] == '0':
		i++
	case i < n && '1' <= b[i] && b[i] <= '9':
		for i++; i < n && isDigit(b[i]); i++ {
		}
	default:
		return -1
	}
	if i < n && b[i] == '.' {
		i++
		if i == n || !isDigit(b[i]) {
			return -1
		}
		for i++; i < n && isDigit(b[i]); i++ {
		}
	}
	if i < n && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < n && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i == n || !isDigit(b[i]) {
			return -1
		}
		for i++; i < n && isDigit(b[i]); i++ {
		}
	}
	return i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// syntaxError returns the offset of the first byte at which b stops being
// JSON, and what JSON wanted there, for text that scanJSON refused with
// code at offset off. The offset is len(b) when the text ends too soon,
// else the first byte that no valid JSON text could have there: the byte
// after the one that encoding/json's SyntaxError.Offset counts up to. It
// runs only on failure: for the refined codes it walks again, byte by
// byte, the one token that scanJSON found invalid.
func syntaxError(b string, code scanError, off int) (int, string) {
	switch code {
	case scanBadString:
		off, code = badString(b, off)
	case scanBadNumber:
		off, code = badNumber(b, off)
	case scanBadLiteral:
		word := "null"
		switch b[off] {
		case 't':
			word = "true"
		case 'f':
			word = "false"
		}
		for j := 0; j < len(word); j, off = j+1, off+1 {
			if off == len(b) {
				return off, "unexpected end of input"
			}
			if b[off] != word[j] {
				return off, "invalid literal, expected " + word
			}
		}
	}
	if off >= len(b) {
		return len(b), "unexpected end of input"
	}
	if code == scanTooDeep {
		return off, "nested deeper than " + strconv.Itoa(maxJSONNesting) + " levels"
	}
	return off, scanReasons[code]
}

// scanReasons says what JSON wanted where scanJSON, or syntaxError's
// walks, stopped with each code.
var scanReasons = [...]string{
	scanOK:          "",
	scanTooDeep:     "nested too deep",
	scanTooLarge:    "too large to read",
	scanEOF:         "unexpected end of input",
	scanWantKey:     "expected a string key",
	scanWantColon:   "expected ':' after the key",
	scanWantObjNext: "expected ',' or '}'",
	scanWantArrNext: "expected ',' or ']'",
	scanWantEnd:     "expected the end of input after the value",
	scanBadString:   "invalid escape",
	scanBadNumber:   "invalid number",
	scanBadLiteral:  "invalid literal",
	scanBadControl:  "unescaped control character in a string",
	scanWantValue:   "expected a value",
}

// badString returns where and why the string literal at b[i:], which
// scanString refused, is invalid: scanEOF, scanBadString (an escape) or
// scanBadControl.
func badString(b string, i int) (int, scanError) {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c < 0x20:
			return i, scanBadControl
		case c == '\\':
			if i++; i == len(b) {
				return i, scanEOF
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for j := 0; j < 4; j++ {
					if i++; i == len(b) {
						return i, scanEOF
					}
					if !isHex(b[i]) {
						return i, scanBadString
					}
				}
			default:
				return i, scanBadString
			}
		case c == '"':
			return i, scanOK // not reached: scanString accepted the literal
		}
	}
	return i, scanEOF
}

// badNumber returns where and why the value at b[i:], which scanNumber
// refused, is invalid: scanWantValue when no value begins there,
// scanBadNumber or scanEOF within a number.
func badNumber(b string, i int) (int, scanError) {
	if b[i] != '-' && !isDigit(b[i]) {
		return i, scanWantValue
	}
	if b[i] == '-' {
		i++
	}
	digits := func() (int, scanError) { // one digit at least, then more
		if i == len(b) {
			return i, scanEOF
		}
		if !isDigit(b[i]) {
			return i, scanBadNumber
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
		return i, scanOK
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if end, code := digits(); code != scanOK {
		return end, code
	}
	if i < len(b) && b[i] == '.' {
		i++
		if end, code := digits(); code != scanOK {
			return end, code
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if end, code := digits(); code != scanOK {
			return end, code
		}
	}
	return i, scanOK // not reached: scanNumber accepted the number
}

func isHex(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// The walkers below read text the validator accepted.

// skipSpace returns the offset of the first byte at or after i that is not
// white space.
func skipSpace(s string, i int) int {
	for isSpace(s[i]) {
		i++
	}
	return i
}

// stringEnd returns the offset after the string literal at s[i:], and
// whether the literal is plain: no escapes, all ASCII, so that its content
// is its value.
func stringEnd(s string, i int) (int, bool) {
	i++
	for { // to the first quote, backslash or non-ASCII byte (valid text holds no control character)
		if i+8 <= len(s) {
			x := load64(s, i)
			quote, slash := x^(lo8*'"'), x^(lo8*'\\')
			stop := ((quote-lo8)&^quote | (slash-lo8)&^slash | x) & hi8
			if stop == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(stop) / 8
		} else {
			for strASCII[s[i]] {
				i++
			}
		}
		break
	}
	if s[i] == '"' {
		return i + 1, true
	}
	for ; s[i] != '"'; i++ {
		if s[i] == '\\' {
			i++
		}
	}
	return i + 1, false
}

// scalarEnd returns the offset after the number or literal at s[i:].
func scalarEnd(s string, i int) int {
	for i++; i < len(s); i++ {
		switch c := s[i]; {
		case isDigit(c), c == '.', c == 'e', c == 'E', c == '+', c == '-', 'a' <= c && c <= 'z':
		default:
			return i
		}
	}
	return i
}

// nestedEnd returns the offset after the object or array at s[i:], found by
// scanning it (for the few readers that have no tape at hand).
func nestedEnd(s string, i int) int {
	level := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '[', '{':
			level++
		case ']', '}':
			if level--; level == 0 {
				return i + 1
			}
		case '"':
			i, _ = stringEnd(s, i)
			i--
		}
	}
	return i
}

// valueEnd returns the offset after the value at s[i:].
func valueEnd(s string, i int) int {
	switch s[i] {
	case '"':
		end, _ := stringEnd(s, i)
		return end
	case '{', '[':
		return nestedEnd(s, i)
	}
	return scalarEnd(s, i)
}

// countJSON returns the number of elements of a JSON array or of distinct
// keys of a JSON object (a key that comes twice counts once, as in the map
// encoding/json would decode it to).
func countJSON(text string) int {
	count := 0
	var keys []string
	var small [16]string
	if text[0] == '{' {
		keys = small[:0]
	}
	for i := skipSpace(text, 1); text[i] != ']' && text[i] != '}'; {
		count++
		if text[0] == '{' {
			end, plain := stringEnd(text, i)
			key := text[i+1 : end-1]
			if !plain {
				key = unquote(text[i:end])
			}
			keys = append(keys, key)
			i = skipSpace(text, skipSpace(text, end)+1) // the colon
		}
		if i = skipSpace(text, valueEnd(text, i)); text[i] == ',' {
			i = skipSpace(text, i+1)
		}
	}
	if len(keys) > 1 {
		slices.Sort(keys)
		count = len(slices.Compact(keys))
	}
	return count
}

// eachJSONObject calls f with the position, text and ordinal of each
// element of a JSON array that is an object, until f returns false. ord is
// the array's own ordinal on tape.
func eachJSONObject(array string, ord int32, tape []int32, f func(i int, text string, ord int32) bool) {
	eachJSONValue(array, ord, tape, func(i int, text string, k int32, _ bool) bool {
		return text[0] != '{' || f(i, text, k)
	})
}

// eachJSONValue calls f with the position and text of each element of a
// JSON array, until f returns false: with an object's or an array's its
// ordinal on tape (k), with a string literal's whether it is plain (holds
// no escape). ord is the array's own ordinal on tape.
func eachJSONValue(array string, ord int32, tape []int32, f func(i int, text string, k int32, plain bool) bool) {
	k := int(ord) + 2 // the next entry's ordinal
	idx := 0
	for i := skipSpace(array, 1); array[i] != ']'; idx++ {
		start, plain, nested := i, false, int32(-1)
		switch c := array[i]; c {
		case '{', '[':
			e := tape[k : k+2 : k+2]
			nested = int32(k)
			i += int(e[0])
			k = int(e[1])
		case '"':
			var size int
			size, plain = literal(tape, k)
			i += size
			k++
		default:
			i = scalarEnd(array, i)
		}
		if !f(idx, array[start:i], nested, plain) {
			return
		}
		if i = skipSpace(array, i); array[i] == ',' {
			i = skipSpace(array, i+1)
		}
	}
}

// literal returns the size of the string literal whose entry is tape[k],
// and whether it is plain.
func literal(tape []int32, k int) (int, bool) {
	size := int(tape[k])
	if size < 0 {
		return -size, false
	}
	return size, true
}

// Eight bytes at a time: the string scanners look at a word of text at
// once, and at single bytes only around what stops them.

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// load64 returns s[i:i+8] as a little-endian word (the compiler makes it a
// single load).
func load64(s string, i int) uint64 {
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
