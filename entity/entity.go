package entity

import (
	"encoding/json"
	"net/http"
	"sync"
)

// Make converts, renames, defaults and checks v, a map with string keys
// (map[string]any, map[string]string, or any map type with string keys) or
// an *Object, into an Object holding exactly the declared fields. A nil v is
// an empty input. When fields fail, the error is a *ValidationError listing
// every one and the Object is nil.
func (e *Entity) Make(v any) (*Object, error) {
	var r run
	r.init(e)
	o := r.makeTop(e, v)
	r.done()
	if err := r.err(); err != nil {
		return nil, err
	}
	return o, nil
}

// MakeList makes each object of v, a list ([]any, []map[string]any, any
// slice), skipping elements that are not objects.
func (e *Entity) MakeList(v any) ([]*Object, error) {
	var r run
	r.init(e)
	var l elems
	var ok bool
	switch b := v.(type) {
	case []byte:
		l, ok = r.jsonList(b)
	case json.RawMessage:
		l, ok = r.jsonList(b)
	default:
		l, ok = listOf(v)
	}
	if !ok {
		r.done()
		switch v.(type) {
		case []byte, json.RawMessage:
			return nil, &InputError{Status: 400, Msg: "the body is not a JSON array of objects", Err: ErrInvalidJSON}
		}
		return nil, unsupported(e, v)
	}
	objs := r.makeList(e, &l, e.reg.MaxDepth()-1)
	r.done()
	if err := r.err(); err != nil {
		return nil, err
	}
	return objs, nil
}

// AppendJSON makes v and appends its JSON to dst. v is an object, as for
// Make, or a list of objects, written as a JSON array (elements that are not
// objects are skipped). An *Object that e made is written as it is; an
// *http.Request is read with MakeRequest. On error dst is returned as it was
// given: nothing partial is appended. It does not allocate when dst has
// room.
func (e *Entity) AppendJSON(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case *Object:
		if x != nil && x.madeBy(e) {
			return x.AppendJSON(dst) // already made: write it as it is
		}
	case *http.Request:
		o, err := e.MakeRequest(x)
		if err != nil {
			return dst, err
		}
		return o.AppendJSON(dst)
	}
	var r run
	r.init(e)
	start := len(dst)
	dst = r.appendTop(dst, e, v)
	r.done()
	if err := r.err(); err != nil {
		return dst[:start], err
	}
	return dst, nil
}

// bufPool holds the buffers MakeJSON writes into before copying out.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// maxPooled is the largest buffer put back into bufPool.
const maxPooled = 1 << 20

// MakeJSON makes v and returns its JSON, as AppendJSON does, in a new slice
// (the only allocation on success).
func (e *Entity) MakeJSON(v any) ([]byte, error) {
	bp := bufPool.Get().(*[]byte)
	b, err := e.AppendJSON((*bp)[:0], v)
	return copyOut(bp, b, err)
}

// copyOut returns a copy of b, which was written into the pooled buffer
// *bp, unless err is set, and puts the buffer back in its pool.
func copyOut(bp *[]byte, b []byte, err error) ([]byte, error) {
	var out []byte
	if err == nil {
		out = make([]byte, len(b))
		copy(out, b)
	}
	if cap(b) <= maxPooled {
		*bp = b[:0]
		bufPool.Put(bp)
	}
	return out, err
}

// jsonList returns raw JSON input as a list when it is a valid array.
func (r *run) jsonList(b []byte) (elems, bool) {
	text, err := r.parseJSON(b)
	if err != nil || text[0] != '[' {
		return elems{}, false
	}
	return elems{js: text}, true
}
