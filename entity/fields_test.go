package entity_test

import (
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
	"github.com/expose-go/expose/rules"
)

// ReadJSON reads a value's JSON back as its field holds it: the inverse of
// what Make writes, and what the test kit checks payloads with.
func TestFieldReadJSON(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "all",
		"s", "string", "", "n", "number", "", "f", "float", "", "b", "bool", "",
		"d", "date", "", "l", "list", "", "o", "object", "", "x", "none", "",
		"g", "{", "", "g", "}", "",
	)
	field := map[string]*entity.Field{}
	for _, f := range e.Fields() {
		field[f.Key] = f
	}
	cases := []struct {
		name, field, text string
		want              rules.Value
		why               string
		ok                bool
	}{
		{"string", "s", `"a\nb"`, rules.Value{Kind: rules.String, Str: "a\nb"}, "", true},
		{"string with white space", "s", " \"x\"\n", rules.Value{Kind: rules.String, Str: "x"}, "", true},
		{"a number on a string", "s", `12`, rules.Value{}, "", false},
		{"int", "n", `-12`, rules.Value{Kind: rules.Int, Int: -12}, "", true},
		{"int with a fraction", "n", `1.5`, rules.Value{}, ": not an integer", false},
		{"int out of range", "n", `9223372036854775808`, rules.Value{}, ": out of the int64 range", false},
		{"a string on an int", "n", `"1"`, rules.Value{}, "", false},
		{"float", "f", `1e3`, rules.Value{Kind: rules.Float, Float: 1000}, "", true},
		{"float out of range", "f", `1e400`, rules.Value{}, ": out of the float64 range", false},
		{"bool", "b", `true`, rules.Value{Kind: rules.Bool, Bool: true}, "", true},
		{"not a bool", "b", `1`, rules.Value{}, "", false},
		{"date", "d", `"2020-01-02T03:04:05+09:00"`, rules.Value{Kind: rules.Time, Time: time.Date(2020, 1, 1, 18, 4, 5, 0, time.UTC)}, "", true},
		{"not a date", "d", `"2020-01-02"`, rules.Value{}, ": not an RFC 3339 date", false},
		{"list", "l", `[1,"a"]`, rules.Value{Kind: rules.List, Len: 2, Any: []any{1.0, "a"}}, "", true},
		{"an object on a list", "l", `{}`, rules.Value{}, "", false},
		{"object", "o", `{"k":null}`, rules.Value{Kind: rules.Object, Len: 1, Any: map[string]any{"k": nil}}, "", true},
		{"none integer", "x", `7`, rules.Value{Kind: rules.Int, Int: 7, Any: 7.0}, "", true},
		{"none float", "x", `7.5`, rules.Value{Kind: rules.Float, Float: 7.5, Any: 7.5}, "", true},
		{"none string", "x", `"s"`, rules.Value{Kind: rules.String, Str: "s", Any: "s"}, "", true},
		{"none null", "x", `null`, rules.Value{}, "", true},
		{"a group is no value", "g", `{}`, rules.Value{}, "", false},
		{"empty text", "s", ``, rules.Value{}, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, why, ok := field[c.field].ReadJSON([]byte(c.text))
			if ok != c.ok || why != c.why {
				t.Fatalf("ReadJSON(%s) = %t %q, want %t %q", c.text, ok, why, c.ok, c.why)
			}
			if diff := cmp.Diff(c.want, v); ok && diff != "" {
				t.Errorf("ReadJSON(%s) (-want +got):\n%s", c.text, diff)
			}
		})
	}
}

// TestFieldsLinearInDepth: Fields and entitytest.Sample do work linear in
// the number of fields however deep groups nest (Fields once deep-copied
// each group's declaration at every level: 2.5 s at 4000 groups). Work is
// counted in allocations and bytes, not time: ten times the depth costs
// about ten times as much (a quadratic walk costs a hundred), and up to
// the 10 000 groups the DSL allows, a few allocations per field.
func TestFieldsLinearInDepth(t *testing.T) {
	const small, large = 1000, 10000 // large: dsl.MaxNesting
	reg := entity.NewRegistry()
	shallow := expose(t, reg, "shallow", nestedGroups(small, true)...)
	deep := expose(t, reg, "deep", nestedGroups(large, true)...)
	tests := []struct {
		name string
		run  func(e *entity.Entity)
	}{
		{"Fields", func(e *entity.Entity) { e.Fields() }},
		{"entitytest.Sample", func(e *entity.Entity) { entitytest.Sample(e) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			aSmall, bSmall := workOf(func() { tt.run(shallow) })
			aLarge, bLarge := workOf(func() { tt.run(deep) })
			t.Logf("%d groups: %.0f allocations, %.0f bytes; %d groups: %.0f allocations, %.0f bytes", small, aSmall, bSmall, large, aLarge, bLarge)
			fields := float64(large + 1)
			if perField := aLarge / fields; perField > 12 {
				t.Errorf("%d groups deep: %.1f allocations per field, want at most 12", large, perField)
			}
			if r := aLarge / aSmall; r > 15 {
				t.Errorf("allocations grow %.1f times for ten times the depth (%.0f, then %.0f): not linear", r, aSmall, aLarge)
			}
			if r := bLarge / bSmall; r > 15 {
				t.Errorf("bytes grow %.1f times for ten times the depth (%.0f, then %.0f): not linear", r, bSmall, bLarge)
			}
		})
	}
}

// workOf returns the allocations and bytes one call of f allocates.
func workOf(f func()) (allocs, bytes float64) {
	f() // warm up: caches, stacks
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs - before.Mallocs), float64(after.TotalAlloc - before.TotalAlloc)
}

// TestFieldUsesAreTheCompiledRules: Field.Uses holds each rule a field
// uses (checks and transforms, not directives), in order, with its
// definition as the registry had it when the field compiled and its
// arguments as written; a typed list's element rules are its Each's.
func TestFieldUsesAreTheCompiledRules(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "u",
		"name", "string", "req | trim | min 2 | rename 'n'",
		"age", "number", "num | range 0 150",
		"tags", "[]string", "max 3 | each 'lower | len 4'",
	)
	type use struct{ name, def, args string }
	uses := func(f *entity.Field) []use {
		var out []use
		for _, u := range f.Uses {
			out = append(out, use{u.Name, u.Def.Name, strings.Join(u.Args, ",")})
		}
		return out
	}
	fs := e.Fields()
	tests := []struct {
		name string
		got  []use
		want []use
	}{
		{"a string's checks and transforms, no directive", uses(fs[0]), []use{{"trim", "trim", ""}, {"min", "min", "2"}}},
		{"an implied rule (num of a number) is a use too", uses(fs[1]), []use{{"num", "num", ""}, {"range", "range", "0,150"}}},
		{"a typed list's own rules", uses(fs[2]), []use{{"max", "max", "3"}}},
		{"its elements' rules, on Each", uses(fs[2].Each), []use{{"lower", "lower", ""}, {"len", "len", "4"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !slices.Equal(tt.got, tt.want) {
				t.Errorf("Uses = %v, want %v", tt.got, tt.want)
			}
		})
	}
}
