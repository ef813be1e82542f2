// Command calltrace reads the output of valgrind's callgrind (the call
// graph of a run, function by function) and counts, for the functions of
// one module, how many distinct source files a call runs and how many
// times control moves from a function in one file to a function in
// another: the "N files / M moves between files" of a call.
//
//	calltrace -n1 10 -n2 20 a.out b.out
//	calltrace -n1 10 -n2 20 -v a.out b.out    # and the files, and the moves by pair of files
//	calltrace -n1 10 -n2 20 -v -functions a.out b.out    # and by pair of functions
//
// calltrace.sh produces the input: two runs of one of cmd/opcount's
// operations, n1 and n2 warm calls of it, under callgrind with
// --toggle-collect on the function that makes them (cmd/opcount's
// measure). Callgrind collects the costs inside that function only, but
// counts every call of the run, the cold calls before it too: the moves
// of one call are the difference of the two runs' counts over n2-n1
// (the cold calls cancel out), and the files are those of the functions
// that had a cost in the second run, that is, ran in a warm call.
//
// What counts:
//
//   - a module function is one whose package path is the module's (-module)
//     or under it, but not under an excluded path (-exclude: the bench
//     module, the caller of the calls);
//   - its file is the one callgrind names for the function (fl=): where its
//     code is, the file that declares it;
//   - files: the distinct files of the module functions that ran (had a
//     cost) during the warm calls;
//   - moves: the calls from a module function to a module function of
//     another file, counted each time they are made, per call.
//     A call through a function outside the module (a sort callback, a
//     sync.Pool's New) is not a move: control passes through that function.
//
// Inlined calls are not calls in the code that runs, and are not counted:
// the figures are those of the program as the compiler built it. Built
// with inlining off in the module (calltrace.sh with NOINLINE=1), every
// call the source makes is a real call, and the moves are the source's.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

// graph is what calltrace reads of a callgrind profile.
type graph struct {
	file  map[string]string   // function → the file callgrind names for it
	ran   map[string]bool     // functions that had a cost or made a call
	calls map[[2]string]int64 // (caller, callee) → times called
	total int64               // the collected instructions (summary)
}

// name strips callgrind's recursion suffix ('2, '3…) from a function name.
func name(fn string) string {
	if i := strings.LastIndexByte(fn, '\''); i > 0 {
		if _, err := strconv.Atoi(fn[i+1:]); err == nil {
			return fn[:i]
		}
	}
	return fn
}

// parse reads a callgrind profile written with --compress-strings=no and
// --compress-pos=no (every name in full on every line).
func parse(r io.Reader) (*graph, error) {
	g := &graph{file: map[string]string{}, ran: map[string]bool{}, calls: map[[2]string]int64{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var fl, fn, cfn, cfl string
	afterCalls := false // the line after calls= is the call's inclusive cost
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "summary:"); ok && g.total == 0 {
			g.total, _ = strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			continue
		}
		key, val, isKey := strings.Cut(line, "=")
		if !isKey || strings.ContainsAny(key, " \t") {
			// A cost line: "position cost…"; after calls=, the call's.
			if afterCalls {
				afterCalls = false
				continue
			}
			if fn != "" && line != "" && line[0] >= '0' && line[0] <= '9' {
				g.ran[fn] = true
			}
			continue
		}
		switch key {
		case "fl":
			fl = val
		case "fn":
			fn = name(val)
			if _, ok := g.file[fn]; !ok {
				g.file[fn] = fl
			}
		case "cfl", "cfi":
			cfl = val
		case "cfn":
			cfn = name(val)
			if _, ok := g.file[cfn]; !ok && cfl != "" {
				g.file[cfn] = cfl
			}
			cfl = ""
		case "calls":
			count, _, _ := strings.Cut(val, " ")
			n, err := strconv.ParseInt(count, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("calltrace: bad line %q", line)
			}
			g.calls[[2]string{fn, cfn}] += n
			afterCalls = true
		}
	}
	return g, sc.Err()
}

// pkgOf returns the package path of a Go function's symbol:
// "github.com/x/y/entity.(*run).walk" is "github.com/x/y/entity".
func pkgOf(fn string) string {
	if i := strings.IndexByte(fn, '['); i >= 0 { // a generic's type arguments
		fn = fn[:i]
	}
	slash := strings.LastIndexByte(fn, '/')
	dot := strings.IndexByte(fn[slash+1:], '.')
	if dot < 0 {
		return ""
	}
	return fn[:slash+1+dot]
}

// counter decides which functions are the module's, and names their files
// by module-relative path ("entity/walk.go").
type counter struct {
	module  string
	exclude []string
}

func under(p, root string) bool { return p == root || strings.HasPrefix(p, root+"/") }

// fileOf returns the module-relative file of fn, or "" for a function
// outside the module.
func (c counter) fileOf(g *graph, fn string) string {
	p := pkgOf(fn)
	if !under(p, c.module) {
		return ""
	}
	for _, x := range c.exclude {
		if under(p, x) {
			return ""
		}
	}
	f := g.file[fn]
	if f == "" || f == "???" {
		return strings.TrimPrefix(strings.TrimPrefix(p, c.module), "/") + "/?"
	}
	return path.Join(strings.TrimPrefix(strings.TrimPrefix(p, c.module), "/"), path.Base(f))
}

// result is one profile's count.
type result struct {
	files []string                   // the module files that ran, sorted
	moves int64                      // the calls between functions of different files
	pairs map[[2]string]int64        // the moves by (from file, to file)
	funcs map[string]map[string]bool // file → its functions that ran
	edges map[[2]string]int64        // the moves by (caller, callee)
}

// count counts the calls of b that a does not have (b's minus a's), and the
// files of the functions that ran in b.
func (c counter) count(a, b *graph) *result {
	r := &result{pairs: map[[2]string]int64{}, funcs: map[string]map[string]bool{}, edges: map[[2]string]int64{}}
	g := b
	files := map[string]bool{}
	for fn := range g.ran {
		if f := c.fileOf(g, fn); f != "" {
			files[f] = true
			if r.funcs[f] == nil {
				r.funcs[f] = map[string]bool{}
			}
			r.funcs[f][fn] = true
		}
	}
	for e, n := range g.calls {
		n -= a.calls[e]
		from, to := c.fileOf(g, e[0]), c.fileOf(g, e[1])
		if from == "" || to == "" || from == to || n == 0 {
			continue
		}
		r.moves += n
		r.pairs[[2]string{from, to}] += n
		r.edges[e] += n
	}
	for f := range files {
		r.files = append(r.files, f)
	}
	slices.Sort(r.files)
	return r
}

func main() {
	n1 := flag.Int("n1", 10, "the warm calls of the first profile")
	n2 := flag.Int("n2", 20, "the warm calls of the second profile")
	module := flag.String("module", "github.com/expose-go/expose", "the module whose functions count")
	exclude := flag.String("exclude", "github.com/expose-go/expose/bench,github.com/expose-go/expose/cmd,github.com/expose-go/expose/examples",
		"package paths under the module that do not count, comma-separated")
	verbose := flag.Bool("v", false, "list the files, their functions, and the moves by pair of files")
	byFunc := flag.Bool("functions", false, "with -v, list the moves by pair of functions too")
	flag.Parse()
	if flag.NArg() != 2 || *n2 <= *n1 {
		fmt.Fprintln(os.Stderr, "usage: calltrace -n1 N -n2 M [-v] first.out second.out (M > N)")
		os.Exit(2)
	}
	var gs [2]*graph
	for i := range gs {
		f, err := os.Open(flag.Arg(i))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		gs[i], err = parse(f)
		f.Close()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	c := counter{module: *module}
	if *exclude != "" {
		c.exclude = strings.Split(*exclude, ",")
	}
	r := c.count(gs[0], gs[1])
	n := float64(*n2 - *n1)
	fmt.Printf("files %d moves %.1f Ir %.0f\n", len(r.files), float64(r.moves)/n, float64(gs[1].total-gs[0].total)/n)
	if !*verbose {
		return
	}
	fmt.Println("files (functions that ran):")
	for _, file := range r.files {
		fns := slices.Sorted(func(yield func(string) bool) {
			for fn := range r.funcs[file] {
				if !yield(strings.TrimPrefix(fn, pkgOf(fn)+".")) {
					return
				}
			}
		})
		fmt.Printf("  %-32s %s\n", file, strings.Join(fns, " "))
	}
	printTop("moves by file (from → to, per call):", r.pairs, n, func(k [2]string) string { return k[0] + " → " + k[1] })
	if *byFunc {
		printTop("moves by function (caller → callee, per call):", r.edges, n, func(k [2]string) string {
			return strings.TrimPrefix(k[0], *module+"/") + " → " + strings.TrimPrefix(k[1], *module+"/")
		})
	}
}

// printTop prints the counts of m, largest first.
func printTop(title string, m map[[2]string]int64, n float64, label func([2]string) string) {
	fmt.Println(title)
	keys := slices.Collect(func(yield func([2]string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	})
	slices.SortFunc(keys, func(a, b [2]string) int {
		if m[a] != m[b] {
			if m[a] > m[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(label(a), label(b))
	})
	for _, k := range keys {
		fmt.Printf("  %8.1f  %s\n", float64(m[k])/n, label(k))
	}
}
