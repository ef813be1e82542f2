package engine

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
)

// containerOrdinals returns the ordinal on the tape of valid JSON text of
// each of its objects and arrays, and the number of tape entries: each
// string literal takes one, each container two, in the order they begin
// (package jsontape's doc).
func containerOrdinals(text string) (ords map[int32]byte, entries int32) {
	ords = map[int32]byte{}
	for i := 0; i < len(text); {
		switch c := text[i]; c {
		case '"':
			end, _ := jsonwire.StringEnd(text, i)
			entries++
			i = end
		case '{', '[':
			ords[entries] = c
			entries += 2
			i++
		default:
			i++
		}
	}
	return ords, entries
}

// TestMergerCountsTheMergedTape: the merger counts, as it writes the
// merged text, the entries its tape will have (merger.ord), so that the
// objects and lists it marks to be read as MakeRequest reads them are
// found by their ordinals there: for patches of every shape (repeated
// keys, nulls, escapes, nested objects and lists, readonly, writeonly and
// unknown keys), the count is the tape's, and each mark is an object's
// or a list's ordinal.
func TestMergerCountsTheMergedTape(t *testing.T) {
	env := newTestEnv()
	expose(t, env, "line", "sku", "string", "", "pw", "string", "writeonly | req", "id", "number", "readonly")
	expose(t, env, "audit", "by", "string", "", "meta", "{", "", "at", "string", "", "meta", "}", "")
	e := expose(t, env, "order",
		"id", "number", "path",
		"name", "string", "",
		"n\u00e9", "string", "",
		"g", "{", "",
		"a", "string", "",
		"ro", "string", "readonly",
		"h", "{", "",
		"b", "none", "",
		"h", "}", "",
		"g", "}", "",
		"w", "{", "writeonly",
		"c", "string", "",
		"w", "}", "",
		"lines", "[]$line", "",
		"lead", "$line", "",
		"au", "$audit", "merge",
		"meta2", "none", "",
		"tags", "[]string", "",
	)
	keys := []string{"id", "name", `n\u00e9`, "né", "g", "a", "ro", "h", "b", "w", "c", "lines", "lead", "by", "meta", "at", "meta2", "tags", "sku", "pw", "zz", `q\"uote`}
	rng := rand.New(rand.NewPCG(7, 26))
	var value, object func(depth int) string
	value = func(depth int) string {
		switch k := rng.IntN(10); {
		case k == 0:
			return "null"
		case k == 1:
			return strconv.Itoa(rng.IntN(100))
		case k == 2:
			return `"s\u00e9\n` + strings.Repeat("x", rng.IntN(3)) + `"`
		case k == 3:
			return "true"
		case k <= 6 && depth > 0:
			return object(depth - 1)
		case k <= 8 && depth > 0:
			var els []string
			for range rng.IntN(4) {
				els = append(els, value(depth-1))
			}
			return "[" + strings.Join(els, " , ") + "]"
		}
		return `"v"`
	}
	object = func(depth int) string {
		var ms []string
		for range rng.IntN(6) {
			ms = append(ms, `"`+keys[rng.IntN(len(keys))]+`" : `+value(depth))
		}
		return "{ " + strings.Join(ms, ",") + " }"
	}
	currents := []any{
		nil,
		map[string]any{"name": "n", "a": "1", "ro": "r", "b": map[string]any{"x": 1, "y": []any{1, "2"}},
			"lines": []any{map[string]any{"sku": "s", "id": 1}}, "lead": map[string]any{"sku": "l"},
			"au": map[string]any{"by": "b", "at": "t"}, "meta2": map[string]any{"k": map[string]any{"j": 1}}, "tags": []any{"t"}},
	}
	p := e.view(dirPatch)
	marks := 0
	for i := range 3000 {
		body := object(4)
		for _, current := range currents {
			var r run
			r.start(e, topObject, dirPatch, nil)
			var c Call
			cur, ok := c.readCurrent(e, current, nil)
			if !ok {
				t.Fatal(c.Fatal, c.Failures)
			}
			text, err := r.parseJSONOf([]byte(body), true)
			if err != nil {
				t.Fatalf("case %d: %s: %v", i, body, err)
			}
			m := merger{tape: r.js.tape, curTape: cur.tape, path: r.scratchBuf(), touched: r.xbuf()}
			merged := m.object(&r, nil, cur.text, 0, text, 0, p, false, r.ent.env.lim().Depth)
			var tape []int32
			if code, _ := jsontape.Scan(string(merged), jsontape.MaxNesting, &tape); code != jsontape.OK {
				t.Fatalf("case %d: the merge of %s is no JSON: %s", i, body, merged)
			}
			ords, entries := containerOrdinals(string(merged))
			if m.ord != entries || int(entries) != len(tape) {
				t.Fatalf("case %d: merging %s into %s: counted %d entries, the tape has %d (%d): %s", i, body, cur.text, m.ord, len(tape), entries, merged)
			}
			if !slices.IsSorted(r.js.fresh) {
				t.Fatalf("case %d: marks out of order: %v", i, r.js.fresh)
			}
			marks += len(r.js.fresh)
			for _, o := range r.js.fresh {
				if _, ok := ords[o]; !ok {
					t.Fatalf("case %d: mark %d is no container's ordinal in %s", i, o, merged)
				}
			}
			cur.release()
			r.done()
		}
	}
	if marks == 0 {
		t.Error("no patch marked anything: the cases do not test the marks")
	}
}
