package entity

import (
	"errors"
	"strconv"
	"strings"
)

// ErrValidation is matched by errors.Is for every *ValidationError.
var ErrValidation = errors.New("entity: validation failed")

// ErrUnknownEntity is wrapped by the error that Make and friends return when
// the entity named, or one that a `$ref` reaches, is not declared.
var ErrUnknownEntity = errors.New("entity: unknown entity")

// ErrUnsupportedInput is wrapped by the error returned when Make is given a
// value it cannot read fields from (an int, a string, a channel…).
var ErrUnsupportedInput = errors.New("entity: unsupported input")

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
	// valid email address". It never holds the value itself.
	Message string

	cause error
}

// Error returns "Path: Message".
func (e *FieldError) Error() string {
	if e.Rule == "limit" && e.Path == "" && e.OutputPath == "" {
		return e.Message // the summary of the errors past the limit
	}
	p := e.Path
	if p == "" {
		p = "(root)"
	}
	return p + ": " + e.Message
}

// Unwrap returns the underlying error, such as ErrDepth, if any.
func (e *FieldError) Unwrap() error { return e.cause }

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

// StatusCode returns 400: the input, not the server, is at fault.
func (e *ValidationError) StatusCode() int { return 400 }

// Is reports whether target is ErrValidation.
func (e *ValidationError) Is(target error) bool { return target == ErrValidation }

// Unwrap returns the field errors, so that errors.As finds a *FieldError.
func (e *ValidationError) Unwrap() []error {
	errs := make([]error, len(e.Fields))
	for i, f := range e.Fields {
		errs[i] = f
	}
	return errs
}
