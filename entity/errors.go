package entity

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/engine"
	"github.com/expose-go/expose/internal/pathfmt"
)

// The error types of the package, and statusOf, the one place that decides
// which HTTP status an error is answered with.

// ErrValidation is matched by errors.Is for every *ValidationError.
var ErrValidation = errors.New("entity: validation failed")

// ErrUnknownEntity is wrapped by the error that Make and friends return when
// the entity named, or one that a `$ref` reaches, is not declared.
var ErrUnknownEntity = engine.ErrUnknownEntity

// ErrUnsupportedInput is wrapped by the error returned when Make is given a
// value it cannot read fields from (an int, a string, a channel…).
var ErrUnsupportedInput = engine.ErrUnsupportedInput

// errNilEntity is the error of a call on a nil *Entity: what Lookup
// returns for a name that is not exposed.
var errNilEntity = fmt.Errorf("%w: a nil *Entity (Lookup finds nothing under a name that is not exposed)", ErrUnknownEntity)

// errNilWriter is the error of Write and WriteStatus given no
// ResponseWriter.
var errNilWriter = errors.New("entity: Write: a nil http.ResponseWriter")

// ErrTooLarge is wrapped by the error of a call whose output passed its
// limit (Limits.OutputBytes; for MakeRequest, also
// Limits.RequestOutputRatio): the call stopped and wrote nothing.
var ErrTooLarge = engine.ErrTooLarge

// ErrDepth is wrapped by the FieldError reported when output nesting, or a
// value passed through, is deeper than the registry's depth limit.
var ErrDepth = engine.ErrDepth

// FieldError is one failing field: where its value was read, where it would
// have been written, which rule failed and why.
type FieldError struct {
	// Path is where the value was read in the input: "list[1].mail". In a
	// list, indexes count the input's positions.
	Path string
	// OutputPath is where the value would have been written, after groups
	// and renames: "list[1].details.mail". Indexes count the output's
	// positions (elements that are not objects are skipped in a $ref list).
	OutputPath string
	// Rule is the name of the failing rule as the registry knows it ("req",
	// "email", "min") or "depth" and "json" for values that cannot be written.
	Rule string
	// Message completes the sentence "field X …": "is required", "must be a
	// valid email address". It never holds the value itself. It is
	// rendered when the error is built, in the call's language (Lang, or a
	// request's Accept-Language): the field's own msg, else the catalog's
	// message for Code (see Registry.SetMessages), else the rule's error
	// text. Under a secret field it is "is not valid" in that language for
	// the rules whose words may describe the value (in, regex, a custom
	// rule's); the built-in messages that quote no value (those of req,
	// type, min, max, len, range, email, url and date, and of the
	// cross-field rules, which name siblings) and a field's own msg stay,
	// the msg without the params that would describe the value. An error
	// of NewFieldError has its Message rendered when Entity.Fail answers
	// it.
	Message string
	// Pointer is where the value was read, as an RFC 6901 JSON Pointer into
	// the input: "/list/1/mail".
	Pointer string
	// Code is the stable name of what failed, for clients and translators
	// (never parse Message): "required" for req, a rule's canonical name
	// for any of its aliases ("range" for minmax), a custom rule's name,
	// and "type", "depth", "json", "limit", "unknown", "default" (bare
	// defaults that form a cycle), "value" (a driver.Valuer that failed),
	// "immutable" (a Patch that changes an immutable field's value).
	Code string
	// Params are the failing rule's arguments by the names its Def gives
	// them ({"min": 3}; a number written without quotes is an int64 or a
	// float64, anything else its text); "type" and "got" for type, "limit"
	// for depth, "omitted" for limit; nil when there are none, and under
	// a secret field for a rule whose Message is "is not valid" (in's
	// values, a pattern: what the field may hold). Each FieldError has its
	// own.
	Params map[string]any
	// In says where a request's value was when it was not in the body: the
	// parameter's place, "path", "query", "header" or "cookie" (Path is
	// then the parameter's name); "" for the body, server data, and any
	// value below the top level.
	In string

	cause error
}

// Error returns "Path: Message" (the Code when there is no Message yet).
func (e *FieldError) Error() string {
	if e == nil {
		return "entity: <nil FieldError>"
	}
	if e.Rule == "limit" && e.Path == "" && e.OutputPath == "" {
		return e.Message // the summary of the errors past the limit
	}
	p := e.Path
	if p == "" {
		p = "(root)"
	}
	if e.Message == "" {
		return p + ": " + e.Code
	}
	return p + ": " + e.Message
}

// NewFieldError returns the error of a field that fails a check of the
// application's own (a handler's "no customer 42"): the value at pointer,
// an RFC 6901 JSON Pointer into the request ("/items/0/sku"; "" for the
// whole; one that does not start with "/" is read as if it did), fails
// what code names, a code declared with Registry.DeclareCode, with params
// for the placeholders of its messages. Its Path and OutputPath are the
// pointer's path ("items[0].sku": a token of digits is an index), its
// Rule and Code are code; its Message is rendered, in the request's
// language, when Entity.Fail makes it part of a problem.
//
// The params are written to the client as they are, in "params" and in
// the message: put nothing there that the client must not see.
func NewFieldError(pointer, code string, params map[string]any) *FieldError {
	if pointer != "" && pointer[0] != '/' {
		pointer = "/" + pointer
	}
	var path []byte
	for i, tok := range pointerTokens(pointer) {
		switch {
		case isIndexToken(tok):
			n, _ := strconv.Atoi(tok)
			path = pathfmt.AppendIndex(path, n)
		case i == 0:
			path = pathfmt.AppendFirstKey(path, tok)
		default:
			path = pathfmt.AppendKey(path, tok)
		}
	}
	p := string(path)
	return &FieldError{Path: p, OutputPath: p, Pointer: pointer, Rule: code, Code: code, Params: params}
}

// pointerTokens returns the reference tokens of an RFC 6901 JSON Pointer,
// unescaped.
func pointerTokens(pointer string) []string {
	if pointer == "" {
		return nil
	}
	toks := strings.Split(pointer[1:], "/")
	for i, t := range toks {
		if strings.Contains(t, "~") {
			toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		}
	}
	return toks
}

// isIndexToken reports whether a pointer token is an array index: digits,
// without a leading zero (RFC 6901 4), of at most 9 of them.
func isIndexToken(t string) bool {
	if t == "" || len(t) > 9 || len(t) > 1 && t[0] == '0' {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}

// Unwrap returns the underlying error, if any: ErrDepth, the error a rule
// returned, or the *PanicError of a rule that panicked.
func (e *FieldError) Unwrap() error {
	if e == nil {
		return nil
	}
	if p, ok := e.cause.(*rulePanic); ok {
		return p.pe
	}
	return e.cause
}

// ValidationError reports every field of an input that failed, in the order
// the fields are declared and the input's elements come.
//
// At most the registry's Limits.Errors field errors are collected (default 100);
// past them Omitted counts the rest, and Fields ends with one summary entry
// of rule "limit": "and N more field errors, not listed".
//
// The error of a request (MakeRequest, Bind) is the client's: it answers
// 400 and lists every field. The error of a response-side call (Make,
// MakeJSON, AppendJSON, MakeList, Write of anything but an *http.Request)
// is the server's: its data fails its own entity; it answers 500, with a
// body that says nothing of it (see WriteError), and reaches the handler
// and the registry's log hook whole. A ValidationError built outside the
// package is a request's.
type ValidationError struct {
	Entity  string
	Fields  []*FieldError
	Omitted int

	// response marks the error of a response-side run: the server's data
	// failed (see statusOf). It is set in one place, run.err.
	response bool
	lang     msgLang // the language of the call's messages
}

// Error names the entity and lists each failing field's Path, rule and
// message:
//
//	entity "user": 2 fields failed: name: is required (req); details.mail … (email)
func (e *ValidationError) Error() string {
	if e == nil {
		return "entity: <nil ValidationError>"
	}
	var b strings.Builder
	b.WriteString("entity ")
	b.WriteString(strconv.Quote(e.Entity))
	b.WriteString(": ")
	n := len(e.Fields)
	if e.Omitted > 0 {
		n += e.Omitted - 1 // the summary entry stands for the omitted ones
	}
	if n == 1 {
		b.WriteString("1 field failed: ")
	} else {
		b.WriteString(strconv.Itoa(n))
		b.WriteString(" fields failed: ")
	}
	for i, f := range e.Fields {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(f.Error())
		b.WriteString(" (")
		b.WriteString(f.Rule)
		b.WriteString(")")
	}
	return b.String()
}

// StatusCode returns 400 (Bad Request) for the error of a request, whose
// input is at fault, and 500 for that of the server's data (see
// ValidationError).
func (e *ValidationError) StatusCode() int { return statusOf(e) }

// Is reports whether target is ErrValidation.
func (e *ValidationError) Is(target error) bool { return target == ErrValidation }

// Unwrap returns the field errors, so that errors.As finds a *FieldError.
func (e *ValidationError) Unwrap() []error {
	if e == nil {
		return nil
	}
	errs := make([]error, len(e.Fields))
	for i, f := range e.Fields {
		errs[i] = f
	}
	return errs
}

// InputError is an error in the client's input itself rather than in one of
// its fields: JSON that does not parse, a body too large or of a media type
// the entity does not read, a request with a method the entity does not
// take. StatusCode gives the HTTP status Write answers with.
//
// Raw JSON given to a response-side call (Make, MakeJSON, AppendJSON,
// MakeList, Write of a []byte or json.RawMessage, an EncodeSeq element)
// that does not parse, or is not an object or a list of objects, is an
// InputError too, wrapping ErrInvalidJSON with its offset and reason for
// the handler's log; but its JSON is the server's: its Status and
// StatusCode are 500, and Write answers it with the generic body of the
// server's errors.
//
// WriteError answers it as RFC 9457 problem details whose detail is Msg,
// or the message of its Code; WriteRequestError in the request's
// language. See WriteError for the members each status carries. A
// handler's 404:
//
//	reg.WriteRequestError(w, r, &entity.InputError{Status: http.StatusNotFound, Code: "unknown_id"})
type InputError struct {
	Status int    // 400, 405, 413, 415…
	Msg    string // what is wrong, safe to show the client: never a value
	Err    error  // the underlying error, if any
	Allow  string // for 405: the methods allowed, for the Allow header
	// Accept is, for 415, the request media types accepted, comma
	// separated as an Accept header lists them; empty means
	// application/json. MakeRequest's name those its entity reads:
	// application/json, and the form types for an entity whose methods
	// hold the word form.
	Accept string
	// Code, when set, names the problem text of the handler's own error
	// (a 404's "no customer has this id"): a code declared with
	// Registry.DeclareCode, with Params for its placeholders. The
	// problem's detail is then its message in the problem's language (see
	// WriteRequestError), and Msg the English text that stands in when no
	// catalog holds the code. The params are written to the client as
	// they are: put nothing there that it must not see.
	Code   string
	Params map[string]any
	// Offset is, when HasOffset reports true, the byte offset in the JSON
	// input (a request body, or the []byte or json.RawMessage given to
	// Make or MakeJSON), counted from its first byte, where the input
	// stops being what was wanted: the first byte that no valid JSON
	// could have there (len(input) when the input ends too soon), or the
	// first byte of a top-level value that is not an object. Msg then
	// says "at byte N" and what was expected there. For a field
	// selection (ErrInvalidFields) it is the offset in the Select spec of
	// the part at fault. It is 0 otherwise, which is also a valid offset:
	// ask HasOffset, never Offset != 0. The problem details carry it as
	// their "offset" member.
	Offset int

	hasOffset bool

	// server marks the error of raw JSON that a response-side run read:
	// the server's data (see statusOf). It is set in one place, run.err.
	server bool

	// The text of the error as the catalogs have it: Msg is its English
	// rendering, and the problem's detail its rendering in lang.
	key    string         // the key of a problem text of the catalogs (catalog_en.go)
	params map[string]any // its placeholders' values
	lang   msgLang        // the language of the call that failed
}

// HasOffset reports whether Offset locates the error in the input: true
// for the errors of input that is not JSON (ErrInvalidJSON) and of a
// field selection (ErrInvalidFields: the offset in the Select spec) that
// this package builds, false for the others and for an InputError built
// outside it. A problem-details body writes Offset (as "offset") only
// then.
func (e *InputError) HasOffset() bool { return e != nil && e.hasOffset }

// newInputError returns the InputError for what err (ErrInvalidJSON,
// ErrBodyTooLarge, ErrMethod, or an error wrapping one) says is wrong,
// with the status statusOf gives it and the problem text of the catalogs that key
// names, with params: its Msg is the text in English, and a problem
// writes it in the language of the call. An "offset" param (an int) is
// also the error's Offset. The text holds nothing of the client's input
// (no value, no header's text): the offset says where.
func newInputError(err error, key string, params map[string]any) *InputError {
	ie := &InputError{Status: statusOf(err), Err: err, key: key, params: params}
	if off, ok := params["offset"].(int); ok {
		ie.Offset, ie.hasOffset = off, true
	}
	ie.Msg = builtinCatalogs().text(0, key, params)
	return ie
}

// The request body media types MakeRequest reads: JSON (and any +json
// type), and the two form encodings for an entity that reads forms. A 415
// answer names them in its Accept header and its "accept" member.
const (
	jsonMediaType  = "application/json"
	formMediaTypes = "application/json, application/x-www-form-urlencoded, multipart/form-data"
)

// requestTooLarge returns the InputError (413) of a request whose output
// passed its limit (err wraps ErrTooLarge). The same ErrTooLarge from Make
// or Write is the server's data, and statusOf gives it 500.
func requestTooLarge(err error, limit int) *InputError {
	ie := newInputError(err, "problem.body.output", map[string]any{"limit": int64(limit)})
	ie.Status = http.StatusRequestEntityTooLarge
	return ie
}

// Error returns "entity: " and the message: Msg, else the Code.
func (e *InputError) Error() string {
	if e == nil {
		return "entity: <nil InputError>"
	}
	if e.Msg == "" && e.Code != "" {
		return "entity: " + e.Code
	}
	return "entity: " + e.Msg
}

// StatusCode returns the HTTP status for the error: Status, when it is a
// client error (4xx), else the status statusOf gives the error it wraps.
func (e *InputError) StatusCode() int { return statusOf(e) }

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// ErrInvalidFields is wrapped by the InputError (400) of a Select spec
// that does not parse or names a field that does not exist.
var ErrInvalidFields = engine.ErrInvalidFields

// ErrInvalidVersion is wrapped by the InputError (400) of a Version that
// is not a version.
var ErrInvalidVersion = engine.ErrInvalidVersion

// ErrUnknownField is wrapped by the error of an Only or Except path the
// entity does not have: a programming error (500 in Write).
var ErrUnknownField = engine.ErrUnknownField

// ErrUnknownFlag is wrapped by the error of a call whose With names a flag
// the registry has not declared (WithContext ignores such flags).
var ErrUnknownFlag = engine.ErrUnknownFlag

// ErrInvalidJSON is wrapped by the InputError for input that is not valid
// JSON, or not a JSON object or array of objects: 400 for a request's, 500
// for the raw JSON a response-side call was given (the server's).
var ErrInvalidJSON = engine.ErrInvalidJSON

// ErrMethod is wrapped by the InputError (405) for a request whose method
// the entity's declaration does not allow.
var ErrMethod = errors.New("entity: method not allowed")

// ErrBodyTooLarge is wrapped by the InputError (413) for a request body
// over the registry's limit.
var ErrBodyTooLarge = engine.ErrBodyTooLarge

// ErrUnsupportedMediaType is wrapped by the InputError (415) for a request
// body that MakeRequest does not read: one whose Content-Type is not JSON
// (application/json, any +json), nor, for an entity whose methods hold the
// word form, a form (application/x-www-form-urlencoded,
// multipart/form-data); one with no Content-Type; and a form none of whose
// keys the entity declares while its text is JSON (what `curl -d '{…}'`
// sends).
var ErrUnsupportedMediaType = errors.New("entity: unsupported media type")

// errUnreadableBody is wrapped, with the error that reading it gave, by the
// InputError (400) for a request body that cannot be read.
var errUnreadableBody = errors.New("entity: the request body cannot be read")

// RuleError is one failed check of Field.Check: the rule's name and the
// error its check returned.
type RuleError struct {
	Rule string
	Err  error
}

// Error returns `entity: rule "min": ` and the check's message.
func (e RuleError) Error() string {
	msg := "is not valid"
	if e.Err != nil {
		msg = e.Err.Error()
	}
	return "entity: rule " + strconv.Quote(e.Rule) + ": " + msg
}

// Unwrap returns the check's error.
func (e RuleError) Unwrap() error { return e.Err }

// PanicError is a panic recovered from a custom rule's check. The field's
// FieldError says only "is not valid", since the panic's text may hold
// anything (a database's address, a user name); it unwraps to the
// PanicError, for logging:
//
//	var pe *entity.PanicError
//	if errors.As(err, &pe) {
//		log.Printf("rule %s panicked: %v\n%s", pe.Rule, pe.Value, pe.Stack)
//	}
//
// Under a `secret` field nothing of the panic is kept: the FieldError
// unwraps to nothing.
type PanicError struct {
	Rule  string // the rule's name
	Value any    // what the check panicked with
	Stack []byte // the goroutine's stack where it panicked
}

// Error returns `entity: rule "lookup" panicked: ` and the panic's value.
// It is for logs: it is never written into a response.
func (e *PanicError) Error() string {
	if e == nil {
		return "entity: <nil PanicError>"
	}
	return "entity: rule " + strconv.Quote(e.Rule) + " panicked: " + fmt.Sprint(e.Value)
}

// rulePanic is the error a field fails with when its check panicked: its
// text is the client's, its PanicError the server's (see
// FieldError.Unwrap).
type rulePanic struct{ pe *PanicError }

// panicOf returns the error a field fails with for the engine's record of
// a check that panicked.
func panicOf(p *engine.RulePanic) error {
	return &rulePanic{&PanicError{Rule: p.Rule, Value: p.Value, Stack: p.Stack}}
}

func (e *rulePanic) Error() string { return "is not valid" }
func (e *rulePanic) Unwrap() error { return e.pe }

// statusCoder is an error that knows its HTTP status.
type statusCoder interface{ StatusCode() int }

// statusOf returns the HTTP status that err is answered with, the one
// place that decides it:
//
//   - a *ValidationError: 400, the client's fields are at fault, but for
//     one of a response-side run (ValidationError.response), whose data
//     is the server's: 500;
//   - an *InputError of the raw JSON a response-side run read
//     (InputError.server): 500, the server's data;
//   - an *InputError whose Status is a client error (4xx): that status;
//   - an error wrapping ErrMethod: 405; ErrBodyTooLarge: 413;
//     ErrUnsupportedMediaType: 415; ErrInvalidJSON, ErrInvalidFields,
//     ErrInvalidVersion or an unreadable body: 400;
//   - another error with a StatusCode method returning 4xx: that status;
//   - anything else, nil and typed nils included: 500, the server is at
//     fault.
func statusOf(err error) int {
	var ve *ValidationError
	var ie *InputError
	var sc statusCoder
	switch {
	case err == nil:
	case errors.As(err, &ve) && ve != nil:
		if ve.response {
			return http.StatusInternalServerError
		}
		return http.StatusBadRequest
	case errors.As(err, &ie) && ie != nil && ie.server:
		return http.StatusInternalServerError
	case errors.As(err, &ie) && ie != nil && isClientError(ie.Status):
		return ie.Status
	case errors.Is(err, ErrMethod):
		return http.StatusMethodNotAllowed
	case errors.Is(err, ErrBodyTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, ErrUnsupportedMediaType):
		return http.StatusUnsupportedMediaType
	case errors.Is(err, ErrInvalidJSON), errors.Is(err, errUnreadableBody), errors.Is(err, ErrInvalidFields), errors.Is(err, ErrInvalidVersion):
		return http.StatusBadRequest
	case errors.As(err, &sc) && !isNilValue(sc):
		if _, own := sc.(*InputError); !own { // its StatusCode is this function
			if s := sc.StatusCode(); isClientError(s) {
				return s
			}
		}
	}
	return http.StatusInternalServerError
}

// isClientError reports whether status is a 4xx status.
func isClientError(status int) bool { return status >= 400 && status < 500 }

// The package's own error types and the errors of its field failures,
// kept here with the exported ones.

// bindError is a decode error of Bind: its own message, which quotes no
// value, over encoding/json's error.
type bindError struct {
	msg  string
	err  error
	lang msgLang // the request's, for the 500 it answers
}

func (e *bindError) Error() string { return e.msg }
func (e *bindError) Unwrap() error { return e.err }

// statusError is WriteStatus's error for a status that is not one.
type statusError struct{ status int }

func (e *statusError) Error() string {
	return "entity: WriteStatus: status " + strconv.Itoa(e.status) + " is not an HTTP status (100–599)"
}

// LoadError is the error of LoadFS: every error of every file it loaded,
// sorted by file, line and column. Its text lists them all, each as
// path:line:col: message followed by the line and a caret under the fault
// (dsl.Error's text). errors.As finds its dsl.ErrorList, and each
// *dsl.Error in it.
type LoadError struct {
	Errors dsl.ErrorList
}

// Error lists every error, one after the other.
func (e *LoadError) Error() string {
	if e == nil {
		return "entity: LoadFS: no error"
	}
	var b strings.Builder
	b.WriteString("entity: LoadFS: ")
	b.WriteString(strconv.Itoa(len(e.Errors)))
	if len(e.Errors) == 1 {
		b.WriteString(" error")
	} else {
		b.WriteString(" errors")
	}
	for _, d := range e.Errors {
		b.WriteString("\n")
		b.WriteString(d.Error())
	}
	return b.String()
}

// Unwrap returns the list of errors, for errors.Is and errors.As.
func (e *LoadError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Errors
}

// msgLang is the language of a call's messages: one of the languages of
// the registry's catalogs when the call failed. The errors a call builds
// keep it, so that the problem written for them, whenever it is, is in
// the call's language. The zero value is unset: English, when nothing else
// says otherwise.
type msgLang struct {
	cat *catalogs
	li  int
}

// catalogs returns the catalogs of the language: the built-in ones when
// it is unset.
func (l msgLang) catalogs() *catalogs {
	if l.cat == nil {
		return builtinCatalogs()
	}
	return l.cat
}

// langOf returns the language of err, one of the package's errors built by
// a call, else lang.
func langOf(err error, lang msgLang) msgLang {
	var ve *ValidationError
	var ie *InputError
	var be *bindError
	switch {
	case errors.As(err, &ve) && ve != nil && ve.lang.cat != nil:
		return ve.lang
	case errors.As(err, &ie) && ie != nil && ie.lang.cat != nil:
		return ie.lang
	case errors.As(err, &be) && be.lang.cat != nil:
		return be.lang
	}
	return lang
}

// inLang sets the language of err, when it is one of the package's errors
// whose language is not set yet, to lang, and returns err. The errors are
// the call's own, new: no other goroutine has them yet.
func inLang(err error, lang msgLang) error {
	var ve *ValidationError
	var ie *InputError
	var be *bindError
	if errors.As(err, &ve) && ve != nil && ve.lang.cat == nil {
		ve.lang = lang
	}
	if errors.As(err, &ie) && ie != nil && ie.lang.cat == nil && ie.key != "" {
		ie.lang = lang
	}
	if errors.As(err, &be) && be.lang.cat == nil {
		be.lang = lang
	}
	return err
}

// requestLang returns the language of the messages of a request's
// errors, the one the registry's catalogs match to requestPref: the one
// place a request's language is decided (MakeRequest, Bind, Patch,
// Entity.Fail, WriteRequestError).
func (r *Registry) requestLang(req *http.Request, opts []Option) msgLang {
	c := r.messages()
	return msgLang{c, c.match(requestPref(req, opts))}
}

// headerValue is h.Get(key) for a key in canonical form, without
// canonicalizing it again: the first value of key, or "".
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// requestPref returns the languages a call for req asks for: Lang's
// among opts, else the request's Accept-Language ("" for none).
func requestPref(req *http.Request, opts []Option) string {
	pref := langOpt(opts)
	if pref == "" && req != nil {
		pref = headerValue(req.Header, "Accept-Language")
	}
	return pref
}

// Fail returns the error of a request to e that fails checks of the
// handler's own, merged with the library's into one problem: a
// *ValidationError (400) of err's field errors, when err is a request's
// *ValidationError, followed by fields, each built by NewFieldError. The
// messages of fields are rendered from the registry's catalogs (see
// Registry.DeclareCode; "is not valid" for a code no catalog names) in
// the language of err, or, when err is nil, of req's Accept-Language (see
// Registry.RequestLang; a nil req is English). Past the registry's Limits.Errors
// they are counted in Omitted, as the library's own are.
//
// An err of another kind is returned as it is, fields left out: an
// *InputError says the request cannot be read at all, and the error of
// the server's data or the server's own is a 500. With no fields, Fail
// returns err.
//
//	o, err := orders.MakeRequest(r)
//	if err == nil && !store.HasCustomer(o) {
//		err = orders.Fail(r, nil, entity.NewFieldError("/customer_id", "no_customer", nil))
//	}
//	if err != nil {
//		entity.WriteError(w, err) // 400: every field error, the handler's with the library's
//		return
//	}
func (e *Entity) Fail(req *http.Request, err error, fields ...*FieldError) error {
	if e == nil {
		return errNilEntity
	}
	if len(fields) == 0 {
		return err
	}
	var ve *ValidationError
	out := &ValidationError{Entity: e.Name()}
	switch {
	case err == nil:
		out.lang = e.reg.requestLang(req, nil)
	case errors.As(err, &ve) && ve != nil && !ve.response:
		out.Entity, out.Omitted = ve.Entity, ve.Omitted
		out.Fields = append(out.Fields, ve.listedFields()...)
		out.lang = ve.lang
		if out.lang.cat == nil {
			out.lang = e.reg.requestLang(req, nil)
		}
	default:
		return err
	}
	cat, li := out.lang.catalogs(), out.lang.li
	limit := e.reg.Limits().Errors
	for _, f := range fields {
		if f == nil {
			continue
		}
		if len(out.Fields) >= limit {
			out.Omitted++
			continue
		}
		g := *f // the caller's stays as it was
		g.Message = renderCode(cat, li, g.Code, fieldName(g.Pointer), g.Params)
		out.Fields = append(out.Fields, &g)
	}
	if out.Omitted > 0 {
		params := map[string]any{"omitted": int64(out.Omitted)}
		m, l := cat.lookup(li, []string{"limit"})
		out.Fields = append(out.Fields, &FieldError{Rule: "limit", Code: "limit", Params: params, Message: cat.render(m, l, "limit", "", params)})
	}
	return out
}

// renderCode renders the message of code in language li (or English):
// "is not valid" when no catalog names it.
func renderCode(cat *catalogs, li int, code, field string, params map[string]any) string {
	m, l := cat.lookup(li, []string{code})
	if m == nil {
		m, l = cat.lookup(li, []string{keyInvalid})
	}
	return cat.render(m, l, code, field, params)
}

// fieldName returns the last name of a JSON Pointer that is not an
// index: the {field} of its messages.
func fieldName(pointer string) string {
	toks := pointerTokens(pointer)
	for i := len(toks) - 1; i >= 0; i-- {
		if !isIndexToken(toks[i]) {
			return toks[i]
		}
	}
	return ""
}

// isNilValue reports whether v holds a nil pointer (or map, slice…).
func isNilValue(v any) bool {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface, reflect.Func, reflect.Chan:
		return rv.IsNil()
	}
	return v == nil
}
