package entity

import (
	"net/http"
	"strconv"
)

// Write makes v and writes it as an HTTP response: status 200 and
// Content-Type application/json; charset=utf-8 on success. On failure it
// writes the error as WriteError does, with the registry's problem type
// base and log hook, in the call's language (Lang, or the Accept-Language
// of a request v): RFC 9457 problem details (Content-Type
// application/problem+json). Fields of the server's data that fail (v is
// a map, a struct, raw JSON, an Object: what the server writes) are the
// server's fault: 500, with a body that says nothing of them but its
// "instance", the id the registry's log hook gets with the error. Fields
// of a request v (an *http.Request, read by MakeRequest) are the client's:
// 400 with every field error,
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
	bp := bufPool.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= maxPooled {
			*bp = (*bp)[:0]
			bufPool.Put(bp)
		}
	}()
	b, err := e.AppendJSON((*bp)[:0], v, opts...)
	*bp = b
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
	hv.vals[1] = bytesString(d)
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
