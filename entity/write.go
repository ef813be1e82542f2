package entity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/expose-go/expose/internal/engine"
	"github.com/expose-go/expose/internal/jsonwire"
)

// Write makes v and writes it as an HTTP response: status 200 and
// Content-Type application/json; charset=utf-8 on success. On failure it
// writes the error as WriteError does, with the registry's problem type
// base and log hook, in the call's language (Lang, or the Accept-Language
// of a request v): RFC 9457 problem details (Content-Type
// application/problem+json). Fields of the server's data that fail (v is
// a map, a struct, raw JSON, an Object: what the server writes) are the
// server's fault: 500, with a body that says nothing of them but its
// "instance", the id the registry's log hook gets with the error; so is
// raw JSON v that does not parse (an *InputError wrapping ErrInvalidJSON,
// its offset for the log, never the client's). Fields of a request v (an
// *http.Request, read by MakeRequest) are the client's: 400 with every
// field error,
//
//	{"type":"/problems/validation","title":"Validation failed","status":400,
//	 "detail":"1 field failed validation","errors":[{"pointer":"/name",
//	 "path":"name","outputPath":"name","code":"required","message":"is required"}]}
//
// and so is a bad selection or version (400); an error that carries its
// own status (a StatusCode() int method returning 4xx) is written with
// that status and its message, and any other error as 500. Write returns
// the error, every field of it, for the handler to log. Nothing of a failed
// make is ever written.
//
// Each response gets header values of its own: a handler or middleware may
// modify them in place.
func (e *Entity) Write(w http.ResponseWriter, v any, opts ...Option) error {
	return e.WriteStatus(w, http.StatusOK, v, opts...)
}

// WriteStatus is Write with another success status, such as 201 Created.
//
// A status that has no body (1xx, 204 No Content, 205 Reset Content, 304
// Not Modified) is
// written alone: v is not made, no body, Content-Type or Content-Length is
// written, and WriteStatus returns nil. A status outside 100–599 is an
// error, and nothing is written.
func (e *Entity) WriteStatus(w http.ResponseWriter, status int, v any, opts ...Option) error {
	switch {
	case w == nil:
		return errNilWriter
	case status < 100 || status > 599:
		return &statusError{status}
	case !bodyAllowed(status):
		w.WriteHeader(status)
		return nil
	}
	bp := engine.Buffer()
	b, err := e.AppendJSON((*bp)[:0], v, opts...)
	defer engine.Release(bp, b)
	if err != nil {
		var reg *Registry // a nil *Entity's error is written as the default's
		if e != nil {
			reg = e.reg
		}
		reg.writeProblem(w, err, reg.callLang(v, opts))
		return err
	}
	hv := newJSONHeader(len(b))
	h := w.Header()
	h["Content-Type"] = hv.contentType()
	h["Content-Length"] = hv.contentLength()
	w.WriteHeader(status)
	_, err = w.Write(b)
	return err
}

// bodyAllowed reports whether a response of status may have a body: not
// 1xx, 204 or 304, which net/http refuses a body, nor 205, which RFC 9110
// (15.3.6) forbids one.
func bodyAllowed(status int) bool {
	return status >= 200 && status != http.StatusNoContent && status != http.StatusResetContent && status != http.StatusNotModified
}

const jsonContentType = "application/json; charset=utf-8"

// jsonHeader holds the header values of one JSON response in one
// allocation: the value slices handed to the response's Header, and the
// digits of its Content-Length. Every response gets its own, since a
// handler or a middleware may modify a header value in place.
type jsonHeader struct {
	vals   [2]string
	digits [20]byte
}

// newJSONHeader returns the header values of a response of n bytes of
// JSON.
func newJSONHeader(n int) *jsonHeader {
	hv := new(jsonHeader)
	hv.vals[0] = jsonContentType
	// The digits are written once, here, before the string that views them
	// is made, and never again: the string is immutable as it must be.
	d := strconv.AppendInt(hv.digits[:0], int64(n), 10)
	hv.vals[1] = jsonwire.View(d)
	return hv
}

// contentType returns the Content-Type value slice, of capacity 1, so that
// an append to it cannot reach the Content-Length.
func (hv *jsonHeader) contentType() []string { return hv.vals[0:1:1] }

// contentLength returns the Content-Length value slice.
func (hv *jsonHeader) contentLength() []string { return hv.vals[1:2:2] }

// callLang returns the language of a Write of v with opts: Lang's, else
// the Accept-Language of a request v. The error of a call has it already,
// but for the errors that are no one's (a nil entity, the output limit).
func (r *Registry) callLang(v any, opts []Option) msgLang {
	req, _ := v.(*http.Request)
	return r.requestLang(req, opts)
}

// Streams: a list written as its elements come, each made and checked
// with the entity as Make makes one object, in chunks of bounded size. One
// run serves the whole stream (started once through run.start, its
// selection compiled once); what one element borrows (the tape of raw
// JSON, scratch buffers) is reused by the next, so that an element costs
// no allocation of its own.

// streamChunk is how many bytes a stream gathers before it writes them to
// its writer (and flushes it). An element larger than that is written
// whole, once made.
const streamChunk = 32 << 10

// ndjsonContentType is the media type of newline-delimited JSON.
const ndjsonContentType = "application/x-ndjson"

// EncodeSeq writes the elements of seq to w as a JSON array, each made and
// checked with e as [Entity.Make] makes one object (the response view:
// [Select], [Only], [Except], [With], [WithContext] and [Version] shape
// every element alike). An element is one object: a map with string keys, a
// struct or a pointer to one, raw JSON ([]byte, [json.RawMessage]) holding
// an object, an [*Object], or an interface holding one of them; a nil
// interface or pointer is skipped, as MakeJSON skips it in a list (a nil
// map is an empty object), and the indexes in errors count it. The
// elements are written as they come, in chunks of about 32 KiB, and an
// [http.Flusher] (an [http.ResponseWriter], through
// [http.ResponseController]) is flushed after each, so that the memory a
// stream holds does not grow with its length: the registry's output limit
// ([Limits].OutputBytes) applies to each element, not to the stream. Making
// an element allocates nothing of its own: a million rows of maps, of
// pointers to structs or of raw JSON cost what one call does (rows of
// struct values are read through one copy, made once). The entities of the
// $refs are those of the stream's start, for all of it. Given
// [WithContext], EncodeSeq stops when the context is done, as for an error
// of seq (the error returned is the context's).
//
// Into an [http.ResponseWriter], EncodeSeq is the response: it sets the
// Content-Type (application/json; charset=utf-8, unless the handler set
// one) and sends status 200 before the first byte of the body, with its
// first chunk; a Content-Type of application/x-ndjson set by the handler
// makes it write newline-delimited JSON instead of the array, one object a
// line, each ended by "\n". A stream that ends within its first chunk is
// one response with its Content-Length; one that fails within it is
// answered as [Entity.Write] answers a failure, with nothing of the
// elements: problem details with the error's status (500 for the server's
// data, raw JSON that does not parse among it; 400 for a bad [Select]
// spec), in the language of [Lang] (give it
// [Registry.RequestLang] of the request).
//
// Into an io.Writer, and into a ResponseWriter past its first chunk, the
// output cannot be taken back: when the stream fails, EncodeSeq stops,
// writing what the elements made so far (every one whole), and returns the
// error:
//
//   - an element that fails its entity: a [*ValidationError], the server's
//     data at fault (StatusCode 500), its paths starting at the element's
//     index ("[700000].details.mail");
//   - an error seq yields, wrapped with the number of elements written;
//   - the context's error, when it is done;
//   - an error of w: nothing more is written.
//
// The JSON array is then left without its closing "]" (nor a comma after
// its last element), so that what a client got never parses as a complete
// array; NDJSON ends with a line holding the error's problem details, as
// [WriteError] writes them (a 500's say nothing of the error but its
// "instance", the id the registry's log hook gets with it). A handler may
// then panic([http.ErrAbortHandler]) to cut the connection as well, so that
// an HTTP client sees the response fail (an error within the first chunk
// has been answered whole: the panic loses the answer). A bad option (a
// Select spec that does not parse, a malformed Version) fails the call
// before anything is written (into a ResponseWriter: but its problem
// details).
//
// EncodeSeq returns nil when every element was written. It never panics on
// an element or an error of seq; a seq that is nil is empty ("[]"). It
// reads seq to its end unless it stops: a seq holding a resource (a
// *sql.Rows) should release it when its yield returns false.
//
//	func listUsers(w http.ResponseWriter, r *http.Request) {
//		if r.Header.Get("Accept") == "application/x-ndjson" {
//			w.Header().Set("Content-Type", "application/x-ndjson")
//		}
//		err := entity.EncodeSeq(w, users, store.Users(r.Context()), entity.WithContext(r.Context()),
//			entity.Select(r.URL.Query().Get("fields")), entity.Lang(reg.RequestLang(r)))
//		if err != nil {
//			log.Printf("GET /users: %v", err)
//		}
//	}
func EncodeSeq[T any](w io.Writer, e *Entity, seq iter.Seq2[T, error], opts ...Option) error {
	if w == nil {
		return errors.New("entity: EncodeSeq: a nil io.Writer")
	}
	s, err := newStream(e, w, opts)
	if err != nil {
		if hw, ok := w.(http.ResponseWriter); ok {
			var reg *Registry // a nil *Entity's error is written as the default's
			if e != nil {
				reg = e.reg
			}
			reg.writeProblem(hw, err, reg.requestLang(nil, opts))
		}
		return err
	}
	return streamSeq(s, seq)
}

// elemInput says how a stream hands an element of type T to its run
// without allocating: as it is (types whose interface value holds a
// pointer, and interfaces; any other type is boxed, and fails as Make
// fails: not an object), through one copy of it (structs), or as raw JSON
// bytes.
type elemInput uint8

const (
	elemAsIs elemInput = iota
	elemCopy
	elemJSON
)

// elemInputOf returns how elements of type t are handed over.
func elemInputOf(t reflect.Type) elemInput {
	switch {
	case t == bytesType || t == rawMessageType:
		return elemJSON
	case t != nil && t.Kind() == reflect.Struct:
		return elemCopy
	}
	return elemAsIs
}

var (
	bytesType      = reflect.TypeFor[[]byte]()
	rawMessageType = reflect.TypeFor[json.RawMessage]()
)

// streamSeq writes the elements of seq through s, and ends it.
func streamSeq[T any](s *stream, seq iter.Seq2[T, error]) error {
	if seq == nil {
		return s.end()
	}
	how := elemInputOf(reflect.TypeFor[T]())
	var slot *T // the one copy of elemCopy and elemJSON
	if how == elemCopy || how == elemJSON {
		slot = new(T)
	}
	for v, err := range seq {
		if err != nil {
			s.fail(fmt.Errorf("entity: entity %q: the sequence failed after %d elements: %w", s.e.Name(), s.n, err))
			break
		}
		if s.cancelled() {
			break
		}
		var ok bool
		switch how {
		case elemCopy:
			*slot = v
			ok = s.elem(slot, nil, false)
		case elemJSON:
			*slot = v
			ok = s.elem(nil, jsonBytes(slot), true)
		default:
			if a := any(v); s.skips(a) {
				ok = true
			} else {
				ok = s.elem(a, nil, false)
			}
		}
		if !ok {
			break
		}
		s.in++
	}
	if slot != nil {
		var zero T
		*slot = zero // keep nothing of the caller's
	}
	return s.end()
}

// jsonBytes returns the bytes p points to: p is a *[]byte or a
// *json.RawMessage (see elemJSON).
func jsonBytes(p any) []byte {
	switch b := p.(type) {
	case *[]byte:
		return *b
	case *json.RawMessage:
		return *b
	}
	return nil
}

// stream is the state of one EncodeSeq.
type stream struct {
	r    engine.Stream // one run for every element
	pref string        // the language the call's messages are in: Lang's
	e    *Entity
	w    io.Writer
	rc   *http.ResponseController // w's, when it is an http.ResponseWriter
	fl   http.Flusher             // w's, when it is some other http.Flusher
	hw   http.ResponseWriter      // w, when it is one: its header goes out with the first chunk
	done <-chan struct{}          // WithContext's context
	ctx  context.Context
	lang msgLang // the language of problem details

	bp     *[]byte // the pooled buffer buf grows from
	buf    []byte
	n      int   // elements written
	in     int   // elements read (n and the nil ones skipped): the index of the next
	sent   bool  // bytes have gone to w
	ndjson bool  // NDJSON: no array, a line each
	err    error // why the stream stopped
	werr   error // w's error: nothing more is written
}

// newStream starts a stream of e's elements to w. A bad option is the
// error, before anything is written.
func newStream(e *Entity, w io.Writer, opts []Option) (*stream, error) {
	if e == nil {
		return nil, errNilEntity
	}
	s := &stream{e: e, w: w, pref: langOpt(opts)}
	o := e.opts(false, opts)
	var c engine.Call
	s.r.Start(e.c, &o, &c)
	if c.Failed() {
		s.r.Done()
		return nil, e.callError(&c, s.pref)
	}
	s.lang = e.reg.requestLang(nil, opts)
	s.ctx = contextOpt(opts)
	if s.ctx != nil {
		s.done = s.ctx.Done()
	}
	switch x := w.(type) {
	case http.ResponseWriter:
		s.hw, s.rc = x, http.NewResponseController(x)
		s.ndjson = isNDJSON(x.Header())
	case http.Flusher:
		s.fl = x
	}
	s.bp = engine.Buffer()
	s.buf = (*s.bp)[:0]
	if cap(s.buf) < streamChunk+streamChunk/2 { // room for a chunk and the element that ends it, at once
		s.buf = make([]byte, 0, 2*streamChunk)
	}
	if !s.ndjson {
		s.buf = append(s.buf, '[')
	}
	return s, nil
}

// isNDJSON reports whether a response's Content-Type, as a handler set
// it, is application/x-ndjson (parameters aside).
func isNDJSON(h http.Header) bool {
	ct := h["Content-Type"]
	if len(ct) == 0 {
		return false
	}
	mt, _, _ := strings.Cut(ct[0], ";")
	return strings.EqualFold(strings.TrimSpace(mt), ndjsonContentType)
}

// skips reports whether the element v is left out, as a list given to
// MakeJSON leaves it out: a nil value no object is read from (a nil
// interface or pointer; a nil map is an empty object).
func (s *stream) skips(v any) bool {
	return s.r.Skips(v)
}

// cancelled reports whether the request's context is done, stopping the
// stream with its error.
func (s *stream) cancelled() bool {
	if s.done == nil {
		return false
	}
	select {
	case <-s.done:
		s.fail(s.ctx.Err())
		return true
	default:
		return false
	}
}

// elem makes one element, v (or the raw JSON b, when isJSON), into the
// buffer, and writes the buffer out once it holds a chunk. It reports
// false when the stream stops.
func (s *stream) elem(v any, b []byte, isJSON bool) bool {
	mark := len(s.buf)
	if s.n > 0 && !s.ndjson {
		s.buf = append(s.buf, ',')
	}
	var c engine.Call
	s.buf = s.r.Append(s.buf, v, b, isJSON, s.in, s.n, &c)
	if c.Failed() {
		s.buf = s.buf[:mark]
		s.fail(s.e.callError(&c, s.pref))
		return false
	}
	if s.ndjson {
		s.buf = append(s.buf, '\n')
	}
	s.n++
	if len(s.buf) >= streamChunk {
		return s.flush()
	}
	return true
}

// fail stops the stream with err: NDJSON gets its problem line.
func (s *stream) fail(err error) {
	if s.err != nil {
		return
	}
	s.err = err
	if s.ndjson && s.sent { // before, the failure is the whole response (end)
		s.buf, _ = s.e.reg.appendProblem(s.buf, err, s.lang)
		s.buf = append(s.buf, '\n')
	}
}

// flush writes the buffer to w and flushes w, sending the response's
// header first. It reports false when w fails.
func (s *stream) flush() bool {
	if s.werr != nil {
		return false
	}
	if s.hw != nil && !s.sent {
		s.header(false)
	}
	s.sent = true
	if len(s.buf) > 0 {
		_, err := s.w.Write(s.buf)
		s.buf = s.buf[:0]
		if err != nil {
			s.werr = err
			return false
		}
	}
	switch {
	case s.rc != nil:
		s.rc.Flush() // a writer that cannot flush sends the chunk when it will
	case s.fl != nil:
		s.fl.Flush()
	}
	return true
}

// header sets the response's header and sends the status; whole says
// that the buffer holds the whole body.
func (s *stream) header(whole bool) {
	h := s.hw.Header()
	if len(h["Content-Type"]) == 0 {
		h["Content-Type"] = []string{jsonContentType}
	}
	if whole {
		h["Content-Length"] = []string{strconv.Itoa(len(s.buf))}
	}
	s.hw.WriteHeader(http.StatusOK)
}

// end closes the stream: the array's "]" when every element was written,
// what the buffer holds, and what the run and the stream borrowed. It
// returns the stream's error.
func (s *stream) end() error {
	defer s.release()
	switch {
	case s.err != nil && s.hw != nil && !s.sent:
		// Nothing sent yet: the failure is the whole response, as Write's.
		s.e.reg.writeProblem(s.hw, s.err, s.lang)
		return s.err
	case s.err == nil && !s.ndjson:
		s.buf = append(s.buf, ']')
	}
	if s.hw != nil && !s.sent && s.werr == nil {
		s.header(true)
		s.sent = true
	}
	s.flush()
	switch {
	case s.err != nil && s.werr != nil:
		return errors.Join(s.err, s.werr)
	case s.err != nil:
		return s.err
	}
	return s.werr
}

// release returns what the stream borrowed.
func (s *stream) release() {
	s.r.Done()
	engine.Release(s.bp, s.buf)
	s.buf, s.bp = nil, nil
}
