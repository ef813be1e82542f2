// Package entity turns whatever data a Go API has (maps, structs, raw JSON,
// HTTP requests) into exactly the JSON an entity declaration describes:
// converted, renamed, defaulted, validated and nested, with every failing
// field reported by path.
//
//	reg := entity.NewRegistry()
//	reg.MustExpose("user",
//		"id", "number", "num | rename 'number'",
//		"name", "string", "req",
//		"details", "{", "",
//		"age", "number", "num",
//		"mail", "string", "email",
//		"details", "}", "",
//		"code", "string", "default 'unknown'",
//	)
//	reg.MustExpose("users",
//		"offset", "number", "default 0",
//		"limit", "number", "default 0",
//		"list", "$user", "",
//	)
//	b, err := reg.MakeJSON("users", map[string]any{"limit": 2, "list": rows})
//	// {"offset":0,"limit":2,"list":[{"number":12,"name":"maachang","details":{…},"code":"unknown"},…]}
//
// A declaration is compiled once, by Expose, into a plan: keys pre-escaped,
// rules compiled, references resolved to registry slots. Make, MakeJSON,
// AppendJSON, MakeList, Write and MakeRequest run that plan with one walker
// that writes JSON; nothing is looked up by name per field, and AppendJSON
// into a buffer with room allocates nothing.
//
// # Declarations
//
// A declaration is a list of string triples, field, type, rules (syntax:
// package dsl). Output keys come in declaration order; input keys that are
// not declared are dropped; a declared field that is absent or null is
// written as null unless `default` fills it or `req` rejects it; a value
// that does not convert to the declared type is null.
//
// Types (case-insensitive, with aliases):
//
//	none    no                         passes through, written with encoding/json's rules
//	string  text                       a JSON string
//	number  num, int, integer, long    an int64 (floats and numeric strings truncated toward zero)
//	float   double                     a float64, spelled as encoding/json spells it
//	bool    boolean, flag              true or false (1/0, "true"/"false"/"on"/"off" convert)
//	date    datetime, timestamp        an RFC 3339 string in UTC
//	list    array                      a JSON array
//	object  map, json                  a JSON object
//	{ … }                              a group: an output object read from the same input level
//	$name                              a reference: the field made with entity name
//
// A group opens with "name", "{", "" and closes with "name", "}", "": its
// fields are read from the same input object, so flat rows become nested
// JSON. A reference makes an object input with the entity named, and a list
// input element by element (elements that are not objects are skipped);
// references may point forward and be recursive (Registry.Check reports
// the ones that name nothing).
//
// Rules are separated by "|", their arguments by white space; an argument
// holding white space or "|" is quoted with ' or ". Directives are
// interpreted by the compiler:
//
//	req, required       rejects a null value (after default)
//	default [value]     fills a null value before any check; bare: the type's zero,
//	                    or on a $ref the entity made from an empty input
//	rename name         changes the output key
//	secret              the value never appears in an error, nor in the test kit's output
//	msg 'text'          the field's own message for any of its failures ({field}, {min}…;
//	                    on a group or $ref, for its own failures: req, type, depth)
//	none, no, not       no rule
//	omitnil             the key is left out when the value is null (after default)
//	omitempty           also when it is "", 0, false, [] or {}
//	readonly            written by responses, never read from requests
//	writeonly           read from requests, never written by responses (passwords)
//	from 'a.b.0.c'      read the value at a path of the input (a group: its fields'
//	                    level; a $ref: its object), from every input kind
//	merge               on a $ref: its keys written into the object around it
//	each 'rules'        on a typed list ([]string…): rules for every element
//	format name [args]  how the value is written (rfc1123, unix, unixms, date, a Go
//	                    layout, fixed n; Registry.RegisterFormat adds names)
//	lazy, if, unless,   per-call shaping: see Per-call shaping below
//	since, until
//
// Extend declares an entity as another one (its base) plus fields of its
// own, minus those "name", "", "unexpose" drops; exposing the base again
// compiles its extensions again, and Check reports one that no longer
// fits. LoadFS loads declarations from .entity files (package dsl's file
// form) all or nothing.
//
// Checks are rules.Def values registered in the registry's rules.Set (see
// package rules for the built-ins: min, max, range, regex, url, email, date,
// time, num, float, bool, timestamp); a custom rule is registered the same
// way, with Registry.RegisterRule. Every check judges the value the field
// writes and skips null, so that success means every rule holds on the
// output. A rule that cannot apply to the declared type, a default that
// fails the field's own rules, an unknown rule or type, bounds no value
// meets (range 5 1, min 5 | max 3) are declaration errors, reported all
// at once as a dsl.ErrorList naming the entity, the field and the position.
//
// The same declarations can be written in .entity files (the format is
// package dsl's: dsl.ParseFile) and loaded with LoadFS, typically from an
// embed.FS; a file's errors, the compiler's included, name the file, line
// and column:
//
//	//go:embed schemas/*.entity
//	var schemas embed.FS
//	…
//	err := entity.LoadFS(schemas, "schemas/*.entity")
//
// # Inputs
//
// Make and its siblings take:
//
//   - map[string]any, map[string]string, any map with string keys, read by key;
//   - structs and pointers to structs, fields matched by json tag, else Go
//     name, embedded structs flattened as encoding/json does, driver.Valuer
//     types read through Value(); the field plan is built once per type;
//   - raw JSON, []byte or json.RawMessage, validated once and read in one
//     pass per object without building a map; duplicate keys: the last wins;
//   - an *Object (one the same entity made is used as it is);
//   - lists of any of these (slices, arrays, JSON arrays) for MakeJSON,
//     AppendJSON, Write and MakeList; a nil slice is an empty list;
//   - nil, a nil map or a nil pointer: an empty input;
//   - *http.Request, through MakeRequest: the query string, form values, a
//     JSON body and, for fields named X-…, the headers.
//
// # Outputs
//
// MakeJSON returns the JSON in a new slice (one allocation); AppendJSON
// appends it to a buffer; Write and WriteStatus send it with its status and
// Content-Type. Make returns an *Object: a read-only view of exactly those
// bytes, with Get, Keys, Len, Map and Decode to read values out of it and
// MarshalJSON to send it as it is.
//
// # Key case
//
// A Registry can write every output key in one style, so that declarations
// keep the input's names (a database's user_id) while clients read their
// own convention (userId): NewRegistry(KeyCase(CamelCase)), or
// Default.SetKeyCase(CamelCase) before anything is exposed in the Default
// registry. The styles are CamelCase, SnakeCase, KebabCase and PascalCase
// (AsDeclared, the default, changes nothing). Names are split into words at
// '_', '-' and before an upper-case letter that follows a lower-case letter
// or a digit, with no acronym guessing: user_id and userID are userId,
// HTTPServer is httpserver. The style applies to groups and the fields
// inside them, and to referenced entities (the same registry compiles
// them); an explicit rename is written as given; input names are unchanged
// (Make, MakeRequest and Bind read the declared names, and FieldError.Path
// names them, OutputPath the cased keys). Two fields whose keys become the
// same are a declaration error. The style is applied when a declaration is
// compiled: calls pay nothing for it.
//
// # Options
//
// Every call takes options (Option) after its input: Strict makes it read
// as MakeRequest does (a present value must convert without loss, or it is
// a field error of code "type"), Lax reads leniently as responses do (what
// does not convert is null; MakeRequest's and Bind's opt-out), DenyUnknown
// refuses keys the declaration does not read (code "unknown"), and Lang
// chooses the language of the messages (MakeRequest and Bind otherwise
// follow Accept-Language). A call given no option pays nothing for them.
//
// # Per-call shaping
//
// One declaration serves every caller. Select takes a client's `fields`
// parameter in Google's partial-response grammar (a,b  a/b  a(b,c)  *),
// Only and Except dotted paths for code; a field the selection leaves out
// is neither read nor written on a response, while a request (MakeRequest,
// Bind) still reads and checks every field. Rules `lazy` (written only when
// a selection names it), `if 'flag'…` and `unless 'flag'…` (flags declared
// with DeclareFlags, set per call with With or WithContext and NewContext)
// and `since 'v2'` / `until 'v3'` (against Version) decide per call whether a
// field, group or reference is written; fields of disjoint version ranges
// may share a key. Specs are compiled once per entity into masks kept in a
// bounded cache; a bad spec or version is an *InputError (400,
// ErrInvalidFields, ErrInvalidVersion), an unknown Only/Except path or
// flag an error wrapping ErrUnknownField or ErrUnknownFlag.
//
// # Errors
//
// A failing input gives a *ValidationError listing every failing field as a
// *FieldError with its Path in the input ("list[1].mail"), the same place
// as an RFC 6901 Pointer ("/list/1/mail"), its OutputPath
// ("list[1].details.mail"), the Rule, a stable Code and the rule's Params
// for clients and translators ("min", {"min": 3}), and a Message that
// never quotes the value.
//
// Codes: "required" for req, a rule's own name for the rule and its
// aliases ("range" for minmax), a custom rule's name, "type" (a value that
// does not convert without loss), "unknown" (a key DenyUnknown refuses),
// "depth", "json" (a value JSON cannot hold), "value" (a driver.Valuer
// that failed), "default" (bare defaults that form a cycle) and "limit"
// (the summary past SetMaxErrors). Params are a rule's arguments by the
// names its rules.Def.Params gives them, a number as an int64 or float64.
//
// Messages are rendered when the error is built, in the call's language:
// Lang("ja") on any call, or, for MakeRequest without Lang, the request's
// Accept-Language matched against the registry's languages (English when
// none matches). A field's own `msg 'text'` comes first, with {field} and
// the params as placeholders; then the language's catalog, keyed by code
// ("min"), by code and the kind of the failing value ("min.string",
// "min.number", "min.list", "range.string.exact"), with phrases for param
// values ("type.got=string"); then English's; then the rule's own error
// text. English and Japanese are built in; Registry.SetMessages overrides
// single messages or adds a language; Registry.DeclareCode declares the
// codes of a handler's own checks (NewFieldError, Entity.Fail). Under a
// secret field the messages that may describe the value (in, regex, a
// custom rule's) are "is not valid", in the call's language; the built-in
// ones that quote no value stay.
//
// An input that cannot be read at all (JSON that does not parse, a
// body too large, a method not allowed) is an *InputError with its HTTP
// status. Sentinels for errors.Is: ErrValidation, ErrUnknownEntity,
// ErrUnsupportedInput, ErrDepth, ErrTooLarge, ErrInvalidJSON, ErrMethod,
// ErrBodyTooLarge, ErrUnsupportedMediaType.
//
// Write and WriteError answer errors as RFC 9457 problem details
// (Content-Type application/problem+json) with "type", "title", "status"
// and "detail", in the call's language: 400 for the field errors of a
// request, with "errors", one
// {"pointer","path","outputPath","code","params","message"} per field
// (and "omitted", the count past Registry.SetMaxErrors); an InputError's
// own status and message, with "offset" for JSON that stops parsing at a
// known byte, "accept" for a 415, and an Allow header for a 405; and 500,
// "about:blank", with nothing of the error but an "instance" id, for the
// field errors of the server's data (Make, Write of a map or a struct…)
// and anything else. No detail quotes the client's input. The types are
// the registry's problem type base ("/problems/" unless
// Registry.SetProblemTypeBase says otherwise) followed by "validation",
// "invalid-json", "invalid-fields", "invalid-version" or
// "unsupported-media-type"; any other problem is "about:blank", titled
// with its status phrase. See WriteError.
//
// # Schemas
//
// Package [github.com/expose-go/expose/entity/schema] exports entities as
// JSON Schema 2020-12 and OpenAPI 3.1, built on the Field view
// (Entity.Fields for what a response writes, Entity.RequestFields for what
// a request reads), per audience: given a call's With and Version, it
// describes what such a call sees.
//
// # Limits
//
// Every call's work is bounded by its input and by the registry's limits,
// each with a setter and a documented default: the nesting depth
// (SetMaxDepth, 64; a field nested deeper fails and ends the walk, which is
// how cyclic Go data fails fast), the field errors collected (SetMaxErrors,
// 100), the output size (SetMaxOutputBytes, 64 MiB, ErrTooLarge), the
// request body (SetMaxBodyBytes, 1 MiB, 413) and a request's output per
// body byte (SetRequestOutputRatio, 8, at least 1 MiB; 413).
//
// A Registry is safe for concurrent use; so are Entities and Objects,
// which are immutable. Package entitytest checks payloads against the same
// declarations in unit tests.
package entity
