package entity

import (
	"fmt"
	"net/http"

	"github.com/expose-go/expose/internal/engine"
)

// This file holds a Registry's settings: the options NewRegistry and
// Configure take (KeyCase, SingleRefs, JSONTypes, Limits, ProblemTypeBase,
// ServerErrors, PathValues) and the conversion of its limits into the
// engine's.

// A RegistryOption is a setting of a Registry, given to NewRegistry or
// Configure: KeyCase(style), SingleRefs(), JSONTypes(), a Limits value,
// ProblemTypeBase(base), ServerErrors(log) or PathValues(f).
type RegistryOption interface {
	applyRegistry(*registryConfig)
}

// registryConfig is what a list of RegistryOptions sets; a nil field sets
// nothing.
type registryConfig struct {
	keyCase      *KeyCaseStyle
	singleRefs   bool
	jsonTypes    bool
	limits       *Limits
	problemBase  *string
	serverErrors *func(id string, err error)
	pathValues   *func(r *http.Request, name string) string
}

func configOf(opts []RegistryOption) registryConfig {
	var c registryConfig
	for _, o := range opts {
		if o != nil {
			o.applyRegistry(&c)
		}
	}
	return c
}

// Limits holds every numeric limit of a Registry: they bound the work and
// the memory of one call whatever its input. A zero field is the default
// given below; a negative one is the least the limit allows. Give a
// Limits value to NewRegistry or Configure (it is a RegistryOption): it
// sets every limit at once, so that
//
//	l := reg.Limits()
//	l.Depth = 16
//	err := reg.Configure(l)
//
// changes one and keeps the others. Registry.Limits returns the limits in
// force, defaults filled in.
type Limits struct {
	// Depth is how many levels of objects and lists an output may hold,
	// counting the entity itself (default 64, at least 1, at most 10000:
	// encoding/json's own limit, and a depth the stack always has room
	// for). Deeper input (recursive references on deep data, cyclic maps)
	// fails with a FieldError of rule "depth" and ends the walk, instead of
	// exhausting the stack.
	Depth int

	// Errors is how many field errors one call collects (default 100, at
	// least 1). Past it errors are counted, not built, so that work stays
	// bounded on hostile input; a problem body says how many were left
	// out.
	Errors int

	// BodyBytes is the largest request body MakeRequest and Bind read
	// (default 1 MiB; a negative value accepts none but an empty one). A
	// larger body is an InputError of status 413.
	BodyBytes int64

	// OutputBytes is the most bytes of JSON one call (Make, MakeJSON,
	// AppendJSON, MakeList, Write, MakeRequest) may write (default 64 MiB,
	// at least 1). Past it the walk stops and the call fails with an error
	// wrapping ErrTooLarge: Write answers 500 (the data is the server's),
	// MakeRequest's InputError 413 (the request's). It bounds a DAG of Go
	// values that shares nodes, and bare defaults on references that
	// multiply objects from an empty input.
	OutputBytes int64

	// RequestOutputRatio is how many bytes of output MakeRequest may write
	// per byte of request body (default 8, at least 1), so that a
	// request's memory is proportional to its body: its output limit is
	// the smaller of OutputBytes and the larger of 1 MiB and
	// RequestOutputRatio times the body's length. Past it MakeRequest
	// fails with an InputError of status 413 wrapping ErrTooLarge.
	RequestOutputRatio int64
}

func (l Limits) applyRegistry(c *registryConfig) { c.limits = &l }

// Limits returns the registry's limits in force, defaults filled in; a nil
// registry's are the defaults.
func (r *Registry) Limits() Limits {
	var env *engine.Env
	if r != nil {
		env = r.env
	}
	return Limits(env.Limits())
}

type problemBaseOption string

func (o problemBaseOption) applyRegistry(c *registryConfig) { b := string(o); c.problemBase = &b }

// ProblemTypeBase sets the URI reference that the "type" member of the
// registry's problem details starts with (default "/problems/"): the type
// of a validation failure is base+"validation", of a body that is not JSON
// base+"invalid-json", of a 415 base+"unsupported-media-type". Set an
// absolute URI where the problem types are documented, such as
// "https://api.example.com/problems/"; the default is a relative reference
// that a client resolves against the request's URI (RFC 9457 3.1.1 asks a
// relative type to carry its full path, as it does). An empty base is the
// default.
func ProblemTypeBase(base string) RegistryOption { return problemBaseOption(base) }

type singleRefsOption struct{}

func (singleRefsOption) applyRegistry(c *registryConfig) { c.singleRefs = true }

// SingleRefs is the RegistryOption (of NewRegistry, or of Configure before
// anything is exposed) that makes every `$name` of the registry hold
// exactly one object in responses too, as it does in requests: a list
// given to one is the server's error (a "type" failure, which Write
// answers 500), and its schema is one object (Field.One). Without it a
// response's `$name` is msful's: made from an object or, element by
// element, from a list. `[]$name` is always a list, and a merged `$name`
// one object, either way. It is compiled into the plans: a call pays
// nothing for it.
func SingleRefs() RegistryOption { return singleRefsOption{} }

type jsonTypesOption struct{}

func (jsonTypesOption) applyRegistry(c *registryConfig) { c.jsonTypes = true }

// JSONTypes is the RegistryOption (of NewRegistry, or of Configure before
// anything is exposed) under which a request's JSON body gives each value
// as its JSON type, the one a response writes: a number or float field a
// JSON number, a bool field true or false, a date field RFC 3339
// date-time text ("2026-12-01T09:30:00Z", an offset or a fraction of a
// second allowed). Anything else there is a FieldError of code "type" at
// the field's path ("must be an integer, got a string"; params "type"
// and "got"; never the value), where a registry without it converts "10",
// "true", 1 for a bool, Unix milliseconds or "2026/12/1" for a date, as
// Strict says. It applies to what a client sends in a JSON body:
// MakeRequest, Bind, and Patch's merged value (the patch's values; the
// current value's, written in the wire form, are of their types
// already), at every depth, a typed list's elements too. It leaves alone
// what is text: the parameters (path, query, header, cookie) and a form's
// fields, read as every registry reads them; a field with a format, read
// as in any registry; and server data (Make, MakeJSON, Write, an Object
// read back), converted as always, Strict or not.
//
// Strict is what a request is read with already; JSONTypes narrows it for
// JSON bodies. Lax, given to a call, reads that call's body as a registry
// without JSONTypes reads it under Lax: a per-call opt-out.
//
// The request schemas (package schema) say so: a number field is
// {"type": "integer"}, a float {"type": "number"}, a bool {"type":
// "boolean"}, a date {"type": "string", "format": "date-time"}, with no
// text alternative (no anyOf of a pattern), which code generators read
// as plain types. Field.JSONTyped reports it of each field. It is
// compiled into the plans: a call pays nothing for it.
func JSONTypes() RegistryOption { return jsonTypesOption{} }

type serverErrorsOption func(id string, err error)

func (o serverErrorsOption) applyRegistry(c *registryConfig) {
	f := (func(string, error))(o)
	c.serverErrors = &f
}

// ServerErrors sets the function a registry gives each error that is the
// server's fault and that a client is answered 500 for (server data that
// fails its entity, a panic in a rule): log receives the id the problem
// body names as its "instance", and the error with everything it says, so
// that a log line can be found from what the client was shown. It is
// called on the goroutine of the call, so it should be quick; nil (the
// default) logs nothing.
func ServerErrors(log func(id string, err error)) RegistryOption { return serverErrorsOption(log) }

type pathValuesOption func(r *http.Request, name string) string

func (o pathValuesOption) applyRegistry(c *registryConfig) {
	f := (func(*http.Request, string) string)(o)
	c.pathValues = &f
}

// PathValues sets how a request's path parameters are read, for the fields
// declared `path` (by default http.Request.PathValue, which Go 1.22's
// ServeMux fills from a pattern's {name} wildcards). A router of another
// kind gives its own: chi's `chi.URLParam`, gorilla/mux's
// `func(r *http.Request, name string) string { return mux.Vars(r)[name] }`.
// An empty string is a parameter that is not there.
func PathValues(value func(r *http.Request, name string) string) RegistryOption {
	return pathValuesOption(value)
}

// serverErrors returns the registry's ServerErrors function, or nil.
func (r *Registry) serverErrors() func(id string, err error) {
	if r == nil {
		return nil
	}
	if f := r.serverLog.Load(); f != nil {
		return *f
	}
	return nil
}

// Configure changes the registry's settings, as the same options given to
// NewRegistry would have set them. KeyCase must come before anything is
// exposed, so that every entity of a registry, and every reference between
// them, writes keys in one style: once an entity is exposed, or for a
// style that is not one of the constants, Configure changes nothing and
// returns an error; and so must SingleRefs and JSONTypes, for the same reason. A Limits value sets every limit (a zero field is its
// default); the other settings given replace theirs and those not given
// stay.
func (r *Registry) Configure(opts ...RegistryOption) error {
	c := configOf(opts)
	return r.configure(&c, "Configure", "Configure(KeyCase(%v))")
}

// configure applies c, for the entry point op; call names its key case
// setting, for the error that refuses it.
func (r *Registry) configure(c *registryConfig, op, call string) error {
	if r == nil {
		return errNilRegistry
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := c.keyCase; s != nil {
		if !s.valid() {
			return fmt.Errorf("entity: %s: unknown key case style %v", op, *s)
		}
		if names := r.Names(); len(names) > 0 {
			return fmt.Errorf("entity: "+call+" after entity %q was exposed: set the key case before exposing anything", *s, names[0])
		}
	}
	if c.singleRefs && !r.env.SingleRefs {
		if names := r.Names(); len(names) > 0 {
			return fmt.Errorf("entity: %s(SingleRefs()) after entity %q was exposed: set it before exposing anything", op, names[0])
		}
	}
	if c.jsonTypes && !r.env.JSONTypes {
		if names := r.Names(); len(names) > 0 {
			return fmt.Errorf("entity: %s(JSONTypes()) after entity %q was exposed: set it before exposing anything", op, names[0])
		}
	}
	r.apply(c)
	return nil
}

// apply sets what c says. The caller holds mu, or is creating r.
func (r *Registry) apply(c *registryConfig) {
	if c.keyCase != nil {
		r.env.KeyCase = engine.KeyCase(*c.keyCase)
	}
	if c.singleRefs {
		r.env.SingleRefs = true
	}
	if c.jsonTypes {
		r.env.JSONTypes = true
	}
	if c.limits != nil {
		r.env.SetLimits(engine.Limits(*c.limits))
	}
	if c.problemBase != nil {
		base := *c.problemBase
		if base == "" {
			base = defaultProblemBase
		}
		r.problemBase.Store(&base)
	}
	if c.pathValues != nil {
		r.env.SetPathValues(*c.pathValues)
	}
	if c.serverErrors != nil {
		if *c.serverErrors == nil {
			r.serverLog.Store(nil)
		} else {
			r.serverLog.Store(c.serverErrors)
		}
	}
}

// KeyCaseStyle says how a Registry writes the output keys of the fields
// it compiles. The zero value, AsDeclared, writes each key as declared.
//
// A declared name is split into words at '_', at '-', and before an
// upper-case letter that follows a lower-case letter or a digit. Runs of
// upper-case letters are not split (no acronym guessing): "userID" is the
// words "user" and "ID", "HTTPServer" is one word, "v2Name" is "v2" and
// "Name". Separators at the ends or repeated are dropped ("_x" is "x",
// "x__y" is "x" and "y"); a name with no word at all ("_", "--") is kept
// as declared. Each word is then lower-cased, and upper-cased in its first
// letter where the style says so; letters are those of Unicode, other
// runes (digits, '.', '$', invalid UTF-8) are kept as they are.
//
//	declared    CamelCase   SnakeCase   KebabCase   PascalCase
//	user_id     userId      user_id     user-id     UserId
//	http_code   httpCode    http_code   http-code   HttpCode
//	userID      userId      user_id     user-id     UserId
//	HTTPServer  httpserver  httpserver  httpserver  Httpserver
//	a-b_c       aBC         a_b_c       a-b-c       ABC
//	v2_name     v2Name      v2_name     v2-name     V2Name
type KeyCaseStyle uint8

// The key case styles.
const (
	// AsDeclared writes each output key as declared (the default).
	AsDeclared KeyCaseStyle = iota
	// CamelCase joins the words, the first lower-case and each other
	// capitalized: "user_id" → "userId".
	CamelCase
	// SnakeCase joins the lower-cased words with '_': "userId" →
	// "user_id".
	SnakeCase
	// KebabCase joins the lower-cased words with '-': "userId" →
	// "user-id".
	KebabCase
	// PascalCase joins the words, each capitalized: "user_id" →
	// "UserId".
	PascalCase
)

// String returns the style's name, such as "CamelCase".
func (s KeyCaseStyle) String() string { return engine.KeyCase(s).String() }

// valid reports whether s is one of the styles above.
func (s KeyCaseStyle) valid() bool { return engine.KeyCase(s).Valid() }

type keyCaseOption KeyCaseStyle

func (o keyCaseOption) applyRegistry(c *registryConfig) { s := KeyCaseStyle(o); c.keyCase = &s }

// KeyCase is the RegistryOption (of NewRegistry and Configure) that makes
// a Registry write the output keys of every entity it compiles in style:
// the keys of value fields, of groups and of the fields inside them, and
// of references (which the same Registry compiles, so they follow the
// same style). An explicit rename always wins: its name is written as
// given. Server data is read by the declared names (Make of a database's
// user_id row), and a request in the wire form, under the keys a response
// writes (MakeRequest, Bind and Patch read userId). Two fields whose keys become the same are a declaration
// error. The style is applied when a declaration is compiled: a call pays
// nothing for it. A style that is not one of the constants makes every
// Expose of the Registry fail, and Configure refuse it.
func KeyCase(style KeyCaseStyle) RegistryOption { return keyCaseOption(style) }
