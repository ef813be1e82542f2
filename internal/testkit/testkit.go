// Package testkit holds the helpers the repository's tests share across
// packages: golden files rewritten by -update, a value at a path of a JSON
// document, an entity exposed or the test fails. Only tests import it.
package testkit

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Update is the -update flag of every test binary that imports testkit:
// Golden rewrites its files instead of comparing with them.
var Update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Golden compares got with the file at path, or writes it under -update.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test -run '%s' -update to rewrite it) (-want +got):\n%s", path, t.Name(), cmp.Diff(string(want), string(got)))
	}
}

// At returns the compacted value at path in a JSON document (a step of
// digits indexes a list), "null" when there is none.
func At(t testing.TB, doc []byte, path ...string) string {
	t.Helper()
	var v any
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	for _, k := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			v = nil
			if i, err := strconv.Atoi(k); err == nil && i >= 0 && i < len(x) {
				v = x[i]
			}
		default:
			v = nil
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimRight(b.Bytes(), "\n"))
}

// Exposer is what Expose exposes an entity in: package entity's Registry
// (named by its method, so that the kit imports no package of the
// library and any package's tests may use it).
type Exposer[E any] interface {
	Expose(name string, decl ...string) (E, error)
}

// Expose exposes an entity in reg, failing the test on an error.
func Expose[E any](t testing.TB, reg Exposer[E], name string, decl ...string) E {
	t.Helper()
	e, err := reg.Expose(name, decl...)
	if err != nil {
		t.Fatalf("Expose(%q): %v", name, err)
	}
	return e
}
