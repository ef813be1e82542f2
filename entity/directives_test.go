package entity_test

import "testing"

// TestDirectivesCombined: omitnil, omitempty, readonly, writeonly, from
// and merge, each with rename, default, req, groups, $refs, lists, typed
// lists, the three input kinds and strict input.
func TestDirectivesCombined(t *testing.T) {
	type addr struct {
		City string `json:"city"`
	}
	type in struct {
		A    *string `json:"a"`
		N    int     `json:"n"`
		Addr *addr   `json:"addr"`
		Tags []int   `json:"tags,omitempty"`
	}
	s := func(v string) *string { return &v }
	refs := map[string][]string{
		"addr":  {"city", "string", "req"},
		"point": {"x", "number", "", "y", "number", ""},
	}
	runDeclCases(t, refs, []declCase{
		{name: "omitnil with rename", decl: []string{"a", "string", "omitnil | rename 'b'", "n", "number", ""},
			in: `{"n":1}`, st: func() any { return in{N: 1} }, out: `{"n":1}`},
		{name: "omitnil with a default writes the default", decl: []string{"a", "string", "omitnil | default 'd'"},
			in: `{}`, st: func() any { return in{} }, out: `{"a":"d"}`},
		{name: "omitnil with req still fails", decl: []string{"a", "string", "omitnil | req"},
			in: `{}`, st: func() any { return in{} }, fails: []string{"a required"}},
		{name: "omitempty on a number zero, strict", decl: []string{"n", "number", "omitempty", "a", "string", ""},
			in: `{"n":0,"a":"x"}`, st: func() any { return in{A: s("x")} }, strict: true, out: `{"a":"x"}`},
		{name: "omitempty on an empty typed list", decl: []string{"tags", "[]number", "omitempty", "n", "number", ""},
			in: `{"tags":[],"n":2}`, st: func() any { return in{N: 2} }, out: `{"n":2}`},
		{name: "omitempty on a group with nothing in it", decl: []string{"g", "{", "omitempty", "a", "string", "omitnil", "g", "}", "", "n", "number", ""},
			in: `{"n":3}`, st: func() any { return in{N: 3} }, out: `{"n":3}`},
		{name: "omitnil on a $ref", decl: []string{"addr", "$addr", "omitnil", "n", "number", ""},
			in: `{"n":4}`, st: func() any { return in{N: 4} }, out: `{"n":4}`},
		{name: "omitnil on a $ref that is there", decl: []string{"addr", "$addr", "omitnil"},
			in: `{"addr":{"city":"c"}}`, st: func() any { return in{Addr: &addr{City: "c"}} }, out: `{"addr":{"city":"c"}}`},
		{name: "writeonly is never written, even req", decl: []string{"a", "string", "writeonly | req", "n", "number", ""},
			in: `{"a":"secret","n":5}`, st: func() any { return in{A: s("secret"), N: 5} }, out: `{"n":5}`},
		{name: "readonly is written", decl: []string{"a", "string", "readonly | rename 'id'"},
			in: `{"a":"x"}`, st: func() any { return in{A: s("x")} }, out: `{"id":"x"}`},
		{name: "from into a $ref's object", decl: []string{"city", "string", "from 'addr.city' | req"},
			in: `{"addr":{"city":"Kyoto"}}`, st: func() any { return in{Addr: &addr{City: "Kyoto"}} }, out: `{"city":"Kyoto"}`},
		{name: "from fails at its path, strict", decl: []string{"city", "number", "from 'addr.city'"},
			in: `{"addr":{"city":"Kyoto"}}`, st: func() any { return in{Addr: &addr{City: "Kyoto"}} }, strict: true, fails: []string{"addr.city type"}},
		{name: "from into a list", decl: []string{"first", "number", "from 'tags.0'", "third", "number", "from 'tags.2' | default 9"},
			in: `{"tags":[7,8]}`, st: func() any { return in{Tags: []int{7, 8}} }, out: `{"first":7,"third":9}`},
		{name: "from on a $ref", decl: []string{"home", "$addr", "from 'addr'"},
			in: `{"addr":{"city":"c"}}`, st: func() any { return in{Addr: &addr{City: "c"}} }, out: `{"home":{"city":"c"}}`},
		{name: "from on a group", decl: []string{"g", "{", "from 'addr'", "city", "string", "req", "g", "}", ""},
			in: `{"addr":{}}`, fails: []string{"addr.city required"}},
		{name: "merge with rename and req", decl: []string{"addr", "$addr", "merge | req", "n", "number", "rename 'count'"},
			in: `{"addr":{"city":"c"},"n":1}`, st: func() any { return in{Addr: &addr{City: "c"}, N: 1} }, out: `{"city":"c","count":1}`},
		{name: "merge: req of the merged entity, at the input path", decl: []string{"addr", "$addr", "merge"},
			in: `{"addr":{}}`, fails: []string{"addr.city required"}},
		{name: "merge, strict: a list is a type error", decl: []string{"tags", "$point", "merge"},
			in: `{"tags":[1]}`, st: func() any { return in{Tags: []int{1}} }, strict: true, fails: []string{"tags type"}},
	})
}
