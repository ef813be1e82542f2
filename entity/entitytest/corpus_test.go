package entitytest

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
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
// may point forward. It is read from ../testdata/corpus.json, which the
// schema tests of the schematest module read too; its custom rules, even
// and caps, are defined below.
var corpusDecls = readCorpus("../testdata/corpus.json")

// corpusDecl is one entity of the corpus.
type corpusDecl struct {
	name string
	decl []string
}

// readCorpus reads the corpus file: a JSON array of {"name", "decl"}.
func readCorpus(path string) []corpusDecl {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	var file []struct {
		Name string   `json:"name"`
		Decl []string `json:"decl"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		panic(path + ": " + err.Error())
	}
	out := make([]corpusDecl, len(file))
	for i, d := range file {
		out[i] = corpusDecl{d.Name, d.Decl}
	}
	return out
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
	if err := r.DeclareFlags("admin", "guest"); err != nil {
		panic(err)
	}
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
				t.Skip("a format's output is no input of its field: Sample(e, Request()) is (TestSampleInputIsMade)")
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
