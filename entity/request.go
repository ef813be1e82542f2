package entity

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/expose-go/expose/internal/engine"
	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/internal/reqsource"
)

// requestFlags returns the flags NewContext stored in the context of r
// (nil for a nil r): the flags of every call that reads r, as
// WithContext(r.Context()) would set them.
func requestFlags(r *http.Request) []string {
	if r == nil {
		return nil
	}
	return FlagsFromContext(r.Context())
}

// methodHasBody reports whether a request of method reads its body
// fields from its body only, an absent body being an empty object: every
// method but GET, HEAD, DELETE and OPTIONS (and "", GET to net/http's
// client), which give a request's content no meaning without a body, and
// whose body fields are read from the query string when it has none. A
// link or a cross-site form can send a URL's query, so that a POST, PUT,
// PATCH (or any other method) must never take its body from there.
func methodHasBody(method string) bool { return !reqsource.QueryMethod(method) }

// MakeRequest reads the entity's fields from an HTTP request and makes
// them, as Make does, with strict conversions (see Strict; Lax turns them
// off). It reads the wire form, the shape a response writes: each field
// under its output key (after rename and the registry's key case), a group
// as the object under its key. Each field is read from one place: a field
// declared path, query, header or cookie from the URL path's parameter,
// the query string, the headers (so is a field whose name starts with X-)
// or a cookie; any other field from the body when the request has one,
// else, for a GET, HEAD, DELETE or OPTIONS request, from the query string.
// A request of any other method (POST, PUT, PATCH…) reads its body fields
// from its body only: without a body they are absent (a req one fails),
// whatever its query holds, since a link or a cross-site form can set a
// URL's query; a field the entity reads from the query is declared query.
// The parameters are the top level's (an entity's merged there too): an
// entity read below it ($name, []$name, one merged into a group) has its
// parameter fields as the server's, as readonly fields are, so that no
// request reads or judges them there (docs/requests.md).
// The body is JSON (Content-Type
// application/json or any +json type, parameters such as charset ignored;
// an object, read through the raw JSON path), or, for an entity whose
// methods hold the word form ("POST form": see dsl.Entity.Forms), a form
// (application/x-www-form-urlencoded or multipart/form-data: top-level
// fields only). A body never supplies a header field. A repeated query or
// form key gives a list field all its values; for any other field it is a
// list, which a none field takes as any value, a strict call refuses for
// the others as a "type" error naming the parameter ("got an array"), and
// Lax reads as its first value (a none field's too). A repeated
// header gives a list field all its values, another field the first.
// Path, query, header and cookie values are text, read strictly as text
// is, but that an integer there is decimal digits with an optional minus
// sign ("007", "-3"), nothing else ("2.0", "1e3", "+1" are type errors).
//
// Errors in the request itself are *InputError values whose StatusCode
// Write answers with:
//
//   - 405 (ErrMethod) when the declaration names methods (see
//     Registry.Expose) and r.Method is not one (HEAD is one where GET
//     is, as net/http's mux has it);
//   - 413 (ErrBodyTooLarge) for a body over the registry's
//     Limits.BodyBytes;
//   - 415 (ErrUnsupportedMediaType) for a body of another media type, or
//     without a Content-Type, naming the types read (InputError.Accept:
//     application/json, and the form types for an entity that reads
//     forms); for a form body sent to an entity that does not read forms;
//     and for a form body none of whose keys the entity declares while its
//     text is a JSON object or array (what `curl -d '{…}'` sends), telling
//     the client to send Content-Type: application/json. A body that is
//     empty, or only white space, is no body, whatever its Content-Type
//     (but multipart/form-data's, read by an entity that reads forms,
//     which is a 400: no multipart form);
//   - 400 (ErrInvalidJSON) for a JSON body that does not parse, with the
//     byte offset, from the body's first byte, where it stops being JSON
//     and what was expected there (InputError.Offset, HasOffset): "the
//     body is not valid JSON: at byte 17, expected ',' or '}'"; and for a
//     JSON body that is not an object: "the body is not a JSON object: at
//     byte 0, got an array". An empty JSON body is no body.
//
// Field errors are a *ValidationError (400: the client's, where Make's are
// the server's data's, 500). Their messages, and the texts of every
// error's problem, are in the language the request's Accept-Language
// header prefers among the registry's (q-values honoured, "ja-JP" finding
// "ja", English when none matches; see Registry.RequestLang), unless a
// Lang option says otherwise. Likewise the flags NewContext stored in r's
// context are the call's, as WithContext(r.Context()) would set them (a
// flag the registry does not declare is ignored), With and WithContext
// adding theirs: middleware that marks an admin's request shows the
// admin's fields to MakeRequest, Bind and Patch alike.
//
// A nil r is an empty input, as a typed nil is for Make: it is made as
// Make(nil) makes it, with no method to check. A request without a URL
// has no query.
func (e *Entity) MakeRequest(r *http.Request, opts ...Option) (*Object, error) {
	if e == nil {
		return nil, errNilEntity
	}
	o := e.opts(true, opts)
	o.CtxFlags = requestFlags(r)
	c := engine.Call{Dir: engine.Request, Top: engine.TopObject, Keep: true, KeepFailed: len(e.checks) > 0}
	req, pref, err := e.beginRequest(r, &c, opts)
	if err != nil {
		return nil, err
	}
	if r == nil { // an empty input, as a typed nil is for Make
		return e.endRequest(r, &c, pref, c.AppendCopy(e.c, nil, &o))
	}
	return e.endRequest(r, &c, pref, nilIfEmpty(c.AppendRequest(requestBuffer(&req), e.c, &req, &o)))
}

// requestBuffer returns the buffer a request's Object is written into:
// room for about its body's length, which the wire form writes again, so
// that writing it allocates once.
func requestBuffer(req *engine.HTTPRequest) []byte {
	if req.BodyLen <= 0 {
		return nil
	}
	return make([]byte, 0, req.BodyLen+req.BodyLen/8+64)
}

// nilIfEmpty returns nil for what a call that wrote nothing returns.
func nilIfEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// The request assembly MakeRequest, Bind and Patch share: beginRequest
// checks the method, reads the body by media type (but for Patch, which
// reads its own) and names the language the request prefers (Lang's,
// else its Accept-Language); endRequest turns what the engine call made
// into an Object, once the handle's checks passed. Every error is in the
// request's language. (The call's options stay in the caller's own
// variable, apart from all this, so that they never leave its stack.)

// beginRequest readies the call c of e for r: r's method and (for a
// request) body.
func (e *Entity) beginRequest(r *http.Request, c *engine.Call, opts []Option) (req engine.HTTPRequest, pref string, err error) {
	pref = requestPref(r, opts)
	if r == nil {
		return req, pref, nil
	}
	if err := e.checkMethod(r); err != nil {
		return req, pref, e.inRequestLang(err, pref)
	}
	req.R = r
	if r.URL != nil && r.URL.RawQuery != "" {
		req.Query = r.URL.Query()
	}
	if c.Dir == engine.Request {
		if err := readRequestBody(e, r, &req); err != nil {
			return req, pref, e.inRequestLang(err, pref)
		}
		req.Body = req.Body || methodHasBody(r.Method) // a POST without a body is an empty object, never its query
		c.MaxOut = e.reg.env.RequestOutputLimit(req.BodyLen)
	}
	return req, pref, nil
}

// inRequestLang returns err in the language pref prefers.
func (e *Entity) inRequestLang(err error, pref string) error {
	cat := e.reg.messages()
	return inLang(err, msgLang{cat, cat.match(pref)})
}

// endRequest returns the Object of what the call c made, data, once the
// handle's checks passed, or the call's error.
//
// When fields failed, and the handle has checks, the checks still run, on
// what the call wrote (Call.KeepFailed), as long as every failure is
// listed (none past Limits.Errors, where theirs would be too): their
// field errors join the declared rules' in one problem.
func (e *Entity) endRequest(r *http.Request, c *engine.Call, pref string, data []byte) (*Object, error) {
	if c.Failed() {
		err := e.callError(c, pref) // in the request's language
		if c.Fatal != nil {
			if errors.Is(err, ErrTooLarge) && c.Dir != engine.Response {
				err = e.inRequestLang(requestTooLarge(err, int(c.MaxOut)), pref)
			}
			return nil, err
		}
		if ve, ok := err.(*ValidationError); ok && len(e.checks) > 0 && c.Omitted == 0 && data != nil { // callError's, without a Fatal
			err = e.inRequestLang(e.runChecks(r, newObject(c.Made(data)), ve), pref)
		}
		return nil, err
	}
	o := newObject(c.Made(data))
	if len(e.checks) > 0 {
		if err := e.runChecks(r, o, nil); err != nil {
			return nil, e.inRequestLang(err, pref)
		}
	}
	return o, nil
}

// MergePatchType is the media type of a JSON Merge Patch, the body Patch
// reads.
const MergePatchType = engine.MergePatchType

// Patch reads the request r, a JSON Merge Patch (RFC 7396, Content-Type
// application/merge-patch+json) in the wire form, and applies it to
// current, the resource's value as the server holds it (a map, a struct,
// raw JSON, an *Object: any input Make reads), with the entity: a key the
// patch leaves out keeps its value, a null clears it, an object merges
// into the object the current value holds there (a group's, a $name's, a
// none or object field's), recursively, and anything else replaces the
// value: a list is replaced whole, and read as MakeRequest reads it (as is
// a $name's object given where the current value holds none: a writeonly
// req field in them is required, as in a POST). A null for a group clears
// it, but for its readonly fields (the group is then an object of them).
// A key the patch gives twice has its last value. Then it judges the merged
// value once, as the entity judges a request, strictly (a req field the
// patch clears is a 400), but that a readonly field keeps its current
// value, as the server holds it (the patch's is ignored; nothing judges
// it, its cross-field rules neither), and a writeonly one the patch does not give is not read: it is not
// in the merged value, so that Bind of it leaves the server's value.
//
// An immutable field (`immutable`: set once) may not change: a patch that
// sends the value it holds (the same JSON value, however spelled, or the
// same value of its type: 10 and "10", two spellings of one instant), or
// leaves it, is accepted, and so is one that gives a value where the
// current value holds none (null or no key: set once, as a request that
// creates sets it); one that changes it, or clears it (a null for it, or
// for a group or a $name that holds it), fails with code "immutable" at
// its path, quoting no value, with the merged value's other failures; a
// refused null leaves the object as stored, judged as the stored values
// a patch leaves are. Under Lax, anything but an object given to a group
// or a $name is its null, and an integer is compared as Lax reads it
// (0.5 is 0). An
// object value merged into the stored one is compared once merged. The
// elements of a list the patch gives ([]$name) are new, read as
// MakeRequest reads them, immutable fields included; a $name's object
// given where the current value holds none (a writeonly $name's, always)
// is too. A union's object ($card|$invoice by 'method') that names the
// variant the current value holds, or no key, merges into that variant;
// one that names another variant replaces it whole, read as MakeRequest
// reads it.
//
// The current value is read as it is stored, in the call's flags and
// version, without running its rules, and what of it the patch leaves is
// taken as stored: the server's, judged when it was stored, not judged
// again (no rule, type, transform, req or default; an object or list of
// it at every depth, copied as it is). What the patch gives is judged as
// a request judges it, and so is what the merged value lacks where the
// patch merges into an object (a default fills a field the patch clears;
// a req one is a 400), with the cross-field rules of the fields the patch
// gives or clears, and those naming them (docs/requests.md, "PATCH").
//
// It returns the merged value, an Object holding the fields of both
// directions (Get, Map and Bind see its writeonly values, and the values
// its omitnil and omitempty leave out of a response; MarshalJSON and every
// response write it through the response view, without them), and the
// paths of the fields the patch set or cleared ("name", "address.city"),
// in the order the patch gives them. Nothing is changed on failure:
// current is only read.
//
// The call's language and flags are MakeRequest's: the request's
// Accept-Language and the flags of its context (NewContext), which make
// the current value too, besides those of its options.
//
// The errors are MakeRequest's: a *ValidationError for the fields that
// fail (400), an *InputError for the request itself (405 for a method the
// declaration does not name, 415 for another Content-Type, 413 for a body
// past the limit, 400 for a body that is no JSON object); a current value
// that cannot be read (one Make refuses, raw JSON that does not parse, a
// value that fails to be read, such as a driver.Valuer's error) is the
// server's error (500).
func (e *Entity) Patch(r *http.Request, current any, opts ...Option) (_ *Object, touched []string, err error) {
	if e == nil {
		return nil, nil, errNilEntity
	}
	if r == nil {
		return nil, nil, newInputError(ErrUnsupportedMediaType, "problem.media.patch", nil)
	}
	o, cur := e.opts(true, opts), e.currentOpts(opts)
	o.CtxFlags = requestFlags(r)
	cur.CtxFlags = o.CtxFlags
	c := engine.Call{Dir: engine.Patch, Top: engine.TopObject, Keep: true, KeepFailed: len(e.checks) > 0}
	req, pref, err := e.beginRequest(r, &c, opts)
	if err != nil {
		return nil, nil, err
	}
	body, err := e.patchBody(r)
	if err == nil {
		current, err = e.currentValue(current, opts)
	}
	if err != nil {
		return nil, nil, e.inRequestLang(err, pref)
	}
	data, touched := c.AppendPatch(nil, e.c, &req, body, current, &o, &cur)
	merged, err := e.endRequest(r, &c, pref, data)
	if err != nil {
		return nil, nil, err
	}
	return merged, touched, nil
}

// patchBody reads the merge patch a PATCH request holds: a 415 for
// another media type, a 413 past the body limit.
func (e *Entity) patchBody(r *http.Request) ([]byte, error) {
	if mt, _, _ := mime.ParseMediaType(headerValue(r.Header, "Content-Type")); mt != MergePatchType {
		ie := newInputError(ErrUnsupportedMediaType, "problem.media.patch", nil)
		ie.Accept = MergePatchType
		return nil, ie
	}
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	body, err := readBody(r, e.reg.env.Limits().BodyBytes)
	if err != nil {
		return nil, bodyError(err)
	}
	return body, nil
}

// currentValue returns the current value of a patch as the engine reads
// it: a request's is its Object, made as any Object of a request is.
func (e *Entity) currentValue(current any, opts []Option) (any, error) {
	if cr, ok := current.(*http.Request); ok && cr != nil {
		return e.MakeRequest(cr, opts...)
	}
	return current, nil
}

// currentOpts returns the options the current value of a patch is made
// with: the call's flags and version decide which fields are there (no
// other option: a selection shapes the answer, not what is kept).
func (e *Entity) currentOpts(opts []Option) engine.Opts {
	o := engine.Opts{FlagsOnly: true, List: engineOptions(opts)}
	for _, x := range opts {
		if k := x.o.Kind; k == engine.OptWith || k == engine.OptWithContext || k == engine.OptVersion {
			o.Shaped = true
		}
	}
	return o
}

// checkMethod returns the error (405) of a request whose method the
// declaration does not name; HEAD is GET's, as net/http's mux has it.
func (e *Entity) checkMethod(r *http.Request) error {
	methods := e.c.Methods()
	if len(methods) == 0 || slices.Contains(methods, r.Method) ||
		r.Method == http.MethodHead && slices.Contains(methods, http.MethodGet) {
		return nil
	}
	ie := newInputError(ErrMethod, "problem.method", map[string]any{"allow": strings.Join(methods, ", ")}) // not the method: the client's text
	ie.Allow = strings.Join(methods, ", ")
	return ie
}

// readRequestBody reads r's body into req, as its Content-Type says, and
// its length. An entity that reads nothing from a body (its fields
// are all path, query, header or cookie parameters) leaves the body
// unread, for the handler (a PATCH's merge patch, read by Patch).
func readRequestBody(e *Entity, r *http.Request, req *engine.HTTPRequest) error {
	if r.Body == nil || r.Body == http.NoBody || !e.c.ReadsBody() {
		return nil
	}
	limit := e.reg.env.Limits().BodyBytes
	ct := headerValue(r.Header, "Content-Type")
	mt := ct // the common case, without parameters to parse
	if ct != "application/json" {
		mt, _, _ = mime.ParseMediaType(ct) // a bad parameter gives the type and an error
	}
	switch {
	case ct == "":
		body, err := readBody(r, limit)
		if err != nil {
			return bodyError(err)
		}
		if len(jsonwire.TrimSpace(jsonwire.View(body))) > 0 {
			return mediaError(e, "problem.media.none")
		}
		return nil
	case mt == "":
		return mediaError(e, "problem.media.unparsed")
	case isJSONMediaType(mt):
		body, err := readBody(r, limit)
		if err != nil {
			return bodyError(err)
		}
		if len(jsonwire.TrimSpace(jsonwire.View(body))) > 0 {
			req.JSON, req.Body = body, true
		}
		req.BodyLen = int64(len(body))
		return nil
	case !e.c.Forms() && (mt == formType || mt == multipartType):
		return formRefused(r, limit, mt)
	case mt == formType:
		form, n, err := readForm(r, limit, e)
		if err != nil || form == nil {
			return err
		}
		req.Form, req.Body, req.BodyLen = form, true, n
		return nil
	case mt == multipartType:
		r.Body = http.MaxBytesReader(nil, r.Body, limit)
		if err := r.ParseMultipartForm(limit); err != nil {
			return formError(err, true)
		}
		req.Form, req.Body = r.PostForm, true
		if r.MultipartForm != nil {
			for k := range r.MultipartForm.File {
				req.Files = append(req.Files, k)
			}
		}
		req.BodyLen = formLen(r.PostForm)
		return nil
	}
	body, err := readBody(r, limit)
	if err != nil {
		return bodyError(err)
	}
	if len(jsonwire.TrimSpace(jsonwire.View(body))) == 0 {
		return nil // no body, whatever its type says
	}
	return mediaError(e, "problem.media.other") // not the type: the client's text
}

// The form media types, which an entity reads when its methods string
// holds the word form (dsl.Entity.Forms).
const (
	formType      = "application/x-www-form-urlencoded"
	multipartType = "multipart/form-data"
)

// mediaError returns the 415 of a request body e does not read, of the
// catalog key given (the .form one for an entity that reads forms): it
// accepts the media types e reads.
func mediaError(e *Entity, key string) *InputError {
	accept := jsonMediaType
	if e.c.Forms() {
		key += ".form"
		accept = formMediaTypes
	}
	ie := newInputError(ErrUnsupportedMediaType, key, nil)
	ie.Accept = accept
	return ie
}

// formRefused returns the 415 of a form body (of media type mt) sent to an
// entity that reads JSON only: JSON sent as a form (what curl -d sends) is
// told so, any other form that the endpoint takes JSON. An empty body, or
// only white space, is no body, whatever its type says (nil).
func formRefused(r *http.Request, limit int64, mt string) error {
	body, err := readBody(r, limit)
	if err != nil {
		return bodyError(err)
	}
	key := "problem.media.form"
	switch {
	case len(jsonwire.TrimSpace(jsonwire.View(body))) == 0:
		return nil
	case mt == formType && isJSONText(body):
		key = "problem.media.json-form"
	}
	ie := newInputError(ErrUnsupportedMediaType, key, nil)
	ie.Accept = jsonMediaType
	return ie
}

// readForm reads an application/x-www-form-urlencoded body of at most
// limit bytes, as r.ParseForm does (r.PostForm and r.Form are set), and
// returns its values and its length; nil values for a body that is empty,
// or only white space (no body). A form none of whose keys e
// declares, while its text is a JSON object or array, is JSON sent with
// the wrong Content-Type (curl -d sends this one by default): a 415 that
// says so, rather than every field reported missing. So is such JSON
// that does not parse as a form ({"off":"50%"}).
func readForm(r *http.Request, limit int64, e *Entity) (url.Values, int64, error) {
	body, err := readBody(r, limit)
	if err != nil {
		return nil, 0, bodyError(err)
	}
	if len(jsonwire.TrimSpace(jsonwire.View(body))) == 0 {
		return nil, 0, nil
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	err = r.ParseForm()
	if (err != nil || !e.c.DeclaresAny(r.PostForm)) && isJSONText(body) {
		ie := newInputError(ErrUnsupportedMediaType, "problem.media.json-form", nil)
		ie.Accept = formMediaTypes
		return nil, 0, ie
	}
	if err != nil {
		return nil, 0, formError(err, false)
	}
	return r.PostForm, int64(len(body)), nil
}

// isJSONText reports whether b is a JSON object or array.
func isJSONText(b []byte) bool {
	s := jsonwire.TrimSpace(jsonwire.View(b))
	if s == "" || s[0] != '{' && s[0] != '[' {
		return false
	}
	var tape []int32
	code, _ := jsontape.Scan(s, jsontape.MaxNesting, &tape)
	return code == jsontape.OK
}

// formLen returns the length of a form's keys and values: what a request
// body holding it reads as, for the request's output limit.
func formLen(f url.Values) int64 {
	var n int64
	for k, vs := range f {
		for _, v := range vs {
			n += int64(len(k) + len(v) + 2)
		}
	}
	return n
}

// bodyError turns an error reading a request body into an InputError.
func bodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return newInputError(ErrBodyTooLarge, "problem.body.too-large", map[string]any{"limit": mbe.Limit})
	}
	return newInputError(fmt.Errorf("%w: %w", errUnreadableBody, err), "problem.body.unreadable", nil)
}

// formError turns an error parsing a form body into an InputError: a body
// over the limit is 413, any other is 400 saying what kind of form did not
// parse (never the body's words).
func formError(err error, multipartForm bool) error {
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return bodyError(err)
	case errors.Is(err, http.ErrMissingBoundary):
		return newInputError(fmt.Errorf("%w: %w", errUnreadableBody, err), "problem.body.no-boundary", nil)
	case errors.Is(err, http.ErrNotMultipart):
		return newInputError(fmt.Errorf("%w: %w", errUnreadableBody, err), "problem.body.not-multipart", nil)
	case multipartForm:
		return newInputError(fmt.Errorf("%w: %w", errUnreadableBody, err), "problem.body.multipart", nil)
	}
	return newInputError(fmt.Errorf("%w: %w", errUnreadableBody, err), "problem.body.form", nil)
}

// readBody reads a request body of at most limit bytes. Its slice grows
// with what arrives: to firstChunk at first, then each time it is full to
// four times its size, or to the body's stated length when that is at
// most twice as much again, so that it never holds more than eight times
// the bytes read so far. A Content-Length is the client's claim: it caps
// the growth (a body as long as it says ends in a slice of its length)
// but never sizes a slice by itself, so that a 9-byte body claiming 256
// MiB allocates a few KiB. A large body so allocates about a third more
// than its length (io.ReadAll grows its slice by a quarter at a time,
// allocating about five times a large body).
func readBody(r *http.Request, limit int64) ([]byte, error) {
	body := http.MaxBytesReader(nil, r.Body, limit)
	end := limit // the longest body read: past it MaxBytesReader fails
	if r.ContentLength >= 0 && r.ContentLength < limit {
		end = r.ContentLength
	}
	size := int64(firstChunk)
	if end < firstChunk {
		size = end + 1 // a byte to spare: the read that finds the end needs room, and the probe below escapes
	}
	b := make([]byte, 0, size)
	for {
		if len(b) == cap(b) {
			// Full: see whether the body ends here before growing, so that
			// a body of the slice's size allocates nothing more.
			var probe [512]byte
			n, err := body.Read(probe[:])
			if err != nil && err != io.EOF {
				return nil, err
			}
			if n > 0 {
				b = append(growBody(b, end, n), probe[:n]...)
			}
			if err == io.EOF {
				return b, nil
			}
			continue
		}
		n, err := body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		switch {
		case err == io.EOF:
			return b, nil
		case err != nil:
			return nil, err
		}
	}
}

// firstChunk is the first slice readBody reads a body of unknown or
// larger length into.
const firstChunk = 4 << 10

// growBody returns b, full, in a slice with room for at least more bytes:
// four times as large, or end (the body's stated length, or the limit)
// when that is at most twice as much again; past end, a body longer than
// it said, four times as large (MaxBytesReader stops it at the limit).
func growBody(b []byte, end int64, more int) []byte {
	c := int64(cap(b))
	n := 4 * c
	if c < end && end/2 <= n {
		n = end
	}
	n = max(n, c+int64(more), firstChunk)
	nb := make([]byte, len(b), n)
	copy(nb, b)
	return nb
}

// isJSONMediaType reports whether mt (lower-cased, without parameters) is
// JSON: application/json, or a type/subtype whose subtype ends in +json
// after a name of its own (application/merge-patch+json; not +json alone).
func isJSONMediaType(mt string) bool {
	if mt == "application/json" {
		return true
	}
	slash := strings.IndexByte(mt, '/')
	return slash > 0 && strings.HasSuffix(mt, "+json") && len(mt)-slash-1 > len("+json")
}

// Bind reads the request r with the entity (MakeRequest: the wire form,
// strictly unless Lax is given) and stores the values it made in dst by
// their declared names (Object.Bind): dst is a pointer to a struct whose
// fields are matched by their json tags to the declared names, a group's
// fields beside their siblings, a reference's in a struct or a slice of
// structs, a date in a time.Time, as Make reads a struct, so that Make of
// dst writes the request's response form again; or a pointer to a map.
// What reaches dst has been validated, converted and defaulted; writeonly
// values are there, readonly ones are not. `expose gen` writes such a
// struct from .entity files.
//
//	type newUser struct { // entity: name, born, address { city }, tags []$tag
//		Name string    `json:"name"`
//		Born time.Time `json:"born"`
//		City string    `json:"city"` // the group's field, beside its siblings
//		Tags []tag     `json:"tags"`
//	}
//
//	func createUser(w http.ResponseWriter, r *http.Request) {
//		var u newUser
//		if err := users.Bind(r, &u); err != nil {
//			entity.WriteError(w, err) // 400, 405, 413, 415 or 500, as problem details
//			return
//		}
//		// u holds what the declaration allows, nothing else
//	}
//
// The errors are MakeRequest's, as they are: a *ValidationError (400) for
// the fields that fail, an *InputError for the request itself, each in the
// request's language. A handler's own checks join the library's errors in
// one problem through Entity.Fail or Entity.Checked. A dst that is not a
// non-nil pointer to a struct, a map or an interface is a programming
// error, returned before the request is read. A dst whose fields cannot
// hold the values the entity makes (an int field for a string key) is one
// too, found when such a value is stored, after the request is read (a
// null goes into any field). Both are plain errors, which Write answers
// with 500, and neither quotes a value; entitytest.CheckStruct(t, e, T{},
// entitytest.Request()) tells in a test whether a struct holds what a request
// gives. How the values are stored (encoding/json's rules, by a writer
// compiled per struct type, strings sharing the request's made text, and
// sql.Scanner, json.Unmarshaler and encoding.TextUnmarshaler fields filled
// by their methods) is Object.Bind's.
func (e *Entity) Bind(r *http.Request, dst any, opts ...Option) error {
	if e == nil {
		return errNilEntity
	}
	if err := checkDst(e, dst); err != nil {
		return err
	}
	o, err := e.MakeRequest(r, opts...)
	if err != nil {
		return err
	}
	if err := bindMade(o.m(), dst); err != nil {
		return inLang(decodeError(e, dst, err), e.reg.requestLang(r, opts)) // its 500 in the request's language
	}
	return nil
}

// bindMade stores m's values in dst by their declared names: a struct
// through the writer compiled for its type (engine.BindStruct), what it
// leaves (a map, an interface, a plan merging a $ref's keys) through the
// declared text.
func bindMade(m *engine.Made, dst any) error {
	if ok, err := engine.BindStruct(m, dst); ok {
		return err
	}
	return engine.BindText(m, dst)
}

// checkDst reports a dst that Bind cannot store into.
func checkDst(e *Entity, dst any) error {
	rv := reflect.ValueOf(dst)
	switch {
	case dst == nil:
		return errors.New(bindPrefix(e) + "dst is nil, want a pointer to a struct or a map")
	case rv.Kind() != reflect.Pointer:
		return errors.New(bindPrefix(e) + "dst is a " + rv.Type().String() + ", not a pointer: pass &dst")
	case rv.IsNil():
		return errors.New(bindPrefix(e) + "dst is a nil " + rv.Type().String())
	}
	switch k := rv.Type().Elem().Kind(); {
	case k == reflect.Struct, k == reflect.Map, k == reflect.Interface:
	case k == reflect.Pointer && rv.Type().Elem().Elem().Kind() == reflect.Struct:
	default:
		return errors.New(bindPrefix(e) + "dst is a " + rv.Type().String() + ": want a pointer to a struct or a map")
	}
	return nil
}

func bindPrefix(e *Entity) string {
	return "entity " + strconv.Quote(e.Name()) + ": Bind: "
}

// decodeError describes why the values made could not be stored in dst,
// without the values: encoding/json quotes numbers in its messages, and an
// UnmarshalJSON method (time.Time's) its whole input, which may be a
// secret. The original error stays reachable through errors.As.
func decodeError(e *Entity, dst any, err error) error {
	var b strings.Builder
	b.WriteString(bindPrefix(e))
	b.WriteString("the values do not decode into ")
	b.WriteString(reflect.TypeOf(dst).String())
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		b.WriteString(": ")
		if ute.Field != "" {
			b.WriteString("field ")
			b.WriteString(ute.Field)
			b.WriteString(" of ")
		}
		b.WriteString("Go type ")
		if ute.Type != nil {
			b.WriteString(ute.Type.String())
		}
		kind, _, _ := strings.Cut(ute.Value, " ") // "number 12.5": the kind only
		b.WriteString(" cannot hold a JSON ")
		b.WriteString(kind)
	} else {
		b.WriteString(": a value fails the UnmarshalJSON of its Go field")
	}
	return &bindError{msg: b.String(), err: err}
}
