package entity_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

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

// TestInputKinds makes the same entity from every kind of input the spec
// lists.
func TestInputKinds(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "row",
		"id", "number", "",
		"name", "string", "",
		"g", "{", "",
		"n", "number", "",
		"g", "}", "",
	)
	other := expose(t, reg, "other", "id", "string", "", "name", "none", "", "n", "float", "")
	obj, err := other.Make(map[string]any{"id": "7", "name": "x", "n": 2.5})
	if err != nil {
		t.Fatal(err)
	}
	var nilMap map[string]any
	var nilStrings map[string]string
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"map[string]any", map[string]any{"id": 7, "name": "x", "n": 2.5, "extra": 1}, `{"id":7,"name":"x","g":{"n":2}}`},
		{"map[string]string", map[string]string{"id": "7", "name": "x", "n": "2.5"}, `{"id":7,"name":"x","g":{"n":2}}`},
		{"map[string]int", map[string]int{"id": 7, "name": 8, "n": 9}, `{"id":7,"name":"8","g":{"n":9}}`},
		{"map[string]float64", map[string]float64{"id": 7.9}, `{"id":7,"name":null,"g":{"n":null}}`},
		{"map with named key type", map[myKey]any{"id": "7", "name": true}, `{"id":7,"name":"true","g":{"n":null}}`},
		{"map[string]json.Number", map[string]json.Number{"id": "7"}, `{"id":7,"name":null,"g":{"n":null}}`},
		{"*Object", obj, `{"id":7,"name":"x","g":{"n":2}}`},
		{"nil", nil, `{"id":null,"name":null,"g":{"n":null}}`},
		{"nil map[string]any", nilMap, `{"id":null,"name":null,"g":{"n":null}}`},
		{"nil map[string]string", nilStrings, `{"id":null,"name":null,"g":{"n":null}}`},
		{"empty map", map[string]any{}, `{"id":null,"name":null,"g":{"n":null}}`},
		{"map[string]string absent fields", map[string]string{"id": "1"}, `{"id":1,"name":null,"g":{"n":null}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _ := mustMake(t, e, c.in)
			if string(out) != c.want {
				t.Errorf("got  %s\nwant %s", out, c.want)
			}
		})
	}
}

// TestInputLists: MakeJSON and AppendJSON take a list of objects and write
// a JSON array, skipping elements that are not objects.
func TestInputLists(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "row", "id", "number", "", "name", "string", "req")
	obj, err := e.Make(map[string]any{"id": 3, "name": "o"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"[]any, non-objects skipped", []any{map[string]any{"id": 1, "name": "a"}, 42, "x", nil, []any{}, map[string]string{"id": "2", "name": "b"}}, `[{"id":1,"name":"a"},{"id":2,"name":"b"}]`},
		{"[]map[string]any", []map[string]any{{"id": 1, "name": "a"}}, `[{"id":1,"name":"a"}]`},
		{"[]map[string]string", []map[string]string{{"id": "1", "name": "a"}, {"name": "b"}}, `[{"id":1,"name":"a"},{"id":null,"name":"b"}]`},
		{"[]*Object", []*entity.Object{obj, nil, obj}, `[{"id":3,"name":"o"},{"id":3,"name":"o"}]`},
		{"[]map[string]int", []map[string]int{{"id": 1, "name": 2}}, `[{"id":1,"name":"2"}]`},
		{"array of maps", [2]map[string]any{{"name": "a"}, {"name": "b"}}, `[{"id":null,"name":"a"},{"id":null,"name":"b"}]`},
		{"empty list", []any{}, `[]`},
		{"only non-objects", []any{1, "a", true}, `[]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := e.MakeJSON(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != c.want {
				t.Errorf("MakeJSON: got %s, want %s", out, c.want)
			}
			app, err := e.AppendJSON([]byte("["), c.in)
			if err != nil || string(app) != "["+c.want {
				t.Errorf("AppendJSON = %s, %v", app, err)
			}
			out, err = reg.MakeJSON("row", c.in)
			if err != nil || string(out) != c.want {
				t.Errorf("Registry.MakeJSON = %s, %v", out, err)
			}
		})
	}
	t.Run("failure in a list", func(t *testing.T) {
		in := []any{map[string]any{"name": "a"}, 1, map[string]any{"id": 2}}
		dst := []byte("keep")
		got, err := e.AppendJSON(dst, in)
		if err == nil || string(got) != "keep" {
			t.Errorf("AppendJSON = %q, %v; want dst unchanged and an error", got, err)
		}
		fields := fieldErrors(t, err)
		if len(fields) != 1 || fields[0].Path != "[2].name" || fields[0].OutputPath != "[1].name" {
			t.Errorf("fields = %+v", fields[0])
		}
		if b, err := e.MakeJSON(in); b != nil || err == nil {
			t.Errorf("MakeJSON = %q, %v", b, err)
		}
	})
	t.Run("Make of a list is an error, not a panic", func(t *testing.T) {
		o, err := e.Make([]any{map[string]any{}})
		if err == nil || o != nil {
			t.Errorf("Make(list) = %v, %v; want an error", o, err)
		}
	})
}

func TestUnsupportedInput(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "row", "id", "number", "")
	for _, in := range []any{42, "str", true, 1.5, time.Now(), make(chan int), map[int]any{1: 2}, func() {}, json.Number("1")} {
		t.Run(fmt.Sprintf("%T", in), func(t *testing.T) {
			if o, err := e.Make(in); o != nil || !errors.Is(err, entity.ErrUnsupportedInput) {
				t.Errorf("Make(%T) = %v, %v; want ErrUnsupportedInput", in, o, err)
			}
			if b, err := e.MakeJSON(in); b != nil || !errors.Is(err, entity.ErrUnsupportedInput) {
				t.Errorf("MakeJSON(%T) = %q, %v; want ErrUnsupportedInput", in, b, err)
			}
			if b, err := e.AppendJSON([]byte("keep"), in); string(b) != "keep" || !errors.Is(err, entity.ErrUnsupportedInput) {
				t.Errorf("AppendJSON(%T) = %q, %v; want dst unchanged, ErrUnsupportedInput", in, b, err)
			}
			if _, err := reg.MakeJSON("row", in); !errors.Is(err, entity.ErrUnsupportedInput) {
				t.Errorf("Registry.MakeJSON(%T) = %v", in, err)
			}
			var ve *entity.ValidationError
			if _, err := e.MakeJSON(in); errors.As(err, &ve) || errors.Is(err, entity.ErrValidation) {
				t.Errorf("unsupported input reported as a validation error: %v", err)
			}
		})
	}
}

// TestObject checks the Object API on the seed.
func TestObject(t *testing.T) {
	reg := entity.NewRegistry()
	exposeSeed(t, reg)
	out, obj := mustMake(t, reg.Lookup("users"), seedUsers())
	if string(out) != seedJSON {
		t.Fatalf("got %s", out)
	}
	if obj.Len() != 3 {
		t.Errorf("Len = %d, want 3", obj.Len())
	}
	if diff := cmp.Diff([]string{"offset", "limit", "list"}, obj.Keys()); diff != "" {
		t.Errorf("Keys (-want +got):\n%s", diff)
	}
	keys := obj.Keys()
	keys[0] = "changed"
	if obj.Keys()[0] != "offset" {
		t.Errorf("changing Keys' result changed the Object")
	}
	if v, ok := obj.Get("limit"); !ok || v != int64(2) {
		t.Errorf("Get(limit) = %#v, %v", v, ok)
	}
	if v, ok := obj.Get("offset"); !ok || v != int64(0) {
		t.Errorf("Get(offset) = %#v, %v (the default)", v, ok)
	}
	if v, ok := obj.Get("nope"); ok || v != nil {
		t.Errorf("Get(nope) = %#v, %v", v, ok)
	}
	if v, ok := obj.Get("id"); ok || v != nil {
		t.Errorf("Get(id) = %#v, %v: a renamed field is under its output key only", v, ok)
	}
	list, _ := obj.Get("list")
	users, ok := list.([]*entity.Object)
	if !ok || len(users) != 2 {
		t.Fatalf("Get(list) = %#v", list)
	}
	if diff := cmp.Diff([]string{"number", "name", "details", "code"}, users[0].Keys()); diff != "" {
		t.Errorf("user Keys (-want +got):\n%s", diff)
	}
	details, _ := users[1].Get("details")
	if d, ok := details.(*entity.Object); !ok {
		t.Errorf("Get(details) = %#v, want an *Object", details)
	} else if age, _ := d.Get("age"); age != int64(27) {
		t.Errorf("details.age = %#v", age)
	}

	want := map[string]any{
		"offset": int64(0),
		"limit":  int64(2),
		"list": []any{
			map[string]any{"number": int64(12), "name": "maachang", "details": map[string]any{"age": int64(40), "mail": "maachang@maachang.com"}, "code": "unknown"},
			map[string]any{"number": int64(21), "name": "saito", "details": map[string]any{"age": int64(27), "mail": "saito@maachang.com"}, "code": "unknown"},
		},
	}
	if diff := cmp.Diff(want, obj.Map()); diff != "" {
		t.Errorf("Map (-want +got):\n%s", diff)
	}
	// Map agrees with the JSON, decoded.
	var decoded map[string]any
	if err := json.Unmarshal(out, &decoded); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(normalize(decoded), normalize(obj.Map())); diff != "" {
		t.Errorf("Map vs decoded JSON (-json +map):\n%s", diff)
	}
	if obj.String() != seedJSON {
		t.Errorf("String() = %s", obj.String())
	}
}

// normalize turns numbers into float64 so that decoded JSON and Map compare.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = normalize(e)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, e := range v {
			l[i] = normalize(e)
		}
		return l
	case int64:
		return float64(v)
	}
	return v
}

// TestObjectMapTypes: Map gives plain values for every type.
func TestObjectMapTypes(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "leaf", "x", "number", "")
	e := expose(t, reg, "all",
		"s", "string", "",
		"n", "number", "",
		"f", "float", "",
		"b", "bool", "",
		"d", "date", "",
		"l", "list", "",
		"o", "object", "",
		"x", "none", "",
		"r", "$leaf", "",
		"rl", "$leaf", "",
		"g", "{", "",
		"null", "string", "",
		"g", "}", "",
	)
	_, obj := mustMake(t, e, map[string]any{
		"s": "s", "n": 1, "f": 1.5, "b": true, "d": "2020-01-02",
		"l": []any{1}, "o": map[string]any{"k": "v"}, "x": "pass",
		"r": map[string]any{"x": 2}, "rl": []any{map[string]any{"x": 3}},
	})
	want := map[string]any{
		"s": "s", "n": int64(1), "f": 1.5, "b": true, "d": "2020-01-02T00:00:00Z",
		"l": []any{1.0}, "o": map[string]any{"k": "v"}, "x": "pass",
		"r": map[string]any{"x": int64(2)}, "rl": []any{map[string]any{"x": int64(3)}},
		"g": map[string]any{"null": nil},
	}
	if diff := cmp.Diff(want, obj.Map()); diff != "" {
		t.Errorf("Map (-want +got):\n%s", diff)
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

// escapeTests are strings that encoding/json escapes.
var escapeTests = []struct{ name, s string }{
	{"plain", "plain"},
	{"empty", ""},
	{"quote", `a"b`},
	{"backslash", `a\b`},
	{"slash", `a/b`},
	{"newline tab cr", "a\nb\tc\rd"},
	{"backspace formfeed", "\b\f"},
	{"NUL", "a\x00b"},
	{"control chars", "\x01\x02\x1f\x0b"},
	{"DEL", "\x7f"},
	{"html", "<script>&</script>"},
	{"U+2028 U+2029", "a\u2028b\u2029c"},
	{"invalid UTF-8 byte", "a\xffb"},
	{"truncated UTF-8", "a\xc3"},
	{"surrogate half", "\xed\xa0\x80"},
	{"overlong", "\xc0\xaf"},
	{"non-ASCII", "héllo 日本語 😀"},
	{"U+FFFD itself", "\ufffd"},
	{"mixed", "\"<\u2028\xff\x00>\""},
}

// TestEscaping: keys and values are escaped exactly as encoding/json
// escapes them.
func TestEscaping(t *testing.T) {
	for _, c := range escapeTests {
		t.Run(c.name, func(t *testing.T) {
			want := marshal(t, map[string]string{"v": c.s})
			for _, typ := range []string{"string", "none"} {
				e := exposeOne(t, typ, "")
				out, _ := mustMake(t, e, map[string]any{"v": c.s})
				if string(out) != want {
					t.Errorf("%s value: got %s, want %s", typ, out, want)
				}
				out, _ = mustMake(t, e, map[string]string{"v": c.s})
				if string(out) != want {
					t.Errorf("%s value from map[string]string: got %s, want %s", typ, out, want)
				}
				out, _ = mustMake(t, e, map[string]any{"v": []byte(c.s)})
				if typ == "string" && string(out) != want {
					t.Errorf("%s value from []byte: got %s, want %s", typ, out, want)
				}
			}
			if c.s == "" {
				return
			}
			// As a key: the declared name, and a rename.
			wantKey := marshal(t, map[string]int{c.s: 1})
			e := expose(t, entity.NewRegistry(), "k", c.s, "number", "")
			out, _ := mustMake(t, e, map[string]any{c.s: 1})
			if string(out) != wantKey {
				t.Errorf("key: got %s, want %s", out, wantKey)
			}
			e = expose(t, entity.NewRegistry(), "k", "x", "number", "rename '"+strings.ReplaceAll(c.s, "'", "''")+"'")
			out, _ = mustMake(t, e, map[string]any{"x": 1})
			if string(out) != wantKey {
				t.Errorf("renamed key: got %s, want %s", out, wantKey)
			}
			// Inside a value passed through, as key and value.
			e = exposeOne(t, "object", "")
			m := map[string]any{c.s: c.s}
			out, _ = mustMake(t, e, input(m))
			if want := `{"v":` + marshal(t, m) + `}`; string(out) != want {
				t.Errorf("object: got %s, want %s", out, want)
			}
		})
	}
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
