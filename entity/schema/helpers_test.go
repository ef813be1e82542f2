package schema_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/internal/testkit"
	"github.com/expose-go/expose/rules"
)

// exposeOne exposes a one-field entity `"v", typ, rules` in a new registry.
func exposeOne(t testing.TB, typ, rules string) *entity.Entity {
	t.Helper()
	return expose(t, entity.NewRegistry(), "one", "v", typ, rules)
}

// The helpers the packages' tests share (internal/testkit).
var (
	expose = testkit.Expose[*entity.Entity]
)

// golden compares a schema, and the newline that ends its file, with the
// golden file at path (testkit.Golden).
func golden(t testing.TB, path string, got []byte) {
	t.Helper()
	testkit.Golden(t, path, append(append([]byte(nil), got...), '\n'))
}

// corpus declares the test corpus (../testdata/corpus.json, shared with
// entitytest and the schematest module) in a registry of its own, with its
// custom rules: even and caps, which have no Schema hook.
func corpus(t testing.TB) (*entity.Registry, []string) {
	t.Helper()
	b, err := os.ReadFile("../testdata/corpus.json")
	if err != nil {
		t.Fatal(err)
	}
	var decls []struct {
		Name string   `json:"name"`
		Decl []string `json:"decl"`
	}
	if err := json.Unmarshal(b, &decls); err != nil {
		t.Fatal(err)
	}
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin", "guest"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"even", "caps"} {
		err := reg.RegisterRule(rules.Def{Name: name, Types: rules.Kinds(rules.Int, rules.String),
			Compile: func([]string, rules.Kind) (rules.Checker, error) {
				return rules.CheckFunc(func(rules.Value) error { return nil }), nil
			}})
		if err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for _, d := range decls {
		expose(t, reg, d.Name, d.Decl...)
		names = append(names, d.Name)
	}
	return reg, names
}

// compact returns JSON text without its white space.
func compact(b []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return err.Error()
	}
	return buf.String()
}

// property returns the compacted schema of the property key of a JSON
// Schema document (nil when it has none), and whether key is required.
func property(t testing.TB, doc []byte, key string) (string, bool) {
	t.Helper()
	var s struct {
		Properties map[string]json.RawMessage
		Required   []string
	}
	if err := json.Unmarshal(doc, &s); err != nil {
		t.Fatal(err)
	}
	req := false
	for _, r := range s.Required {
		req = req || r == key
	}
	p, ok := s.Properties[key]
	if !ok {
		return "", req
	}
	return compact(p), req
}
