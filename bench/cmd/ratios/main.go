// Command ratios reads the raw output of the bench module's benchmarks
// (go test -bench, any -count, several runs concatenated) and prints the
// median of every measurement and each speed target ratio
// with whether it passes.
//
// Usage:
//
//	go run ./cmd/ratios results/raw.txt
//	go run ./cmd/ratios -only 29. results/requests-raw.txt   # the targets whose names start with "29."
//
// Ratios are of medians. Time ratios are computed so that the target reads
// as the target is written: "AppendJSON / handwritten <= 1.5x" divides AppendJSON's
// median ns/op by the hand-written function's; "naive / AppendJSON >= 6x"
// divides the other way. The parallel ratio is throughput on 2 Ps over 1 P,
// that is ns/op at -cpu 1 over ns/op at -cpu 2.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// key names one benchmark: BenchmarkUsers/impl=AppendJSON/users=100-2 is
// {Users, AppendJSON, users, 100, 2}. The size's name (dim) is users for
// the response benchmarks, lines (order lines) for the request ones,
// pattern (an index in a table of patterns) for the regex rule's.
type key struct {
	bench, impl string
	dim         string
	users       int
	procs       int
}

type samples struct{ ns, bytes, allocs []float64 }

var lineRE = regexp.MustCompile(`^Benchmark(\w+)/impl=([^/\s]+)/(\w+)=(\d+)(?:-(\d+))?\s+\d+\s+(.*)$`)

func parse(r io.Reader) (map[key]*samples, error) {
	data := map[key]*samples{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := lineRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		users, _ := strconv.Atoi(m[4])
		procs := 1
		if m[5] != "" {
			procs, _ = strconv.Atoi(m[5])
		}
		k := key{m[1], m[2], m[3], users, procs}
		s := data[k]
		if s == nil {
			s = &samples{}
			data[k] = s
		}
		f := strings.Fields(m[6])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				s.ns = append(s.ns, v)
			case "B/op":
				s.bytes = append(s.bytes, v)
			case "allocs/op":
				s.allocs = append(s.allocs, v)
			}
		}
	}
	return data, sc.Err()
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return -1
	}
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// table holds the medians, looked up without regard to procs except for
// the parallel benchmark.
type table struct {
	data map[key]*samples
}

// get returns the samples of bench/impl/users; procs 0 means the one run
// there is (the highest procs when there are several).
func (t table) get(bench, impl string, users, procs int) *samples {
	var best *samples
	bestProcs := 0
	for k, s := range t.data {
		if k.bench != bench || k.impl != impl || k.users != users {
			continue
		}
		if procs != 0 && k.procs != procs {
			continue
		}
		if k.procs > bestProcs {
			best, bestProcs = s, k.procs
		}
	}
	return best
}

// only is the -only flag: print the targets whose names start with it.
var only = flag.String("only", "", "print only the targets whose names start with this prefix (29. for the request side's)")

func main() {
	flag.Parse()
	var r io.Reader = os.Stdin
	if flag.NArg() > 0 {
		f, err := os.Open(flag.Arg(0))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		defer f.Close()
		r = f
	}
	data, err := parse(r)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if len(data) == 0 {
		fmt.Fprintln(os.Stderr, "ratios: no benchmark lines found")
		os.Exit(2)
	}
	t := table{data}
	printMedians(t)
	fmt.Println()
	printTargets(t)
}

// sizes returns the sizes of the benchmarks measured in users (the
// response side's).
func sizes(t table) []int { return sizesOf(t, "users") }

// sizesOf returns the sizes the benchmarks of that dimension ran at.
func sizesOf(t table, dim string) []int {
	var s []int
	for k := range t.data {
		if k.dim == dim && !slices.Contains(s, k.users) {
			s = append(s, k.users)
		}
	}
	slices.Sort(s)
	return s
}

func printMedians(t table) {
	var keys []key
	for k := range t.data {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := strings.Compare(a.bench, b.bench); c != 0 {
			return c
		}
		if a.users != b.users {
			return a.users - b.users
		}
		if c := strings.Compare(a.impl, b.impl); c != 0 {
			return c
		}
		return a.procs - b.procs
	})
	fmt.Println("Medians")
	fmt.Printf("%-15s %-22s %-13s %5s %13s %10s %10s %3s\n", "benchmark", "impl", "size", "procs", "ns/op", "B/op", "allocs/op", "n")
	for _, k := range keys {
		s := t.data[k]
		fmt.Printf("%-15s %-22s %-13s %5d %13.0f %10.0f %10.0f %3d\n", k.bench, k.impl, k.dim+"="+strconv.Itoa(k.users), k.procs,
			median(s.ns), median(s.bytes), median(s.allocs), len(s.ns))
	}
}

type result struct{ pass, fail, missing int }

func printTargets(t table) {
	var res result
	fmt.Println("Targets (ratios of medians)")
	if *only != "" { // the request side's rows say the ratio of the fastest samples too
		fmt.Printf("%-48s %6s %10s %9s  %-7s  %s\n", "target", "n", "measured", "want", "result", "fastest")
	} else {
		fmt.Printf("%-48s %6s %10s %9s  %s\n", "target", "n", "measured", "want", "result")
	}
	// note is a last column of the next row: the request side's ratio of
	// the fastest samples.
	var note string
	row := func(name string, users int, v float64, want string, ok bool, have bool) {
		n := note
		note = ""
		if !strings.HasPrefix(name, *only) {
			return
		}
		verdict := "pass"
		switch {
		case !have:
			verdict = "missing"
			res.missing++
		case ok:
			res.pass++
		default:
			verdict = "FAIL"
			res.fail++
		}
		m := "-"
		if have {
			if strings.HasSuffix(want, "x") {
				m = fmt.Sprintf("%.2fx", v)
			} else {
				m = fmt.Sprintf("%.0f", v)
			}
		}
		if *only != "" {
			fmt.Printf("%-48s %6d %10s %9s  %-7s  %s\n", name, users, m, want, verdict, n)
		} else {
			fmt.Printf("%-48s %6d %10s %9s  %s\n", name, users, m, want, verdict)
		}
	}
	// fastest returns a/b of the fastest samples, as a note for the next
	// row: on a loaded machine, load only adds time, and the fastest
	// samples are the least disturbed.
	fastest := func(a, b *samples) {
		if a != nil && b != nil && len(a.ns) > 0 && len(b.ns) > 0 {
			note = fmt.Sprintf("%.2fx", slices.Min(a.ns)/slices.Min(b.ns))
		}
	}
	ns := func(s *samples) float64 { return median(s.ns) }
	// ratio returns a/b of median ns/op, and whether both exist.
	ratio := func(a, b *samples) (float64, bool) {
		if a == nil || b == nil || len(a.ns) == 0 || len(b.ns) == 0 {
			return 0, false
		}
		return ns(a) / ns(b), true
	}
	for _, n := range sizes(t) {
		app := t.get("Users", "AppendJSON", n, 0)
		v, ok := ratio(app, t.get("Users", "handwritten", n, 0))
		row("1. AppendJSON / handwritten (time)", n, v, "<= 1.5x", v <= 1.5, ok)
		if app != nil {
			a := median(app.allocs)
			row("1. AppendJSON allocs/op", n, a, "0", a == 0, len(app.allocs) > 0)
		} else {
			row("1. AppendJSON allocs/op", n, 0, "0", false, false)
		}
		if mj := t.get("Users", "MakeJSON", n, 0); mj != nil {
			a := median(mj.allocs)
			row("1. MakeJSON allocs/op", n, a, "1", a == 1, len(mj.allocs) > 0)
		} else {
			row("1. MakeJSON allocs/op", n, 0, "1", false, false)
		}
		v, ok = ratio(t.get("Users", "naive-std", n, 0), app)
		row("2. naive encoding/json / AppendJSON (time)", n, v, ">= 6x", v >= 6, ok)
		for _, enc := range []string{"naive-goccy", "naive-sonic", "naive-segmentio"} {
			v, ok = ratio(t.get("Users", enc, n, 0), app)
			row("2. "+enc+" / AppendJSON (time)", n, v, ">= 3x", v >= 3, ok)
		}
		v, ok = ratio(t.get("Users", "Make+Marshal", n, 0), app)
		row("3. Make+json.Marshal / AppendJSON (time)", n, v, "<= 2x", v <= 2, ok)
		v, ok = ratio(t.get("Failing", "AppendJSON", n, 0), app)
		row("4. AppendJSON failing / success (time)", n, v, "<= 3x", v <= 3, ok)
		v, ok = ratio(t.get("Parallel", "AppendJSON", n, 1), t.get("Parallel", "AppendJSON", n, 2))
		row("5. parallel throughput 2 P / 1 P", n, v, ">= 1.8x", v >= 1.8, ok)
	}
	// The one walker's targets: Make is a view of MakeJSON's
	// bytes; Get and Map read it.
	for _, n := range sizes(t) {
		mj := t.get("Users", "MakeJSON", n, 0)
		mk := t.get("Users", "Make", n, 0)
		if mk == nil {
			continue
		}
		v, ok := ratio(mk, mj)
		row("11. Make / MakeJSON (time)", n, v, "<= 1.3x", v <= 1.3, ok)
		v, ok = ratio(t.get("Users", "Make+MarshalJSON", n, 0), mj)
		row("11. Make+MarshalJSON / MakeJSON (time)", n, v, "<= 1.4x", v <= 1.4, ok)
		a := median(mk.allocs)
		row("11. Make allocs/op", n, a, "<= 3", a <= 3, len(mk.allocs) > 0)
		v, ok = ratio(t.get("Object", "Map", n, 0), t.get("Object", "json.Unmarshal", n, 0))
		row("11. Map / json.Unmarshal of its bytes (time)", n, v, "<= 1x", v <= 1, ok)
	}
	// The input side's targets, from BenchmarkRaw: raw JSON bytes
	// given to MakeJSON.
	for _, n := range sizes(t) {
		rawMJ := t.get("Raw", "raw", n, 0)
		if rawMJ == nil {
			continue
		}
		v, ok := ratio(t.get("Raw", "unmarshal", n, 0), rawMJ)
		row("in. Unmarshal+MakeJSON / raw MakeJSON (time)", n, v, ">= 5x", v >= 5, ok)
		a := median(rawMJ.allocs)
		row("in. raw MakeJSON allocs/op", n, a, "<= 2", a <= 2, len(rawMJ.allocs) > 0)
		v, ok = ratio(rawMJ, t.get("Raw", "gjson", n, 0))
		row("in. raw MakeJSON / gjson shaper (time)", n, v, "<= 1.3x", v <= 1.3, ok)
	}
	// Per-call shaping, from BenchmarkShape: the seed with the
	// target's selection, against the plain call in the same run.
	for _, n := range sizes(t) {
		sel := t.get("Shape", "Select", n, 0)
		if sel == nil {
			continue
		}
		plain := t.get("Shape", "plain", n, 0)
		v, ok := ratio(sel, plain)
		if n <= 2 {
			row("13. Select / plain AppendJSON (time)", n, v, "<= 1.1x", v <= 1.1, ok)
		} else {
			row("13. Select / plain AppendJSON (time)", n, v, "< 1x", v < 1, ok)
		}
		a := median(sel.allocs)
		row("13. Select (cached spec) allocs/op", n, a, "0", a == 0, len(sel.allocs) > 0)
		v, ok = ratio(t.get("Shape", "With+Version", n, 0), plain)
		row("13. Version on an unversioned entity / plain", n, v, "<= 1.1x", v <= 1.1, ok)
	}
	// Structs and the fixed cost per call, from BenchmarkRows,
	// BenchmarkSeedStruct and BenchmarkUsers.
	for _, n := range sizes(t) {
		if app := t.get("Rows", "AppendJSON", n, 0); app != nil {
			v, ok := ratio(app, t.get("Rows", "goccy", n, 0))
			row("22. rows AppendJSON / goccy Marshal (time)", n, v, "<= 1x", v <= 1, ok)
			v, ok = ratio(t.get("Rows", "checked", n, 0), t.get("Rows", "json.Marshal", n, 0))
			row("22. rows req|email|range / json.Marshal (time)", n, v, "<= 0.6x", v <= 0.6, ok)
			for _, impl := range []string{"AppendJSON", "checked"} {
				s := t.get("Rows", impl, n, 0)
				a := median(s.allocs)
				row("22. rows "+impl+" allocs/op", n, a, "0", a == 0, len(s.allocs) > 0)
			}
		}
		if st := t.get("SeedStruct", "structs", n, 0); st != nil {
			v, ok := ratio(st, t.get("SeedStruct", "maps", n, 0))
			row("22. seed from structs / from maps (time)", n, v, "<= 1.1x", v <= 1.1, ok)
			a := median(st.allocs)
			row("22. seed from structs allocs/op", n, a, "0", a == 0, len(st.allocs) > 0)
		}
		if n <= 100 {
			want := 1.3
			if n > 2 {
				want = 1.25
			}
			v, ok := ratio(t.get("Users", "AppendJSON", n, 0), t.get("Users", "handwritten", n, 0))
			row("22. AppendJSON / handwritten (time)", n, v, fmt.Sprintf("<= %gx", want), v <= want, ok)
		}
	}
	requestTargets(t, row, ratio, fastest)
	if *only != "" {
		fmt.Println()
		fmt.Printf("targets: %d pass, %d fail, %d missing\n", res.pass, res.fail, res.missing)
		return
	}
	fmt.Println()
	fmt.Println("For reference, not targets:")
	for _, n := range sizes(t) {
		if v, ok := ratio(t.get("Failing", "handwritten", n, 0), t.get("Users", "handwritten", n, 0)); ok {
			fmt.Printf("  handwritten failing / success, %d users: %.2fx\n", n, v)
		}
		if v, ok := ratio(t.get("Users", "MakeJSON", n, 0), t.get("Users", "AppendJSON", n, 0)); ok {
			fmt.Printf("  MakeJSON / AppendJSON, %d users: %.2fx\n", n, v)
		}
		if v, ok := ratio(t.get("Users", "Make+MarshalJSON", n, 0), t.get("Users", "AppendJSON", n, 0)); ok {
			fmt.Printf("  Make+(*Object).MarshalJSON / AppendJSON, %d users: %.2fx\n", n, v)
		}
		if v, ok := ratio(t.get("Users", "json.Compact", n, 0), t.get("Users", "AppendJSON", n, 0)); ok {
			fmt.Printf("  json.Compact of the output alone / AppendJSON, %d users: %.2fx (json.Marshal does this to MarshalJSON's bytes)\n", n, v)
		}
		if v, ok := ratio(t.get("Raw", "append", n, 0), t.get("Raw", "gjson", n, 0)); ok {
			fmt.Printf("  raw AppendJSON (reused buffer) / gjson shaper (reused buffer), %d users: %.2fx\n", n, v)
		}
		if v, ok := ratio(t.get("Shape", "conditional", n, 0), t.get("Shape", "plain", n, 0)); ok {
			fmt.Printf("  an entity with if/since fields, no options / plain, %d users: %.2fx (the shaped walk)\n", n, v)
		}
	}
	fmt.Println()
	fmt.Printf("targets: %d pass, %d fail, %d missing\n", res.pass, res.fail, res.missing)
}

// requestTargets prints the request side's targets (rows 29.), from
// BenchmarkRequest (at 3 and 130 order lines: bodies of about 300 B and
// 4 KB), BenchmarkShape, BenchmarkUsers and the regex rule's
// BenchmarkSimplePattern (package rules).
func requestTargets(t table, row func(string, int, float64, string, bool, bool), ratio func(a, b *samples) (float64, bool), fastest func(a, b *samples)) {
	req := func(impl string, n int) *samples { return t.get("Request", impl, n, 0) }
	allocs := func(name string, s *samples, n int, most float64) {
		a := 0.0
		if s != nil {
			a = median(s.allocs)
		}
		row(name, n, a, "<= "+strconv.FormatFloat(most, 'f', -1, 64), a <= most, s != nil && len(s.allocs) > 0)
	}
	at := func(n int, small, large float64) float64 {
		if n <= 3 {
			return small
		}
		return large
	}
	within := func(name string, a, b *samples, n int, most float64) {
		v, ok := ratio(a, b)
		fastest(a, b)
		row(name, n, v, fmt.Sprintf("<= %gx", most), v <= most, ok)
	}
	for _, n := range sizesOf(t, "lines") {
		bind := req("Bind", n)
		within("29.1 Bind / json+validator", bind, req("json+validator", n), n, 0.45)
		within("29.1 Bind / json v2 Unmarshal alone", bind, req("jsonv2", n), n, 1.5)
		within("29.1 Bind / goccy Unmarshal alone", bind, req("goccy", n), n, at(n, 2.5, 3.0))
		within("29.1 Bind / MakeRequest", bind, req("MakeRequest", n), n, 1.3)
		allocs("29.1 Bind allocs/op", bind, n, at(n, 15, 150))
		within("29.2 MakeRequest / json+validator", req("MakeRequest", n), req("json+validator", n), n, at(n, 0.35, 0.30))
		allocs("29.2 MakeRequest allocs/op", req("MakeRequest", n), n, 7)
		within("29.2 Bind 3 failing / json+validator failing", req("Bind-failing", n), req("json+validator-failing", n), n, at(n, 0.5, 0.3))
		allocs("29.2 Bind 3 failing allocs/op", req("Bind-failing", n), n, 35)
		if n > 3 { // the 4 KB body: a patch of 3 fields of a large value
			within("29.3 Patch / MakeRequest of the full body", req("Patch", n), req("MakeRequest", n), n, 1.2)
			within("29.3 Patch / merge+json+validator", req("Patch", n), req("merge+json+validator", n), n, 0.2)
			allocs("29.3 Patch allocs/op", req("Patch", n), n, 22)
			within("29.3 Patch+Bind / merge+json+validator", req("Patch+Bind", n), req("merge+json+validator", n), n, 0.3)
			allocs("29.3 Patch+Bind allocs/op", req("Patch+Bind", n), n, 160)
		}
		within("29.4 handler (Bind+WriteStatus) / huma", req("handler", n), req("huma", n), n, 0.4)
		allocs("29.4 handler allocs/op", req("handler", n), n, at(n, 17, 152))
	}
	for _, n := range sizes(t) {
		plain := t.get("Shape", "plain", n, 0)
		if plain == nil || n > 100 {
			continue
		}
		for _, impl := range []string{"Select", "Only", "Except", "flag"} {
			s := t.get("Shape", impl, n, 0)
			within("29.5 "+impl+" / plain AppendJSON", s, plain, n, at(n, 0.9, 0.7))
			allocs("29.5 "+impl+" allocs/op", s, n, 0)
		}
	}
	for _, n := range sizesOf(t, "pattern") {
		v, ok := ratio(t.get("SimplePattern", "regexp", n, 0), t.get("SimplePattern", "rule", n, 0))
		fastest(t.get("SimplePattern", "regexp", n, 0), t.get("SimplePattern", "rule", n, 0))
		row("29.6 regexp / the regex rule, simple pattern", n, v, ">= 5x", v >= 5, ok)
	}
	if app := t.get("Users", "AppendJSON", 2, 0); app != nil {
		within("29.7 AppendJSON / handwritten, the fixed cost", app, t.get("Users", "handwritten", 2, 0), 2, 1.1)
	}
}
