package entity

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Raw JSON input: a []byte or json.RawMessage holding an object or an array
// of objects is validated once (jsonscan.go), then each object is read in
// one pass into slots, without building a map. The whole input is validated once before anything is read, so a
// malformed body is a clear error and nothing is written.

// jval is one value of a JSON object, as fill found it. It holds no
// pointer, so that filling and clearing slots costs no write barrier.
type jval struct {
	kind       jsonKind
	plain      bool  // a string literal whose content is its value
	ord        int32 // an object or array: its ordinal on the tape
	start, end int32 // the value's text in the object's
}

// jsonObject holds the values of one JSON object that an entity reads, by
// slot. Entities reading more than 16 distinct input keys spill to a slice.
type jsonObject struct {
	text string
	ord  int32 // its number on the tape
	vals [16]jval
	more []jval

	// For the table read last, the slot (plus one) of the key found at
	// each of the first positions: the objects of a list usually spell
	// their keys in the same order, and comparing one key is cheaper than
	// looking it up.
	hintsFor *inputTable
	hints    [16]int16
}

// fill reads the object text once, keeping the values of the keys table t reads.
// A key that comes twice keeps its last value, as encoding/json does. ord
// is the object's ordinal on tape, the validator's record of the
// document (jsonscan.go), with which string literals end and nested values
// are stepped over without reading them.
func (o *jsonObject) fill(text string, ord int32, st *jsonStack, t *inputTable) {
	tape := st.tape
	clear(o.vals[:min(t.nslots, len(o.vals))])
	if t.nslots > len(o.vals) {
		if len(o.more) < t.nslots-len(o.vals) {
			o.more = make([]jval, t.nslots-len(o.vals))
		}
		clear(o.more)
	}
	o.text, o.ord = text, ord
	if o.hintsFor != t {
		o.hintsFor = t
		clear(o.hints[:])
	}
	k := int(ord) + 2 // the next entry's ordinal
	var skipped jval
	for i, m := skipSpace(text, 1), 0; text[i] != '}'; m++ {
		// The key, whose end the validator recorded: first the name
		// found at this position last time, else looked up.
		size, plain := literal(tape, k)
		k++
		end := i + size
		key := text[i+1 : end-1]
		slot := -1
		if !plain {
			key = unquote(text[i:end])
		} else if m < len(o.hints) {
			if h := int(o.hints[m]) - 1; h >= 0 && t.keys.names[h] == key {
				slot = h
			}
		}
		if slot < 0 {
			slot = t.keys.lookup(key)
			if m < len(o.hints) {
				o.hints[m] = int16(slot + 1)
			}
		}
		i = skipSpace(text, skipSpace(text, end)+1)
		// The value is written field by field into its slot (or into
		// skipped, for a key e does not read): a jval built aside and
		// copied would be stored in pieces and reloaded whole, which
		// stalls the processor's store forwarding.
		jv := &skipped
		if slot >= 0 {
			jv = o.at(slot)
		}
		jv.start, jv.plain, jv.ord = int32(i), false, 0
		switch c := text[i]; c {
		case '"':
			size, jv.plain = literal(tape, k)
			k++
			end, jv.kind = i+size, jsonString
		case '{', '[':
			sp := tape[k : k+2 : k+2] // size, next
			end = i + int(sp[0])
			jv.kind, jv.ord = jsonNested, int32(k)
			k = int(sp[1])
		case 't':
			end, jv.kind = i+4, jsonTrue
		case 'f':
			end, jv.kind = i+5, jsonFalse
		case 'n':
			end, jv.kind = i+4, jsonNull
		default:
			end, jv.kind = scalarEnd(text, i), jsonNumber
		}
		jv.end = int32(end)
		if i = skipSpace(text, end); text[i] == ',' {
			i = skipSpace(text, i+1)
		}
	}
}

// at returns slot i.
func (o *jsonObject) at(i int) *jval {
	if i < len(o.vals) {
		return &o.vals[i]
	}
	return &o.more[i-len(o.vals)]
}

// get returns the value in slot i.
func (o *jsonObject) get(i int) raw {
	jv := o.at(i)
	text := o.text[jv.start:jv.end]
	switch jv.kind {
	case jsonString:
		if jv.plain {
			return raw{kind: rawStr, s: text[1 : len(text)-1], view: true}
		}
		return raw{kind: rawStr, s: unquote(text), view: true}
	case jsonNumber:
		return raw{kind: rawNum, s: text}
	case jsonTrue:
		return raw{a: true}
	case jsonFalse:
		return raw{a: false}
	case jsonNested:
		return raw{kind: rawJSON, s: text, n: int64(jv.ord)}
	}
	return raw{}
}

// jsonStack holds what one run needs to read raw JSON: the tape of the
// document and the jsonObjects being read, one per level of nesting,
// reused level by level. It comes from a pool, so that reading raw JSON
// allocates nothing once warm. (A jsonObject on the stack would escape
// anyway: sources are also read through reflection, and escape analysis
// does not tell their fields apart.)
type jsonStack struct {
	tape []int32 // the document's string literals and containers (jsonscan.go)
	objs []*jsonObject
	used int
}

var jsonStackPool = sync.Pool{New: func() any { return new(jsonStack) }}

// parseJSON validates raw JSON input, records its tape for the run's
// readers, and returns its text, trimmed: an object or an array. A run
// reads one document.
func (r *run) parseJSON(b []byte) (string, error) {
	return r.parseJSONOf(b, false)
}

// parseJSONOf is parseJSON, taking an object only when objectOnly is
// set (a request body).
func (r *run) parseJSONOf(b []byte, objectOnly bool) (string, error) {
	if r.js == nil {
		r.js = jsonStackPool.Get().(*jsonStack)
	}
	s := bytesString(b)
	switch code, off := scanJSON(s, maxJSONNesting, &r.js.tape); code {
	case scanOK:
	case scanTooLarge:
		return "", newInputError(ErrBodyTooLarge, "problem.json.too-large", nil)
	default:
		return "", invalidJSON(s, code, off)
	}
	start := len(s) - len(trimLeftSpace(s))
	s = trimSpace(s)
	switch {
	case objectOnly && s[0] != '{':
		return "", notAnObject(start, s, "object")
	case s[0] != '{' && s[0] != '[':
		return "", notAnObject(start, s, "object or array")
	}
	return s, nil
}

// invalidJSON returns the InputError of the JSON text b that scanJSON
// refused with code at off, with the offset and what was expected there:
// "the body is not valid JSON: at byte 17, expected ',' or '}'".
func invalidJSON(b string, code scanError, off int) *InputError {
	off, reason := syntaxError(b, code, off)
	return newInputError(ErrInvalidJSON, "problem.json.syntax", map[string]any{"offset": off, "reason": reason})
}

// notAnObject returns the InputError of valid JSON whose top-level value,
// text at byte off of the input, is not what was wanted:
// "the body is not a JSON object: at byte 0, got an array".
func notAnObject(off int, text, wanted string) *InputError {
	kind := "a number"
	switch text[0] {
	case '{':
		kind = "an object"
	case '[':
		kind = "an array"
	case '"':
		kind = "a string"
	case 't', 'f':
		kind = "a boolean"
	case 'n':
		kind = "null"
	}
	key := "problem.json.not-object"
	if wanted != "object" {
		key = "problem.json.not-object-or-array"
	}
	return newInputError(ErrInvalidJSON, key, map[string]any{"offset": off, "got": kind})
}

// takeJSON returns a jsonObject filled from text, the object numbered ord
// on the run's tape, for the input table t; release it with releaseJSON,
// innermost first.
func (r *run) takeJSON(text string, ord int32, t *inputTable) *jsonObject {
	st := r.js
	if st.used == len(st.objs) {
		st.objs = append(st.objs, new(jsonObject))
	}
	o := st.objs[st.used]
	st.used++
	o.fill(text, ord, st, t)
	return o
}

// releaseJSON gives back the innermost jsonObject taken.
func (r *run) releaseJSON() { r.js.used-- }

// eachJSONObject calls f with each object of the JSON array text, numbered
// ord on the run's tape; see eachJSONObject.
func (r *run) eachJSONObject(text string, ord int32, f func(i int, text string, ord int32) bool) {
	eachJSONObject(text, ord, r.js.tape, f)
}

// putJSON returns the run's jsonStack to its pool. A stack grown by a huge
// document is dropped rather than kept.
func (r *run) putJSON() {
	if r.js != nil {
		r.js.used = 0
		for _, o := range r.js.objs {
			o.text = "" // do not keep the caller's input alive in the pool
		}
		if cap(r.js.tape) <= 1<<16 {
			jsonStackPool.Put(r.js)
		}
		r.js = nil
	}
}

// maxJSONNesting is the deepest raw JSON input read at all, as
// encoding/json refuses to decode deeper (the registry's depth limit, lower,
// applies to what is made of it).
const maxJSONNesting = 10000

// unquote returns the text of the JSON string literal q (quotes included)
// exactly as encoding/json decodes it: escapes resolved, a lone or broken
// surrogate and each byte of invalid UTF-8 replaced by U+FFFD. A literal
// without escapes or invalid UTF-8 is returned as a substring.
func unquote(q string) string {
	s := q[1 : len(q)-1]
	i := 0
	for i < len(s) && s[i] != '\\' && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s
	}
	if strings.IndexByte(s[i:], '\\') < 0 {
		return validUTF8(s)
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, s[:i]...)
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			switch e := s[i]; e {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(s, i+1)
				i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+2 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
						r2 = hex4(s, i+3)
					}
					if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
						i += 6
						r = dec
					} else {
						r = unicode.ReplacementChar
					}
				}
				b = utf8.AppendRune(b, r)
			default: // " \ /
				b = append(b, e)
			}
			i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			var size int
			b, size = appendRuneOrFFFD(b, s[i:])
			i += size
		}
	}
	return string(b)
}

// appendRuneOrFFFD appends the first rune of s, or U+FFFD when its first
// byte is not valid UTF-8, and returns how many bytes it read.
func appendRuneOrFFFD(b []byte, s string) ([]byte, int) {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size == 1 {
		return utf8.AppendRune(b, utf8.RuneError), 1
	}
	return append(b, s[:size]...), size
}

// hex4 reads the four hex digits at s[i:], or -1.
func hex4(s string, i int) rune {
	if i+4 > len(s) {
		return -1
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

func trimLeftSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	return s
}

func trimSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// appendCompact appends valid JSON text without its insignificant white
// space, as json.Marshal writes a json.RawMessage: strings are copied as
// they are, escapes included, except that <, > and & and U+2028 and U+2029
// are escaped (encoding/json's HTML-safe output) and invalid UTF-8 becomes
// \ufffd.
//
// depth is the nesting left: text nested deeper fails with ErrDepth, as the
// same value decoded into maps would.
func appendCompact(dst []byte, text string, depth int) ([]byte, error) {
	start, level := 0, 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case ' ', '\t', '\n', '\r':
			dst = append(dst, text[start:i]...)
			start = i + 1
		case '[', '{':
			if level++; level > depth {
				return dst, ErrDepth
			}
		case ']', '}':
			level--
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				switch c := text[i]; {
				case c == '\\':
					i++
				case c == '<' || c == '>' || c == '&':
					dst = append(dst, text[start:i]...)
					dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
					start = i + 1
				case c >= utf8.RuneSelf:
					r, size := utf8.DecodeRuneInString(text[i:])
					switch {
					case r == utf8.RuneError && size == 1:
						dst = append(dst, text[start:i]...)
						dst = append(dst, `\ufffd`...)
						start = i + 1
					case r == '\u2028' || r == '\u2029':
						dst = append(dst, text[start:i]...)
						dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
						start = i + size
						i += size - 1
					default:
						i += size - 1
					}
				}
			}
		}
	}
	return append(dst, text[start:]...), nil
}

// validUTF8 returns s with each byte that is not valid UTF-8 replaced by
// U+FFFD, as encoding/json decodes strings. It allocates only when it must.
func validUTF8(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) || utf8.ValidString(s[i:]) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, s[:i]...)
	for i < len(s) {
		var size int
		b, size = appendRuneOrFFFD(b, s[i:])
		i += size
	}
	return string(b)
}
