package rules

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// compileNothing is a Compile function for definitions under test.
func compileNothing([]string, Kind) (Checker, error) {
	return CheckFunc(func(Value) error { return nil }), nil
}

func TestRegister(t *testing.T) {
	tests := []struct {
		name string
		def  Def
	}{
		{"name only", Def{Name: "even", Compile: compileNothing}},
		{"aliases", Def{Name: "even", Aliases: []string{"isEven", "EVEN2"}, Compile: compileNothing}},
		{"unbounded arguments", Def{Name: "oneof", MinArgs: 1, MaxArgs: -1, Compile: compileNothing}},
		{"non-ASCII name", Def{Name: "größe", Compile: compileNothing}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Builtin()
			if err := s.Register(tt.def); err != nil {
				t.Fatalf("Register: %v", err)
			}
			for _, n := range append([]string{tt.def.Name}, tt.def.Aliases...) {
				if d, ok := s.Lookup(n); !ok || d.Name != tt.def.Name {
					t.Errorf("Lookup(%q) = %v, %t; want the definition", n, d, ok)
				}
			}
		})
	}
}

func TestRegisterErrors(t *testing.T) {
	tests := []struct {
		name string
		def  Def
		want string
	}{
		{"nil Compile", Def{Name: "even"}, `rules: rule "even" has no Compile function (nor Transform)`},
		{"both Compile and Transform", Def{Name: "even", Compile: compileNothing, Transform: func([]string, Kind) (Transformer, error) { return nil, nil }}, `rules: rule "even" has both a Compile and a Transform function: a rule is a check or a transform`},
		{"MaxArgs below MinArgs", Def{Name: "pair", MinArgs: 2, MaxArgs: 1, Compile: compileNothing}, `rules: rule "pair": MaxArgs 1 is less than MinArgs 2`},
		{"empty name", Def{Compile: compileNothing}, "rules: a rule name is empty"},
		{"empty alias", Def{Name: "even", Aliases: []string{""}, Compile: compileNothing}, "rules: a rule name is empty"},
		{"space", Def{Name: "is even", Compile: compileNothing}, `rules: rule name "is even" holds a space, a quote or |`},
		{"tab", Def{Name: "is\teven", Compile: compileNothing}, `rules: rule name "is\teven" holds a space, a quote or |`},
		{"quote", Def{Name: "it's", Compile: compileNothing}, `rules: rule name "it's" holds a space, a quote or |`},
		{"double quote", Def{Name: `a"b`, Compile: compileNothing}, `rules: rule name "a\"b" holds a space, a quote or |`},
		{"pipe", Def{Name: "a|b", Compile: compileNothing}, `rules: rule name "a|b" holds a space, a quote or |`},
		{"reserved req", Def{Name: "req", Compile: compileNothing}, `rules: rule name "req" is reserved`},
		{"reserved in upper case", Def{Name: "REQUIRED", Compile: compileNothing}, `rules: rule name "REQUIRED" is reserved`},
		{"reserved none", Def{Name: "none", Compile: compileNothing}, `rules: rule name "none" is reserved`},
		{"reserved default", Def{Name: "def", Compile: compileNothing}, `rules: rule name "def" is reserved`},
		{"reserved secret", Def{Name: "Secret", Compile: compileNothing}, `rules: rule name "Secret" is reserved`},
		{"reserved msg", Def{Name: "msg", Compile: compileNothing}, `rules: rule name "msg" is reserved`},
		{"reserved alias", Def{Name: "newname", Aliases: []string{"rn"}, Compile: compileNothing}, `rules: rule name "rn" is reserved`},
		{"duplicate built-in", Def{Name: "MIN", Compile: compileNothing}, `rules: rule "MIN" is a built-in rule: register yours under another name`},
		{"duplicate new built-in", Def{Name: "in", Compile: compileNothing}, `rules: rule "in" is a built-in rule: register yours under another name`},
		{"duplicate built-in transform", Def{Name: "Trim", Compile: compileNothing}, `rules: rule "Trim" is a built-in rule: register yours under another name`},
		{"duplicate built-in alias", Def{Name: "between", Aliases: []string{"minmax"}, Compile: compileNothing}, `rules: rule "minmax" is a built-in rule: register yours under another name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Builtin()
			before := s.Names()
			err := s.Register(tt.def)
			if err == nil {
				t.Fatalf("Register succeeded, want error %q", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("Register error = %q, want %q", err, tt.want)
			}
			if after := s.Names(); !slices.Equal(after, before) {
				t.Errorf("failed Register changed the set: %q, was %q", after, before)
			}
		})
	}
}

func TestRegisterTwice(t *testing.T) {
	var s Set
	d := Def{Name: "even", Compile: compileNothing}
	if err := s.Register(d); err != nil {
		t.Fatal(err)
	}
	const want = `rules: rule "Even" is already registered`
	d.Name = "Even"
	if err := s.Register(d); err == nil || err.Error() != want {
		t.Errorf("second Register = %v, want %q", err, want)
	}
}

func TestRegisterCopiesAliases(t *testing.T) {
	aliases := []string{"iseven"}
	s := NewSet()
	s.MustRegister(Def{Name: "even", Aliases: aliases, Compile: compileNothing})
	aliases[0] = "changed"
	d, _ := s.Lookup("even")
	if !slices.Equal(d.Aliases, []string{"iseven"}) {
		t.Errorf("Aliases = %q, want [iseven]", d.Aliases)
	}
}

func TestMustRegisterPanics(t *testing.T) {
	defer func() {
		const want = `rules: rule name "req" is reserved`
		r := recover()
		if err, ok := r.(error); !ok || err.Error() != want {
			t.Errorf("recover() = %v, want error %q", r, want)
		}
	}()
	NewSet().MustRegister(Def{Name: "req", Compile: compileNothing})
}

func TestZeroSet(t *testing.T) {
	var s Set
	if _, ok := s.Lookup("min"); ok {
		t.Errorf("zero Set holds min")
	}
	if n := s.Names(); len(n) != 0 {
		t.Errorf("zero Set Names() = %q, want none", n)
	}
	if n := s.Clone().Names(); len(n) != 0 {
		t.Errorf("clone of zero Set Names() = %q, want none", n)
	}
	s.MustRegister(Def{Name: "even", Compile: compileNothing})
	if _, ok := s.Lookup("even"); !ok {
		t.Errorf("Lookup after Register failed")
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name   string
		lookup string
		want   string // canonical name, or "" when absent
	}{
		{"lower case", "email", "email"},
		{"upper case", "EMAIL", "email"},
		{"mixed case", "eMaIl", "email"},
		{"alias", "Boolean", "bool"},
		{"unknown", "emails", ""},
		{"empty", "", ""},
		{"reserved", "req", ""},
	}
	s := Builtin()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := s.Lookup(tt.lookup)
			switch {
			case tt.want == "" && ok:
				t.Errorf("Lookup(%q) = %q, want none", tt.lookup, d.Name)
			case tt.want != "" && !ok:
				t.Errorf("Lookup(%q) found nothing, want %q", tt.lookup, tt.want)
			case ok && d.Name != tt.want:
				t.Errorf("Lookup(%q) = %q, want %q", tt.lookup, d.Name, tt.want)
			}
		})
	}
}

func TestBuiltinIndependent(t *testing.T) {
	a, b := Builtin(), Builtin()
	a.MustRegister(Def{Name: "even", Compile: compileNothing})
	if _, ok := b.Lookup("even"); ok {
		t.Errorf("a rule registered in one Builtin set is seen in another")
	}
	if _, ok := Builtin().Lookup("even"); ok {
		t.Errorf("a rule registered in one Builtin set is seen in a new one")
	}
	// b may now take the name for a different rule.
	if err := b.Register(Def{Name: "even", MinArgs: 1, MaxArgs: 1, Compile: compileNothing}); err != nil {
		t.Errorf("Register in the other set: %v", err)
	}
}

func TestClone(t *testing.T) {
	orig := Builtin()
	clone := orig.Clone()
	if !slices.Equal(clone.Names(), orig.Names()) {
		t.Fatalf("clone Names() = %q, want %q", clone.Names(), orig.Names())
	}
	clone.MustRegister(Def{Name: "even", Compile: compileNothing})
	orig.MustRegister(Def{Name: "odd", Compile: compileNothing})
	if _, ok := orig.Lookup("even"); ok {
		t.Errorf("registering in the clone changed the original")
	}
	if _, ok := clone.Lookup("odd"); ok {
		t.Errorf("registering in the original changed the clone")
	}
	if _, ok := clone.Lookup("MINMAX"); !ok {
		t.Errorf("clone lost the alias minmax")
	}
}

func TestSetConcurrent(t *testing.T) {
	s := Builtin()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				name := "rule" + strconv.Itoa(i) + "_" + strconv.Itoa(j)
				if err := s.Register(Def{Name: name, Compile: compileNothing}); err != nil {
					t.Error(err)
					return
				}
				if _, ok := s.Lookup(name); !ok {
					t.Errorf("Lookup(%q) failed", name)
				}
				if _, ok := s.Lookup("MIN"); !ok {
					t.Errorf("Lookup(MIN) failed")
				}
				_ = s.Clone()
				_ = s.Names()
			}
		})
	}
	wg.Wait()
	if got, want := len(s.Names()), len(Builtin().Names())+8*50; got != want {
		t.Errorf("%d names, want %d", got, want)
	}
}

func TestLookupDirective(t *testing.T) {
	tests := []struct {
		name string
		want Directive
	}{
		{"none", DirectiveNone}, {"no", DirectiveNone}, {"NOT", DirectiveNone},
		{"req", DirectiveReq}, {"Required", DirectiveReq},
		{"default", DirectiveDefault}, {"def", DirectiveDefault},
		{"rename", DirectiveRename}, {"RN", DirectiveRename},
		{"secret", DirectiveSecret},
		{"msg", DirectiveMsg}, {"MSG", DirectiveMsg},
		{"lazy", DirectiveLazy}, {"If", DirectiveIf}, {"unless", DirectiveUnless}, {"since", DirectiveSince}, {"UNTIL", DirectiveUntil},
		{"immutable", DirectiveImmutable}, {"Immutable", DirectiveImmutable},
		{"min", NotDirective}, {"", NotDirective}, {"reqs", NotDirective}, {"renam", NotDirective},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LookupDirective(tt.name); got != tt.want {
				t.Errorf("LookupDirective(%q) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
	for d, want := range map[Directive]string{DirectiveNone: "none", DirectiveReq: "req", DirectiveDefault: "default",
		DirectiveRename: "rename", DirectiveSecret: "secret", DirectiveMsg: "msg", DirectiveLazy: "lazy", DirectiveIf: "if", DirectiveUnless: "unless",
		DirectiveSince: "since", DirectiveUntil: "until", DirectiveImmutable: "immutable", NotDirective: "directive(0)", 99: "directive(99)"} {
		if got := d.String(); got != want {
			t.Errorf("Directive(%d).String() = %q, want %q", d, got, want)
		}
	}
}

// TestReserved: Reserved holds every name of every directive, and
// Register refuses each.
func TestReserved(t *testing.T) {
	want := []string{"none", "no", "not", "req", "required", "default", "def", "rename", "rn", "secret", "msg",
		"lazy", "if", "unless", "since", "until",
		"omitnil", "omitempty", "readonly", "writeonly", "immutable", "from", "merge", "unexpose", "each", "format",
		"path", "query", "header", "cookie", "doc", "example",
		"required_if", "required_with", "required_without", "excluded_with", "by"}
	if !slices.Equal(Reserved, want) {
		t.Errorf("Reserved = %q, want %q", Reserved, want)
	}
	for _, name := range Reserved {
		if LookupDirective(name) == NotDirective {
			t.Errorf("%q is reserved but no directive", name)
		}
		if err := NewSet().Register(Def{Name: strings.ToUpper(name), Compile: compileNothing}); err == nil {
			t.Errorf("Register(%q) succeeded", name)
		}
	}
}
