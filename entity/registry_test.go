package entity_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// TestConcurrentRegistry exposes, looks up, checks and makes distinct
// entities at once in one registry.
func TestConcurrentRegistry(t *testing.T) {
	reg := entity.NewRegistry()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := "e" + strings.Repeat("x", w)
			for i := range 100 {
				if _, err := reg.Expose(name, "v", "number", "default 1", "r", "$"+name, ""); err != nil {
					t.Error(err)
					return
				}
				out, err := reg.MakeJSON(name, map[string]any{"r": map[string]any{"v": i}})
				if err != nil {
					t.Error(err)
					return
				}
				if want := `{"v":1,"r":{"v":` + strconv.Itoa(i) + `,"r":null}}`; string(out) != want {
					t.Errorf("got %s, want %s", out, want)
					return
				}
				_ = reg.Lookup(name)
				_ = reg.Check()
			}
		}()
	}
	wg.Wait()
}

// TestPackageLevel uses the functions on entity.Default. Entity names are
// unique to this test: the Default registry is shared.
func TestPackageLevel(t *testing.T) {
	const (
		user    = "apitest.pkg.user"
		users   = "apitest.pkg.users"
		missing = "apitest.pkg.missing"
	)
	if entity.Lookup(user) != nil {
		t.Fatalf("%s already declared", user)
	}
	e, err := entity.Expose(user,
		"id", "number", "num | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown'",
	)
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != user || entity.Lookup(user) != e || entity.Default.Lookup(user) != e {
		t.Errorf("Lookup(%q) = %v, want the exposed entity", user, entity.Lookup(user))
	}
	entity.MustExpose(users,
		"offset", "number", "default 0",
		"limit", "number", "default 0",
		"list", "$"+user, "",
		"more", "$"+missing, "",
	)
	if err := entity.Check(); err == nil || !strings.Contains(err.Error(), missing) && !checkLists(err, missing) {
		t.Errorf("Check() = %v, want it to name $%s", err, missing)
	}
	entity.MustExpose(missing, "x", "number", "")
	if err := entity.Check(); err != nil && checkLists(err, missing) {
		t.Errorf("Check() after declaring %s = %v", missing, err)
	}

	out, err := entity.MakeJSON(users, seedUsers())
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSuffix(seedJSON, "}") + `,"more":null}`
	if string(out) != want {
		t.Errorf("MakeJSON:\n got %s\nwant %s", out, want)
	}
	obj, err := entity.Make(users, seedUsers())
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := obj.MarshalJSON(); string(b) != want {
		t.Errorf("Make + MarshalJSON: got %s", b)
	}
	dst, err := entity.AppendJSON([]byte("x="), users, seedUsers())
	if err != nil || string(dst) != "x="+want {
		t.Errorf("AppendJSON = %s, %v", dst, err)
	}
	if _, err := entity.Expose(users, "bad", "type", ""); err == nil {
		t.Errorf("package-level Expose accepted a bad declaration")
	}
	func() {
		defer func() {
			if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), `unknown type "type"`) {
				t.Errorf("MustExpose panic = %v", p)
			}
		}()
		entity.MustExpose(users, "bad", "type", "")
	}()
}

// checkLists reports whether err, a dsl.ErrorList or not, names ref.
func checkLists(err error, ref string) bool {
	var all []error
	if u, ok := err.(interface{ Unwrap() []error }); ok {
		all = u.Unwrap()
	} else {
		all = []error{err}
	}
	for _, e := range all {
		if strings.Contains(e.Error(), "$"+ref+" ") {
			return true
		}
	}
	return false
}

func TestUnknownEntity(t *testing.T) {
	reg := entity.NewRegistry()
	if reg.Lookup("nope") != nil {
		t.Errorf("Lookup of an unknown name is not nil")
	}
	if entity.Lookup("apitest.never.declared") != nil {
		t.Errorf("package Lookup of an unknown name is not nil")
	}
	if _, err := reg.Make("nope", map[string]any{}); !errors.Is(err, entity.ErrUnknownEntity) {
		t.Errorf("Make: %v, want ErrUnknownEntity", err)
	}
	if b, err := reg.MakeJSON("nope", map[string]any{}); b != nil || !errors.Is(err, entity.ErrUnknownEntity) {
		t.Errorf("MakeJSON: %q, %v, want nil, ErrUnknownEntity", b, err)
	}
	if b, err := reg.AppendJSON([]byte("keep"), "nope", map[string]any{}); string(b) != "keep" || !errors.Is(err, entity.ErrUnknownEntity) {
		t.Errorf("AppendJSON: %q, %v, want dst unchanged, ErrUnknownEntity", b, err)
	}
	if _, err := entity.Make("apitest.never.declared", nil); !errors.Is(err, entity.ErrUnknownEntity) {
		t.Errorf("entity.Make: %v", err)
	}
	if _, err := entity.MakeJSON("apitest.never.declared", nil); !errors.Is(err, entity.ErrUnknownEntity) {
		t.Errorf("entity.MakeJSON: %v", err)
	}
	if _, err := reg.MakeJSON("nope", nil); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("error %v does not name the entity", err)
	}
}

// divisibleDef is a custom rule with an argument: `divisible n`.
func divisibleDef() rules.Def {
	return rules.Def{
		Name:    "divisible",
		Aliases: []string{"div"},
		MinArgs: 1, MaxArgs: 1,
		Types: rules.Kinds(rules.Int, rules.Any),
		Compile: func(args []string, _ rules.Kind) (rules.Checker, error) {
			n, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || n == 0 {
				return nil, fmt.Errorf("divisible: %q is not a non-zero integer", args[0])
			}
			msg := errors.New("must be divisible by " + args[0])
			return rules.CheckFunc(func(v rules.Value) error {
				if v.Kind != rules.Int || v.Int%n != 0 {
					return msg
				}
				return nil
			}), nil
		},
	}
}

func TestCustomRules(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.RegisterRule(divisibleDef()); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterRule(divisibleDef()); err == nil {
		t.Errorf("registering a rule twice succeeded")
	}
	for _, name := range []string{"req", "default", "rename", "none", "min", "EMAIL"} {
		d := divisibleDef()
		d.Name, d.Aliases = name, nil
		if err := reg.RegisterRule(d); err == nil {
			t.Errorf("RegisterRule(%q) succeeded: a built-in or reserved name", name)
		}
	}
	if err := reg.RegisterRule(rules.Def{
		Name: "panics",
		Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(v rules.Value) error { panic("boom") }), nil
		},
	}); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterRule(rules.Def{
		Name:    "compilepanics",
		Compile: func([]string, rules.Kind) (rules.Checker, error) { panic("bang") },
	}); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterRule(rules.Def{
		Name:  "rawstring",
		Stage: rules.Input,
		Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(v rules.Value) error {
				if v.Kind != rules.String {
					return errors.New("must be given as a string")
				}
				return nil
			}), nil
		},
	}); err != nil {
		t.Fatal(err)
	}

	t.Run("declaration errors", func(t *testing.T) {
		cases := []struct {
			name, typ, rules, want string
		}{
			{"no argument", "number", "divisible",
				"dsl: entity \"e\", field \"v\" (triple 1, rules): rule \"divisible\" takes 1 argument, got 0\n    divisible\n    ^"},
			{"two arguments", "number", "div 1 2",
				"dsl: entity \"e\", field \"v\" (triple 1, rules): rule \"div\" takes 1 argument, got 2\n    div 1 2\n    ^"},
			{"bad argument", "number", "req | divisible x",
				"dsl: entity \"e\", field \"v\" (triple 1, rules): divisible: \"x\" is not a non-zero integer\n    req | divisible x\n          ^"},
			{"wrong type", "string", "divisible 3",
				"dsl: entity \"e\", field \"v\" (triple 1, rules): rule \"divisible\" cannot apply to a string field\n    divisible 3\n    ^"},
			{"Compile panics", "number", "compilepanics",
				"dsl: entity \"e\", field \"v\" (triple 1, rules): compilepanics: panic while compiling: bang\n    compilepanics\n    ^"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				_, err := reg.Expose("e", "v", c.typ, c.rules)
				if err == nil {
					t.Fatal("compiled")
				}
				if err.Error() != c.want {
					t.Errorf("error:\n got %s\nwant %s", err, c.want)
				}
			})
		}
	})

	t.Run("use", func(t *testing.T) {
		cases := []struct {
			name, typ, rules string
			in               any
			want             string
			fail             string
		}{
			{"pass", "number", "divisible 3", 9, `9`, ""},
			{"fail", "number", "divisible 3", 10, ``, "divisible"},
			{"upper case", "number", "DIVISIBLE 5", "25", `25`, ""},
			{"alias", "number", "Div 2", 3, ``, "div"},
			{"skips null", "number", "divisible 3", absent, `null`, ""},
			{"with default", "number", "divisible 3 | default 6", absent, `6`, ""},
			{"on none", "none", "divisible 4", 8, `8`, ""},
			{"on none, not a number", "none", "divisible 4", "8", ``, "divisible"},
			{"input stage sees the input", "number", "rawstring", "12", `12`, ""},
			{"input stage fails", "number", "rawstring", 12, ``, "rawstring"},
			{"panicking check", "string", "panics", "x", ``, "panics"},
			{"panicking check skipped on null", "string", "panics", absent, `null`, ""},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				e := expose(t, reg, "e", "v", c.typ, c.rules)
				out, _, err := makeAll(t, e, input(c.in))
				if c.fail == "" {
					if err != nil {
						t.Fatal(err)
					}
					if want := `{"v":` + c.want + `}`; string(out) != want {
						t.Errorf("got %s, want %s", out, want)
					}
					return
				}
				fields := fieldErrors(t, err)
				if len(fields) != 1 || !strings.EqualFold(fields[0].Rule, c.fail) && !strings.EqualFold(fields[0].Rule, "divisible") {
					t.Errorf("fields = %v, want one failure of %q", err, c.fail)
				}
				if fields[0].Message == "" || fields[0].Path != "v" {
					t.Errorf("field error %+v", fields[0])
				}
			})
		}
	})

	t.Run("registries are independent", func(t *testing.T) {
		if _, err := entity.NewRegistry().Expose("e", "v", "number", "divisible 3"); err == nil {
			t.Errorf("a rule registered in one registry is known in another")
		}
	})
}

// TestEntityAccessors checks Name and Lookup identity.
func TestEntityAccessors(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "名前 with space", "a", "string", "")
	if e.Name() != "名前 with space" || reg.Lookup("名前 with space") != e {
		t.Errorf("Name() = %q", e.Name())
	}
	if reg.Lookup("名前") != nil {
		t.Errorf("Lookup matched a prefix")
	}
	empty := expose(t, reg, "empty")
	out, _ := mustMake(t, empty, map[string]any{"a": 1})
	if string(out) != `{}` {
		t.Errorf("entity without fields: %s", out)
	}
}
