package engine

import (
	"net/http"
	"net/url"
	"sync"
)

// The one call: every entry point of package entity decodes its options
// into an Opts, fills a Call and makes it, once. The call runs the walk
// (a run, on the caller's stack) and reports what it made and what failed
// in the same Call; the API builds its public values (Objects, errors,
// messages) from that, after the walk.

// Dir is the direction of a call: the view of the entity it walks.
type Dir uint8

// The directions.
const (
	Response Dir = Dir(dirResponse) // what the server has, written
	Request  Dir = Dir(dirRequest)  // what a client sent, read
	Patch    Dir = Dir(dirPatch)    // a merge patch's merged value, read
)

// Top says what a call accepts at the top of its input.
type Top uint8

// What a call accepts at the top.
const (
	TopAny    = Top(topAny)    // an object or a list of objects (AppendJSON, MakeJSON, Write)
	TopObject = Top(topObject) // one object (Make, MakeRequest)
	TopList   = Top(topList)   // a list of objects (MakeList)
)

// Call is one call of an entity: what the API asks (set before Append),
// and what the walk reports (set by it). Its options are a parameter of
// each Append, not a member: they stay on the caller's stack whatever the
// API does with what the call reports.
type Call struct {
	Dir Dir
	Top Top
	// MaxOut is the most bytes the call may write; 0: the registry's
	// Limits.OutputBytes.
	MaxOut int64

	// What failed: the fatal error that ended the call (a bad option,
	// input that is no object, raw JSON that does not parse, the output
	// limit), and the failing fields, in the order found, with how many
	// were past the registry's Limits.Errors.
	Fatal    error
	Failures []FieldError
	Omitted  int

	// Keep says that the caller makes a Made of what the call wrote (Made,
	// List): the call then keeps what they need.
	Keep bool
	// KeepFailed says that a request's call (AppendRequest, AppendPatch)
	// returns what it wrote even when fields failed, for the checks of a
	// handle to read (package entity's Checked): each value as the walk
	// wrote it, the failing ones included (a value that did not convert
	// as null), never the output of a walk that stopped (a fatal error,
	// the depth limit). Failed still reports the failures.
	KeepFailed bool

	plan   *objectPlan // the view walked, for the Made of what it wrote
	made   objectMade  // how the call shaped what it wrote, when shaped
	shaped bool
	hidden []span // where the writeonly members lie in what it wrote
}

// Failed reports whether the call failed: nothing it wrote is to be used.
func (c *Call) Failed() bool { return c.Fatal != nil || len(c.Failures) > 0 }

// Made returns what the call wrote, data (the bytes Append returned past
// dst's length, or a copy of them), as the Sub of a Made; that of a call
// kept though fields failed (KeepFailed) holds its failures (FailedAt).
func (c *Call) Made(data []byte) Sub {
	s := Sub{plan: c.plan, data: data, made: c.objectMade(), hid: newHidden(data, c.hidden)}
	if c.KeepFailed {
		s.failed = c.Failures
	}
	return s
}

// objectMade returns how the call shaped what it wrote, for the Made of
// it: nil for a call without shaping options (an allocation for one with
// them).
func (c *Call) objectMade() *objectMade {
	if !c.shaped {
		return nil
	}
	m := c.made
	return &m
}

// List returns what a list call wrote, data, as the Subs of its objects.
func (c *Call) List(data []byte) Subs {
	return Subs{plan: c.plan, data: data, made: c.objectMade(), hid: newHidden(data, c.hidden)}
}

// Append makes v with e as the call says and appends its JSON to dst; on
// failure it returns dst as it was (nothing partial is ever returned) and
// the call says what failed.
func (c *Call) Append(dst []byte, e *Entity, v any, o *Opts) []byte {
	var r run
	r.start(e, topKind(c.Top), direction(c.Dir), o)
	if c.MaxOut > 0 {
		r.maxOut = int(min(c.MaxOut, maxOutputLimit))
	}
	dst = r.walkInto(dst, e, v)
	if c.Keep || r.fatal != nil || len(r.errs) > 0 {
		c.report(&r)
	}
	return dst
}

// AppendCopy is Append into a pooled buffer, returning a copy of what it
// wrote (the one allocation of the bytes), or nil on failure.
func (c *Call) AppendCopy(e *Entity, v any, o *Opts) []byte {
	bp := bufPool.Get().(*[]byte)
	b := c.Append((*bp)[:0], e, v, o)
	return CopyOut(bp, b, c.Failed())
}

// AppendSub is AppendCopy and Made in one, for a call that makes one
// Made of what it writes (Make): the Sub of a copy of what it wrote, made
// straight from the run, or on failure the zero Sub, the call saying
// what failed. (The Call reports no Keep: nothing goes through it.)
func (c *Call) AppendSub(e *Entity, v any, o *Opts) Sub {
	var r run
	r.start(e, topKind(c.Top), direction(c.Dir), o)
	if c.MaxOut > 0 {
		r.maxOut = int(min(c.MaxOut, maxOutputLimit))
	}
	bp := bufPool.Get().(*[]byte)
	b := r.walkInto((*bp)[:0], e, v)
	if r.fatal != nil || len(r.errs) > 0 {
		c.Fatal, c.Failures, c.Omitted = r.fatal, r.errs, r.omitted
		Release(bp, b)
		return Sub{}
	}
	s := Sub{plan: r.ent.view(r.dir), data: make([]byte, len(b))}
	copy(s.data, b)
	Release(bp, b)
	if len(r.hidden) > 0 {
		s.hid = newHidden(s.data, r.hidden)
	}
	if r.cfg.shaped {
		s.made = &objectMade{ver: r.ver, flags: r.flags}
	}
	return s
}

// report records what the run found.
func (c *Call) report(r *run) {
	c.Fatal, c.Failures, c.Omitted = r.fatal, r.errs, r.omitted
	if c.Keep {
		c.plan = r.ent.view(r.dir)
		c.made, c.shaped = objectMade{ver: r.ver, flags: r.flags}, r.cfg.shaped
		c.hidden = r.hidden
	}
}

// start readies a run for one call of e: the input the call accepts at its
// top, its direction, its options and the view and the limits. Every call
// starts here.
func (r *run) start(e *Entity, top topKind, d direction, o *Opts) {
	r.top, r.dir = top, d
	r.cfg.request = d == dirRequest || d == dirPatch
	if o != nil {
		r.cfg.strict, r.cfg.denyUnknown, r.cfg.shaped = o.Strict, o.DenyUnknown, o.Shaped
	}
	r.ent = e
	r.elem = -1
	r.maxOut = int(min(e.env.lim().OutputBytes, maxOutputLimit))
	if e.slot != nil {
		r.pin(e.slot, e) // recursive references see this very entity
	}
	if o != nil && len(o.CtxFlags) > 0 {
		r.cfg.shaped = true
		r.setFlags(e, o.CtxFlags)
	}
	if r.cfg.shaped {
		r.shape(e, o)
	}
}

// walkInto walks v with the started run, appending its JSON to dst, and
// returns dst as it was on error (nothing partial is ever returned).
func (r *run) walkInto(dst []byte, e *Entity, v any) []byte {
	start := len(dst)
	r.hidden = r.hidden[:0]
	if r.fatal == nil { // a bad option (Select, Version…) ends the call before it starts
		dst = r.appendTop(dst, e, v)
	}
	r.done()
	if r.fatal != nil || r.stop || len(r.errs) > 0 && !r.cfg.keepFailed {
		return dst[:start]
	}
	return dst
}

// bufPool holds the buffers calls write into before copying out.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// maxPooled is the largest buffer put back into a pool.
const maxPooled = 1 << 20

// Buffer returns a pooled buffer, for Release.
func Buffer() *[]byte { return bufPool.Get().(*[]byte) }

// Release puts back a buffer of Buffer, b being what it holds now, unless
// it grew too large.
func Release(bp *[]byte, b []byte) {
	if cap(b) <= maxPooled {
		*bp = b[:0]
		bufPool.Put(bp)
	}
}

// CopyOut returns a copy of b, which was written into the pooled buffer
// *bp, unless failed, and puts the buffer back in its pool.
func CopyOut(bp *[]byte, b []byte, failed bool) []byte {
	var out []byte
	if !failed {
		out = make([]byte, len(b))
		copy(out, b)
	}
	Release(bp, b)
	return out
}

// ---- Requests

// HTTPRequest is a request as the API read it: the request (its path
// values, headers and cookies), its query, and its body, read by media
// type: a JSON body's bytes, or a form's values.
type HTTPRequest struct {
	R     *http.Request
	Query url.Values
	JSON  []byte     // a JSON body (not empty); nil when none
	Form  url.Values // a form body; nil when none
	Files []string   // the names of a multipart body's file parts (for DenyUnknown)
	Body  bool       // the request has a body: its fields are not read from the query
	// BodyLen is the body's length (a form's: its keys' and values'), for
	// the request's output limit.
	BodyLen int64
}

// AppendRequest reads the request req with e, as a request (Dir Request)
// reads it, and appends what it made to dst.
func (c *Call) AppendRequest(dst []byte, e *Entity, req *HTTPRequest, o *Opts) []byte {
	var r run
	r.start(e, topObject, direction(c.Dir), o)
	defer r.done()
	if r.fatal != nil { // a bad option (Select, Version…): before the body is read
		c.report(&r)
		return dst
	}
	src := &requestSource{r: req.R, env: e.env, header: req.R.Header, query: req.Query, form: req.Form, files: req.Files, body: req.Body, strict: r.cfg.strict}
	p := e.view(r.dir)
	if req.JSON != nil {
		js, err := r.parseJSONOf(req.JSON, true)
		if err != nil {
			r.fatal = err
			c.report(&r)
			return dst
		}
		src.js = r.takeJSON(js, 0, p.in)
	}
	r.request, r.reqBody = true, src.body
	r.cfg.keepFailed = c.KeepFailed
	if c.MaxOut > 0 {
		r.maxOut = int(min(c.MaxOut, maxOutputLimit))
	}
	dst = r.walkInto(dst, e, src)
	c.report(&r)
	return dst
}

// ReadsBody reports whether e's request view reads anything from a body:
// an entity of path, query, header and cookie fields only does not.
func (e *Entity) ReadsBody() bool {
	p := e.views[dirRequest]
	return len(p.params) != len(p.nodes)
}

// DeclaresAny reports whether e's request view reads any of the form's
// keys.
func (e *Entity) DeclaresAny(form url.Values) bool {
	p := e.views[dirRequest]
	for k := range form {
		if p.in.keys.Lookup(k) >= 0 {
			return true
		}
	}
	return false
}

// ---- Verify

// MakeEmpty makes e from an empty input, under an output limit of at most
// limit bytes, as a response does, or as a request does a bare default's
// (every field a request reads: lazy and writeonly ones too, no readonly
// one; nested, as a reference below the top level reads it, whose
// parameter fields are the server's: Entity.refView), and reports what
// failed in c.
func (e *Entity) MakeEmpty(request, nested bool, limit int64) *Call {
	c := &Call{Dir: Response, Top: TopObject, MaxOut: min(e.env.lim().OutputBytes, limit)}
	if request {
		c.Dir = Request
	}
	var v any
	if nested {
		v = emptyBelow{}
	}
	c.AppendCopy(e, v, nil)
	return c
}

// emptyBelow is MakeEmpty's input for an entity read below the top level
// of a call: an empty object, read with the view a reference reads.
type emptyBelow struct{}

// MadeBy reports whether e's response view made m, unshaped: m is then a
// response of e as it is.
func MadeBy(m *Made, e *Entity) bool { return m != nil && m.madeBy(e) }
