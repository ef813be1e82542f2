package tool

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// commandTests run in testdata with a new registry; each case's exit status,
// standard output and standard error are compared with
// testdata/golden/NAME.golden.
var commandTests = []struct {
	name  string
	args  []string
	stdin string
}{
	{"check", []string{"check", "users.entity", "orders.entity"}, ""},
	{"check_glob", []string{"check", "*rs.entity"}, ""},
	{"check_errors", []string{"check", "bad.entity"}, ""},
	// Every error of a file with a mistake on nearly every line, at once,
	// in file order, with the names misspelt ones were meant to be.
	{"check_mistakes", []string{"check", "mistakes.entity"}, ""},
	{"check_missing_reference", []string{"check", "orders.entity"}, ""},
	{"check_twice", []string{"check", "-f", "users.entity", "-f", "users.entity", "messy.entity"}, ""},
	{"check_unused", []string{"check", "-unused", "users.entity", "orders.entity"}, ""},
	{"check_no_file", []string{"check"}, ""},
	{"check_flags_undeclared", []string{"check", "flags.entity"}, ""},
	{"check_flags", []string{"check", "-flags", "admin", "--flags", "beta", "flags.entity"}, ""},
	{"make_flags", []string{"make", "-flags", "admin,beta", "-f", "flags.entity", "scores"}, `{"name": "x", "score": 3}`},
	{"make_with_select", []string{"make", "-flags", "admin,beta", "--with", "admin", "--select", "score", "-f", "flags.entity", "scores"}, `{"name": "x", "score": 3}`},
	{"make_bad_select", []string{"make", "-flags", "admin,beta", "--select", "nme", "-f", "flags.entity", "scores"}, `{"name": "x"}`},
	{"make_undeclared_with", []string{"make", "-flags", "admin,beta", "--with", "root", "-f", "flags.entity", "scores"}, `{"name": "x"}`},
	{"make_strict_version", []string{"make", "--strict", "--version", "v2", "-f", "users.entity", "user"}, `{"id": "7.5", "name": "n"}`},
	{"check_glob_matches_nothing", []string{"check", "nothing*.entity"}, ""},
	{"fmt", []string{"fmt", "messy.entity"}, ""},
	{"fmt_canonical", []string{"fmt", "users.entity"}, ""},
	{"fmt_list", []string{"fmt", "-l", "users.entity", "messy.entity"}, ""},
	{"fmt_errors", []string{"fmt", "bad.entity", "-f", "users.entity"}, ""},
	{"make", []string{"make", "-f", "users.entity", "users", "input.json"}, ""},
	{"make_stdin_pretty", []string{"make", "-f", "users.entity", "user", "--pretty"}, `{"id": 7, "name": "x", "extra": true}`},
	{"make_fails", []string{"make", "-f", "users.entity", "users", "badinput.json"}, ""},
	{"make_not_json", []string{"make", "-f", "users.entity", "user"}, `{"id": `},
	{"make_unknown_entity", []string{"make", "-f", "users.entity", "usr", "input.json"}, ""},
	{"make_file_errors", []string{"make", "-f", "bad.entity", "user", "input.json"}, ""},
	{"make_too_many_arguments", []string{"make", "-f", "users.entity", "user", "a.json", "b.json"}, ""},
	{"make_bad_flag", []string{"make", "-x", "-f", "users.entity", "user"}, ""},
	{"sample", []string{"sample", "-f", "orders.entity", "-f", "user*.entity", "-f", "users.entity", "--pretty", "order"}, ""},
	{"sample_input", []string{"sample", "--input", "-f", "users.entity", "user"}, ""},
	{"schema", []string{"schema", "-f", "users.entity", "user"}, ""},
	{"schema_bad_mode", []string{"schema", "-f", "users.entity", "--mode", "both", "user"}, ""},
	{"schema_request", []string{"schema", "-f", "users.entity", "--mode", "request", "users"}, ""},
	{"schema_patch", []string{"schema", "-f", "users.entity", "--mode", "patch", "users"}, ""},
	{"schema_public", []string{"schema", "-flags", "admin,beta", "-f", "flags.entity", "scores"}, ""},
	{"schema_audience", []string{"schema", "-flags", "admin,beta", "--with", "admin,beta", "--mode", "request", "-f", "flags.entity", "scores"}, ""},
	{"schema_every_entity", []string{"schema", "-f", "users.entity"}, ""},
	{"schema_openapi", []string{"schema", "-f", "users.entity", "-f", "orders.entity", "--openapi"}, ""},
	{"schema_unknown_entity", []string{"schema", "-f", "users.entity", "usr"}, ""},
	{"schema_warnings", []string{"schema", "-f", "patterns.entity", "codes"}, ""},
	{"gen_subset", []string{"gen", "-f", "users.entity", "-f", "orders.entity", "order"}, ""},
	{"gen_bad_names", []string{"gen", "-f", "badnames.entity"}, ""},
	// Entities named: the others' names are not judged.
	{"gen_named_skips_bad_names", []string{"gen", "-f", "badnames.entity", "-f", "orders.entity", "-f", "users.entity", "users"}, ""},
	{"gen_from_left_out", []string{"gen", "-f", "fromconflict.entity"}, ""},
	{"gen_unknown_entity", []string{"gen", "-f", "users.entity", "usr"}, ""},
	{"gen_file_as_entity", []string{"gen", "-f", "users.entity", "orders.entity"}, ""},
	{"gen_no_file", []string{"gen", "user"}, ""},
	{"gen_file_errors", []string{"gen", "-f", "bad.entity"}, ""},
	{"help_gen", []string{"help", "gen"}, ""},
	{"no_command", nil, ""},
	{"unknown_command", []string{"frobnicate"}, ""},
	{"help", []string{"help"}, ""},
	{"help_make", []string{"help", "make"}, ""},
	{"help_flag", []string{"check", "-h"}, ""},
	{"help_unknown", []string{"help", "frobnicate"}, ""},
}

func TestCommands(t *testing.T) {
	for _, tt := range commandTests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runTool(t, "testdata", tt.stdin, tt.args...)
			got := "exit " + strconv.Itoa(code) + "\n-- stdout --\n" + stdout + "-- stderr --\n" + stderr
			golden(t, filepath.Join("testdata", "golden", tt.name+".golden"), got)
		})
	}
}

// TestHelpForEveryCommand: every command has help text, printed with exit
// status 0 by "help NAME" and by "NAME -h".
func TestHelpForEveryCommand(t *testing.T) {
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			for _, args := range [][]string{{"help", c.name}, {c.name, "-h"}, {c.name, "--help"}} {
				code, stdout, stderr := runTool(t, "testdata", "", args...)
				if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "usage: expose "+c.name+" ") || len(stdout) < 200 {
					t.Errorf("expose %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, stdout, stderr)
				}
			}
		})
	}
}

// TestFmtWrite: fmt -w rewrites a file in the canonical form, which check
// accepts and fmt -l then leaves out.
func TestFmtWrite(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/messy.entity")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "m.entity"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runTool(t, dir, "", "fmt", "-w", "m.entity"); code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("fmt -w: exit %d, %q, %q", code, stdout, stderr)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "m.entity"))
	want, _ := os.ReadFile("testdata/golden/fmt.golden")
	if !strings.Contains(string(want), string(got)) {
		t.Errorf("fmt -w wrote\n%s\nnot what fmt printed:\n%s", got, want)
	}
	if code, stdout, _ := runTool(t, dir, "", "fmt", "-l", "m.entity"); code != 0 || stdout != "" {
		t.Errorf("fmt -l after fmt -w: exit %d, %q", code, stdout)
	}
}

// TestCheckAbsolutePath: errors name a file as the command line names it,
// outside the working directory too.
func TestCheckAbsolutePath(t *testing.T) {
	abs, err := filepath.Abs("testdata/bad.entity")
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runTool(t, t.TempDir(), "", "check", abs)
	if code != 1 || !strings.HasPrefix(stderr, abs+":2:10: ") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestFmtStdoutFailureFails: fmt and fmt -l exit 1 with the write error
// when the standard output cannot be written (a full disk), so that a cut
// output never passes for a whole one.
func TestFmtStdoutFailureFails(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	for _, args := range [][]string{{"fmt", "messy.entity"}, {"fmt", "-l", "messy.entity"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stderr bytes.Buffer
			code := runIn(t, "testdata", &env{strings.NewReader(""), full, &stderr, nil}, args...)
			if code != 1 || !strings.Contains(stderr.String(), "no space left on device") {
				t.Errorf("expose %s > /dev/full: exit %d, stderr %q; want exit 1 and the write error", strings.Join(args, " "), code, stderr.String())
			}
		})
	}
}

// TestFmtWriteFollowsSymlink: fmt -w on a symbolic link rewrites the file
// it points to and keeps the link, as gofmt -w does.
func TestFmtWriteFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/messy.entity")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "real", "m.entity")
	if err := os.WriteFile(target, src, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("real", "m.entity"), filepath.Join(dir, "link.entity")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if code, stdout, stderr := runTool(t, dir, "", "fmt", "-w", "link.entity"); code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("fmt -w: exit %d, %q, %q", code, stdout, stderr)
	}
	fi, err := os.Lstat(filepath.Join(dir, "link.entity"))
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is gone: %v, %v", fi, err)
	}
	got, _ := os.ReadFile(target)
	want, _ := os.ReadFile("testdata/golden/fmt.golden")
	if bytes.Equal(got, src) || !strings.Contains(string(want), string(got)) {
		t.Errorf("the target holds\n%s\nnot what fmt prints:\n%s", got, want)
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("the target's mode: %v, %v; want 0640", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "real")); len(entries) != 1 {
		t.Errorf("%d files beside the target, want none", len(entries)-1)
	}
}

const userFile = "user {\n  id    number  num | rename number\n  name  string  req\n}\nusers {\n  list  $user\n}\n"

// TestCommandLinesThatSucceed: command lines that exit 0.
func TestCommandLinesThatSucceed(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		// The same file named twice ("u.entity" and "./u.entity", or a
		// glob and a name) is loaded once.
		{"same file under two spellings", []string{"check", "u.entity", "./u.entity"}},
		{"glob and a name of the same file", []string{"check", "*.entity", "./u.entity"}},
		// An existing file named like a glob is that file.
		{"file name with brackets", []string{"check", "v[1].entity"}},
		// help is a command, which help explains.
		{"help help", []string{"help", "help"}},
	}
	dir := writeFiles(t, map[string]string{"u.entity": userFile, "v[1].entity": "other {\n  x  string\n}\n"})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runTool(t, dir, "", tt.args...)
			if code != 0 {
				t.Errorf("expose %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(tt.args, " "), code, stdout, stderr)
			}
		})
	}
}

// TestCheckEachErrorPlaced: an error inside "each '…'" is printed as
// file:line:col: message, as every error check prints, in file order.
func TestCheckEachErrorPlaced(t *testing.T) {
	dir := writeFiles(t, map[string]string{"e.entity": "a {\n  x  string  rnge\n  t  []string  each 'trim | rnge 1'\n}\n"})
	code, _, stderr := runTool(t, dir, "", "check", "e.entity")
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

// TestFmtWriteKeepsFileValid: fmt -w never turns a file that checks into
// one that does not: an entity whose name starts with U+FEFF (after the
// byte order mark ParseFile strips) keeps it.
func TestFmtWriteKeepsFileValid(t *testing.T) {
	dir := writeFiles(t, map[string]string{"b.entity": "\ufeff\ufeffx {\n  a string\n}\n"})
	if code, _, stderr := runTool(t, dir, "", "check", "b.entity"); code != 0 {
		t.Fatalf("the file does not check before fmt: %s", stderr)
	}
	if code, _, stderr := runTool(t, dir, "", "fmt", "-w", "b.entity"); code != 0 {
		t.Fatalf("fmt -w: exit %d: %s", code, stderr)
	}
	code, _, stderr := runTool(t, dir, "{}", "make", "-f", "b.entity", "\ufeffx", "-")
	if code != 0 {
		b, _ := os.ReadFile(filepath.Join(dir, "b.entity"))
		t.Errorf("after fmt -w the entity %q is gone (exit %d): %s\nfile: %q", "\ufeffx", code, stderr, b)
	}
}

// TestFmtGoesOn: fmt reports a file it cannot read and goes on with the
// next one, as it does after a file with syntax errors.
func TestFmtGoesOn(t *testing.T) {
	dir := writeFiles(t, map[string]string{"messy.entity": "a {\n x string\n}\n"})
	code, stdout, stderr := runTool(t, dir, "", "fmt", "-l", "missing.entity", "messy.entity")
	if code != 1 || stdout != "messy.entity\n" {
		t.Errorf("exit %d, stdout %q (stderr %q); want 1 and messy.entity listed", code, stdout, stderr)
	}
}

// TestMainNilRegistry: Main given no registry runs with a new one, as the
// expose command does (check prints nothing when the files check).
func TestMainNilRegistry(t *testing.T) {
	for range 2 { // a new one each call: the second loads the same files
		if code := Main(nil, []string{"check", "testdata/users.entity"}); code != 0 {
			t.Errorf("Main(nil, check): exit %d, want 0", code)
		}
	}
}
