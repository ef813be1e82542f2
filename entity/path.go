package entity

import "strconv"

// Paths name a value inside a JSON document, as FieldError's Path and
// OutputPath and the messages of package entitytest write them: keys joined
// by dots, list indexes in brackets, and a key that a dot would make
// ambiguous (one that is empty or holds '.', '[' or ']') as a JSON string
// in brackets:
//
//	list[1].details.mail
//	[0].name
//	meta["a.b"].x
//
// A path is built step by step into a byte slice: its first step with
// AppendPathFirstKey or AppendPathIndex, each further step with
// AppendPathKey or AppendPathIndex. None of them allocates beyond growing
// dst.

// AppendPathKey appends a step into the object key to the path in dst, as
// a step after another: ".key", or `["key"]` when the key needs quoting.
func AppendPathKey(dst []byte, key string) []byte {
	if plainPathKey(key) {
		dst = append(dst, '.')
		return append(dst, key...)
	}
	return appendQuotedPathKey(dst, key)
}

// AppendPathFirstKey appends the first step of a path, into the object key:
// "key", or `["key"]` when the key needs quoting.
func AppendPathFirstKey(dst []byte, key string) []byte {
	if plainPathKey(key) {
		return append(dst, key...)
	}
	return appendQuotedPathKey(dst, key)
}

// AppendPathIndex appends a step into the list index i: "[i]". It is the
// same at the start of a path and after another step.
func AppendPathIndex(dst []byte, i int) []byte {
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
	dst = appendString(dst, key)
	return append(dst, ']')
}
