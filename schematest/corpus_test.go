package schematest

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
	"github.com/expose-go/expose/rules"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// corpusPath is the test corpus that entitytest and the entity package's
// golden schemas use too.
const corpusPath = "../entity/testdata/corpus.json"

// corpusEntity is one entity of the corpus.
type corpusEntity struct {
	Name string   `json:"name"`
	Decl []string `json:"decl"`
}

// loadCorpus declares the corpus in a new registry, with its custom rules
// (even and caps, as entitytest defines them: without Schema hooks, so
// the schemas only name them). Entities whose references name nothing are
// left out of the names returned: they have no schema. checked tells the
// entities that Registry.Check finds nothing wrong with. opts are the
// registry's options.
func loadCorpus(t testing.TB, opts ...entity.RegistryOption) (reg *entity.Registry, names []string, checked func(string) bool) {
	t.Helper()
	b, err := os.ReadFile(corpusPath)
	if err != nil {
		t.Fatal(err)
	}
	var decls []corpusEntity
	if err := json.Unmarshal(b, &decls); err != nil {
		t.Fatal(err)
	}
	reg = entity.NewRegistry(opts...)
	if err := reg.DeclareFlags("admin", "guest"); err != nil {
		t.Fatal(err)
	}
	for _, d := range []rules.Def{even, caps} {
		if err := reg.RegisterRule(d); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range decls {
		if _, err := reg.Expose(d.Name, d.Decl...); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range decls {
		if _, err := schema.JSON(reg.Lookup(d.Name), schema.Response); err == nil {
			names = append(names, d.Name)
		}
	}
	if len(names) < 15 {
		t.Fatalf("only %d entities of the corpus have schemas", len(names))
	}
	faulty := map[string]bool{}
	var errs dsl.ErrorList
	if errors.As(reg.Verify(), &errs) {
		for _, e := range errs {
			faulty[e.Entity] = true
		}
	}
	return reg, names, func(name string) bool { return !faulty[name] }
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

// compile compiles a schema with format assertion on, as a validator
// that enforces "format" reads it.
func compile(t testing.TB, name string, schema []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	url := "https://schematest.invalid/" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: the schema does not compile: %v\n%s", name, err, schema)
	}
	return sch
}

// validate validates the JSON text doc against sch.
func validate(sch *jsonschema.Schema, doc []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}
