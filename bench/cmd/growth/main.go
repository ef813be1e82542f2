// Command growth reads the raw output of BenchmarkGrowth (go test -bench
// Growth, any -count, several runs concatenated) and prints, for each
// kind of input, the median time per element (ns/elem) at every list
// length, and the ratio of that at the longest list to that at 100
// elements, against the target of 1.5x.
//
// Usage:
//
//	go run ./cmd/growth results/growth-raw.txt
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// target is the most the time per element may grow from 100 elements to
// the longest list.
const target = 1.5

var lineRE = regexp.MustCompile(`^BenchmarkGrowth/impl=([^/\s]+)/users=(\d+)(?:-\d+)?\s+\d+\s+(.*)$`)

type key struct {
	impl string
	n    int
}

// parse returns the ns/elem samples of every benchmark, and the kinds of
// input in the order they first appear.
func parse(r io.Reader) (map[key][]float64, []string, error) {
	data := map[key][]float64{}
	var impls []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := lineRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		f := strings.Fields(m[3])
		for i := 0; i+1 < len(f); i += 2 {
			if f[i+1] != "ns/elem" {
				continue
			}
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, nil, fmt.Errorf("%q: %v", sc.Text(), err)
			}
			k := key{m[1], n}
			data[k] = append(data[k], v)
			if !slices.Contains(impls, m[1]) {
				impls = append(impls, m[1])
			}
		}
	}
	return data, impls, sc.Err()
}

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: growth results/growth-raw.txt")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	data, impls, err := parse(f)
	f.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var sizes []int
	for k := range data {
		if !slices.Contains(sizes, k.n) {
			sizes = append(sizes, k.n)
		}
	}
	slices.Sort(sizes)
	if len(sizes) == 0 {
		fmt.Fprintln(os.Stderr, "growth: no BenchmarkGrowth lines")
		os.Exit(1)
	}
	last := sizes[len(sizes)-1]
	fmt.Printf("median ns per element (samples)\n\n%-8s", "input")
	for _, n := range sizes {
		fmt.Printf(" %14s", strconv.Itoa(n))
	}
	fmt.Printf("   %d/100   target\n", last)
	fail := false
	for _, impl := range impls {
		fmt.Printf("%-8s", impl)
		for _, n := range sizes {
			s := data[key{impl, n}]
			if len(s) == 0 {
				fmt.Printf(" %14s", "-")
				continue
			}
			fmt.Printf(" %9.1f (%2d)", median(s), len(s))
		}
		base, top := data[key{impl, 100}], data[key{impl, last}]
		if len(base) == 0 || len(top) == 0 {
			fmt.Println()
			continue
		}
		r := median(top) / median(base)
		verdict := "pass"
		if r > target {
			verdict, fail = "FAIL", true
		}
		fmt.Printf("   %5.2fx   <= %.1fx %s\n", r, target, verdict)
	}
	if fail {
		os.Exit(1)
	}
}
