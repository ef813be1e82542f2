package entity_test

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
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

// A depth error ends the walk: a cycle through a two-element list would
// otherwise visit about 2^(depth/2) objects before every branch hit the
// limit.
func TestCyclicDataEndsAtTheDepthLimit(t *testing.T) {
	a, b := &cyclicUser{Name: "a"}, &cyclicUser{Name: "b"}
	a.Friends, b.Friends = []*cyclicUser{b, a}, []*cyclicUser{a, b}
	for _, depth := range []int{44, 64, 10000} {
		t.Run(fmt.Sprint("depth ", depth), func(t *testing.T) {
			reg := entity.NewRegistry()
			reg.SetMaxDepth(depth)
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
		reg.SetMaxDepth(4)
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
		reg.SetMaxOutputBytes(1 << 20)
		var err error
		alloc, d := allocated(func() { _, err = reg.MakeJSON("e0", nil) })
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
		if got := reg.MaxOutputBytes(); got != 64<<20 {
			t.Errorf("MaxOutputBytes = %d, want 64 MiB", got)
		}
		_, err := reg.Make("e0", nil)
		if !errors.Is(err, entity.ErrTooLarge) {
			t.Fatalf("got %v, want ErrTooLarge", err)
		}
	})
	t.Run("a DAG of Go values that shares nodes", func(t *testing.T) {
		reg := entity.NewRegistry()
		reg.SetMaxOutputBytes(1 << 20)
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
		reg.SetMaxOutputBytes(1 << 20)
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
	t.Run("output at the limit passes", func(t *testing.T) {
		reg := entity.NewRegistry()
		e := expose(t, reg, "one", "s", "string", "")
		out, err := e.MakeJSON(map[string]any{"s": strings.Repeat("x", 100)})
		if err != nil {
			t.Fatal(err)
		}
		reg.SetMaxOutputBytes(int64(len(out)))
		if _, err := e.MakeJSON(map[string]any{"s": strings.Repeat("x", 100)}); err != nil {
			t.Errorf("output of exactly the limit: %v", err)
		}
	})
	t.Run("AppendJSON counts only what it appends", func(t *testing.T) {
		reg := entity.NewRegistry()
		reg.SetMaxOutputBytes(64)
		e := expose(t, reg, "item", "x", "number", "")
		dst := bytes.Repeat([]byte("-"), 1000)
		if _, err := e.AppendJSON(dst, map[string]any{"x": 1}); err != nil {
			t.Errorf("AppendJSON after 1000 bytes: %v", err)
		}
	})
	t.Run("Write answers 500", func(t *testing.T) {
		reg := entity.NewRegistry()
		doublingChain(t, reg, 30)
		reg.SetMaxOutputBytes(1 << 16)
		rec := httptest.NewRecorder()
		err := reg.Lookup("e0").Write(rec, nil)
		if !errors.Is(err, entity.ErrTooLarge) || rec.Code != http.StatusInternalServerError {
			t.Errorf("Write: %v, status %d; want ErrTooLarge and 500", err, rec.Code)
		}
		if strings.Contains(rec.Body.String(), "e0") {
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
	return expose(t, reg, "items", "items", "$item", "")
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
		reg.SetRequestOutputRatio(100)
		if got := reg.RequestOutputRatio(); got != 100 {
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
		if _, err := reg.MakeRequest("q", r); err != nil {
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

// A request's memory is proportional to its body: on the worst case the
// issue names (a 1 MiB body of empty objects against a ten-field $ref,
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
