package entity

import (
	"net/http"
	"sync"
)

// Make converts, renames, defaults and checks v into an Object holding
// exactly the declared fields: the JSON that MakeJSON writes for v, viewed
// as Go values (see Object). v is one object:
//
//   - a map with string keys: map[string]any, map[string]string, or any map
//     type with string keys;
//   - a struct or a pointer to one (fields read by json tag, else Go name);
//   - raw JSON ([]byte or json.RawMessage) holding an object;
//   - an *Object (one this entity made is returned as it is: Objects are
//     immutable);
//   - nil, a nil map or a nil pointer: an empty input.
//
// A list (a slice, an array, a JSON array) is refused: use MakeList, or
// MakeJSON, AppendJSON or Write, which take lists. When fields fail, the
// error is a *ValidationError listing every one and the Object is nil.
// Make allocates the Object and its bytes, two allocations on success
// (one more for a call given Select, Only, Except, With or Version, which
// the Object remembers).
func (e *Entity) Make(v any, opts ...Option) (*Object, error) {
	if e == nil {
		return nil, errNilEntity
	}
	r := run{top: topObject, cfg: config(false, opts)}
	if o, ok := v.(*Object); ok && o != nil && o.madeBy(e) && !r.cfg.shaped {
		return o, nil
	}
	if req, ok := v.(*http.Request); ok {
		return e.MakeRequest(req, opts...)
	}
	return e.object(&r, v, opts)
}

// object runs r over v into a pooled buffer and returns the Object made
// of what it wrote.
func (e *Entity) object(r *run, v any, opts []Option) (*Object, error) {
	r.init(e, opts)
	bp := bufPool.Get().(*[]byte)
	b := r.appendTop((*bp)[:0], e, v)
	r.done()
	data, err := copyOut(bp, b, r.err())
	if err != nil {
		return nil, err
	}
	return &Object{plan: e.root, data: data, made: r.made()}, nil
}

// MakeList makes each object of v, a list ([]any, []map[string]any, a
// slice or array of structs or maps, or raw JSON holding an array),
// skipping elements that are not objects. A nil list (or a nil v) gives an
// empty slice. On success it makes three allocations whatever the list's
// length: the bytes, the Objects and the slice.
func (e *Entity) MakeList(v any, opts ...Option) ([]*Object, error) {
	if e == nil {
		return nil, errNilEntity
	}
	r := run{top: topList, cfg: config(false, opts)}
	r.init(e, opts)
	bp := bufPool.Get().(*[]byte)
	b := r.appendTop((*bp)[:0], e, v)
	r.done()
	data, err := copyOut(bp, b, r.err())
	if err != nil {
		return nil, err
	}
	return newObjects(e.root, data, r.made()), nil
}

// AppendJSON makes v and appends its JSON to dst. v is an object, as for
// Make, or a list of objects (a slice, an array or a JSON array; a nil
// slice is an empty list), written as a JSON array (elements that are not
// objects are skipped). An *Object that e made is written as it is; an
// *http.Request is read with MakeRequest (a nil one is an empty input). On
// error dst is returned as it was given: nothing partial is appended. It
// does not allocate when dst has room.
func (e *Entity) AppendJSON(dst []byte, v any, opts ...Option) ([]byte, error) {
	if e == nil {
		return dst, errNilEntity
	}
	r := run{cfg: config(false, opts)}
	switch x := v.(type) {
	case *Object:
		if x != nil && x.madeBy(e) && !r.cfg.shaped {
			return x.AppendJSON(dst) // already made: write it as it is
		}
	case *http.Request:
		if x == nil {
			v = nil
			break
		}
		o, err := e.MakeRequest(x, opts...)
		if err != nil {
			return dst, err
		}
		return o.AppendJSON(dst)
	}
	r.init(e, opts)
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
func (e *Entity) MakeJSON(v any, opts ...Option) ([]byte, error) {
	bp := bufPool.Get().(*[]byte)
	b, err := e.AppendJSON((*bp)[:0], v, opts...)
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
