package entity_test

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
)

// outputEntity declares the entity FuzzOutputValid makes: every type, a
// group and a reference, with rules that rarely fail, so that most inputs
// are written. Field names are the lower-case keys of outFields.
func outputEntity(t testing.TB) *entity.Entity {
	reg := entity.NewRegistry()
	setLimit(reg, func(l *entity.Limits) { l.Depth = 8 })
	expose(t, reg, "outchild",
		"s", "string", "",
		"f", "float", "",
		"x", "none", "",
	)
	return expose(t, reg, "out",
		"s", "string", "",
		"n", "number", "",
		"f", "float", "default 0.5",
		"b", "bool", "",
		"d", "date", "",
		"l", "list", "",
		"o", "object", "",
		"x", "none", "",
		"g", "{", "",
		"t", "text", "rename text",
		"y", "no", "max 1e300",
		"g", "}", "",
		"r", "$outchild", "",
	)
}

// outKeys are the input keys outputEntity reads.
var outKeys = []string{"s", "n", "f", "b", "d", "l", "o", "x", "t", "y", "r"}

// outFields is a struct input whose every field the entity reads holds a T.
type outFields[T any] struct {
	S T `json:"s"`
	N T `json:"n"`
	F T `json:"f"`
	B T `json:"b"`
	D T `json:"d"`
	L T `json:"l"`
	O T `json:"o"`
	X T `json:"x"`
	T T `json:"t"`
	Y T `json:"y"`
	R T `json:"r"`
}

func fill[T any](v T) outFields[T] {
	return outFields[T]{S: v, N: v, F: v, B: v, D: v, L: v, O: v, X: v, T: v, Y: v, R: v}
}

// everyKey returns a map giving v to every key the entity reads.
func everyKey(v any) map[string]any {
	m := make(map[string]any, len(outKeys))
	for _, k := range outKeys {
		m[k] = v
	}
	return m
}

// checkOutput makes in with every entry point that writes bytes and fails
// the test on any output that is not valid JSON: MakeJSON's and
// AppendJSON's on success, an Object's MarshalJSON, and Write's body
// whatever the outcome.
func checkOutput(t *testing.T, e *entity.Entity, in any, what string) {
	t.Helper()
	out, err := e.MakeJSON(in)
	if err == nil && !json.Valid(out) {
		t.Fatalf("%s: MakeJSON wrote invalid JSON: %s", what, out)
	}
	if err != nil && out != nil {
		t.Fatalf("%s: MakeJSON failed (%v) and returned %q", what, err, out)
	}
	app, aerr := e.AppendJSON([]byte("["), in)
	if aerr == nil && !json.Valid(append(app, ']')) {
		t.Fatalf("%s: AppendJSON wrote invalid JSON: %s", what, app)
	}
	if obj, merr := e.Make(in); merr == nil {
		if b, jerr := obj.MarshalJSON(); jerr != nil || !json.Valid(b) {
			t.Fatalf("%s: Object.MarshalJSON gave %s, %v", what, b, jerr)
		}
	}
	rec := httptest.NewRecorder()
	_ = e.Write(rec, in)
	if !json.Valid(rec.Body.Bytes()) {
		t.Fatalf("%s: Write (status %d) wrote invalid JSON: %s", what, rec.Code, rec.Body)
	}
}

// FuzzOutputValid: whatever the input (raw JSON bytes, a map, a struct),
// every byte the library writes is valid JSON. The fuzzer drives the raw
// bytes and the scalars that maps and structs are filled with: floats
// (NaN and ±Inf included), integers, text and times.
func FuzzOutputValid(f *testing.F) {
	nan, inf := math.NaN(), math.Inf(1)
	type seed struct {
		data   []byte
		f      float64
		g      float32
		n      int64
		s      string
		millis int64
	}
	seeds := []seed{
		{[]byte(`{"s":"a","n":1,"f":0.5,"b":true,"d":"2024-02-29","l":[1],"o":{"a":1},"x":null}`), 1.5, 0.1, 42, "Ann", 1709208000000},
		{[]byte(`{"x":-0,"n":-0.0,"f":1E400,"d":"2024-02-29t12:30:45z"}`), nan, float32(inf), -1, "-0", -62167219200001},
		{[]byte(`[{"r":{"x":[1e21,-0]}},{"s":"\ud800"}]`), inf, float32(nan), math.MaxInt64, "\xff\xfe", 253402300800000},
		{[]byte(`{"n":1e5,"y":1e301}`), -inf, float32(math.Copysign(0, -1)), math.MinInt64, "1e5", math.MinInt64},
		{[]byte(`{"t":"\u2028<&>"}`), math.Copysign(0, -1), math.MaxFloat32, 0, "9223372036854775808.5", math.MaxInt64},
		{[]byte(`not json`), 1e300, 1e-45, 1 << 53, "NaN", 0},
	}
	for _, in := range fuzzSeeds(f) {
		seeds = append(seeds, seed{in, 5e-324, 3.4e38, 7, "x", 1})
	}
	for _, s := range seeds {
		f.Add(s.data, s.f, s.g, s.n, s.s, s.millis)
	}
	e := outputEntity(f)
	f.Fuzz(func(t *testing.T, data []byte, fv float64, gv float32, n int64, s string, millis int64) {
		// Raw JSON, valid or not.
		checkOutput(t, e, data, "raw JSON")
		checkOutput(t, e, json.RawMessage(data), "json.RawMessage")

		// The raw JSON decoded into maps, with float64s and json.Numbers.
		var plain any
		if json.Unmarshal(data, &plain) == nil {
			checkOutput(t, e, plain, "decoded JSON")
			checkOutput(t, e, everyKey(plain), "decoded JSON in every field")
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var numbers any
		if dec.Decode(&numbers) == nil {
			checkOutput(t, e, numbers, "decoded JSON with numbers")
		}

		tm := time.UnixMilli(millis)
		values := []any{
			fv, gv, &fv, myFloat(fv), n, uint64(n), s, &s, []byte(s), myString(s),
			json.Number(s), tm, &tm, []any{fv, s, tm}, map[string]any{s: fv},
			[]float64{fv}, map[string]float32{s: gv}, everyKey(fv),
		}
		for _, v := range values {
			m := everyKey(v)
			checkOutput(t, e, m, "map")
			checkOutput(t, e, []any{m, v}, "list of maps")
		}

		// Structs whose fields hold each Go type.
		for _, v := range []any{
			fill(fv), fill(gv), fill(&fv), fill(myFloat(fv)), fill(n), fill(uint64(n)),
			fill(s), fill(&s), fill([]byte(s)), fill(json.Number(s)), fill(tm), fill(&tm),
			fill[any](fv), fill([]float64{fv, float64(gv)}), fill(map[string]any{s: fv}),
			&outFields[float64]{F: fv, X: fv},
		} {
			checkOutput(t, e, v, "struct")
		}
	})
}
