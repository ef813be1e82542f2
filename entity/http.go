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

	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/internal/reqsource"
	"github.com/expose-go/expose/rules"
)

// Requests: an entity's request view reads what a client sends in the wire
// form (compile_view.go). A top-level field is read from one place: a
// parameter from where its directive says (a header field from the
// headers); any other from the body when the request has one (JSON or a
// form) or its method has one (methodHasBody: no body is then an empty
// object), else from the query string.

// requestSource reads the top-level fields of a request.
type requestSource struct {
	r      *http.Request
	reg    *Registry // its PathValues
	query  url.Values
	form   url.Values
	files  []string    // the names of a multipart body's file parts (for DenyUnknown)
	js     *jsonObject // the JSON body, nil if none
	header http.Header
	body   bool // the request has a body (JSON or a form), or its method has one: fields are not read from the query
	strict bool // the call reads strictly: a repeated key is a list, for every field (see keyValues)
}

// get reads a field from where it comes: a parameter (path, query, header,
// cookie) from there only (a header a trusted proxy sets, X-User-Id, must
// not be supplied by the client in the query or the body when the proxy
// leaves it out); any other from the body, or from the query when there is
// no body and the method has none (GET, HEAD, DELETE, OPTIONS). What the
// path, the query, a header or a cookie gives is a parameter's text
// (raw.param: an integer there is decimal digits). A query or form key is
// read by keyValues; a header gives a list field all its values, another
// field the first.
func (s *requestSource) get(n *node) raw {
	switch {
	case n.src == srcHeader:
		if vs := s.header[n.header]; len(vs) > 0 {
			if n.typ == rules.List {
				return raw{a: vs, param: true}
			}
			return raw{kind: rawStr, s: vs[0], param: true}
		}
	case n.src == srcQuery:
		if vs := s.query[n.in]; len(vs) > 0 {
			return s.keyValues(n, vs, true)
		}
	case n.src == srcPath:
		if v := s.reg.pathValue(s.r, n.in); v != "" {
			return raw{kind: rawStr, s: v, param: true}
		}
	case n.src == srcCookie:
		if c, err := s.r.Cookie(n.in); err == nil {
			return raw{kind: rawStr, s: c.Value, param: true}
		}
	case s.js != nil:
		return s.js.get(n.slot)
	case s.form != nil:
		if vs := s.form[n.in]; len(vs) > 0 {
			return s.keyValues(n, vs, false)
		}
	case !s.body:
		if vs := s.query[n.in]; len(vs) > 0 {
			return s.keyValues(n, vs, true)
		}
	}
	return raw{}
}

// keyValues reads the values vs of a query or form key (param: the
// query's) for the field n: a list field gets them all; another field its
// one value, and a key repeated for it is a list (a type error, when
// strict: the client said two things where one is read), never the first
// of them silently (under Lax it is, as msful read it).
func (s *requestSource) keyValues(n *node, vs []string, param bool) raw {
	if n.typ == rules.List || len(vs) > 1 && s.strict {
		return raw{a: vs, param: param}
	}
	return raw{kind: rawStr, s: vs[0], param: param}
}

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

// isHeaderName reports whether a field of this name is read from the
// request's headers (only): a name that starts with X-.
func isHeaderName(name string) bool {
	return len(name) > 2 && strings.EqualFold(name[:2], "x-")
}

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
// The body is JSON (Content-Type
// application/json or any +json type, parameters such as charset ignored;
// an object, read through the raw JSON path), or, for an entity whose
// methods hold the word form ("POST form": see dsl.Entity.Forms), a form
// (application/x-www-form-urlencoded or multipart/form-data: top-level
// fields only). A body never supplies a header field. A repeated query or
// form key gives a list field all its values; for any other field it is a
// list, which a strict call refuses as a "type" error naming the
// parameter ("got an array"), and Lax reads as its first value. A repeated
// header gives a list field all its values, another field the first.
// Path, query, header and cookie values are text, read strictly as text
// is, but that an integer there is decimal digits with an optional minus
// sign ("007", "-3"), nothing else ("2.0", "1e3", "+1" are type errors).
//
// Errors in the request itself are *InputError values whose StatusCode
// Write answers with:
//
//   - 405 (ErrMethod) when the declaration names methods (see
//     Registry.Expose) and r.Method is not one;
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
func (e *Entity) MakeRequest(r *http.Request, opts ...Option) (_ *Object, err error) {
	if e == nil {
		return nil, errNilEntity
	}
	var run run
	run.startWith(e, topObject, dirRequest, requestFlags(r), opts)
	defer run.done()
	defer func() {
		if err != nil { // the errors of the request in its language, whichever step failed
			err = inLang(err, e.reg.requestLang(r, opts))
		}
	}()
	if r == nil {
		b, err := run.walkCopy(e, nil)
		if err != nil {
			return nil, err
		}
		o := &Object{plan: e.views[dirRequest], data: b, made: run.made(), hid: newHidden(b, run.hidden)}
		if len(e.checks) > 0 {
			if err := e.runChecks(nil, o); err != nil {
				return nil, err
			}
		}
		return o, nil
	}
	if len(e.methods) > 0 && !slices.Contains(e.methods, r.Method) &&
		!(r.Method == http.MethodHead && slices.Contains(e.methods, http.MethodGet)) { // as net/http's mux: GET serves HEAD
		ie := newInputError(ErrMethod, "problem.method", map[string]any{"allow": strings.Join(e.methods, ", ")}) // not the method: the client's text
		ie.Allow = strings.Join(e.methods, ", ")
		return nil, ie
	}
	if run.cfg.lang == "" { // no Lang given: the client's languages, matched on the first failure
		run.cfg.lang = r.Header.Get("Accept-Language")
	}
	if run.fatal != nil { // a bad option (Select, Version…): before the body is read
		return nil, run.fatal
	}
	src := &requestSource{r: r, reg: e.reg, header: r.Header, strict: run.cfg.strict}
	if r.URL != nil {
		src.query = r.URL.Query()
	}
	p := e.views[dirRequest]
	bodyLen, err := readRequestBody(&run, r, src, p)
	if err != nil {
		return nil, err
	}
	src.body = src.body || methodHasBody(r.Method) // a POST without a body is an empty object, never its query
	run.request, run.reqBody = true, src.body
	run.maxOut = int(min(e.reg.requestOutputLimit(bodyLen), maxOutputLimit))
	data, err := run.walkCopy(e, src)
	if errors.Is(err, ErrTooLarge) {
		err = requestTooLarge(err, run.maxOut)
	}
	if err != nil {
		return nil, err
	}
	o := &Object{plan: p, data: data, made: run.made(), hid: newHidden(data, run.hidden)}
	if len(e.checks) > 0 {
		if err := e.runChecks(r, o); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// readRequestBody reads r's body into src, as its Content-Type says, and
// returns its length. An entity that reads nothing from a body (its fields
// are all path, query, header or cookie parameters) leaves the body
// unread, for the handler (a PATCH's merge patch, read by Patch).
func readRequestBody(run *run, r *http.Request, src *requestSource, p *objectPlan) (int64, error) {
	if r.Body == nil || r.Body == http.NoBody || len(p.params) == len(p.nodes) {
		return 0, nil
	}
	limit := run.ent.reg.lim().BodyBytes
	ct := r.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct) // a bad parameter gives the type and an error
	switch {
	case ct == "":
		body, err := readBody(r, limit)
		if err != nil {
			return 0, bodyError(err)
		}
		if len(jsonwire.TrimSpace(bytesString(body))) > 0 {
			return 0, mediaError(run.ent, "problem.media.none")
		}
		return 0, nil
	case mt == "":
		return 0, mediaError(run.ent, "problem.media.unparsed")
	case isJSONMediaType(mt):
		body, err := readBody(r, limit)
		if err != nil {
			return 0, bodyError(err)
		}
		if len(jsonwire.TrimSpace(bytesString(body))) > 0 {
			js, err := run.parseJSONOf(body, true)
			if err != nil {
				return 0, err
			}
			src.js, src.body = run.takeJSON(js, 0, p.in), true
		}
		return int64(len(body)), nil
	case !run.ent.forms && (mt == formType || mt == multipartType):
		return 0, formRefused(r, limit, mt)
	case mt == formType:
		form, n, err := readForm(r, limit, p)
		if err != nil || form == nil {
			return 0, err
		}
		src.form, src.body = form, true
		return n, nil
	case mt == multipartType:
		r.Body = http.MaxBytesReader(nil, r.Body, limit)
		if err := r.ParseMultipartForm(limit); err != nil {
			return 0, formError(err, true)
		}
		src.form, src.body = r.PostForm, true
		if r.MultipartForm != nil {
			for k := range r.MultipartForm.File {
				src.files = append(src.files, k)
			}
		}
		return formLen(r.PostForm), nil
	}
	body, err := readBody(r, limit)
	if err != nil {
		return 0, bodyError(err)
	}
	if len(jsonwire.TrimSpace(bytesString(body))) == 0 {
		return 0, nil // no body, whatever its type says
	}
	return 0, mediaError(run.ent, "problem.media.other") // not the type: the client's text
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
	if e.forms {
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
	case len(jsonwire.TrimSpace(bytesString(body))) == 0:
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
func readForm(r *http.Request, limit int64, p *objectPlan) (url.Values, int64, error) {
	body, err := readBody(r, limit)
	if err != nil {
		return nil, 0, bodyError(err)
	}
	if len(jsonwire.TrimSpace(bytesString(body))) == 0 {
		return nil, 0, nil
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	err = r.ParseForm()
	if (err != nil || !declaresAny(p, r.PostForm)) && isJSONText(body) {
		ie := newInputError(ErrUnsupportedMediaType, "problem.media.json-form", nil)
		ie.Accept = formMediaTypes
		return nil, 0, ie
	}
	if err != nil {
		return nil, 0, formError(err, false)
	}
	return r.PostForm, int64(len(body)), nil
}

// declaresAny reports whether the plan p reads any of the form's keys.
func declaresAny(p *objectPlan, form url.Values) bool {
	for k := range form {
		if p.in.keys.Lookup(k) >= 0 {
			return true
		}
	}
	return false
}

// isJSONText reports whether b is a JSON object or array.
func isJSONText(b []byte) bool {
	s := jsonwire.TrimSpace(bytesString(b))
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
	b := make([]byte, 0, min(max(end, 1), firstChunk))
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
// too, found when such a value is decoded, after the request is read (a
// null decodes into any field). Both are plain errors, which Write answers
// with 500, and neither quotes a value; entitytest.CheckStruct(t, e, T{},
// entitytest.Input) tells in a test whether a struct holds what a request
// gives.
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
	if err := json.Unmarshal(o.declaredText(), dst); err != nil {
		return inLang(decodeError(e, dst, err), e.reg.requestLang(r, opts)) // its 500 in the request's language
	}
	return nil
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
	return "entity " + strconv.Quote(e.name) + ": Bind: "
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
