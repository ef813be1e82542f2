package rules

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// A Transformer changes a field's value after its conversion and before
// its checks: the checks judge what it returns, and the field writes it.
// A Def whose Transform is set defines one (`trim`, `lower`, `upper`).
//
// Transform is given the value and a buffer it may append new text to; it
// returns the new value (whose Str may view what it appended), the buffer
// as grown, and an error when the value cannot be transformed, which is
// the field's error as a failing check's is. Like a Checker it is called
// concurrently and must not modify itself, and v is lent: the buffer and
// v.Str are valid only until the field is written. A value it does not
// change it returns as it is, with buf unchanged, so that the common case
// allocates nothing.
type Transformer interface {
	Transform(v Value, buf []byte) (Value, []byte, error)
}

// StringTransformer is implemented by Transformers that can change a
// string without a Value around it: TransformString(s, buf) must give what
// Transform(StringValue(s), buf) gives. The entity package uses it on its
// fast path for string fields; the built-in transforms implement it.
type StringTransformer interface {
	TransformString(s string, buf []byte) (string, []byte)
}

// stringTransform is a built-in transform of strings: other kinds of value
// (on a none field) pass unchanged.
type stringTransform func(s string, buf []byte) (string, []byte)

// Transform implements Transformer.
func (f stringTransform) Transform(v Value, buf []byte) (Value, []byte, error) {
	if v.Kind != String {
		return v, buf, nil
	}
	s, buf := f(v.Str, buf)
	if s != v.Str || len(s) != len(v.Str) {
		v = Value{Kind: String, Str: s}
	}
	return v, buf, nil
}

// TransformString implements StringTransformer.
func (f stringTransform) TransformString(s string, buf []byte) (string, []byte) { return f(s, buf) }

// stringTransformRule returns the Transform function of a built-in string
// transform, which takes no arguments.
func stringTransformRule(name string, f stringTransform) func([]string, Kind) (Transformer, error) {
	return func(args []string, _ Kind) (Transformer, error) {
		if err := wantArgs(name, args, 0); err != nil {
			return nil, err
		}
		return f, nil
	}
}

// trimSpace removes leading and trailing white space, as strings.TrimSpace.
func trimSpace(s string, buf []byte) (string, []byte) { return strings.TrimSpace(s), buf }

// toLower maps s to lower case, rune by rune as strings.ToLower does.
func toLower(s string, buf []byte) (string, []byte) {
	return mapCase(s, buf, unicode.ToLower, 'A', 'Z')
}

// toUpper maps s to upper case, rune by rune as strings.ToUpper does.
func toUpper(s string, buf []byte) (string, []byte) {
	return mapCase(s, buf, unicode.ToUpper, 'a', 'z')
}

// mapCase maps every rune of s with to, appending the result to buf. A
// string that the mapping leaves as it is (ASCII without a letter in
// lo..hi, the common case) is returned itself, buf untouched. Invalid UTF-8
// becomes U+FFFD, as JSON writes it.
func mapCase(s string, buf []byte, to func(rune) rune, lo, hi byte) (string, []byte) {
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || lo <= c && c <= hi {
			break
		}
	}
	if i == len(s) {
		return s, buf
	}
	start := len(buf)
	buf = append(buf, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if lo <= c && c <= hi {
				c ^= 0x20
			}
			buf = append(buf, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		buf = utf8.AppendRune(buf, to(r))
		i += size
	}
	return unsafeString(buf[start:]), buf
}

// The hooks of the transforms: a string that the transform leaves as it
// is. They add nothing to a JSON Schema.

func lowerSample(_ []string, declared Kind) any { return sampleOf(declared, "sample") }
func upperSample(_ []string, declared Kind) any { return sampleOf(declared, "SAMPLE") }

func sampleOf(declared Kind, s string) any {
	if declared == String || declared == Any {
		return s
	}
	return nil
}

// unsafeString views b as a string without copying: the Transformer
// contract makes the result valid only while the buffer is.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
