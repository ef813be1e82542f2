package entitytest

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// updateFlag is the name of the flag that entitytest defines for Golden,
// in its own name space so that it clashes with no flag of a test package.
const updateFlag = "entitytest.update"

// updateEnv is the environment variable that makes Golden rewrite its files.
const updateEnv = "ENTITYTEST_UPDATE"

// The flag is defined in test binaries only, and only when no other package
// has defined it: a test binary parses its command line before any test
// runs, so a flag defined later, at first use, could never be set. Nothing
// else is built at init.
func init() {
	if testing.Testing() && flag.CommandLine.Lookup(updateFlag) == nil {
		flag.Bool(updateFlag, false, "rewrite the golden files in testdata/ (entitytest.Golden)")
	}
}

// update reports whether Golden rewrites golden files rather than comparing
// with them: when the test binary defines its own -update flag and it is
// set, when -entitytest.update is set, or when ENTITYTEST_UPDATE is 1 (or
// another value strconv.ParseBool reads as true).
func update() bool {
	if flagSet("update") || flagSet(updateFlag) {
		return true
	}
	on, err := strconv.ParseBool(os.Getenv(updateEnv))
	return err == nil && on
}

// flagSet reports whether the command-line flag name is defined and true.
func flagSet(name string) bool {
	f := flag.CommandLine.Lookup(name)
	if f == nil {
		return false
	}
	if g, ok := f.Value.(flag.Getter); ok {
		if b, ok := g.Get().(bool); ok {
			return b
		}
	}
	on, err := strconv.ParseBool(f.Value.String())
	return err == nil && on
}

// Golden compares got with the golden file testdata/name (a leading
// "testdata/" in name is allowed), and reports a difference with go-cmp's
// line diff. JSON is stored indented, two spaces a level, keys in their
// order, so that a reviewer reads the payload; it compares equal whatever
// its white space. Anything else is stored and compared as it is.
//
// To write got as the golden file instead, run the tests with
// ENTITYTEST_UPDATE=1, or with -entitytest.update, or with -update when the
// test package defines that flag itself (entitytest defines no -update):
//
//	ENTITYTEST_UPDATE=1 go test ./... -run TestAPI
//	go test ./... -run TestAPI -args -entitytest.update
//
// Golden knows no entity: it prints got and the file as they are, secret
// fields included. Golden reports a mismatch, a missing file or a failure to
// write with t.Errorf, and returns whether there was none.
func Golden(t testing.TB, name string, got []byte) bool {
	t.Helper()
	file := goldenPath(name)
	pretty := indent(got)
	if update() {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Errorf("golden %s: %v", file, err)
			return false
		}
		if err := os.WriteFile(file, pretty, 0o644); err != nil {
			t.Errorf("golden %s: %v", file, err)
			return false
		}
		t.Logf("golden %s: updated", file)
		return true
	}
	want, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		t.Errorf("golden %s: no such file; run the test with ENTITYTEST_UPDATE=1 to create it", file)
		return false
	}
	if err != nil {
		t.Errorf("golden %s: %v", file, err)
		return false
	}
	if sameText(want, got) {
		return true
	}
	t.Errorf("golden %s: mismatch (-want +got):\n%s\nrun the test with ENTITYTEST_UPDATE=1 to accept got",
		file, cmp.Diff(string(indent(want)), string(pretty)))
	return false
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
