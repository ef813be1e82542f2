package bench

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"
)

// This file is the baseline of the raw-input speed target: what a
// careful Go developer would write by hand, with gjson, to turn the raw
// JSON of a `users` payload into the entity's JSON, for that one shape:
//
//	user:  id number `num | rename 'number'`, name string `req`,
//	       details { age number `num`, mail string `email` },
//	       code string `default 'unknown'`
//	users: offset number `default 0`, limit number `default 0`, list $user
//
// It validates the input once, then walks each object once with ForEach,
// keeping the last value of each key it reads (a key that comes twice keeps
// its last value, as encoding/json does), and writes with strconv.Append*
// into the caller's buffer. The values convert as encoding/json.Unmarshal
// into a map and the library's conversions would have them: a JSON number
// is a float64 (gjson has already parsed it: Result.Num), a string is
// gjson's unescaped text (Result.Str).
//
// It shares the shape-specific helpers of handwritten.go (parseInt,
// appendFloat, isEmail, Errors, the plain table), which a developer writing
// both functions would write once.

// Errors of HandwrittenGJSON on input that is not a users payload.
var (
	ErrGJSONInvalid   = errors.New("users: the body is not valid JSON")
	ErrGJSONNotObject = errors.New("users: the body is not a JSON object")
)

// HandwrittenGJSON appends to dst the JSON of the `users` entity made from
// raw, a JSON object, exactly as (*entity.Entity).AppendJSON does for the
// same bytes. On error dst is returned as it was given: the error is
// ErrGJSONInvalid or ErrGJSONNotObject for input that is not a JSON object,
// and an Errors listing every failing field otherwise.
//
// raw must not share memory with dst's spare capacity: it is read in place.
// A top-level JSON array, which the library reads as a list of users
// payloads, is not this shape and is refused.
func HandwrittenGJSON(dst []byte, raw []byte) ([]byte, error) {
	if !gjson.ValidBytes(raw) {
		return dst, ErrGJSONInvalid
	}
	// Read the bytes in place: nothing read outlives this call.
	top := gjson.Parse(unsafe.String(unsafe.SliceData(raw), len(raw)))
	if !top.IsObject() {
		return dst, ErrGJSONNotObject
	}
	var offset, limit, list gjson.Result
	top.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "offset":
			offset = v
		case "limit":
			limit = v
		case "list":
			list = v
		}
		return true
	})

	start := len(dst)
	var errs Errors
	dst = append(dst, `{"offset":`...)
	dst = appendGJSONIntDefault(dst, offset)
	dst = append(dst, `,"limit":`...)
	dst = appendGJSONIntDefault(dst, limit)
	dst = append(dst, `,"list":`...)
	switch {
	case list.IsArray():
		dst = append(dst, '[')
		in, out := 0, 0
		list.ForEach(func(_, u gjson.Result) bool {
			if u.IsObject() { // anything else is skipped, as in a $ref list
				if out > 0 {
					dst = append(dst, ',')
				}
				dst = appendGJSONUser(dst, u, in, out, &errs)
				out++
			}
			in++
			return true
		})
		dst = append(dst, ']')
	case list.IsObject():
		dst = appendGJSONUser(dst, list, -1, -1, &errs)
	default:
		dst = append(dst, "null"...)
	}
	dst = append(dst, '}')
	if errs != nil {
		return dst[:start], errs
	}
	return dst, nil
}

// appendGJSONUser writes one `user` object read from u, a JSON object at
// input index idx and output index out (both -1 when list held a single
// object).
func appendGJSONUser(dst []byte, u gjson.Result, idx, out int, errs *Errors) []byte {
	var id, name, age, mail, code gjson.Result
	u.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "id":
			id = v
		case "name":
			name = v
		case "age":
			age = v
		case "mail":
			mail = v
		case "code":
			code = v
		}
		return true
	})

	// id: number, num, rename 'number'. Every value that converts to a
	// number field is a number, so `num` never fails.
	dst = append(dst, `{"number":`...)
	dst = appendGJSONInt(dst, id)

	// name: string, req.
	dst = append(dst, `,"name":`...)
	var ok bool
	if dst, ok = appendGJSONText(dst, name); !ok {
		errs.add(idx, out, "name", "", "name", "req", msgReq)
		dst = append(dst, "null"...)
	}

	// details { age: number, num; mail: string, email }.
	dst = append(dst, `,"details":{"age":`...)
	dst = appendGJSONInt(dst, age)
	dst = append(dst, `,"mail":`...)
	switch mail.Type {
	case gjson.String:
		if !isEmailJSON(mail.Str) {
			errs.add(idx, out, "mail", "details", "mail", "email", msgEmail)
		}
		dst = appendDecodedString(dst, mail.Str)
	case gjson.Number, gjson.True, gjson.False:
		// Converted to text, a number or a bool never holds an '@'.
		errs.add(idx, out, "mail", "details", "mail", "email", msgEmail)
	default: // null, absent, an object or a list
		dst = append(dst, "null"...)
	}

	// code: string, default 'unknown'.
	dst = append(dst, `},"code":`...)
	if dst, ok = appendGJSONText(dst, code); !ok {
		dst = append(dst, `"unknown"`...)
	}
	return append(dst, '}')
}

// appendGJSONIntDefault writes a number field with `default 0`.
func appendGJSONIntDefault(dst []byte, v gjson.Result) []byte {
	if n, ok := gjsonInt(v); ok {
		return strconv.AppendInt(dst, n, 10)
	}
	return append(dst, '0')
}

// appendGJSONInt writes a number field without a default: null when v does
// not convert.
func appendGJSONInt(dst []byte, v gjson.Result) []byte {
	if n, ok := gjsonInt(v); ok {
		return strconv.AppendInt(dst, n, 10)
	}
	return append(dst, "null"...)
}

// gjsonInt converts a JSON value to a number field's int64: a number as the
// float64 encoding/json reads, truncated toward zero, null when NaN, ±Inf
// (1e400) or outside int64; a numeric string as parseInt reads it; nothing
// else.
func gjsonInt(v gjson.Result) (int64, bool) {
	switch v.Type {
	case gjson.Number:
		f := v.Num
		if f != f || f < -9223372036854775808.0 || f >= 9223372036854775808.0 {
			return 0, false
		}
		return int64(f), true
	case gjson.String:
		return parseInt(v.Str)
	}
	return 0, false
}

// appendGJSONText writes v converted to a string field: a string as it is,
// a number as JavaScript spells its float64, a bool as "true" or "false".
// When v does not convert (null, absent, an object, a list), nothing is
// written and ok is false.
func appendGJSONText(dst []byte, v gjson.Result) (_ []byte, ok bool) {
	switch v.Type {
	case gjson.String:
		return appendDecodedString(dst, v.Str), true
	case gjson.Number:
		// Not v.Raw: 1.50 is "1.5" and 1e400 (+Inf) does not convert.
		if v.Num-v.Num != 0 { // ±Inf
			return dst, false
		}
		dst = append(dst, '"')
		return append(appendFloat(dst, v.Num), '"'), true
	case gjson.True:
		return append(dst, `"true"`...), true
	case gjson.False:
		return append(dst, `"false"`...), true
	}
	return dst, false
}

// isEmailJSON is the `email` rule on a string read from JSON. gjson keeps
// invalid UTF-8 as it is where encoding/json decodes each bad byte as
// U+FFFD; the rule judges the decoded text.
func isEmailJSON(s string) bool {
	if isEmail(s) {
		return true
	}
	return !utf8.ValidString(s) && isEmail(strings.ToValidUTF8(s, "\uFFFD"))
}

// appendDecodedString writes s, a string gjson read from JSON, as a quoted
// JSON string, as encoding/json would after decoding it: as appendString
// does, except that each byte of invalid UTF-8 is written as the rune
// U+FFFD, which encoding/json.Unmarshal would have decoded it to (gjson
// keeps the byte).
func appendDecodedString(dst []byte, s string) []byte {
	return appendQuoted(dst, s, "\uFFFD")
}
