package entity_test

import (
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/expose-go/expose/entity"
)

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
