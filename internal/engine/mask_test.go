package engine

import (
	"fmt"
	"testing"
)

// TestMaskCacheBounded: an entity keeps at most maxCachedMasks selections
// compiled, whatever the specs its calls are given.
func TestMaskCacheBounded(t *testing.T) {
	env := newTestEnv()
	e := expose(t, env, "user", "name", "string", "", "age", "number", "")
	in := map[string]any{"name": "a", "age": 1}
	for i := range 3 * maxCachedMasks {
		o := Decode(false, []Option{{Kind: OptSelect, Str: fmt.Sprintf("name%*s", i, "")}})
		c := Call{Dir: Response, Top: TopObject}
		if c.Append(nil, e, in, &o); c.Failed() {
			t.Fatalf("spec %d: %v %v", i, c.Fatal, c.Failures)
		}
	}
	n := len(*e.cache.masks.m.Load())
	if n > maxCachedMasks {
		t.Errorf("%d masks cached, want at most %d", n, maxCachedMasks)
	}
}
