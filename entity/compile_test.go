package entity_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// declErrorTests are declarations that must not compile, each with the full
// text of the (first) error: position, entity, field, triple and, for rules
// text, the line with a caret under the offending byte.
var declErrorTests = []struct {
	name string
	decl []string
	want string
}{
	{"unknown type", []string{"age", "nmber", ""},
		`dsl: entity "e", field "age" (triple 1, type): unknown type "nmber" (did you mean "number"?)`},
	{"unknown type in a later triple", []string{"id", "number", "", "age", "integr", ""},
		`dsl: entity "e", field "age" (triple 2, type): unknown type "integr" (did you mean "integer"?)`},
	{"unknown rule", []string{"age", "number", "num | rnge 1 5"},
		"dsl: entity \"e\", field \"age\" (triple 1, rules): unknown rule \"rnge\" (did you mean \"range\"?)\n    num | rnge 1 5\n          ^"},
	{"min without argument", []string{"age", "number", "min"},
		"dsl: entity \"e\", field \"age\" (triple 1, rules): rule \"min\" takes 1 argument, got 0\n    min\n    ^"},
	{"range with one argument", []string{"age", "number", "range 1"},
		"dsl: entity \"e\", field \"age\" (triple 1, rules): rule \"range\" takes 2 arguments, got 1\n    range 1\n    ^"},
	{"min with two arguments", []string{"age", "number", "min 1 2"},
		"dsl: entity \"e\", field \"age\" (triple 1, rules): rule \"min\" takes 1 argument, got 2\n    min 1 2\n    ^"},
	{"req with an argument", []string{"age", "number", "req x"},
		"dsl: entity \"e\", field \"age\" (triple 1, rules): rule \"req\" takes no arguments\n    req x\n        ^"},
	{"email with an argument", []string{"mail", "string", "email 1"},
		"dsl: entity \"e\", field \"mail\" (triple 1, rules): rule \"email\" takes 0 arguments, got 1\n    email 1\n    ^"},
	{"rename without argument", []string{"age", "number", "rename"},
		"dsl: entity \"e\", field \"age\" (triple 1, rules): rule \"rename\" takes one argument, the output name\n    rename\n    ^"},
	{"rename with two arguments", []string{"age", "number", "num | rename a b"},
		"dsl: entity \"e\", field \"age\" (triple 1, rules): rule \"rename\" takes one argument, the output name\n    num | rename a b\n          ^"},
	{"rename to nothing", []string{"age", "number", "rename ''"},
		"dsl: entity \"e\", field \"age\" (triple 1, rules): rule \"rename\" takes one argument, the output name\n    rename ''\n    ^"},
	{"req with a bare default on none", []string{"x", "none", "req | default"},
		"dsl: entity \"e\", field \"x\" (triple 1, rules): the default is null, which req rejects on every call\n    req | default\n          ^"},
	{"req with a null default on none", []string{"x", "none", "default null | req"},
		"dsl: entity \"e\", field \"x\" (triple 1, rules): the default is null, which req rejects on every call\n    default null | req\n            ^"},
	{"default with two arguments", []string{"age", "number", "default 1 2"},
		"dsl: entity \"e\", field \"age\" (triple 1, rules): rule \"default\" takes at most one argument, the value\n    default 1 2\n    ^"},
	{"non-numeric min", []string{"age", "number", "min abc"},
		"dsl: entity \"e\", field \"age\" (triple 1, rules): min: argument \"abc\" is not a number\n    min abc\n    ^"},
	{"non-numeric max", []string{"name", "string", "req | max ten"},
		"dsl: entity \"e\", field \"name\" (triple 1, rules): max: argument \"ten\" is not a number\n    req | max ten\n          ^"},
	{"min greater than max", []string{"age", "number", "min 5 | max 3"},
		"dsl: entity \"e\", field \"age\" (triple 1, rules): max: minimum 5 is greater than maximum 3: no value meets both\n    min 5 | max 3\n            ^"},
	{"max before a greater min", []string{"name", "string", "max 3 | req | min 4"},
		"dsl: entity \"e\", field \"name\" (triple 1, rules): min: minimum 4 is greater than maximum 3: no value meets both\n    max 3 | req | min 4\n                  ^"},
	{"min past a range", []string{"age", "number", "range 1 5 | min 6"},
		"dsl: entity \"e\", field \"age\" (triple 1, rules): min: minimum 6 is greater than maximum 5: no value meets both\n    range 1 5 | min 6\n                ^"},
	{"range 5 1", []string{"age", "number", "range 5 1"},
		"dsl: entity \"e\", field \"age\" (triple 1, rules): range: minimum 5 is greater than maximum 1\n    range 5 1\n    ^"},
	{"bad regex", []string{"code", "string", "regex '('"},
		"dsl: entity \"e\", field \"code\" (triple 1, rules): regex: error parsing regexp: missing closing ): `(`\n    regex '('\n    ^"},
	{"unclosed group", []string{"g", "{", "", "a", "string", ""},
		`dsl: entity "e", field "g" (triple 1, name): group "g" opened with "{" is never closed with "}"`},
	{"stray }", []string{"a", "string", "", "g", "}", ""},
		`dsl: entity "e", field "g" (triple 2, type): "}" closes no group`},
	{"one } too many", []string{"g", "{", "", "a", "string", "", "g", "}", "", "g", "}", ""},
		`dsl: entity "e", field "g" (triple 4, type): "}" closes no group`},
	{"one string left over", []string{"a", "string", "", "b"},
		`dsl: entity "e" (triple 2, name): 1 string is not a whole triple (field, type, rules): "b"`},
	{"two strings left over", []string{"a", "string", "", "b", "number"},
		`dsl: entity "e" (triple 2, name): 2 strings are not a whole triple (field, type, rules): "b", "number"`},
	{"unclosed quote", []string{"a", "string", "regex 'abc"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): unclosed quote '\n    regex 'abc\n          ^"},
	{"unclosed double quote", []string{"a", "string", `default "x | req`},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): unclosed quote \"\n    default \"x | req\n            ^"},
	{"min on bool", []string{"a", "bool", "min 1"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): rule \"min\" cannot apply to a bool field\n    min 1\n    ^"},
	{"max on date", []string{"a", "date", "max 1"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): rule \"max\" cannot apply to a date field\n    max 1\n    ^"},
	{"range on object", []string{"a", "object", "range 1 2"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): rule \"range\" cannot apply to an object field\n    range 1 2\n    ^"},
	{"email on number", []string{"a", "number", "email"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): rule \"email\" cannot apply to a number field\n    email\n    ^"},
	{"default abc on number", []string{"a", "number", "default abc"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): default \"abc\" is not a valid number\n    default abc\n            ^"},
	{"default 1.2.3 on number", []string{"a", "number", "req | default '1.2.3'"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): default \"1.2.3\" is not a valid number\n    req | default '1.2.3'\n                  ^"},
	{"default yes on bool", []string{"a", "bool", "default yes"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): default \"yes\" is not a valid bool\n    default yes\n            ^"},
	{"default on date not a date", []string{"a", "date", "default 2023-02-30"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): default \"2023-02-30\" is not a valid date\n    default 2023-02-30\n            ^"},
	{"default 1e400 on float", []string{"a", "float", "default 1e400"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): default \"1e400\" is not a valid float\n    default 1e400\n            ^"},
	{"default fails email", []string{"a", "string", "email | default 'nope'"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): the default fails rule \"email\": must be a valid email address\n    email | default 'nope'\n                    ^"},
	{"default fails min", []string{"a", "number", "min 5 | default 1"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): the default fails rule \"min\": must be at least 5\n    min 5 | default 1\n                    ^"},
	{"bare default fails min", []string{"a", "string", "default | min 1"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): the default fails rule \"min\": must be at least 1 character long\n    default | min 1\n    ^"},
	{"duplicate output key via rename", []string{"a", "string", "", "b", "string", "rename a"},
		`dsl: entity "e", field "b" (triple 2, name): output key "a" is already written by field "a" (triple 1)`},
	{"duplicate output key, two renames", []string{"a", "string", "", "b", "string", "rename 'x'", "c", "number", "rn x"},
		`dsl: entity "e", field "c" (triple 3, name): output key "x" is already written by field "b" (triple 2)`},
	{"duplicate field name", []string{"a", "string", "", "a", "number", ""},
		`dsl: entity "e", field "a" (triple 2, name): output key "a" is already written by field "a" (triple 1)`},
	{"duplicate key with a group", []string{"g", "{", "", "g", "}", "", "g", "string", ""},
		`dsl: entity "e", field "g" (triple 3, name): output key "g" is already written by field "g" (triple 1)`},
	{"duplicate key inside a group", []string{"g", "{", "", "a", "string", "", "b", "string", "rn a", "g", "}", ""},
		`dsl: entity "e", field "b" (triple 3, name): output key "a" is already written by field "a" (triple 2)`},
	{"duplicate key via a $ref rename", []string{"a", "string", "", "b", "$x", "rename a"},
		`dsl: entity "e", field "b" (triple 2, name): output key "a" is already written by field "a" (triple 1)`},
	{"duplicate key once written: invalid UTF-8 is U+FFFD", []string{"a\ufffdb", "string", "", "a\xffb", "string", ""},
		"dsl: entity \"e\", field \"a\\xffb\" (triple 2, name): output key \"a\\xffb\" is already written by field \"a\ufffdb\" (triple 1)"},
	{"duplicate key via a group rename", []string{"a", "string", "", "g", "{", "rename a", "x", "string", "", "g", "}", ""},
		`dsl: entity "e", field "g" (triple 2, name): output key "a" is already written by field "a" (triple 1)`},
	{"secret on a group", []string{"g", "{", "secret", "a", "string", "", "g", "}", ""},
		"dsl: entity \"e\", field \"g\" (triple 1, rules): rule \"secret\" cannot apply to a group: a group takes only req, rename, msg, lazy, if, unless, since, until, omitempty, readonly, writeonly, from and doc\n    secret\n    ^"},
	{"min on a group", []string{"g", "{", "rename h | min 1", "a", "string", "", "g", "}", ""},
		"dsl: entity \"e\", field \"g\" (triple 1, rules): rule \"min\" cannot apply to a group: a group takes only req, rename, msg, lazy, if, unless, since, until, omitempty, readonly, writeonly, from and doc\n    rename h | min 1\n               ^"},
	{"default on a group", []string{"g", "{", "default", "a", "string", "", "g", "}", ""},
		"dsl: entity \"e\", field \"g\" (triple 1, rules): rule \"default\" cannot apply to a group: a group takes only req, rename, msg, lazy, if, unless, since, until, omitempty, readonly, writeonly, from and doc\n    default\n    ^"},
	{"rules on }", []string{"g", "{", "", "a", "string", "", "g", "}", "rename x"},
		"dsl: entity \"e\", field \"g\" (triple 3, rules): the closing \"}\" of group \"g\" takes no rules\n    rename x\n    ^"},
	{"min on a $ref", []string{"r", "$x", "min 1"},
		"dsl: entity \"e\", field \"r\" (triple 1, rules): rule \"min\" cannot apply to a reference ($x): a reference takes only req, default, secret, omitnil, merge, rename, msg, lazy, if, unless, since, until, omitempty, readonly, writeonly, from and doc\n    min 1\n    ^"},
	{"email on a $ref", []string{"r", "$x", "req | email"},
		"dsl: entity \"e\", field \"r\" (triple 1, rules): rule \"email\" cannot apply to a reference ($x): a reference takes only req, default, secret, omitnil, merge, rename, msg, lazy, if, unless, since, until, omitempty, readonly, writeonly, from and doc\n    req | email\n          ^"},
	{"the bare default of a []$ref fails len", []string{"r", "[]$x", "default | len 1"},
		"dsl: entity \"e\", field \"r\" (triple 1, rules): the default fails rule \"len\": must have exactly 1 element\n    default | len 1\n    ^"},
	{"the bare default of a []$ref fails min", []string{"r", "[]$x", "min 2 | def"},
		"dsl: entity \"e\", field \"r\" (triple 1, rules): the default fails rule \"min\": must have at least 2 elements\n    min 2 | def\n            ^"},
	{"merge on a []$ref", []string{"r", "[]$x", "req | merge"},
		"dsl: entity \"e\", field \"r\" (triple 1, rules): merge writes a $ref's keys into the object around it: a list ([]$x) has no keys to merge\n    req | merge\n          ^"},
	{"default with a value on a $ref", []string{"r", "$x", "default 5"},
		"dsl: entity \"e\", field \"r\" (triple 1, rules): a default on a reference takes no value: a bare default makes \"x\" from an empty input\n    default 5\n            ^"},
	{"def with a quoted value on a $ref", []string{"r", "$x", "def '{}'"},
		"dsl: entity \"e\", field \"r\" (triple 1, rules): a default on a reference takes no value: a bare default makes \"x\" from an empty input\n    def '{}'\n        ^"},
	{"empty rule after |", []string{"a", "string", "req |"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): empty rule after \"|\"\n    req |\n        ^"},
	{"empty rule before |", []string{"a", "string", "| req"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): empty rule before \"|\"\n    | req\n    ^"},
	{"quoted rule name", []string{"a", "string", "'req'"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): a rule name cannot be quoted\n    'req'\n    ^"},
	{"empty field name", []string{"", "string", ""},
		`dsl: entity "e" (triple 1, name): the field name is empty`},
	{"$ without a name", []string{"r", "$", ""},
		`dsl: entity "e", field "r" (triple 1, type): "$" names no entity: write "$name"`},
	// A default must pass every rule of its field, the type checks included.
	{"default fails num", []string{"a", "string", "num | default abc"},
		"dsl: entity \"e\", field \"a\" (triple 1, rules): the default fails rule \"num\": must be a number\n    num | default abc\n                  ^"},
}

func TestDeclErrors(t *testing.T) {
	for _, c := range slices.Concat(declErrorTests, richDeclErrorTests) {
		t.Run(c.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			e, err := reg.Expose("e", c.decl...)
			if err == nil {
				t.Fatalf("Expose(%q) compiled", c.decl)
			}
			if e != nil {
				t.Errorf("Expose returned an entity with the error")
			}
			if got := err.Error(); got != c.want {
				t.Errorf("error:\n got %s\nwant %s", got, c.want)
			}
			var de *dsl.Error
			if !errors.As(err, &de) {
				t.Errorf("errors.As(*dsl.Error) failed on %T", err)
			} else if de.Entity != "e" {
				t.Errorf("Entity = %q", de.Entity)
			}
			if reg.Lookup("e") != nil {
				t.Errorf("a failed Expose registered the entity")
			}
			func() {
				defer func() {
					p := recover()
					if p == nil {
						t.Errorf("MustExpose did not panic")
						return
					}
					if !strings.Contains(fmt.Sprint(p), c.want) {
						t.Errorf("MustExpose panic %q does not hold the error %q", p, c.want)
					}
				}()
				reg.MustExpose("e", c.decl...)
			}()
		})
	}
}

// TestDeclErrorsAll: every problem of a declaration is reported, and
// MustExpose's panic holds every one in full.
func TestDeclErrorsAll(t *testing.T) {
	decl := []string{
		"id", "number", "rnge 1 5",
		"name", "string", "min x",
		"mail", "number", "email",
		"ref", "$user", "max 3",
	}
	_, err := entity.NewRegistry().Expose("e", decl...)
	var list dsl.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %T is not a dsl.ErrorList", err)
	}
	var fields []string
	for _, e := range list {
		fields = append(fields, fmt.Sprintf("%s@%d", e.Field, e.Pos.Triple))
	}
	if diff := cmp.Diff([]string{"id@1", "name@2", "mail@3", "ref@4"}, fields); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(err.Error(), list[0].Error()) || !strings.Contains(err.Error(), "3 more") {
		t.Errorf("Error() = %q, want the first error and a count", err)
	}
	defer func() {
		p := fmt.Sprint(recover())
		for _, e := range list {
			if !strings.Contains(p, e.Error()) {
				t.Errorf("MustExpose panic %q lacks %q", p, e.Error())
			}
		}
	}()
	entity.NewRegistry().MustExpose("e", decl...)
}

// TestDeclErrorsAfterSyntaxError checks that a syntax error in one triple
// (an unclosed quote, a group nested too deep) hides no rule error of the
// others, in Expose's list and in MustExpose's panic.
func TestDeclErrorsAfterSyntaxError(t *testing.T) {
	const groups = 1_000_000 // once enough to overflow the stack
	deep := make([]string, 0, 6*groups+3)
	for range groups {
		deep = append(deep, "g", "{", "")
	}
	for range groups {
		deep = append(deep, "g", "}", "")
	}
	deep = append(deep, "z", "number", "mn 1")
	tests := []struct {
		name string
		decl []string
		want []string // field@triple of each error
	}{
		{"unclosed quote first", []string{
			"code", "string", "regex '^a",
			"id", "number", "rnge 1 5",
			"name", "string", "min x",
		}, []string{"code@1", "id@2", "name@3"}},
		{"unclosed quote in the middle", []string{
			"id", "number", "rnge 1 5",
			"code", "string", "req | regex '^a",
			"mail", "number", "email",
		}, []string{"id@1", "code@2", "mail@3"}},
		{"an unknown type hides no unknown rule", []string{
			"age", "nmber", "rnge 1 5 | min 1",
			"id", "number", "rnge 1 5",
		}, []string{"age@1", "age@1", "id@2"}},
		{"a million nested groups", deep, []string{"g@10001", "z@2000001"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := entity.NewRegistry().Expose("e", tt.decl...)
			var list dsl.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %T is not a dsl.ErrorList: %v", err, err)
			}
			var fields []string
			for _, e := range list {
				fields = append(fields, fmt.Sprintf("%s@%d", e.Field, e.Pos.Triple))
			}
			if diff := cmp.Diff(tt.want, fields); diff != "" {
				t.Errorf("errors (-want +got):\n%s\n%v", diff, err)
			}
			defer func() {
				p := fmt.Sprint(recover())
				for _, e := range list {
					if !strings.Contains(p, e.Error()) {
						t.Errorf("MustExpose panic %q lacks %q", p, e.Error())
					}
				}
			}()
			entity.NewRegistry().MustExpose("e", tt.decl...)
		})
	}
}

// TestCheck: Check lists every $ref that names no entity, at once.
func TestCheck(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.Verify(); err != nil {
		t.Errorf("empty registry: Check = %v", err)
	}
	expose(t, reg, "a",
		"x", "$missing1", "",
		"g", "{", "",
		"y", "$missing2", "",
		"g", "}", "",
	)
	expose(t, reg, "b",
		"z", "$a", "",
		"w", "$missing1", "",
	)
	err := reg.Verify()
	var list dsl.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("Check = %v (%T), want a dsl.ErrorList", err, err)
	}
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	want := []string{
		`dsl: entity "a", field "x" (triple 1, type): $missing1 names no entity`,
		`dsl: entity "a", field "y" (triple 3, type): $missing2 names no entity`,
		`dsl: entity "b", field "w" (triple 2, type): $missing1 names no entity`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Check (-want +got):\n%s", diff)
	}

	// Making an entity that reaches a missing one fails with
	// ErrUnknownEntity; declaring it fixes both.
	_, err = reg.Lookup("b").MakeJSON(map[string]any{})
	if !errors.Is(err, entity.ErrUnknownEntity) {
		t.Errorf("MakeJSON with a missing $ref: %v, want ErrUnknownEntity", err)
	}
	expose(t, reg, "missing1", "n", "number", "")
	expose(t, reg, "missing2", "s", "string", "")
	if err := reg.Verify(); err != nil {
		t.Errorf("after declaring: Check = %v", err)
	}
	out, _ := mustMake(t, reg.Lookup("b"), map[string]any{"z": map[string]any{"x": map[string]any{"n": "1"}, "y": map[string]any{"s": 2}}})
	if want := `{"z":{"x":{"n":1},"g":{"y":{"s":"2"}}},"w":null}`; string(out) != want {
		t.Errorf("got %s, want %s", out, want)
	}
}

// TestForwardReference: a $ref may name an entity declared later.
func TestForwardReference(t *testing.T) {
	reg := entity.NewRegistry()
	users := expose(t, reg, "users",
		"offset", "number", "default 0",
		"limit", "number", "default 0",
		"list", "$user", "",
	)
	reg.MustExpose("user",
		"id", "number", "num | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown'",
	)
	if err := reg.Verify(); err != nil {
		t.Fatal(err)
	}
	out, _ := mustMake(t, users, seedUsers())
	if string(out) != seedJSON {
		t.Errorf("got  %s\nwant %s", out, seedJSON)
	}
}

// A bare default on a $ref makes its entity from an empty input: Check
// reports the ones that would fail on every call (references may point
// forward, so Expose cannot).
func TestCheckBareDefaultThatFails(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "order", "card", "$card", "default", "ok", "$fine", "default")
	expose(t, reg, "card", "number", "string", "req")
	expose(t, reg, "fine", "number", "string", "req | default 'x'")
	err := reg.Verify()
	want := `dsl: entity "order", field "card" (triple 1, rules): its bare default makes $card from an empty input, which fails: number: is required`
	if err == nil || err.Error() != want {
		t.Errorf("Check = %v\nwant %s", err, want)
	}
}

// anyOutcome is the want of a declaration that may compile or not: it
// must only not panic.
const anyOutcome = "\x00any"

// TestDeclErrorsHostile: hostile and odd declarations are declaration
// errors that name what is wrong, or compile; none panics.
func TestDeclErrorsHostile(t *testing.T) {
	cases := []struct {
		name string
		decl []string
		want string // a substring of the error; "" for success; anyOutcome
	}{
		{"Compile panics", []string{"v", "string", "hxcboom"}, `hxcboom: panic while compiling`},
		{"Compile panics with an error", []string{"v", "string", "hxcboomerr 1"}, `hxcboomerr`},
		{"Compile returns no Checker", []string{"v", "string", "hxcnil"}, `hxcnil`},
		{"regex of 1025 bytes", []string{"v", "string", "regex '" + strings.Repeat("a", 1025) + "'"}, "limit of 1024"},
		{"regex of 1024 bytes", []string{"v", "string", "regex '" + strings.Repeat("a", 1024) + "'"}, ""},
		{"regex with nested repetition", []string{"v", "string", "regex 'a{1000}{1000}'"}, "regex"},
		{"regex repeating past RE2's limit", []string{"v", "string", "regex '(a{1000}){1000}'"}, "regex"},
		{"regex with a backreference", []string{"v", "string", `regex '(a)\1'`}, "regex"},
		{"unclosed quote", []string{"v", "string", "regex '^a"}, "quote"},
		{"10 000 rules", []string{"v", "string", strings.Repeat("min 1 | ", 9999) + "max 5"}, ""},
		{"10 000 empty rules", []string{"v", "string", strings.Repeat("|", 10000)}, "empty"},
		{"a 1 MB field name", []string{strings.Repeat("n", 1<<20), "string", ""}, ""},
		{"NUL in a field name", []string{"a\x00b", "string", ""}, ""},
		{"invalid UTF-8 in a field name", []string{"a\xffb", "string", ""}, ""},
		{"NaN default on float", []string{"v", "float", "default NaN"}, "not a valid float"},
		{"Inf default on float", []string{"v", "float", "default 1e400"}, "not a valid float"},
		{"NaN default on number", []string{"v", "number", "default NaN"}, "not a valid number"},
		{"deep JSON default on none", []string{"v", "none", "default " + strings.Repeat("[", 100) + strings.Repeat("]", 100)}, "default"},
		{"default past MaxInt64", []string{"v", "number", "default 9223372036854775808"}, "not a valid number"},
		{"range with NaN", []string{"v", "number", "range NaN 1"}, "range"},
		{"min with Inf", []string{"v", "string", "min Inf"}, "min"},
		{"min 1e400", []string{"v", "string", "min 1e400"}, "min"},
		{"10 000 unclosed groups", nestedGroups(10000, false), "{"},
		{"10 000 stray closes", func() []string {
			d := []string{"v", "string", ""}
			for range 10000 {
				d = append(d, "g", "}", "")
			}
			return d
		}(), "}"},
		{"10 000 nested groups", nestedGroups(10000, true), ""},
		{"rename to a quote and U+2028", []string{"v", "string", `rename '"` + "\u2028'"}, ""},
		{"a $ref named with a quote", []string{"v", `$a"b`, ""}, ""},
		{"triples not a multiple of three", []string{"v", "string"}, "not a whole triple"},
		// Odd declarations: an error or an entity, never a panic.
		{"odd 0", []string(nil), anyOutcome},
		{"odd 1", []string{}, anyOutcome},
		{"odd 2", []string{"", "", ""}, anyOutcome},
		{"odd 3", []string{"}", "}", "}"}, anyOutcome},
		{"odd 4", []string{"{", "{", "{"}, anyOutcome},
		{"odd 5", []string{"$", "$", "$"}, anyOutcome},
		{"odd 6", []string{"a", "string", "|"}, anyOutcome},
		{"odd 7", []string{"a", "string", "||||"}, anyOutcome},
		{"odd 8", []string{"a", "string", "'"}, anyOutcome},
		{"odd 9", []string{"a", "string", `"`}, anyOutcome},
		{"odd 10", []string{"a", "string", "default"}, anyOutcome},
		{"odd 11", []string{"a", "string", "regex"}, anyOutcome},
		{"odd 12", []string{"a", "string", "regex ''"}, anyOutcome},
		{"odd 13", []string{"a", "none", "default {"}, anyOutcome},
		{"odd 14", []string{"a", "list", "default [1,"}, anyOutcome},
		{"odd 15", []string{"a", "object", "default {}"}, anyOutcome},
		{"odd 16", []string{"a", "list", "default []"}, anyOutcome},
		{"odd 17", []string{"a", "string", "min 1e400"}, anyOutcome},
		{"odd 18", []string{"a", "string", "min NaN"}, anyOutcome},
		{"odd 19", []string{"a", "number", "range -1e400 1e400"}, anyOutcome},
		{"odd 20", []string{"a", "\x00", "\xff"}, anyOutcome},
		{"odd 21", []string{"\xff", "string", "rename \xff"}, anyOutcome},
		{"odd 22", []string{"g", "{", "", "h", "{", "", "i", "{", ""}, anyOutcome},
		{"odd 23", []string{"a", "$a", "default | req"}, anyOutcome},
	}
	reg := entity.NewRegistry()
	for _, d := range []rules.Def{
		{Name: "hxcboom", Compile: func([]string, rules.Kind) (rules.Checker, error) { panic("hxcboom compiled") }},
		{Name: "hxcboomerr", MinArgs: 1, MaxArgs: 1, Compile: func(a []string, _ rules.Kind) (rules.Checker, error) {
			panic(fmt.Errorf("bad arg %s", a[0]))
		}},
		{Name: "hxcnil", Compile: func([]string, rules.Kind) (rules.Checker, error) { return nil, nil }},
	} {
		if err := reg.RegisterRule(d); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var e *entity.Entity
			var err error
			noPanic(t, "Expose", func() { e, err = reg.Expose("hostile", c.decl...) })
			if c.want == anyOutcome {
				if err == nil {
					noPanic(t, "MakeJSON", func() {
						if out, merr := e.MakeJSON(map[string]any{"v": "x"}); merr == nil && !json.Valid(out) {
							t.Errorf("invalid JSON %s", clip(string(out)))
						}
					})
				}
				return
			}
			if c.want == "" {
				if err != nil {
					t.Fatalf("Expose: %.500v", err)
				}
				noPanic(t, "MakeJSON", func() {
					out, merr := e.MakeJSON(map[string]any{"v": "x"})
					if merr == nil && !json.Valid(out) {
						t.Errorf("invalid JSON %s", clip(string(out)))
					}
				})
				return
			}
			if err == nil {
				t.Fatalf("Expose succeeded, want an error holding %q", c.want)
			}
			if e != nil {
				t.Errorf("Expose failed and returned an entity")
			}
			var l dsl.ErrorList
			if !errors.As(err, &l) || len(l) == 0 {
				t.Errorf("error %T is not a dsl.ErrorList", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %s\nwant it to hold %q", clip(err.Error()), c.want)
			}
		})
	}
}

// nestedGroups declares n nested groups around one field, closed or not.
func nestedGroups(n int, closed bool) []string {
	var d []string
	for range n {
		d = append(d, "g", "{", "")
	}
	d = append(d, "v", "string", "")
	if closed {
		for range n {
			d = append(d, "g", "}", "")
		}
	}
	return d
}

// Check makes each bare-default target from {} once, under a small output
// limit, so that a chain of bare defaults that doubles at every reference
// is reported, not run for minutes.
func TestCheckBareDefaultChain(t *testing.T) {
	reg := entity.NewRegistry()
	for i := range 40 {
		next := fmt.Sprintf("$e%d", i+1)
		expose(t, reg, fmt.Sprintf("e%d", i), "a", next, "default", "b", next, "default")
	}
	expose(t, reg, "e40", "z", "number", "default 1")
	var err error
	alloc, _ := allocated(func() { err = reg.Verify() })
	var list dsl.ErrorList
	if !errors.As(err, &list) || len(list) == 0 || !strings.Contains(list[0].Error(), "writes more than 1048576 bytes") {
		t.Fatalf("Check = %v, want the chains reported", err)
	}
	if alloc > 200<<20 {
		t.Errorf("Check allocated %d bytes", alloc)
	}
}

// richDeclErrorTests are the misuses of the richer rules: in, len,
// the transforms, typed lists, each and format.
var richDeclErrorTests = []struct {
	name string
	decl []string
	want string
}{
	{"in without values", []string{"role", "string", "in"},
		"dsl: entity \"e\", field \"role\" (triple 1, rules): rule \"in\" takes at least 1 argument, got 0\n    in\n    ^"},
	{"in with a word on a number field", []string{"n", "number", "req | in 1 two"},
		"dsl: entity \"e\", field \"n\" (triple 1, rules): in: value \"two\" is not an integer, as a number field holds\n    req | in 1 two\n          ^"},
	{"in with a fraction on a number field", []string{"n", "number", "in 1.5"},
		"dsl: entity \"e\", field \"n\" (triple 1, rules): in: value \"1.5\" is not an integer, as a number field holds\n    in 1.5\n    ^"},
	{"in on a list", []string{"l", "list", "in a"},
		"dsl: entity \"e\", field \"l\" (triple 1, rules): rule \"in\" cannot apply to a list field\n    in a\n    ^"},
	{"a default not in", []string{"role", "string", "in a b | default c"},
		"dsl: entity \"e\", field \"role\" (triple 1, rules): the default fails rule \"in\": must be one of \"a\", \"b\"\n    in a b | default c\n                     ^"},
	{"len without argument", []string{"code", "string", "len"},
		"dsl: entity \"e\", field \"code\" (triple 1, rules): rule \"len\" takes 1 argument, got 0\n    len\n    ^"},
	{"len negative", []string{"code", "string", "len -1"},
		"dsl: entity \"e\", field \"code\" (triple 1, rules): len: argument \"-1\" is not a whole number of 0 or more\n    len -1\n    ^"},
	{"len on a number", []string{"n", "number", "len 2"},
		"dsl: entity \"e\", field \"n\" (triple 1, rules): rule \"len\" cannot apply to a number field\n    len 2\n    ^"},
	{"trim with an argument", []string{"s", "string", "trim x"},
		"dsl: entity \"e\", field \"s\" (triple 1, rules): rule \"trim\" takes 0 arguments, got 1\n    trim x\n    ^"},
	{"lower on a number", []string{"n", "number", "lower"},
		"dsl: entity \"e\", field \"n\" (triple 1, rules): rule \"lower\" cannot apply to a number field\n    lower\n    ^"},
	{"upper on a reference", []string{"u", "$u", "upper"},
		"dsl: entity \"e\", field \"u\" (triple 1, rules): rule \"upper\" cannot apply to a reference ($u): a reference takes only req, default, secret, omitnil, merge, rename, msg, lazy, if, unless, since, until, omitempty, readonly, writeonly, from and doc\n    upper\n    ^"},
	{"a transformed default that fails", []string{"s", "string", "upper | in a b | default a"},
		"dsl: entity \"e\", field \"s\" (triple 1, rules): the default fails rule \"in\": must be one of \"a\", \"b\"\n    upper | in a b | default a\n                             ^"},
	{"each on a number", []string{"n", "number", "each 'min 1'"},
		"dsl: entity \"e\", field \"n\" (triple 1, rules): each applies to a typed list ([]string, []number…), and \"n\" is a number\n    each 'min 1'\n    ^"},
	{"each on a plain list", []string{"l", "list", "req | each 'min 1'"},
		"dsl: entity \"e\", field \"l\" (triple 1, rules): each applies to a typed list ([]string, []number…), and \"l\" is a list\n    req | each 'min 1'\n          ^"},
	{"each with a directive", []string{"tags", "[]string", "each 'min 1 | req'"},
		"dsl: entity \"e\", field \"tags\" (triple 1, rules): each takes the rules and format of the elements, and \"req\" is the field's own: write it outside each\n    each 'min 1 | req'\n                  ^"},
	{"each with an unknown rule", []string{"tags", "[]string", "each 'min 1 | mx 3'"},
		"dsl: entity \"e\", field \"tags\" (triple 1, rules): unknown rule \"mx\" (did you mean \"max\"?)\n    each 'min 1 | mx 3'\n                  ^"},
	{"each in double quotes, a rule misused", []string{"tags", "[]string", "each \"in 'a' | lower 1\""},
		"dsl: entity \"e\", field \"tags\" (triple 1, rules): rule \"lower\" takes 0 arguments, got 1\n    each \"in 'a' | lower 1\"\n                   ^"},
	{"each without rules", []string{"tags", "[]string", "each"},
		"dsl: entity \"e\", field \"tags\" (triple 1, rules): rule \"each\" takes one argument, the rules of every element: each 'min 1 | max 20'\n    each\n    ^"},
	{"each with a syntax error", []string{"tags", "[]string", "each 'min 1 |'"},
		"dsl: entity \"e\", field \"tags\" (triple 1, rules): each: empty rule after \"|\"\n    each 'min 1 |'\n                ^"},
	{"a misspelt directive on a reference", []string{"u", "$u", "rq"},
		"dsl: entity \"e\", field \"u\" (triple 1, rules): unknown rule \"rq\" (did you mean \"req\"?)\n    rq\n    ^"},
	{"an unknown rule on a group", []string{"g", "{", "colour", "g", "}", ""},
		"dsl: entity \"e\", field \"g\" (triple 1, rules): unknown rule \"colour\": a group takes only req, rename, msg, lazy, if, unless, since, until, omitempty, readonly, writeonly, from and doc\n    colour\n    ^"},
	{"each on a reference", []string{"u", "$u", "each 'min 1'"},
		"dsl: entity \"e\", field \"u\" (triple 1, rules): rule \"each\" cannot apply to a reference ($u): a reference takes only req, default, secret, omitnil, merge, rename, msg, lazy, if, unless, since, until, omitempty, readonly, writeonly, from and doc\n    each 'min 1'\n    ^"},
	{"each with a rule of another type", []string{"ns", "[]int", "each 'email'"},
		"dsl: entity \"e\", field \"ns\" (triple 1, rules): rule \"email\" cannot apply to a number field\n    each 'email'\n          ^"},
	{"in on a typed list", []string{"tags", "[]string", "in a b"},
		"dsl: entity \"e\", field \"tags\" (triple 1, rules): rule \"in\" cannot apply to a list field\n    in a b\n    ^"},
	{"a typed list's default that is no list", []string{"tags", "[]string", "default abc"},
		"dsl: entity \"e\", field \"tags\" (triple 1, rules): default \"abc\" is not a valid list: write a JSON array\n    default abc\n            ^"},
	{"a typed list's default with an element that does not convert", []string{"ns", "[]int", "default '[1,\"x\"]'"},
		"dsl: entity \"e\", field \"ns\" (triple 1, rules): default \"[1,\\\"x\\\"]\": element 1 is not a valid number\n    default '[1,\"x\"]'\n            ^"},
	{"a typed list's default with an element each rejects", []string{"tags", "[]string", "each 'max 1' | default '[\"ab\"]'"},
		"dsl: entity \"e\", field \"tags\" (triple 1, rules): default \"[\\\"ab\\\"]\": element 0 fails rule \"max\": must be at most 1 character long\n    each 'max 1' | default '[\"ab\"]'\n                           ^"},
	{"a typed list's default the list's rules reject", []string{"tags", "[]string", "min 2 | default '[\"ab\"]'"},
		"dsl: entity \"e\", field \"tags\" (triple 1, rules): the default fails rule \"min\": must have at least 2 elements\n    min 2 | default '[\"ab\"]'\n                    ^"},
	{"format unix on a string", []string{"s", "string", "format unix"},
		"dsl: entity \"e\", field \"s\" (triple 1, rules): format \"unix\" cannot apply to a string field\n    format unix\n           ^"},
	{"format fixed on a date", []string{"d", "date", "req | format fixed 2"},
		"dsl: entity \"e\", field \"d\" (triple 1, rules): format \"fixed\" cannot apply to a date field\n    req | format fixed 2\n                 ^"},
	{"format without a name", []string{"d", "date", "format"},
		"dsl: entity \"e\", field \"d\" (triple 1, rules): rule \"format\" takes the name of a format: date, fixed n, rfc1123, unix, unixms, a layout in quotes ('2006-01-02 15:04'), or a registered one\n    format\n    ^"},
	{"format of an unknown name", []string{"d", "date", "format epoch"},
		"dsl: entity \"e\", field \"d\" (triple 1, rules): unknown format \"epoch\" (want date, fixed n, rfc1123, unix, unixms, a layout in quotes, or a registered one)\n    format epoch\n           ^"},
	{"format of a layout without elements", []string{"d", "date", "format 'today'"},
		"dsl: entity \"e\", field \"d\" (triple 1, rules): format today: layout \"today\" holds no element of a date or time (2006, 01, 02, 15, 04, 05…)\n    format 'today'\n           ^"},
	{"format fixed without decimals", []string{"f", "float", "format fixed"},
		"dsl: entity \"e\", field \"f\" (triple 1, rules): format fixed: takes 1 argument, the number of decimals, got 0\n    format fixed\n           ^"},
	{"format fixed 18", []string{"f", "float", "format fixed 18"},
		"dsl: entity \"e\", field \"f\" (triple 1, rules): format fixed: the number of decimals \"18\" is not a whole number from 0 to 17\n    format fixed 18\n           ^"},
	{"format unix with an argument", []string{"d", "date", "format unix ms"},
		"dsl: entity \"e\", field \"d\" (triple 1, rules): format unix: takes no arguments, got 1\n    format unix ms\n           ^"},
	{"format on a group", []string{"g", "{", "format date", "g", "}", ""},
		"dsl: entity \"e\", field \"g\" (triple 1, rules): rule \"format\" cannot apply to a group: a group takes only req, rename, msg, lazy, if, unless, since, until, omitempty, readonly, writeonly, from and doc\n    format date\n    ^"},
	{"format on a reference", []string{"u", "$u", "format date"},
		"dsl: entity \"e\", field \"u\" (triple 1, rules): rule \"format\" cannot apply to a reference ($u): a reference takes only req, default, secret, omitnil, merge, rename, msg, lazy, if, unless, since, until, omitempty, readonly, writeonly, from and doc\n    format date\n    ^"},
	{"format in each on the wrong type", []string{"ns", "[]int", "each 'format unix'"},
		"dsl: entity \"e\", field \"ns\" (triple 1, rules): format \"unix\" cannot apply to a number field\n    each 'format unix'\n                 ^"},
	{"format on a typed list", []string{"ds", "[]date", "format unix"},
		"dsl: entity \"e\", field \"ds\" (triple 1, rules): format applies to the elements of a typed list: write each 'format unix'\n    format unix\n    ^"},
	{"req in each", []string{"ds", "[]date", "each 'format unix | req'"},
		"dsl: entity \"e\", field \"ds\" (triple 1, rules): each takes the rules and format of the elements, and \"req\" is the field's own: write it outside each\n    each 'format unix | req'\n                        ^"},
}

// TestMustExposeReportsEveryError: Expose's error and MustExpose's panic
// hold every error of the declaration, in triple order, with the names
// misspelt ones were likely meant to be.
func TestMustExposeReportsEveryError(t *testing.T) {
	decl := []string{
		"id", "nmber", "rnge 1 5",
		"note", "string", "rquired | trm",
		"when", "date", "format unx",
		"tags", "[]strng", "",
		"payer", "$user", "rq",
		"g", "{", "renam x",
		"g", "}", "",
		"code", "string", "msg 'unclosed",
	}
	want := []string{
		`dsl: entity "e", field "id" (triple 1, type): unknown type "nmber" (did you mean "number"?)`,
		`dsl: entity "e", field "id" (triple 1, rules): unknown rule "rnge" (did you mean "range"?)`,
		`dsl: entity "e", field "note" (triple 2, rules): unknown rule "rquired" (did you mean "required"?)`,
		`dsl: entity "e", field "note" (triple 2, rules): unknown rule "trm" (did you mean "trim"?)`,
		`dsl: entity "e", field "when" (triple 3, rules): unknown format "unx" (did you mean "unix"?)`,
		`dsl: entity "e", field "tags" (triple 4, type): unknown type "[]strng" (did you mean "[]string"?)`,
		`dsl: entity "e", field "payer" (triple 5, rules): unknown rule "rq" (did you mean "req"?)`,
		`dsl: entity "e", field "g" (triple 6, rules): unknown rule "renam" (did you mean "rename"?)`,
		`dsl: entity "e", field "code" (triple 8, rules): unclosed quote '`,
	}
	_, err := entity.NewRegistry().Expose("e", decl...)
	var list dsl.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("Expose = %v, want a dsl.ErrorList", err)
	}
	var got []string
	for _, e := range list {
		got = append(got, strings.SplitN(e.Error(), "\n", 2)[0])
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	defer func() {
		p := fmt.Sprint(recover())
		for _, e := range list {
			if !strings.Contains(p, e.Error()) {
				t.Errorf("MustExpose's panic lacks %q:\n%s", e.Error(), p)
			}
		}
	}()
	entity.NewRegistry().MustExpose("e", decl...)
}
