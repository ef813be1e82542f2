package rules

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// A Checker judges one value. Check returns nil when the value passes and an
// error whose text completes the sentence "field X …" when it fails (for
// example "must be at least 3 characters"). Check is never given a Null
// value: absent values are the business of `req` and `default`.
//
// Check is called on the request path, concurrently: it must not modify the
// Checker, and should not allocate when the value passes. Build messages at
// compile time.
//
// The value is lent, not given: v.Str (and what v.Any holds) is valid only
// until Check returns, since it may view the input's bytes or a buffer
// reused for the next value. A Checker that keeps it must copy it with
// strings.Clone; the error it returns must not view it either. The
// built-in rules keep nothing of the values they judge.
type Checker interface {
	Check(v Value) error
}

// StringChecker is implemented by Checkers that can judge a string without
// a Value around it. CheckString(s) must give the same answer as
// Check(StringValue(s)). The entity package uses it on its fast path for
// string fields; the built-in string rules implement it. As for Check, s
// is valid only until CheckString returns: copy it with strings.Clone to
// keep it.
type StringChecker interface {
	CheckString(s string) error
}

// IntChecker is implemented by Checkers that can judge an integer without
// a Value around it. CheckInt(i) must give the same answer as
// Check(IntValue(i)). The entity package uses it on its fast path for
// number fields whose value is an integer; the built-in bounds rules (min,
// max, range) implement it.
type IntChecker interface {
	CheckInt(i int64) error
}

// CheckFunc adapts a function to the Checker interface.
type CheckFunc func(v Value) error

// Check calls f(v).
func (f CheckFunc) Check(v Value) error { return f(v) }

// Stage says which value a check is given.
type Stage uint8

const (
	// Output checks judge the value after the field's conversion (the default).
	Output Stage = iota
	// Input checks judge the value as the input held it, before conversion
	// (a string field's `bool` sees the input true, not "true"). Like every
	// check they run only when the field's value is there: an input that
	// does not convert is null, and checks skip null.
	Input
)

// Def defines a rule: its name, the arguments it takes, the declared types
// it applies to and how to compile one use of it. A Def is registered in a
// Set and compiled once per use at declaration time.
type Def struct {
	// Name is the rule's name in the DSL. Names are case-insensitive.
	Name string
	// Aliases are other names for the same rule.
	Aliases []string
	// MinArgs and MaxArgs bound the number of arguments; MaxArgs < 0 means
	// no upper bound.
	MinArgs, MaxArgs int
	// Types lists the declared types the rule may be used on. The zero set
	// means every type. Using a rule on another type is a declaration error.
	Types KindSet
	// Stage says whether the check sees the converted value (Output) or the
	// input value (Input).
	Stage Stage
	// Implied lists the declared types on which the rule can never fail,
	// because the field's conversion already guarantees what it checks
	// (`num` on a number field). The compiler accepts the rule there and
	// skips its check.
	Implied KindSet
	// Compile turns one use of the rule into a Checker. args holds the
	// arguments as written (quotes removed); declared is the field's type.
	// An error is reported as a declaration error at the rule's position.
	// A Def sets exactly one of Compile and Transform.
	Compile func(args []string, declared Kind) (Checker, error)
	// Transform, set instead of Compile, makes the rule a transform: what
	// it compiles changes the field's value after its conversion and before
	// its checks, and the field writes the changed value (`trim`, `lower`,
	// `upper`). Transforms run in the order written, before every check
	// whatever its place; a Transformer that is also a StringTransformer
	// keeps a string field on the entity package's fast path. Stage and
	// Implied do not apply to a transform.
	Transform func(args []string, declared Kind) (Transformer, error)
	// NoPanic promises that the rule's Checkers never panic, so that Make
	// may call them without the recover guard that otherwise turns a
	// panicking check into that field's error. The built-in rules set it.
	NoPanic bool

	builtin bool // registered by Builtin: a user's rule of its name is refused as such

	// The hooks below tell tools what a use of the rule means. They are
	// optional: a rule without them still checks, and each tool says what
	// it does without them. Each is given the arguments as written and the
	// field's declared type, like Compile, and only uses that compile.

	// Sample returns a candidate value that passes the rule, as a Go value
	// of the kind the field writes (string, int64, float64, bool,
	// time.Time, []any, map[string]any), or nil when it has none.
	// schema.Sample (package entity/schema) tries it.
	Sample func(args []string, declared Kind) any
	// Schema returns the JSON Schema (2020-12) keywords that the rule adds
	// to the field's schema ("minLength", "pattern", …), or nil when it adds
	// none: keywords that judge the value the field writes, which schema
	// export says of each form a request may send it in as far as
	// Kind.InputKeywords can. The values are JSON values: string, float64,
	// int64, bool, []any, map[string]any. On a none field, give the JSON
	// types the rule measures ("type"), so that a value of another kind
	// fails the schema as it fails the rule (and strict validators accept
	// the keywords). What the rule checks that no keyword says is given as
	// a "$comment" (a regex with no ECMA-262 form), which never quotes the
	// arguments (on a secret field they describe the secret): schema export
	// keeps it on the property and reports it as a warning, as it does a
	// rule without a Schema hook. Patterns are in the syntax RE2 and
	// ECMA-262 read alike.
	Schema func(args []string, declared Kind) map[string]any
	// Params names the rule's arguments in order, for error bodies that
	// give them as named parameters: ["min"] for `min`, ["min", "max"] for
	// `range`, ["pattern"] for `regex`. It holds at most MaxArgs names.
	// A rule that takes any number of arguments (MaxArgs < 0) reports the
	// arguments from its last name's place on as one param, a list of
	// them: ["values"] for `in`.
	// A failing use of the rule reports its arguments under these names
	// (entity.FieldError.Params: a number written without quotes as an
	// int64 or float64, anything else as its text), and its message may
	// hold them as placeholders ({min}); arguments past the names are not
	// reported.
	Params []string
}

// A Directive is a word of a rules string that the entity compiler
// interprets itself rather than looking it up in a Set: `req`, `default`,
// `rename`, `secret`, `msg`, the empty rule `none`, the per-call shaping
// words `lazy`, `if`, `unless`, `since` and `until`, `omitnil`,
// `omitempty`, `readonly`, `writeonly`, `immutable`, `from`, `merge`,
// `unexpose`, `each`, `format` and a union's `by`.
type Directive uint8

// The directives. NotDirective is what LookupDirective returns for a rule's
// name.
const (
	NotDirective             Directive = iota
	DirectiveNone                      // none, no, not: no rule at all
	DirectiveReq                       // req, required: the value must be there
	DirectiveDefault                   // default, def: the value when it is not
	DirectiveRename                    // rename, rn: the output key
	DirectiveSecret                    // secret: kept out of error messages
	DirectiveMsg                       // msg 'text': the field's own message for any of its failures
	DirectiveLazy                      // lazy: written only when a call's selection names it
	DirectiveIf                        // if 'flag'...: shown when a call sets any of the flags
	DirectiveUnless                    // unless 'flag'...: hidden when a call sets any of the flags
	DirectiveSince                     // since 'v2': shown to calls of that version and later
	DirectiveUntil                     // until 'v3': shown to calls before that version
	DirectiveOmitNil                   // omitnil: the key is left out when the value is null
	DirectiveOmitEmpty                 // omitempty: also when it is "", 0, false, [] or {}
	DirectiveReadOnly                  // readonly: written by responses, never read from requests
	DirectiveWriteOnly                 // writeonly: read from requests, never written by responses
	DirectiveImmutable                 // immutable: read from a request that creates; a patch may not change it once set
	DirectiveFrom                      // from 'a.b.0.c': the input path the value is read from
	DirectiveMerge                     // merge: a $ref's keys written into the parent object
	DirectiveUnexpose                  // unexpose: drops a base field in Extend
	DirectiveEach                      // each 'rules': rules for every element of a typed list
	DirectiveFormat                    // format name [args]: how the value is written
	DirectivePath                      // path ['name']: a request reads it from the URL path's parameter
	DirectiveQuery                     // query ['name']: a request reads it from the query string
	DirectiveHeader                    // header ['Name']: a request reads it from a header
	DirectiveCookie                    // cookie ['name']: a request reads it from a cookie
	DirectiveDoc                       // doc 'text': the field's description, for schemas and docs
	DirectiveExample                   // example 'value': an example value, judged by the field's rules
	DirectiveRequiredIf                // required_if 'other' 'value'...: required when a sibling has one of the values
	DirectiveRequiredWith              // required_with 'other'...: required when any of the siblings is present
	DirectiveRequiredWithout           // required_without 'other'...: required when none of them is: at least one
	DirectiveExcludedWith              // excluded_with 'other'...: absent when any of the siblings is present
	DirectiveBy                        // by 'key': the key whose value names a union's variant ($a|$b)
)

// directiveNames holds each directive's names, its own first: the one place
// they are spelled.
var directiveNames = [...][]string{
	DirectiveNone:    {"none", "no", "not"},
	DirectiveReq:     {"req", "required"},
	DirectiveDefault: {"default", "def"},
	DirectiveRename:  {"rename", "rn"},
	DirectiveSecret:  {"secret"},
	DirectiveMsg:     {"msg"},
	DirectiveLazy:    {"lazy"},
	DirectiveIf:      {"if"},
	DirectiveUnless:  {"unless"},
	DirectiveSince:   {"since"},
	DirectiveUntil:   {"until"},

	DirectiveOmitNil:   {"omitnil"},
	DirectiveOmitEmpty: {"omitempty"},
	DirectiveReadOnly:  {"readonly"},
	DirectiveWriteOnly: {"writeonly"},
	DirectiveImmutable: {"immutable"},
	DirectiveFrom:      {"from"},
	DirectiveMerge:     {"merge"},
	DirectiveUnexpose:  {"unexpose"},
	DirectiveEach:      {"each"},
	DirectiveFormat:    {"format"},
	DirectivePath:      {"path"},
	DirectiveQuery:     {"query"},
	DirectiveHeader:    {"header"},
	DirectiveCookie:    {"cookie"},
	DirectiveDoc:       {"doc"},
	DirectiveExample:   {"example"},

	DirectiveRequiredIf:      {"required_if"},
	DirectiveRequiredWith:    {"required_with"},
	DirectiveRequiredWithout: {"required_without"},
	DirectiveExcludedWith:    {"excluded_with"},

	DirectiveBy: {"by"},
}

// Cross reports whether the directive is a cross-field rule, judging the
// field with its siblings: required_if, required_with, required_without,
// excluded_with.
func (d Directive) Cross() bool { return d >= DirectiveRequiredIf && d <= DirectiveExcludedWith }

// Source reports whether the directive says where a request reads a
// field: path, query, header, cookie.
func (d Directive) Source() bool { return d >= DirectivePath && d <= DirectiveCookie }

// Shapes reports whether the directive decides per call whether a field
// is written: lazy, if, unless, since, until.
func (d Directive) Shapes() bool { return d >= DirectiveLazy && d <= DirectiveUntil }

// LookupDirective returns the directive named name (case-insensitive,
// aliases included), or NotDirective.
func LookupDirective(name string) Directive {
	for d := DirectiveNone; int(d) < len(directiveNames); d++ {
		for _, n := range directiveNames[d] {
			if strings.EqualFold(n, name) && len(n) == len(name) {
				return d
			}
		}
	}
	return NotDirective
}

// String returns the directive's own name ("req" for DirectiveReq).
func (d Directive) String() string {
	if d > NotDirective && int(d) < len(directiveNames) {
		return directiveNames[d][0]
	}
	return "directive(" + strconv.Itoa(int(d)) + ")"
}

// Reserved names are the names of the directives (`req`, `default`,
// `rename`, `none` and their aliases, `secret`, `msg`, `lazy`, `if`,
// `unless`, `since`, `until`, `omitnil`, `omitempty`, `readonly`,
// `writeonly`, `immutable`, `from`, `merge`, `unexpose`, `each`, `format`, `path`,
// `query`, `header`, `cookie`, `doc`, `example`, `required_if`,
// `required_with`, `required_without`, `excluded_with`, `by`), which the
// entity compiler interprets itself. A Def may not use them.
var Reserved = func() []string {
	var out []string
	for _, names := range directiveNames {
		out = append(out, names...)
	}
	return out
}()

// A Set is a named collection of rule definitions. The zero Set is empty and
// ready to use. A Set is safe for concurrent use.
type Set struct {
	mu     sync.RWMutex
	byName map[string]*Def
}

// NewSet returns an empty set.
func NewSet() *Set { return &Set{} }

// Builtin returns a new set holding the built-in rules. Each call returns a
// fresh set, so registering into one never affects another.
func Builtin() *Set {
	s := NewSet()
	for _, d := range builtins() {
		d.builtin = true
		s.MustRegister(d)
	}
	return s
}

// Register adds d to the set under its name and aliases. It fails if a name
// is empty, reserved or already taken (a built-in rule's name too: `in`,
// `len`, `trim`…, which each release may add to), or if not exactly one of
// Compile and Transform is set.
func (s *Set) Register(d Def) error {
	switch {
	case d.Compile == nil && d.Transform == nil:
		return fmt.Errorf("rules: rule %q has no Compile function (nor Transform)", d.Name)
	case d.Compile != nil && d.Transform != nil:
		return fmt.Errorf("rules: rule %q has both a Compile and a Transform function: a rule is a check or a transform", d.Name)
	}
	if d.MinArgs < 0 {
		return fmt.Errorf("rules: rule %q: MinArgs %d is negative", d.Name, d.MinArgs)
	}
	if d.MaxArgs >= 0 && d.MaxArgs < d.MinArgs {
		return fmt.Errorf("rules: rule %q: MaxArgs %d is less than MinArgs %d", d.Name, d.MaxArgs, d.MinArgs)
	}
	if d.MaxArgs >= 0 && len(d.Params) > d.MaxArgs {
		return fmt.Errorf("rules: rule %q: %d Params for at most %d arguments", d.Name, len(d.Params), d.MaxArgs)
	}
	names := append([]string{d.Name}, d.Aliases...)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range names {
		key := strings.ToLower(n)
		switch {
		case key == "":
			return errors.New("rules: a rule name is empty")
		case strings.ContainsAny(key, " \t\r\n|'\""):
			return fmt.Errorf("rules: rule name %q holds a space, a quote or |", n)
		case isReserved(key):
			return fmt.Errorf("rules: rule name %q is reserved", n)
		}
		if prev, dup := s.byName[key]; dup {
			if prev.builtin {
				return fmt.Errorf("rules: rule %q is a built-in rule: register yours under another name", n)
			}
			return fmt.Errorf("rules: rule %q is already registered", n)
		}
	}
	if s.byName == nil {
		s.byName = make(map[string]*Def)
	}
	def := d
	def.Aliases = append([]string(nil), d.Aliases...)
	def.Params = append([]string(nil), d.Params...)
	for _, n := range names {
		s.byName[strings.ToLower(n)] = &def
	}
	return nil
}

// MustRegister is like Register but panics on error. It is meant for init.
func (s *Set) MustRegister(d Def) {
	if err := s.Register(d); err != nil {
		panic(err)
	}
}

// Lookup returns (a copy of) the definition registered under name,
// ignoring case.
func (s *Set) Lookup(name string) (Def, bool) {
	key := strings.ToLower(name)
	s.mu.RLock()
	d, ok := s.byName[key]
	s.mu.RUnlock()
	if !ok {
		return Def{}, false
	}
	c := *d
	c.Aliases = append([]string(nil), d.Aliases...)
	c.Params = append([]string(nil), d.Params...)
	return c, true
}

// Clone returns a new set holding the same definitions.
func (s *Set) Clone() *Set {
	c := NewSet()
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.byName) > 0 {
		c.byName = make(map[string]*Def, len(s.byName))
		for k, v := range s.byName {
			c.byName[k] = v
		}
	}
	return c
}

// Names returns every registered name and alias, sorted.
func (s *Set) Names() []string {
	s.mu.RLock()
	names := make([]string, 0, len(s.byName))
	for k := range s.byName {
		names = append(names, k)
	}
	s.mu.RUnlock()
	sort.Strings(names)
	return names
}

func isReserved(name string) bool { return LookupDirective(name) != NotDirective }
