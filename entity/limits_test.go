package entity_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
)

// cyclicUser is Go data that can point back at itself.
type cyclicUser struct {
	Name    string
	Friends []*cyclicUser
}

// allocated returns the bytes f allocates (TotalAlloc), and f's duration.
func allocated(f func()) (uint64, time.Duration) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	f()
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, d
}

// TestCyclicDataEndsAtTheDepthLimit: cyclic input ends at the depth limit
// from every entry point (cycleCases), at a lowered limit too; and a depth
// error ends the walk: a cycle through a two-element list would otherwise
// visit about 2^(depth/2) objects before every branch hit the limit.
func TestCyclicDataEndsAtTheDepthLimit(t *testing.T) {
	runEntryCases(t, cycleCases())
	t.Run("map containing itself into none, limit 3", func(t *testing.T) {
		reg := entity.NewRegistry()
		setLimit(reg, func(l *entity.Limits) { l.Depth = 3 })
		e := expose(t, reg, "one", "v", "none", "")
		runEntryCase(t, e, entryCase{in: func() any { return map[string]any{"v": mapCycle(1)} }, fails: []string{failAt("v", "depth")}})
	})
	a, b := &cyclicUser{Name: "a"}, &cyclicUser{Name: "b"}
	a.Friends, b.Friends = []*cyclicUser{b, a}, []*cyclicUser{a, b}
	for _, depth := range []int{44, 64, 10000} {
		t.Run(fmt.Sprint("depth ", depth), func(t *testing.T) {
			reg := entity.NewRegistry()
			setLimit(reg, func(l *entity.Limits) { l.Depth = depth })
			e := expose(t, reg, "user", "Name", "string", "req", "Friends", "$user", "")
			var err error
			alloc, d := allocated(func() { _, err = e.MakeJSON(a) })
			var ve *entity.ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, entity.ErrDepth) {
				t.Fatalf("MakeJSON of cyclic data: %v, want a ValidationError with the depth error", err)
			}
			if n := len(ve.Fields); n != 1 || ve.Fields[0].Rule != "depth" {
				t.Errorf("fields %v, want the one depth error", ve.Fields)
			}
			// The walk went down one branch, once: its bytes, not 2^depth.
			if alloc > uint64(depth)*2048+1<<20 {
				t.Errorf("allocated %d bytes (%v) for depth %d", alloc, d, depth)
			}
		})
	}
	t.Run("errors found before the depth error are kept", func(t *testing.T) {
		reg := entity.NewRegistry()
		setLimit(reg, func(l *entity.Limits) { l.Depth = 4 })
		e := expose(t, reg, "user", "Name", "string", "req", "Friends", "$user", "")
		c := map[string]any{} // no name: req fails first
		c["Friends"] = []any{c}
		_, err := e.MakeJSON(c)
		var ve *entity.ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("got %v, want a ValidationError", err)
		}
		var rules []string
		for _, f := range ve.Fields {
			rules = append(rules, f.Path+" "+f.Rule)
		}
		if got, want := strings.Join(rules, "; "), "Name req; Friends[0].Name req; Friends[0].Friends[0] depth"; got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	})
}

// doublingChain declares n entities, each with two bare-default references
// to the next: made from {}, the first builds 2^n objects.
func doublingChain(t *testing.T, reg *entity.Registry, n int) {
	for i := range n {
		next := fmt.Sprintf("$e%d", i+1)
		expose(t, reg, fmt.Sprintf("e%d", i), "a", next, "default", "b", next, "default")
	}
	expose(t, reg, fmt.Sprintf("e%d", n), "leaf", "string", "default 'x'")
}

func TestOutputLimit(t *testing.T) {
	t.Run("bare defaults that double", func(t *testing.T) {
		reg := entity.NewRegistry()
		doublingChain(t, reg, 40)
		setLimit(reg, func(l *entity.Limits) { l.OutputBytes = 1 << 20 })
		var err error
		alloc, d := allocated(func() { _, err = reg.Lookup("e0").MakeJSON(nil) })
		if !errors.Is(err, entity.ErrTooLarge) {
			t.Fatalf("got %v, want ErrTooLarge", err)
		}
		if alloc > 5<<19 { // the output buffer doubles up to the limit: about 2 MiB
			t.Errorf("allocated %d bytes (%v) under a 1 MiB limit", alloc, d)
		}
	})
	t.Run("the default limit stops it too", func(t *testing.T) {
		reg := entity.NewRegistry()
		doublingChain(t, reg, 40)
		if got := reg.Limits().OutputBytes; got != 64<<20 {
			t.Errorf("MaxOutputBytes = %d, want 64 MiB", got)
		}
		_, err := reg.Lookup("e0").Make(nil)
		if !errors.Is(err, entity.ErrTooLarge) {
			t.Fatalf("got %v, want ErrTooLarge", err)
		}
	})
	t.Run("a DAG of Go values that shares nodes", func(t *testing.T) {
		reg := entity.NewRegistry()
		setLimit(reg, func(l *entity.Limits) { l.OutputBytes = 1 << 20 })
		e := expose(t, reg, "node", "kids", "$node", "", "name", "string", "")
		leaf := map[string]any{"name": "leaf"}
		n := leaf
		for range 25 { // 2^25 objects, 50 levels deep
			n = map[string]any{"name": "n", "kids": []any{n, n}}
		}
		_, err := e.MakeJSON(n)
		if !errors.Is(err, entity.ErrTooLarge) {
			t.Fatalf("got %v, want ErrTooLarge", err)
		}
	})
	t.Run("a DAG of lists passed through none", func(t *testing.T) {
		reg := entity.NewRegistry()
		setLimit(reg, func(l *entity.Limits) { l.OutputBytes = 1 << 20 })
		e := expose(t, reg, "one", "v", "none", "", "w", "list", "")
		x := []any{1}
		for range 40 { // 2^40 ones, 41 levels deep
			x = []any{x, x}
		}
		var err error
		alloc, d := allocated(func() { _, err = e.MakeJSON(map[string]any{"v": x}) })
		if !errors.Is(err, entity.ErrTooLarge) {
			t.Fatalf("got %v, want ErrTooLarge", err)
		}
		if alloc > 5<<19 {
			t.Errorf("allocated %d bytes (%v) under a 1 MiB limit", alloc, d)
		}
		if _, err := e.MakeJSON(map[string]any{"w": []any{map[string]any{"a": x}}}); !errors.Is(err, entity.ErrTooLarge) {
			t.Errorf("on a list field: %v, want ErrTooLarge", err)
		}
	})
	// What grows the output without starting an object or a container:
	// strings, in fields, lists and maps of strings, and escapes.
	t.Run("values that are no containers", func(t *testing.T) {
		mb := strings.Repeat("a", 1<<20)
		rep := make([]any, 64)
		strs := make([]string, 64)
		smap := map[string]string{}
		for i := range rep {
			rep[i], strs[i] = mb, mb
			smap[fmt.Sprint(i)] = mb
		}
		type sharing struct{ A, B, C, D, E, F, G, H string }
		cases := []struct {
			name, typ string
			in        any
		}{
			{"none: a list of strings", "none", rep},
			{"list: []string", "list", strs},
			{"object: map[string]string", "object", smap},
			{"string fields sharing one string", "", sharing{mb, mb, mb, mb, mb, mb, mb, mb}},
			{"escapes that multiply", "string", strings.Repeat("<", 400<<10)},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				reg := entity.NewRegistry()
				setLimit(reg, func(l *entity.Limits) { l.OutputBytes = 1 << 20 })
				var e *entity.Entity
				in := c.in
				if c.typ == "" {
					e = expose(t, reg, "s", "A", "string", "", "B", "string", "", "C", "string", "", "D", "string", "",
						"E", "string", "", "F", "string", "", "G", "string", "", "H", "string", "")
				} else {
					e = expose(t, reg, "one", "v", c.typ, "")
					in = map[string]any{"v": c.in}
				}
				var err error
				alloc, d := allocated(func() { _, err = e.MakeJSON(in) })
				if !errors.Is(err, entity.ErrTooLarge) {
					t.Fatalf("got %v, want ErrTooLarge", err)
				}
				// One value is written whole before it is measured: a string
				// of 400 KiB escapes to 2.4 MB, and append grows its buffer by quarters.
				if alloc > 16<<20 {
					t.Errorf("allocated %d bytes (%v) under a 1 MiB limit", alloc, d)
				}
			})
		}
	})
	t.Run("a small limit is exact", func(t *testing.T) {
		reg := entity.NewRegistry()
		setLimit(reg, func(l *entity.Limits) { l.OutputBytes = 100 })
		e := expose(t, reg, "one", "v", "string", "")
		if _, err := e.MakeJSON(map[string]any{"v": strings.Repeat("x", 1000)}); !errors.Is(err, entity.ErrTooLarge) {
			t.Errorf("1008 bytes under a limit of 100: %v, want ErrTooLarge", err)
		}
	})
	t.Run("a DAG of structs passed to encoding/json", func(t *testing.T) {
		type node struct {
			A, B *node
			V    int
		}
		n := &node{V: 1}
		for range 40 {
			n = &node{A: n, B: n}
		}
		reg := entity.NewRegistry()
		setLimit(reg, func(l *entity.Limits) { l.Depth = 100 })
		setLimit(reg, func(l *entity.Limits) { l.OutputBytes = 1 << 20 })
		e := expose(t, reg, "one", "v", "none", "")
		var err error
		alloc, d := allocated(func() { _, err = e.MakeJSON(map[string]any{"v": n}) })
		if !errors.Is(err, entity.ErrTooLarge) {
			t.Fatalf("got %v, want ErrTooLarge", err)
		}
		if alloc > 4<<20 {
			t.Errorf("allocated %d bytes (%v) under a 1 MiB limit", alloc, d)
		}
	})
	t.Run("a struct's hidden fields do not count", func(t *testing.T) {
		type cached struct {
			Name  string
			Cache []int `json:"-"`
			big   []int
		}
		reg := entity.NewRegistry()
		setLimit(reg, func(l *entity.Limits) { l.OutputBytes = 1 << 10 })
		e := expose(t, reg, "one", "v", "none", "")
		in := cached{Name: "n", Cache: make([]int, 1<<16), big: make([]int, 1<<16)}
		if out, err := e.MakeJSON(map[string]any{"v": in}); err != nil || string(out) != `{"v":{"Name":"n"}}` {
			t.Errorf("got %s, %v", out, err)
		}
	})
	t.Run("output at the limit passes", func(t *testing.T) {
		reg := entity.NewRegistry()
		e := expose(t, reg, "one", "s", "string", "")
		out, err := e.MakeJSON(map[string]any{"s": strings.Repeat("x", 100)})
		if err != nil {
			t.Fatal(err)
		}
		setLimit(reg, func(l *entity.Limits) { l.OutputBytes = int64(len(out)) })
		if _, err := e.MakeJSON(map[string]any{"s": strings.Repeat("x", 100)}); err != nil {
			t.Errorf("output of exactly the limit: %v", err)
		}
	})
	t.Run("AppendJSON counts only what it appends", func(t *testing.T) {
		reg := entity.NewRegistry()
		setLimit(reg, func(l *entity.Limits) { l.OutputBytes = 64 })
		e := expose(t, reg, "item", "x", "number", "")
		dst := bytes.Repeat([]byte("-"), 1000)
		if _, err := e.AppendJSON(dst, map[string]any{"x": 1}); err != nil {
			t.Errorf("AppendJSON after 1000 bytes: %v", err)
		}
	})
	t.Run("Write answers 500", func(t *testing.T) {
		reg := entity.NewRegistry()
		doublingChain(t, reg, 30)
		setLimit(reg, func(l *entity.Limits) { l.OutputBytes = 1 << 16 })
		rec := httptest.NewRecorder()
		err := reg.Lookup("e0").Write(rec, nil)
		if !errors.Is(err, entity.ErrTooLarge) || rec.Code != http.StatusInternalServerError {
			t.Errorf("Write: %v, status %d; want ErrTooLarge and 500", err, rec.Code)
		}
		if strings.Contains(rec.Body.String(), `"e0`) || strings.Contains(rec.Body.String(), "entity") {
			t.Errorf("the 500 body names the entity: %s", rec.Body)
		}
	})
}

// tenFields declares an item of ten fields and a list of them.
func tenFields(t *testing.T, reg *entity.Registry) *entity.Entity {
	var decl []string
	for i := range 10 {
		decl = append(decl, fmt.Sprintf("field_%d", i), "string", "")
	}
	expose(t, reg, "item", decl...)
	return expose(t, reg, "items", "items", "[]$item", "")
}

// emptyItems returns a JSON body of n bytes or a little less:
// {"items":[{},{},…]}.
func emptyItems(n int) []byte {
	b := []byte(`{"items":[`)
	for len(b)+4 < n {
		b = append(b, "{},"...)
	}
	return append(b, "{}]}"...)
}

func TestRequestOutputLimit(t *testing.T) {
	reg := entity.NewRegistry()
	e := tenFields(t, reg)
	post := func(body []byte) *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		return r
	}
	t.Run("a small body passes", func(t *testing.T) {
		if _, err := e.MakeRequest(post(emptyItems(1000))); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a body that multiplies is 413", func(t *testing.T) {
		_, err := e.MakeRequest(post(emptyItems(1<<20 - 100)))
		var ie *entity.InputError
		if !errors.As(err, &ie) || ie.StatusCode() != http.StatusRequestEntityTooLarge || !errors.Is(err, entity.ErrTooLarge) {
			t.Fatalf("got %v, want a 413 InputError wrapping ErrTooLarge", err)
		}
	})
	t.Run("the ratio is settable", func(t *testing.T) {
		reg := entity.NewRegistry()
		e := tenFields(t, reg)
		setLimit(reg, func(l *entity.Limits) { l.RequestOutputRatio = 100 })
		if got := reg.Limits().RequestOutputRatio; got != 100 {
			t.Errorf("RequestOutputRatio = %d", got)
		}
		if _, err := e.MakeRequest(post(emptyItems(1<<20 - 100))); err != nil {
			t.Errorf("ratio 100: %v", err)
		}
	})
	t.Run("a query-only GET has 1 MiB", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "q", "s", "string", "")
		long := strings.Repeat("x", 500<<10)
		r := httptest.NewRequest(http.MethodGet, "/?s="+long, nil)
		if _, err := reg.Lookup("q").MakeRequest(r); err != nil {
			t.Errorf("GET with a 500 KiB query: %v", err)
		}
	})
}

// A nil slice is an empty list, as a query that returned no rows gives.
func TestNilSliceIsAnEmptyList(t *testing.T) {
	type user struct{ ID int }
	var rows []user
	e := exposeOne(t, "number", "req") // field v; a nil slice must not be read as an object
	cases := []struct {
		name string
		in   any
	}{
		{"[]struct", rows},
		{"[]map[string]any", []map[string]any(nil)},
		{"[]any", []any(nil)},
		{"*[]struct", &rows},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if out, err := e.MakeJSON(c.in); err != nil || string(out) != "[]" {
				t.Errorf("MakeJSON = %s, %v; want []", out, err)
			}
			if out, err := e.AppendJSON([]byte("x"), c.in); err != nil || string(out) != "x[]" {
				t.Errorf("AppendJSON = %s, %v; want x[]", out, err)
			}
			rec := httptest.NewRecorder()
			if err := e.Write(rec, c.in); err != nil || rec.Code != 200 || rec.Body.String() != "[]" {
				t.Errorf("Write = %d %s, %v; want 200 []", rec.Code, rec.Body, err)
			}
			if l, err := e.MakeList(c.in); err != nil || l == nil || len(l) != 0 {
				t.Errorf("MakeList = %v, %v; want an empty slice", l, err)
			}
			if _, err := e.Make(c.in); !errors.Is(err, entity.ErrUnsupportedInput) || !strings.Contains(err.Error(), "MakeList") {
				t.Errorf("Make = %v; want the list error naming MakeList", err)
			}
		})
	}
	t.Run("nil []byte is still an empty input", func(t *testing.T) {
		e := exposeOne(t, "number", "default 1")
		if out, err := e.MakeJSON([]byte(nil)); err != nil || string(out) != `{"v":1}` {
			t.Errorf("MakeJSON([]byte(nil)) = %s, %v", out, err)
		}
	})
}

// A request's memory is proportional to its body: on the worst case
// known (a 1 MiB body of empty objects against a ten-field $ref,
// which multiplies its output), MakeRequest allocates at most 48 bytes per
// body byte, everything counted: the body, the JSON reader's records and
// the output up to its limit.
func TestRequestMemoryPerBodyByte(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	cases := []struct {
		name string
		body []byte
	}{
		{"empty objects", emptyItems(1<<20 - 100)},
		{"empty arrays", []byte(`{"items":[` + strings.Repeat("[],", (1<<20-100)/3) + `[]]}`)},
		{"empty strings", []byte(`{"items":[` + strings.Repeat(`"",`, (1<<20-100)/3) + `""]}`)},
		{"short keys", []byte(`{"items":[{` + strings.Repeat(`"a":0,`, (1<<20-100)/6) + `"a":0}]}`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			e := tenFields(t, reg)
			var err error
			alloc, _ := allocated(func() {
				r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(c.body))
				r.Header.Set("Content-Type", "application/json")
				_, err = e.MakeRequest(r)
			})
			perByte := float64(alloc) / float64(len(c.body))
			t.Logf("%d-byte body: %v; %d bytes allocated, %.1f per body byte", len(c.body), err, alloc, perByte)
			// The target is 48; today the worst case is 16.3: a
			// regression past 24 is one to look at.
			if perByte > 24 {
				t.Errorf("%.1f bytes allocated per body byte, want at most 24", perByte)
			}
		})
	}
}

// deepList is v inside n lists.
func deepList(n int, v any) any {
	for range n {
		v = []any{v}
	}
	return v
}

// recOut is the output of rec for n nested maps: n objects
// {"a":null,"r":{…}}.
func recOut(n int) string {
	return strings.Repeat(`{"a":null,"r":`, n) + "null" + strings.Repeat("}", n)
}

// repeatPath is name repeated n times, joined with dots: the path of a
// recursive reference.
func repeatPath(name string, n int) string {
	return strings.TrimSuffix(strings.Repeat(name+".", n), ".")
}

// depthCases: deep nesting, 10 000 levels, into each kind of field and
// through a recursive reference. The default limit is 64 levels of output
// nesting, the entity's own object included, so a field's value may nest
// 63 levels.
func depthCases() []entryCase {
	depthV := []string{failAt("v", "depth")}
	return []entryCase{
		{name: "list 10k deep into none", ent: "none", in: func() any { return map[string]any{"v": deepList(10000, 1)} }, fails: depthV},
		{name: "list 10k deep into list", ent: "list", in: func() any { return map[string]any{"v": deepList(10000, 1)} }, fails: depthV},
		{name: "list 10k deep into object is not an object", ent: "object", in: func() any { return map[string]any{"v": deepList(10000, 1)} }, out: wantOut(`{"v":null}`)},
		{name: "list 10k deep into string is null", ent: "string", in: func() any { return map[string]any{"v": deepList(10000, 1)} }, out: wantOut(`{"v":null}`)},
		{name: "map 10k deep into none", ent: "none", in: func() any { return map[string]any{"v": deepMap(10000, 1)} }, fails: depthV},
		{name: "map 10k deep into object", ent: "object", in: func() any { return map[string]any{"v": deepMap(10000, 1)} }, fails: depthV},
		{name: "map 10k deep into list is not a list", ent: "list", in: func() any { return map[string]any{"v": deepMap(10000, 1)} }, out: wantOut(`{"v":null}`)},
		{name: "map 10k deep through recursive $ref", ent: "rec", in: func() any { return deepMap(10000, nil) }, fails: []string{failAt(repeatPath("r", 64), "depth")}},
		{name: "list of maps 10k deep through recursive $ref list", ent: "recl",
			in: func() any {
				var v any = map[string]any{}
				for range 10000 {
					v = map[string]any{"r": []any{v}}
				}
				return v
			},
			fails: []string{failAt(repeatPath("r[0]", 32), "depth")}}, // a list and its object: two levels each
		{name: "none nested 63 lists: at the limit", ent: "none", in: func() any { return map[string]any{"v": deepList(63, 1)} },
			out: func() string { return `{"v":` + strings.Repeat("[", 63) + "1" + strings.Repeat("]", 63) + `}` }},
		{name: "none nested 64 lists: one past the limit", ent: "none", in: func() any { return map[string]any{"v": deepList(64, 1)} }, fails: depthV},
		{name: "$ref nested to 64 objects: at the limit", ent: "rec", in: func() any { return deepMap(64, nil) }, out: func() string { return recOut(64) }},
		{name: "$ref nested to 65 objects: one past the limit", ent: "rec", in: func() any { return deepMap(65, nil) }, fails: []string{failAt(repeatPath("r", 64), "depth")}},
		{name: "raw JSON: list 10k deep into none", ent: "none",
			in: func() any { return []byte(`{"v":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}`) }, fails: depthV},
		{name: "raw JSON: list 64 deep into none", ent: "none",
			in: func() any { return []byte(`{"v":` + strings.Repeat("[", 64) + strings.Repeat("]", 64) + `}`) }, fails: depthV},
		{name: "raw JSON: list 63 deep into none", ent: "none",
			in:  func() any { return []byte(`{"v":` + strings.Repeat("[", 63) + strings.Repeat("]", 63) + `}`) },
			out: func() string { return `{"v":` + strings.Repeat("[", 63) + strings.Repeat("]", 63) + `}` }},
		{name: "raw JSON: object 10k deep into object", ent: "object",
			in: func() any {
				return []byte(`{"v":` + strings.Repeat(`{"a":`, 9998) + "1" + strings.Repeat("}", 9998) + `}`)
			}, fails: depthV},
		{name: "raw JSON: 10k deep through recursive $ref", ent: "rec",
			in: func() any { return []byte(strings.Repeat(`{"r":`, 9999) + "{}" + strings.Repeat("}", 9999)) }, fails: []string{failAt(repeatPath("r", 64), "depth")}},
		{name: "raw JSON: 10k deep into a string field is null", ent: "string",
			in: func() any { return []byte(`{"v":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}`) }, out: wantOut(`{"v":null}`)},
		{name: "raw JSON: deeper than encoding/json's 10000 levels", ent: "none",
			in: func() any { return []byte(`{"v":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`) }, errIs: entity.ErrInvalidJSON, status: 500},
		{name: "raw JSON: 8M unclosed brackets (no recursion, no tape of 8M entries)", ent: "none",
			in: func() any { return bytes.Repeat([]byte("["), 8_000_000) }, errIs: entity.ErrInvalidJSON, status: 500},
		{name: "raw JSON: top-level array 10k deep holds no objects", ent: "none", list: true,
			in: func() any { return []byte(strings.Repeat("[", 9999) + strings.Repeat("]", 9999)) }, out: wantOut(`[]`)},
	}
}

// TestDepthLimit: nesting beyond the registry's limit is a FieldError of
// rule "depth", never a stack overflow, from every entry point: input
// nested past the limit (depthCases, at the default limit, and recursive
// references at other limits) is a depth error; at the limit it is written
// whole.
func TestDepthLimit(t *testing.T) {
	runEntryCases(t, depthCases())

	treeDecl := []string{"name", "string", "", "children", "$tree", ""}
	cases := []struct {
		name     string
		decl     []string
		maxDepth int // 0: the default
		in       any
		path     string // Path of the depth error's prefix
	}{
		{"deep tree, small limit", treeDecl, 5, tree(10), "children[0]"},
		{"deep tree, default limit", treeDecl, 0, tree(200), "children[0]"},
		{"deep groups, limit 1", []string{"g", "{", "", "h", "{", "", "x", "string", "", "h", "}", "", "g", "}", ""}, 1, map[string]any{"x": 1}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			if c.maxDepth > 0 {
				setLimit(reg, func(l *entity.Limits) { l.Depth = c.maxDepth })
			}
			e := expose(t, reg, "tree", c.decl...)
			runEntryCase(t, e, entryCase{in: given(c.in), check: func(t testing.TB, err error) {
				for _, f := range fieldErrors(t, err) {
					if f.Rule == "depth" && strings.HasPrefix(f.Path, c.path) {
						return
					}
				}
				t.Errorf("no depth error at %q in %v", c.path, err)
			}})
		})
	}
	t.Run("deep none value under a raised limit", func(t *testing.T) {
		reg := entity.NewRegistry()
		setLimit(reg, func(l *entity.Limits) { l.Depth = 400 })
		e := expose(t, reg, "one", "v", "none", "")
		v := deepList(100, "leaf")
		runEntryCase(t, e, entryCase{in: given(input(v)), out: wantOut(`{"v":` + marshal(t, v) + `}`)})
	})
}

// tree builds a chain of depth nodes: {"name":"n1","children":[{...}]}.
func tree(depth int) map[string]any {
	var node map[string]any
	for i := depth; i >= 1; i-- {
		n := map[string]any{"name": fmt.Sprint("n", i), "extra": i}
		if node != nil {
			n["children"] = []any{node, "skipped"}
		}
		node = n
	}
	return node
}

// treeJSON is the JSON of tree(depth) made with the tree entity.
func treeJSON(depth int) string {
	s := ""
	for i := depth; i >= 1; i-- {
		children := "null"
		if s != "" {
			children = "[" + s + "]"
		}
		s = fmt.Sprintf(`{"name":"n%d","children":%s}`, i, children)
	}
	return s
}

func exposeTree(t testing.TB, reg *entity.Registry) *entity.Entity {
	t.Helper()
	return expose(t, reg, "tree",
		"name", "string", "req",
		"children", "$tree", "",
	)
}

// TestRecursive: an entity that references itself, on nested data within
// the depth limit, from every entry point.
func TestRecursive(t *testing.T) {
	for _, c := range []struct {
		name            string
		depth, maxDepth int // maxDepth 0: the default
	}{
		{"1", 1, 0}, {"2", 2, 0}, {"5", 5, 0}, {"20", 20, 0},
		// An Object made under a raised limit marshals as MakeJSON wrote it.
		{"100 under a raised limit", 100, 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			if c.maxDepth > 0 {
				setLimit(reg, func(l *entity.Limits) { l.Depth = c.maxDepth })
			}
			e := exposeTree(t, reg)
			runEntryCase(t, e, entryCase{in: given(tree(c.depth)), out: wantOut(treeJSON(c.depth))})
		})
	}
	reg := entity.NewRegistry()
	e := exposeTree(t, reg)
	t.Run("error deep inside", func(t *testing.T) {
		in := tree(4)
		in["children"].([]any)[0].(map[string]any)["children"].([]any)[0].(map[string]any)["name"] = nil
		runEntryCase(t, e, entryCase{in: given(in), fails: []string{failAt("children[0].children[0].name", "req")}})
	})
	t.Run("mutual recursion", func(t *testing.T) {
		expose(t, reg, "ping", "n", "number", "", "pong", "$pong", "")
		expose(t, reg, "pong", "s", "string", "", "ping", "$ping", "")
		runEntryCase(t, reg.Lookup("ping"), entryCase{
			in:  given(map[string]any{"n": 1, "pong": map[string]any{"s": 2, "ping": map[string]any{"n": 3}}}),
			out: wantOut(`{"n":1,"pong":{"s":"2","ping":{"n":3,"pong":null}}}`),
		})
	})
}

// cycleCases: a map that contains itself (directly, or five maps down), a
// slice that contains itself, into each kind of field and through a
// recursive reference: a depth error, never a hang.
func cycleCases() []entryCase {
	depthV := []string{failAt("v", "depth")}
	return []entryCase{
		{name: "map containing itself into none", ent: "none", in: func() any { return map[string]any{"v": mapCycle(1)} }, fails: depthV},
		{name: "map containing itself into object", ent: "object", in: func() any { return map[string]any{"v": mapCycle(1)} }, fails: depthV},
		{name: "map containing itself into list is not a list", ent: "list", in: func() any { return map[string]any{"v": mapCycle(1)} }, out: wantOut(`{"v":null}`)},
		{name: "map cycle of five into none", ent: "none", in: func() any { return map[string]any{"v": mapCycle(5)} }, fails: depthV},
		{name: "map cycle of five into object", ent: "object", in: func() any { return map[string]any{"v": mapCycle(5)} }, fails: depthV},
		{name: "map containing itself through $ref", ent: "rec", in: func() any { return mapCycle(1) }, fails: []string{failAt(repeatPath("r", 64), "depth")}},
		{name: "map cycle of five through $ref", ent: "rec", in: func() any { return mapCycle(5) }, fails: []string{failAt(repeatPath("r", 64), "depth")}},
		{name: "slice containing itself into none", ent: "none",
			in: func() any { s := []any{nil}; s[0] = s; return map[string]any{"v": s} }, fails: depthV},
		{name: "slice containing itself into list", ent: "list",
			in: func() any { s := []any{1, nil}; s[1] = s; return map[string]any{"v": s} }, fails: depthV},
		{name: "slice containing a map containing the slice, into none", ent: "none",
			in: func() any { s := []any{nil}; s[0] = map[string]any{"s": s}; return map[string]any{"v": s} }, fails: depthV},
		{name: "list of a map containing the list, through a $ref list", ent: "recl",
			in:    func() any { l := []any{nil}; m := map[string]any{"r": l}; l[0] = m; return m },
			fails: []string{failAt(repeatPath("r[0]", 32), "depth")}},
		{name: "map[string]string cannot cycle, map[string]any of it can", ent: "none",
			in: func() any {
				m := map[string]any{}
				m["a"] = map[string]any{"b": m, "s": map[string]string{"x": "y"}}
				return map[string]any{"v": m}
			}, fails: depthV},
		// The depth limit stops a cycle through a struct passed to
		// encoding/json before it does, as it stops cycles through maps.
		{name: "struct with a cycle through pointers into none", ent: "none",
			in: func() any { n := &linkedNode{V: "x"}; n.P = n; return map[string]any{"v": n} }, fails: []string{failAt("v", "depth")}},
		{name: "struct with a cycle through an interface into none", ent: "node",
			in: func() any { n := &linkedNode{V: "x"}; n.N = n; return n }, fails: []string{failAt("n", "depth")}},
		{name: "struct with a cycle through pointers, through $ref", ent: "node",
			in: func() any { n := &linkedNode{V: "x"}; n.P = n; return n }, fails: []string{failAt(repeatPath("p", 64), "depth")}},
		{name: "struct holding a cyclic map into none", ent: "node",
			in: func() any { return &linkedNode{N: mapCycle(2)} }, fails: []string{failAt("n", "depth")}},
	}
}

// errorCapCases: the error cap, 100 field errors, then one summary entry.
func errorCapCases() []entryCase {
	return []entryCase{
		{name: "1 million failing fields", ent: "reqstr", list: true,
			in: func() any {
				l := make([]map[string]any, 1_000_000)
				empty := map[string]any{}
				for i := range l {
					l[i] = empty
				}
				return l
			},
			check: capped(1_000_000)},
		{name: "1000 failing fields of one object", ent: "req1000", in: given(map[string]any{}), check: capped(1000)},
		{name: "101 failing fields", ent: "reqstr", list: true, in: func() any { return make([]map[string]any, 101) }, check: capped(101)},
		{name: "100 failing fields: no summary", ent: "reqstr", list: true, in: func() any { return make([]map[string]any, 100) }, check: capped(100)},
	}
}

// TestErrorCap: past the cap of 100 field errors, one summary entry says how
// many more, from every entry point.
func TestErrorCap(t *testing.T) {
	runEntryCases(t, errorCapCases())
}

// capped checks an error of n failing fields under the default cap: the
// first 100 listed, then, past the cap, one summary entry of rule "limit"
// saying how many more, in Fields, in Error() and in Write's body.
func capped(n int) func(testing.TB, error) {
	return func(t testing.TB, err error) {
		var ve *entity.ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("error %v (%T) is not a *ValidationError", err, err)
			return
		}
		listed, more := min(n, 100), max(n-100, 0)
		want := listed
		if more > 0 {
			want++
		}
		if len(ve.Fields) != want {
			t.Errorf("%d Fields, want %d", len(ve.Fields), want)
			return
		}
		for _, f := range ve.Fields[:listed] {
			if f.Rule != "req" {
				t.Errorf("field %v: rule %q, want req", f, f.Rule)
			}
		}
		if ve.Omitted != more {
			t.Errorf("Omitted = %d, want %d", ve.Omitted, more)
		}
		summary := fmt.Sprintf("and %d more", more)
		if more == 0 {
			if strings.Contains(err.Error(), "more field errors") {
				t.Errorf("Error() has a summary with nothing omitted: %.200s", err)
			}
			return
		}
		last := ve.Fields[listed]
		if last.Rule != "limit" || !strings.HasPrefix(last.Message, summary) {
			t.Errorf("summary entry = %q (rule %q), want %q… (rule limit)", last.Message, last.Rule, summary)
		}
		if msg := err.Error(); !strings.Contains(msg, summary) {
			t.Errorf("Error() lacks %q: …%s", summary, msg[max(0, len(msg)-200):])
		}
		// As a request's error (one built outside the package is): the
		// server's data answers the generic 500, which lists nothing.
		body := entity.ProblemJSON(&entity.ValidationError{Entity: ve.Entity, Fields: ve.Fields, Omitted: ve.Omitted})
		omitted := `],"omitted":` + strconv.Itoa(ve.Omitted) + `}`
		if !json.Valid(body) || !bytes.HasSuffix(body, []byte(omitted)) || bytes.Count(body, []byte(`"pointer":`)) != listed {
			t.Errorf("Write's body does not list %d errors and end %s: …%s", listed, omitted, body[max(0, len(body)-200):])
		}
	}
}

// TestLimitsOutOfRange: limits out of range are taken to their bounds (a
// zero field is the default, a negative one the least the limit allows),
// and the tightest limits still give valid output or clear errors.
func TestLimitsOutOfRange(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.Configure(entity.Limits{}); err != nil || reg.Limits() != entity.NewRegistry().Limits() || reg.Limits().Depth != 64 {
		t.Errorf("zero limits: %+v, %v; want the defaults", reg.Limits(), err)
	}
	for _, n := range []int{-1, math.MinInt} {
		setLimit(reg, func(l *entity.Limits) { l.Depth = n })
		setLimit(reg, func(l *entity.Limits) { l.Errors = n })
		setLimit(reg, func(l *entity.Limits) { l.BodyBytes = int64(n) })
		if reg.Limits().Depth != 1 || reg.Limits().Errors != 1 || reg.Limits().BodyBytes != 0 {
			t.Errorf("after setting %d: MaxDepth %d, MaxErrors %d, MaxBodyBytes %d; want 1, 1, 0",
				n, reg.Limits().Depth, reg.Limits().Errors, reg.Limits().BodyBytes)
		}
	}
	setLimit(reg, func(l *entity.Limits) { l.Depth = math.MaxInt })
	if reg.Limits().Depth != 10000 {
		t.Errorf("MaxDepth %d after SetMaxDepth(MaxInt), want the cap 10000", reg.Limits().Depth)
	}
	// A raised limit: 9000 levels through a $ref are written (encoding/json
	// reads at most 10000).
	setLimit(reg, func(l *entity.Limits) { l.Depth = 9001 })
	e := expose(t, reg, "rec", "a", "number", "", "r", "$rec", "")
	noPanic(t, "MakeJSON", func() {
		out, err := e.MakeJSON(deepMap(9000, nil))
		if err != nil || !json.Valid(out) {
			t.Errorf("9000 levels with a limit of 9001: %.200v", err)
		}
	})
	setLimit(reg, func(l *entity.Limits) { l.Depth = 1 })
	setLimit(reg, func(l *entity.Limits) { l.Errors = 1 })
	one := expose(t, reg, "one", "a", "string", "req", "b", "string", "req", "g", "{", "", "c", "string", "", "g", "}", "")
	_, err := one.MakeJSON(nil)
	var ve *entity.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) != 2 || ve.Fields[1].Rule != "limit" || ve.Omitted != 2 {
		t.Errorf("MaxErrors 1: %v", err)
	}
}

// TestHugeDepthLimit: with the depth limit raised as far as
// SetMaxDepth takes it, a cyclic map still ends with an error, never a
// crash. A stack overflow is fatal (no recover), so the make runs in a
// child process.
func TestHugeDepthLimit(t *testing.T) {
	if os.Getenv("HUGE_DEPTH_CHILD") == "1" {
		debug.SetMaxStack(128 << 20) // fail fast: a fixed library needs far less
		reg := entity.NewRegistry()
		setLimit(reg, func(l *entity.Limits) { l.Depth = math.MaxInt })
		e := expose(t, reg, "none", "v", "none", "")
		_, err := e.MakeJSON(map[string]any{"v": mapCycle(1)})
		if err == nil {
			t.Fatal("a cyclic map was made")
		}
		t.Logf("error: %.200v", err)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHugeDepthLimit$", "-test.v")
	cmd.Env = append(os.Environ(), "HUGE_DEPTH_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		if bytes.Contains(out, []byte("stack overflow")) {
			t.Fatalf("regression: SetMaxDepth(math.MaxInt) then MakeJSON of a map containing itself into a none field: fatal stack overflow (the process dies); want a depth or json field error\n%s",
				clip(string(out)))
		}
		t.Fatalf("child: %v\n%s", err, clip(string(out)))
	}
}

// TestRecursiveDefaultsBounded: an entity with two references to itself,
// each with a bare default, makes an empty input into a binary tree of
// defaults as deep as the depth limit: 2^depth objects. With the default
// limit of 64 levels, any input hangs the make. The work must stay bounded
// (or the declaration be refused): here, at a limit of 16 levels, at most
// a thousand field errors may be met.
func TestRecursiveDefaultsBounded(t *testing.T) {
	reg := entity.NewRegistry()
	setLimit(reg, func(l *entity.Limits) { l.Depth = 16 })
	if _, err := reg.Expose("bt", "v", "string", "", "l", "$bt", "default", "r", "$bt", "default"); err == nil {
		t.Fatalf("Expose accepted a bare default on a reference to the entity itself")
	}
	// An indirect cycle cannot be seen at declaration (references may point
	// forward): the make stops at it with a field error of rule "default",
	// after work bounded by the entities in the cycle, not by the depth.
	reg.MustExpose("ca", "v", "string", "", "l", "$cb", "default", "r", "$cb", "default")
	reg.MustExpose("cb", "a", "$ca", "default", "b", "$ca", "default")
	_, err := reg.Lookup("ca").MakeJSON(map[string]any{})
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("MakeJSON over a cycle of defaults: %v, want a ValidationError", err)
	}
	for _, f := range ve.Fields {
		if f.Rule != "default" {
			t.Errorf("field error %v of rule %q, want rule default", f, f.Rule)
		}
	}
	if met := len(ve.Fields) + ve.Omitted; met > 64 {
		t.Fatalf("a cycle of defaults met %d errors: the work is not bounded by the cycle", met)
	}
}

// TestErrorCountPastCap: past the cap, Error() still says how many fields
// failed, not how many entries it lists.
func TestErrorCountPastCap(t *testing.T) {
	reg := entryRegistry(t)
	_, err := reg.Lookup("req1000").MakeJSON(map[string]any{})
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	want := `entity "req1000": 1000 fields failed: `
	if !strings.HasPrefix(msg, want) {
		t.Fatalf("regression: 1000 fields failed, 100 listed: Error() begins %q, want %q (it counts the listed entries and the summary entry as fields)",
			msg[:min(len(msg), 60)], want)
	}
}
