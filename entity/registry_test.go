package entity_test

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

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
				out, err := reg.Lookup(name).MakeJSON(map[string]any{"r": map[string]any{"v": i}})
				if err != nil {
					t.Error(err)
					return
				}
				if want := `{"v":1,"r":{"v":` + strconv.Itoa(i) + `,"r":null}}`; string(out) != want {
					t.Errorf("got %s, want %s", out, want)
					return
				}
				_ = reg.Lookup(name)
				_ = reg.Verify()
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
	if err := entity.Verify(); err == nil || !strings.Contains(err.Error(), missing) && !checkLists(err, missing) {
		t.Errorf("Check() = %v, want it to name $%s", err, missing)
	}
	entity.MustExpose(missing, "x", "number", "")
	if err := entity.Verify(); err != nil && checkLists(err, missing) {
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
	dst, err := entity.Lookup(users).AppendJSON([]byte("x="), seedUsers())
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
	if _, err := reg.Lookup("nope").Make(map[string]any{}); !errors.Is(err, entity.ErrUnknownEntity) {
		t.Errorf("Make: %v, want ErrUnknownEntity", err)
	}
	if b, err := reg.Lookup("nope").MakeJSON(map[string]any{}); b != nil || !errors.Is(err, entity.ErrUnknownEntity) {
		t.Errorf("MakeJSON: %q, %v, want nil, ErrUnknownEntity", b, err)
	}
	if b, err := reg.Lookup("nope").AppendJSON([]byte("keep"), map[string]any{}); string(b) != "keep" || !errors.Is(err, entity.ErrUnknownEntity) {
		t.Errorf("AppendJSON: %q, %v, want dst unchanged, ErrUnknownEntity", b, err)
	}
	if _, err := entity.Make("apitest.never.declared", nil); !errors.Is(err, entity.ErrUnknownEntity) {
		t.Errorf("entity.Make: %v", err)
	}
	if _, err := entity.MakeJSON("apitest.never.declared", nil); !errors.Is(err, entity.ErrUnknownEntity) {
		t.Errorf("entity.MakeJSON: %v", err)
	}
	if _, err := entity.MakeJSON("apitest.never.declared", nil); err == nil || !strings.Contains(err.Error(), `"apitest.never.declared"`) {
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

// manyEntities returns a file declaring n entities, each referencing the
// one before it, and one entity merging each of the first entities of a
// chain of merges.
func manyEntities(n int) fstest.MapFS {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "e%d {\n  id  number  req\n  name  string  min 1\n", i)
		if i > 0 {
			fmt.Fprintf(&b, "  prev  $e%d\n", i-1)
		}
		b.WriteString("}\n")
	}
	return fstest.MapFS{"many.entity": {Data: []byte(b.String())}}
}

// BenchmarkLoadFSMany loads n entities in a new registry: the time of one
// entity should not grow with n.
func BenchmarkLoadFSMany(b *testing.B) {
	for _, n := range []int{1000, 8000} {
		files := manyEntities(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := entity.NewRegistry().LoadFS(files, "*.entity"); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
		})
	}
}

// BenchmarkExposeMany exposes n entities one after the other in a new
// registry.
func BenchmarkExposeMany(b *testing.B) {
	for _, n := range []int{1000, 8000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			names := make([]string, n)
			for i := range names {
				names[i] = "e" + strconv.Itoa(i)
			}
			for b.Loop() {
				reg := entity.NewRegistry()
				for i, name := range names {
					ref := "$" + names[max(i-1, 0)]
					if _, err := reg.Expose(name, "id", "number", "req", "name", "string", "min 1", "prev", ref, ""); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
		})
	}
}

// BenchmarkExposeMergeChain exposes a chain of n entities, each merging the
// next, root first: every Expose but the first completes the objects of
// all the entities before it.
func BenchmarkExposeMergeChain(b *testing.B) {
	for _, n := range []int{100, 400} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				reg := entity.NewRegistry()
				for i := range n {
					if _, err := reg.Expose("c"+strconv.Itoa(i), "k"+strconv.Itoa(i), "string", "", "next", "$c"+strconv.Itoa(i+1), "merge"); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
		})
	}
}

// TestVerifyBareDefaultARequestCannotMake: a bare default on a $ref whose
// entity a request cannot make from {} (a lazy or writeonly field that is
// req: a request reads it, a response does not) is reported by Verify, as
// MakeRequest of {} would fail on every call; not when the reference is
// readonly (a request never fills it), nor for a parameter field of the
// entity, which a request does not read below its top level.
func TestVerifyBareDefaultARequestCannotMake(t *testing.T) {
	for _, tt := range []struct {
		name, target, ref, want string
	}{
		{"lazy req", "lazy | req", "default", `field "any" (triple 1, rules): its bare default makes $inner from an empty input, which fails in a request: score: is required`},
		{"writeonly req", "writeonly | req", "default", `its bare default makes $inner from an empty input, which fails in a request: score: is required`},
		{"readonly req: a response fails", "readonly | req", "default", `its bare default makes $inner from an empty input, which fails: score: is required`},
		{"a readonly reference is never filled by a request", "writeonly | req", "default | readonly", ""},
		{"a writeonly reference is never filled by a response", "readonly | req", "default | writeonly", ""},
		{"a default in the entity", "writeonly | req | default 'x'", "default", ""},
		{"a nested object's parameter is the server's", "path | req | writeonly", "default", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			outer := expose(t, reg, "outer", "any", "$inner", tt.ref)
			expose(t, reg, "inner", "score", "string", tt.target)
			err := reg.Verify()
			if tt.want == "" {
				if err != nil {
					t.Errorf("Verify: %v", err)
				}
				req := httptest.NewRequest("POST", "/", strings.NewReader("{}"))
				req.Header.Set("Content-Type", "application/json")
				if _, err := outer.MakeRequest(req); err != nil {
					t.Errorf("MakeRequest of {}: %v; want none, as Verify says", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Verify = %v\nwant %s", err, tt.want)
			}
			if strings.Contains(tt.want, "in a request") {
				req := httptest.NewRequest("POST", "/", strings.NewReader("{}"))
				req.Header.Set("Content-Type", "application/json")
				if _, err := outer.MakeRequest(req); err == nil {
					t.Error("MakeRequest of {} succeeded: the case tests nothing")
				}
			}
		})
	}
}

// TestMustLookup: MustLookup returns the entity, or panics naming the
// names nearest to the one asked for, so that a typo fails at start-up.
func TestMustLookup(t *testing.T) {
	reg := entity.NewRegistry()
	customer := expose(t, reg, "customer", "id", "number", "")
	expose(t, reg, "order", "id", "number", "")
	expose(t, reg, "orders", "id", "number", "")
	if got := reg.MustLookup("customer"); got != customer {
		t.Errorf("MustLookup(customer) = %v", got)
	}
	for _, tt := range []struct {
		reg        *entity.Registry
		name, want string
	}{
		{reg, "custmer", `entity: MustLookup("custmer"): no entity "custmer" is exposed; did you mean "customer"?`},
		{reg, "Customer", `did you mean "customer"?`},
		{reg, "ordes", `did you mean "order" or "orders"?`},
		{reg, "invoice", `entity: MustLookup("invoice"): no entity "invoice" is exposed`},
		{entity.NewRegistry(), "x", `no entity "x" is exposed (the registry exposes none)`},
		{nil, "x", `no entity "x" is exposed (the registry exposes none)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msg := panicMessage(func() { tt.reg.MustLookup(tt.name) })
			if !strings.Contains(msg, tt.want) {
				t.Errorf("panic %q, want %q", msg, tt.want)
			}
			if tt.want == `entity: MustLookup("invoice"): no entity "invoice" is exposed` && strings.Contains(msg, "did you mean") {
				t.Errorf("panic %q suggests a name far from it", msg)
			}
		})
	}
	t.Run("package level", func(t *testing.T) {
		const name = "apitest.mustlookup.customer"
		e := entity.MustExpose(name, "id", "number", "")
		if entity.MustLookup(name) != e {
			t.Error("MustLookup of the Default registry")
		}
		if msg := panicMessage(func() { entity.MustLookup("apitest.mustlookup.custmer") }); !strings.Contains(msg, `did you mean "`+name+`"?`) {
			t.Errorf("panic %q", msg)
		}
	})
}

// panicMessage returns what f panics with, or "" when it does not.
func panicMessage(f func()) (msg string) {
	defer func() {
		if p := recover(); p != nil {
			msg = fmt.Sprint(p)
		}
	}()
	f()
	return ""
}

// TestExposeAllocsDoNotGrowWithRegistry: exposing or loading an entity
// touches only the entities that depend on it, not every entity of the
// registry (counted in allocations, not timed): the same work in a
// registry of 10 merging entities and of 1000.
func TestExposeAllocsDoNotGrowWithRegistry(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	registry := func(n int) *entity.Registry {
		reg := entity.NewRegistry()
		expose(t, reg, "base", "b", "string", "")
		for i := range n {
			name := "m" + strconv.Itoa(i)
			expose(t, reg, name, "k", "string", "", "ref", "$base", "merge")
			reg.MustExtend("x"+name, name, "extra", "string", "")
		}
		return reg
	}
	file := fstest.MapFS{"one.entity": {Data: []byte("loaded {\n  id  number\n  ref  $m0\n}\n")}}
	for _, tt := range []struct {
		name string
		do   func(t *testing.T, reg *entity.Registry)
	}{
		{"Expose", func(t *testing.T, reg *entity.Registry) {
			expose(t, reg, "fresh", "id", "number", "", "ref", "$m0", "")
		}},
		{"Extend", func(t *testing.T, reg *entity.Registry) {
			if _, err := reg.Extend("fresh", "m0", "more", "string", ""); err != nil {
				t.Fatal(err)
			}
		}},
		{"LoadFS", func(t *testing.T, reg *entity.Registry) {
			if err := reg.LoadFS(file, "*.entity"); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			allocs := func(n int) float64 {
				var regs []*entity.Registry
				for range 3 {
					regs = append(regs, registry(n))
				}
				i := 0
				return testing.AllocsPerRun(len(regs)-1, func() { tt.do(t, regs[i]); i++ })
			}
			small, large := allocs(10), allocs(1000)
			if large > small+5 {
				t.Errorf("%s allocates %.0f times in a registry of 10 entities that merge, %.0f in one of 1000", tt.name, small, large)
			}
		})
	}
}

// TestMergeChainAllocsRootFirst: exposing the last entity of a chain of
// merges exposed root first compares its keys with each entity before it
// once (the walk goes up the chain), so its work grows with the chain's
// length, not its square.
func TestMergeChainAllocsRootFirst(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	allocs := func(n int) float64 {
		var regs []*entity.Registry
		for range 3 {
			reg := entity.NewRegistry()
			for i := range n - 1 {
				expose(t, reg, "c"+strconv.Itoa(i), "k"+strconv.Itoa(i), "string", "", "next", "$c"+strconv.Itoa(i+1), "merge")
			}
			regs = append(regs, reg)
		}
		i := 0
		last := "c" + strconv.Itoa(n-1)
		return testing.AllocsPerRun(len(regs)-1, func() {
			expose(t, regs[i], last, "k", "string", "")
			i++
		})
	}
	short, long := allocs(50), allocs(200)
	if long > 6*short { // 4 times the length: linear is 4 times the work, quadratic 16
		t.Errorf("the last Expose of a chain of 50 allocates %.0f times, of 200 %.0f", short, long)
	}
}
