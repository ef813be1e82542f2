package entity_test

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestAllocs checks the spec's "allocates nothing per field on success":
// AppendJSON into a buffer with room allocates nothing, and Make allocates
// per object, not per field.
func TestAllocs(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	reg := entity.NewRegistry()
	exposeSeed(t, reg)
	users := reg.Lookup("users")
	in := seedUsers()
	buf := make([]byte, 0, 1024)
	if n := testing.AllocsPerRun(100, func() {
		var err error
		if buf, err = users.AppendJSON(buf[:0], in); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("AppendJSON of the seed into a roomy buffer: %v allocations, want 0", n)
	}
	// Exactly the room the output needs is room enough.
	for _, n := range []int{2, 100} {
		in := map[string]any{"list": usersList(n)}
		out, err := users.MakeJSON(in)
		if err != nil {
			t.Fatal(err)
		}
		exact := make([]byte, 0, len(out))
		if a := testing.AllocsPerRun(20, func() {
			if _, err := users.AppendJSON(exact[:0], in); err != nil {
				t.Fatal(err)
			}
		}); a != 0 {
			t.Errorf("AppendJSON of %d users into a buffer of exactly its size: %v allocations, want 0", n, a)
		}
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := users.MakeJSON(in); err != nil {
			t.Fatal(err)
		}
	}); n > 1 {
		t.Errorf("MakeJSON of the seed: %v allocations, want at most 1 (the result)", n)
	}

	// Make views the bytes the walker wrote: the Object and its bytes, at
	// any list length; MakeList adds the list of Objects.
	for _, n := range []int{2, 100, 1000} {
		in := map[string]any{"limit": n, "list": usersList(n)}
		if a := testing.AllocsPerRun(20, func() {
			if _, err := users.Make(in); err != nil {
				t.Fatal(err)
			}
		}); a > 2 {
			t.Errorf("Make of %d users: %v allocations, want at most 2", n, a)
		}
		if a := testing.AllocsPerRun(20, func() {
			if _, err := reg.Lookup("user").MakeList(in["list"]); err != nil {
				t.Fatal(err)
			}
		}); a > 3 {
			t.Errorf("MakeList of %d users: %v allocations, want at most 3", n, a)
		}
	}

	// Make: the same number of allocations for 1 field as for 30, of every
	// scalar type.
	allocs := func(fields int) float64 {
		var decl []string
		row := map[string]any{}
		for i := range fields {
			k := fmt.Sprint("f", i)
			typ := []string{"string", "number", "float", "bool", "date"}[i%5]
			decl = append(decl, k, typ, "")
			row[k] = []any{"text", 42, 1.5, true, "2020-01-02"}[i%5]
		}
		e := expose(t, entity.NewRegistry(), "wide", decl...)
		return testing.AllocsPerRun(100, func() {
			if _, err := e.Make(row); err != nil {
				t.Fatal(err)
			}
		})
	}
	if one, many := allocs(1), allocs(30); many > one {
		t.Errorf("Make allocates per field: %v allocations for 1 field, %v for 30", one, many)
	}
}

// headerWriter is a ResponseWriter that keeps nothing but its header map,
// reused from call to call as a server reuses nothing of its own.
type headerWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *headerWriter) Header() http.Header         { return w.h }
func (w *headerWriter) WriteHeader(status int)      { w.status = status }
func (w *headerWriter) Write(b []byte) (int, error) { w.n += len(b); return len(b), nil }

// Write allocates once of its own on success: the header values of the
// response, its own (Content-Type and Content-Length in one allocation),
// since a handler may modify them in place.
func TestWriteAllocs(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	reg := entity.NewRegistry()
	exposeSeed(t, reg)
	users := reg.Lookup("users")
	in := seedUsers()
	w := &headerWriter{h: http.Header{}}
	if n := testing.AllocsPerRun(100, func() {
		if err := users.Write(w, in); err != nil {
			t.Fatal(err)
		}
	}); n > 1 {
		t.Errorf("Write of the seed: %v allocations, want at most 1 (the response's header values)", n)
	}
	// Sizes that change still give each response its own length.
	for _, n := range []int{1, 3, 3, 2, 1} {
		list := in["list"].([]any)[:min(n, 2)]
		if n == 3 {
			list = append(list[:2:2], list[0])
		}
		w := &headerWriter{h: http.Header{}}
		if err := users.Write(w, map[string]any{"list": list}); err != nil {
			t.Fatal(err)
		}
		if got, want := w.h.Get("Content-Length"), fmt.Sprint(w.n); got != want {
			t.Errorf("%d users: Content-Length %s, body %s bytes", n, got, want)
		}
	}
}

// A long list of scalars in a $ref list (skipped) costs Make nothing per
// element beyond reading it.
func TestMakeListOfScalarsAllocates(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	reg := entity.NewRegistry()
	exposeSeed(t, reg)
	list := make([]any, 100000)
	for i := range list {
		list[i] = float64(i)
	}
	in := map[string]any{"list": list}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	o, err := reg.Lookup("users").Make(in)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := o.MarshalJSON(); string(b) != `{"offset":0,"limit":0,"list":[]}` {
		t.Fatalf("got %s", b)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("Make of 100000 scalars in a $ref list allocated %d bytes", alloc)
	}
}

// usersList returns n users of the seed's shape.
func usersList(n int) []any {
	l := make([]any, n)
	for i := range l {
		l[i] = map[string]any{"id": fmt.Sprint(i), "name": "user", "age": 30 + i%50, "mail": "u@example.com"}
	}
	return l
}

// TestAllocsLanguage checks that the language of messages costs a call
// that succeeds nothing: a Lang option, or a request's Accept-Language, is
// matched only when a field fails.
func TestAllocsLanguage(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	e := exposeOne(t, "string", "req | min 2")
	in := map[string]any{"v": "abc"}
	buf := make([]byte, 0, 256)
	if n := testing.AllocsPerRun(100, func() {
		var err error
		if buf, err = e.AppendJSON(buf[:0], in, entity.Lang("ja")); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("AppendJSON with Lang(ja): %v allocations, want 0", n)
	}
	plain, _ := http.NewRequest("GET", "/?v=abc", nil)
	withLang, _ := http.NewRequest("GET", "/?v=abc", nil)
	withLang.Header.Set("Accept-Language", "ja-JP, en;q=0.5")
	count := func(r *http.Request) float64 {
		return testing.AllocsPerRun(100, func() {
			if _, err := e.MakeRequest(r); err != nil {
				t.Fatal(err)
			}
		})
	}
	if a, b := count(plain), count(withLang); a != b {
		t.Errorf("MakeRequest: %v allocations without Accept-Language, %v with it", a, b)
	}
}

// TestAllocsShape checks that shaping costs a call nothing it need not:
// building a Select option, looking up a spec already seen, flags and a
// version allocate nothing, and an entity with lazy or conditional
// fields writes without allocating. (With, Only and Except hold the slice
// of their variadic arguments, which Go allocates when it cannot prove
// that it stays on the stack: such options are built once, as a handler
// would keep them in a variable, or come from the context.)
func TestAllocsShape(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	reg := shapeRegistry(t)
	users := reg.Lookup("users")
	in := shapeInput()
	buf := make([]byte, 0, 4096)
	spec := "offset,list(name,details(mail),friends(name))"
	admin, staff, noOffset := entity.With("admin"), entity.With("staff", "admin"), entity.Except("offset")
	ctx := entity.NewContext(context.Background(), "admin")
	for _, tt := range []struct {
		name string
		call func() error
	}{
		{"no options", func() (err error) { buf, err = users.AppendJSON(buf[:0], in); return err }},
		{"Select of a spec already seen", func() (err error) {
			buf, err = users.AppendJSON(buf[:0], in, entity.Select(spec))
			return err
		}},
		{"With and Version", func() (err error) {
			buf, err = users.AppendJSON(buf[:0], in, admin, entity.Version("v2.1"))
			return err
		}},
		{"Select, Except, With and Version", func() (err error) {
			buf, err = users.AppendJSON(buf[:0], in, entity.Select(spec), noOffset, staff, entity.Version("v1"))
			return err
		}},
		{"WithContext", func() (err error) {
			buf, err = users.AppendJSON(buf[:0], in, entity.WithContext(ctx))
			return err
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); err != nil { // the first call compiles and caches
				t.Fatal(err)
			}
			if n := testing.AllocsPerRun(100, func() {
				if err := tt.call(); err != nil {
					t.Fatal(err)
				}
			}); n != 0 {
				t.Errorf("%v allocations, want 0", n)
			}
		})
	}
}

// TestStructAllocs: AppendJSON of struct input into a buffer with room
// allocates nothing, as from maps: fields are read at their offsets (no
// boxing of scalars), a struct's list field is walked at its address, and
// a list of structs or of pointers to them is read element by element
// without a copy, by value or by pointer, with rules or without.
func TestStructAllocs(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	reg := entity.NewRegistry()
	exposeSeed(t, reg)
	users := reg.Lookup("users")
	row := expose(t, reg, "row", "id", "number", "", "name", "string", "req", "mail", "string", "req | email", "age", "number", "range 0 150")
	type seedUser struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		Age  int    `json:"age"`
		Mail string `json:"mail"`
	}
	type seedUsersT struct {
		Limit int        `json:"limit"`
		List  []seedUser `json:"list"`
	}
	type rowT struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
		Mail string `json:"mail"`
		Age  uint8  `json:"age"`
	}
	seed := &seedUsersT{Limit: 2, List: []seedUser{{"12", "maachang", 40, "maachang@maachang.com"}, {"21", "saito", 27, "saito@maachang.com"}}}
	rows := make([]rowT, 50)
	ptrs := make([]*rowT, 50)
	for i := range rows {
		rows[i] = rowT{ID: int64(i), Name: "n", Mail: "a@b.co", Age: uint8(i)}
		ptrs[i] = &rows[i]
	}
	ptrs[7] = nil
	var seedIn, seedByValue, rowsIn, ptrsIn any = seed, *seed, rows, ptrs
	buf := make([]byte, 0, 16<<10)
	for _, tt := range []struct {
		name string
		e    *entity.Entity
		in   any
	}{
		{"the seed from a pointer to a struct", users, seedIn},
		{"the seed from a struct", users, seedByValue},
		{"a slice of structs, with rules", row, rowsIn},
		{"a slice of pointers to structs, with rules", row, ptrsIn},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.e.AppendJSON(buf[:0], tt.in); err != nil { // the first call compiles the plans
				t.Fatal(err)
			}
			if n := testing.AllocsPerRun(100, func() {
				var err error
				if buf, err = tt.e.AppendJSON(buf[:0], tt.in); err != nil {
					t.Fatal(err)
				}
			}); n != 0 {
				t.Errorf("%v allocations, want 0", n)
			}
		})
	}
}
