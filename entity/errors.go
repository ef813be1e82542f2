package entity

import (
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/expose-go/expose/dsl"
)

// The error types of the package, and statusOf, the one place that decides
// which HTTP status an error is answered with.

// ErrValidation is matched by errors.Is for every *ValidationError.
var ErrValidation = errors.New("entity: validation failed")

// ErrUnknownEntity is wrapped by the error that Make and friends return when
// the entity named, or one that a `$ref` reaches, is not declared.
var ErrUnknownEntity = errors.New("entity: unknown entity")

// ErrUnsupportedInput is wrapped by the error returned when Make is given a
// value it cannot read fields from (an int, a string, a channel…).
var ErrUnsupportedInput = errors.New("entity: unsupported input")

// errNilEntity is the error of a call on a nil *Entity: what Lookup
// returns for a name that is not exposed.
var errNilEntity = fmt.Errorf("%w: a nil *Entity (Lookup finds nothing under a name that is not exposed)", ErrUnknownEntity)

// errNilWriter is the error of Write and WriteStatus given no
// ResponseWriter.
var errNilWriter = errors.New("entity: Write: a nil http.ResponseWriter")

// ErrTooLarge is wrapped by the error of a call whose output passed its
// limit (Registry.SetMaxOutputBytes; for MakeRequest, also
// Registry.SetRequestOutputRatio): the call stopped and wrote nothing.
var ErrTooLarge = errors.New("entity: output too large")

// ErrDepth is wrapped by the FieldError reported when output nesting, or a
// value passed through, is deeper than the registry's depth limit.
var ErrDepth = errors.New("entity: nesting too deep")

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
	// text. Under a secret field it is "is not valid" in that language
	// (but for required, and a field's own msg, which holds no value).
	Message string
	// Pointer is where the value was read, as an RFC 6901 JSON Pointer into
	// the input: "/list/1/mail".
	Pointer string
	// Code is the stable name of what failed, for clients and translators
	// (never parse Message): "required" for req, a rule's canonical name
	// for any of its aliases ("range" for minmax), a custom rule's name,
	// and "type", "depth", "json", "limit", "unknown", "default" (bare
	// defaults that form a cycle), "value" (a driver.Valuer that failed).
	Code string
	// Params are the failing rule's arguments by the names its Def gives
	// them ({"min": 3}; a number written without quotes is an int64 or a
	// float64, anything else its text); "type" and "got" for type, "limit"
	// for depth, "omitted" for limit; nil when there are none. Each
	// FieldError has its own.
	Params map[string]any
	// In says where a request's value was when it was not in the body: the
	// parameter's place, "path", "query", "header" or "cookie" (Path is
	// then the parameter's name); "" for the body, server data, and any
	// value below the top level.
	In string

	cause error
}

// Error returns "Path: Message".
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
	return p + ": " + e.Message
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
// At most Registry.MaxErrors field errors are collected (default 100);
// past them Omitted counts the rest, and Fields ends with one summary entry
// of rule "limit": "and N more field errors, not listed".
type ValidationError struct {
	Entity  string
	Fields  []*FieldError
	Omitted int
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

// StatusCode returns 400 (Bad Request): the input, not the server, is at
// fault.
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
// WriteError answers it as RFC 9457 problem details whose detail is Msg;
// see WriteError for the members each status carries.
type InputError struct {
	Status int    // 400, 405, 413, 415…
	Msg    string // what is wrong, safe to show the client: never a value
	Err    error  // the underlying error, if any
	Allow  string // for 405: the methods allowed, for the Allow header
	// Accept is, for 415, the request media types accepted, comma
	// separated as an Accept header lists them; empty means
	// AcceptedMediaTypes, those MakeRequest reads.
	Accept string
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
}

// HasOffset reports whether Offset locates the error in the input: true
// for the errors of input that is not JSON (ErrInvalidJSON) and of a
// field selection (ErrInvalidFields: the offset in the Select spec) that
// this package builds, false for the others and for an InputError built
// outside it. A problem-details body writes Offset (as "offset") only
// then.
func (e *InputError) HasOffset() bool { return e != nil && e.hasOffset }

// jsonInputError returns the InputError (400, ErrInvalidJSON) of JSON input
// that fails at byte off, as msg (which says so) explains.
func jsonInputError(off int, msg string) *InputError {
	return &InputError{Status: http.StatusBadRequest, Msg: msg, Err: ErrInvalidJSON, Offset: off, hasOffset: true}
}

// AcceptedMediaTypes are the request body media types MakeRequest reads:
// JSON (and any +json type) and the two form encodings. A 415 answer
// names them in its Accept header and its "accept" member.
const AcceptedMediaTypes = "application/json, application/x-www-form-urlencoded, multipart/form-data"

// inputError returns the InputError for what err (ErrInvalidJSON,
// ErrBodyTooLarge, ErrMethod, or an error wrapping one) says is wrong,
// with the status statusOf gives it.
func inputError(err error, msg string) *InputError {
	return &InputError{Status: statusOf(err), Msg: msg, Err: err}
}

// requestTooLarge returns the InputError (413) of a request whose output
// passed its limit (err wraps ErrTooLarge). The same ErrTooLarge from Make
// or Write is the server's data, and statusOf gives it 500.
func requestTooLarge(err error, msg string) *InputError {
	return &InputError{Status: http.StatusRequestEntityTooLarge, Msg: msg, Err: err}
}

// Error returns "entity: " and the message.
func (e *InputError) Error() string {
	if e == nil {
		return "entity: <nil InputError>"
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
var ErrInvalidFields = errors.New("entity: invalid field selection")

// ErrInvalidVersion is wrapped by the InputError (400) of a Version that
// is not a version.
var ErrInvalidVersion = errors.New("entity: invalid version")

// ErrUnknownField is wrapped by the error of an Only or Except path the
// entity does not have: a programming error (500 in Write).
var ErrUnknownField = errors.New("entity: unknown field")

// ErrUnknownFlag is wrapped by the error of a call whose With names a flag
// the registry has not declared (WithContext ignores such flags).
var ErrUnknownFlag = errors.New("entity: undeclared flag")

// ErrInvalidJSON is wrapped by the InputError (400) for input that is not
// valid JSON, or not a JSON object or array of objects.
var ErrInvalidJSON = errors.New("entity: invalid JSON")

// ErrMethod is wrapped by the InputError (405) for a request whose method
// the entity's declaration does not allow.
var ErrMethod = errors.New("entity: method not allowed")

// ErrBodyTooLarge is wrapped by the InputError (413) for a request body
// over the registry's limit.
var ErrBodyTooLarge = errors.New("entity: request body too large")

// ErrUnsupportedMediaType is wrapped by the InputError (415) for a request
// body that MakeRequest does not read: one whose Content-Type is neither
// JSON (application/json, any +json) nor a form
// (application/x-www-form-urlencoded, multipart/form-data), one with no
// Content-Type, and a form none of whose keys the entity declares while
// its text is JSON (what `curl -d '{…}'` sends).
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

// newRulePanic returns the error for a check of rule that panicked with p.
// Call it in the deferred function that recovered, so that the stack is
// the panic's.
func newRulePanic(rule string, p any) error {
	return &rulePanic{&PanicError{Rule: rule, Value: p, Stack: debug.Stack()}}
}

func (e *rulePanic) Error() string { return "is not valid" }
func (e *rulePanic) Unwrap() error { return e.pe }

// statusCoder is an error that knows its HTTP status.
type statusCoder interface{ StatusCode() int }

// statusOf returns the HTTP status that err is answered with, the one
// place that decides it:
//
//   - a *ValidationError: 400, the client's fields are at fault;
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
		return http.StatusBadRequest
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
	case errors.As(err, &sc) && !isNil(sc):
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
	msg string
	err error
}

func (e *bindError) Error() string { return e.msg }
func (e *bindError) Unwrap() error { return e.err }

// statusError is WriteStatus's error for a status that is not one.
type statusError struct{ status int }

func (e *statusError) Error() string {
	return "entity: WriteStatus: status " + strconv.Itoa(e.status) + " is not an HTTP status (100–599)"
}

// errTooLarge is appendAny's error past its end: the run turns it into
// its ErrTooLarge failure.
var errTooLarge = errors.New("passes the output limit")

// errUnsupportedValue reports a value that JSON cannot hold (NaN, a channel).
var errUnsupportedValue = errors.New("cannot be written as JSON")

// errRequired is the error of req.
var errRequired = errors.New("is required")

// errDefaultCycle is the error of bare defaults on references that form a
// cycle.
var errDefaultCycle = errors.New("its default makes the entity from an empty input, which needs this default again: the defaults form a cycle")

// errUnknown is the error of a key DenyUnknown refuses.
var errUnknown = errors.New("is not a known field")

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
