package entity

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
)

// Error responses are RFC 9457 problem details, written here and nowhere
// else: WriteError, Write's failures and ValidationError.AppendJSON all
// come through writeProblem.
//
// The problem types the package defines are named by a URI reference made
// of the registry's problem type base (SetProblemTypeBase, default
// "/problems/") and a fixed name:
//
//	validation               400, fields failed; "errors" lists them
//	invalid-json             400, the body is not JSON; "offset" when known
//	invalid-fields           400, a field selection (Select) that does not
//	                         parse or names no field; "offset" in the spec
//	invalid-version          400, a Version that is not a version
//	unsupported-media-type   415, "accept" lists the media types read
//
// Every other answer (405, 413, another 4xx, 500) has type "about:blank"
// and its status phrase as its title, as RFC 9457 (4.2.1) asks of a
// problem that means no more than its status.

// The members of the problem details the package writes, and of each
// entry of a validation problem's "errors": appendJSON and
// appendProblem write these names, and package entity/schema's Problem
// component describes them.
const (
	memberType    = "type"
	memberTitle   = "title"
	memberStatus  = "status"
	memberDetail  = "detail"
	memberErrors  = "errors"  // validation
	memberOmitted = "omitted" // validation, past Registry.MaxErrors
	memberOffset  = "offset"  // invalid-json, when known
	memberAccept  = "accept"  // unsupported-media-type

	memberPointer    = "pointer"
	memberPath       = "path"
	memberOutputPath = "outputPath"
	memberCode       = "code"
	memberParams     = "params" // only when the rule has some
	memberMessage    = "message"
)

// problemContentType is the Content-Type of every error response.
const problemContentType = "application/problem+json"

// defaultProblemBase is the problem type base a registry starts with.
const defaultProblemBase = "/problems/"

// The names of the package's problem types, appended to the base.
const (
	problemValidation  = "validation"
	problemInvalidJSON = "invalid-json"
	problemMediaType   = "unsupported-media-type"
	problemFields      = "invalid-fields"
	problemVersion     = "invalid-version"
)

// ProblemTypeBase returns the URI reference the type of each of the
// package's problems starts with; a nil registry's is the default.
func (r *Registry) ProblemTypeBase() string {
	if r == nil {
		return defaultProblemBase
	}
	if p := r.problemBase.Load(); p != nil {
		return *p
	}
	return defaultProblemBase
}

// SetProblemTypeBase sets the URI reference that the "type" member of the
// registry's problem details starts with (default "/problems/"): the type
// of a validation failure is base+"validation", of a body that is not JSON
// base+"invalid-json", of a 415 base+"unsupported-media-type". Set an
// absolute URI where the problem types are documented, such as
// "https://api.example.com/problems/"; the default is a relative reference
// that a client resolves against the request's URI (RFC 9457 3.1.1 asks a
// relative type to carry its full path, as it does). An empty base is the
// default.
func (r *Registry) SetProblemTypeBase(base string) {
	if base == "" {
		base = defaultProblemBase
	}
	r.problemBase.Store(&base)
}

// WriteError writes err as WriteError does, with the registry's problem
// type base.
func (r *Registry) WriteError(w http.ResponseWriter, err error) {
	writeProblem(w, err, r.ProblemTypeBase())
}

// WriteError writes err as an RFC 9457 problem details response
// (Content-Type application/problem+json), with the status statusOf
// decides and the Default registry's problem type base
// (Registry.SetProblemTypeBase). Every body has "type", "title", "status"
// and "detail"; the detail is safe to show, never a value of the input nor
// anything of the server's:
//
//   - a *ValidationError: 400, type base+"validation", and "errors", one
//     object per failing field, in order: "pointer" (the RFC 6901 JSON
//     Pointer where the value was read, FieldError.Pointer), "path",
//     "outputPath", "code" (FieldError.Code, or its Rule when it has no
//     code), "params" (FieldError.Params, only when it has some) and
//     "message". Past Registry.MaxErrors the summary entry is not listed:
//     "omitted" counts the errors left out;
//   - an *InputError (or an error wrapping one of the package's
//     sentinels): its status and its Msg as the detail; a body that is not
//     JSON has type base+"invalid-json" and, when the offset is known
//     (InputError.HasOffset), "offset", the byte where it stops being
//     JSON; a 405 an Allow header; a 415 type base+"unsupported-media-type",
//     an Accept header and "accept", the list of media types read;
//   - another error with a 4xx StatusCode method: that status, and the
//     error's own message as the detail;
//   - any other error, a nil one and typed nil pointers included: 500
//     with a generic title and detail that say nothing of it.
//
// For example:
//
//	HTTP/1.1 400 Bad Request
//	Content-Type: application/problem+json
//
//	{"type":"/problems/validation","title":"Validation failed","status":400,
//	 "detail":"1 field failed validation","errors":[{"pointer":"/mail",
//	 "path":"mail","outputPath":"mail","code":"required","message":"is required"}]}
func WriteError(w http.ResponseWriter, err error) {
	writeProblem(w, err, Default.ProblemTypeBase())
}

// writeProblem writes err's problem details, with type URIs under base.
func writeProblem(w http.ResponseWriter, err error, base string) {
	if w == nil {
		return
	}
	p := problemOf(err)
	body := p.appendJSON(nil, base)
	h := w.Header()
	switch {
	case p.allow != "":
		h["Allow"] = []string{p.allow}
	case p.accept != "":
		h["Accept"] = []string{p.accept}
	}
	h["Content-Type"] = []string{problemContentType}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	h["X-Content-Type-Options"] = []string{"nosniff"}
	w.WriteHeader(p.status)
	w.Write(body)
}

// AppendJSON appends the error's problem details, the body WriteError
// writes for it with the default problem type base:
//
//	{"type":"/problems/validation","title":"Validation failed","status":400,
//	 "detail":"2 fields failed validation","errors":[{"pointer":…,"path":…,
//	 "outputPath":…,"code":…,"params":{…},"message":…},…]}
func (e *ValidationError) AppendJSON(dst []byte) []byte {
	p := problem{status: http.StatusBadRequest, kind: problemValidation, title: validationTitle, ve: e}
	if e == nil {
		p.ve = &ValidationError{}
	}
	return p.appendJSON(dst, defaultProblemBase)
}

// validationTitle is the title of every validation problem.
const validationTitle = "Validation failed"

// problem is what an error's problem details say.
type problem struct {
	status int
	kind   string // one of the problem* names; "" for about:blank
	title  string
	detail string
	allow  string           // 405: the Allow header
	accept string           // 415: the media types read
	offset int              // invalid JSON: where it stops being JSON
	hasOff bool             // offset applies
	ve     *ValidationError // 400 for fields: the errors
}

// problemOf returns the problem details of err. Its status is statusOf's;
// its words are the package's own, an InputError's Msg or a 4xx status
// carrier's message, never those of an error that wraps them
// (fmt.Errorf("db at 10.0.0.5: %w", notFound) says "not found").
func problemOf(err error) problem {
	p := problem{status: statusOf(err)}
	var ve *ValidationError
	var ie *InputError
	var sc statusCoder
	switch {
	case p.status == http.StatusInternalServerError:
		p.title = http.StatusText(p.status)
		p.detail = "the server could not answer the request"
		return p
	case errors.As(err, &ve) && ve != nil:
		p.kind, p.title, p.ve = problemValidation, validationTitle, ve
		return p
	case errors.As(err, &ie) && ie != nil:
		p.detail = ie.Msg
		p.allow = ie.Allow
		p.accept = ie.Accept
		p.offset, p.hasOff = ie.Offset, ie.HasOffset() && ie.Offset >= 0
	case errors.As(err, &sc):
		p.detail = carrierMessage(sc)
	}
	switch {
	case errors.Is(err, ErrInvalidJSON) && p.status == http.StatusBadRequest:
		p.kind, p.title = problemInvalidJSON, "Invalid JSON"
		if p.detail == "" {
			p.detail = "the body is not valid JSON"
		}
	case errors.Is(err, ErrInvalidFields) && p.status == http.StatusBadRequest:
		p.kind, p.title = problemFields, "Invalid field selection"
	case errors.Is(err, ErrInvalidVersion) && p.status == http.StatusBadRequest:
		p.kind, p.title = problemVersion, "Invalid version"
	case p.status == http.StatusUnsupportedMediaType:
		p.kind = problemMediaType
		if p.accept == "" {
			p.accept = AcceptedMediaTypes
		}
		if p.detail == "" {
			p.detail = "the body's media type is not one of " + p.accept
		}
	}
	if p.kind != problemInvalidJSON && p.kind != problemFields {
		p.hasOff = false // an offset is a JSON syntax error's or a selection's only
	}
	if p.status == http.StatusMethodNotAllowed && p.detail == "" {
		p.detail = "the method is not allowed"
	}
	if p.title == "" {
		p.title = http.StatusText(p.status)
	}
	if p.detail == "" { // a sentinel wrapped by another error: its words are the server's
		p.detail = strings.ToLower(http.StatusText(p.status))
	}
	return p
}

// carrierMessage returns the message of an error that carries its status;
// a carrier that is not itself an error says its status text.
func carrierMessage(sc statusCoder) string {
	if e, ok := sc.(error); ok {
		return e.Error()
	}
	return strings.ToLower(http.StatusText(sc.StatusCode()))
}

// appendJSON appends the problem details as JSON, type URIs under base.
func (p *problem) appendJSON(dst []byte, base string) []byte {
	dst = append(dst, `{"`+memberType+`":`...)
	if p.kind == "" {
		dst = append(dst, `"about:blank"`...)
	} else {
		dst = appendString(dst, base+p.kind)
	}
	dst = append(dst, `,"`+memberTitle+`":`...)
	dst = appendString(dst, p.title)
	dst = append(dst, `,"`+memberStatus+`":`...)
	dst = strconv.AppendInt(dst, int64(p.status), 10)
	dst = append(dst, `,"`+memberDetail+`":`...)
	if p.ve != nil {
		return p.ve.appendProblemMembers(dst)
	}
	dst = appendString(dst, p.detail)
	if p.hasOff {
		dst = append(dst, `,"`+memberOffset+`":`...)
		dst = strconv.AppendInt(dst, int64(p.offset), 10)
	}
	if p.kind == problemMediaType {
		dst = append(dst, `,"`+memberAccept+`":[`...)
		for i, t := range strings.Split(p.accept, ",") {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, strings.TrimSpace(t))
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// appendProblemMembers appends a validation problem's detail, its errors
// and the count of those omitted, and closes the object.
func (e *ValidationError) appendProblemMembers(dst []byte) []byte {
	fields := e.Fields
	if e.Omitted > 0 && len(fields) > 0 && isSummary(fields[len(fields)-1]) {
		fields = fields[:len(fields)-1]
	}
	n := len(fields) + e.Omitted
	detail := "1 field failed validation"
	if n != 1 {
		detail = strconv.Itoa(n) + " fields failed validation"
	}
	if e.Omitted > 0 {
		detail += "; " + strconv.Itoa(len(fields)) + " listed"
	}
	dst = appendString(dst, detail)
	dst = append(dst, `,"`+memberErrors+`":[`...)
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = f.appendProblem(dst)
	}
	dst = append(dst, ']')
	if e.Omitted > 0 {
		dst = append(dst, `,"`+memberOmitted+`":`...)
		dst = strconv.AppendInt(dst, int64(e.Omitted), 10)
	}
	return append(dst, '}')
}

// isSummary reports whether f is the entry that stands for the field
// errors past the limit: rule "limit", at no path.
func isSummary(f *FieldError) bool {
	return f != nil && f.Rule == "limit" && f.Path == "" && f.OutputPath == ""
}

// appendProblem appends f as a member of a problem's "errors".
func (f *FieldError) appendProblem(dst []byte) []byte {
	if f == nil {
		f = &FieldError{}
	}
	dst = append(dst, `{"`+memberPointer+`":`...)
	dst = appendString(dst, f.Pointer)
	dst = append(dst, `,"`+memberPath+`":`...)
	dst = appendString(dst, f.Path)
	dst = append(dst, `,"`+memberOutputPath+`":`...)
	dst = appendString(dst, f.OutputPath)
	dst = append(dst, `,"`+memberCode+`":`...)
	code := f.Code
	if code == "" {
		code = f.Rule
	}
	dst = appendString(dst, code)
	if len(f.Params) > 0 {
		// A rule's arguments, as the declaration gave them: never the
		// input's values. Keys are sorted; a value that is not JSON leaves
		// the member out rather than break the body.
		if b, err := json.Marshal(f.Params); err == nil {
			dst = append(dst, `,"`+memberParams+`":`...)
			dst = append(dst, b...)
		}
	}
	dst = append(dst, `,"`+memberMessage+`":`...)
	dst = appendString(dst, f.Message)
	return append(dst, '}')
}
