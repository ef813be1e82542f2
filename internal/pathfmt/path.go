// Package pathfmt writes the places of values inside a JSON document: the
// paths of package entity's FieldError (Path and OutputPath) and of the
// messages of package entitytest, and the tokens of RFC 6901 JSON Pointers
// (FieldError's Pointer).
//
// A path is keys joined by dots, list indexes in brackets, and a key that a
// dot would make ambiguous (one that is empty or holds '.', '[' or ']') as
// a JSON string in brackets:
//
//	list[1].details.mail
//	[0].name
//	meta["a.b"].x
//
// A path is built step by step into a byte slice: its first step with
// AppendFirstKey or AppendIndex, each further step with AppendKey or
// AppendIndex. None of them allocates beyond growing dst.
package pathfmt

import (
	"strconv"

	"github.com/expose-go/expose/internal/jsonwire"
)

// AppendKey appends a step into the object key to the path in dst, as
// a step after another: ".key", or `["key"]` when the key needs quoting.
func AppendKey(dst []byte, key string) []byte {
	if plainPathKey(key) {
		dst = append(dst, '.')
		return append(dst, key...)
	}
	return appendQuotedPathKey(dst, key)
}

// AppendFirstKey appends the first step of a path, into the object key:
// "key", or `["key"]` when the key needs quoting.
func AppendFirstKey(dst []byte, key string) []byte {
	if plainPathKey(key) {
		return append(dst, key...)
	}
	return appendQuotedPathKey(dst, key)
}

// AppendIndex appends a step into the list index i: "[i]". It is the
// same at the start of a path and after another step.
func AppendIndex(dst []byte, i int) []byte {
	dst = append(dst, '[')
	dst = strconv.AppendInt(dst, int64(i), 10)
	return append(dst, ']')
}

// plainPathKey reports whether key is written as it is in a path.
func plainPathKey(key string) bool {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c == '.' || c == '[' || c == ']' {
			return false
		}
	}
	return key != ""
}

// appendQuotedPathKey appends `["key"]`, the key quoted as JSON writes it.
func appendQuotedPathKey(dst []byte, key string) []byte {
	dst = append(dst, '[')
	dst = jsonwire.AppendString(dst, key)
	return append(dst, ']')
}

// AppendPointerToken appends "/" and name, a JSON Pointer's reference
// token, escaped as RFC 6901 says: ~ as ~0 and / as ~1.
func AppendPointerToken(b []byte, name string) []byte {
	b = append(b, '/')
	for i := 0; i < len(name); i++ {
		switch c := name[i]; c {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, c)
		}
	}
	return b
}
