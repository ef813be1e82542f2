package dsl

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDocFileExamples: every .entity example of the language reference
// (doc.go) parses, and is written in the canonical form Print gives.
func TestDocFileExamples(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	// An example is a run of tab-indented lines, in the package comment,
	// whose first line that is no comment opens an entity.
	var blocks []string
	var cur []string
	flush := func() {
		for _, l := range cur {
			if strings.HasPrefix(l, "#") {
				continue
			}
			if regexp.MustCompile(`^[a-z]+( [A-Z|,]+)? \{`).MatchString(l) {
				blocks = append(blocks, strings.Join(cur, "\n")+"\n")
			}
			break
		}
		cur = nil
	}
	for _, line := range strings.Split(string(src), "\n") {
		if text, ok := strings.CutPrefix(line, "\t"); ok {
			cur = append(cur, text)
			continue
		}
		if line == "" && cur != nil {
			cur = append(cur, "")
			continue
		}
		flush()
	}
	flush()
	if len(blocks) < 2 {
		t.Fatalf("found %d file examples in doc.go, want at least 2", len(blocks))
	}
	for _, b := range blocks {
		b = strings.TrimRight(b, "\n") + "\n"
		f, err := ParseFile("doc.entity", []byte(b))
		if err != nil {
			t.Errorf("the example does not parse: %v\n%s", err, b)
			continue
		}
		out, err := f.Print()
		if err != nil || string(out) != b {
			t.Errorf("the example is not in the canonical form (%v); Print gives\n%s\nnot\n%s", err, out, b)
		}
	}
}
