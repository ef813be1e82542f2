package entity_test

// The reference model's JSON: a small reader that keeps each value's text
// (raw JSON input passes objects, arrays and numbers through as written),
// the ordered output value the model builds, and its encoder. Nothing here
// is shared with the library: it is written from the README's Inputs and
// Conversion table sections.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// mdlJKind is the kind of one raw JSON value.
type mdlJKind uint8

const (
	mdlJNull mdlJKind = iota
	mdlJBool
	mdlJNum
	mdlJStr
	mdlJArr
	mdlJObj
)

// mdlJSON is one value of raw JSON input, as the model reads it: what
// json.Unmarshal into an any would give (numbers as float64, a number beyond
// float64's range as ±Inf, duplicate keys: the last wins), and the value's
// own text, which none, list and object fields pass through compacted.
type mdlJSON struct {
	kind mdlJKind
	raw  []byte
	b    bool
	f    float64
	s    string
	arr  []*mdlJSON
	keys []string // distinct keys, in first-seen order
	// lastKeys are the same keys in the order of their last places
	lastKeys []string
	// hidden are the keys an Object holds that its JSON does not show:
	// the writeonly values of a request's Object (Keys, Get and Map see
	// them, MarshalJSON does not)
	hidden []string
	obj    map[string]*mdlJSON
}

// mdlParseJSON reads one JSON value (the whole of text). It is a plain
// recursive reader: the model's inputs are small.
func mdlParseJSON(text []byte) (*mdlJSON, error) {
	p := &mdlJParser{s: text}
	p.ws()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.s) {
		return nil, errors.New("model: trailing bytes after the JSON value")
	}
	return v, nil
}

type mdlJParser struct {
	s []byte
	i int
}

func (p *mdlJParser) ws() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

var errMdlJSON = errors.New("model: invalid JSON")

func (p *mdlJParser) value(depth int) (*mdlJSON, error) {
	if depth > 10000 || p.i >= len(p.s) {
		return nil, errMdlJSON
	}
	start := p.i
	v := &mdlJSON{}
	switch c := p.s[p.i]; {
	case c == '{':
		v.kind = mdlJObj
		v.obj = map[string]*mdlJSON{}
		p.i++
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			break
		}
		for {
			p.ws()
			k, err := p.value(depth + 1)
			if err != nil || k.kind != mdlJStr {
				return nil, errMdlJSON
			}
			p.ws()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, errMdlJSON
			}
			p.i++
			p.ws()
			e, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			if _, ok := v.obj[k.s]; !ok {
				v.keys = append(v.keys, k.s)
			}
			v.lastKeys = append(mdlRemove(v.lastKeys, k.s), k.s)
			v.obj[k.s] = e
			p.ws()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				break
			}
			return nil, errMdlJSON
		}
	case c == '[':
		v.kind = mdlJArr
		v.arr = []*mdlJSON{}
		p.i++
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			break
		}
		for {
			p.ws()
			e, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.arr = append(v.arr, e)
			p.ws()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				break
			}
			return nil, errMdlJSON
		}
	case c == '"':
		p.i++
		for p.i < len(p.s) && p.s[p.i] != '"' {
			if p.s[p.i] == '\\' {
				p.i++
			}
			p.i++
		}
		if p.i >= len(p.s) {
			return nil, errMdlJSON
		}
		p.i++
		v.kind = mdlJStr
		if err := json.Unmarshal(p.s[start:p.i], &v.s); err != nil {
			return nil, errMdlJSON
		}
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(p.s[p.i:], []byte(lit)) {
				p.i += len(lit)
				v.kind = mdlJBool
				v.b = lit == "true"
				if lit == "null" {
					v.kind = mdlJNull
				}
				v.raw = p.s[start:p.i]
				return v, nil
			}
		}
		return nil, errMdlJSON
	default:
		for p.i < len(p.s) && strings.IndexByte("+-0123456789.eE", p.s[p.i]) >= 0 {
			p.i++
		}
		text := string(p.s[start:p.i])
		if !json.Valid([]byte(text)) {
			return nil, errMdlJSON
		}
		v.kind = mdlJNum
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && !math.IsInf(f, 0) {
			return nil, errMdlJSON
		}
		v.f = f
	}
	v.raw = p.s[start:p.i]
	return v, nil
}

// goValue is the value json.Unmarshal into an any gives (numbers as
// float64), for the checks of none, list and object fields.
func (v *mdlJSON) goValue() any {
	switch v.kind {
	case mdlJBool:
		return v.b
	case mdlJNum:
		return v.f
	case mdlJStr:
		return v.s
	case mdlJArr:
		out := make([]any, len(v.arr))
		for i, e := range v.arr {
			out[i] = e.goValue()
		}
		return out
	case mdlJObj:
		out := make(map[string]any, len(v.keys))
		for _, k := range v.keys {
			out[k] = v.obj[k].goValue()
		}
		return out
	}
	return nil
}

// compacted is the value's text as a passed-through value writes it:
// compacted, key order, number spelling and escapes kept, invalid UTF-8 as
// U+FFFD.
func (v *mdlJSON) compacted() []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, v.raw); err != nil {
		panic(err)
	}
	out := b.Bytes()
	if !utf8.Valid(out) {
		out = bytes.ToValidUTF8(out, []byte("\uFFFD"))
	}
	return out
}

// mdlObj is an output object in output order.
type mdlObj struct {
	keys []string
	vals []any  // each an mdlRaw, a *mdlObj, an []any of those, or nil (null)
	wo   []bool // a writeonly field's: only in a request's Object, which no response writes
}

func (o *mdlObj) addWO(k string, v any, wo bool) {
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
	o.wo = append(o.wo, wo)
}

// mdlRaw is a value already encoded as JSON.
type mdlRaw []byte

// mdlEncode writes an output value as JSON, as a response writes it: no
// writeonly value at any depth.
func mdlEncode(dst []byte, v any) []byte { return mdlEncodeTo(dst, v, false) }

// mdlEncodeFull writes an output value as JSON with its writeonly values,
// as Get, Map and Decode see a request's Object.
func mdlEncodeFull(dst []byte, v any) []byte { return mdlEncodeTo(dst, v, true) }

func mdlEncodeTo(dst []byte, v any, full bool) []byte {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...)
	case mdlRaw:
		return append(dst, v...)
	case *mdlObj:
		dst = append(dst, '{')
		n := 0
		for i, k := range v.keys {
			if v.wo[i] && !full {
				continue
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			dst = mdlEncodeString(dst, k)
			dst = append(dst, ':')
			dst = mdlEncodeTo(dst, v.vals[i], full)
		}
		return append(dst, '}')
	case []any:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = mdlEncodeTo(dst, e, full)
		}
		return append(dst, ']')
	}
	panic(fmt.Sprintf("model: cannot encode a %T", v))
}

// mdlEncodeString writes s as encoding/json writes a string: HTML-safe,
// U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD.
func mdlEncodeString(dst []byte, s string) []byte {
	b, _ := json.Marshal(s)
	return append(dst, b...)
}

// mdlPath is a path into the input or the output: keys and indexes.
type mdlPath []mdlStep

type mdlStep struct {
	key   string
	index int
	isIdx bool
	in    string // the first step of a request parameter's path: where it was
}

// in gives where a request's value was when not in the body: the
// parameter's place, for the parameter itself (a value below it, an
// element of a list parameter, is in the body's terms: go doc entity,
// FieldError.In).
func (p mdlPath) in() string {
	if len(p) != 1 {
		return ""
	}
	return p[0].in
}

// pointer writes the path as an RFC 6901 JSON Pointer.
func (p mdlPath) pointer() string {
	var b strings.Builder
	for _, s := range p {
		b.WriteByte('/')
		if s.isIdx {
			b.WriteString(strconv.Itoa(s.index))
			continue
		}
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(s.key, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

func (p mdlPath) key(k string) mdlPath {
	return append(p[:len(p):len(p)], mdlStep{key: k})
}

func (p mdlPath) idx(i int) mdlPath {
	return append(p[:len(p):len(p)], mdlStep{index: i, isIdx: true})
}

// String writes the path in the README's notation: list[1].details.mail;
// a key holding ".", "[" or "]", or empty, as ["a.b"].
func (p mdlPath) String() string {
	var b []byte
	for i, s := range p {
		switch {
		case s.isIdx:
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.index), 10)
			b = append(b, ']')
		case s.key == "" || strings.ContainsAny(s.key, ".[]"):
			b = append(b, '[')
			q, _ := json.Marshal(s.key)
			b = append(b, q...)
			b = append(b, ']')
		default:
			if i > 0 {
				b = append(b, '.')
			}
			b = append(b, s.key...)
		}
	}
	return string(b)
}
