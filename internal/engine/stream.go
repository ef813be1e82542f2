package engine

import "math"

// Stream is the one run of a stream's elements (package entity's
// EncodeSeq): each element is made into the stream's buffer, at its
// index, and judged on its own; the stream stops at the first that
// fails.
type Stream struct {
	r run
	e *Entity
}

// Start readies the stream's run for e with the options o; a bad option
// is the call's fatal error, reported in c.
func (s *Stream) Start(e *Entity, o *Opts, c *Call) {
	s.e = e
	s.r.start(e, topObject, dirResponse, o)
	if s.r.fatal != nil {
		c.report(&s.r)
	}
}

// Skips reports whether the element v is left out, as a list given to
// MakeJSON leaves it out: a nil value no object is read from (a nil
// interface or pointer; a nil map is an empty object).
func (s *Stream) Skips(v any) bool {
	if !isNil(v) {
		return false
	}
	_, ok := sourceOf(v, s.e.view(s.r.dir))
	return !ok
}

// Append makes one element, v (or the raw JSON b, when isJSON), the in'th
// read and the n'th written, into dst. When it fails, c says why and dst
// is to be cut back.
func (s *Stream) Append(dst []byte, v any, b []byte, isJSON bool, in, n int, c *Call) []byte {
	r := &s.r
	r.push(frame{kind: frameIndex, idx: int32(min(in, math.MaxInt32)), outIdx: int32(min(n, math.MaxInt32))})
	if isJSON {
		dst = r.appendStreamJSON(dst, s.e, b)
	} else {
		dst = r.appendTop(dst, s.e, v)
	}
	r.pop()
	if r.fatal != nil || len(r.errs) > 0 {
		c.report(r)
	}
	return dst
}

// Done returns what the run borrowed.
func (s *Stream) Done() { s.r.done() }

// appendStreamJSON is appendTop for an element of raw JSON bytes, which
// are not boxed into an interface.
func (r *run) appendStreamJSON(dst []byte, e *Entity, b []byte) []byte {
	r.base = len(dst)
	if b == nil { // a nil []byte: an empty input, as for Make
		return r.appendTop(dst, e, nil)
	}
	dst = r.appendJSONTop(dst, e, b, e.env.lim().Depth)
	if len(dst)-r.base > r.maxOut {
		r.tooLarge()
	}
	return dst
}
