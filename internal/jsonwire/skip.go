package jsonwire

import "slices"

// White space, and the walkers of valid JSON text: they trust the text
// (the validator of package jsontape accepted it, or this package's writer
// wrote it), so they check no syntax and find each end with as few reads
// as they can.

// IsSpace reports whether c is JSON white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the offset of the first byte at or after i that is not
// white space. Valid text does not end in the middle of a value, so it
// stops before its end.
func SkipSpace[T ~string | ~[]byte](s T, i int) int {
	for IsSpace(s[i]) {
		i++
	}
	return i
}

// TrimLeftSpace returns s without its leading white space.
func TrimLeftSpace(s string) string {
	for len(s) > 0 && IsSpace(s[0]) {
		s = s[1:]
	}
	return s
}

// TrimSpace returns s without its leading and trailing white space.
func TrimSpace(s string) string {
	for len(s) > 0 && IsSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && IsSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// StringEnd returns the offset after the string literal at s[i:], and
// whether the literal is plain: no escapes, all ASCII, so that its content
// is its value.
func StringEnd[T ~string | ~[]byte](s T, i int) (int, bool) {
	// To the first quote, backslash or non-ASCII byte (valid text holds
	// no control character in a string).
	if i = Plain(s, i+1, StopNonASCII); s[i] == '"' {
		return i + 1, true
	}
	for ; s[i] != '"'; i++ {
		if s[i] == '\\' {
			i++
		}
	}
	return i + 1, false
}

// QuoteEnd returns the offset after the string literal at s[i:], as
// StringEnd does, without telling whether it is plain: the walkers step
// over the literals they do not read with it.
func QuoteEnd[T ~string | ~[]byte](s T, i int) int {
	// From the byte after the quote, then after each escape's two bytes,
	// to the first quote or backslash (valid text has no control
	// character in a string).
	for i++; ; i += 2 {
		if i = Plain(s, i, StopUnsafe); s[i] == '"' {
			return i + 1
		}
	}
}

// ScalarEnd returns the offset after the number or literal at s[i:].
func ScalarEnd[T ~string | ~[]byte](s T, i int) int {
	for i++; i < len(s); i++ {
		switch c := s[i]; {
		case IsDigit(c), c == '.', c == 'e', c == 'E', c == '+', c == '-', 'a' <= c && c <= 'z':
		default:
			return i
		}
	}
	return i
}

// NestedEnd returns the offset after the object or array at s[i:], found by
// scanning it (for the readers that have no tape at hand).
func NestedEnd[T ~string | ~[]byte](s T, i int) int {
	level := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '[', '{':
			level++
		case ']', '}':
			if level--; level == 0 {
				return i + 1
			}
		case '"': // to its closing quote, past escapes
			for i++; ; i += 2 {
				if i = Plain(s, i, StopUnsafe); s[i] == '"' {
					break
				}
			}
		}
	}
	return i
}

// ValueEnd returns the offset after the value at s[i:].
func ValueEnd[T ~string | ~[]byte](s T, i int) int {
	switch s[i] {
	case '"':
		for i++; ; i += 2 { // as QuoteEnd
			if i = Plain(s, i, StopUnsafe); s[i] == '"' {
				return i + 1
			}
		}
	case '{', '[':
		return NestedEnd(s, i)
	}
	return ScalarEnd(s, i)
}

// Count returns the number of elements of a JSON array or of distinct
// keys of a JSON object (a key that comes twice counts once, as in the map
// encoding/json would decode it to).
func Count(text string) int {
	count := 0
	var keys []string
	var small [16]string
	if text[0] == '{' {
		keys = small[:0]
	}
	for i := SkipSpace(text, 1); text[i] != ']' && text[i] != '}'; {
		count++
		if text[0] == '{' {
			end, plain := StringEnd(text, i)
			key := text[i+1 : end-1]
			if !plain {
				key = Unquote(text[i:end])
			}
			keys = append(keys, key)
			i = SkipSpace(text, SkipSpace(text, end)+1) // the colon
		}
		if i = SkipSpace(text, ValueEnd(text, i)); text[i] == ',' {
			i = SkipSpace(text, i+1)
		}
	}
	if len(keys) > 1 {
		slices.Sort(keys)
		count = len(slices.Compact(keys))
	}
	return count
}

// Elements steps through the values of a JSON array's compact, valid
// text (text this package's writer wrote: no white space):
//
//	for el := (jsonwire.Elements{Data: text}); el.Next(); {
//		use(el.Val)
//	}
type Elements struct {
	Data []byte // the array's text
	Val  []byte // the current value's text
	pos  int
}

// Next moves to the next value and reports whether there is one.
func (it *Elements) Next() bool {
	d := it.Data
	if it.pos == 0 {
		it.pos = 1
	}
	if it.pos >= len(d) || d[it.pos] == ']' {
		return false
	}
	if d[it.pos] == ',' {
		it.pos++
	}
	end := ValueEnd(d, it.pos)
	it.Val = d[it.pos:end]
	it.pos = end
	return true
}
