package entity_test

import (
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// loadFiles are the files LoadFS tests read.
var loadFiles = fstest.MapFS{
	"schemas/user.entity": {Data: []byte(`# the user
user {
  id       number  num | rename 'number'
  name     string  req
  details  {
    age   number  num
    mail  string  email
  }
  code     string  default 'unknown'
}
`)},
	"schemas/users.entity": {Data: []byte(`users {
  offset  number  default 0
  limit   number  default 0
  list    $user
}
`)},
	"bad/a.entity": {Data: []byte(`a {
  x  nmber
  y  string  req | rnge 1
  z  number  min 5 | max 3
}
`)},
	"bad/b.entity": {Data: []byte(`b {
  r  $nobody
  d  number  range 9 1
  e  string  email | default 'nope'
  k  string
  kk string  rename k
}
`)},
	"dup/one.entity":  {Data: []byte("user {\n  a string\n}\n")},
	"dup/two.entity":  {Data: []byte("other {\n}\nuser {\n  b string\n}\n")},
	"dup/only.entity": {Data: []byte("lonely {\n  u  $user\n}\n")},
}

// TestLoadFS: the files' entities are exposed, refer to each other, and
// make what their triples would.
func TestLoadFS(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.LoadFS(loadFiles, "schemas/*.entity"); err != nil {
		t.Fatal(err)
	}
	got, err := reg.Lookup("users").MakeJSON(map[string]any{"limit": 1, "list": []any{map[string]any{"id": "7", "name": "ann", "age": 30}}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"offset":0,"limit":1,"list":[{"number":7,"name":"ann","details":{"age":30,"mail":null},"code":"unknown"}]}`
	if string(got) != want {
		t.Errorf("MakeJSON = %s\nwant %s", got, want)
	}
	if p := reg.Lookup("user").Decl().Fields[0].Pos; p.String() != "schemas/user.entity:3:3" {
		t.Errorf("the field's position is %v", p)
	}
}

// TestLoadFSErrors: every error of every file is reported, each at its
// file:line:col, and nothing is exposed.
func TestLoadFSErrors(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
		before   []string // an entity exposed from Go first
		want     []string // the errors' first lines, in order
	}{
		{"syntax and compiler errors of two files", []string{"bad/*.entity"}, nil, []string{
			`bad/a.entity:2:6: entity "a", field "x": unknown type "nmber" (did you mean "number"?)`,
			`bad/a.entity:3:20: entity "a", field "y": unknown rule "rnge" (did you mean "range"?)`,
			`bad/a.entity:4:22: entity "a", field "z": max: minimum 5 is greater than maximum 3: no value meets both`,
			`bad/b.entity:2:6: entity "b", field "r": $nobody names no entity`,
			`bad/b.entity:3:14: entity "b", field "d": range: minimum 9 is greater than maximum 1`,
			`bad/b.entity:4:30: entity "b", field "e": the default fails rule "email": must be a valid email address`,
			`bad/b.entity:6:3: entity "b", field "kk": output key "k" is already written by field "k" (bad/b.entity:5:3)`,
		}},
		{"declared twice across files", []string{"dup/one.entity", "dup/two.entity"}, nil, []string{
			`dup/two.entity:3:1: entity "user": entity "user" is declared twice: first at dup/one.entity:1:1`,
		}},
		{"already exposed from Go", []string{"schemas/user.entity"}, []string{"user"}, []string{
			`schemas/user.entity:2:1: entity "user": entity "user" is already exposed in the registry: LoadFS replaces nothing`,
		}},
		{"a reference to nothing", []string{"dup/only.entity"}, nil, []string{
			`dup/only.entity:2:6: entity "lonely", field "u": $user names no entity`,
		}},
		{"a pattern that matches nothing", []string{"schemas/*.entity", "nothing/*.entity"}, nil, []string{
			`nothing/*.entity: the pattern matches no file`,
		}},
		{"a bad pattern", []string{"schemas/[.entity"}, nil, []string{
			`schemas/[.entity: bad pattern: syntax error in pattern`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			for _, name := range tt.before {
				reg.MustExpose(name, "id", "number", "")
			}
			err := reg.LoadFS(loadFiles, tt.patterns...)
			var le *entity.LoadError
			if !errors.As(err, &le) {
				t.Fatalf("LoadFS = %v, want a *LoadError", err)
			}
			if got := firstLines(le.Errors); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("errors:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			for _, e := range le.Errors {
				if !strings.Contains(err.Error(), e.Error()) {
					t.Errorf("the LoadError's text leaves out %q", e.Error())
				}
			}
			var l dsl.ErrorList
			if !errors.As(err, &l) || len(l) != len(le.Errors) {
				t.Errorf("errors.As finds no dsl.ErrorList in %T", err)
			}
			names := reg.Names()
			if len(names) != len(tt.before) {
				t.Errorf("after a failed LoadFS the registry holds %v, want %v", names, tt.before)
			}
		})
	}
}

// firstLines returns the first line of each error's text.
func firstLines(l dsl.ErrorList) []string {
	var out []string
	for _, e := range l {
		out = append(out, strings.SplitN(e.Error(), "\n", 2)[0])
	}
	return out
}

// TestLoadFSReferenceErrors: references are checked once every file
// compiles, against the files' entities and the registry's.
func TestLoadFSReferenceErrors(t *testing.T) {
	files := fstest.MapFS{
		"a.entity": {Data: []byte("a {\n  b  $b\n  c  $c  default\n}\n")},
		"c.entity": {Data: []byte("c {\n  x  string  req\n}\n")},
	}
	reg := entity.NewRegistry()
	err := reg.LoadFS(files, "*.entity")
	want := "entity: LoadFS: 2 errors\n" +
		"a.entity:2:6: entity \"a\", field \"b\": $b names no entity\n" +
		"     2 |   b  $b\n" +
		"       |      ^\n" +
		"a.entity:3:3: entity \"a\", field \"c\": its bare default makes $c from an empty input, which fails: x: is required\n" +
		"     3 |   c  $c  default\n" +
		"       |   ^"
	if err == nil || err.Error() != want {
		t.Fatalf("LoadFS =\n%v\nwant\n%s", err, want)
	}
	reg.MustExpose("b", "id", "number", "")
	files["c.entity"] = &fstest.MapFile{Data: []byte("c {\n  x  string  default 'x'\n}\n")}
	if err := reg.LoadFS(files, "*.entity"); err != nil {
		t.Fatalf("with b exposed from Go and c fixed: %v", err)
	}
	if reg.Lookup("a") == nil || reg.Lookup("c") == nil {
		t.Fatal("a and c not exposed")
	}
}

// TestLoadFSMergeDependents: an entity of the registry that merges one the
// files declare must not write a key twice once it is loaded, as Expose
// checks it.
func TestLoadFSMergeDependents(t *testing.T) {
	reg := entity.NewRegistry()
	reg.MustExpose("user", "city", "string", "", "addr", "$address", "merge")
	files := fstest.MapFS{"address.entity": {Data: []byte("address {\n  city  string\n}\n")}}
	err := reg.LoadFS(files, "*.entity")
	var le *entity.LoadError
	if !errors.As(err, &le) || len(le.Errors) != 1 || !strings.Contains(le.Errors[0].Msg, `(if "address" were loaded as declared)`) {
		t.Fatalf("LoadFS = %v, want the merge clash of user", err)
	}
	if reg.Lookup("address") != nil {
		t.Fatal("address exposed after a failed LoadFS")
	}
	files["address.entity"] = &fstest.MapFile{Data: []byte("address {\n  street  string\n}\n")}
	if err := reg.LoadFS(files, "*.entity"); err != nil {
		t.Fatal(err)
	}
	if got, _ := reg.Lookup("user").MakeJSON(map[string]any{"city": "x", "addr": map[string]any{"street": "y"}}); string(got) != `{"city":"x","street":"y"}` {
		t.Errorf("MakeJSON = %s", got)
	}
}

// TestLoadFSNoPattern: LoadFS needs a pattern.
func TestLoadFSNoPattern(t *testing.T) {
	if err := entity.NewRegistry().LoadFS(loadFiles); err == nil || !strings.HasPrefix(err.Error(), "entity: LoadFS: no pattern") {
		t.Fatalf("LoadFS() = %v", err)
	}
}

// TestLoadFSDir: LoadFS reads an os.DirFS as well as an embed.FS.
func TestLoadFSDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/x.entity", []byte("x POST {\n  n  number  req\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := entity.NewRegistry()
	if err := reg.LoadFS(os.DirFS(dir), "*.entity"); err != nil {
		t.Fatal(err)
	}
	if got := reg.Lookup("x").Decl().Methods; len(got) != 1 || got[0] != "POST" {
		t.Errorf("methods %v", got)
	}
}

// TestLoadFSReportsEveryError: a file with a mistake on nearly every line
// gives every error at once, in file order, with the names misspelt ones
// were likely meant to be: an unknown type hides neither the unknown rule
// of its own field nor the errors of the others, and the references and
// flags of an entity in error are checked too.
func TestLoadFSReportsEveryError(t *testing.T) {
	files := fstest.MapFS{"shop.entity": {Data: []byte(`money {
  amount  float  format fixd 2
}
order {
  id     nmber   rnge 1 5
  total  $mony   req
  payer  $money  rq
  note   string  rquired | trm
  tags   []strng each 'trim'
  when   date    format unx
  vip    bool    if admn
  qty    number  min 5 | max 3
}
`)}}
	err := entity.NewRegistry().LoadFS(files, "*.entity")
	var le *entity.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("LoadFS = %v, want a *LoadError", err)
	}
	want := []string{
		`shop.entity:2:25: entity "money", field "amount": unknown format "fixd" (did you mean "fixed"?)`,
		`shop.entity:5:10: entity "order", field "id": unknown type "nmber" (did you mean "number"?)`,
		`shop.entity:5:18: entity "order", field "id": unknown rule "rnge" (did you mean "range"?)`,
		`shop.entity:6:10: entity "order", field "total": $mony names no entity (did you mean $money?)`,
		`shop.entity:7:18: entity "order", field "payer": unknown rule "rq" (did you mean "req"?)`,
		`shop.entity:8:18: entity "order", field "note": unknown rule "rquired" (did you mean "required"?)`,
		`shop.entity:8:28: entity "order", field "note": unknown rule "trm" (did you mean "trim"?)`,
		`shop.entity:9:10: entity "order", field "tags": unknown type "[]strng" (did you mean "[]string"?)`,
		`shop.entity:10:25: entity "order", field "when": unknown format "unx" (did you mean "unix"?)`,
		`shop.entity:11:21: entity "order", field "vip": flag "admn" is not declared: declare it with DeclareFlags, so that a misspelled flag never shows or hides a field`,
		`shop.entity:12:26: entity "order", field "qty": max: minimum 5 is greater than maximum 3: no value meets both`,
	}
	if diff := cmp.Diff(want, firstLines(le.Errors)); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestLoadFSRegisteredFormat: the files may name a format the registry
// registered, as Expose's declarations may.
func TestLoadFSRegisteredFormat(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.RegisterFormat("cents", rules.Kinds(rules.Int), func(v rules.Value, _ []string) (any, error) {
		return float64(v.Int) / 100, nil
	}); err != nil {
		t.Fatal(err)
	}
	files := fstest.MapFS{"price.entity": {Data: []byte("price {\n  amount  number  format cents\n}\n")}}
	if err := reg.LoadFS(files, "*.entity"); err != nil {
		t.Fatalf("LoadFS: %v", err)
	}
	if got, err := reg.Lookup("price").MakeJSON(map[string]any{"amount": 1250}); err != nil || string(got) != `{"amount":12.5}` {
		t.Errorf("MakeJSON = %s, %v", got, err)
	}
	// A registry that did not register it still refuses it.
	err := entity.NewRegistry().LoadFS(files, "*.entity")
	if err == nil || !strings.Contains(err.Error(), `unknown format "cents"`) {
		t.Errorf("LoadFS without the format = %v", err)
	}
}

// TestLoadFSEachErrorsPlaced: an error inside "each '…'" of a file is
// placed at its file, line and column, under the rule it is about.
func TestLoadFSEachErrorsPlaced(t *testing.T) {
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

// TestLoadFSChecksReferencesWhateverFails: a $ref to nothing, an
// undeclared flag and a merge that writes a key twice are reported with
// the compiler's errors of other files, not once those are fixed.
func TestLoadFSChecksReferencesWhateverFails(t *testing.T) {
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

// TestLoadFSDeclaredTwiceShowsTheLine: "declared twice" and "already
// exposed" show the entity's line with a caret, as every LoadFS error.
func TestLoadFSDeclaredTwiceShowsTheLine(t *testing.T) {
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

// TestFileFormOfBareHashArgument: a bare argument starting with "#" has
// no file form, since quoting it could change what it means (a quoted
// format that names no format is a layout): PrintEntities says so rather
// than print a declaration that means something else.
func TestFileFormOfBareHashArgument(t *testing.T) {
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

// TestLoadFSConcurrent: LoadFS, Expose, Check and MakeJSON on one
// registry at once (run with -race): LoadFS is all or nothing even when
// an Expose of one of its names races it.
func TestLoadFSConcurrent(t *testing.T) {
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
		go func() { defer wg.Done(); _, _ = reg.Lookup("base").MakeJSON(map[string]any{"id": 1}) }()
		go func() { defer wg.Done(); _ = reg.Verify() }()
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

// TestLoadFSBadFirstLineHidesNoFieldError: the fields of an entity whose
// first line is in error ("PSOT") are compiled too: the unknown rule of
// line 2 is reported with the unknown method.
func TestLoadFSBadFirstLineHidesNoFieldError(t *testing.T) {
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

// TestLoadFSDotSlashPattern: "./schemas/*.entity", the way paths are
// written on a command line, is no fs.FS path (fs.ValidPath): the error
// says so, rather than that the pattern matches no file.
func TestLoadFSDotSlashPattern(t *testing.T) {
	files := fstest.MapFS{"s/a.entity": {Data: []byte("q {\n}\n")}}
	err := entity.NewRegistry().LoadFS(files, "./s/*.entity")
	if err == nil || strings.Contains(err.Error(), "matches no file") {
		t.Errorf("LoadFS = %v, want an error that names the invalid path, not a missing file", err)
	}
}
