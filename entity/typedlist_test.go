package entity_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
)

// Typed lists (entity/typedlist.go): []string, []number…, []$user, and
// each 'rules'.

type tagsStruct struct {
	Tags []string
	Ns   []int
	Us   []map[string]any
}

func TestTypedLists(t *testing.T) {
	refs := map[string][]string{"u": {"name", "string", "req"}, "v": {"tags", "[]string", "each 'max 1'"}}
	runDeclCases(t, refs, []declCase{
		{name: "strings", decl: []string{"Tags", "[]string", ""}, in: `{"Tags":["a","b"]}`,
			st: func() any { return tagsStruct{Tags: []string{"a", "b"}} }, out: `{"Tags":["a","b"]}`},
		{name: "elements converted", decl: []string{"Tags", "[]string", ""}, in: `{"Tags":["a",1,true,2.5]}`, out: `{"Tags":["a","1","true","2.5"]}`},
		{name: "an element that does not convert is null", decl: []string{"Tags", "[]string", ""}, in: `{"Tags":["a",{},[1],null]}`, out: `{"Tags":["a",null,null,null]}`},
		{name: "numbers", decl: []string{"Ns", "[]int", ""}, in: `{"Ns":[1,"2",3.7,"x"]}`, out: `{"Ns":[1,2,3,null]}`},
		{name: "numbers from a struct", decl: []string{"Ns", "[]number", ""}, in: `{"Ns":[1,2]}`,
			st: func() any { return tagsStruct{Ns: []int{1, 2}} }, out: `{"Ns":[1,2]}`},
		{name: "floats", decl: []string{"f", "[]float", ""}, in: `{"f":[1,"2.5"]}`, out: `{"f":[1,2.5]}`},
		{name: "bools", decl: []string{"b", "[]bool", ""}, in: `{"b":[true,"off",1,"x"]}`, out: `{"b":[true,false,true,null]}`},
		{name: "dates", decl: []string{"d", "[]date", ""}, in: `{"d":["2024-01-15",0]}`, out: `{"d":["2024-01-15T00:00:00Z","1970-01-01T00:00:00Z"]}`},
		{name: "empty list", decl: []string{"Tags", "[]string", ""}, in: `{"Tags":[]}`, out: `{"Tags":[]}`},
		{name: "an object is no list", decl: []string{"Tags", "[]string", ""}, in: `{"Tags":{"a":1}}`, out: `{"Tags":null}`},
		{name: "a string is no list", decl: []string{"Tags", "[]string", ""}, in: `{"Tags":"a"}`, out: `{"Tags":null}`},
		{name: "rules on the field judge the list", decl: []string{"Tags", "[]string", "min 1 | max 2"}, in: `{"Tags":[]}`,
			st: func() any { return tagsStruct{Tags: []string{}} }, fails: []string{"Tags min"}},
		{name: "max on the list", decl: []string{"Tags", "[]string", "max 2"}, in: `{"Tags":["a","b","c"]}`, fails: []string{"Tags max"}},
		{name: "len on the list", decl: []string{"Tags", "[]string", "len 2"}, in: `{"Tags":["a","b"]}`, out: `{"Tags":["a","b"]}`},
		{name: "each judges every element", decl: []string{"Tags", "[]string", "each 'min 1 | max 3'"}, in: `{"Tags":["a","","abcd","abc"]}`,
			st: func() any { return tagsStruct{Tags: []string{"a", "", "abcd", "abc"}} }, fails: []string{"Tags[1] min", "Tags[2] max"}},
		{name: "each with in on numbers", decl: []string{"Ns", "[]number", "each 'in 1 2'"}, in: `{"Ns":[1,"2",3]}`, fails: []string{"Ns[2] in"}},
		{name: "each transforms", decl: []string{"Tags", "[]string", "each 'trim | lower'"}, in: `{"Tags":[" A ","B"]}`,
			st: func() any { return tagsStruct{Tags: []string{" A ", "B"}} }, out: `{"Tags":["a","b"]}`},
		{name: "each skips null elements", decl: []string{"Tags", "[]string", "each 'min 1'"}, in: `{"Tags":[null,"a"]}`, out: `{"Tags":[null,"a"]}`},
		{name: "each and list rules", decl: []string{"Tags", "[]string", "min 3 | each 'len 1'"}, in: `{"Tags":["ab"]}`, fails: []string{"Tags min", "Tags[0] len"}},
		{name: "with rename", decl: []string{"Tags", "[]string", "rename t | each 'max 1'"}, in: `{"Tags":["a","bb"]}`, fails: []string{"Tags[1] max"}},
		{name: "renamed output", decl: []string{"Tags", "[]string", "rename t"}, in: `{"Tags":["a"]}`, out: `{"t":["a"]}`},
		{name: "bare default gives []", decl: []string{"Tags", "[]string", "default"}, in: `{}`, out: `{"Tags":[]}`},
		{name: "a default list", decl: []string{"Ns", "[]int", `default '[1,"2"]'`}, in: `{}`, out: `{"Ns":[1,2]}`},
		{name: "a default list transformed", decl: []string{"Tags", "[]string", `each 'upper' | default '["a"]'`}, in: `{"Tags":null}`, out: `{"Tags":["A"]}`},
		{name: "req", decl: []string{"Tags", "[]string", "req"}, in: `{}`, fails: []string{"Tags required"}},
		{name: "req and an object", decl: []string{"Tags", "[]string", "req"}, in: `{"Tags":{}}`, fails: []string{"Tags required"}},
		{name: "in a group", decl: []string{"g", "{", "", "Tags", "[]string", "each 'max 1'", "g", "}", ""}, in: `{"Tags":["ab"]}`, fails: []string{"Tags[0] max"}},
		{name: "in a group, written", decl: []string{"g", "{", "", "Tags", "[]string", "", "g", "}", ""}, in: `{"Tags":["ab"]}`, out: `{"g":{"Tags":["ab"]}}`},
		{name: "strict: an element that does not convert", decl: []string{"Tags", "[]string", ""}, in: `{"Tags":["a",1,"b",{}]}`, strict: true,
			fails: []string{"Tags[1] type", "Tags[3] type"}},
		{name: "strict: integers", decl: []string{"Ns", "[]int", ""}, in: `{"Ns":[1,2.5,"3"]}`, strict: true, fails: []string{"Ns[1] type"}},
		{name: "strict: null elements pass", decl: []string{"Tags", "[]string", ""}, in: `{"Tags":[null]}`, strict: true, out: `{"Tags":[null]}`},
		{name: "strict: an object is no list", decl: []string{"Tags", "[]string", ""}, in: `{"Tags":{}}`, strict: true, fails: []string{"Tags type"}},
		{name: "list of references", decl: []string{"us", "[]$u", ""}, in: `{"us":[{"name":"a"},{"name":"b"}]}`, out: `{"us":[{"name":"a"},{"name":"b"}]}`},
		{name: "list of references from a struct", decl: []string{"Us", "[]$u", ""}, in: `{"Us":[{"name":"a"}]}`,
			st: func() any { return tagsStruct{Us: []map[string]any{{"name": "a"}}} }, out: `{"Us":[{"name":"a"}]}`},
		{name: "list of references: an element that is no object is null", decl: []string{"us", "[]$u", ""}, in: `{"us":[1,{"name":"b"},"x",null]}`, out: `{"us":[null,{"name":"b"},null,null]}`},
		{name: "list of references: errors keep their index", decl: []string{"us", "[]$u", ""}, in: `{"us":[1,{}]}`, fails: []string{"us[1].name required"}},
		{name: "list of references: an object is no list", decl: []string{"us", "[]$u", ""}, in: `{"us":{"name":"a"}}`, out: `{"us":null}`},
		{name: "list of references: strict", decl: []string{"us", "[]$u", ""}, in: `{"us":{"name":"a"}}`, strict: true, fails: []string{"us type"}},
		{name: "list of references: strict, a nil map is an object, no list", decl: []string{"Us", "[]$u", "req"}, in: `{"Us":{}}`,
			st: func() any { return struct{ Us map[string]any }{} }, strict: true, fails: []string{"Us type"}},
		{name: "list of references: a nil map is null", decl: []string{"Us", "[]$u", "req"}, in: `{"Us":null}`,
			st: func() any { return struct{ Us map[string]any }{} }, fails: []string{"Us required"}},
		{name: "list of references: strict elements", decl: []string{"us", "[]$u", ""}, in: `{"us":[{"name":"a"},2,null]}`, strict: true, fails: []string{"us[1] type", "us[2] type"}},
		{name: "list of references: strict refuses a null element", decl: []string{"us", "[]$u", ""}, in: `{"us":[null]}`, strict: true, fails: []string{"us[0] type"}},
		{name: "list of references: bare default", decl: []string{"us", "[]$u", "default"}, in: `{}`, out: `{"us":[]}`},
		{name: "list of references: bare default its rules pass", decl: []string{"us", "[]$u", "default | max 2"}, in: `{}`, out: `{"us":[]}`},
		{name: "list of references: req", decl: []string{"us", "[]$u", "req"}, in: `{"us":null}`, fails: []string{"us required"}},
		{name: "list of references renamed", decl: []string{"us", "[]$u", "rename people"}, in: `{"us":[{"name":"a"}]}`, out: `{"people":[{"name":"a"}]}`},
		{name: "typed lists under a list of references", decl: []string{"us", "[]$v", ""}, in: `{"us":[{"tags":["a",1]},{"tags":[2,"bb"]}]}`, fails: []string{"us[1].tags[1] max"}},
	})
}

func TestTypedListGet(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "t", "tags", "[]string", "", "ns", "[]int", "", "ds", "[]date", "", "bs", "[]bool", "")
	obj, err := e.Make(map[string]any{"tags": []any{"a", nil}, "ns": []any{1, "x"}, "ds": []any{"2024-01-15"}, "bs": []any{true}})
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)
	for key, want := range map[string]any{
		"tags": []any{"a", nil},
		"ns":   []any{int64(1), nil},
		"ds":   []any{day},
		"bs":   []any{true},
	} {
		if got, ok := obj.Get(key); !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("Get(%q) = %#v, want %#v", key, got, want)
		}
	}
	if got := obj.Map()["ds"]; !reflect.DeepEqual(got, []any{"2024-01-15T00:00:00Z"}) {
		t.Errorf("Map()[ds] = %#v, want the date's text", got)
	}
}

func TestTypedListFields(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "u", "name", "string", "")
	e := expose(t, reg, "t", "tags", "[]string", "min 1 | each 'trim | max 3'", "us", "[]$u", "", "l", "list", "")
	fs := e.Fields()
	if f := fs[0]; !f.List || f.Each == nil || f.Each.Type.String() != "string" || !reflect.DeepEqual(f.Each.Rules, []string{"trim", "max"}) || !reflect.DeepEqual(f.Rules, []string{"min"}) {
		t.Errorf("tags: List %v, Each %+v, Rules %q", f.List, f.Each, f.Rules)
	}
	if f := fs[1]; !f.List || f.Each != nil {
		t.Errorf("us: List %v, Each %+v; want a list of references", f.List, f.Each)
	}
	if f := fs[2]; f.List || f.Each != nil {
		t.Errorf("l: List %v, Each %+v; want a plain list", f.List, f.Each)
	}
	if got := e.Decl().Fields[0].String(); got != `"tags", "[]string", "min 1 | each 'trim | max 3'"` {
		t.Errorf("Decl prints %s", got)
	}
}

// TestTypedListOutputLimit: a typed list checks the output limit as it
// grows, element by element: a []string of shared long strings past the
// limit allocates about twice the limit, as a list field does, whatever
// its length.
func TestTypedListOutputLimit(t *testing.T) {
	reg := entity.NewRegistry()
	setLimit(reg, func(l *entity.Limits) { l.OutputBytes = 1 << 20 })
	e := expose(t, reg, "t", "tags", "[]string", "")
	long := strings.Repeat("x", 5000)
	for _, n := range []int{12_500, 25_000, 50_000} {
		tags := make([]string, n)
		for i := range tags {
			tags[i] = long
		}
		for what, in := range map[string]any{"[]string": tags, "[]any": toAny(tags)} {
			var err error
			alloc, _ := allocated(func() { _, err = e.MakeJSON(map[string]any{"tags": in}) })
			if !errors.Is(err, entity.ErrTooLarge) {
				t.Fatalf("%d %s: %v, want ErrTooLarge", n, what, err)
			}
			if alloc > 5<<20 {
				t.Errorf("%d %s: allocated %d bytes under a 1 MiB limit", n, what, alloc)
			}
		}
	}
}

func toAny(s []string) []any {
	l := make([]any, len(s))
	for i, x := range s {
		l[i] = x
	}
	return l
}

// TestRefListCounts: a []$name takes min, max, range and len on its count
// of elements, checked as a typed list's; a $name refuses them.
func TestRefListCounts(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "line", "sku", "string", "req")
	e := expose(t, reg, "order", "items", "[]$line", "min 1 | max 3", "pair", "[]$line", "len 2")
	tests := []struct {
		name  string
		in    map[string]any
		fails string
	}{
		{"none", map[string]any{"items": []any{}, "pair": []any{map[string]any{"sku": "a"}, map[string]any{"sku": "b"}}}, "items min"},
		{"too many", map[string]any{"items": []any{map[string]any{"sku": "a"}, map[string]any{"sku": "a"}, map[string]any{"sku": "a"}, map[string]any{"sku": "a"}}}, "items max"},
		{"not two", map[string]any{"items": []any{map[string]any{"sku": "a"}}, "pair": []any{map[string]any{"sku": "a"}}}, "pair len"},
		{"fine", map[string]any{"items": []any{map[string]any{"sku": "a"}}, "pair": []any{map[string]any{"sku": "a"}, map[string]any{"sku": "b"}}}, ""},
		{"absent: the checks skip null", map[string]any{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.MakeJSON(tt.in)
			var got []string
			for _, f := range fieldErrorsOrNone(err) {
				got = append(got, f.Path+" "+f.Code)
			}
			if strings.Join(got, ",") != tt.fails {
				t.Errorf("got %q (%v), want %q", got, err, tt.fails)
			}
		})
	}
	if _, err := reg.Expose("bad", "one", "$line", "min 1"); err == nil {
		t.Error("min on a $name: no declaration error")
	}
}

// TestTypedListMessagePlaceholders: a typed list's msg renders {field} as
// the list's name for its elements' failures too, and takes the params of
// each's rules as placeholders.
func TestTypedListMessagePlaceholders(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "t", "tags", "[]string", "each 'min 2' | max 3 | msg '{field}: at least {min}, at most {max}'")
	_, err := e.MakeJSON(map[string]any{"tags": []any{"a", "bb", "c", "dd"}})
	fs := fieldErrorsOrNone(err)
	if len(fs) != 3 {
		t.Fatalf("got %v, want three failures", err)
	}
	for _, f := range fs {
		if f.Message != "tags: at least 2, at most 3" {
			t.Errorf("%s: message %q", f.Path, f.Message)
		}
	}
}

// TestObjectGetRefListNullElement: Object.Get of a []$name is a
// []*Object, nil for a null element, however many are null; Map gives nil
// there.
func TestObjectGetRefListNullElement(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "a", "city", "string", "")
	e := expose(t, reg, "p", "addrs", "[]$a", "")
	o, err := e.Make(map[string]any{"addrs": []any{map[string]any{"city": "x"}, 7, nil}})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := o.Get("addrs")
	l, ok := v.([]*entity.Object)
	if !ok || len(l) != 3 || l[0] == nil || l[1] != nil || l[2] != nil {
		t.Fatalf("Get = %#v, want [*Object nil nil]", v)
	}
	if c, _ := l[0].Get("city"); c != "x" {
		t.Errorf("element 0: %v", c)
	}
	if m := o.Map()["addrs"].([]any); len(m) != 3 || m[1] != nil {
		t.Errorf("Map = %v", m)
	}
}
