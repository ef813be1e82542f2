package entity

import (
	"errors"
	"sync"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// Raw JSON input: a []byte or json.RawMessage holding an object or an array
// of objects is read with gjson, one pass per object, without building a
// map. The whole input is validated once before anything is read, so a
// malformed body is a clear error and nothing is written.

// InputError is an error in the client's input itself rather than in one of
// its fields: JSON that does not parse, a body too large, a request with a
// method the entity does not take. StatusCode gives the HTTP status Write
// answers with.
type InputError struct {
	Status int    // 400, 405, 413…
	Msg    string // what is wrong, safe to show the client
	Err    error  // the underlying error, if any
	Allow  string // for 405: the methods allowed, for the Allow header
}

// Error returns "entity: " and the message.
func (e *InputError) Error() string { return "entity: " + e.Msg }

// StatusCode returns the HTTP status for the error.
func (e *InputError) StatusCode() int { return e.Status }

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }

// ErrInvalidJSON is wrapped by the InputError for input that is not valid
// JSON, or not a JSON object or array of objects.
var ErrInvalidJSON = errors.New("entity: invalid JSON")

// jval is one value of a JSON object, as gjson found it.
type jval struct {
	typ gjson.Type
	set bool
	raw string // the value's text
	str string // String values: the text unescaped
}

// jsonObject holds the values of one JSON object that an entity reads, by
// slot. It lives on the stack; entities reading more than 16 distinct input
// keys spill to a slice.
type jsonObject struct {
	vals [16]jval
	more []jval
}

// fill reads the object text once, keeping the values of the keys e reads.
// A key that comes twice keeps its last value, as encoding/json does.
func (o *jsonObject) fill(text string, e *Entity) {
	clear(o.vals[:min(e.nslots, len(o.vals))])
	if e.nslots > len(o.vals) {
		if len(o.more) < e.nslots-len(o.vals) {
			o.more = make([]jval, e.nslots-len(o.vals))
		}
		clear(o.more)
	}
	gjson.Parse(text).ForEach(func(k, v gjson.Result) bool {
		if i, ok := e.slots[k.Str]; ok {
			jv := jval{typ: v.Type, set: true, raw: v.Raw, str: v.Str}
			if i < len(o.vals) {
				o.vals[i] = jv
			} else {
				o.more[i-len(o.vals)] = jv
			}
		}
		return true
	})
}

// has reports whether the object holds a value (null included) in slot i.
func (o *jsonObject) has(i int) bool {
	if i < len(o.vals) {
		return o.vals[i].set
	}
	return o.more[i-len(o.vals)].set
}

// get returns the value in slot i.
func (o *jsonObject) get(i int) raw {
	jv := &o.vals[0]
	if i < len(o.vals) {
		jv = &o.vals[i]
	} else {
		jv = &o.more[i-len(o.vals)]
	}
	if !jv.set {
		return raw{}
	}
	switch jv.typ {
	case gjson.String:
		return raw{kind: rawStr, s: jv.str}
	case gjson.Number:
		return raw{kind: rawNum, s: jv.raw}
	case gjson.True:
		return raw{a: true}
	case gjson.False:
		return raw{a: false}
	case gjson.JSON:
		return raw{kind: rawJSON, s: jv.raw}
	}
	return raw{}
}

// jsonStack lends the jsonObjects of one run: one per level of nesting
// being read, reused level by level. It comes from a pool, so that reading
// raw JSON allocates nothing once warm. (A jsonObject on the stack would
// escape anyway: sources are also read through reflection, and escape
// analysis does not tell their fields apart.)
type jsonStack struct {
	objs []*jsonObject
	used int
}

var jsonStackPool = sync.Pool{New: func() any { return new(jsonStack) }}

// takeJSON returns a jsonObject filled from text for e; release it with
// releaseJSON, innermost first.
func (r *run) takeJSON(text string, e *Entity) *jsonObject {
	if r.js == nil {
		r.js = jsonStackPool.Get().(*jsonStack)
	}
	st := r.js
	if st.used == len(st.objs) {
		st.objs = append(st.objs, new(jsonObject))
	}
	o := st.objs[st.used]
	st.used++
	o.fill(text, e)
	return o
}

// releaseJSON gives back the innermost jsonObject taken.
func (r *run) releaseJSON() { r.js.used-- }

// putJSON returns the run's jsonStack to its pool.
func (r *run) putJSON() {
	if r.js != nil {
		r.js.used = 0
		jsonStackPool.Put(r.js)
		r.js = nil
	}
}

// parseTop validates raw JSON input and returns its text, trimmed.
func parseTop(b []byte) (string, error) {
	if !gjson.ValidBytes(b) {
		return "", &InputError{Status: 400, Msg: "the body is not valid JSON", Err: ErrInvalidJSON}
	}
	s := trimSpace(bytesString(b))
	if s == "" || s[0] != '{' && s[0] != '[' {
		return "", &InputError{Status: 400, Msg: "the body is not a JSON object or array", Err: ErrInvalidJSON}
	}
	return s, nil
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

// countJSON returns the number of elements of a JSON array or members of a
// JSON object.
func countJSON(text string) int {
	n := 0
	gjson.Parse(text).ForEach(func(_, _ gjson.Result) bool {
		n++
		return true
	})
	return n
}

// appendCompact appends valid JSON text without its insignificant white
// space, as encoding/json.Compact does. Strings are copied as they are,
// escapes included, except that invalid UTF-8 is replaced with \ufffd as
// encoding/json does.
func appendCompact(dst []byte, text string) []byte {
	start := 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case ' ', '\t', '\n', '\r':
			dst = append(dst, text[start:i]...)
			start = i + 1
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				switch {
				case text[i] == '\\':
					i++
				case text[i] >= utf8.RuneSelf:
					r, size := utf8.DecodeRuneInString(text[i:])
					if r == utf8.RuneError && size == 1 {
						dst = append(dst, text[start:i]...)
						dst = append(dst, `\ufffd`...)
						start = i + 1
					} else {
						i += size - 1
					}
				}
			}
		}
	}
	return append(dst, text[start:]...)
}
