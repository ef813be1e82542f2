package entitytest

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ownUpdate is the test package's own -update flag, as many test packages
// define one: entitytest must not define it too (the binary would panic at
// start), and Golden honours it.
var ownUpdate = flag.Bool("update", false, "a test package's own -update flag")

// setUpdate turns golden updates on or off for the rest of the test, with
// ENTITYTEST_UPDATE.
func setUpdate(t *testing.T, on bool) {
	t.Helper()
	if on {
		t.Setenv(updateEnv, "1")
	} else {
		t.Setenv(updateEnv, "")
	}
}

// setFlag sets a command-line flag for the rest of the test.
func setFlag(t *testing.T, name, value string) {
	t.Helper()
	f := flag.Lookup(name)
	if f == nil {
		t.Fatalf("the -%s flag is not defined", name)
	}
	old := f.Value.String()
	if err := flag.Set(name, value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { flag.Set(name, old) })
}

func TestGolden(t *testing.T) {
	t.Chdir(t.TempDir())
	const pretty = "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}\n"

	// No file yet.
	tb := &fakeTB{}
	ok := Golden(tb, "x.golden", []byte(`{"a":[1,2],"b":{}}`))
	checkReport(t, tb, ok, []string{"golden testdata/x.golden: no such file; run the test with ENTITYTEST_UPDATE=1 to create it"})

	// -update writes it, indented.
	setUpdate(t, true)
	tb = &fakeTB{}
	ok = Golden(tb, "x.golden", []byte(`{"a":[1,2],"b":{}}`))
	checkReport(t, tb, ok, nil)
	if len(tb.logs) != 1 || tb.logs[0] != "golden testdata/x.golden: updated" {
		t.Errorf("logs = %q", tb.logs)
	}
	if b, err := os.ReadFile("testdata/x.golden"); err != nil || string(b) != pretty {
		t.Errorf("file = %q, %v; want %q", b, err, pretty)
	}
	setUpdate(t, false)

	tests := []struct {
		name string
		file string
		got  string
		want []string
	}{
		{"same JSON", "x.golden", `{"a":[1,2],"b":{}}`, nil},
		{"same JSON, other white space", "x.golden", "{\"a\" : [1, 2], \"b\": { }}\n", nil},
		{"leading testdata/", "testdata/x.golden", `{"a":[1,2],"b":{}}`, nil},
		{"other JSON", "x.golden", `{"a":[1,3],"b":{}}`, []string{"golden testdata/x.golden: mismatch (-want +got):"}},
		{"key order counts", "x.golden", `{"b":{},"a":[1,2]}`, []string{"golden testdata/x.golden: mismatch (-want +got):"}},
		{"not JSON", "x.golden", `a,b`, []string{"golden testdata/x.golden: mismatch (-want +got):"}},
		{"a directory", "dir", `{}`, []string{"golden testdata/dir: read testdata/dir: is a directory"}},
	}
	os.Mkdir("testdata/dir", 0o755)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &fakeTB{}
			ok := Golden(tb, tt.file, []byte(tt.got))
			if len(tt.want) == 1 && len(tb.errors) == 1 && strings.HasSuffix(tt.want[0], ":") {
				// A diff follows: check its frame, not go-cmp's text.
				msg := tb.errors[0]
				if !strings.HasPrefix(msg, tt.want[0]+"\n") || !strings.HasSuffix(msg, "\nrun the test with ENTITYTEST_UPDATE=1 to accept got") {
					t.Errorf("message = %q", msg)
				}
				tb.errors[0] = tt.want[0]
			}
			checkReport(t, tb, ok, tt.want)
		})
	}
}

func TestGoldenText(t *testing.T) {
	t.Chdir(t.TempDir())
	setUpdate(t, true)
	Golden(&fakeTB{}, "sub/page.txt", []byte("not json\n"))
	if b, err := os.ReadFile(filepath.Join("testdata", "sub", "page.txt")); err != nil || string(b) != "not json\n" {
		t.Fatalf("file = %q, %v", b, err)
	}
	setUpdate(t, false)
	tb := &fakeTB{}
	ok := Golden(tb, "sub/page.txt", []byte("not json\n"))
	checkReport(t, tb, ok, nil)
	os.WriteFile("testdata/sub/page.txt", []byte("not json\r\n"), 0o644)
	tb = &fakeTB{}
	ok = Golden(tb, "sub/page.txt", []byte("not json\n"))
	checkReport(t, tb, ok, nil) // a checkout with CRLF line endings
}

// TestUpdateSources checks each way to turn golden updates on: the test
// package's own -update, entitytest's -entitytest.update, and
// ENTITYTEST_UPDATE.
func TestUpdateSources(t *testing.T) {
	if f := flag.Lookup("update"); f == nil || f.Usage != "a test package's own -update flag" {
		t.Fatalf("-update is not the test package's own flag: %v", f)
	}
	if flag.Lookup(updateFlag) == nil {
		t.Fatalf("entitytest did not define -%s in its test binary", updateFlag)
	}
	tests := []struct {
		name   string
		update string // the test package's -update
		own    string // -entitytest.update
		env    string // ENTITYTEST_UPDATE
		want   bool
	}{
		{"nothing set", "false", "false", "", false},
		{"the package's -update", "true", "false", "", true},
		{"-entitytest.update", "false", "true", "", true},
		{"ENTITYTEST_UPDATE=1", "false", "false", "1", true},
		{"ENTITYTEST_UPDATE=true", "false", "false", "true", true},
		{"ENTITYTEST_UPDATE=0", "false", "false", "0", false},
		{"ENTITYTEST_UPDATE=yes is not a bool", "false", "false", "yes", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			setFlag(t, "update", tt.update)
			setFlag(t, updateFlag, tt.own)
			t.Setenv(updateEnv, tt.env)
			if got := update(); got != tt.want {
				t.Errorf("update() = %v, want %v", got, tt.want)
			}
		})
	}
	if *ownUpdate {
		t.Errorf("the package's own -update is still set after the test")
	}
}
