package rules

import (
	"errors"
	"fmt"
	"sort"
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
	Compile func(args []string, declared Kind) (Checker, error)
	// NoPanic promises that the rule's Checkers never panic, so that Make
	// may call them without the recover guard that otherwise turns a
	// panicking check into that field's error. The built-in rules set it.
	NoPanic bool
}

// Reserved names are the directives that the entity compiler interprets
// itself (`req`, `default`, `rename`, `none` and their aliases) and
// `secret`. A Def may not use them.
var Reserved = []string{"none", "no", "not", "req", "required", "default", "def", "rename", "rn", "secret"}

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
		s.MustRegister(d)
	}
	return s
}

// Register adds d to the set under its name and aliases. It fails if a name
// is empty, reserved or already taken, or if Compile is nil.
func (s *Set) Register(d Def) error {
	if d.Compile == nil {
		return fmt.Errorf("rules: rule %q has no Compile function", d.Name)
	}
	if d.MinArgs < 0 {
		return fmt.Errorf("rules: rule %q: MinArgs %d is negative", d.Name, d.MinArgs)
	}
	if d.MaxArgs >= 0 && d.MaxArgs < d.MinArgs {
		return fmt.Errorf("rules: rule %q: MaxArgs %d is less than MinArgs %d", d.Name, d.MaxArgs, d.MinArgs)
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
		if _, dup := s.byName[key]; dup {
			return fmt.Errorf("rules: rule %q is already registered", n)
		}
	}
	if s.byName == nil {
		s.byName = make(map[string]*Def)
	}
	def := d
	def.Aliases = append([]string(nil), d.Aliases...)
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

func isReserved(name string) bool {
	for _, r := range Reserved {
		if r == name {
			return true
		}
	}
	return false
}
