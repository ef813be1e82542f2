package entity

import "context"

// Option changes one call of Make, MakeJSON, AppendJSON, MakeList, Write,
// WriteStatus, MakeRequest or Bind: how strictly the input is read, which
// keys it may hold, the language of its messages, which fields it writes
// (Select, Only, Except, With, WithContext, Version: see Select). Options are small values: building one allocates nothing
// but for With, Only and Except, which hold the slice of their arguments
// (Go may allocate it: keep such an option in a variable, or take flags
// from the context with WithContext), and a call given none pays nothing
// for them.
type Option struct {
	kind optionKind
	str  string
	list []string
	ctx  context.Context // WithContext's: EncodeSeq stops when it is done
}

type optionKind uint8

const (
	optStrict optionKind = iota + 1
	optLax
	optDenyUnknown
	optLang
	optSelect
	optOnly
	optExcept
	optWith
	optWithContext
	optVersion
)

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
func Strict() Option { return Option{kind: optStrict} }

// Lax makes a call read its input with the response side's lenient
// conversions (a value that does not convert is null), which is the
// default of every call but MakeRequest and Bind: Lax turns a request back
// to msful's behaviour, for endpoints that need it.
func Lax() Option { return Option{kind: optLax} }

// DenyUnknown makes every key of an input object that the declaration does
// not know a field error of code "unknown" (what JSON Schema's
// additionalProperties: false says), for APIs that must refuse them: keys
// of maps, raw JSON and Objects, and of a request's JSON body, form and
// query. Struct fields are not keys: a struct has the fields its type
// says.
func DenyUnknown() Option { return Option{kind: optDenyUnknown} }

// Lang sets the language of a call's messages: a BCP 47 tag such as "ja"
// or "en-US", matched against the languages the registry has messages in
// (English and Japanese built in); an unknown or malformed tag gives
// English. MakeRequest and Bind choose from the request's
// Accept-Language header when no Lang is given.
func Lang(tag string) Option { return Option{kind: optLang, str: tag} }

// callConfig is what a call's options say, on the call's stack.
type callConfig struct {
	strict      bool // strict conversions (see Strict)
	laxSet      bool // Lax was given
	strictSet   bool // Strict was given
	denyUnknown bool
	lang        string // the tag given to Lang, or a request's Accept-Language, or ""
	request     bool   // MakeRequest's: a selection shapes the output only (see appendShaped)

	// shaped says that an option shapes the output (Select, Only,
	// Except, With, Version): run.shape reads them once the entity is
	// known.
	shaped bool
}

// config applies opts over the entry point's defaults: strict says whether
// the call reads strictly unless told otherwise (MakeRequest does).
func config(strict bool, opts []Option) callConfig {
	c := callConfig{strict: strict}
	for _, o := range opts {
		switch o.kind {
		case optStrict:
			c.strict, c.strictSet = true, true
		case optLax:
			c.strict, c.laxSet = false, true
		case optDenyUnknown:
			c.denyUnknown = true
		case optLang:
			c.lang = o.str
		case optSelect, optOnly, optExcept, optWith, optWithContext, optVersion:
			c.shaped = true
		}
	}
	return c
}
