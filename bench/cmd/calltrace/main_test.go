package main

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// profile is a callgrind profile in the form callgrind writes with
// --compress-strings=no --compress-pos=no: a call from entity/http.go to
// entity/walk.go (3 times per run), one inside walk.go (recursive, named
// '2), one out of the module and back through it (not a move), and a
// function of bench/ (excluded).
func profile(calls int) string {
	n := func(k int) string { return strconv.Itoa(k * calls) }
	return `# callgrind format
version: 1
positions: line
events: Ir
summary: ` + n(100) + `

fl=/src/entity/http.go
fn=github.com/expose-go/expose/entity.(*Entity).MakeRequest
10 ` + n(5) + `
cfi=/src/entity/walk.go
cfn=github.com/expose-go/expose/entity.(*run).walk
calls=` + n(3) + ` 20
11 ` + n(40) + `
cfn=sort.Slice
calls=` + n(1) + ` 1
12 ` + n(9) + `

fl=/src/entity/walk.go
fn=github.com/expose-go/expose/entity.(*run).walk
20 ` + n(10) + `
cfn=github.com/expose-go/expose/entity.(*run).walk'2
calls=` + n(2) + ` 20
21 ` + n(20) + `
cfi=/src/internal/jsonwire/skip.go
cfn=github.com/expose-go/expose/internal/jsonwire.ValueEnd[go.shape.string]
calls=` + n(4) + ` 5
22 ` + n(8) + `

fn=github.com/expose-go/expose/entity.(*run).walk'2
20 ` + n(10) + `

fl=/usr/local/go/src/sort/slice.go
fn=sort.Slice
1 ` + n(2) + `
cfi=/src/entity/walk.go
cfn=github.com/expose-go/expose/entity.less
calls=` + n(1) + ` 30
2 ` + n(7) + `

fl=/src/entity/walk.go
fn=github.com/expose-go/expose/entity.less
30 ` + n(7) + `

fl=/src/internal/jsonwire/skip.go
fn=github.com/expose-go/expose/internal/jsonwire.ValueEnd[go.shape.string]
5 ` + n(8) + `

fl=/src/bench/requests_ops.go
fn=github.com/expose-go/expose/bench.RequestOps.func2
60 ` + n(1) + `
cfi=/src/entity/http.go
cfn=github.com/expose-go/expose/entity.(*Entity).MakeRequest
calls=` + n(1) + ` 10
61 ` + n(54) + `
`
}

func TestCount(t *testing.T) {
	a, err := parse(strings.NewReader(profile(10)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := parse(strings.NewReader(profile(20)))
	if err != nil {
		t.Fatal(err)
	}
	c := counter{module: "github.com/expose-go/expose", exclude: []string{"github.com/expose-go/expose/bench"}}
	r := c.count(a, b)
	if want := []string{"entity/http.go", "entity/walk.go", "internal/jsonwire/skip.go"}; !slices.Equal(r.files, want) {
		t.Errorf("files %q, want %q", r.files, want)
	}
	// Per 10 calls: http.go → walk.go 30 times, walk.go → skip.go 40;
	// the recursion stays in walk.go, the call through sort.Slice and
	// bench's call are not moves.
	if r.moves != 70 {
		t.Errorf("moves %d, want 70", r.moves)
	}
	if got := r.pairs[[2]string{"entity/walk.go", "internal/jsonwire/skip.go"}]; got != 40 {
		t.Errorf("walk.go → skip.go %d, want 40", got)
	}
	if b.total-a.total != 1000 {
		t.Errorf("instructions %d, want 1000", b.total-a.total)
	}
}

func TestPkgOf(t *testing.T) {
	tests := []struct{ name, fn, pkg string }{
		{"a method", "github.com/expose-go/expose/entity.(*run).walk", "github.com/expose-go/expose/entity"},
		{"a closure", "github.com/expose-go/expose/entity.(*Entity).MakeRequest.func1", "github.com/expose-go/expose/entity"},
		{"a generic", "github.com/expose-go/expose/internal/jsonwire.ValueEnd[go.shape.string]", "github.com/expose-go/expose/internal/jsonwire"},
		{"a generic of a path", "github.com/expose-go/expose/entity.f[github.com/a/b.T]", "github.com/expose-go/expose/entity"},
		{"the standard library", "sort.Slice", "sort"},
		{"no package", "main", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pkgOf(tt.fn); got != tt.pkg {
				t.Errorf("pkgOf(%q) = %q, want %q", tt.fn, got, tt.pkg)
			}
		})
	}
}
