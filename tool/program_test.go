package tool

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// programTests run the program of testdata/program, tool.Main given a
// registry with a rule (rfc3339), a format (cents) and a flag (staff) of
// the program's own and the camel key case, on testdata/program.entity,
// which uses them all. Each case's exit status and output are compared
// with testdata/golden/program_NAME.golden.
var programTests = []struct {
	name  string
	args  []string
	stdin string
}{
	{"check", []string{"check", "program.entity"}, ""},
	{"fmt", []string{"fmt", "program.entity"}, ""},
	{"make", []string{"make", "-f", "program.entity", "--with", "staff", "event"}, `{"event_id": 7, "starts_at": "2026-12-01T09:30:00Z", "price": 1250, "staff_note": "VIP"}`},
	{"make_fails", []string{"make", "-f", "program.entity", "event"}, `{"event_id": 7, "starts_at": "tomorrow"}`},
	{"sample", []string{"sample", "-f", "program.entity", "--pretty", "event"}, ""},
	{"sample_input", []string{"sample", "--input", "-f", "program.entity", "event"}, ""},
	{"schema", []string{"schema", "-f", "program.entity", "--with", "staff", "event"}, ""},
	{"gen", []string{"gen", "-f", "program.entity", "-package", "events"}, ""},
}

// TestProgram: a program built on Main knows its own rules, formats,
// flags and key case in every command, where the expose command (a new
// registry) fails at the file's first use of them with "unknown rule";
// fmt, which loads nothing, prints the same file with either.
func TestProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	goCmd := goCommand(t)
	program := filepath.Join(t.TempDir(), "program")
	if out, err := exec.Command(goCmd, "build", "-o", program, "./testdata/program").CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/program: %v\n%s", err, out)
	}
	for _, tt := range programTests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(program, tt.args...)
			cmd.Dir = "testdata"
			cmd.Stdin = strings.NewReader(tt.stdin)
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
			got := "exit " + strconv.Itoa(code) + "\n-- stdout --\n" + stdout.String() + "-- stderr --\n" + stderr.String()
			golden(t, filepath.Join("testdata", "golden", "program_"+tt.name+".golden"), got)

			code2, stdout2, stderr2 := runTool(t, "testdata", tt.stdin, tt.args...)
			if tt.name == "fmt" {
				if code2 != code || stdout2 != stdout.String() {
					t.Errorf("with a new registry: exit %d, stdout\n%s\nwant exit %d and the program's", code2, stdout2, code)
				}
				return
			}
			if code2 != 1 || !strings.HasPrefix(stderr2, `program.entity:4:29: entity "event", field "starts_at": unknown rule "rfc3339"`) {
				t.Errorf("with a new registry: exit %d, stderr\n%s\nwant exit 1 and the unknown rule", code2, stderr2)
			}
		})
	}
}

// TestMainRegistryKeepsWhatItLoads: the registry given to Main keeps the
// entities a command loaded, and what it already holds is known to the
// files; a command whose files fail leaves it as it was.
func TestMainRegistryKeepsWhatItLoads(t *testing.T) {
	tests := []struct {
		name    string
		fresh   bool // each call a new registry
		calls   [][]string
		codes   []int
		lastErr string // in the last call's standard error
	}{
		{"a new registry each call", true,
			[][]string{{"check", "users.entity"}, {"check", "users.entity"}}, []int{0, 0}, ""},
		{"the same files into the same registry", false,
			[][]string{{"check", "users.entity"}, {"check", "users.entity"}}, []int{0, 1},
			`users.entity:2:1: entity "user": entity "user" is already exposed in the registry`},
		{"the registry's entities are known to the files", false,
			[][]string{{"check", "users.entity"}, {"check", "orders.entity"}}, []int{0, 0}, ""},
		{"files that fail load nothing", false,
			[][]string{{"check", "users.entity", "bad.entity"}, {"sample", "-f", "users.entity", "user"}}, []int{1, 0}, ""},
		{"flags a call declared stay declared", false,
			[][]string{{"check", "-flags", "admin,beta", "flags.entity"}, {"make", "-f", "users.entity", "--with", "beta", "user"}}, []int{0, 0}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			for i, args := range tt.calls {
				if tt.fresh {
					reg = entity.NewRegistry()
				}
				code, _, stderr := runWith(t, reg, "testdata", `{"name": "x"}`, args...)
				if code != tt.codes[i] {
					t.Errorf("call %d, expose %s: exit %d, want %d\n%s", i+1, strings.Join(args, " "), code, tt.codes[i], stderr)
				}
				if i == len(tt.calls)-1 && !strings.Contains(stderr, tt.lastErr) {
					t.Errorf("call %d: stderr\n%s\nwant %q in it", i+1, stderr, tt.lastErr)
				}
			}
		})
	}
}

// TestLinksNoTestKit: package tool, and a program built on it, link no
// testing package and nothing of the test kit.
func TestLinksNoTestKit(t *testing.T) {
	goCmd := goCommand(t)
	for _, pkg := range []string{".", "./testdata/program"} {
		t.Run(pkg, func(t *testing.T) {
			for _, dep := range testKitDeps(t, goCmd, pkg) {
				t.Errorf("%s links %s", pkg, dep)
			}
		})
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

// testKitDeps returns the packages of the test kit that pkg links:
// testing, net/http/httptest, go-cmp's.
func testKitDeps(t *testing.T, goCmd, pkg string) []string {
	t.Helper()
	cmd := exec.Command(goCmd, "list", "-deps", pkg)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	var bad []string
	for _, p := range strings.Fields(string(out)) {
		if p == "testing" || strings.HasPrefix(p, "testing/") || p == "net/http/httptest" || strings.HasPrefix(p, "github.com/google/go-cmp/") {
			bad = append(bad, p)
		}
	}
	return bad
}
