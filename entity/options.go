package entity

import (
	"context"
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
func Strict() Option { return Option{engine.Option{Kind: engine.OptStrict}} }

// Lax makes a call read its input with the response side's lenient
// conversions (a value that does not convert is null), which is the
// default of every call but MakeRequest and Bind: Lax turns a request back
// to msful's behaviour, for endpoints that need it.
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
