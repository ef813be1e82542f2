package engine

import (
	"fmt"
	"testing"

	"github.com/expose-go/expose/dsl"
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
	n := cachedMasks(e)
	if n > maxCachedMasks {
		t.Errorf("%d masks cached, want at most %d", n, maxCachedMasks)
	}
}

// TestMaskCacheKeysVersionsByRange: a call's version is keyed by the range
// between the declared bounds it lies in, so that a client cycling
// versions compiles one selection per range, not one per version.
func TestMaskCacheKeysVersionsByRange(t *testing.T) {
	env := newTestEnv()
	e := expose(t, env, "user", "name", "string", "", "old", "string", "until 'v2'", "new", "string", "since 'v2'", "later", "string", "since 'v30'")
	in := map[string]any{"name": "a", "old": "o", "new": "n", "later": "l"}
	for _, tc := range []struct {
		versions []string
		want     string
	}{
		{[]string{"1", "v1", "1.5", "v1.99.3"}, `{"name":"a","old":"o"}`},
		{[]string{"2", "v2.0", "v3", "v29.9.9"}, `{"name":"a","new":"n"}`},
		{[]string{"30", "v30.1", "v999"}, `{"name":"a","new":"n","later":"l"}`},
	} {
		for _, sel := range []string{"", "name"} {
			want := tc.want
			if sel != "" {
				want = `{"name":"a"}`
			}
			before := cachedMasks(e)
			ranges := map[[2]uint64]bool{} // (bounds other tests declare split a range further)
			for _, v := range tc.versions {
				pv, _ := dsl.ParseVersion(v)
				gen, at := versionRange(pv)
				ranges[[2]uint64{gen, uint64(at)}] = true
				list := []Option{{Kind: OptVersion, Str: v}}
				if sel != "" {
					list = append(list, Option{Kind: OptSelect, Str: sel})
				}
				o := Decode(false, list)
				c := Call{Dir: Response, Top: TopObject}
				got := c.Append(nil, e, in, &o)
				if c.Failed() {
					t.Fatalf("version %s: %v %v", v, c.Fatal, c.Failures)
				}
				if string(got) != want {
					t.Errorf("version %s, Select %q: %s, want %s", v, sel, got, want)
				}
			}
			if n := cachedMasks(e) - before; n != len(ranges) || n == len(tc.versions) {
				t.Errorf("versions %v, Select %q: %d selections compiled, want %d (one per range)", tc.versions, sel, n, len(ranges))
			}
		}
	}
}

// cachedMasks returns how many selections e has compiled and kept.
func cachedMasks(e *Entity) int {
	if m := e.cache.masks.m.Load(); m != nil {
		return len(*m)
	}
	return 0
}
