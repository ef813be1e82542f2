package entitytest

import (
	"errors"
	"slices"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// An Option changes what a checker checks or what Sample builds. Each
// checker reads the options that concern it (its doc says which) and
// ignores the others, but for Request, which Conform and CheckResponse
// refuse: they check what a response writes.
//
// The options are:
//
//   - Call: the entity options of the call that made the payload, or that
//     the struct or sample serves (flags, version);
//   - Partial: declared keys may be absent, as a selection writes them;
//   - IgnoreOrder: declared keys may come in any order;
//   - Request: the request direction, for CheckStruct and Sample.
type Option interface {
	apply(*config)
}

// config is what a checker's options ask.
type config struct {
	// call holds the entity options the payload was made with (Call):
	// they pick the view of the entity the payload is checked against.
	call []entity.Option
	// input: the request direction (Request).
	input bool
	// partial: any declared key may be absent (Partial).
	partial bool
	// ignoreOrder: declared keys in any order (IgnoreOrder).
	ignoreOrder bool

	// errorFormat: the payload is checked against the kit's own entities
	// for entity.Write's error JSON. A value is shown only at a declared
	// value field and of its declared type, where the library writes only
	// its own words; any other is named by its JSON type, since it may be
	// anything the handler wrote, secrets included.
	errorFormat bool
	// secretBody: the payload may be that of an entity with secret fields
	// (an error body checked for such an entity).
	secretBody bool
	// optional: keys that may be absent (the extension members of problem
	// details, which apply to some problems only).
	optional map[string]bool
}

// configOf applies options; a nil Option is skipped.
func configOf(opts []Option) config {
	var cfg config
	for _, o := range opts {
		if o != nil {
			o.apply(&cfg)
		}
	}
	return cfg
}

// optionFunc is an Option that sets fields of the config.
type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// Call gives a checker the options of the entity call that made the payload
// (or that a struct or a sample serves): the flags of entity.With and
// entity.WithContext, the version of entity.Version. The checker then
// checks against what such a call writes ([entity.Entity.Fields]), or with
// Request what such a request reads ([entity.Entity.RequestFields]): a field
// the call's flags or version hide is not declared to it, and of fields
// that share a key by version range only the call's is.
//
//	entitytest.Conform(t, e, payload, entitytest.Call(entity.With("admin"), entity.Version("v1")))
//
// A flag the registry has not declared, or a version that is not one,
// fails the check (Sample, which reports nothing, ignores them), as it
// fails the call. Without Call a checker checks what a call without
// options writes. The
// other entity options (Strict, Lang, DenyUnknown…) do not change what a
// call writes, and a selection (entity.Select, Only, Except) is not read
// either: give Partial for a payload made with one. Several Calls add up.
func Call(opts ...entity.Option) Option {
	opts = slices.Clone(opts)
	return optionFunc(func(c *config) { c.call = append(c.call, opts...) })
}

// Partial makes Conform and CheckResponse accept a payload in which
// declared keys are absent, as a call with a selection (entity.Select,
// Only, Except) writes it: everything present is still checked, in order.
// Without it only the fields a call may leave out whatever it selects
// (lazy, omitnil, omitempty: entity.Field.Optional) may be absent.
func Partial() Option { return optionFunc(func(c *config) { c.partial = true }) }

// IgnoreOrder makes Conform and CheckResponse accept an object's declared
// keys in any order. By default they must come in declaration order, as
// the entity writes them.
func IgnoreOrder() Option { return optionFunc(func(c *config) { c.ignoreOrder = true }) }

// Request selects the request direction, what a request reads
// ([entity.Entity.RequestFields], [schema.Request]) rather than what a
// response writes: Sample then builds a request body, and CheckStruct
// checks a struct that Bind fills. Conform and CheckResponse check
// responses only, and report it as a mistake.
func Request() Option { return optionFunc(func(c *config) { c.input = true }) }

// Sample returns an example payload of the entity, [schema.Sample]'s:
// what a response call with the options given by Call writes (without
// Call, a call without flags or version), or with Request a request body
// such a request reads, in the wire form a client sends (schema.Sample's
// Request). schema.Sample documents how the values are chosen; the payload
// conforms (Conform) unless a field's rules have no value in common.
// Sample takes Call and Request and ignores the other options.
//
//	entitytest.Sample(user)                   // schema.Sample(user, schema.Response)
//	entitytest.Sample(user, entitytest.Request()) // schema.Sample(user, schema.Request)
func Sample(e *entity.Entity, opts ...Option) []byte {
	cfg := configOf(opts)
	mode := schema.Response
	if cfg.input {
		mode = schema.Request
	}
	return schema.Sample(e, mode, cfg.call...)
}

// callError returns why e refuses the options of Call, as a call given
// them would: an undeclared flag, a version that is not one; "" when it
// takes them (or there are none).
func callError(e *entity.Entity, call []entity.Option) string {
	if len(call) == 0 || e == nil {
		return ""
	}
	_, err := e.MakeJSON(map[string]any{}, call...)
	for _, bad := range []error{entity.ErrUnknownFlag, entity.ErrInvalidVersion, entity.ErrInvalidFields, entity.ErrUnknownField} {
		if errors.Is(err, bad) {
			return "entitytest: Call: " + err.Error()
		}
	}
	return ""
}
