package entity

import (
	"context"
	"slices"
	"unsafe"

	"github.com/expose-go/expose/internal/engine"
)

// Option changes one call of Make, MakeJSON, AppendJSON, MakeList, Write,
// WriteStatus, MakeRequest or Bind: how strictly the input is read, which
// keys it may hold, the language of its messages, which fields it writes
// (Select, Only, Except, With, WithContext, Version: see Select). Options are small values: building one allocates nothing
// but for With, Only and Except, which hold the slice of their arguments
// (Go may allocate it: keep such an option in a variable, or take flags
// from the context with WithContext), and a call given none pays nothing
// for them.
type Option struct {
	o engine.Option // its kind and argument: the engine reads the options as they are
}

// Strict makes a call read its input as MakeRequest does: a value that is
// present must convert to its field's type without loss, or it is a field
// error of code "type" that says what was wanted and what kind arrived
// ("must be an integer, got a string"), never the value. Only an absent
// value or null reaches req and default. Lossless means:
//
//	number  an integral number (12, 12.0), or a string ParseInt reads with no
//	        fraction but zeros ("27", "007", "-3", "12.0"); never 12.5, "12.5",
//	        "1e3", "+27" or " 27"; a request's path, query, header or cookie
//	        value: decimal digits with an optional minus sign only (not "12.0")
//	float   a number or a numeric string
//	string  a string only (a JSON 123 or true is a type error; query, form and
//	        header values are text, and always strings)
//	bool    true/false, 1/0, and the conversion table's strings
//	date    what the conversion table accepts
//	list    an array (or a repeated query or form key, which is a list for
//	        any field: a type error for a field that is no list)
//	object  an object
//	$ref    an object, or a list of objects
//	none    anything
//
// In a registry of JSONTypes, a request's JSON body is stricter still: a
// number or float is a JSON number, a bool true or false, a date RFC 3339
// date-time text, nothing else (the parameters and a form's fields are
// text, read as above).
func Strict() Option { return Option{engine.Option{Kind: engine.OptStrict}} }

// Lax makes a call read its input with the response side's lenient
// conversions (a value that does not convert is null), which is the
// default of every call but MakeRequest and Bind: Lax turns a request back
// to msful's behaviour, for endpoints that need it. In a registry of
// JSONTypes it reads a request's JSON body by these conversions too ("10"
// for a number): Lax is the one per-call opt-out of both.
func Lax() Option { return Option{engine.Option{Kind: engine.OptLax}} }

// DenyUnknown makes every key of an input object that the declaration does
// not know a field error of code "unknown" (what JSON Schema's
// additionalProperties: false says), for APIs that must refuse them: keys
// of maps, raw JSON and Objects, and of a request's JSON body, form and
// query. Struct fields are not keys: a struct has the fields its type
// says.
func DenyUnknown() Option { return Option{engine.Option{Kind: engine.OptDenyUnknown}} }

// Lang sets the language of a call's messages: a BCP 47 tag such as "ja"
// or "en-US", matched against the languages the registry has messages in
// (English and Japanese built in); an unknown or malformed tag gives
// English. MakeRequest and Bind choose from the request's
// Accept-Language header when no Lang is given.
func Lang(tag string) Option { return Option{engine.Option{Kind: engine.OptLang, Str: tag}} }

// opts decodes a call's options into what the engine reads: the one
// place they are decoded. request says whether the call reads strictly
// unless told otherwise (MakeRequest, Bind and Patch do: what a client sent
// is read strictly).
func (e *Entity) opts(request bool, opts []Option) engine.Opts {
	return engine.Decode(request, engineOptions(opts))
}

// engineOptions views opts as the engine's options, which each Option
// holds and nothing else: the same memory, no copy.
func engineOptions(opts []Option) []engine.Option {
	return unsafe.Slice((*engine.Option)(unsafe.Pointer(unsafe.SliceData(opts))), len(opts))
}

// langOpt returns the tag given to Lang among opts, or "".
func langOpt(opts []Option) string {
	lang := ""
	for _, o := range opts {
		if o.o.Kind == engine.OptLang {
			lang = o.o.Str
		}
	}
	return lang
}

// contextOpt returns the context given to WithContext among opts, or nil.
func contextOpt(opts []Option) context.Context {
	var ctx context.Context
	for _, o := range opts {
		if o.o.Kind == engine.OptWithContext && o.o.Ctx != nil {
			ctx = o.o.Ctx
		}
	}
	return ctx
}

// This file holds per-call shaping: which of an entity's fields one call
// writes. A selection (Select, Only, Except) is compiled once per entity
// and spec into a mask, cached; flags (With, WithContext) and a version
// (Version) are read once per call into the run. The walker reads them in
// appendShaped; an entity without `lazy`, `if`, `unless`, `since`,
// `until`, `omitnil`, `omitempty`, `readonly`, `writeonly` or `merge`, in a
// call without a selection, never reaches it.

// Select makes a call write only the fields spec names, in the grammar of
// Google APIs' partial responses, for a `fields` query parameter passed
// straight in:
//
//	a,b        fields a and b
//	a/b        field b of a (a group, a $ref, or a list of $refs)
//	a(b,c)     fields b and c of a
//	*          every field of a level (but the lazy ones)
//
// Names are output names (after rename and the registry's key case). A
// group or $ref selected without a sub-selection is written whole (its
// lazy fields left out); a lazy field is written only when named. The
// empty spec selects nothing away: it is the call without Select.
//
// A spec that does not parse, or names a field the entity does not have,
// fails the call at once with an *InputError (400, wrapping
// ErrInvalidFields) whose message says what is wrong at its byte offset
// (Offset, HasOffset), quoting nothing of the spec. A field the call does
// not write whatever its selection (one its flags or version hide, a
// writeonly field of a response, a readonly one of a request) is one it
// does not have: a spec naming it fails as one naming an undeclared
// field, in the same words. Specs longer than 4096 bytes or nested more than
// 64 levels are refused the same way.
//
// On a response, fields that are not selected are neither read, converted,
// checked nor written: a selection saves work. On a request (MakeRequest,
// Bind) every declared field is still read and checked, so that a client
// can never skip `req`: the selection only shapes what is returned.
//
// Each spec is compiled once per entity, for the call's flags and
// version, and kept in a cache of at most 256 specs per entity (a client
// sending endless different specs costs a compile each, never memory
// without bound); a call with a spec already seen allocates nothing for
// it. On a response the spec is compiled into a plan of the fields it
// writes, walked as a call without options walks the entity's, so that a
// call that writes less costs less; so are the flags and version of a
// call without a spec, when they decide fields of the entity (`if`,
// `unless`, `since`, `until`, in its own objects). (A spec that selects
// inside a union's variants or a merged $name's fields is applied field
// by field instead.)
func Select(spec string) Option { return Option{engine.Option{Kind: engine.OptSelect, Str: spec}} }

// Only is Select for code: it writes only the fields at the dotted output
// paths given (list.details.mail; `\.` is a dot within a name; `*` as the
// last step selects every field of that level). A path the entity does not
// have is a programming error: the call fails with an error wrapping
// ErrUnknownField (500 in Write). The paths name what is declared: a field
// the call's flags or version hide, a writeonly field of a response and a
// readonly one of a request are valid paths that select nothing (Only of
// such a field alone writes {}). Only and Select may not be combined.
func Only(paths ...string) Option { return Option{engine.Option{Kind: engine.OptOnly, List: paths}} }

// Except leaves out the fields at the dotted output paths given, from
// what the call would write otherwise (everything, or what Select or Only
// selects). An unknown path is an error wrapping ErrUnknownField; a
// declared field the call does not write (Only says which) is a valid
// path, and leaving it out changes nothing: Except("password") of a
// writeonly password is a safe default.
func Except(paths ...string) Option {
	return Option{engine.Option{Kind: engine.OptExcept, List: paths}}
}

// With sets flags for one call: a field whose rules say `if 'admin'` is
// written only in calls that set admin (or another flag its `if` names),
// one with `unless 'guest'` is left out of calls that set guest. Flags
// apply to nested groups and referenced entities at any depth. Every flag
// must be declared first (Registry.DeclareFlags): a call naming one that
// is not fails with an error wrapping ErrUnknownFlag, so that a misspelled
// flag can never expose a field. Several With options add up.
func With(flags ...string) Option { return Option{engine.Option{Kind: engine.OptWith, List: flags}} }

// WithContext sets the flags stored in ctx by NewContext, as With does:
// middleware sets a request's roles once, handlers pass r.Context(). It
// also binds a stream to ctx: EncodeSeq stops when ctx is done. A call
// that reads a request (MakeRequest, Bind, Patch) needs no WithContext for
// the request's own context: it takes that context's flags, as it takes
// its Accept-Language.
//
// Unlike With, it ignores a flag the registry has not declared: one
// middleware may set flags for every registry of a server, and a flag no
// declaration names can show no field (Verify refuses undeclared flags in
// rules), so ignoring it fails closed.
func WithContext(ctx context.Context) Option {
	return Option{engine.Option{Kind: engine.OptWithContext, List: FlagsFromContext(ctx), Ctx: ctx}}
}

// flagsKey is the context key of NewContext's flags.
type flagsKey struct{}

// NewContext returns a copy of ctx holding flags, added to those ctx
// already holds, for WithContext.
func NewContext(ctx context.Context, flags ...string) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	all := slices.Concat(FlagsFromContext(ctx), flags)
	return context.WithValue(ctx, flagsKey{}, slices.Compact(sortedCopy(all)))
}

// FlagsFromContext returns the flags NewContext stored in ctx, sorted; nil
// when there are none. The slice is shared: do not modify it.
func FlagsFromContext(ctx context.Context) []string {
	if ctx == nil {
		return nil
	}
	f, _ := ctx.Value(flagsKey{}).([]string)
	return f
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// Version sets the API version of one call, for fields declared with
// `since 'v2'` (written to calls of v2 and later) and `until 'v3'` (to
// calls before v3). A version is a dotted list of at most 4 numbers with
// an optional leading v: v2, 2.1, v2.10 (numbers compare numerically, so
// v2.10 is after v2.9, and missing numbers are 0: v2 is v2.0). Versions
// usually come from the client, so a malformed one fails the call with an
// *InputError (400, wrapping ErrInvalidVersion), whose message does not
// quote it. A call without Version
// writes every field; where two fields share an output key by disjoint
// version ranges, it writes the one of the latest range. The empty string
// is no version.
func Version(v string) Option { return Option{engine.Option{Kind: engine.OptVersion, Str: v}} }
