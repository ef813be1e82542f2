package entity_test

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestConcurrentReExpose makes the seed from many goroutines while another
// goroutine re-exposes the referenced entity, alternating between two
// declarations. Run with -race. Every output must be one of the two valid
// outputs: a make sees one entity or the other, never a mix or a torn one.
func TestConcurrentReExpose(t *testing.T) {
	reg := entity.NewRegistry()
	exposeSeed(t, reg)
	userA := []string{
		"id", "number", "num | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown'",
	}
	userB := []string{
		"name", "string", "req | rename who",
		"id", "string", "",
		"code", "string", "default 'other'",
	}
	wantA := seedJSON
	wantB := `{"offset":0,"limit":2,"list":[{"who":"maachang","id":"12","code":"other"},{"who":"saito","id":"21","code":"other"}]}`

	users := reg.Lookup("users")
	in := seedUsers()
	var stop atomic.Bool
	var seen [2]atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			decl := userA
			if i%2 == 0 {
				decl = userB
			}
			if _, err := reg.Expose("user", decl...); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	const workers, rounds = 8, 500
	var makers sync.WaitGroup
	for w := range workers {
		makers.Add(1)
		go func() {
			defer makers.Done()
			buf := make([]byte, 0, 512)
			for i := range rounds {
				var out []byte
				var err error
				switch (w + i) % 3 {
				case 0:
					out, err = reg.MakeJSON("users", in)
				case 1:
					buf, err = users.AppendJSON(buf[:0], in)
					out = buf
				case 2:
					var o *entity.Object
					if o, err = reg.Make("users", in); err == nil {
						out, err = o.MarshalJSON()
					}
				}
				if err != nil {
					t.Errorf("make: %v", err)
					return
				}
				switch string(out) {
				case wantA:
					seen[0].Add(1)
				case wantB:
					seen[1].Add(1)
				default:
					t.Errorf("torn output: %s", out)
					return
				}
			}
		}()
	}
	makers.Wait()
	stop.Store(true)
	wg.Wait()
	t.Logf("outputs: %d of A, %d of B", seen[0].Load(), seen[1].Load())
}

// TestConcurrentRegistry exposes, looks up, checks and makes distinct
// entities at once in one registry.
func TestConcurrentRegistry(t *testing.T) {
	reg := entity.NewRegistry()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := "e" + strings.Repeat("x", w)
			for i := range 100 {
				if _, err := reg.Expose(name, "v", "number", "default 1", "r", "$"+name, ""); err != nil {
					t.Error(err)
					return
				}
				out, err := reg.MakeJSON(name, map[string]any{"r": map[string]any{"v": i}})
				if err != nil {
					t.Error(err)
					return
				}
				if want := `{"v":1,"r":{"v":` + strconv.Itoa(i) + `,"r":null}}`; string(out) != want {
					t.Errorf("got %s, want %s", out, want)
					return
				}
				_ = reg.Lookup(name)
				_ = reg.Check()
			}
		}()
	}
	wg.Wait()
}
