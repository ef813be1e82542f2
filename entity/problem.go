package entity

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/expose-go/expose/internal/jsonwire"
)

// Error responses are RFC 9457 problem details, written here and nowhere
// else: WriteError, Write's failures and ValidationError.AppendJSON all
// come through problemOf.
//
// The problem types the package defines are named by a URI reference made
// of the registry's problem type base (the ProblemTypeBase option, default
// "/problems/") and a fixed name:
//
//	validation               400, fields failed; "errors" lists them
//	invalid-json             400, a request's body is not JSON; "offset"
//	                         when known (raw JSON given to a response is
//	                         the server's: 500)
//	invalid-fields           400, a field selection (Select) that does not
//	                         parse or names no field; "offset" in the spec
//	invalid-version          400, a Version that is not a version
//	unsupported-media-type   415, "accept" lists the media types read
//
// Every other answer (405, 413, another 4xx, 500) has type "about:blank"
// and its status phrase as its title, as RFC 9457 (4.2.1) asks of a
// problem that means no more than its status. A 500 has an "instance", the
// id under which the registry's log hook got the error.
//
// Titles and details are texts of the message catalogs (catalog_en.go),
// in the language of the call that failed: the one its error was built in
// (see msgLang), else the one Write was given.

// The members of the problem details the package writes, and of each
// entry of a validation problem's "errors": appendJSON and
// appendProblem write these names, and package entity/schema's Problem
// component describes them.
const (
	memberType     = "type"
	memberTitle    = "title"
	memberStatus   = "status"
	memberDetail   = "detail"
	memberInstance = "instance" // 500: the id the log hook got
	memberErrors   = "errors"   // validation
	memberOmitted  = "omitted"  // validation, past Limits.Errors
	memberOffset   = "offset"   // invalid-json and invalid-fields, when known
	memberAccept   = "accept"   // unsupported-media-type

	memberPointer    = "pointer"   // a value of the body, or of server data
	memberParameter  = "parameter" // a request's parameter: its name, and where it is (in)
	memberIn         = "in"
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

// problemCode is the first part of the catalog keys of the problems'
// texts: "problem.title.validation", "problem.json.syntax", and of the
// phrases of their params, "problem.got=an array".
const problemCode = "problem"

// sendJSON and sendMediaTypes name the media types of the request bodies
// MakeRequest reads, for the texts of a 415: JSON, and the forms for an
// entity that reads them.
const (
	sendJSON         = "send Content-Type: application/json (or any +json type)"
	sendJSONJa       = "Content-Type を application/json（または +json の型）にしてください"
	sendMediaTypes   = "send Content-Type: application/json (or any +json type), application/x-www-form-urlencoded or multipart/form-data"
	sendMediaTypesJa = "Content-Type を application/json（または +json の型）、application/x-www-form-urlencoded、multipart/form-data のいずれかにしてください"
)

// checkProblemText parses a problem's text given to SetMessages, checking
// its key and placeholders: the key of a problem text of the catalogs (its
// placeholders among the English text's), "problem.title.NNN" for a 4xx
// or 5xx status (no placeholders), or a phrase of reason or got.
func checkProblemText(key, text string) (*message, error) {
	m, err := parseMessage(text)
	if err != nil {
		return nil, errors.New("entity: SetMessages: key " + strconv.Quote(key) + ": " + strings.TrimPrefix(err.Error(), "entity: "))
	}
	var params []string
	switch rest := strings.TrimPrefix(key, problemCode+"."); {
	case strings.HasPrefix(rest, "reason="), strings.HasPrefix(rest, "got="):
	case strings.HasPrefix(rest, "title."):
		n, err := strconv.Atoi(rest[len("title."):])
		if err != nil || n < 400 || n > 599 {
			if !isProblemKey(key) {
				return nil, errors.New("entity: SetMessages: key " + strconv.Quote(key) + ": a problem's title is problem.title. and a problem type or a status of 400–599")
			}
		}
	default:
		en := problemEnglish(key)
		if en == "" {
			return nil, errors.New("entity: SetMessages: key " + strconv.Quote(key) + ": no problem text has this key")
		}
		em, _ := parseMessage(en)
		params = em.Placeholders()
	}
	for _, p := range m.Placeholders() {
		if !containsString(params, p) {
			return nil, errors.New("entity: SetMessages: key " + strconv.Quote(key) + ": placeholder {" + p + "} is not one of the text's (" + strings.Join(params, ", ") + ")")
		}
	}
	return m, nil
}

// isProblemKey reports whether key is a problem text's (one the English
// catalog holds under "problem.").
func isProblemKey(key string) bool { return problemEnglish(key) != "" }

// problemEnglish returns the English text of the problem text key, or "".
func problemEnglish(key string) string {
	if !strings.HasPrefix(key, problemCode+".") {
		return ""
	}
	return catalogEN[key]
}

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

// setServerErrors sets the function the registry's problem writer hands
// every error it answers with 500, with the id the body's "instance"
// carries (nil: none). It is what the ServerErrors option of Configure
// sets.
func (r *Registry) setServerErrors(f func(id string, err error)) {
	if f == nil {
		r.serverLog.Store(nil)
		return
	}
	r.serverLog.Store(&f)
}

// WriteError writes err as WriteError does, with the registry's problem
// type base and log hook.
func (r *Registry) WriteError(w http.ResponseWriter, err error) {
	r.writeProblem(w, err, msgLang{})
}

// WriteError writes err as an RFC 9457 problem details response
// (Content-Type application/problem+json), with the status statusOf
// decides and the Default registry's problem type base
// (the ProblemTypeBase option). Every body has "type", "title", "status"
// and "detail", in the language of the call whose error it is (Lang, or a
// request's Accept-Language; English for an error of another kind); the
// detail is safe to show, never a value of the input nor anything of the
// server's:
//
//   - a *ValidationError of a request (MakeRequest, Bind, or an error
//     Entity.Fail built): 400, type base+"validation", and "errors", one
//     object per failing field, in order: "pointer" (the RFC 6901 JSON
//     Pointer where the value was read, FieldError.Pointer), "path",
//     "outputPath", "code" (FieldError.Code, or its Rule when it has no
//     code), "params" (FieldError.Params, only when it has some) and
//     "message". Past the registry's Limits.Errors the summary entry is not listed:
//     "omitted" counts the errors left out;
//   - an *InputError (or an error wrapping one of the package's
//     sentinels): its status and its text as the detail; a body that is
//     not JSON has type base+"invalid-json" and, when the offset is known
//     (InputError.HasOffset), "offset", the byte where it stops being
//     JSON; a bad Select spec type base+"invalid-fields" and "offset", a
//     bad Version type base+"invalid-version"; a 405 an Allow header; a
//     415 type base+"unsupported-media-type", an Accept header and
//     "accept", the list of media types read;
//   - another error with a 4xx StatusCode method: that status, and the
//     error's own message as the detail;
//   - any other error, a nil one and typed nil pointers included, and a
//     *ValidationError of the server's data (Make, MakeJSON, AppendJSON,
//     MakeList, Write) or the *InputError of raw JSON given to them that
//     does not parse: 500 with a generic title and detail that say
//     nothing of it, and an "instance", a URN of its own
//     ("urn:uuid:…") that the registry's log hook gets with the error.
//
// A problem in the language of a call (the error of a call made with Lang
// or for a request, whose Accept-Language picks it) says so with
// Content-Language and Vary: Accept-Language, so that a cache keeps one
// answer per language. WriteError writes any other error in English: a
// handler's own errors are answered in the client's language by
// WriteRequestError.
//
// For example:
//
//	HTTP/1.1 400 Bad Request
//	Content-Type: application/problem+json
//	Vary: Accept-Language
//
//	{"type":"/problems/validation","title":"Validation failed","status":400,
//	 "detail":"1 field failed validation","errors":[{"pointer":"/mail",
//	 "path":"mail","outputPath":"mail","code":"required","message":"is required"}]}
func WriteError(w http.ResponseWriter, err error) {
	Default.writeProblem(w, err, msgLang{})
}

// WriteRequestError writes err as WriteError does, in the language of the
// request req it answers: the one of the registry's catalogs that req's
// Accept-Language picks (as MakeRequest picks it: see
// Registry.RequestLang), unless err is an error of a call that has one
// already (MakeRequest's, Bind's, one made with Lang). It is how a handler
// answers its own 4xx errors in the client's language: the title is the
// status's in that language ("problem.title.404", which SetMessages may
// set; 見つかりません in Japanese), and the detail of an *InputError with a
// Code is the code's message there (Registry.DeclareCode), of one without
// its Msg:
//
//	reg.DeclareCode("no_customer", map[string]string{"en": "no customer has this id", "ja": "この ID の顧客はいません"})
//
//	reg.WriteRequestError(w, r, &entity.InputError{Status: http.StatusNotFound, Code: "no_customer"})
//
//	HTTP/1.1 404 Not Found
//	Content-Language: ja
//	Content-Type: application/problem+json
//	Vary: Accept-Language
//
//	{"type":"about:blank","title":"見つかりません","status":404,"detail":"この ID の顧客はいません"}
//
// Every problem in a call's or a request's language says it with
// Content-Language (the language's tag) and Vary: Accept-Language. A nil
// req is WriteError.
func (r *Registry) WriteRequestError(w http.ResponseWriter, req *http.Request, err error) {
	lang := msgLang{}
	if req != nil {
		lang = r.requestLang(req, nil)
	}
	r.writeProblem(w, err, lang)
}

// WriteRequestError writes err as the Default registry's
// Registry.WriteRequestError does: in the language of the request r.
func WriteRequestError(w http.ResponseWriter, r *http.Request, err error) {
	Default.WriteRequestError(w, r, err)
}

// writeProblem writes err's problem details, with the registry's type base
// and in the language of err, else lang; a 500 gets an instance id, and
// the registry's log hook gets it with err.
func (r *Registry) writeProblem(w http.ResponseWriter, err error, lang msgLang) {
	if w == nil {
		return
	}
	body, p := r.appendProblem(nil, err, lang)
	h := w.Header()
	switch {
	case p.allow != "":
		h["Allow"] = []string{p.allow}
	case p.accept != "":
		h["Accept"] = []string{p.accept}
	}
	if p.lang != "" {
		h["Content-Language"] = []string{p.lang}
		addVary(h, "Accept-Language") // so that a cache keeps one answer per language
	}
	h["Content-Type"] = []string{problemContentType}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	h["X-Content-Type-Options"] = []string{"nosniff"}
	w.WriteHeader(p.status)
	w.Write(body)
}

// appendProblem appends err's problem details to dst, as writeProblem
// writes them (a 500 gets an instance id, which the log hook gets with
// err), and returns what they say, for the headers.
func (r *Registry) appendProblem(dst []byte, err error, lang msgLang) ([]byte, problem) {
	p := problemOf(err, lang, r.messages())
	if p.status == http.StatusInternalServerError {
		p.instance = newInstance()
		if r != nil {
			if hook := r.serverLog.Load(); hook != nil {
				(*hook)(p.instance, err)
			}
		}
	}
	return p.appendJSON(dst, r.ProblemTypeBase()), p
}

// addVary adds name to h's Vary, unless it names it already (or "*").
func addVary(h http.Header, name string) {
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f == "*" || strings.EqualFold(f, name) {
				return
			}
		}
	}
	h.Add("Vary", name)
}

// newInstance returns a new id of a server error: a URN of a random
// (version 4) UUID.
func newInstance() string {
	var u [16]byte
	rand.Read(u[:]) // never fails (crypto/rand)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	var b [45]byte
	n := copy(b[:], "urn:uuid:")
	for i, part := range [...][2]int{{0, 4}, {4, 6}, {6, 8}, {8, 10}, {10, 16}} {
		if i > 0 {
			b[n] = '-'
			n++
		}
		n += hex.Encode(b[n:], u[part[0]:part[1]])
	}
	return string(b[:n])
}

// appendProblemJSON appends the error's problem details, the body
// WriteError writes for it with the default problem type base (the server
// data's error: the generic 500, without the instance id only WriteError
// logs).
func (e *ValidationError) appendProblemJSON(dst []byte) []byte {
	if e == nil {
		e = &ValidationError{}
	}
	p := problemOf(e, msgLang{}, nil)
	return p.appendJSON(dst, defaultProblemBase)
}

// problem is what an error's problem details say.
type problem struct {
	status   int
	kind     string // one of the problem* names; "" for about:blank
	title    string
	detail   string
	instance string           // 500: the id the log hook got
	allow    string           // 405: the Allow header
	accept   string           // 415: the media types read
	offset   int              // invalid JSON: where it stops being JSON
	hasOff   bool             // offset applies
	ve       *ValidationError // 400 for fields: the errors
	// lang is the BCP 47 tag of the language of the texts when it is a
	// call's (Lang, or a request's Accept-Language): the Content-Language.
	// "" for texts in English whatever the request.
	lang string
}

// problemOf returns the problem details of err, in the language of err
// (see langOf), else lang, else English, rendered from base (the
// registry's catalogs; nil: the built-in ones). Its status is statusOf's;
// its words are the package's own, the message of an InputError's Code,
// its Msg, or a 4xx status carrier's message, never those of an error
// that wraps them (fmt.Errorf("db at 10.0.0.5: %w", notFound) says "not
// found").
func problemOf(err error, lang msgLang, base *catalogs) problem {
	p := problem{status: statusOf(err)}
	lang = langOf(err, lang)
	cat, li := lang.cat, lang.li
	switch {
	case cat != nil:
		p.lang = cat.tags[li].String()
	case base != nil:
		cat, li = base, 0
	default:
		cat, li = builtinCatalogs(), 0
	}
	var ve *ValidationError
	var ie *InputError
	var sc statusCoder
	switch {
	case p.status == http.StatusInternalServerError:
		p.title = statusTitle(cat, li, p.status)
		p.detail = cat.text(li, "problem.server", nil)
		return p
	case errors.As(err, &ve) && ve != nil:
		p.kind, p.ve = problemValidation, ve
		p.title = cat.text(li, "problem.title."+problemValidation, nil)
		p.detail = ve.problemDetail(cat, li)
		return p
	case errors.As(err, &ie) && ie != nil:
		p.detail = ie.Msg
		switch {
		case ie.key != "":
			if t := cat.text(li, ie.key, ie.params); t != "" {
				p.detail = t
			}
		case ie.Code != "":
			if m, l := cat.lookup(li, []string{ie.Code}); m != nil {
				p.detail = cat.render(m, l, ie.Code, "", ie.Params)
			}
		}
		p.allow = ie.Allow
		p.accept = ie.Accept
		p.offset, p.hasOff = ie.Offset, ie.HasOffset() && ie.Offset >= 0
	case errors.As(err, &sc):
		p.detail = carrierMessage(sc)
	}
	switch {
	case errors.Is(err, ErrInvalidJSON) && p.status == http.StatusBadRequest:
		p.kind = problemInvalidJSON
		if p.detail == "" {
			p.detail = cat.text(li, "problem.json", nil)
		}
	case errors.Is(err, ErrInvalidFields) && p.status == http.StatusBadRequest:
		p.kind = problemFields
	case errors.Is(err, ErrInvalidVersion) && p.status == http.StatusBadRequest:
		p.kind = problemVersion
	case p.status == http.StatusUnsupportedMediaType:
		p.kind = problemMediaType
		if p.accept == "" {
			p.accept = jsonMediaType
		}
		if p.detail == "" {
			p.detail = cat.text(li, "problem.media", map[string]any{"accept": p.accept})
		}
	}
	if p.kind != problemInvalidJSON && p.kind != problemFields {
		p.hasOff = false // an offset is a JSON syntax error's or a selection's only
	}
	if p.status == http.StatusMethodNotAllowed && p.detail == "" {
		p.detail = cat.text(li, "problem.method.any", nil)
	}
	if p.kind != "" {
		p.title = cat.text(li, "problem.title."+p.kind, nil)
	}
	if p.title == "" {
		p.title = statusTitle(cat, li, p.status)
	}
	if p.detail == "" { // a sentinel wrapped by another error: its words are the server's
		p.detail = statusDetail(cat, li, p.status)
	}
	return p
}

// statusTitle returns the title of an about:blank problem of status: the
// catalog's "problem.title.NNN" in language li (or English), else
// net/http's status text.
func statusTitle(cat *catalogs, li, status int) string {
	if t := cat.text(li, problemCode+".title."+strconv.Itoa(status), nil); t != "" {
		return t
	}
	return http.StatusText(status)
}

// statusDetail returns the detail of a problem that has nothing more to
// say than its status: the status text in lower case, or the title of
// the status in a language li that has one.
func statusDetail(cat *catalogs, li, status int) string {
	if m := cat.byLang[li][problemCode+".title."+strconv.Itoa(status)]; li > 0 && m != nil {
		return cat.render(m, li, problemCode, "", nil)
	}
	return strings.ToLower(http.StatusText(status))
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
		dst = jsonwire.AppendString(dst, base+p.kind)
	}
	dst = append(dst, `,"`+memberTitle+`":`...)
	dst = jsonwire.AppendString(dst, p.title)
	dst = append(dst, `,"`+memberStatus+`":`...)
	dst = strconv.AppendInt(dst, int64(p.status), 10)
	dst = append(dst, `,"`+memberDetail+`":`...)
	dst = jsonwire.AppendString(dst, p.detail)
	if p.ve != nil {
		return p.ve.appendProblemMembers(dst)
	}
	if p.instance != "" {
		dst = append(dst, `,"`+memberInstance+`":`...)
		dst = jsonwire.AppendString(dst, p.instance)
	}
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
			dst = jsonwire.AppendString(dst, strings.TrimSpace(t))
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// listedFields returns the field errors a problem lists: all but the
// summary of those past the limit, which "omitted" stands for.
func (e *ValidationError) listedFields() []*FieldError {
	fields := e.Fields
	if e.Omitted > 0 && len(fields) > 0 && isSummary(fields[len(fields)-1]) {
		fields = fields[:len(fields)-1]
	}
	return fields
}

// problemDetail returns a validation problem's detail in language li:
// how many fields failed, and how many are listed when some are not.
func (e *ValidationError) problemDetail(cat *catalogs, li int) string {
	listed := len(e.listedFields())
	n := listed + e.Omitted
	switch {
	case e.Omitted > 0:
		return cat.text(li, "problem.validation.omitted", map[string]any{"count": int64(n), "listed": int64(listed)})
	case n == 1:
		return cat.text(li, "problem.validation.one", nil)
	}
	return cat.text(li, "problem.validation", map[string]any{"count": int64(n)})
}

// appendProblemMembers appends a validation problem's errors and the
// count of those omitted, and closes the object.
func (e *ValidationError) appendProblemMembers(dst []byte) []byte {
	dst = append(dst, `,"`+memberErrors+`":[`...)
	for i, f := range e.listedFields() {
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
	if f.In != "" { // a request's parameter: its name and where it was
		dst = append(dst, `{"`+memberParameter+`":`...)
		dst = jsonwire.AppendString(dst, f.Path)
		dst = append(dst, `,"`+memberIn+`":`...)
		dst = jsonwire.AppendString(dst, f.In)
	} else {
		dst = append(dst, `{"`+memberPointer+`":`...)
		dst = jsonwire.AppendString(dst, f.Pointer)
	}
	dst = append(dst, `,"`+memberPath+`":`...)
	dst = jsonwire.AppendString(dst, f.Path)
	dst = append(dst, `,"`+memberOutputPath+`":`...)
	dst = jsonwire.AppendString(dst, f.OutputPath)
	dst = append(dst, `,"`+memberCode+`":`...)
	code := f.Code
	if code == "" {
		code = f.Rule
	}
	dst = jsonwire.AppendString(dst, code)
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
	dst = jsonwire.AppendString(dst, f.Message)
	return append(dst, '}')
}
