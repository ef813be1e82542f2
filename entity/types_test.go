package entity_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
)

// Named types, to check that "Go integers", "strings" and friends are read
// by kind and not only by their predeclared types.
type (
	myInt    int
	myInt64  int64
	myUint8  uint8
	myFloat  float64
	myString string
	myBool   bool
	myKey    string
)

// tagged is a struct with json tags, for the pass-through of `none`.
type tagged struct {
	A int    `json:"a"`
	B string `json:"b,omitempty"`
	C []int  `json:"c"`
	//lint:ignore U1000 an unexported field, never read: on purpose
	d int
}

var (
	tokyo = time.FixedZone("JST", 9*60*60)
	ny    = time.FixedZone("EST", -5*60*60)
)

// TestTypeAliases declares one field with every type name the spec lists,
// in lower, upper and mixed case, and checks that each behaves as its type.
func TestTypeAliases(t *testing.T) {
	type canon struct {
		in   any
		want string
	}
	byType := map[string]canon{
		// none passes through as encoding/json writes it: keys sorted.
		"none":   {map[string]any{"b": 1, "a": []any{"x"}}, `{"a":["x"],"b":1}`},
		"string": {12, `"12"`},
		"number": {"12.7", `12`},
		"float":  {"0.5", `0.5`},
		"bool":   {"on", `true`},
		"date":   {"2020-01-02", `"2020-01-02T00:00:00Z"`},
		"list":   {[3]int{1, 2, 3}, `[1,2,3]`},
		"object": {map[string]int{"b": 2, "a": 1}, `{"a":1,"b":2}`},
	}
	aliases := []struct{ alias, typ string }{
		{"none", "none"}, {"no", "none"},
		{"string", "string"}, {"text", "string"},
		{"number", "number"}, {"num", "number"}, {"int", "number"}, {"integer", "number"}, {"long", "number"},
		{"float", "float"}, {"double", "float"},
		{"bool", "bool"}, {"boolean", "bool"}, {"flag", "bool"},
		{"date", "date"}, {"datetime", "date"}, {"timestamp", "date"},
		{"list", "list"}, {"array", "list"},
		{"object", "object"}, {"map", "object"}, {"json", "object"},
	}
	for _, a := range aliases {
		for _, spelled := range []string{a.alias, strings.ToUpper(a.alias), strings.ToUpper(a.alias[:1]) + a.alias[1:]} {
			t.Run(spelled, func(t *testing.T) {
				c := byType[a.typ]
				e := exposeOne(t, spelled, "")
				out, _ := mustMake(t, e, input(c.in))
				if want := `{"v":` + c.want + `}`; string(out) != want {
					t.Errorf("type %q: got %s, want %s", spelled, out, want)
				}
			})
		}
	}
}

// convCase is one row of a conversion table: an input value, the JSON the
// field must be written as and the Go value Object.Get must return.
type convCase struct {
	name string
	in   any
	json string // the field's JSON; "null" when the value does not convert
	val  any    // Object.Get's value; unchecked when passThrough
}

// runConv runs a conversion table on a field of type typ.
func runConv(t *testing.T, typ string, cases []convCase) {
	t.Helper()
	e := exposeOne(t, typ, "")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, obj, err := makeAll(t, e, input(c.in))
			if err != nil {
				t.Fatalf("in %#v: %v", c.in, err)
			}
			if want := `{"v":` + c.json + `}`; string(out) != want {
				t.Errorf("in %#v:\n got %s\nwant %s", c.in, out, want)
			}
			if obj == nil {
				return
			}
			got, ok := obj.Get("v")
			if !ok {
				t.Fatalf("Get(%q): key missing", "v")
			}
			if c.json == "null" && c.val != nil {
				t.Fatalf("bad case: null JSON with Go value %#v", c.val)
			}
			if diff := cmp.Diff(c.val, got); diff != "" {
				t.Errorf("in %#v: Get value (-want +got):\n%s", c.in, diff)
			}
			if tm, ok := got.(time.Time); ok && tm.Location() != time.UTC {
				t.Errorf("in %#v: Get gave a time in %v, want UTC", c.in, tm.Location())
			}
		})
	}
}

func TestConvertString(t *testing.T) {
	runConv(t, "string", []convCase{
		{"string", "abc", `"abc"`, "abc"},
		{"empty string", "", `""`, ""},
		{"unicode", "日本語", `"日本語"`, "日本語"},
		{"named string type", myString("abc"), `"abc"`, "abc"},
		{"bytes as UTF-8", []byte("héllo"), `"héllo"`, "héllo"},
		{"empty bytes", []byte{}, `""`, ""},
		{"int", 42, `"42"`, "42"},
		{"negative int", -7, `"-7"`, "-7"},
		{"int8", int8(-128), `"-128"`, "-128"},
		{"int16", int16(300), `"300"`, "300"},
		{"int32", int32(-70000), `"-70000"`, "-70000"},
		{"int64 min", int64(math.MinInt64), `"-9223372036854775808"`, "-9223372036854775808"},
		{"uint8", uint8(255), `"255"`, "255"},
		{"uint32 max", uint32(math.MaxUint32), `"4294967295"`, "4294967295"},
		{"uint64 max", uint64(math.MaxUint64), `"18446744073709551615"`, "18446744073709551615"},
		{"named int type", myInt(5), `"5"`, "5"},
		{"float 1000000", 1000000.0, `"1000000"`, "1000000"},
		{"float 0.1", 0.1, `"0.1"`, "0.1"},
		{"float 1e21", 1e21, `"1e+21"`, "1e+21"},
		{"float 1e20", 1e20, `"100000000000000000000"`, "100000000000000000000"},
		{"float 1e-7", 1e-7, `"1e-7"`, "1e-7"},
		{"float 0.000001", 0.000001, `"0.000001"`, "0.000001"},
		{"float -2.5", -2.5, `"-2.5"`, "-2.5"},
		{"float 12.0", 12.0, `"12"`, "12"},
		{"float 1.5e300", 1.5e300, `"1.5e+300"`, "1.5e+300"},
		{"float32 0.1", float32(0.1), `"0.1"`, "0.1"},
		{"json.Number int", json.Number("12"), `"12"`, "12"},
		{"json.Number float", json.Number("1.5"), `"1.5"`, "1.5"},
		{"json.Number beyond int64", json.Number("12345678901234567890"), `"12345678901234567890"`, "12345678901234567890"},
		{"true", true, `"true"`, "true"},
		{"false", false, `"false"`, "false"},
		{"time UTC", time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC), `"2020-01-02T03:04:05Z"`, "2020-01-02T03:04:05Z"},
		{"time in another zone", time.Date(2020, 1, 2, 9, 4, 5, 0, tokyo), `"2020-01-02T00:04:05Z"`, "2020-01-02T00:04:05Z"},
		{"time with nanoseconds", time.Date(2020, 1, 2, 3, 4, 5, 120000000, time.UTC), `"2020-01-02T03:04:05.12Z"`, "2020-01-02T03:04:05.12Z"},
		{"map is null", map[string]any{"a": 1}, `null`, nil},
		{"map[string]string is null", map[string]string{"a": "b"}, `null`, nil},
		{"list is null", []any{"a"}, `null`, nil},
		{"[]string is null", []string{"a"}, `null`, nil},
		{"struct is null", tagged{A: 1}, `null`, nil},
		{"nil", nil, `null`, nil},
	})
}

func TestConvertNumber(t *testing.T) {
	runConv(t, "number", []convCase{
		{"int", 42, `42`, int64(42)},
		{"zero", 0, `0`, int64(0)},
		{"int8", int8(-8), `-8`, int64(-8)},
		{"int16", int16(-300), `-300`, int64(-300)},
		{"int32", int32(70000), `70000`, int64(70000)},
		{"int64 max", int64(math.MaxInt64), `9223372036854775807`, int64(math.MaxInt64)},
		{"int64 min", int64(math.MinInt64), `-9223372036854775808`, int64(math.MinInt64)},
		{"uint", uint(5), `5`, int64(5)},
		{"uint8", uint8(255), `255`, int64(255)},
		{"uint16", uint16(65535), `65535`, int64(65535)},
		{"uint32 max", uint32(math.MaxUint32), `4294967295`, int64(math.MaxUint32)},
		{"uint64 fits", uint64(math.MaxInt64), `9223372036854775807`, int64(math.MaxInt64)},
		{"uint64 overflow", uint64(math.MaxInt64) + 1, `null`, nil},
		{"uint64 max", uint64(math.MaxUint64), `null`, nil},
		{"uint max", uint(math.MaxUint), `null`, nil},
		{"named int type", myInt(5), `5`, int64(5)},
		{"named int64 type", myInt64(-5), `-5`, int64(-5)},
		{"named uint8 type", myUint8(9), `9`, int64(9)},
		{"float 12.7 truncated", 12.7, `12`, int64(12)},
		{"float -3.9 truncated", -3.9, `-3`, int64(-3)},
		{"float -0.5 truncated", -0.5, `0`, int64(0)},
		{"float whole", 1e15, `1000000000000000`, int64(1e15)},
		{"float32", float32(12.7), `12`, int64(12)},
		{"named float type", myFloat(2.5), `2`, int64(2)},
		{"float above int64", 1e19, `null`, nil},
		{"float below int64", -1e19, `null`, nil},
		{"float 2^63", 9223372036854775808.0, `null`, nil},
		{"float -2^63", -9223372036854775808.0, `-9223372036854775808`, int64(math.MinInt64)},
		{"NaN", math.NaN(), `null`, nil},
		{"+Inf", math.Inf(1), `null`, nil},
		{"-Inf", math.Inf(-1), `null`, nil},
		{"string int", "42", `42`, int64(42)},
		{"string 007", "007", `7`, int64(7)},
		{"string -3.9", "-3.9", `-3`, int64(-3)},
		{"string 12.7", "12.7", `12`, int64(12)},
		{"string -0", "-0", `0`, int64(0)},
		{"string int64 max", "9223372036854775807", `9223372036854775807`, int64(math.MaxInt64)},
		{"string int64 min", "-9223372036854775808", `-9223372036854775808`, int64(math.MinInt64)},
		{"string above int64", "9223372036854775808", `null`, nil},
		{"string 1.2.3", "1.2.3", `null`, nil},
		{"string dot", ".", `null`, nil},
		{"string abc", "abc", `null`, nil},
		{"string empty", "", `null`, nil},
		{"string minus", "-", `null`, nil},
		{"string exponent", "1e3", `null`, nil},
		{"string plus", "+5", `null`, nil},
		{"string space", " 5", `null`, nil},
		{"string trailing dot", "5.", `null`, nil},
		{"string leading dot", ".5", `null`, nil},
		{"string hex", "0x10", `null`, nil},
		{"named string type", myString("12"), `12`, int64(12)},
		{"bytes", []byte("12"), `12`, int64(12)},
		{"json.Number int", json.Number("42"), `42`, int64(42)},
		{"json.Number fraction", json.Number("12.7"), `12`, int64(12)},
		{"json.Number exponent", json.Number("-1e2"), `-100`, int64(-100)},
		{"json.Number too big", json.Number("1e30"), `null`, nil},
		{"true", true, `null`, nil},
		{"false", false, `null`, nil},
		{"list", []any{1}, `null`, nil},
		{"object", map[string]any{"a": 1}, `null`, nil},
		{"time", time.Unix(0, 0), `null`, nil},
		{"struct", tagged{}, `null`, nil},
		{"nil", nil, `null`, nil},
	})
}

func TestConvertFloat(t *testing.T) {
	cases := []convCase{
		{"0.1", 0.1, `0.1`, 0.1},
		{"1000000", 1000000.0, `1000000`, 1000000.0},
		{"1e21", 1e21, `1e+21`, 1e21},
		{"1e20", 1e20, `100000000000000000000`, 1e20},
		{"1e-7", 1e-7, `1e-7`, 1e-7},
		{"0.000001", 0.000001, `0.000001`, 0.000001},
		{"negative", -2.5, `-2.5`, -2.5},
		{"negative tiny", -1.5e-9, `-1.5e-9`, -1.5e-9},
		{"zero", 0.0, `0`, 0.0},
		{"int", 3, `3`, 3.0},
		{"int64 max", int64(math.MaxInt64), marshalOrPanic(float64(math.MaxInt64)), float64(math.MaxInt64)},
		{"uint8", uint8(7), `7`, 7.0},
		{"float32 0.1", float32(0.1), `0.1`, 0.1},
		{"named float type", myFloat(2.5), `2.5`, 2.5},
		{"named int type", myInt(2), `2`, 2.0},
		{"string", "0.5", `0.5`, 0.5},
		{"string int", "-3", `-3`, -3.0},
		{"string 007", "007", `7`, 7.0},
		{"string 0.10", "0.10", `0.1`, 0.1},
		{"string abc", "abc", `null`, nil},
		{"string 1.2.3", "1.2.3", `null`, nil},
		{"string dot", ".", `null`, nil},
		{"string empty", "", `null`, nil},
		{"bytes", []byte("1.25"), `1.25`, 1.25},
		{"json.Number", json.Number("2.5"), `2.5`, 2.5},
		{"NaN", math.NaN(), `null`, nil},
		{"+Inf", math.Inf(1), `null`, nil},
		{"-Inf", math.Inf(-1), `null`, nil},
		{"true", true, `null`, nil},
		{"false", false, `null`, nil},
		{"list", []any{1.5}, `null`, nil},
		{"object", map[string]any{"a": 1.5}, `null`, nil},
		{"nil", nil, `null`, nil},
	}
	runConv(t, "float", cases)

	// "written like encoding/json": every finite float64 input is written
	// as json.Marshal writes it.
	e := exposeOne(t, "float", "")
	for _, f := range []float64{0.1, 1e21, 1e-7, 123456789.125, 5e-324, math.MaxFloat64, math.Copysign(0, -1), 1 << 53, 0.3333333333333333, 1e6, 999999999999999999999.0} {
		out, _ := mustMake(t, e, input(f))
		if want := `{"v":` + marshal(t, f) + `}`; string(out) != want {
			t.Errorf("float %v: got %s, want %s (json.Marshal)", f, out, want)
		}
	}
	for _, f := range []float32{0.1, 1e21, 1e-7, 3.4028235e38, 16777216, 1.1} {
		out, _ := mustMake(t, e, input(f))
		if want := `{"v":` + marshal(t, f) + `}`; string(out) != want {
			t.Errorf("float32 %v: got %s, want %s (json.Marshal)", f, out, want)
		}
	}
}

func marshalOrPanic(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestConvertBool(t *testing.T) {
	runConv(t, "bool", []convCase{
		{"true", true, `true`, true},
		{"false", false, `false`, false},
		{"named bool type", myBool(true), `true`, true},
		{"int 1", 1, `true`, true},
		{"int 0", 0, `false`, false},
		{"int64 1", int64(1), `true`, true},
		{"uint8 0", uint8(0), `false`, false},
		{"float 1", 1.0, `true`, true},
		{"float 0", 0.0, `false`, false},
		{"json.Number 1", json.Number("1"), `true`, true},
		{"int 2", 2, `null`, nil},
		{"int -1", -1, `null`, nil},
		{"float 0.5", 0.5, `null`, nil},
		{"NaN", math.NaN(), `null`, nil},
		{"string true", "true", `true`, true},
		{"string false", "false", `false`, false},
		{"string on", "on", `true`, true},
		{"string off", "off", `false`, false},
		{"string 1", "1", `true`, true},
		{"string 0", "0", `false`, false},
		{"string OFF", "OFF", `false`, false},
		{"string On", "On", `true`, true},
		{"string True", "True", `true`, true},
		{"string TRUE", "TRUE", `true`, true},
		{"string fAlSe", "fAlSe", `false`, false},
		{"bytes true", []byte("true"), `true`, true},
		{"string yes", "yes", `null`, nil},
		{"string 2", "2", `null`, nil},
		{"string empty", "", `null`, nil},
		{"string with space", " true", `null`, nil},
		{"list", []any{true}, `null`, nil},
		{"object", map[string]any{"a": true}, `null`, nil},
		{"time", time.Unix(1, 0), `null`, nil},
		{"nil", nil, `null`, nil},
	})
}

func TestConvertDate(t *testing.T) {
	d := func(y int, m time.Month, day, h, min, s, ns int) time.Time {
		return time.Date(y, m, day, h, min, s, ns, time.UTC)
	}
	t20 := d(2020, 1, 2, 3, 4, 5, 0)
	runConv(t, "date", []convCase{
		{"time UTC", t20, `"2020-01-02T03:04:05Z"`, t20},
		{"time in Tokyo", time.Date(2020, 1, 2, 12, 4, 5, 0, tokyo), `"2020-01-02T03:04:05Z"`, t20},
		{"time in New York", time.Date(2020, 1, 1, 22, 4, 5, 0, ny), `"2020-01-02T03:04:05Z"`, t20},
		{"time in Local", t20.Local(), `"2020-01-02T03:04:05Z"`, t20},
		{"time with nanoseconds", d(2020, 1, 2, 3, 4, 5, 123456789), `"2020-01-02T03:04:05.123456789Z"`, d(2020, 1, 2, 3, 4, 5, 123456789)},
		{"time with milliseconds", d(2020, 1, 2, 3, 4, 5, 120000000), `"2020-01-02T03:04:05.12Z"`, d(2020, 1, 2, 3, 4, 5, 120000000)},
		{"RFC 3339 Z", "2020-01-02T03:04:05Z", `"2020-01-02T03:04:05Z"`, t20},
		{"RFC 3339 offset", "2020-01-02T12:04:05+09:00", `"2020-01-02T03:04:05Z"`, t20},
		{"RFC 3339 negative offset", "2020-01-01T22:04:05-05:00", `"2020-01-02T03:04:05Z"`, t20},
		{"RFC 3339 fraction", "2020-01-02T03:04:05.5Z", `"2020-01-02T03:04:05.5Z"`, d(2020, 1, 2, 3, 4, 5, 500000000)},
		{"date with dashes", "2020-01-02", `"2020-01-02T00:00:00Z"`, d(2020, 1, 2, 0, 0, 0, 0)},
		{"date with slashes", "2020/01/02", `"2020-01-02T00:00:00Z"`, d(2020, 1, 2, 0, 0, 0, 0)},
		{"date and time", "2020-01-02 03:04:05", `"2020-01-02T03:04:05Z"`, t20},
		{"leap day", "2024-02-29", `"2024-02-29T00:00:00Z"`, d(2024, 2, 29, 0, 0, 0, 0)},
		{"bytes", []byte("2020-01-02"), `"2020-01-02T00:00:00Z"`, d(2020, 1, 2, 0, 0, 0, 0)},
		{"Unix ms 0", 0, `"1970-01-01T00:00:00Z"`, d(1970, 1, 1, 0, 0, 0, 0)},
		{"Unix ms 1000", 1000, `"1970-01-01T00:00:01Z"`, d(1970, 1, 1, 0, 0, 1, 0)},
		{"Unix ms int64", int64(1577934245000), `"2020-01-02T03:04:05Z"`, t20},
		{"Unix ms with ms", int64(1577934245123), `"2020-01-02T03:04:05.123Z"`, d(2020, 1, 2, 3, 4, 5, 123000000)},
		{"Unix ms negative", -1, `"1969-12-31T23:59:59.999Z"`, d(1969, 12, 31, 23, 59, 59, 999000000)},
		{"Unix ms float", 1577934245000.0, `"2020-01-02T03:04:05Z"`, t20},
		{"Unix ms float fraction", 1.5, `"1970-01-01T00:00:00.001Z"`, d(1970, 1, 1, 0, 0, 0, 1000000)},
		{"Unix ms negative fraction truncated toward zero", -1.5, `"1969-12-31T23:59:59.999Z"`, d(1969, 12, 31, 23, 59, 59, 999000000)},
		{"Unix ms json.Number", json.Number("1000"), `"1970-01-01T00:00:01Z"`, d(1970, 1, 1, 0, 0, 1, 0)},
		{"Unix ms named int type", myInt64(1000), `"1970-01-01T00:00:01Z"`, d(1970, 1, 1, 0, 0, 1, 0)},
		{"not a calendar date", "2023-02-29", `null`, nil},
		{"month 13", "2020-13-01", `null`, nil},
		{"no zone", "2020-01-02T03:04:05", `null`, nil},
		{"day first", "02/01/2020", `null`, nil},
		{"words", "yesterday", `null`, nil},
		{"empty", "", `null`, nil},
		{"NaN", math.NaN(), `null`, nil},
		{"+Inf", math.Inf(1), `null`, nil},
		{"true", true, `null`, nil},
		{"list", []any{1}, `null`, nil},
		{"object", map[string]any{}, `null`, nil},
		{"nil", nil, `null`, nil},
	})
}

func TestConvertList(t *testing.T) {
	type pair struct{ A, B int }
	var nilInts []int
	cases := []struct {
		name string
		in   any
	}{
		{"[]any", []any{1, "a", nil, true, 1.5}},
		{"empty []any", []any{}},
		{"[]int", []int{3, 1, 2}},
		{"[]string", []string{"b", "a"}},
		{"[]float64", []float64{0.1, 1e21, 1e-7}},
		{"[3]int array", [3]int{1, 2, 3}},
		{"[0]int array", [0]int{}},
		{"[]map[string]any, keys sorted", []map[string]any{{"b": 1, "a": 2}}},
		{"nested lists", []any{[]any{1, []int{2}}, map[string]any{"z": "<&>", "a": nil}}},
		{"[]struct", []pair{{1, 2}}},
		{"nil []int", nilInts},
		{"[]time.Time", []time.Time{time.Date(2020, 1, 2, 3, 4, 5, 0, tokyo)}},
		{"[]json.Number", []json.Number{"1.50", "2"}},
	}
	e := exposeOne(t, "list", "")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, obj := mustMake(t, e, input(c.in))
			if want := `{"v":` + marshal(t, c.in) + `}`; string(out) != want {
				t.Errorf("got %s, want %s (json.Marshal)", out, want)
			}
			if obj != nil {
				// Get decodes the written JSON, as encoding/json decodes it
				// into an any (a nil slice is null).
				var want map[string]any
				if err := json.Unmarshal(out, &want); err != nil {
					t.Fatal(err)
				}
				if got, _ := obj.Get("v"); !cmp.Equal(got, want["v"]) {
					t.Errorf("Get = %#v, want the written JSON decoded %#v", got, want["v"])
				}
			}
		})
	}
	runConv(t, "list", []convCase{
		{"map is null", map[string]any{"a": 1}, `null`, nil},
		{"string is null", "abc", `null`, nil},
		{"int is null", 5, `null`, nil},
		{"bool is null", true, `null`, nil},
		{"struct is null", pair{}, `null`, nil},
		{"nil is null", nil, `null`, nil},
	})
}

func TestConvertObject(t *testing.T) {
	type pair struct{ A, B int }
	cases := []struct {
		name string
		in   any
	}{
		{"map[string]any keys sorted", map[string]any{"b": 1, "a": 2, "c": []any{"x"}}},
		{"empty map", map[string]any{}},
		{"map[string]int", map[string]int{"z": 1, "y": 2}},
		{"map[string]string", map[string]string{"b": "<b>", "a": "&"}},
		{"map with named key type", map[myKey]int{"b": 1, "a": 2}},
		{"nested maps", map[string]any{"o": map[string]any{"y": 1, "x": []any{map[string]int{"q": 1, "p": 2}}}}},
		{"map of structs", map[string]pair{"k": {1, 2}}},
		{"map of times", map[string]time.Time{"t": time.Date(2020, 1, 2, 3, 4, 5, 0, tokyo)}},
	}
	e := exposeOne(t, "object", "")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _ := mustMake(t, e, input(c.in))
			if want := `{"v":` + marshal(t, c.in) + `}`; string(out) != want {
				t.Errorf("got %s, want %s (json.Marshal)", out, want)
			}
		})
	}
	runConv(t, "object", []convCase{
		{"map with int keys is null", map[int]string{1: "a"}, `null`, nil},
		{"list is null", []any{map[string]any{}}, `null`, nil},
		{"string is null", `{"a":1}`, `null`, nil},
		{"int is null", 1, `null`, nil},
		{"struct is null", pair{1, 2}, `null`, nil},
		{"nil is null", nil, `null`, nil},
	})
}

// TestConvertNone checks that `none` passes values through with
// encoding/json's rules, byte for byte.
func TestConvertNone(t *testing.T) {
	n := 7
	var nilMap map[string]any
	var nilSlice []int
	var nilPtr *int
	cases := []struct {
		name string
		in   any
	}{
		{"string", "abc"},
		{"string to escape", "<a href=\"x\">&\u2028\x01"},
		{"int", 42},
		{"uint64 max", uint64(math.MaxUint64)},
		{"float", 0.1},
		{"float 1e21", 1e21},
		{"float 1e-7", 1e-7},
		{"float32", float32(0.1)},
		{"bool", true},
		{"bytes as base64", []byte("hello")},
		{"empty bytes", []byte{}},
		{"map keys sorted", map[string]any{"b": 1, "a": 2, "é": 3, "A": 4}},
		{"map[string]string", map[string]string{"y": "1", "x": "2"}},
		{"map with int keys", map[int]string{10: "a", 2: "b"}},
		{"nil map", nilMap},
		{"list", []any{1, "a", nil}},
		{"[]int", []int{1, 2}},
		{"nil slice", nilSlice},
		{"array", [2]bool{true, false}},
		{"struct with tags", tagged{A: 1, C: []int{2}}},
		{"pointer to struct", &tagged{A: 1, B: "b"}},
		{"pointer to int", &n},
		{"nil pointer", nilPtr},
		{"time keeps its zone", time.Date(2020, 1, 2, 3, 4, 5, 600, tokyo)},
		{"json.Number", json.Number("1.50")},
		{"json.RawMessage", json.RawMessage(`{"b": 1, "a" : [ 1 ]}`)},
		{"named string", myString("x")},
		{"named int", myInt(3)},
		{"nested", map[string]any{"l": []any{map[string]any{"z": 1, "a": []byte("x")}}, "t": true}},
	}
	e := exposeOne(t, "none", "")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _ := mustMake(t, e, input(c.in))
			if want := `{"v":` + marshal(t, c.in) + `}`; string(out) != want {
				t.Errorf("got %s, want %s (json.Marshal)", out, want)
			}
		})
	}
	t.Run("absent", func(t *testing.T) {
		out, obj := mustMake(t, e, map[string]any{})
		if string(out) != `{"v":null}` {
			t.Errorf("got %s", out)
		}
		if v, ok := obj.Get("v"); !ok || v != nil {
			t.Errorf("Get = %v, %v; want nil, true", v, ok)
		}
	})
}

// TestConvertStringInput runs conversions from a map[string]string, whose
// values are all strings.
func TestConvertStringInput(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "row",
		"s", "string", "",
		"n", "number", "",
		"f", "float", "",
		"b", "bool", "",
		"d", "date", "",
		"l", "list", "",
		"o", "object", "",
		"x", "none", "",
		"missing", "string", "",
	)
	out, obj := mustMake(t, e, map[string]string{
		"s": "<hi>", "n": "-3.9", "f": "0.10", "b": "OFF", "d": "2020/01/02",
		"l": "[1]", "o": "{}", "x": "12", "extra": "dropped",
	})
	want := `{"s":"\u003chi\u003e","n":-3,"f":0.1,"b":false,"d":"2020-01-02T00:00:00Z","l":null,"o":null,"x":"12","missing":null}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	wantMap := map[string]any{
		"s": "<hi>", "n": int64(-3), "f": 0.1, "b": false, "d": "2020-01-02T00:00:00Z",
		"l": nil, "o": nil, "x": "12", "missing": nil,
	}
	if diff := cmp.Diff(wantMap, obj.Map()); diff != "" {
		t.Errorf("Map (-want +got):\n%s", diff)
	}
}

// TestGetTypes checks the Go types Object.Get returns for each type.
func TestGetTypes(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "all",
		"s", "string", "",
		"n", "number", "",
		"f", "float", "",
		"b", "bool", "",
		"d", "date", "",
		"null", "number", "",
	)
	_, obj := mustMake(t, e, map[string]any{
		"s": 1, "n": "2", "f": 3, "b": 1, "d": time.Date(2020, 1, 2, 12, 0, 0, 0, tokyo),
	})
	checks := []struct {
		key  string
		want any
	}{
		{"s", "1"}, {"n", int64(2)}, {"f", 3.0}, {"b", true},
		{"d", time.Date(2020, 1, 2, 3, 0, 0, 0, time.UTC)}, {"null", nil},
	}
	for _, c := range checks {
		got, ok := obj.Get(c.key)
		if !ok {
			t.Errorf("Get(%q): missing", c.key)
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("Get(%q) (-want +got):\n%s", c.key, diff)
		}
	}
	if d, _ := obj.Get("d"); d.(time.Time).Location() != time.UTC {
		t.Errorf("date in %v, want UTC", d.(time.Time).Location())
	}
}
