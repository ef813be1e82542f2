package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommand: the command is package tool's Main with a new registry:
// its exit statuses, and a file that uses a rule no new registry has
// fails. Package tool's tests test every command.
func TestCommand(t *testing.T) {
	goCmd := goCommand(t)
	binary := filepath.Join(t.TempDir(), "expose")
	if out, err := exec.Command(goCmd, "build", "-o", binary, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // a prefix
		stderr string // a prefix
	}{
		{"help", []string{"help"}, 0, "expose checks, formats and runs .entity files", ""},
		{"a file that checks", []string{"check", "users.entity"}, 0, "", ""},
		{"a file with errors", []string{"check", "bad.entity"}, 1, "", "bad.entity:2:10: "},
		{"a program's own rule", []string{"check", "program.entity"}, 1, "", `program.entity:4:29: entity "event", field "starts_at": unknown rule "rfc3339"`},
		{"a usage error", []string{"frobnicate"}, 2, "", `expose: unknown command "frobnicate"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(binary, tt.args...)
			cmd.Dir = "../../tool/testdata"
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			code := 0
			if err := cmd.Run(); err != nil {
				ee, ok := err.(*exec.ExitError)
				if !ok {
					t.Fatal(err)
				}
				code = ee.ExitCode()
			}
			if code != tt.code || !strings.HasPrefix(stdout.String(), tt.stdout) || !strings.HasPrefix(stderr.String(), tt.stderr) {
				t.Errorf("expose %s: exit %d, stdout %q, stderr %q; want exit %d, stdout %q…, stderr %q…",
					strings.Join(tt.args, " "), code, stdout.String(), stderr.String(), tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}

// TestLinksNoTestKit: the command links no testing package and nothing of
// the test kit (net/http/httptest, go-cmp), so that go run of it in a
// program's module pulls in no test dependency.
func TestLinksNoTestKit(t *testing.T) {
	cmd := exec.Command(goCommand(t), "list", "-deps", ".")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "testing" || strings.HasPrefix(p, "testing/") || p == "net/http/httptest" || strings.HasPrefix(p, "github.com/google/go-cmp/") {
			t.Errorf("the command links %s", p)
		}
	}
}

// goCommand returns the go command's path, skipping the test without one.
func goCommand(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	return p
}
