// Package rules defines what the validation rules of an entity declaration
// mean: each rule is a Def, compiled once per use into a Checker that judges
// one Value at a time on the request path.
//
// Package rules knows nothing of the DSL's syntax (package dsl) or of how
// entities are built (package entity); the entity compiler looks each rule
// of a declaration up in a Set, checks its argument count and declared
// type against the Def, and calls Def.Compile.
//
// # Built-in rules
//
// Builtin returns a Set holding these rules. Names are case-insensitive.
//
//	min n             string: at least n runes; number: at least n; list: at least n elements
//	max n             likewise, at most n
//	range a b         between a and b, bounds included; alias minmax
//	url               an absolute http or https URL with a host; international names and paths as written (see below)
//	email             an address like name@example.com
//	date              a calendar date, YYYY-MM-DD or YYYY/M/D
//	time              a time of day, H:mm or HH:mm
//	regex 'pattern'   matches the RE2 pattern, unanchored (use ^ and $ to match whole strings)
//	num               a number or a numeric string; alias number
//	float             the same as num
//	bool              the input is a boolean, 1, 0, or "true", "false", "on", "off", "1", "0"; alias boolean
//	timestamp         the input is a time, Unix milliseconds or a date string; alias datetime
//	in a b …          one of the values, converted to the field's type: string, number, float, bool, date, none
//	len n             exactly n runes of a string, elements of a list or keys of an object
//	trim              transform: removes leading and trailing white space (string, none)
//	lower, upper      transforms: lower or upper case, rune by rune (string, none)
//
// min, max and range apply to fields declared string, number, float, list
// and none; the bounds may be negative or have decimals, and a string or
// list length must reach the bound rounded inward (`min 2.5` means 3).
// url, email, date, time and regex apply to string and none fields; on a
// none field, a value of another kind fails with "must be a string".
// url accepts what RFC 3986 writes as an http or https URL with a host,
// extended to the non-ASCII characters of an IRI (RFC 3987), so that
// https://例え.jp/パス and https://bücher.example/straße pass as people write
// them: a scheme in any case, an optional ASCII user-info, a host name of
// letters, digits, marks, "-", ".", "_" and "~" (at least one letter or
// digit) or an IPv6 address in brackets, a port up to 65535, and a path,
// query and fragment of RFC 3986's characters, escapes and any non-ASCII
// character but white space and controls. Refused: spaces and controls,
// any of "<>\^`{|}, a second "#", a "%" without two hexadecimal digits, an
// escape in the host, other schemes. Every URL it accepts, net/url's Parse
// reads with that scheme and host.
//
// num, float, bool and timestamp judge the value the field writes, like
// every built-in rule: on a string field, its text ("12", "true", a date);
// on a field of the type they check (num on number, bool on bool, timestamp
// on date) they are Implied: the conversion guarantees them and they are
// not run. The parsers they use are those of package entity's
// conversions, so that conversions read values exactly as the checks
// accept them.
//
// # Registering a rule
//
// A rule is registered in a Set the way the built-in rules are: a Def with
// its name, argument counts, types and a Compile function that parses the
// arguments once and returns a Checker. Build error messages in Compile, so
// that Check allocates nothing:
//
//	set := rules.Builtin()
//	set.MustRegister(rules.Def{
//		Name:  "even",
//		Types: rules.Kinds(rules.Int),
//		Compile: func(args []string, declared rules.Kind) (rules.Checker, error) {
//			errOdd := errors.New("must be even")
//			return rules.CheckFunc(func(v rules.Value) error {
//				if v.Int%2 != 0 {
//					return errOdd
//				}
//				return nil
//			}), nil
//		},
//	})
//
// # Transforms
//
// A Def with Transform set instead of Compile is a transform: it changes a
// field's value after its conversion, before the checks, and the field
// writes the changed value. Transformers append new text to the buffer
// they are given rather than allocating:
//
//	set.MustRegister(rules.Def{
//		Name:  "nodash",
//		Types: rules.Kinds(rules.String),
//		Transform: func(args []string, declared rules.Kind) (rules.Transformer, error) {
//			return nodash{}, nil // Transform(v, buf) drops the dashes of v.Str
//		},
//	})
//
// The built-in names (the rules above) are taken: registering a rule of
// one of them fails, as a name already registered does.
//
// A Set is safe for concurrent use. Builtin returns a new Set on each call,
// so rules registered in one are not seen by another.
//
// # JSON Schema
//
// Schema export (package entity/schema) reads the JSON Schema of each type
// from the type table (Kind.Schema for what a field writes,
// Kind.InputSchema for the forms strict input reads it from, and
// Kind.InputKeywords for what a rule's keywords say of each form) and each
// rule's keywords from its Def's Schema hook: min, max and range give
// minLength, minimum or minItems; len the sizes; in an enum; regex a
// pattern written again in the syntax RE2 and ECMA-262 read alike (or a
// "$comment" where there is none); url, email, date and time the pattern of
// exactly what they accept; num, bool and timestamp what they accept on the
// types where they are not Implied. On a none field each rule also states
// the JSON types it measures (a bool fails min). A "$comment" a hook gives
// is what its keywords cannot say, and export reports it as a warning.
package rules
