package entitytest

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// update reports whether golden files are to be rewritten: the -update
// flag, which this package defines in every test binary that imports it.
// If a package initialized earlier has defined -update already, that flag
// is read instead of defining a second one (which would panic).
var update = updateFlag()

func updateFlag() func() bool {
	if f := flag.Lookup("update"); f != nil {
		return func() bool {
			if g, ok := f.Value.(flag.Getter); ok {
				b, ok := g.Get().(bool)
				return ok && b
			}
			return f.Value.String() == "true"
		}
	}
	p := flag.Bool("update", false, "rewrite the golden files in testdata/ (entitytest.Golden)")
	return func() bool { return *p }
}

// Golden compares got with the golden file testdata/name (a leading
// "testdata/" in name is allowed), and reports a difference with go-cmp's
// line diff. JSON is stored indented, two spaces a level, keys in their
// order, so that a reviewer reads the payload; it compares equal whatever
// its white space. Anything else is stored and compared as it is.
//
// Run the tests with -update to write got as the golden file instead:
//
//	go test ./... -run TestAPI -update
func Golden(t testing.TB, name string, got []byte) {
	t.Helper()
	file := goldenPath(name)
	pretty := indent(got)
	if update() {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Errorf("golden %s: %v", file, err)
			return
		}
		if err := os.WriteFile(file, pretty, 0o644); err != nil {
			t.Errorf("golden %s: %v", file, err)
			return
		}
		t.Logf("golden %s: updated", file)
		return
	}
	want, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		t.Errorf("golden %s: no such file; run the test with -update to create it", file)
		return
	}
	if err != nil {
		t.Errorf("golden %s: %v", file, err)
		return
	}
	if sameText(want, got) {
		return
	}
	t.Errorf("golden %s: mismatch (-want +got):\n%s\nrun the test with -update to accept got",
		file, cmp.Diff(string(indent(want)), string(pretty)))
}

// goldenPath returns the file of a golden name, under testdata/.
func goldenPath(name string) string {
	name = filepath.FromSlash(name)
	if filepath.IsAbs(name) {
		return name
	}
	clean := filepath.Clean(name)
	if strings.HasPrefix(clean, "testdata"+string(filepath.Separator)) {
		return clean
	}
	return filepath.Join("testdata", clean)
}

// indent returns JSON indented by two spaces and ending in a newline, and
// anything else as it is.
func indent(b []byte) []byte {
	var buf bytes.Buffer
	if json.Indent(&buf, bytes.TrimSpace(b), "", "  ") != nil {
		return b
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}

// sameText reports whether a golden file's text holds got: the same JSON up
// to white space, or else the same bytes (line endings aside).
func sameText(want, got []byte) bool {
	if json.Valid(want) && json.Valid(got) {
		return bytes.Equal(compact(want), compact(got))
	}
	return bytes.Equal(bytes.ReplaceAll(want, []byte("\r\n"), []byte("\n")), got)
}
