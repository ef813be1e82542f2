package entity

import (
	"errors"
	"net/http"
	"strconv"
)

// Write makes v with the entity named and writes it as an HTTP response. See
// Entity.Write.
func (r *Registry) Write(w http.ResponseWriter, name string, v any) error {
	e, err := r.entity(name)
	if err != nil {
		WriteError(w, err)
		return err
	}
	return e.Write(w, v)
}

// Write makes v with the entity named in the Default registry and writes it
// as an HTTP response. See Entity.Write.
func Write(w http.ResponseWriter, name string, v any) error { return Default.Write(w, name, v) }

// Write makes v and writes it as an HTTP response: status 200 and
// Content-Type application/json; charset=utf-8 on success. When fields fail,
// it writes the ValidationError's status (400) and a JSON body listing every
// field error:
//
//	{"error":"validation failed","entity":"user","fields":[
//	  {"path":"name","outputPath":"name","rule":"req","message":"is required"}]}
//
// An error that carries its own status (a StatusCode() int method returning
// 4xx) is written with that status and its message; any other error is
// written as 500 with a body that says nothing of it. Write returns the
// error, for logging. Nothing of a failed make is ever written.
func (e *Entity) Write(w http.ResponseWriter, v any) error {
	return e.WriteStatus(w, http.StatusOK, v)
}

// WriteStatus is Write with another success status, such as 201 Created.
func (e *Entity) WriteStatus(w http.ResponseWriter, status int, v any) error {
	bp := bufPool.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= maxPooled {
			*bp = (*bp)[:0]
			bufPool.Put(bp)
		}
	}()
	b, err := e.AppendJSON((*bp)[:0], v)
	*bp = b
	if err != nil {
		WriteError(w, err)
		return err
	}
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = e.contentLength(len(b))
	w.WriteHeader(status)
	_, err = w.Write(b)
	return err
}

var jsonContentType = []string{"application/json; charset=utf-8"}

// contentLength returns the Content-Length header value for n bytes. The
// entity keeps the last one it wrote, since the responses of one endpoint
// often have one size, which saves the two allocations of a new header
// value. (The slice is shared, as jsonContentType is: net/http's Header
// methods replace values, never modify them in place.)
func (e *Entity) contentLength(n int) []string {
	if cl := e.lastLength.Load(); cl != nil && cl.n == n {
		return cl.value
	}
	cl := &headerLength{n: n, value: []string{strconv.Itoa(n)}}
	e.lastLength.Store(cl)
	return cl.value
}

// headerLength is a Content-Length header value and the length it says.
type headerLength struct {
	n     int
	value []string
}

// statusCoder is an error that knows its HTTP status.
type statusCoder interface{ StatusCode() int }

// WriteError writes err as the JSON error response Write gives: a
// ValidationError as 400 with every field error; an InputError (or another
// error with a 4xx StatusCode method) with its status and message, and an
// Allow header for 405; any other error as 500 with a body that says
// nothing of it.
func WriteError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	var body []byte
	var ve *ValidationError
	var ie *InputError
	var sc statusCoder
	h := w.Header()
	switch {
	case errors.As(err, &ve):
		status = ve.StatusCode()
		body = ve.AppendJSON(nil)
	case errors.As(err, &ie) && ie.Status >= 400 && ie.Status < 500:
		status = ie.Status
		body = appendString(append(body, `{"error":`...), ie.Msg)
		body = append(body, '}')
		if ie.Allow != "" {
			h["Allow"] = []string{ie.Allow}
		}
	case errors.As(err, &sc) && sc.StatusCode() >= 400 && sc.StatusCode() < 500:
		status = sc.StatusCode()
		body = appendString(append(body, `{"error":`...), err.Error())
		body = append(body, '}')
	default:
		body = []byte(`{"error":"internal server error"}`)
	}
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	h["X-Content-Type-Options"] = []string{"nosniff"}
	w.WriteHeader(status)
	w.Write(body)
}

// AppendJSON appends the error as the JSON body that Write sends:
// {"error":"validation failed","entity":…,"fields":[{"path":…,"outputPath":…,"rule":…,"message":…},…]}.
func (e *ValidationError) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"error":"validation failed","entity":`...)
	dst = appendString(dst, e.Entity)
	dst = append(dst, `,"fields":[`...)
	for i, f := range e.Fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"path":`...)
		dst = appendString(dst, f.Path)
		dst = append(dst, `,"outputPath":`...)
		dst = appendString(dst, f.OutputPath)
		dst = append(dst, `,"rule":`...)
		dst = appendString(dst, f.Rule)
		dst = append(dst, `,"message":`...)
		dst = appendString(dst, f.Message)
		dst = append(dst, '}')
	}
	return append(dst, "]}"...)
}
