package entitytest

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// setUpdate sets the -update flag for the rest of the test.
func setUpdate(t *testing.T, on bool) {
	t.Helper()
	f := flag.Lookup("update")
	if f == nil {
		t.Fatal("the -update flag is not defined")
	}
	old := f.Value.String()
	if on {
		flag.Set("update", "true")
	} else {
		flag.Set("update", "false")
	}
	t.Cleanup(func() { flag.Set("update", old) })
}

func TestGolden(t *testing.T) {
	t.Chdir(t.TempDir())
	const pretty = "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}\n"

	// No file yet.
	tb := &fakeTB{}
	Golden(tb, "x.golden", []byte(`{"a":[1,2],"b":{}}`))
	checkReport(t, tb, false, []string{"golden testdata/x.golden: no such file; run the test with -update to create it"})

	// -update writes it, indented.
	setUpdate(t, true)
	tb = &fakeTB{}
	Golden(tb, "x.golden", []byte(`{"a":[1,2],"b":{}}`))
	checkReport(t, tb, true, nil)
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
			Golden(tb, tt.file, []byte(tt.got))
			if len(tt.want) == 1 && len(tb.errors) == 1 && strings.HasSuffix(tt.want[0], ":") {
				// A diff follows: check its frame, not go-cmp's text.
				msg := tb.errors[0]
				if !strings.HasPrefix(msg, tt.want[0]+"\n") || !strings.HasSuffix(msg, "\nrun the test with -update to accept got") {
					t.Errorf("message = %q", msg)
				}
				tb.errors[0] = tt.want[0]
			}
			checkReport(t, tb, len(tb.errors) == 0, tt.want)
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
	Golden(tb, "sub/page.txt", []byte("not json\n"))
	checkReport(t, tb, true, nil)
	os.WriteFile("testdata/sub/page.txt", []byte("not json\r\n"), 0o644)
	tb = &fakeTB{}
	Golden(tb, "sub/page.txt", []byte("not json\n"))
	checkReport(t, tb, true, nil) // a checkout with CRLF line endings
}

// TestUpdateFlag: the flag exists, and a second definition reads it rather
// than defining another (which would panic).
func TestUpdateFlag(t *testing.T) {
	again := updateFlag()
	setUpdate(t, true)
	if !update() || !again() {
		t.Errorf("update() = %v, again() = %v after -update=true", update(), again())
	}
	setUpdate(t, false)
	if update() || again() {
		t.Errorf("update() = %v, again() = %v after -update=false", update(), again())
	}
}
