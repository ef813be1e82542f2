// Command opcount runs one of the bench module's operations a given number
// of times and nothing else, so that valgrind's callgrind can count the
// instructions of one operation: run it at two counts, and the difference
// of the totals over the difference of the counts is one operation's
// (callgrind.sh does this). Unlike the test binary, it checks nothing
// before it runs (the tests do), so that no map iterated in a random order
// adds noise to the counts. The operations are those BenchmarkUsers,
// BenchmarkSeedStruct, BenchmarkRows and BenchmarkShape time (users/…: the
// seed's shape from maps, from structs and by hand, and shaped by a
// selection, Only, Except or a flag; rows/…: a []Row through the entities
// and the encoders), the seed with an empty list (empty/…): the fixed cost
// of a call alone, and the request side's, BenchmarkRequest's
// (order/Bind, order/MakeRequest, order/Patch… with n order lines: see
// bench.RequestOps), with the order itself as server data (order/AppendJSON
// of it as a map, order/Make).
//
// The operations run in a function of their own, measure, so that a
// tracer can collect the calls inside it alone (calltrace.sh gives
// callgrind --toggle-collect=main.measure).
//
// Usage:
//
//	opcount -op users/AppendJSON -n 100 -iter 1000
//	opcount -op order/Bind -n 3 -iter 1000
//	opcount -list
//	opcount -body -n 130   # the body order/… send with 130 lines
package main

import (
	stdjson "encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/bytedance/sonic"
	"github.com/expose-go/expose/bench"
	"github.com/expose-go/expose/entity"
	goccy "github.com/goccy/go-json"
)

// op is one operation: it appends to dst, or ignores it.
type op func(dst []byte) ([]byte, error)

// ops returns each response operation, made for n users or rows.
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
	var failing any = bench.FailingUsers(n)
	var empty any = map[string]any{"limit": n, "list": []any{}}
	emptyMap := map[string]any{"limit": n, "list": []any{}}
	shape := bench.NewShapeRegistry()
	shaped, brief, members := shape.MustLookup("users"), shape.MustLookup("briefusers"), shape.MustLookup("members")
	sel, only, except, with := entity.Select(bench.ShapeSpec), entity.Only(bench.ShapeOnly...), entity.Except(bench.ShapeExcept...), entity.With("brief")
	orders := bench.NewOrderRegistry().MustLookup("order")
	var order any = bench.OrderMap(n)
	return map[string]func([]byte) ([]byte, error){
		"users/Make": func(dst []byte) ([]byte, error) {
			_, err := users.Make(m)
			return dst, err
		},
		"users/Select":      func(dst []byte) ([]byte, error) { return shaped.AppendJSON(dst, m, sel) },
		"users/Only":        func(dst []byte) ([]byte, error) { return shaped.AppendJSON(dst, m, only) },
		"users/Except":      func(dst []byte) ([]byte, error) { return shaped.AppendJSON(dst, m, except) },
		"users/flag":        func(dst []byte) ([]byte, error) { return brief.AppendJSON(dst, m, with) },
		"users/flag-unset":  func(dst []byte) ([]byte, error) { return brief.AppendJSON(dst, m) },
		"users/conditional": func(dst []byte) ([]byte, error) { return members.AppendJSON(dst, m) },
		"order/AppendJSON":  func(dst []byte) ([]byte, error) { return orders.AppendJSON(dst, order) },
		"order/Make": func(dst []byte) ([]byte, error) {
			_, err := orders.Make(order)
			return dst, err
		},
		"users/AppendJSON": func(dst []byte) ([]byte, error) { return users.AppendJSON(dst, m) },
		"failing/AppendJSON": func(dst []byte) ([]byte, error) { // the failure path: one bad mail in the last user
			if _, err := users.AppendJSON(dst, failing); err == nil {
				return dst, errors.New("no error")
			}
			return dst, nil
		},
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

// lookup returns the operation of that name made for n users, rows or
// order lines, or nil.
func lookup(name string, n int) op {
	if req, ok := strings.CutPrefix(name, "order/"); ok {
		if run := bench.LookupRequestOp(req, n); run != nil {
			return func(dst []byte) ([]byte, error) { return dst, run() }
		}
	}
	return ops(n)[name]
}

// names returns every operation's name, sorted.
func names() []string {
	var names []string
	for k := range ops(1) {
		names = append(names, k)
	}
	for _, r := range bench.RequestOps(1) {
		names = append(names, "order/"+r.Name)
	}
	slices.Sort(names)
	return names
}

func main() {
	name := flag.String("op", "", "the operation")
	n := flag.Int("n", 100, "users, rows or order lines")
	iter := flag.Int("iter", 1000, "times to run it")
	list := flag.Bool("list", false, "list the operations")
	body := flag.Bool("body", false, "print the request body of n order lines (order/…) and exit")
	flag.Parse()
	if *body {
		os.Stdout.Write(bench.OrderBody(*n))
		return
	}
	if *list {
		for _, k := range names() {
			fmt.Println(k)
		}
		return
	}
	f := lookup(*name, *n)
	if f == nil {
		fmt.Fprintf(os.Stderr, "opcount: no operation %q (-list lists them)\n", *name)
		os.Exit(2)
	}
	buf, err := f(nil) // a first, cold call: caches filled, buffers grown
	if err == nil {
		// Warm calls at the depth measure runs them, so that no
		// goroutine stack grows inside measure (a tracer would see the
		// stack move).
		err = warmUp(f, buf, 2)
	}
	if err == nil {
		err = measure(f, buf, *iter)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// measure runs f iter times, warm: the function a tracer collects in.
//
//go:noinline
func measure(f op, buf []byte, iter int) error {
	var err error
	for range iter {
		if buf, err = f(buf[:0]); err != nil {
			return err
		}
	}
	return nil
}

// warmUp is measure under another name, for the calls no tracer collects.
//
//go:noinline
func warmUp(f op, buf []byte, iter int) error {
	var err error
	for range iter {
		if buf, err = f(buf[:0]); err != nil {
			return err
		}
	}
	return nil
}
