package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A selection's pruned plan (compile_prune.go) must write what its mask
// does (appendShaped): the same bytes, the same failures, whatever the
// input. The mask is the reference here: each case is walked both ways.

// pruneEnv declares entities with every node kind a selection meets:
// groups, references, lists of them, a recursive one, lazy, conditional
// and versioned fields, an omission, a merge, a union, a from path, a
// rename, a cross-field rule, defaults and a typed list.
func pruneEnv(t testing.TB) *Entity {
	env := newTestEnv()
	if err := env.DeclareFlags("admin", "brief"); err != nil {
		t.Fatal(err)
	}
	expose(t, env, "card", "number", "string", "min 4", "holder", "string", "lazy")
	expose(t, env, "invoice", "iban", "string", "")
	expose(t, env, "addr", "city", "string", "", "zip", "string", "unless 'brief'", "code", "string", "lazy")
	expose(t, env, "place", "town", "string", "", "post", "string", "unless 'brief'")
	expose(t, env, "password", "password", "string", "writeonly | min 8")
	expose(t, env, "lazyonly", "s", "string", "lazy")
	expose(t, env, "node", "id", "number", "", "label", "string", "if 'admin'", "kids", "$node", "")
	expose(t, env, "user",
		"id", "number", "num | rename 'number' | unless 'brief'",
		"name", "string", "req | min 2",
		"details", "{", "",
		"age", "number", "num | unless 'brief'",
		"mail", "string", "email",
		"deep", "{", "",
		"x", "number", "lazy",
		"y", "string", "omitempty",
		"deep", "}", "",
		"details", "}", "",
		"code", "string", "default 'unknown' | since 'v2'",
		"code", "number", "until 'v2'",
		"score", "number", "if 'admin'",
		"tags", "[]string", "each 'min 2'",
		"home", "$addr", "",
		"work", "$place", "merge",
		"pay", "$card|$invoice", "by 'method'",
		"city", "string", "from 'home.city' | lazy",
		"note", "string", "omitnil",
		"alt", "string", "required_with 'note'",
		"tree", "$node", "",
		"auth", "$password", "merge | req", // a merged entity that writes nothing: judged all the same
		"lo", "$lazyonly", "merge",
		"b2", "string", "required_with 'lo'",
	)
	return expose(t, env, "users", "offset", "number", "default 0", "limit", "number", "unless 'brief'", "list", "$user", "",
		"auth", "$password", "merge | req", "lo", "$lazyonly", "merge", "b2", "string", "required_with 'lo'")
}

// pruneInputs are inputs of users: maps (valid and failing), raw JSON,
// a struct.
func pruneInputs() []any {
	user := func(i int) map[string]any {
		return map[string]any{
			"id": i, "name": fmt.Sprintf("user %d", i), "details": map[string]any{"age": 30 + i, "mail": "a@b.co", "deep": map[string]any{"x": 1, "y": ""}},
			"age": 20 + i, "mail": "u@b.co", "x": i, "y": "", "code": "c", "score": 7, "tags": []any{"ab", "cd"}, "home": map[string]any{"city": "Oslo", "zip": "01", "code": "x"},
			"city": "Bergen", "town": "Bergen", "post": "02", "pay": map[string]any{"method": "card", "number": "4242", "holder": "A"},
			"note": "n", "alt": "a", "tree": map[string]any{"id": 1, "label": "root", "kids": []any{map[string]any{"id": 2, "label": "kid"}}},
		}
	}
	bad := user(9)
	bad["name"] = "x"                                             // min 2
	bad["mail"] = "nope"                                          // email
	bad["tags"] = []any{"a"}                                      // each
	bad["pay"] = map[string]any{"method": "card", "number": "42"} // min 4
	delete(bad, "alt")                                            // required_with
	good := map[string]any{"offset": 1, "limit": 2, "list": []any{user(1), user(2)}}
	js, err := json.Marshal(good)
	if err != nil {
		panic(err)
	}
	type deep struct {
		X int    `json:"x"`
		Y string `json:"y"`
	}
	type details struct {
		Age  int    `json:"age"`
		Mail string `json:"mail"`
		Deep deep   `json:"deep"`
	}
	type user1 struct {
		ID      int      `json:"id"`
		Name    string   `json:"name"`
		Details details  `json:"details"`
		Score   int      `json:"score"`
		Tags    []string `json:"tags"`
		Note    *string  `json:"note"`
	}
	type users struct {
		Offset int     `json:"offset"`
		Limit  int     `json:"limit"`
		List   []user1 `json:"list"`
	}
	st := users{Offset: 3, List: []user1{{ID: 1, Name: "ann", Details: details{Age: 3, Mail: "a@b.co"}, Tags: []string{"xy"}}, {Name: "b"}}}
	return []any{good, map[string]any{"list": []any{bad, user(3)}}, js, []byte(`[{"list":[{"name":"ab"}]},{"offset":2}]`), st, []any{good}, map[string]any{}}
}

// pruneOptions are the calls' shaping options.
func pruneOptions() [][]Option {
	var list [][]Option
	for _, spec := range []string{
		"offset,list(name,details(mail))", "list", "list(*)", "list(details(deep(x)))", "list(home(code),town)",
		"list(tree(kids(kids(id))))", "list(pay,city)", "list(code,score,number)", "list(note)", "list(alt,note)", "*,list(tags)",
		"list(pay(holder))", "list(post)", "limit",
	} {
		list = append(list, []Option{{Kind: OptSelect, Str: spec}})
	}
	list = append(list,
		[]Option{{Kind: OptOnly, List: []string{"offset", "list.name", "list.details.mail"}}},
		[]Option{{Kind: OptExcept, List: []string{"limit", "list.number", "list.details.age", "list.code"}}},
		[]Option{{Kind: OptExcept, List: []string{"list.post", "list.home"}}},
		[]Option{{Kind: OptWith, List: []string{"brief"}}},
		[]Option{{Kind: OptWith, List: []string{"admin"}}, {Kind: OptVersion, Str: "v1"}},
		[]Option{{Kind: OptVersion, Str: "v3"}},
	)
	var more [][]Option
	for _, o := range list[:6] {
		more = append(more, append(slices.Clip(o), Option{Kind: OptWith, List: []string{"brief", "admin"}}), append(slices.Clip(o), Option{Kind: OptVersion, Str: "v1"}))
	}
	return append(list, more...)
}

// walkBothWays makes v with e under o, pruned as a call is (when its
// selection can be) and with its mask, and reports what each wrote and
// failed. pruned says whether the call was pruned.
func walkBothWays(e *Entity, v any, list []Option) (got, want string, pruned bool) {
	o := Decode(false, list)
	walk := func(masked bool) string {
		var r run
		r.start(e, topAny, dirResponse, &o)
		if masked && r.pruned != nil {
			pruned = true
			r.mask, r.pruned = r.sel, nil
			if !slices.ContainsFunc(list, func(o Option) bool { return o.Kind == OptSelect || o.Kind == OptOnly || o.Kind == OptExcept }) {
				r.mask = nil // flags and a version alone: a call of no selection
			}
		}
		out := r.walkInto(nil, e, v)
		var b strings.Builder
		fmt.Fprintf(&b, "%s fatal=%v", out, r.fatal)
		for _, f := range r.errs {
			fmt.Fprintf(&b, " %s:%s", f.Path, f.Code)
		}
		return b.String()
	}
	got = walk(false)
	want = walk(true)
	return got, want, pruned
}

func TestPrunedPlanWritesAsTheMask(t *testing.T) {
	e := pruneEnv(t)
	opts, inputs := pruneOptions(), pruneInputs()
	npruned := 0
	for i, o := range opts {
		for j, v := range inputs {
			t.Run(fmt.Sprintf("options %d %v/input %d", i, o, j), func(t *testing.T) {
				got, want, pruned := walkBothWays(e, v, o)
				if pruned {
					npruned++
				}
				if got != want {
					t.Errorf("pruned:\n%s\nmasked:\n%s", got, want)
				}
			})
		}
	}
	if npruned < len(opts)*len(inputs)*3/4 {
		t.Errorf("%d of %d calls pruned: the pruner gives up too often", npruned, len(opts)*len(inputs))
	}
}

// TestPrunedPlanGivesUp: a selection of a union's variants or of a merged
// reference's fields is applied by its mask.
func TestPrunedPlanGivesUp(t *testing.T) {
	e := pruneEnv(t)
	for _, tc := range []struct {
		name, spec string
		pruned     bool
	}{
		{"plain", "list(name)", true},
		{"a union whole", "list(pay)", true},
		{"a union's variant's field", "list(pay(holder))", false},
		{"a merged reference whole", "list(*)", true},
		{"a from path", "list(city)", true},
		{"a merged reference's field", "list(town)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Decode(false, []Option{{Kind: OptSelect, Str: tc.spec}})
			var r run
			r.start(e, topAny, dirResponse, &o)
			if r.fatal != nil {
				t.Fatal(r.fatal)
			}
			if got := r.pruned != nil; got != tc.pruned {
				t.Errorf("pruned = %v, want %v", got, tc.pruned)
			}
		})
	}
}

func FuzzPrunedPlan(f *testing.F) {
	for _, o := range pruneOptions() {
		if o[0].Kind == OptSelect {
			f.Add(o[0].Str, uint8(0), uint8(0), uint8(0))
		}
	}
	f.Add("list(details(*))", uint8(1), uint8(2), uint8(1))
	e := pruneEnv(f)
	inputs := pruneInputs()
	f.Fuzz(func(t *testing.T, spec string, flags, ver, in uint8) {
		if len(spec) > 200 {
			return
		}
		list := []Option{{Kind: OptSelect, Str: spec}}
		switch flags % 4 {
		case 1:
			list = append(list, Option{Kind: OptWith, List: []string{"brief"}})
		case 2:
			list = append(list, Option{Kind: OptWith, List: []string{"admin"}})
		case 3:
			list = append(list, Option{Kind: OptWith, List: []string{"admin", "brief"}})
		}
		if ver%3 > 0 {
			list = append(list, Option{Kind: OptVersion, Str: fmt.Sprintf("v%d", ver%3*2-1)})
		}
		if got, want, _ := walkBothWays(e, inputs[int(in)%len(inputs)], list); got != want {
			t.Errorf("%v: pruned:\n%s\nmasked:\n%s", list, got, want)
		}
	})
}
