package dsl

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/expose-go/expose/rules"
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

// TestDocDirectives: the language reference's table of directives (doc.go,
// "# Directives") has a row for every directive of the vocabulary
// (rules.Directive), under its own name.
func TestDocDirectives(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(src), "\n# Directives\n")
	if !ok {
		t.Fatal("doc.go has no # Directives section")
	}
	table, _, _ = strings.Cut(table, "\n# ")
	rows := map[string]bool{}
	for _, line := range strings.Split(table, "\n") {
		if text, ok := strings.CutPrefix(line, "\t"); ok && text != "" && text[0] != ' ' {
			rows[strings.Fields(text)[0]] = true
		}
	}
	for d := rules.DirectiveNone; d.String() != "directive("+strconv.Itoa(int(d))+")"; d++ {
		if !rows[d.String()] {
			t.Errorf("the table of directives has no row for %q", d)
		}
	}
}
