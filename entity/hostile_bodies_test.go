package entity_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
)

// hostileEntity combines the features under attack: writeonly members in
// groups, references, lists and merges; cross rules; formats; flags and
// versions; sources.
func hostileEntity(t testing.TB) *entity.Entity {
	reg := entity.NewRegistry(entity.KeyCase(entity.CamelCase))
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	expose(t, reg, "cred", "login", "string", "required_without 'pw'", "pw", "string", "writeonly | secret", "at", "date", "format unix")
	expose(t, reg, "mg", "mk", "string", "excluded_with 'mpw'", "mpw", "string", "writeonly")
	expose(t, reg, "node", "v", "string", "", "pw", "string", "writeonly", "kids", "[]$node", "omitempty")
	return expose(t, reg, "hostile",
		"name", "string", "required_if 'kind' 'ship'",
		"kind", "string", "in ship pickup | default 'pickup'",
		"pw", "string", "writeonly | req | min 1",
		"g", "{", "", "pin", "string", "writeonly", "city", "string", "required_with 'zip'", "zip", "string", "omitempty", "g", "}", "",
		"wg", "{", "writeonly", "x", "string", "", "wg", "}", "",
		"cred", "$cred", "",
		"creds", "[]$cred", "",
		"mm", "$mg", "merge",
		"root", "$node", "",
		"seen", "[]date", "each 'format unixms'",
		"k", "string", "until 'v2'",
		"k", "number", "since 'v2'",
		"adm", "string", "if 'admin' | writeonly",
		"q", "string", "query | omitnil",
	)
}

// hostileValue builds a random JSON value of at most depth levels, biased
// to the entity's own keys.
func hostileValue(r *rand.Rand, depth int) any {
	keys := []string{"name", "kind", "pw", "g", "pin", "city", "zip", "wg", "x", "cred", "creds", "login", "at", "mk", "mpw",
		"mm", "root", "v", "kids", "seen", "k", "adm", "q", "", "\u2028", "\xff", "a\"b", "__proto__"}
	switch n := r.IntN(10); {
	case depth <= 0 || n < 3:
		switch r.IntN(8) {
		case 0:
			return nil
		case 1:
			return r.IntN(3) == 0
		case 2:
			return r.Float64() * 1e20
		case 3:
			return int64(r.Uint64())
		case 4:
			return "rnd"
		case 5:
			return "2020-01-01"
		case 6:
			return json.Number("1e400")
		default:
			return strings.Repeat("é", r.IntN(5))
		}
	case n < 6:
		l := make([]any, r.IntN(4))
		for i := range l {
			l[i] = hostileValue(r, depth-1)
		}
		return l
	default:
		m := map[string]any{}
		for range r.IntN(6) {
			m[keys[r.IntN(len(keys))]] = hostileValue(r, depth-1)
		}
		return m
	}
}

// TestBodiesNeitherPanicNorLeak: random bodies (valid JSON of every
// shape, truncated and deeply nested ones) given to MakeRequest, Patch,
// Make and MakeJSON under flags, versions, selections and DenyUnknown
// neither panic nor hang, and whatever a response writes is valid JSON
// holding no writeonly value.
func TestBodiesNeitherPanicNorLeak(t *testing.T) {
	e := hostileEntity(t)
	wrap := expose(t, e.Registry(), "wrap", "o", "none", "", "h", "$hostile", "")
	optSets := [][]entity.Option{
		nil,
		{entity.With("admin")},
		{entity.Version("v1")},
		{entity.Version("v3"), entity.DenyUnknown()},
		{entity.Select("name,g/city,cred,mk,root(v,kids)")},
		{entity.Lax(), entity.With("admin"), entity.Except("creds")},
	}
	r := rand.New(rand.NewPCG(7, 11))
	var bodies []string
	for range 300 {
		v := hostileValue(r, 6)
		if m, ok := v.(map[string]any); ok { // the writeonly values, and only they, are woSecret
			m["pw"] = woSecret
			if r.IntN(2) == 0 {
				m["mpw"], m["adm"], m["wg"] = woSecret, woSecret, map[string]any{"x": woSecret}
			}
			if r.IntN(2) == 0 {
				m["cred"] = map[string]any{"pw": woSecret, "login": "l"}
				m["root"] = map[string]any{"pw": woSecret, "kids": []any{map[string]any{"pw": woSecret}}}
			}
		}
		b, err := json.Marshal(v)
		if err != nil {
			continue
		}
		bodies = append(bodies, string(b))
		if len(b) > 2 {
			bodies = append(bodies, string(b[:r.IntN(len(b))]))
		}
	}
	deep := func(open, close string, n int) string { return strings.Repeat(open, n) + strings.Repeat(close, n) }
	bodies = append(bodies,
		`{"root":`+deep(`{"kids":[`, `]}`, 3000)+`}`,
		`{"g":`+deep(`{"g":`, `}`, 5000)+`}`,
		`{"creds":[`+strings.Repeat(`{"pw":"hunter2","login":"l"},`, 20000)+`{}]}`,
		`{"seen":[`+strings.Repeat(`1577836800123,`, 50000)+`0]}`,
		`{"wg":`+deep(`[`, `]`, 10000)+`}`,
		`{"pw":"hunter2","mm":{"mk":"a"},"mk":"a","mpw":"hunter2","k":"1","adm":"hunter2"}`,
	)
	deadline := time.Now().Add(60 * time.Second)
	made := 0
	defer func() { t.Logf("%d requests made", made) }()
	for i, body := range bodies {
		if time.Now().After(deadline) {
			t.Logf("stopped after %d bodies", i)
			break
		}
		for j, opts := range optSets {
			what := fmt.Sprintf("body %d (%.60q…) opts %d", i, body, j)
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("%s: panic %v", what, p)
					}
				}()
				o, err := e.MakeRequest(bindRequest("POST", "/?q=1", body), opts...)
				if err == nil {
					made++
					woCheckOut(t, what+" MakeRequest", []byte(o.String()), nil)
					if out, err := wrap.MakeJSON(map[string]any{"o": o, "h": o}, opts...); err == nil {
						woCheckOut(t, what+" wrap", out, nil)
					}
				}
				p, _, err := e.Patch(patchRequest(body), map[string]any{"pw": "hunter2", "name": "n"}, opts...)
				if err == nil {
					woCheckOut(t, what+" Patch", []byte(p.String()), nil)
				}
				if out, err := e.MakeJSON([]byte(body), opts...); err == nil && !json.Valid(out) {
					t.Errorf("%s: MakeJSON wrote invalid JSON %s", what, out)
				}
			}()
		}
	}
}
