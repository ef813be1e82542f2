package entity

import (
	"net/http"
	"sync"
)

// The entry points of a response: Make, MakeList, AppendJSON, MakeJSON
// (and Write, in http.go). Each starts its run through start, and walks
// its input with the response view: what a response writes is what that
// view writes, whatever the input (an echoed request, an Object made by a
// request, a $ref inside either).

// start readies a run for one call of e: the input the call accepts at its
// top, its direction, its options (a request reads strictly unless told
// otherwise), the view and the limits. Every call starts here.
func (r *run) start(e *Entity, top topKind, d direction, opts []Option) {
	r.startWith(e, top, d, nil, opts)
}

// startWith is start with ctxFlags, the flags of the context of the HTTP
// request the call reads (requestFlags), set before the options' as
// WithContext sets them: a flag the registry has not declared is ignored.
func (r *run) startWith(e *Entity, top topKind, d direction, ctxFlags []string, opts []Option) {
	r.top, r.dir = top, d
	r.cfg = config(d == dirRequest || d == dirPatch, opts) // what a client sent is read strictly
	r.cfg.request = d == dirRequest || d == dirPatch
	r.ent = e
	r.elem = -1
	r.maxOut = int(min(e.reg.lim().OutputBytes, maxOutputLimit))
	if e.slot != nil {
		r.pin(e.slot, e) // recursive references see this very entity
	}
	if len(ctxFlags) > 0 {
		r.cfg.shaped = true
		r.setFlags(e, ctxFlags)
	}
	if r.cfg.shaped {
		r.shape(e, opts)
	}
}

// walkInto walks v with the started run, appending its JSON to dst, and
// returns what the call gives: dst as it was on error (nothing partial is
// ever returned), and the run's error.
func (r *run) walkInto(dst []byte, e *Entity, v any) ([]byte, error) {
	start := len(dst)
	r.hidden = r.hidden[:0]
	if r.fatal == nil { // a bad option (Select, Version…) ends the call before it starts
		dst = r.appendTop(dst, e, v)
	}
	r.done()
	if r.fatal != nil || len(r.errs) > 0 { // what err looks at, without its call on success
		return dst[:start], r.err()
	}
	return dst, nil
}

// walkCopy is walkInto into a pooled buffer, returning a copy of what it
// wrote (the one allocation of the bytes) unless the call fails.
func (r *run) walkCopy(e *Entity, v any) ([]byte, error) {
	bp := bufPool.Get().(*[]byte)
	b, err := r.walkInto((*bp)[:0], e, v)
	return copyOut(bp, b, err)
}

// responseInput returns what a response of e reads of v: an *Object that
// e's response view made, in a call with no shaping, is written as it is
// (ok); an *http.Request is read with MakeRequest first, and the Object it
// makes is then made again, as any Object of a request is, through the
// response view.
func (e *Entity) responseInput(v any, shaped bool, opts []Option) (in any, same *Object, err error) {
	switch x := v.(type) {
	case *Object:
		if x != nil && x.madeBy(e) && !shaped {
			return nil, x, nil
		}
	case *http.Request:
		if x == nil {
			return nil, nil, nil
		}
		o, err := e.MakeRequest(x, opts...)
		if err != nil {
			return nil, nil, err
		}
		return o, nil, nil
	}
	return v, nil, nil
}

// Make converts, renames, defaults and checks v into an Object holding
// exactly the declared fields: the JSON that MakeJSON writes for v, viewed
// as Go values (see Object). v is one object:
//
//   - a map with string keys: map[string]any, map[string]string, or any map
//     type with string keys;
//   - a struct or a pointer to one (fields read by json tag, else Go name);
//   - raw JSON ([]byte or json.RawMessage) holding an object;
//   - an *Object: one this entity made for a response is returned as it is
//     (Objects are immutable); any other, one made by MakeRequest among
//     them, is made again, read by its keys;
//   - an *http.Request: read with MakeRequest, then made again as its
//     Object is;
//   - nil, a nil map or a nil pointer: an empty input.
//
// A list (a slice, an array, a JSON array) is refused: use MakeList, or
// MakeJSON, AppendJSON or Write, which take lists. When fields fail, the
// error is a *ValidationError listing every one and the Object is nil: the
// data is the server's, so the error answers 500 (see ValidationError).
// Make allocates the Object and its bytes, two allocations on success
// (one more for a call given Select, Only, Except, With or Version, which
// the Object remembers).
func (e *Entity) Make(v any, opts ...Option) (*Object, error) {
	if e == nil {
		return nil, errNilEntity
	}
	var r run
	r.start(e, topObject, dirResponse, opts)
	in, same, err := e.responseInput(v, r.cfg.shaped, opts)
	switch {
	case err != nil:
		return nil, err
	case same != nil:
		return same, nil
	}
	data, err := r.walkCopy(e, in)
	if err != nil {
		return nil, err
	}
	return &Object{plan: e.views[dirResponse], data: data, made: r.made()}, nil
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
	var r run
	r.start(e, topList, dirResponse, opts)
	data, err := r.walkCopy(e, v)
	if err != nil {
		return nil, err
	}
	return newObjects(e.views[dirResponse], data, r.made(), nil), nil
}

// AppendJSON makes v and appends its JSON to dst. v is an object, as for
// Make, or a list of objects (a slice, an array or a JSON array; a nil
// slice is an empty list), written as a JSON array (elements that are not
// objects are skipped). On error dst is returned as it was given: nothing
// partial is appended. It does not allocate when dst has room. Like
// append, it may write anywhere in dst's spare capacity (cap(dst) past
// len(dst)), also past the bytes it returns: do not share that memory.
func (e *Entity) AppendJSON(dst []byte, v any, opts ...Option) ([]byte, error) {
	if e == nil {
		return dst, errNilEntity
	}
	var r run
	r.start(e, topAny, dirResponse, opts)
	if _, ok := v.(map[string]any); ok { // the common input, which responseInput passes as it is
		return r.walkInto(dst, e, v)
	}
	in, same, err := e.responseInput(v, r.cfg.shaped, opts)
	switch {
	case err != nil:
		return dst, err
	case same != nil:
		return same.AppendJSON(dst) // already made: written as it is
	}
	return r.walkInto(dst, e, in)
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
