package rules

import (
	"slices"
	"testing"
)

// checkTest is one value given to a compiled rule and the message it must
// fail with, or "" if it must pass.
type checkTest struct {
	name string
	v    Value
	want string
}

// compileTest is one use of a rule whose compilation must fail.
type compileTest struct {
	name string
	rule string
	args []string
	want string
}

// mustCompile looks name up in a built-in set and compiles it with args.
func mustCompile(t testing.TB, name string, declared Kind, args ...string) Checker {
	t.Helper()
	d, ok := Builtin().Lookup(name)
	if !ok {
		t.Fatalf("Lookup(%q): not found", name)
	}
	c, err := d.Compile(args, declared)
	if err != nil {
		t.Fatalf("%s %q: Compile: %v", name, args, err)
	}
	return c
}

// runChecks checks every value of tests with c.
func runChecks(t *testing.T, c Checker, tests []checkTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.Check(tt.v)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Check(%+v) = %q, want nil", tt.v, err)
			case tt.want != "" && err == nil:
				t.Errorf("Check(%+v) = nil, want %q", tt.v, tt.want)
			case tt.want != "" && err.Error() != tt.want:
				t.Errorf("Check(%+v) = %q, want %q", tt.v, err, tt.want)
			}
		})
	}
}

// runCompileErrors compiles every use of tests and checks the error.
func runCompileErrors(t *testing.T, tests []compileTest) {
	t.Helper()
	set := Builtin()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := set.Lookup(tt.rule)
			if !ok {
				t.Fatalf("Lookup(%q): not found", tt.rule)
			}
			c, err := d.Compile(tt.args, String)
			if err == nil {
				t.Fatalf("Compile(%q) = %v, nil; want error %q", tt.args, c, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("Compile(%q) error = %q, want %q", tt.args, err, tt.want)
			}
		})
	}
}

func TestBuiltinDefs(t *testing.T) {
	tests := []struct {
		name             string
		lookup           string // as a user may write it
		canonical        string
		minArgs, maxArgs int
		types            KindSet
		stage            Stage
	}{
		{"min", "min", "min", 1, 1, Kinds(String, Int, Float, List, Any), Output},
		{"max upper case", "MAX", "max", 1, 1, Kinds(String, Int, Float, List, Any), Output},
		{"range", "range", "range", 2, 2, Kinds(String, Int, Float, List, Any), Output},
		{"minmax alias", "MinMax", "range", 2, 2, Kinds(String, Int, Float, List, Any), Output},
		{"url", "url", "url", 0, 0, Kinds(String, Any), Output},
		{"email", "Email", "email", 0, 0, Kinds(String, Any), Output},
		{"date", "date", "date", 0, 0, Kinds(String, Any), Output},
		{"time", "time", "time", 0, 0, Kinds(String, Any), Output},
		{"regex", "regex", "regex", 1, 1, Kinds(String, Any), Output},
		{"num", "num", "num", 0, 0, Kinds(String, Int, Float, Any), Output},
		{"number alias", "NUMBER", "num", 0, 0, Kinds(String, Int, Float, Any), Output},
		{"float", "float", "float", 0, 0, Kinds(String, Int, Float, Any), Output},
		{"bool", "bool", "bool", 0, 0, Kinds(String, Bool, Int, Any), Output},
		{"boolean alias", "boolean", "bool", 0, 0, Kinds(String, Bool, Int, Any), Output},
		{"timestamp", "timestamp", "timestamp", 0, 0, Kinds(String, Time, Int, Float, Any), Output},
		{"datetime alias", "DateTime", "timestamp", 0, 0, Kinds(String, Time, Int, Float, Any), Output},
	}
	set := Builtin()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := set.Lookup(tt.lookup)
			if !ok {
				t.Fatalf("Lookup(%q): not found", tt.lookup)
			}
			if d.Name != tt.canonical {
				t.Errorf("Name = %q, want %q", d.Name, tt.canonical)
			}
			if d.MinArgs != tt.minArgs || d.MaxArgs != tt.maxArgs {
				t.Errorf("args = %d..%d, want %d..%d", d.MinArgs, d.MaxArgs, tt.minArgs, tt.maxArgs)
			}
			if d.Types != tt.types {
				t.Errorf("Types = %b, want %b", d.Types, tt.types)
			}
			if d.Stage != tt.stage {
				t.Errorf("Stage = %d, want %d", d.Stage, tt.stage)
			}
			if d.Compile == nil {
				t.Errorf("Compile is nil")
			}
		})
	}
}

func TestBuiltinNames(t *testing.T) {
	want := []string{
		"bool", "boolean", "date", "datetime", "email", "float", "max", "min",
		"minmax", "num", "number", "range", "regex", "time", "timestamp", "url",
	}
	if got := Builtin().Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
}

// TestBuiltinRejectedTypes checks the declared types each family leaves
// out, which the entity compiler reports as declaration errors.
func TestBuiltinRejectedTypes(t *testing.T) {
	tests := []struct {
		name string
		rule string
		kind Kind
	}{
		{"min on bool", "min", Bool},
		{"max on date", "max", Time},
		{"range on object", "range", Object},
		{"url on number", "url", Int},
		{"email on list", "email", List},
		{"regex on float", "regex", Float},
		{"num on bool", "num", Bool},
		{"bool on float", "bool", Float},
		{"timestamp on list", "timestamp", List},
	}
	set := Builtin()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := set.Lookup(tt.rule)
			if d.Types.Has(tt.kind) {
				t.Errorf("%s applies to %s", tt.rule, tt.kind)
			}
		})
	}
}
