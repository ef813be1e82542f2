package entity_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/expose-go/expose/entity"
)

// fuzzRegistry declares the entity FuzzMakeJSON makes: every type, a group,
// a recursive reference and a few rules, so that inputs both pass and fail.
func fuzzRegistry(t testing.TB) *entity.Entity {
	reg := entity.NewRegistry()
	setLimit(reg, func(l *entity.Limits) { l.Depth = 16 })
	expose(t, reg, "node",
		"a", "string", "max 20",
		"r", "$node", "",
	)
	return expose(t, reg, "fuzz",
		"s", "string", "",
		"n", "number", "range -1000 1000",
		"f", "float", "",
		"b", "bool", "default",
		"d", "date", "",
		"l", "list", "max 8",
		"o", "object", "",
		"x", "none", "",
		"g", "{", "rename group",
		"s2", "text", "email | rename mail",
		"i", "int", "num",
		"g", "}", "",
		"r", "$node", "",
	)
}

// fuzzKeys are the fuzz entity's top-level output keys in order.
var fuzzKeys = []string{"s", "n", "f", "b", "d", "l", "o", "x", "group", "r"}

// fuzzSeeds returns the JSON inputs of testdata/inputs.
func fuzzSeeds(f *testing.F) [][]byte {
	files, err := filepath.Glob(filepath.Join("testdata", "inputs", "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds in testdata/inputs: %v", err)
	}
	var seeds [][]byte
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	return seeds
}

// topKeys returns the keys of the JSON object b, in order.
func topKeys(b []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// FuzzMakeJSON makes JSON-decoded input with an entity covering every type.
// Properties: no panic; valid JSON; MakeJSON, AppendJSON and Make +
// MarshalJSON agree (see makeAll); on success the output's keys are the
// declared ones in order; on failure the error is a ValidationError.
func FuzzMakeJSON(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`[{"s":1},2,{"n":"7"}]`))
	f.Add([]byte(`{"x":[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]}`))
	e := fuzzRegistry(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			t.Skip()
		}
		// Raw JSON input: whatever it holds, the
		// entry points agree and never panic.
		if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '{' {
			makeAll(t, e, data)
		}
		var inputs []any
		var plain any
		if err := json.Unmarshal(data, &plain); err == nil {
			inputs = append(inputs, plain)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var numbers any
		if err := dec.Decode(&numbers); err == nil {
			inputs = append(inputs, numbers)
		}
		for _, v := range inputs {
			m, ok := v.(map[string]any)
			if !ok {
				// Not an object: give the value to every field.
				m = map[string]any{}
				for _, k := range []string{"s", "n", "f", "b", "d", "l", "o", "x", "s2", "i", "r"} {
					m[k] = v
				}
			}
			out, _, err := makeAll(t, e, m)
			if err != nil {
				var ve *entity.ValidationError
				if !errors.As(err, &ve) || len(ve.Fields) == 0 {
					t.Fatalf("error %v (%T) is not a ValidationError", err, err)
				}
				continue
			}
			keys, kerr := topKeys(out)
			if kerr != nil {
				t.Fatalf("decoding %s: %v", out, kerr)
			}
			if !equalStrings(keys, fuzzKeys) {
				t.Fatalf("keys %q, want %q in %s", keys, fuzzKeys, out)
			}
			// A list input is written as a JSON array.
			if l, ok := v.([]any); ok {
				arr, err := e.MakeJSON(l)
				if err == nil && (!json.Valid(arr) || len(arr) == 0 || arr[0] != '[') {
					t.Fatalf("list input gave %s", arr)
				}
			}
		}
	})
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzAppendString: a string field writes any string exactly as json.Marshal
// does, whether it comes as a string, from a map[string]string or as []byte,
// and so does a key.
func FuzzAppendString(f *testing.F) {
	for _, c := range escapeTests {
		f.Add(c.s)
	}
	e := exposeOne(f, "string", "")
	none := exposeOne(f, "none", "")
	f.Fuzz(func(t *testing.T, s string) {
		js, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"v":` + string(js) + `}`
		for _, in := range []any{map[string]any{"v": s}, map[string]string{"v": s}, map[string]any{"v": []byte(s)}} {
			out, _ := mustMake(t, e, in)
			if string(out) != want {
				t.Fatalf("MakeJSON(%q):\n got %s\nwant %s", s, out, want)
			}
		}
		out, _ := mustMake(t, none, map[string]any{"v": s})
		if string(out) != want {
			t.Fatalf("none MakeJSON(%q):\n got %s\nwant %s", s, out, want)
		}
		// As an object's key, through a pass-through value.
		m := map[string]any{s: s}
		out, _ = mustMake(t, none, map[string]any{"v": m})
		if w := `{"v":` + marshal(t, m) + `}`; string(out) != w {
			t.Fatalf("key %q:\n got %s\nwant %s", s, out, w)
		}
	})
}

// FuzzExpose compiles arbitrary declarations: Expose never panics, returns
// an entity or an error, and an entity it returns makes input without
// panicking, every entry point agreeing (see makeAll).
func FuzzExpose(f *testing.F) {
	for _, c := range declErrorTests {
		d := append(append([]string(nil), c.decl...), "", "", "", "", "", "")
		f.Add(d[0], d[1], d[2], d[3], d[4], d[5])
	}
	f.Add("id", "number", "num | rename 'number'", "name", "string", "req | default 'x' | max 3")
	f.Add("v", "none", `default {"a":[1]}`, "r", "$self", "default | req")
	f.Add("g", "{", "rename h", "x", "date", "timestamp | default 0")
	f.Fuzz(func(t *testing.T, n1, t1, r1, n2, t2, r2 string) {
		reg := entity.NewRegistry()
		setLimit(reg, func(l *entity.Limits) { l.Depth = 8 })
		expose(t, reg, "self", "a", "string", "", "self", "$self", "")
		e, err := reg.Expose("e", n1, t1, r1, n2, t2, r2)
		if err != nil {
			if e != nil {
				t.Fatalf("Expose returned an entity and %v", err)
			}
			if err.Error() == "" {
				t.Fatal("empty error text")
			}
			return
		}
		for _, v := range []any{"x", 1, 1.5, true, nil, []any{map[string]any{"a": 1}}, map[string]any{"a": "b"}} {
			makeAll(t, e, map[string]any{n1: v, n2: v})
		}
		makeAll(t, e, nil)
	})
}
