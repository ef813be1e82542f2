package main

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maxLines is what the shop's own files may hold: non-blank, non-comment
// lines of every file under examples/shop but tests, testdata and
// generated files.
const maxLines = 250

// generated is the line that marks a generated Go file.
var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// TestLineCount counts the shop's own lines (run with -v to see them).
func TestLineCount(t *testing.T) {
	total := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var n int
		switch {
		case strings.HasSuffix(path, "_test.go"), strings.HasSuffix(path, ".go") && generated.Match(src):
			return nil
		case strings.HasSuffix(path, ".go"):
			n = goLines(t, path, src)
		case strings.HasSuffix(path, ".entity"):
			for _, line := range strings.Split(string(src), "\n") {
				if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
					n++
				}
			}
		default:
			t.Errorf("%s: a file of a kind the count does not know", path)
		}
		t.Logf("%4d %s", n, path)
		total += n
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%4d in all (at most %d)", total, maxLines)
	if total > maxLines {
		t.Errorf("the shop holds %d lines, more than %d", total, maxLines)
	}
}

// goLines counts the lines of a Go file that hold a token other than a
// comment.
func goLines(t *testing.T, path string, src []byte) int {
	fset := token.NewFileSet()
	file := fset.AddFile(path, -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, func(pos token.Position, msg string) { t.Errorf("%s: %s", pos, msg) }, 0)
	lines := map[int]bool{}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // an automatic semicolon stands at the end of a counted line
		}
		lines[file.Line(pos)] = true
	}
	return len(lines)
}
