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
//	users := reg.MustExpose("users",
//		"offset", "number", "default 0",
//		"limit", "number", "default 0",
//		"list", "$user", "",
//	)
//	b, err := users.MakeJSON(map[string]any{"limit": 2, "list": rows})
//	// {"offset":0,"limit":2,"list":[{"number":12,"name":"maachang","details":{…},"code":"unknown"},…]}
//
// Registry.Expose returns the *Entity it compiled; Registry.Lookup and
// Registry.MustLookup find one by name (Lookup("users").MakeJSON(…)).
// At package level, Make, MakeJSON and Write take the name of an entity of
// the Default registry.
//
// A declaration is compiled once, by Expose, into a plan: keys pre-escaped,
// rules compiled, references resolved to registry slots. Make, MakeJSON,
// AppendJSON, MakeList, Write, EncodeSeq, MakeRequest, Bind and Patch run
// that plan with one walker that writes JSON; nothing is looked up by name
// per field, and AppendJSON into a buffer with room allocates nothing.
//
// # Declarations
//
// A declaration is a list of string triples, field, type, rules, or the
// same fields in an .entity file (LoadFS). The language, its types, rules,
// directives, groups, references, conversions and file form, is specified
// by package [github.com/expose-go/expose/dsl]; what each built-in rule
// checks, and how a program registers its own (Registry.RegisterRule), by
// package [github.com/expose-go/expose/rules]. A declaration error is a
// dsl.ErrorList naming the entity, the field and the position of every
// problem found. Extend declares an entity as another one plus fields of
// its own; Registry.Verify reports, once everything is exposed, what
// Expose cannot know because references may point forward.
//
// # Inputs
//
// Make and its siblings take:
//
//   - map[string]any, map[string]string, any map with string keys, read by
//     key;
//   - structs and pointers to structs, fields matched by json tag, else Go
//     name, embedded structs flattened as encoding/json does,
//     driver.Valuer types read through Value() (held by a map or an
//     interface too); the field plan is built once per type;
//   - raw JSON, []byte or json.RawMessage, validated once and read in one
//     pass per object without building a map; duplicate keys: the last
//     wins;
//   - an *Object (one the same entity made for a response is used as it
//     is; one it made otherwise, with shaping options or from a request,
//     is made again from its output keys at every level below it, a
//     formatted value read back in the format that wrote it; found at a
//     group's from path, it is an object like any there, read by the
//     group's declared names);
//   - lists of any of these (slices, arrays, JSON arrays) for MakeJSON,
//     AppendJSON, Write and MakeList; a nil slice is an empty list;
//   - nil, a nil map or a nil pointer: an empty input (at the top of a
//     call; as an element of a list, of MakeJSON's, under a $name or of
//     EncodeSeq, a nil pointer or interface is skipped, and in a []$name
//     it is null);
//   - *http.Request, through MakeRequest.
//
// A union's value ($card|$invoice by 'method') is an object whose key names
// its variant: a map or raw JSON holding the key, a struct with a field of
// the key, or a Go value that says its variant ([Variant]), as a struct's
// field of an interface type holds it.
//
// Server data is read by the declared names. A request (MakeRequest, Bind,
// Patch) is read in the wire form, the shape a response writes: keys after
// rename and the key case, groups as objects under their key. Each of its
// fields is read from one place: a field declared path, query, header or
// cookie (or named X-…, a header) from there, any other from the body when
// the request has one, else from the query string. The parameters are the
// top level's: below it, an entity's parameter fields are the server's,
// as readonly fields are. A request is read strictly (see Strict).
//
// # Outputs
//
// MakeJSON returns the JSON in a new slice (one allocation); AppendJSON
// appends it to a buffer; Write and WriteStatus send it with its status and
// Content-Type; EncodeSeq streams a sequence as a JSON array or NDJSON.
// Make returns an *Object: a read-only view of exactly those bytes, with
// Get, Keys, Len, Map, Decode and Bind to read values out of it and
// MarshalJSON to send it as it is. A response never writes a writeonly
// field: each entity compiles a response view without them and a request
// view without its readonly fields. An immutable field is in both: set
// once, by a request that creates; Patch refuses a change of the value it
// holds (code "immutable").
//
// # Options
//
// Every call takes options (Option) after its input: Strict makes it read
// as MakeRequest does (a present value must convert without loss, or it is
// a field error of code "type"), Lax reads leniently as responses do (what
// does not convert is null; MakeRequest's and Bind's opt-out), DenyUnknown
// refuses keys the declaration does not read (code "unknown"), and Lang
// chooses the language of the messages (MakeRequest and Bind otherwise
// follow Accept-Language). Select, Only, Except, With, WithContext and
// Version shape a call: one declaration serves every caller, per client
// selection, role flag and API version (see Select). A call given no
// option pays nothing for them.
//
// A Registry's settings are RegistryOptions given to NewRegistry or
// Configure: KeyCase (every output key in one style), SingleRefs (every
// $name one object in responses too), JSONTypes (a request's JSON body
// gives numbers, bools and dates as their JSON types only, and the
// request schemas say so), Limits, ProblemTypeBase, ServerErrors and
// PathValues.
//
// # Errors
//
// A failing input gives a *ValidationError listing every failing field as
// a *FieldError with its Path in the input ("list[1].mail"), the same place
// as an RFC 6901 Pointer ("/list/1/mail"), its OutputPath
// ("list[1].details.mail"), the Rule, a stable Code and the rule's Params
// for clients and translators ("min", {"min": 3}), and a Message that
// never quotes the value, rendered in the call's language from the
// registry's catalogs (English and Japanese built in; see
// Registry.SetMessages and Registry.DeclareCode). The error of a request
// is the client's (400); that of the server's data, the server's (500).
// An input that cannot be read at all (JSON that does not parse, a body
// too large, a method not allowed) is an *InputError with its HTTP status:
// a request's, 400, 405, 413 or 415; raw JSON a response is given that
// does not parse, the server's, 500.
//
// Write and WriteError answer errors as RFC 9457 problem details; see
// WriteError for the members of each. WriteRequestError answers a
// handler's own errors (a 404, a 409) in the language of the request, its
// title the status's and its detail the message of the InputError's Code
// (Registry.DeclareCode). Entity.Checked adds a handler's check to an
// entity's requests: it runs whether the declared rules passed or not,
// reads typed values with Value, and its field errors join the library's
// in one problem.
//
// # Schemas and tests
//
// Package [github.com/expose-go/expose/entity/schema] exports entities as
// JSON Schema 2020-12 and OpenAPI 3.1, built on the Field view
// (Entity.Fields for what a response writes, Entity.RequestFields for what
// a request reads), per audience. Package
// [github.com/expose-go/expose/entity/entitytest] checks payloads, handlers
// and structs against the same declarations in tests. Package
// [github.com/expose-go/expose/api] registers routes with their entities
// and serves their OpenAPI document.
//
// # Limits
//
// Every call's work is bounded by its input and by the registry's Limits,
// each with a documented default: the nesting depth (64; a field nested
// deeper fails and ends the walk, which is how cyclic Go data fails fast),
// the field errors collected (100), the output size (64 MiB, ErrTooLarge),
// the request body (1 MiB, 413) and a request's output per body byte (8,
// at least 1 MiB; 413).
//
// A Registry is safe for concurrent use; so are Entities and Objects,
// which are immutable.
package entity
