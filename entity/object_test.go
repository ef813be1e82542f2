package entity_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
)

// objectRegistry declares an entity of every kind of key an Object holds.
func objectRegistry(t *testing.T) *entity.Registry {
	reg := entity.NewRegistry()
	expose(t, reg, "child", "x", "number", "", "s", "string", "")
	expose(t, reg, "all",
		"s", "string", "",
		"n", "number", "",
		"f", "float", "",
		"b", "bool", "",
		"d", "date", "",
		"x", "none", "",
		"l", "list", "",
		"o", "object", "",
		"g", "{", "rename 'grp'",
		"inner", "string", "default 'in'",
		"g", "}", "",
		"r", "$child", "",
		"rl", "$child", "",
		"nul", "string", "",
		"esc", "string", "rename 'a\"b'",
	)
	return reg
}

// TestObjectGet: the Object API (Get, Keys, Len, Map, String) on an
// entity of every kind of key, and on the seed.
func TestObjectGet(t *testing.T) {
	reg := objectRegistry(t)
	o, err := reg.Lookup("all").Make(map[string]any{
		"s": "text", "n": "42", "f": 1.5, "b": "true", "d": "2020-01-02T03:04:05+09:00",
		"x": map[string]any{"k": []any{1, "two"}}, "l": []any{1, "a"}, "o": map[string]any{"k": "v"},
		"r": map[string]any{"x": 7, "s": "é\n"}, "rl": []any{map[string]any{"x": 1}, "skipped", map[string]any{"x": 2}},
		"esc": "quoted key",
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, key string
		want      any
	}{
		{"string", "s", "text"},
		{"number is int64", "n", int64(42)},
		{"float is float64", "f", 1.5},
		{"bool", "b", true},
		{"date is a UTC time.Time", "d", time.Date(2020, 1, 1, 18, 4, 5, 0, time.UTC)},
		{"none decodes as encoding/json", "x", map[string]any{"k": []any{1.0, "two"}}},
		{"list decodes", "l", []any{1.0, "a"}},
		{"object decodes", "o", map[string]any{"k": "v"}},
		{"null", "nul", nil},
		{"key that needs escaping", `a"b`, "quoted key"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := o.Get(c.key)
			if !ok {
				t.Fatalf("Get(%q): no key", c.key)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("Get(%q) (-want +got):\n%s", c.key, diff)
			}
		})
	}
	t.Run("date is in UTC", func(t *testing.T) {
		if d, _ := o.Get("d"); d.(time.Time).Location() != time.UTC {
			t.Errorf("date in %v, want UTC", d.(time.Time).Location())
		}
	})
	// Get returns the converted value, of the field's type, whatever the
	// input's.
	t.Run("converted values", func(t *testing.T) {
		_, o := mustMake(t, reg.Lookup("all"), map[string]any{
			"s": 1, "n": "2", "f": 3, "b": 1, "d": time.Date(2020, 1, 2, 12, 0, 0, 0, tokyo),
		})
		for _, c := range []struct {
			key  string
			want any
		}{
			{"s", "1"}, {"n", int64(2)}, {"f", 3.0}, {"b", true},
			{"d", time.Date(2020, 1, 2, 3, 0, 0, 0, time.UTC)}, {"nul", nil},
		} {
			got, ok := o.Get(c.key)
			if !ok {
				t.Errorf("Get(%q): missing", c.key)
				continue
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("Get(%q) (-want +got):\n%s", c.key, diff)
			}
		}
		if d, _ := o.Get("d"); d.(time.Time).Location() != time.UTC {
			t.Errorf("date in %v, want UTC", d.(time.Time).Location())
		}
	})
	t.Run("absent key", func(t *testing.T) {
		// g is renamed grp, esc a"b: a renamed field is under its output
		// key only; inner is in the group.
		for _, k := range []string{"nope", "g", "esc", "inner", ""} {
			if v, ok := o.Get(k); ok {
				t.Errorf("Get(%q) = %v, true; want no key", k, v)
			}
		}
	})
	t.Run("group is an *Object", func(t *testing.T) {
		g, _ := o.Get("grp")
		sub, ok := g.(*entity.Object)
		if !ok {
			t.Fatalf("Get(grp) = %T, want *entity.Object", g)
		}
		if v, _ := sub.Get("inner"); v != "in" {
			t.Errorf("grp.inner = %v, want the default", v)
		}
		if s := sub.String(); s != `{"inner":"in"}` {
			t.Errorf("grp = %s", s)
		}
	})
	t.Run("reference object", func(t *testing.T) {
		r, _ := o.Get("r")
		sub, ok := r.(*entity.Object)
		if !ok {
			t.Fatalf("Get(r) = %T, want *entity.Object", r)
		}
		if v, _ := sub.Get("x"); v != int64(7) {
			t.Errorf("r.x = %#v", v)
		}
		if v, _ := sub.Get("s"); v != "é\n" {
			t.Errorf("r.s = %q, want the escape decoded", v)
		}
	})
	t.Run("reference list", func(t *testing.T) {
		rl, _ := o.Get("rl")
		l, ok := rl.([]*entity.Object)
		if !ok || len(l) != 2 {
			t.Fatalf("Get(rl) = %#v, want two *entity.Object", rl)
		}
		for i, want := range []int64{1, 2} {
			if v, _ := l[i].Get("x"); v != want {
				t.Errorf("rl[%d].x = %#v, want %d", i, v, want)
			}
		}
	})
	t.Run("Keys and Len", func(t *testing.T) {
		want := []string{"s", "n", "f", "b", "d", "x", "l", "o", "grp", "r", "rl", "nul", `a"b`}
		if diff := cmp.Diff(want, o.Keys()); diff != "" {
			t.Errorf("Keys (-want +got):\n%s", diff)
		}
		if o.Len() != len(want) {
			t.Errorf("Len = %d, want %d", o.Len(), len(want))
		}
		keys := o.Keys()
		keys[0] = "changed"
		if o.Keys()[0] != "s" {
			t.Errorf("changing Keys' result changed the Object")
		}
	})
	t.Run("Map agrees with the JSON, String is the JSON", func(t *testing.T) {
		out, err := o.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var decoded map[string]any
		if err := json.Unmarshal(out, &decoded); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(normalize(decoded), normalize(o.Map())); diff != "" {
			t.Errorf("Map vs decoded JSON (-json +map):\n%s", diff)
		}
		if o.String() != string(out) {
			t.Errorf("String() = %s, want %s", o.String(), out)
		}
	})
	// The seed: a default at the top, groups inside a list of references.
	t.Run("seed", func(t *testing.T) {
		reg := entity.NewRegistry()
		exposeSeed(t, reg)
		out, obj := mustMake(t, reg.Lookup("users"), seedUsers())
		if string(out) != seedJSON {
			t.Fatalf("got %s", out)
		}
		if obj.String() != seedJSON {
			t.Errorf("String() = %s", obj.String())
		}
		if diff := cmp.Diff([]string{"offset", "limit", "list"}, obj.Keys()); diff != "" {
			t.Errorf("Keys (-want +got):\n%s", diff)
		}
		if v, ok := obj.Get("limit"); !ok || v != int64(2) {
			t.Errorf("Get(limit) = %#v, %v", v, ok)
		}
		if v, ok := obj.Get("offset"); !ok || v != int64(0) {
			t.Errorf("Get(offset) = %#v, %v (the default)", v, ok)
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
	})
}

func TestObjectBytes(t *testing.T) {
	reg := objectRegistry(t)
	in := map[string]any{"s": "<&>", "n": 1, "rl": []any{map[string]any{"x": 1}}}
	want, err := reg.Lookup("all").MakeJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	o, err := reg.Lookup("all").Make(in)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		got  func() ([]byte, error)
	}{
		{"MarshalJSON", o.MarshalJSON},
		{"AppendJSON", func() ([]byte, error) {
			b, err := o.AppendJSON([]byte("x"))
			return []byte(strings.TrimPrefix(string(b), "x")), err
		}},
		{"String", func() ([]byte, error) { return []byte(o.String()), nil }},
		{"json.Marshal", func() ([]byte, error) { return json.Marshal(o) }},
		{"MakeJSON of the Object", func() ([]byte, error) { return reg.Lookup("all").MakeJSON(o) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.got()
			if err != nil || string(got) != string(want) {
				t.Errorf("got %s, %v; want MakeJSON's %s", got, err, want)
			}
		})
	}
	t.Run("Make of its own Object returns it", func(t *testing.T) {
		if again, err := reg.Lookup("all").Make(o); err != nil || again != o {
			t.Errorf("Make(o) = %p, %v; want the same Object %p", again, err, o)
		}
	})
	t.Run("nil Object", func(t *testing.T) {
		var nilObj *entity.Object
		if b, err := nilObj.MarshalJSON(); string(b) != "null" || err != nil {
			t.Errorf("MarshalJSON of nil = %s, %v", b, err)
		}
	})
}

func TestObjectDecode(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "child", "x", "number", "")
	expose(t, reg, "user",
		"id", "number", "rename 'number'",
		"name", "string", "",
		"born", "date", "",
		"details", "{", "",
		"age", "number", "",
		"details", "}", "",
		"kids", "$child", "",
	)
	o, err := reg.Lookup("user").Make(map[string]any{"id": "12", "name": "ann", "born": "2001-02-03", "age": 40,
		"kids": []any{map[string]any{"x": 1}}})
	if err != nil {
		t.Fatal(err)
	}
	type child struct{ X int }
	type user struct {
		Number  int64     `json:"number"`
		Name    string    `json:"name"`
		Born    time.Time `json:"born"`
		Details struct {
			Age int `json:"age"`
		} `json:"details"`
		Kids []child `json:"kids"`
	}
	t.Run("struct", func(t *testing.T) {
		var u user
		if err := o.Decode(&u); err != nil {
			t.Fatal(err)
		}
		want := user{Number: 12, Name: "ann", Born: time.Date(2001, 2, 3, 0, 0, 0, 0, time.UTC), Kids: []child{{1}}}
		want.Details.Age = 40
		if diff := cmp.Diff(want, u); diff != "" {
			t.Errorf("Decode (-want +got):\n%s", diff)
		}
	})
	t.Run("map", func(t *testing.T) {
		var m map[string]any
		if err := o.Decode(&m); err != nil {
			t.Fatal(err)
		}
		if m["name"] != "ann" || m["number"] != 12.0 {
			t.Errorf("Decode into a map = %v", m)
		}
	})
	t.Run("not a pointer", func(t *testing.T) {
		if err := o.Decode(user{}); err == nil {
			t.Error("Decode into a non-pointer succeeded")
		}
	})
}

// Map gives the values Get gives, nested Objects as maps: what encoding/json
// gives for the same bytes, but for the number fields' int64.
func TestObjectMapMatchesJSON(t *testing.T) {
	reg := objectRegistry(t)
	o, err := reg.Lookup("all").Make(map[string]any{"s": "x", "n": 3, "f": 2, "rl": []any{map[string]any{"x": 1}},
		"r": map[string]any{"s": "y"}, "x": 1e300, "l": []any{}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(o.Map())
	var a, c any
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	mj, _ := o.MarshalJSON()
	if err := json.Unmarshal(mj, &c); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c, a); diff != "" {
		t.Errorf("Map differs from the JSON (-json +map):\n%s", diff)
	}
	if n := o.Map()["n"]; n != int64(3) {
		t.Errorf("Map()[n] = %#v, want int64(3)", n)
	}
}

func TestMakeListViews(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "item", "x", "number", "")
	cases := []struct {
		name string
		in   any
		want []string
	}{
		{"maps, scalars skipped", []any{map[string]any{"x": 1}, 2, map[string]any{"x": "3"}}, []string{`{"x":1}`, `{"x":3}`}},
		{"raw JSON", []byte(`[{"x":1},[],{"x":2}]`), []string{`{"x":1}`, `{"x":2}`}},
		{"empty", []any{}, []string{}},
		{"nil slice", []map[string]any(nil), []string{}},
		{"untyped nil", nil, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := e.MakeList(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if l == nil {
				t.Fatal("MakeList returned a nil slice")
			}
			got := make([]string, len(l))
			for i, o := range l {
				got[i] = o.String()
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("MakeList (-want +got):\n%s", diff)
			}
		})
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

// A nil *Object and the zero Object are empty objects: no method panics,
// and Make reads them as empty inputs.
func TestObjectNilAndZero(t *testing.T) {
	var nilObj *entity.Object
	zero := &entity.Object{}
	cases := []struct {
		name     string
		o        *entity.Object
		marshals string
		asRef    string // MakeJSON of {"r": o}
	}{
		{"nil", nilObj, "null", `{"v":1,"r":null}`},
		{"zero", zero, "{}", `{"v":1,"r":{"v":1,"r":null}}`},
	}
	e := expose(t, entity.NewRegistry(), "one", "v", "number", "default 1", "r", "$one", "")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			noPanic(t, "its methods", func() {
				if c.o.Len() != 0 || len(c.o.Keys()) != 0 || len(c.o.Map()) != 0 {
					t.Errorf("Len %d, Keys %v, Map %v: want empty", c.o.Len(), c.o.Keys(), c.o.Map())
				}
				if v, ok := c.o.Get("v"); ok || v != nil {
					t.Errorf("Get = %v, %t", v, ok)
				}
				if b, err := c.o.MarshalJSON(); err != nil || string(b) != c.marshals {
					t.Errorf("MarshalJSON = %s, %v; want %s", b, err, c.marshals)
				}
				if b, err := json.Marshal(c.o); err != nil || string(b) != c.marshals {
					t.Errorf("json.Marshal = %s, %v; want %s", b, err, c.marshals)
				}
				var m map[string]any
				if err := c.o.Decode(&m); err != nil {
					t.Errorf("Decode: %v", err)
				}
			})
			noPanic(t, "making it", func() {
				if out, err := e.MakeJSON(c.o); err != nil || string(out) != `{"v":1,"r":null}` {
					t.Errorf("MakeJSON = %s, %v", out, err)
				}
				if out, err := e.MakeJSON(map[string]any{"r": c.o}); err != nil || string(out) != c.asRef {
					t.Errorf("MakeJSON of a reference to it = %s, %v; want %s", out, err, c.asRef)
				}
				if _, err := e.Make(c.o); err != nil {
					t.Errorf("Make: %v", err)
				}
			})
		})
	}
	t.Run("Decode errors say where they come from", func(t *testing.T) {
		o, err := e.Make(nil)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := o.Decode(&n); err == nil || err.Error()[:7] != "entity:" {
			t.Errorf("Decode into an int: %v, want an entity: error", err)
		}
	})
}

// A key holding invalid UTF-8 is written with U+FFFD, and Keys, Get and Map
// give it as written, so that Map equals the JSON decoded.
func TestObjectKeysAsWritten(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "k", "a\xffb", "string", "", "<&>", "number", "", "é", "bool", "")
	o, err := e.Make(map[string]any{"a\xffb": "x", "<&>": 1, "é": true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a\ufffdb", "<&>", "é"}, o.Keys()); diff != "" {
		t.Errorf("Keys (-want +got):\n%s", diff)
	}
	for _, k := range []string{"a\ufffdb", "<&>", "é"} {
		if _, ok := o.Get(k); !ok {
			t.Errorf("Get(%q): no key", k)
		}
	}
	var fromJSON map[string]any
	b, _ := o.MarshalJSON()
	if err := json.Unmarshal(b, &fromJSON); err != nil {
		t.Fatal(err)
	}
	m := o.Map()
	m["<&>"] = float64(m["<&>"].(int64))
	if diff := cmp.Diff(fromJSON, m); diff != "" {
		t.Errorf("Map differs from the JSON (-json +map):\n%s", diff)
	}
}

// TestObjectReadByAnotherEntity: an Object given to another entity is read
// by its keys as the JSON it holds, as raw JSON input is: a date it wrote
// is a string there, a uint64 a number as spelled; a from path steps into
// it.
func TestObjectReadByAnotherEntity(t *testing.T) {
	reg := entity.NewRegistry()
	src := expose(t, reg, "src", "d", "date", "", "n", "none", "", "s", "string", "", "g", "{", "", "k", "string", "", "g", "}", "")
	o, err := src.Make(map[string]any{"d": 0, "n": uint64(math.MaxUint64), "s": "12", "k": "v"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, typ, rules string
		strict           bool
		want             string // the output, or "!" and the error's code
	}{
		{"a date as a string, strictly", "string", "from 'd'", true, `{"v":"1970-01-01T00:00:00Z"}`},
		{"a date as a date", "date", "from 'd'", true, `{"v":"1970-01-01T00:00:00Z"}`},
		{"a uint64 as none", "none", "from 'n'", false, `{"v":18446744073709551615}`},
		{"a numeric string as a number, strictly", "number", "from 's'", true, `{"v":12}`},
		{"a string as a bool, strictly", "bool", "from 's'", true, "!type"},
		{"a from path into a group", "string", "from 'g.k'", true, `{"v":"v"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := expose(t, reg, "reader", "v", tt.typ, tt.rules)
			var opts []entity.Option
			if tt.strict {
				opts = append(opts, entity.Strict())
			}
			out, err := e.MakeJSON(o, opts...)
			if code, ok := strings.CutPrefix(tt.want, "!"); ok {
				if fs := fieldErrors(t, err); len(fs) != 1 || fs[0].Code != code {
					t.Errorf("got %v, want %s", err, code)
				}
				return
			}
			if err != nil || string(out) != tt.want {
				t.Errorf("got %s, %v; want %s", out, err, tt.want)
			}
		})
	}
}
