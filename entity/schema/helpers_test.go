package schema_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// expose exposes an entity in reg, failing the test on an error.
func expose(t testing.TB, reg *entity.Registry, name string, decl ...string) *entity.Entity {
	t.Helper()
	e, err := reg.Expose(name, decl...)
	if err != nil {
		t.Fatalf("Expose(%q): %v", name, err)
	}
	return e
}

// exposeOne exposes a one-field entity `"v", typ, rules` in a new registry.
func exposeOne(t testing.TB, typ, rules string) *entity.Entity {
	t.Helper()
	return expose(t, entity.NewRegistry(), "one", "v", typ, rules)
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

// golden compares got with the file at path, or writes it under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	got = append(append([]byte(nil), got...), '\n')
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update to rewrite it):\n%s", path, got)
	}
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
