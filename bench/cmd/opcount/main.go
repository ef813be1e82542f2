// Command opcount runs one of the bench module's operations a given number
// of times and nothing else, so that valgrind's callgrind can count the
// instructions of one operation: run it at two counts, and the difference
// of the totals over the difference of the counts is one operation's
// (callgrind.sh does this). Unlike the test binary, it checks nothing
// before it runs (the tests do), so that no map iterated in a random order
// adds noise to the counts. The operations are those BenchmarkUsers,
// BenchmarkSeedStruct and BenchmarkRows time (users/…: the seed's shape
// from maps, from structs and by hand; rows/…: a []Row through the
// entities and the encoders), and the seed with an empty list (empty/…):
// the fixed cost of a call alone.
//
// Usage:
//
//	opcount -op users/AppendJSON -n 100 -iter 1000
//	opcount -list
package main

import (
	stdjson "encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"

	"github.com/bytedance/sonic"
	"github.com/expose-go/expose/bench"
	goccy "github.com/goccy/go-json"
)

// ops returns each operation, made for n users or rows: a function that
// appends to dst.
func ops(n int) map[string]func(dst []byte) ([]byte, error) {
	users := bench.NewRegistry().MustLookup("users")
	rowReg := bench.NewRowRegistry()
	row, checked := rowReg.MustLookup("row"), rowReg.MustLookup("checkedrow")
	var m, st, rows any = bench.Users(n), bench.UsersStruct(n), bench.Rows(n)
	mm := bench.Users(n)
	raw, err := stdjson.Marshal(bench.Users(n))
	if err != nil {
		panic(err)
	}
	var empty any = map[string]any{"limit": n, "list": []any{}}
	emptyMap := map[string]any{"limit": n, "list": []any{}}
	return map[string]func([]byte) ([]byte, error){
		"users/AppendJSON":  func(dst []byte) ([]byte, error) { return users.AppendJSON(dst, m) },
		"users/structs":     func(dst []byte) ([]byte, error) { return users.AppendJSON(dst, st) },
		"users/handwritten": func(dst []byte) ([]byte, error) { return bench.AppendUsers(dst, mm) },
		"empty/AppendJSON":  func(dst []byte) ([]byte, error) { return users.AppendJSON(dst, empty) },
		"raw/AppendJSON":    func(dst []byte) ([]byte, error) { return users.AppendJSON(dst, raw) },
		"empty/handwritten": func(dst []byte) ([]byte, error) { return bench.AppendUsers(dst, emptyMap) },
		"rows/AppendJSON":   func(dst []byte) ([]byte, error) { return row.AppendJSON(dst, rows) },
		"rows/checked":      func(dst []byte) ([]byte, error) { return checked.AppendJSON(dst, rows) },
		"rows/json.Marshal": func([]byte) ([]byte, error) { return stdjson.Marshal(rows) },
		"rows/goccy":        func([]byte) ([]byte, error) { return goccy.Marshal(rows) },
		"rows/sonic":        func([]byte) ([]byte, error) { return sonic.Marshal(rows) },
	}
}

func main() {
	op := flag.String("op", "", "the operation")
	n := flag.Int("n", 100, "users or rows")
	iter := flag.Int("iter", 1000, "times to run it")
	list := flag.Bool("list", false, "list the operations")
	flag.Parse()
	all := ops(*n)
	if *list {
		var names []string
		for k := range all {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			fmt.Println(k)
		}
		return
	}
	f := all[*op]
	if f == nil {
		fmt.Fprintf(os.Stderr, "opcount: no operation %q (-list lists them)\n", *op)
		os.Exit(2)
	}
	buf, err := f(nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for range *iter {
		if buf, err = f(buf[:0]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
