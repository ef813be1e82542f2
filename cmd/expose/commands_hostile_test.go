package main

// Hostile tests of the expose tool (issue 15): each test is a defect found
// by review, failing until it is fixed.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles writes name → content files in a new temporary directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const hostileUser = "user {\n  id    number  num | rename number\n  name  string  req\n}\nusers {\n  list  $user\n}\n"

// TestHostileExitStatus: command lines that should succeed.
func TestHostileExitStatus(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		// expand (flags.go) dedupes by the string given: the same file
		// named twice ("u.entity" and "./u.entity", or a glob and a
		// name) is loaded twice and every entity is "declared twice:
		// first at u.entity:1:1" against itself.
		{"same file under two spellings", []string{"check", "u.entity", "./u.entity"}},
		{"glob and a name of the same file", []string{"check", "*.entity", "./u.entity"}},
		// expand reads every name holding "[" as a glob: an existing
		// file literally named "v[1].entity" "matches no file".
		{"file name with brackets", []string{"check", "v[1].entity"}},
		// The usage lists "expose help [COMMAND]", and help is a
		// command, but "expose help help" is "unknown command" (exit 2).
		{"help help", []string{"help", "help"}},
	}
	dir := writeFiles(t, map[string]string{"u.entity": hostileUser, "v[1].entity": "other {\n  x  string\n}\n"})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runBinary(t, dir, "", tt.args...)
			if code != 0 {
				t.Errorf("expose %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(tt.args, " "), code, stdout, stderr)
			}
		})
	}
}

// TestHostileCheckEachErrorPlaced: every error check prints is
// file:line:col: message (its help, the README); an error inside
// "each '…'" is printed in the triples' form, "dsl: entity … field …",
// without its file, and first, before the errors of line 2.
func TestHostileCheckEachErrorPlaced(t *testing.T) {
	dir := writeFiles(t, map[string]string{"e.entity": "a {\n  x  string  rnge\n  t  []string  each 'trim | rnge 1'\n}\n"})
	code, _, stderr := runBinary(t, dir, "", "check", "e.entity")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	var firsts []string
	for _, l := range strings.Split(stderr, "\n") {
		if l != "" && !strings.HasPrefix(l, " ") && !strings.HasSuffix(l, " errors") {
			firsts = append(firsts, l)
		}
	}
	want := []string{
		`e.entity:2:14: entity "a", field "x": unknown rule "rnge" (did you mean "range"?)`,
		`e.entity:3:29: entity "a", field "t": unknown rule "rnge" (did you mean "range"?)`,
	}
	if strings.Join(firsts, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant\n%s\nstderr:\n%s", strings.Join(firsts, "\n"), strings.Join(want, "\n"), stderr)
	}
}

// TestHostileFmtWriteKeepsFileValid: fmt -w must never turn a file that
// checks into one that does not. An entity whose name starts with U+FEFF
// (after the BOM ParseFile strips) is printed bare at the start of the
// file, where the next read strips it as a BOM (print.go fileName).
func TestHostileFmtWriteKeepsFileValid(t *testing.T) {
	dir := writeFiles(t, map[string]string{"b.entity": "\ufeff\ufeffx {\n  a string\n}\n"})
	if code, _, stderr := runBinary(t, dir, "", "check", "b.entity"); code != 0 {
		t.Fatalf("the file does not check before fmt: %s", stderr)
	}
	if code, _, stderr := runBinary(t, dir, "", "fmt", "-w", "b.entity"); code != 0 {
		t.Fatalf("fmt -w: exit %d: %s", code, stderr)
	}
	code, _, stderr := runBinary(t, dir, "{}", "make", "-f", "b.entity", "\ufeffx", "-")
	if code != 0 {
		b, _ := os.ReadFile(filepath.Join(dir, "b.entity"))
		t.Errorf("after fmt -w the entity %q is gone (exit %d): %s\nfile: %q", "\ufeffx", code, stderr, b)
	}
}

// TestHostileFmtGoesOn: fmt reports a file that has syntax errors and goes
// on with the next one, but a file it cannot read stops it at once
// (fmt.go returns on the os.ReadFile error): the files after it are
// neither listed nor rewritten.
func TestHostileFmtGoesOn(t *testing.T) {
	dir := writeFiles(t, map[string]string{"messy.entity": "a {\n x string\n}\n"})
	code, stdout, stderr := runBinary(t, dir, "", "fmt", "-l", "missing.entity", "messy.entity")
	if code != 1 || stdout != "messy.entity\n" {
		t.Errorf("exit %d, stdout %q (stderr %q); want 1 and messy.entity listed", code, stdout, stderr)
	}
}
