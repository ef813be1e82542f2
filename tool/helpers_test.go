package tool

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/internal/testkit"
)

// runTool runs the command line args in dir, with stdin as its standard
// input and a new registry, as the expose command runs it, and returns its
// exit status, standard output and standard error.
func runTool(t *testing.T, dir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	return runWith(t, entity.NewRegistry(), dir, stdin, args...)
}

// runWith is runTool with the registry reg.
func runWith(t *testing.T, reg *entity.Registry, dir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr strings.Builder
	code := runIn(t, dir, &env{strings.NewReader(stdin), &stdout, &stderr, reg}, args...)
	return code, stdout.String(), stderr.String()
}

// runIn runs the command line args with env in dir, the working
// directory while it runs (so no test of the package runs in parallel),
// and returns its exit status. A nil env.reg is a new registry.
func runIn(t *testing.T, dir string, env *env, args ...string) int {
	t.Helper()
	if env.reg == nil {
		env.reg = entity.NewRegistry()
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(wd); err != nil {
			panic(err) // every later test would run elsewhere
		}
	}()
	return run(env, args)
}

// golden compares a command's output with the golden file at path
// (testkit.Golden).
func golden(t *testing.T, path, got string) {
	t.Helper()
	testkit.Golden(t, path, []byte(got))
}

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
