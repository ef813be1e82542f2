package entity_test

// Hostile tests for LoadFS (issue 15): each test is a defect found by
// review, failing until it is fixed.

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

// TestHostileLoadFSEachErrorsPlaced: an error inside "each '…'" of a file
// is reported as if it came from triples ("dsl: entity … (triple 0,
// rules)"), without path:line:col, and sorts before every other error.
// typedlist.go:62 builds a triples Pos from the field's, dropping File,
// Line and Col.
func TestHostileLoadFSEachErrorsPlaced(t *testing.T) {
	tests := []struct {
		name, line, want string
	}{
		{"unknown rule", "  k  []string  each 'rnge 1'",
			`a.entity:2:22: entity "a", field "k": unknown rule "rnge" (did you mean "range"?)`},
		{"directive in each", "  l  []string  each 'req'",
			`a.entity:2:22: entity "a", field "l": each takes the rules and format of the elements, and "req" is the field's own: write it outside each`},
		{"bounds conflict", "  j  []string  each 'min 5 | max 1'",
			`a.entity:2:30: entity "a", field "j": max: minimum 5 is greater than maximum 1: no value meets both`},
		{"syntax", "  m  []string  each 'trim |'",
			`a.entity:2:27: entity "a", field "m": each: empty rule after "|"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := fstest.MapFS{"a.entity": {Data: []byte("a {\n" + tt.line + "\n}\n")}}
			err := entity.NewRegistry().LoadFS(files, "*.entity")
			var le *entity.LoadError
			if !errors.As(err, &le) || len(le.Errors) != 1 {
				t.Fatalf("LoadFS = %v, want one error", err)
			}
			e := le.Errors[0]
			if first := strings.SplitN(e.Error(), "\n", 2)[0]; first != tt.want || e.Pos.File != "a.entity" || e.Pos.Line != 2 {
				t.Errorf("error at %#v:\n%v\nwant first line\n%s", e.Pos, e, tt.want)
			}
		})
	}
}

// TestHostileLoadFSEveryError: "its error lists every error of every file"
// (issue 15, README), but a $ref to nothing, an undeclared flag and a
// merge that writes a key twice are looked for only once everything else
// compiles (load.go: checkEntities runs only when errs is empty): the user
// fixes one batch to discover the next.
func TestHostileLoadFSEveryError(t *testing.T) {
	files := fstest.MapFS{
		"a.entity": {Data: []byte("a {\n  x  string  rnge 1\n}\n")},
		"b.entity": {Data: []byte("b {\n  r  $nobody\n  f  string  if undeclared\n  id string\n  m  $c  merge\n}\nc {\n  id  number\n}\n")},
	}
	err := entity.NewRegistry().LoadFS(files, "*.entity")
	var le *entity.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("LoadFS = %v", err)
	}
	got := strings.Join(firstLines(le.Errors), "\n")
	for _, want := range []string{
		`a.entity:2:14: entity "a", field "x": unknown rule "rnge"`,
		`b.entity:2:6: entity "b", field "r": $nobody names no entity`,
		`flag "undeclared" is not declared`,
		`merge: output key "id"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

// TestHostileLoadFSDeclaredTwiceHasCaret: every LoadFS error is "path:line:col:
// message with the line and a caret under the fault" (its doc); "declared
// twice" and "already exposed" come without the line (load.go
// declaredOnce builds them without Source).
func TestHostileLoadFSDeclaredTwiceHasCaret(t *testing.T) {
	files := fstest.MapFS{
		"a.entity": {Data: []byte("user {\n  a  string\n}\n")},
		"b.entity": {Data: []byte("user {\n  b  string\n}\nold {\n}\n")},
	}
	reg := entity.NewRegistry()
	reg.MustExpose("old", "id", "number", "")
	err := reg.LoadFS(files, "*.entity")
	var le *entity.LoadError
	if !errors.As(err, &le) || len(le.Errors) != 2 {
		t.Fatalf("LoadFS = %v, want two errors", err)
	}
	for _, e := range le.Errors {
		if e.Source == "" || !strings.Contains(e.Error(), "^") {
			t.Errorf("no line and caret:\n%v", e)
		}
	}
}

// TestHostileFileFormChangesMeaning: PrintEntities quotes an argument
// starting with "#" (print.go rules), assuming a quoted and an unquoted
// argument mean the same; for format they do not (format.go:165: a quoted
// unknown name is a layout). The declaration that Expose refuses loads
// from its own file form.
func TestHostileFileFormChangesMeaning(t *testing.T) {
	// The file form cannot hold a bare argument starting with # (it starts
	// a comment), and quoting it would change its meaning (format '#2006'
	// is a layout): the declaration has no file form, and says so.
	tree, err := dsl.Parse("a", "d", "date", "format #2006")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dsl.PrintEntities(tree); err == nil || !strings.Contains(err.Error(), "no file form holds the bare argument") {
		t.Fatalf("PrintEntities: %v, want no file form", err)
	}
}

// TestHostileLoadFSConcurrent: LoadFS, Expose, Check and MakeJSON on one
// registry at once (run with -race): LoadFS is all or nothing even when
// an Expose of one of its names races it.
func TestHostileLoadFSConcurrent(t *testing.T) {
	files := fstest.MapFS{
		"a.entity": {Data: []byte("a {\n  id  number\n  b  $b\n}\nb {\n  x  string  default 'x'\n}\n")},
	}
	for range 20 {
		reg := entity.NewRegistry()
		reg.MustExpose("base", "id", "number", "")
		var wg sync.WaitGroup
		var loadErr, exposeErr error
		wg.Add(4)
		go func() { defer wg.Done(); loadErr = reg.LoadFS(files, "*.entity") }()
		go func() { defer wg.Done(); _, exposeErr = reg.Expose("b", "y", "string", "") }()
		go func() { defer wg.Done(); _, _ = reg.MakeJSON("base", map[string]any{"id": 1}) }()
		go func() { defer wg.Done(); _ = reg.Check() }()
		wg.Wait()
		if exposeErr != nil {
			t.Fatal(exposeErr)
		}
		a := reg.Lookup("a")
		if loadErr == nil {
			// b was exposed by Expose after LoadFS, replacing the file's b.
			if a == nil {
				t.Fatal("LoadFS succeeded, a is not exposed")
			}
			continue
		}
		if a != nil {
			t.Fatalf("LoadFS failed (%v), yet a is exposed", loadErr)
		}
	}
}

// TestHostileLoadFSBadHeaderHidesFieldErrors: an entity whose first line
// has an error ("PSOT") is left out of the file (file.go entity), so its
// fields are never compiled: the unknown rule on line 2 is not reported,
// while the unknown type on line 3 (a parser error) is.
func TestHostileLoadFSBadHeaderHidesFieldErrors(t *testing.T) {
	files := fstest.MapFS{"h.entity": {Data: []byte("user PSOT {\n  x  string  rnge\n  y  nmber\n}\n")}}
	err := entity.NewRegistry().LoadFS(files, "*.entity")
	var le *entity.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("LoadFS = %v", err)
	}
	got := strings.Join(firstLines(le.Errors), "\n")
	if want := `h.entity:2:14: entity "user", field "x": unknown rule "rnge"`; !strings.Contains(got, want) {
		t.Errorf("missing %q in\n%s", want, got)
	}
}

// TestHostileLoadFSDotSlashPattern: "./schemas/*.entity", the way paths
// are written on a command line, is no valid fs.FS path (fs.ValidPath);
// LoadFS says "the pattern matches no file", which sends the user looking
// for a missing file rather than at the "./" (load.go, the len(paths) == 0
// case).
func TestHostileLoadFSDotSlashPattern(t *testing.T) {
	files := fstest.MapFS{"s/a.entity": {Data: []byte("q {\n}\n")}}
	err := entity.NewRegistry().LoadFS(files, "./s/*.entity")
	if err == nil || strings.Contains(err.Error(), "matches no file") {
		t.Errorf("LoadFS = %v, want an error that names the invalid path, not a missing file", err)
	}
}
