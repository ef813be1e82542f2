package engine

import (
	"errors"
	"runtime/debug"

	"github.com/expose-go/expose/internal/msgtext"
)

// What a run reports: failures as values (FieldError, InputError,
// RulePanic) and the sentinels they wrap. Nothing here is rendered: the
// API around the engine builds its public errors from these, and renders
// their messages in the call's language, after the walk and only when it
// failed.

// The sentinels the engine's errors wrap; package entity exports each
// under the same name.
var (
	ErrUnknownEntity    = errors.New("entity: unknown entity")
	ErrUnsupportedInput = errors.New("entity: unsupported input")
	ErrTooLarge         = errors.New("entity: output too large")
	ErrDepth            = errors.New("entity: nesting too deep")
	ErrInvalidFields    = errors.New("entity: invalid field selection")
	ErrInvalidVersion   = errors.New("entity: invalid version")
	ErrUnknownField     = errors.New("entity: unknown field")
	ErrUnknownFlag      = errors.New("entity: undeclared flag")
	ErrInvalidJSON      = errors.New("entity: invalid JSON")
	ErrBodyTooLarge     = errors.New("entity: request body too large")
)

// FieldError is one failing field as the walk found it: where, which rule,
// its params, and what its message needs (the field's own msg, the name
// {field} says, the kind of the value, whether it is secret), but no
// message.
type FieldError struct {
	Path, OutputPath, Pointer string
	In                        string // a request's top-level parameter's place: "path", "query", "header", "cookie"
	Rule, Code                string
	Params                    map[string]any
	// Cause is the rule's error (a *RulePanic for one that panicked,
	// ErrDepth, errRequired…); nil under a secret, whose rules' words
	// may describe the value. Err is that error whatever the field: the
	// text of a message no catalog names, which under a secret is only
	// read for the rules whose words quote no value.
	Cause, Err error

	Field  string // the name {field} says
	Kind   string // the kind of the failing value, for the message's key ("string", "number", "list")
	Exact  bool   // range with equal bounds: its messages say "exactly"
	Secret bool   // the field is secret (or under a secret reference)
	// Panicked: the rule panicked (its error, now dropped under a secret,
	// was a *RulePanic).
	Panicked bool
	// Msg is the field's own message (msg 'text'), and MsgParams the
	// params of all the field's rules, for its placeholders.
	Msg       *msgtext.Template
	MsgParams []RuleParam
}

// InputError is an error in the input itself rather than in one of its
// fields: JSON that does not parse, a selection that names nothing. Key
// names its text in the problem catalogs, with Params; Err is the
// sentinel it wraps.
type InputError struct {
	Err    error
	Key    string
	Params map[string]any
}

func newInputError(err error, key string, params map[string]any) *InputError {
	return &InputError{Err: err, Key: key, Params: params}
}

func (e *InputError) Error() string { return e.Err.Error() + " (" + e.Key + ")" }
func (e *InputError) Unwrap() error { return e.Err }

// RulePanic is the error of a check that panicked: its value and the
// stack where it did, for the server's log.
type RulePanic struct {
	Rule  string
	Value any
	Stack []byte
}

// newRulePanic returns the error for a check of rule that panicked with p.
// Call it in the deferred function that recovered, so that the stack is
// the panic's.
func newRulePanic(rule string, p any) error {
	return &RulePanic{Rule: rule, Value: p, Stack: debug.Stack()}
}

func (e *RulePanic) Error() string { return "is not valid" }

// errTooLarge is appendAny's error past its end: the run turns it into
// its ErrTooLarge failure.
var errTooLarge = errors.New("passes the output limit")

// errUnsupportedValue reports a value that JSON cannot hold (NaN, a channel).
var errUnsupportedValue = errors.New("cannot be written as JSON")

// errCross are the errors of the cross-field rules, by kind.
var errCross = [...]error{
	crossRequiredIf:      errors.New("is required when another field has a given value"),
	crossRequiredWith:    errors.New("is required when another field is given"),
	crossRequiredWithout: errors.New("is required when the other fields are not given"),
	crossExcludedWith:    errors.New("must be absent when another field is given"),
}

// errRequired is the error of req.
var errRequired = errors.New("is required")

// ErrDefaultCycle is the error of bare defaults on references that form a
// cycle (its text is the English catalog's message for it).
var ErrDefaultCycle = errors.New("its default makes the entity from an empty input, which needs this default again: the defaults form a cycle")

// errUnknown is the error of a key DenyUnknown refuses.
var errUnknown = errors.New("is not a known field")

// maxKeyBytes is the most bytes of a client's key that an error's path
// holds: an unknown key (DenyUnknown) is the one text of the client's
// input that a problem writes, and not all of it.
const maxKeyBytes = 64

// clipKey returns key cut to its first maxKeyBytes bytes (back to the
// start of a UTF-8 sequence) and "…", or key when it is no longer.
func clipKey(key string) string {
	if len(key) <= maxKeyBytes {
		return key
	}
	i := maxKeyBytes
	for i > 0 && key[i]&0xC0 == 0x80 {
		i--
	}
	return key[:i] + "…"
}

// QuotesNoValue reports whether the messages and params of code are safe
// under a secret field: the built-in ones that say what was wanted, never
// what came (the length asked for, the kind that arrived), and the
// cross-field rules', which name siblings (and a required_if the values of
// a sibling that is no secret: see crossRule.msg). The messages of in,
// regex and custom rules would describe a secret's value (one of these
// words, a pattern it failed): under a secret they are "is not valid",
// without params. Built-in rules cannot be registered again, so these
// codes are theirs.
func QuotesNoValue(code string) bool {
	switch code {
	case "required", "depth", "type", "immutable", "min", "max", "len", "range", "email", "url", "date",
		"required_if", "required_with", "required_without", "excluded_with":
		return true
	}
	return false
}
