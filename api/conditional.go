package api

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/internal/jsonwire"
)

// Conditional requests (RFC 9110, section 13): a GET (HEAD), PUT or PATCH
// route with a Response entity answers a strong ETag of the bytes its
// handler wrote (appendTag, the one place a tag is made), a GET's
// If-None-Match that names it is a 304, and Precondition tells a handler
// whether a change's If-Match (and If-None-Match) holds for the current
// value, as the same caller's GET answers it.

// ErrPreconditionFailed is what the *entity.InputError of a request whose
// If-Match or If-None-Match does not hold wraps (412 Precondition Failed).
var ErrPreconditionFailed = errors.New("api: the request's precondition does not hold")

// tagLen is the length of an entity tag: 32 hexadecimal digits, quoted.
const tagLen = 2 + 2*16

// appendTag appends the strong entity tag of a representation's bytes to
// dst: the first 16 bytes of their SHA-256, in hexadecimal, quoted. Two
// bodies that differ in a byte (another audience's fields, another
// selection) have two tags. It is the one place a tag is made.
func appendTag(dst, body []byte) []byte {
	sum := sha256.Sum256(body)
	dst = append(dst, '"')
	dst = hex.AppendEncode(dst, sum[:16])
	return append(dst, '"')
}

// matches reports whether the header value list of If-Match or
// If-None-Match (comma-separated entity tags, or "*") names tag: "*"
// names any current representation; weak compares opaque tags alone
// (W/"x" names "x"), as If-None-Match does, strong only a strong tag of
// the same opaque tag, as If-Match does. A list that does not parse names
// nothing.
func matches(values []string, tag string, weak bool) bool {
	for _, v := range values {
		for v != "" {
			v = strings.TrimLeft(v, " \t,")
			if v == "" {
				break
			}
			if v[0] == '*' {
				return true
			}
			isWeak := strings.HasPrefix(v, "W/")
			if isWeak {
				v = v[2:]
			}
			if v == "" || v[0] != '"' {
				return false
			}
			end := strings.IndexByte(v[1:], '"')
			if end < 0 {
				return false
			}
			t := v[:end+2]
			v = v[end+2:]
			if t == tag && (weak || !isWeak) {
				return true
			}
		}
	}
	return false
}

// Precondition evaluates the preconditions of r, a request that changes
// a resource (PUT, PATCH, DELETE…), against current, the resource's value
// as the server holds it, before the handler changes anything: current is
// made with e and opts as a response (the options the same caller's GET
// writes it with: entity.WithContext, entity.Select…), and its tag (ETag)
// is the one that GET answered. It returns nil when the change may
// proceed, and an *entity.InputError of status 412 wrapping
// ErrPreconditionFailed, for entity.Registry.WriteError, when
//
//   - r's If-Match names no strong tag equal to current's (If-Match: * is
//     any current value; a nil current or nil pointer, no value at all,
//     matches nothing), or
//   - r's If-None-Match names current's tag (compared weakly) or is "*",
//     on a method other than GET or HEAD (whose If-None-Match the API
//     answers with a 304 from the bytes its handler writes).
//
// A request with neither header costs nothing: current is not made.
// Otherwise the error of making it (a bad selection: 400; the server's
// data: 500) is returned as Write would answer it. The handler answers
// the change with the same options; the API's ETag then says the new
// value's tag.
//
//	if err := api.Precondition(r, customers, c, opts...); err != nil {
//		reg.WriteError(w, err) // 412: nothing is changed
//		return
//	}
func Precondition(r *http.Request, e *entity.Entity, current any, opts ...entity.Option) error {
	ifMatch, ifNone := r.Header["If-Match"], r.Header["If-None-Match"]
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		ifNone = nil
	}
	if len(ifMatch) == 0 && len(ifNone) == 0 {
		return nil
	}
	failed := &entity.InputError{Status: http.StatusPreconditionFailed, Err: ErrPreconditionFailed}
	if v := reflect.ValueOf(current); current == nil || v.Kind() == reflect.Pointer && v.IsNil() {
		if len(ifMatch) > 0 {
			return failed
		}
		return nil // If-None-Match: no current value matches it
	}
	bp := bodyPool.Get().(*[]byte)
	b, err := e.AppendJSON((*bp)[:0], current, opts...)
	var arr [tagLen]byte
	tag := ""
	if err == nil {
		tag = string(appendTag(arr[:0], b))
	}
	if cap(b) <= maxPooledBody {
		*bp = b[:0]
		bodyPool.Put(bp)
	}
	if err != nil {
		return err
	}
	switch {
	case len(ifMatch) > 0 && !matches(ifMatch, tag, false):
		return failed
	case len(ifNone) > 0 && matches(ifNone, tag, true):
		return failed
	}
	return nil
}

// bodyPool holds the buffers Precondition makes current values in; one
// that grew past maxPooledBody is left to the collector.
const maxPooledBody = 64 << 10

var bodyPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// taggedMethod reports whether the answers of a route of method carry the
// ETag of their body: a representation of the resource (GET, HEAD) or of
// what a change made of it (PUT, PATCH).
func taggedMethod(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodPatch:
		return true
	}
	return false
}

// tagWriter is the ResponseWriter of a tagged route's handler. It holds
// back a success status until the body's first write: a body written
// whole in it (its Content-Length says so, as entity.Write sets it) gets
// its ETag, unless the handler set one; a GET's or HEAD's whose
// If-None-Match names the tag is answered 304 with no body. Any other
// answer (an error status, a body written in parts, a flush) passes
// through as written.
type tagWriter struct {
	http.ResponseWriter
	r      *http.Request
	status int  // the success status held back, 0 for none
	passed bool // the answer is the handler's, as it writes it
	// The ETag header's value slice and the tag's bytes, in the writer's
	// one allocation: the bytes are written once, before the string that
	// views them is made, and never again.
	etag [1]string
	tag  [tagLen]byte
}

// WriteHeader holds back a 2xx status, and passes any other through.
func (w *tagWriter) WriteHeader(status int) {
	if !w.passed && w.status == 0 && status >= 200 && status < 300 {
		w.status = status
		return
	}
	w.pass()
	w.ResponseWriter.WriteHeader(status)
}

// Write tags a body written whole, or passes it through.
func (w *tagWriter) Write(b []byte) (int, error) {
	if w.passed {
		return w.ResponseWriter.Write(b)
	}
	if w.status == 0 {
		w.status = http.StatusOK
	}
	h := w.Header()
	if cl := h["Content-Length"]; len(cl) == 1 && wholeBody(cl[0], len(b)) {
		tag := h.Get("ETag")
		if tag == "" {
			w.etag[0] = jsonwire.View(appendTag(w.tag[:0], b))
			tag = w.etag[0]
			h["Etag"] = w.etag[:1:1]
		}
		if w.status == http.StatusOK && (w.r.Method == http.MethodGet || w.r.Method == http.MethodHead) &&
			matches(w.r.Header["If-None-Match"], tag, true) {
			delete(h, "Content-Type")
			delete(h, "Content-Length")
			w.passed = true
			w.ResponseWriter.WriteHeader(http.StatusNotModified)
			return len(b), nil
		}
	}
	w.pass()
	return w.ResponseWriter.Write(b)
}

// wholeBody reports whether a Content-Length of cl says that a body of n
// bytes is all of it.
func wholeBody(cl string, n int) bool {
	l, err := strconv.Atoi(cl)
	return err == nil && l == n
}

// pass sends the status held back, and leaves the rest to the handler.
func (w *tagWriter) pass() {
	if w.passed {
		return
	}
	w.passed = true
	if w.status != 0 {
		w.ResponseWriter.WriteHeader(w.status)
	}
}

// Flush sends what is held back and flushes the answer.
func (w *tagWriter) Flush() {
	w.pass()
	http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap returns the ResponseWriter underneath, for
// http.ResponseController.
func (w *tagWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
