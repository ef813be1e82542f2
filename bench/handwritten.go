package bench

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file is the baseline the first speed target is measured
// against: what a careful Go developer would write by hand for the seed's
// `users` shape and nothing else. It does the declaration's whole job:
//
//	user:  id number `num | rename 'number'`, name string `req`,
//	       details { age number `num`, mail string `email` },
//	       code string `default 'unknown'`
//	users: offset number `default 0`, limit number `default 0`, list $user
//
// with the same conversions, the same checks (as strict as the library's
// rules) and the same error reports, writing with strconv.Append* into the
// caller's buffer, building no map. It handles the value types this shape
// meets: the seed's Go literals (string, int) and everything
// encoding/json.Unmarshal produces (float64, bool, nil, []any,
// map[string]any), plus int64 and []map[string]any. A value of any other
// type is taken as one that does not convert, as hand-written code would.

// FieldError is one failing field, reported as entity.FieldError reports it.
type FieldError struct {
	Path, OutputPath, Rule, Message string
}

// Errors lists every failing field; it is the error of AppendUsers and
// NaiveMap.
type Errors []FieldError

func (e Errors) Error() string {
	var b strings.Builder
	b.WriteString("users: ")
	b.WriteString(strconv.Itoa(len(e)))
	b.WriteString(" fields failed:")
	for _, f := range e {
		b.WriteString(" ")
		b.WriteString(f.Path)
		b.WriteString(": ")
		b.WriteString(f.Message)
		b.WriteString(" (")
		b.WriteString(f.Rule)
		b.WriteString(");")
	}
	return b.String()
}

// The messages of the library's rules.
const (
	msgReq   = "is required"
	msgEmail = "must be a valid email address"
)

// add records a failing field of the user at input index idx and output
// index out (both -1 when list held a single object). The paths are built
// here, only on failure.
func (e *Errors) add(idx, out int, in, group, key, rule, msg string) {
	p, op := "list", "list"
	if idx >= 0 {
		p += "[" + strconv.Itoa(idx) + "]"
		op += "[" + strconv.Itoa(out) + "]"
	}
	p += "." + in
	if group != "" {
		op += "." + group
	}
	op += "." + key
	*e = append(*e, FieldError{Path: p, OutputPath: op, Rule: rule, Message: msg})
}

// AppendUsers appends the JSON of the `users` entity made from in to dst,
// exactly as (*entity.Entity).AppendJSON does. On error, dst is returned as
// it was given and the error is an Errors listing every failing field.
func AppendUsers(dst []byte, in map[string]any) ([]byte, error) {
	start := len(dst)
	var errs Errors
	dst = append(dst, `{"offset":`...)
	dst = appendIntDefault(dst, in["offset"])
	dst = append(dst, `,"limit":`...)
	dst = appendIntDefault(dst, in["limit"])
	dst = append(dst, `,"list":`...)
	switch l := in["list"].(type) {
	case []any:
		dst = append(dst, '[')
		out := 0
		for i, e := range l {
			u, ok := e.(map[string]any)
			if !ok {
				continue // not an object: skipped, as in a $ref list
			}
			if out > 0 {
				dst = append(dst, ',')
			}
			dst = appendUser(dst, u, i, out, &errs)
			out++
		}
		dst = append(dst, ']')
	case []map[string]any:
		dst = append(dst, '[')
		for i, u := range l {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendUser(dst, u, i, i, &errs)
		}
		dst = append(dst, ']')
	case map[string]any:
		dst = appendUser(dst, l, -1, -1, &errs)
	default:
		dst = append(dst, "null"...)
	}
	dst = append(dst, '}')
	if errs != nil {
		return dst[:start], errs
	}
	return dst, nil
}

// appendIntDefault writes a number field with `default 0`.
func appendIntDefault(dst []byte, v any) []byte {
	n, ok := toInt(v)
	if !ok {
		return append(dst, '0')
	}
	return strconv.AppendInt(dst, n, 10)
}

// appendUser writes one `user` object.
func appendUser(dst []byte, u map[string]any, idx, out int, errs *Errors) []byte {
	// id: number, num, rename 'number'. The `num` rule judges only a
	// value that converted, and every value that converts to a number
	// field is a number, so it never fails here (the conversion table says so).
	dst = append(dst, `{"number":`...)
	n, ok := toInt(u["id"])
	if ok {
		dst = strconv.AppendInt(dst, n, 10)
	} else {
		dst = append(dst, "null"...)
	}

	// name: string, req.
	dst = append(dst, `,"name":`...)
	var isText bool
	if dst, isText = appendText(dst, u["name"]); !isText {
		errs.add(idx, out, "name", "", "name", "req", msgReq)
	}

	// details { age: number, num; mail: string, email }.
	dst = append(dst, `,"details":{"age":`...)
	if n, ok = toInt(u["age"]); ok {
		dst = strconv.AppendInt(dst, n, 10)
	} else {
		dst = append(dst, "null"...)
	}
	dst = append(dst, `,"mail":`...)
	mail := u["mail"]
	if s, ok := mail.(string); ok {
		if !isEmail(s) {
			errs.add(idx, out, "mail", "details", "mail", "email", msgEmail)
		}
		dst = appendString(dst, s)
	} else if dst, isText = appendText(dst, mail); isText {
		// A number or a bool converted to text never holds an '@'.
		errs.add(idx, out, "mail", "details", "mail", "email", msgEmail)
	} else {
		dst = append(dst, "null"...)
	}

	// code: string, default 'unknown'.
	dst = append(dst, `},"code":`...)
	if dst, isText = appendText(dst, u["code"]); !isText {
		dst = append(dst, `"unknown"`...)
	}
	return append(dst, '}')
}

// appendText writes v converted to a string field as the library converts
// it. When v does not convert, nothing is written and ok is false.
func appendText(dst []byte, v any) (_ []byte, ok bool) {
	switch v := v.(type) {
	case string:
		return appendString(dst, v), true
	case int:
		dst = append(dst, '"')
		return append(strconv.AppendInt(dst, int64(v), 10), '"'), true
	case int64:
		dst = append(dst, '"')
		return append(strconv.AppendInt(dst, v, 10), '"'), true
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return dst, false
		}
		dst = append(dst, '"')
		return append(appendFloat(dst, v), '"'), true
	case bool:
		if v {
			return append(dst, `"true"`...), true
		}
		return append(dst, `"false"`...), true
	}
	return dst, false
}

// toInt converts v to a number field's int64; ok false means null.
func toInt(v any) (n int64, ok bool) {
	switch v := v.(type) {
	case string:
		return parseInt(v)
	case int:
		return int64(v), true
	case int64:
		return v, true
	case float64:
		if math.IsNaN(v) || v < -9223372036854775808.0 || v >= 9223372036854775808.0 {
			return 0, false
		}
		return int64(v), true
	}
	return 0, false
}

// parseInt converts a numeric string -?digits(.digits)?, truncated toward
// zero; anything else, or a value outside int64, is null.
func parseInt(s string) (int64, bool) {
	i := 0
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		i++
	}
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	start := i
	var u uint64
	for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		d := uint64(s[i] - '0')
		if u > (limit-d)/10 {
			return 0, false
		}
		u = u*10 + d
	}
	if i == start {
		return 0, false
	}
	if i < len(s) {
		if s[i] != '.' {
			return 0, false
		}
		i++
		frac := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if i == frac || i != len(s) {
			return 0, false
		}
	}
	if neg {
		return int64(-u), true
	}
	return int64(u), true
}

// isEmail is the `email` rule: exactly one '@'; a non-empty local part of
// valid UTF-8 without spaces or control characters; a domain of at least
// two dot-separated labels of ASCII letters, digits and hyphens, none
// empty, none starting or ending with a hyphen.
func isEmail(s string) bool {
	at := strings.IndexByte(s, '@')
	if at <= 0 {
		return false
	}
	for i := 0; i < at; {
		c := s[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:at])
		if r == utf8.RuneError && size == 1 || unicode.IsSpace(r) || unicode.IsControl(r) {
			return false
		}
		i += size
	}
	dots, label := 0, at+1
	for i := at + 1; i <= len(s); i++ {
		if i < len(s) {
			c := s[i]
			if c != '.' {
				if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
					return false // '@' too: only one is allowed
				}
				continue
			}
		}
		if i == label || s[label] == '-' || s[i-1] == '-' {
			return false
		}
		if i < len(s) {
			dots++
		}
		label = i + 1
	}
	return dots > 0
}

// appendFloat writes f as encoding/json and JavaScript do: 0.1, 1e+21.
func appendFloat(dst []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// plain[c] is true for the bytes encoding/json writes unescaped in a
// string (HTML escaping on, as json.Marshal has it); bytes of multi-byte
// UTF-8 are false and take the slow path.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendString writes s as a quoted JSON string escaped as encoding/json
// escapes it: HTML-safe, U+2028 and U+2029 escaped, invalid UTF-8 as
// U+FFFD.
func appendString(dst []byte, s string) []byte {
	return appendQuoted(dst, s, `\ufffd`)
}

// appendQuoted writes s as a quoted JSON string, HTML-safe, U+2028 and
// U+2029 escaped, each byte of invalid UTF-8 written as bad.
func appendQuoted(dst []byte, s, bad string) []byte {
	dst = append(dst, '"')
	i := 0
	for i < len(s) && plain[s[i]] {
		i++
	}
	if i == len(s) {
		dst = append(dst, s...)
		return append(dst, '"')
	}
	const hex = "0123456789abcdef"
	start := 0
	for i < len(s) {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, bad...)
			start = i + 1
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
			start = i + size
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
