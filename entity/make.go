package entity

import (
	"net/http"

	"github.com/expose-go/expose/internal/engine"
)

// The entry points of a response: Make, MakeList, AppendJSON, MakeJSON
// (and Write, in write.go). Each decodes its options once and makes one
// engine call with the response view: what a response writes is what that
// view writes, whatever the input (an echoed request, an Object made by a
// request, a $ref inside either).

// responseInput returns what a response of e reads of v: an *Object that
// e's response view made, in a call without shaping, is written as it is
// (same); an *http.Request is read with MakeRequest first, and the Object
// it makes is then made again, as any Object of a request is, through the
// response view.
func (e *Entity) responseInput(v any, o *engine.Opts, opts []Option) (in any, same *Object, err error) {
	switch x := v.(type) {
	case *Object:
		if x != nil && !o.Shaped && engine.MadeBy(x.m(), e.c) {
			return nil, x, nil
		}
	case *http.Request:
		if x == nil {
			return nil, nil, nil
		}
		obj, err := e.MakeRequest(x, opts...)
		if err != nil {
			return nil, nil, err
		}
		return obj, nil, nil
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
	o := e.opts(false, opts)
	in, same, err := e.responseInput(v, &o, opts)
	switch {
	case err != nil:
		return nil, err
	case same != nil:
		return same, nil
	}
	c := engine.Call{Dir: engine.Response, Top: engine.TopObject}
	s := c.AppendSub(e.c, in, &o)
	if c.Failed() {
		return nil, e.callError(&c, langOpt(opts))
	}
	return newObject(s), nil
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
	o := e.opts(false, opts)
	c := engine.Call{Dir: engine.Response, Top: engine.TopList, Keep: true}
	data := c.AppendCopy(e.c, v, &o)
	if c.Failed() {
		return nil, e.callError(&c, langOpt(opts))
	}
	return newObjects(c.List(data)), nil
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
	o := e.opts(false, opts)
	if _, ok := v.(map[string]any); !ok { // the common input, which responseInput passes as it is
		in, same, err := e.responseInput(v, &o, opts)
		switch {
		case err != nil:
			return dst, err
		case same != nil:
			return same.AppendJSON(dst) // already made: written as it is
		}
		v = in
	}
	c := engine.Call{Dir: engine.Response, Top: engine.TopAny}
	dst = c.Append(dst, e.c, v, &o)
	if c.Failed() {
		return dst, e.callError(&c, langOpt(opts))
	}
	return dst, nil
}

// MakeJSON makes v and returns its JSON, as AppendJSON does, in a new slice
// (the only allocation on success).
func (e *Entity) MakeJSON(v any, opts ...Option) ([]byte, error) {
	bp := engine.Buffer()
	b, err := e.AppendJSON((*bp)[:0], v, opts...)
	return engine.CopyOut(bp, b, err != nil), err
}
