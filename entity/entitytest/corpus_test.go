package entitytest

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// corpus is the test corpus: entities of every type, rule, group and
// reference shape, declared in a registry of their own. Sample must give a
// payload of each that Conform accepts and that Make itself writes.
var corpus = newCorpus()

// corpusDecls lists the corpus, in the order it is declared; references
// may point forward.
var corpusDecls = []struct {
	name string
	decl []string
}{
	{"user", []string{ // the seed's
		"id", "number", "num | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown'",
	}},
	{"users", []string{
		"offset", "number", "default 0",
		"limit", "number", "default 0",
		"list", "$user", "",
	}},
	{"scalars", []string{
		"s", "string", "",
		"n", "number", "",
		"f", "float", "",
		"b", "bool", "",
		"d", "date", "",
		"l", "list", "",
		"o", "object", "",
		"x", "none", "",
	}},
	{"required", []string{
		"name", "text", "req",
		"age", "int", "required",
		"ok", "flag", "req",
		"at", "timestamp", "req",
	}},
	{"defaults", []string{
		"code", "string", "default 'unknown'",
		"n", "number", "default 0",
		"f", "float", "default 0.5",
		"b", "bool", "default",
		"d", "date", "default '2020-01-01'",
		"l", "list", "default '[1,2]'",
		"o", "object", `default '{"a":1}'`,
		"x", "none", "default null",
		"y", "none", "default 'text'",
		"req", "string", "req | default 'r'",
	}},
	{"formats", []string{
		"mail", "string", "email",
		"site", "string", "url",
		"day", "string", "date",
		"at", "string", "time",
		"ts", "string", "timestamp",
		"long", "string", "email | min 30",
		"short", "string", "url | max 15",
	}},
	{"sizes", []string{
		"short", "string", "min 3",
		"long", "string", "max 5",
		"between", "string", "range 2 4",
		"exact", "string", "range 7 7",
		"age", "number", "range 0 150",
		"neg", "number", "max -5",
		"big", "number", "min 1000",
		"score", "float", "range 0.5 0.9",
		"tags", "list", "min 2",
		"few", "list", "max 0",
		"count", "number", "min 10 | max 20",
	}},
	{"patterns", []string{
		"code", "string", "regex '^[A-Z]{3}-[0-9]{4}$'",
		"slug", "string", "regex '^[a-z0-9]+(-[a-z0-9]+)*$'",
		"hex", "string", "regex '^#[0-9a-fA-F]{6}$'",
		"phone", "string", `regex '^\+?[0-9]{10,12}$' | min 12`,
		"word", "string", `regex '\bgo\b' | min 5`,
		"either", "string", "regex '^(yes|no)$'",
		"lower", "string", "regex '^[^A-Z0-9]+$' | range 4 6",
	}},
	{"groups", []string{
		"id", "number", "req",
		"a", "{", "",
		"b", "{", "rename 'B'",
		"c", "number", "range 5 9",
		"b", "}", "",
		"d", "string", "min 2",
		"a", "}", "",
		"e", "{", "",
		"e", "}", "",
	}},
	{"renamed", []string{
		"id", "number", "rename 'ID'",
		"first", "string", "rn 'firstName' | min 2",
		"meta", "{", "rename 'Meta'",
		"v", "number", "rename version",
		"meta", "}", "",
	}},
	{"shaped", []string{ // per-call shaping: fields a call may leave out
		"id", "number", "req",
		"bio", "string", "lazy",
		"token", "string", "if 'admin'",
		"nick", "string", "unless 'guest'",
		"amount", "string", "until 'v2'",
		"amount", "number", "since 'v2'",
		"more", "{", "since 'v3'",
		"x", "string", "",
		"more", "}", "",
		"kids", "$shaped", "lazy",
	}},
	{"merging", []string{ // a $ref merged into its parent, and into a group
		"name", "string", "",
		"addr", "$postal", "merge",
		"g", "{", "",
		"home", "$postal", "merge",
		"g", "}", "",
		"n", "number", "",
	}},
	{"postal", []string{
		"street", "string", "",
		"city", "string", "min 1",
	}},
	{"tree", []string{
		"name", "string", "req",
		"children", "$tree", "",
		"parent", "$tree", "",
	}},
	{"chain", []string{
		"n", "number", "req",
		"next", "$chain", "req",
	}},
	{"ping", []string{
		"at", "date", "",
		"pong", "$pong", "",
	}},
	{"pong", []string{
		"at", "date", "",
		"ping", "$ping", "default",
	}},
	{"loose", []string{
		"x", "none", "min 3",
		"y", "none", "email",
		"z", "none", "regex '^a'",
		"w", "none", "max 2",
	}},
	{"typechecks", []string{
		"n", "number", "num",
		"f", "float", "float",
		"b", "bool", "bool",
		"t", "date", "timestamp",
		"s", "string", "num",
		"sb", "string", "bool",
		"nb", "number", "bool",
	}},
	{"custom", []string{
		"n", "number", "even",
		"s", "string", "caps | min 4",
		"m", "number", "even | range 3 5",
	}},
	{"refs", []string{
		"owner", "$user", "default",
		"boss", "$user", "req",
		"peer", "$user", "rename 'Peer'",
	}},
	{"secrets", []string{
		"login", "string", "req",
		"password", "string", "secret | min 8",
	}},
	{"keys", []string{
		"a.b", "string", "",
		"x y", "number", "",
		"é", "string", "min 2",
		"#", "bool", "",
	}},
	{"typedlists", []string{
		"tags", "[]string", "min 1 | each 'len 3 | upper'",
		"ns", "[]number", "each 'in 2 4'",
		"ds", "[]date", "",
		"few", "[]float", "max 2",
		"users", "[]$user", "",
	}},
	{"written", []string{
		"at", "date", "format unix",
		"ms", "date", "format unixms",
		"day", "date", "format date",
		"web", "date", "format rfc1123",
		"local", "date", "format '2006-01-02 15:04'",
		"price", "float", "format fixed 2 | min 1",
		"seen", "[]date", "min 1 | each 'format unix'",
	}},
	{"empty", nil},
	{"undeclared", []string{
		"ghost", "$nobody", "",
	}},
}

// even is a custom rule: an even number.
var even = rules.Def{Name: "even", Types: rules.Kinds(rules.Int),
	Compile: func([]string, rules.Kind) (rules.Checker, error) {
		return rules.CheckFunc(func(v rules.Value) error {
			if v.Int%2 != 0 {
				return errors.New("must be even")
			}
			return nil
		}), nil
	}}

// caps is a custom rule: a string in upper case.
var caps = rules.Def{Name: "caps", Types: rules.Kinds(rules.String),
	Compile: func([]string, rules.Kind) (rules.Checker, error) {
		return rules.CheckFunc(func(v rules.Value) error {
			if v.Str != strings.ToUpper(v.Str) {
				return errors.New("must be in upper case")
			}
			return nil
		}), nil
	}}

func newCorpus() *entity.Registry {
	r := entity.NewRegistry()
	r.RegisterRule(even)
	r.RegisterRule(caps)
	for _, d := range corpusDecls {
		r.MustExpose(d.name, d.decl...)
	}
	return r
}

func TestCorpusSize(t *testing.T) {
	if n := len(corpusDecls); n < 15 {
		t.Errorf("corpus has %d entities, want at least 15", n)
	}
}

// sampleConflicts lists the entities of the corpus with a field whose
// rules' candidates each fail another of its rules (email | min 30), or
// whose custom rule has no Sample hook: Sample writes the type's zero value
// there, and Conform names the rules it fails.
var sampleConflicts = map[string][]string{
	"formats":  {"long", "short"},
	"patterns": {"phone", "word"},
	"custom":   {"s", "m"},
}

// TestSampleConforms: Conform accepts Sample's payload, strictly and in any
// order, for every entity of the corpus but those of sampleConflicts, where
// it names each conflicting field.
func TestSampleConforms(t *testing.T) {
	for _, d := range corpusDecls {
		t.Run(d.name, func(t *testing.T) {
			e := corpus.Lookup(d.name)
			s := Sample(e)
			if d.name == "undeclared" {
				return // tested in TestConform: a $ref to nothing cannot conform
			}
			tb := &fakeTB{}
			if fields, ok := sampleConflicts[d.name]; ok {
				if Conform(tb, e, s) {
					t.Fatalf("Sample %s conforms", s)
				}
				for _, f := range fields {
					if !strings.Contains(strings.Join(tb.errors, "\n"), f+": want ") {
						t.Errorf("Conform does not name field %q: %s", f, quoteLines(tb.errors))
					}
				}
				return
			}
			if !Conform(tb, e, s) {
				t.Errorf("Sample: %s\nConform: %s", s, quoteLines(tb.errors))
			}
			if !Conform(&fakeTB{}, e, s, IgnoreOrder()) {
				t.Errorf("Sample does not conform with IgnoreOrder")
			}
			if !bytes.Equal(s, Sample(e)) {
				t.Errorf("Sample is not deterministic")
			}
		})
	}
}

// TestSampleIsMade: feeding Sample's values back as input, Make writes the
// same payload, so Sample holds nothing the entity could not write.
func TestSampleIsMade(t *testing.T) {
	for _, d := range corpusDecls {
		t.Run(d.name, func(t *testing.T) {
			e := corpus.Lookup(d.name)
			s := Sample(e)
			dec := json.NewDecoder(bytes.NewReader(s))
			dec.UseNumber()
			var out map[string]any
			if err := dec.Decode(&out); err != nil {
				t.Fatalf("Sample %s: %v", s, err)
			}
			in := map[string]any{}
			if !inputOf(e.Fields(), out, in) {
				t.Skip("fields share an input name")
			}
			if d.name == "written" {
				t.Skip("a format's output is no input of its field: Sample(e, Input) is (TestSampleInputIsMade)")
			}
			got, err := e.MakeJSON(in)
			if _, ok := sampleConflicts[d.name]; ok {
				if err == nil {
					t.Errorf("MakeJSON of Sample's values %s succeeded", s)
				}
				return
			}
			if d.name == "undeclared" {
				if !errors.Is(err, entity.ErrUnknownEntity) {
					t.Errorf("MakeJSON: %v, want ErrUnknownEntity", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("MakeJSON(%v): %v", in, err)
			}
			if !bytes.Equal(got, s) {
				t.Errorf("MakeJSON of Sample's values:\n got %s\nwant %s", got, s)
			}
		})
	}
}

// inputOf turns an output object back into the input that makes it: keys
// back to field names, groups flattened, defaults left out. It reports
// false when two fields read one input name.
func inputOf(fields []*entity.Field, out, in map[string]any) bool {
	ok := true
	for _, f := range fields {
		v := out[f.Key]
		if f.Merge { // its keys are at this level of the output
			v = out
		}
		switch f.Kind {
		case dsl.FieldGroup:
			m, _ := v.(map[string]any)
			ok = inputOf(f.Fields, m, in) && ok
			continue
		case dsl.FieldRef:
			switch v := v.(type) {
			case map[string]any:
				sub := map[string]any{}
				ok = inputOf(f.Entity().Fields(), v, sub) && ok
				v2 := any(sub)
				ok = set(in, f.Name, v2) && ok
			case []any:
				l := []any{}
				for _, el := range v {
					sub := map[string]any{}
					ok = inputOf(f.Entity().Fields(), el.(map[string]any), sub) && ok
					l = append(l, sub)
				}
				ok = set(in, f.Name, l) && ok
			}
			continue
		}
		if v == nil {
			continue
		}
		if f.HasDefault {
			b, _ := json.Marshal(v)
			if bytes.Equal(b, f.Default) {
				continue
			}
		}
		ok = set(in, f.Name, v) && ok
	}
	return ok
}

func set(m map[string]any, k string, v any) bool {
	if _, dup := m[k]; dup {
		return false
	}
	m[k] = v
	return true
}

// corpusInputs are inputs Make accepts, for TestMadeConforms.
var corpusInputs = []struct {
	entity string
	in     any
}{
	{"users", map[string]any{"limit": 2, "list": []any{
		map[string]any{"id": "12", "name": "maachang", "age": 40, "mail": "maachang@maachang.com"},
		map[string]any{"id": "21", "name": "saito", "age": 27, "mail": "saito@maachang.com"}}}},
	{"users", map[string]any{}},
	{"user", []any{map[string]any{"name": "a"}, 5, map[string]any{"name": "b", "id": 2.9}}},
	{"scalars", map[string]any{}},
	{"scalars", map[string]any{"s": 12, "n": "7", "f": 0.25, "b": "on", "d": 0, "l": []int{1}, "o": map[string]int{"z": 1, "a": 2}, "x": []any{1, "a", nil}}},
	{"defaults", map[string]any{}},
	{"defaults", map[string]any{"code": "c", "n": 9, "x": 1}},
	{"shaped", map[string]any{"id": 1, "bio": "b", "token": "t", "nick": "n", "amount": 5, "x": "x", "kids": []any{map[string]any{"id": 2}}}},
	{"merging", map[string]any{"name": "a", "addr": map[string]any{"street": "s", "city": "c"}, "n": 1}},
	{"merging", map[string]any{"home": map[string]any{"city": "h"}}},
	{"tree", map[string]any{"name": "root", "children": []any{
		map[string]any{"name": "kid", "children": []any{map[string]any{"name": "grandkid"}}},
	}}},
	{"chain", map[string]any{"n": 1, "next": map[string]any{"n": 2, "next": []any{}}}},
	{"ping", map[string]any{"pong": map[string]any{}}},
	{"groups", map[string]any{"id": 1, "c": 7, "d": "xy"}},
	{"loose", map[string]any{"x": "abcd", "y": "a@b.co", "z": "abc", "w": []int{1}}},
	{"loose", map[string]any{"x": 3.5, "w": 2}},
	{"keys", map[string]any{"a.b": "v", "x y": 1, "é": "éé", "#": true}},
	{"secrets", map[string]any{"login": "me", "password": "correct horse"}},
	{"empty", map[string]any{"anything": 1}},
	{"refs", map[string]any{"boss": []any{}, "owner": map[string]any{"name": "o"}}},
}

// TestMadeConforms: what Make writes conforms.
func TestMadeConforms(t *testing.T) {
	for _, c := range corpusInputs {
		e := corpus.Lookup(c.entity)
		js, err := e.MakeJSON(c.in)
		if err != nil {
			t.Errorf("%s: MakeJSON(%v): %v", c.entity, c.in, err)
			continue
		}
		tb := &fakeTB{}
		if !Conform(tb, e, js) {
			t.Errorf("%s: %s\n%s", c.entity, js, quoteLines(tb.errors))
		}
	}
}
