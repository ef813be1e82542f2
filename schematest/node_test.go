package schematest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The validators written in JavaScript, run through node: ajv 8 for JSON
// Schema 2020-12 (strict mode, union types allowed, formats asserted with
// ajv-formats) and @seriousme/openapi-schema-validator for OpenAPI 3.1,
// installed in js/ from its package-lock.json (test.sh runs npm ci). One
// job is one run of js/validate.mjs: every schema compiled once, every
// instance validated, no network.

// jsDir is where the validators are installed.
const jsDir = "js"

// nodeJob is one run of the validators.
type nodeJob struct {
	Schemas map[string]json.RawMessage `json:"schemas,omitempty"`
	Checks  [][2]any                   `json:"checks,omitempty"` // schema name, instance
	OpenAPI map[string]json.RawMessage `json:"openapi,omitempty"`
}

// nodeResult is what the run gives: why each schema does not compile (""
// when it does), why each instance is invalid (nil when it is valid), why
// each OpenAPI document is invalid.
type nodeResult struct {
	Compile map[string]string `json:"compile"`
	Results []*string         `json:"results"`
	OpenAPI map[string]string `json:"openapi"`
}

var nodeOnce struct {
	sync.Once
	err string
}

// requireNode fails the test when node or the installed validators are
// missing, saying how to install them.
func requireNode(t testing.TB) {
	t.Helper()
	nodeOnce.Do(func() {
		if _, err := exec.LookPath("node"); err != nil {
			nodeOnce.err = "node is not on PATH: the schematest module needs node 20 or later"
			return
		}
		for _, pkg := range []string{"ajv", "ajv-formats", "@seriousme/openapi-schema-validator"} {
			if _, err := os.Stat(filepath.Join(jsDir, "node_modules", pkg, "package.json")); err != nil {
				nodeOnce.err = "the validators are not installed: run (cd schematest/js && npm ci), as test.sh does"
				return
			}
		}
	})
	if nodeOnce.err != "" {
		t.Fatal(nodeOnce.err)
	}
}

// runNode runs one job through the validators.
func runNode(t testing.TB, job nodeJob) nodeResult {
	t.Helper()
	requireNode(t)
	in, err := json.Marshal(job)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "validate.mjs")
	cmd.Dir = jsDir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node validate.mjs: %v\n%s", err, stderr.Bytes())
	}
	var res nodeResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node validate.mjs wrote %.200s: %v", out, err)
	}
	if len(res.Results) != len(job.Checks) {
		t.Fatalf("node validate.mjs: %d results for %d checks", len(res.Results), len(job.Checks))
	}
	return res
}

// ajvBatch gathers schemas and instances for one run of ajv, each instance
// with what the test expects of it.
type ajvBatch struct {
	job    nodeJob
	expect []ajvExpect
}

// ajvExpect is what a test expects of one instance: valid or not, and
// what to say when ajv disagrees.
type ajvExpect struct {
	valid bool
	what  string
}

// schema adds a schema under name.
func (b *ajvBatch) schema(name string, s []byte) {
	if b.job.Schemas == nil {
		b.job.Schemas = map[string]json.RawMessage{}
	}
	b.job.Schemas[name] = append(json.RawMessage(nil), s...)
}

// check adds an instance (JSON text) to validate against the schema name,
// expected valid or not. An instance holding a number that a JavaScript
// number does not hold exactly (more than 15 significant digits) is left
// out: JSON.parse rounds it before ajv sees it.
func (b *ajvBatch) check(name string, instance []byte, valid bool, what string) {
	if !jsExact(instance) {
		return
	}
	b.job.Checks = append(b.job.Checks, [2]any{name, json.RawMessage(append([]byte(nil), instance...))})
	b.expect = append(b.expect, ajvExpect{valid, what})
}

// run runs the batch and reports every schema ajv does not compile and
// every instance on which it disagrees with the expectation (the first
// max of them), and returns how many instances it checked.
func (b *ajvBatch) run(t testing.TB, max int) int {
	t.Helper()
	if len(b.job.Schemas) == 0 {
		return 0
	}
	res := runNode(t, b.job)
	for name, why := range res.Compile {
		if why != "" {
			t.Errorf("ajv does not compile the schema %s: %s\n%.2000s", name, why, b.job.Schemas[name])
		}
	}
	failed := 0
	for i, r := range res.Results {
		if valid := r == nil; valid != b.expect[i].valid {
			failed++
			if failed <= max {
				why := "valid"
				if r != nil {
					why = *r
				}
				t.Errorf("ajv: %s: %s: %s", b.expect[i].what, b.job.Checks[i][1], why)
			}
		}
	}
	if failed > max {
		t.Errorf("ajv: %d disagreements in all", failed)
	}
	return len(res.Results)
}

// jsExact reports whether every number of the JSON text has at most 15
// significant digits, which a float64 (a JavaScript number) holds exactly,
// and is within float64's range (1e400 is Infinity to JSON.parse).
func jsExact(doc []byte) bool {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	for {
		tok, err := d.Token()
		if err != nil {
			return true
		}
		if n, ok := tok.(json.Number); ok {
			digits := strings.TrimLeft(strings.Map(func(r rune) rune {
				if r >= '0' && r <= '9' {
					return r
				}
				return -1
			}, mantissa(string(n))), "0")
			if len(strings.TrimRight(digits, "0")) > 15 {
				return false
			}
			if f, err := strconv.ParseFloat(string(n), 64); err != nil || f == 0 && digits != "" && strings.Trim(digits, "0") != "" {
				return false // beyond float64, or so small it is read as 0
			}
		}
	}
}

// mantissa returns the digits of a JSON number before its exponent.
func mantissa(n string) string {
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		return n[:i]
	}
	return n
}
