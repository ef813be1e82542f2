package entity_test

import (
	"bytes"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/http/httptest"
	"os"
	"os/exec"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// Hostile input: every case of hxCases is made through MakeJSON, AppendJSON,
// Make (or MakeList for a list input) and Write, and each must give its
// named outcome: the exact output bytes, or an error of a given kind with
// the given field errors. On top of that, every case asserts that no entry
// point panics and that a success is valid JSON that Object.MarshalJSON
// repeats byte for byte. These are the "tests that try" of the reliability
// issue; the limits they hold the library to are in the README's
// Guarantees.
//
// Each bug these cases found is fixed; they stay as regression tests.

// hxRegistry declares the entities of the hostile cases.
func hxRegistry(t testing.TB) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry()
	for _, d := range []rules.Def{
		{Name: "hxboom", Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(rules.Value) error { panic("hxboom checked") }), nil
		}},
		{Name: "hxboomin", Stage: rules.Input, Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(rules.Value) error { panic(errors.New("hxboomin checked")) }), nil
		}},
		{Name: "hxboomrt", Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(v rules.Value) error {
				var m map[string]int
				//lint:ignore SA5000 a runtime error on purpose: assignment to a nil map
				m[v.Str] = 1
				return nil
			}), nil
		}},
		{Name: "hxboomnil", Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(rules.Value) error { panic(nil) }), nil
		}},
	} {
		if err := reg.RegisterRule(d); err != nil {
			t.Fatal(err)
		}
	}
	for _, typ := range []string{"none", "list", "object", "string", "number", "float", "bool", "date"} {
		expose(t, reg, typ, "v", typ, "")
	}
	expose(t, reg, "reqstr", "v", "string", "req")
	expose(t, reg, "reqfloat", "v", "float", "req")
	expose(t, reg, "deffloat", "v", "float", "default 1.5")
	expose(t, reg, "rec", "a", "number", "", "r", "$rec", "")
	expose(t, reg, "recl", "r", "$recl", "")
	expose(t, reg, "boom", "v", "string", "hxboom")
	expose(t, reg, "boomin", "v", "string", "hxboomin")
	expose(t, reg, "boomrt", "v", "string", "hxboomrt")
	expose(t, reg, "boomnil", "v", "string", "hxboomnil")
	expose(t, reg, "boomnone", "v", "none", "hxboom")
	expose(t, reg, "noneregex", "v", "none", `regex '^\d+:\d+$'`)
	expose(t, reg, "node", "v", "string", "", "n", "none", "", "p", "$node", "")
	expose(t, reg, "keys",
		`q"uote`, "string", "",
		"ctl\x01\x1f\n", "string", "",
		"<a>&b", "string", "",
		"ls\u2028ps\u2029", "string", "",
		"__proto__", "none", "",
		"constructor", "none", "",
		"plain", "string", `rename '"<x>&\u2028'`,
	)
	decl := make([]string, 0, 3*1000)
	for i := range 1000 {
		decl = append(decl, fmt.Sprintf("f%03d", i), "string", "req")
	}
	expose(t, reg, "req1000", decl...)
	if err := reg.Check(); err != nil {
		t.Fatal(err)
	}
	return reg
}

// hxCase is one hostile input and its outcome.
type hxCase struct {
	name string
	ent  string     // the entity of hxRegistry that makes it
	in   func() any // built per case: some are large

	// The outcome: exactly one of out (the exact output), fails (a
	// *ValidationError whose fields are these, "path rule" each, in order)
	// or errIs (another error, matched by errors.Is, written by Write with
	// status).
	out    func() string
	fails  []string
	errIs  error
	status int

	list  bool                          // a list input: Make refuses it, MakeList makes it
	check func(t testing.TB, err error) // more checks of the error, if any
}

// Builders of inputs and outcomes.

func hxIn(v any) func() any { return func() any { return v } }

func hxV(v any) func() any { return func() any { return map[string]any{"v": v} } }

func hxOut(s string) func() string { return func() string { return s } }

// hxMarshalV is the exact output {"v":<json.Marshal(v)>}.
func hxMarshalV(v any) func() string {
	return func() string {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		return `{"v":` + string(b) + `}`
	}
}

func hxFail(path, rule string) string { return path + " " + rule }

// hxDeepList is v inside n lists.
func hxDeepList(n int, v any) any {
	for range n {
		v = []any{v}
	}
	return v
}

// hxDeepMap is v inside n maps {"r": …}.
func hxDeepMap(n int, v any) any {
	for range n {
		v = map[string]any{"r": v}
	}
	return v
}

// hxRecOut is the output of rec for n nested maps: n objects
// {"a":null,"r":{…}}.
func hxRecOut(n int) string {
	return strings.Repeat(`{"a":null,"r":`, n) + "null" + strings.Repeat("}", n)
}

// hxPath is name repeated n times, joined with dots: the path of a
// recursive reference.
func hxPath(name string, n int) string {
	return strings.TrimSuffix(strings.Repeat(name+".", n), ".")
}

// hxCycle returns a map that reaches itself through n maps: m0 → m1 → … →
// m0, each under key "r".
func hxCycle(n int) map[string]any {
	first := map[string]any{}
	m := first
	for range n - 1 {
		next := map[string]any{}
		m["r"] = next
		m = next
	}
	m["r"] = first
	return first
}

// Go values with hostile methods.

type hxPanicValuer struct{}

func (hxPanicValuer) Value() (driver.Value, error) { panic("hx valuer panicked") }

type hxErrValuer struct{}

func (hxErrValuer) Value() (driver.Value, error) { return nil, errors.New("hx valuer failed") }

type hxCycleValuer struct{}

func (hxCycleValuer) Value() (driver.Value, error) { return hxCycle(1), nil }

type hxValuerRow struct {
	V driver.Valuer `json:"v"`
}

type hxPanicValuerRow struct {
	V hxPanicValuer `json:"v"`
}

type hxPanicMarshal struct{}

func (hxPanicMarshal) MarshalJSON() ([]byte, error) { panic("hx MarshalJSON panicked") }

type hxBadMarshal struct{}

func (hxBadMarshal) MarshalJSON() ([]byte, error) { return []byte(`{"unclosed":`), nil }

type hxPanicText struct{ s string }

func (hxPanicText) MarshalText() ([]byte, error) { panic("hx MarshalText panicked") }

type hxNode struct {
	V string  `json:"v"`
	N any     `json:"n"`
	P *hxNode `json:"p"`
}

type hxNamedFloat float64

// hxCases returns the table. Expected outputs follow the README: its
// conversion table, its Guarantees, and "output strings are escaped exactly
// as encoding/json escapes them".
func hxCases() []hxCase {
	const big = 10 << 20 // 10 MB
	const mb = 1 << 20   // the other large inputs: 1 MB keeps the suite quick under -race
	depthV := []string{hxFail("v", "depth")}
	jsonV := []string{hxFail("v", "json")}
	nan, inf := math.NaN(), math.Inf(1)
	cases := []hxCase{
		// Deep nesting: 10 000 levels, into each kind of field and through a
		// recursive reference. The default limit is 64 levels of output
		// nesting, the entity's own object included, so a field's value may
		// nest 63 levels.
		{name: "list 10k deep into none", ent: "none", in: func() any { return map[string]any{"v": hxDeepList(10000, 1)} }, fails: depthV},
		{name: "list 10k deep into list", ent: "list", in: func() any { return map[string]any{"v": hxDeepList(10000, 1)} }, fails: depthV},
		{name: "list 10k deep into object is not an object", ent: "object", in: func() any { return map[string]any{"v": hxDeepList(10000, 1)} }, out: hxOut(`{"v":null}`)},
		{name: "list 10k deep into string is null", ent: "string", in: func() any { return map[string]any{"v": hxDeepList(10000, 1)} }, out: hxOut(`{"v":null}`)},
		{name: "map 10k deep into none", ent: "none", in: func() any { return map[string]any{"v": hxDeepMap(10000, 1)} }, fails: depthV},
		{name: "map 10k deep into object", ent: "object", in: func() any { return map[string]any{"v": hxDeepMap(10000, 1)} }, fails: depthV},
		{name: "map 10k deep into list is not a list", ent: "list", in: func() any { return map[string]any{"v": hxDeepMap(10000, 1)} }, out: hxOut(`{"v":null}`)},
		{name: "map 10k deep through recursive $ref", ent: "rec", in: func() any { return hxDeepMap(10000, nil) }, fails: []string{hxFail(hxPath("r", 64), "depth")}},
		{name: "list of maps 10k deep through recursive $ref list", ent: "recl",
			in: func() any {
				var v any = map[string]any{}
				for range 10000 {
					v = map[string]any{"r": []any{v}}
				}
				return v
			},
			fails: []string{hxFail(hxPath("r[0]", 32), "depth")}}, // a list and its object: two levels each
		{name: "none nested 63 lists: at the limit", ent: "none", in: func() any { return map[string]any{"v": hxDeepList(63, 1)} },
			out: func() string { return `{"v":` + strings.Repeat("[", 63) + "1" + strings.Repeat("]", 63) + `}` }},
		{name: "none nested 64 lists: one past the limit", ent: "none", in: func() any { return map[string]any{"v": hxDeepList(64, 1)} }, fails: depthV},
		{name: "$ref nested to 64 objects: at the limit", ent: "rec", in: func() any { return hxDeepMap(64, nil) }, out: func() string { return hxRecOut(64) }},
		{name: "$ref nested to 65 objects: one past the limit", ent: "rec", in: func() any { return hxDeepMap(65, nil) }, fails: []string{hxFail(hxPath("r", 64), "depth")}},
		{name: "raw JSON: list 10k deep into none", ent: "none",
			in: func() any { return []byte(`{"v":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}`) }, fails: depthV},
		{name: "raw JSON: list 64 deep into none", ent: "none",
			in: func() any { return []byte(`{"v":` + strings.Repeat("[", 64) + strings.Repeat("]", 64) + `}`) }, fails: depthV},
		{name: "raw JSON: list 63 deep into none", ent: "none",
			in:  func() any { return []byte(`{"v":` + strings.Repeat("[", 63) + strings.Repeat("]", 63) + `}`) },
			out: func() string { return `{"v":` + strings.Repeat("[", 63) + strings.Repeat("]", 63) + `}` }},
		{name: "raw JSON: object 10k deep into object", ent: "object",
			in: func() any {
				return []byte(`{"v":` + strings.Repeat(`{"a":`, 9998) + "1" + strings.Repeat("}", 9998) + `}`)
			}, fails: depthV},
		{name: "raw JSON: 10k deep through recursive $ref", ent: "rec",
			in: func() any { return []byte(strings.Repeat(`{"r":`, 9999) + "{}" + strings.Repeat("}", 9999)) }, fails: []string{hxFail(hxPath("r", 64), "depth")}},
		{name: "raw JSON: 10k deep into a string field is null", ent: "string",
			in: func() any { return []byte(`{"v":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}`) }, out: hxOut(`{"v":null}`)},
		{name: "raw JSON: deeper than encoding/json's 10000 levels", ent: "none",
			in: func() any { return []byte(`{"v":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`) }, errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: 8M unclosed brackets (no recursion, no tape of 8M entries)", ent: "none",
			in: func() any { return bytes.Repeat([]byte("["), 8_000_000) }, errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: top-level array 10k deep holds no objects", ent: "none", list: true,
			in: func() any { return []byte(strings.Repeat("[", 9999) + strings.Repeat("]", 9999)) }, out: hxOut(`[]`)},

		// Large strings (10 MB): written whole, escaped as encoding/json
		// escapes them.
		{name: "10 MB string", ent: "string", in: func() any { return map[string]any{"v": strings.Repeat("a", big)} },
			out: func() string { return `{"v":"` + strings.Repeat("a", big) + `"}` }},
		{name: "10 MB string of characters to escape", ent: "string", in: hxV(strings.Repeat("<\"\\\n\u2028\xff&é", big/16)),
			out: hxMarshalV(strings.Repeat("<\"\\\n\u2028\xff&é", big/16))},
		{name: "1 MB string into none", ent: "none", in: hxV(strings.Repeat("0123456789abcd\x00>", mb/16)), out: hxMarshalV(strings.Repeat("0123456789abcd\x00>", mb/16))},
		{name: "1 MB []byte into string", ent: "string", in: hxV(bytes.Repeat([]byte("\t\u2029"), mb/4)), out: hxMarshalV(strings.Repeat("\t\u2029", mb/4))},
		{name: "1 MB map[string]string value", ent: "string", in: func() any { return map[string]string{"v": strings.Repeat("0123456789abcde&", mb/16)} },
			out: hxMarshalV(strings.Repeat("0123456789abcde&", mb/16))},
		{name: "raw JSON: 1 MB string with escapes", ent: "string",
			in:  func() any { return []byte(`{"v":"` + strings.Repeat(`\n\u00e9\"<`, mb/12) + `"}`) },
			out: hxMarshalV(strings.Repeat("\n\u00e9\"<", mb/12))},
		{name: "1 MB key in none", ent: "none", in: func() any { return map[string]any{"v": map[string]any{strings.Repeat("k", mb): 1}} },
			out: func() string { return `{"v":{"` + strings.Repeat("k", mb) + `":1}}` }},

		// Invalid UTF-8 is replaced with U+FFFD, byte by byte, as
		// encoding/json replaces it.
		{name: "invalid byte", ent: "string", in: hxV("a\xffb"), out: hxOut(`{"v":"a\ufffdb"}`)},
		{name: "overlong encoding", ent: "string", in: hxV("\xc0\xaf"), out: hxMarshalV("\xc0\xaf")},
		{name: "UTF-8 encoded surrogate", ent: "string", in: hxV("\xed\xa0\x80"), out: hxMarshalV("\xed\xa0\x80")},
		{name: "truncated sequence at the end", ent: "string", in: hxV("x\xe2\x82"), out: hxMarshalV("x\xe2\x82")},
		{name: "invalid UTF-8 into none", ent: "none", in: hxV("\xfe\xff"), out: hxOut(`{"v":"\ufffd\ufffd"}`)},
		{name: "invalid UTF-8 inside a list", ent: "list", in: hxV([]any{"\x80"}), out: hxOut(`{"v":["\ufffd"]}`)},
		{name: "invalid UTF-8 map key into object", ent: "object", in: hxV(map[string]any{"k\xff": "v\xff"}), out: hxOut(`{"v":{"k\ufffd":"v\ufffd"}}`)},
		{name: "invalid UTF-8 in map[string]string", ent: "string", in: hxIn(map[string]string{"v": "\xff"}), out: hxOut(`{"v":"\ufffd"}`)},
		{name: "invalid UTF-8 in []byte", ent: "string", in: hxV([]byte("\xff\xfe")), out: hxOut(`{"v":"\ufffd\ufffd"}`)},
		{name: "raw JSON: invalid UTF-8 byte in a string", ent: "string", in: hxIn([]byte("{\"v\":\"a\xffb\"}")), out: hxOut("{\"v\":\"a\ufffdb\"}")}, // decoded to U+FFFD, then written as json.Marshal writes it
		{name: "raw JSON: invalid UTF-8 byte passed through none", ent: "none", in: hxIn([]byte("{\"v\":[\"\xff\"]}")), out: hxOut(`{"v":["\ufffd"]}`)},
		{name: "raw JSON: escaped lone surrogate into string", ent: "string", in: hxIn([]byte(`{"v":"\ud800"}`)), out: hxOut("{\"v\":\"\ufffd\"}")},

		// Escaping, keys included.
		{name: "U+2028 and U+2029", ent: "string", in: hxV("a\u2028b\u2029c"), out: hxOut(`{"v":"a\u2028b\u2029c"}`)},
		{name: "control characters", ent: "string", in: hxV("\x00\x01\b\f\n\r\t\x1f\x7f"), out: hxOut(`{"v":"\u0000\u0001\b\f\n\r\t\u001f` + "\x7f" + `"}`)},
		{name: "HTML characters", ent: "string", in: hxV("<script>&</script>"), out: hxOut(`{"v":"\u003cscript\u003e\u0026\u003c/script\u003e"}`)},
		{name: "keys with quotes, control characters, <>&, U+2028", ent: "none",
			in:  hxV(map[string]any{`"q"`: 1, "\x00\n": 2, "<&>": 3, "\u2028": 4, `\`: 5}),
			out: hxMarshalV(map[string]any{`"q"`: 1, "\x00\n": 2, "<&>": 3, "\u2028": 4, `\`: 5})},
		{name: "declared field names with quotes, control characters, <>&, U+2028", ent: "keys",
			in: hxIn(map[string]any{`q"uote`: "1", "ctl\x01\x1f\n": "2", "<a>&b": "3", "ls\u2028ps\u2029": "4", "__proto__": map[string]any{"polluted": true},
				"constructor": map[string]any{"prototype": map[string]any{"x": 1}}, "plain": "7"}),
			out: hxOut(`{"q\"uote":"1","ctl\u0001\u001f\n":"2","\u003ca\u003e\u0026b":"3","ls\u2028ps\u2029":"4","__proto__":{"polluted":true},` +
				`"constructor":{"prototype":{"x":1}},"\"\u003cx\u003e\u0026\\u2028":"7"}`)},
		{name: "__proto__ and constructor keys passed through", ent: "object",
			in:  hxV(map[string]any{"__proto__": map[string]any{"isAdmin": true}, "constructor": map[string]any{"prototype": map[string]any{}}}),
			out: hxOut(`{"v":{"__proto__":{"isAdmin":true},"constructor":{"prototype":{}}}}`)},
		{name: "raw JSON: __proto__ key passed through", ent: "object", in: hxIn([]byte(`{"v":{"__proto__":{"isAdmin":true}},"__proto__":1}`)),
			out: hxOut(`{"v":{"__proto__":{"isAdmin":true}}}`)},
		{name: "raw JSON: keys with escapes match declared names", ent: "keys",
			in:  hxIn([]byte(`{"q\"uote":"1","ctl\u0001\u001f\n":"2","\u003ca\u003e\u0026b":"3","ls\u2028ps\u2029":"4","plain":"7"}`)),
			out: hxOut(`{"q\"uote":"1","ctl\u0001\u001f\n":"2","\u003ca\u003e\u0026b":"3","ls\u2028ps\u2029":"4","__proto__":null,"constructor":null,"\"\u003cx\u003e\u0026\\u2028":"7"}`)},

		// NaN and ±Inf: null where the field converts (the conversion table:
		// NaN/±Inf → null), a field error of rule json where the value passes
		// through; never invalid JSON.
		{name: "NaN into float", ent: "float", in: hxV(nan), out: hxOut(`{"v":null}`)},
		{name: "+Inf into float", ent: "float", in: hxV(inf), out: hxOut(`{"v":null}`)},
		{name: "-Inf into float", ent: "float", in: hxV(math.Inf(-1)), out: hxOut(`{"v":null}`)},
		{name: "float32 NaN into float", ent: "float", in: hxV(float32(nan)), out: hxOut(`{"v":null}`)},
		{name: "named float NaN into float", ent: "float", in: hxV(hxNamedFloat(nan)), out: hxOut(`{"v":null}`)},
		{name: "NaN into number", ent: "number", in: hxV(nan), out: hxOut(`{"v":null}`)},
		{name: "+Inf into number", ent: "number", in: hxV(inf), out: hxOut(`{"v":null}`)},
		{name: "NaN into string", ent: "string", in: hxV(nan), out: hxOut(`{"v":null}`)},
		{name: "NaN into bool", ent: "bool", in: hxV(nan), out: hxOut(`{"v":null}`)},
		{name: "+Inf into date", ent: "date", in: hxV(inf), out: hxOut(`{"v":null}`)},
		{name: "NaN into a required float", ent: "reqfloat", in: hxV(nan), fails: []string{hxFail("v", "req")}},
		{name: "NaN into a float with a default", ent: "deffloat", in: hxV(nan), out: hxOut(`{"v":1.5}`)},
		{name: "NaN into none", ent: "none", in: hxV(nan), fails: jsonV},
		{name: "+Inf into none", ent: "none", in: hxV(inf), fails: jsonV},
		{name: "-Inf into none", ent: "none", in: hxV(math.Inf(-1)), fails: jsonV},
		{name: "float32 +Inf into none", ent: "none", in: hxV(float32(inf)), fails: jsonV},
		{name: "NaN inside a list", ent: "list", in: hxV([]any{1, nan}), fails: jsonV},
		{name: "+Inf inside an object", ent: "object", in: hxV(map[string]any{"x": inf}), fails: jsonV},
		{name: "json.Number NaN into none", ent: "none", in: hxV(json.Number("NaN")), fails: jsonV},
		{name: "json.Number Infinity into float", ent: "float", in: hxV(json.Number("Infinity")), out: hxOut(`{"v":null}`)},
		{name: "raw JSON: NaN is not JSON", ent: "float", in: hxIn([]byte(`{"v":NaN}`)), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: 1e400 into float overflows to null", ent: "float", in: hxIn([]byte(`{"v":1e400}`)), out: hxOut(`{"v":null}`)},
		{name: "raw JSON: 1e400 into number", ent: "number", in: hxIn([]byte(`{"v":1e400}`)), out: hxOut(`{"v":null}`)},
		{name: "raw JSON: 1e400 passed through none keeps its text", ent: "none", in: hxIn([]byte(`{"v":1e400}`)), out: hxOut(`{"v":1e400}`)},

		// Huge and tiny numbers.
		{name: "1e308 into float", ent: "float", in: hxV(1e308), out: hxOut(`{"v":1e+308}`)},
		{name: "1e308 into number is outside int64", ent: "number", in: hxV(1e308), out: hxOut(`{"v":null}`)},
		{name: "1e308 into string", ent: "string", in: hxV(1e308), out: hxOut(`{"v":"1e+308"}`)},
		{name: "MaxFloat64 into none", ent: "none", in: hxV(math.MaxFloat64), out: hxMarshalV(math.MaxFloat64)},
		{name: "5e-324 into float", ent: "float", in: hxV(5e-324), out: hxOut(`{"v":5e-324}`)},
		{name: "5e-324 into number truncates to 0", ent: "number", in: hxV(5e-324), out: hxOut(`{"v":0}`)},
		{name: "5e-324 into string", ent: "string", in: hxV(5e-324), out: hxOut(`{"v":"5e-324"}`)},
		{name: "-0.0 into float", ent: "float", in: hxV(math.Copysign(0, -1)), out: hxOut(`{"v":-0}`)},
		{name: "MaxInt64 into number", ent: "number", in: hxV(int64(math.MaxInt64)), out: hxOut(`{"v":9223372036854775807}`)},
		{name: "MinInt64 into number", ent: "number", in: hxV(int64(math.MinInt64)), out: hxOut(`{"v":-9223372036854775808}`)},
		{name: "MaxInt64 into float", ent: "float", in: hxV(int64(math.MaxInt64)), out: hxOut(`{"v":9223372036854776000}`)}, // float64(2^63), as encoding/json writes it
		{name: "MinInt64 into string", ent: "string", in: hxV(int64(math.MinInt64)), out: hxOut(`{"v":"-9223372036854775808"}`)},
		{name: "MaxUint64 into number is outside int64", ent: "number", in: hxV(uint64(math.MaxUint64)), out: hxOut(`{"v":null}`)},
		{name: "MaxUint64 into float", ent: "float", in: hxV(uint64(math.MaxUint64)), out: hxOut(`{"v":18446744073709552000}`)}, // float64(2^64)
		{name: "MaxUint64 into string", ent: "string", in: hxV(uint64(math.MaxUint64)), out: hxOut(`{"v":"18446744073709551615"}`)},
		{name: "MaxUint64 into none", ent: "none", in: hxV(uint64(math.MaxUint64)), out: hxOut(`{"v":18446744073709551615}`)},
		{name: "2^63 as a float into number is outside int64", ent: "number", in: hxV(float64(1 << 63)), out: hxOut(`{"v":null}`)},
		{name: "-2^63 as a float into number", ent: "number", in: hxV(-float64(1 << 63)), out: hxOut(`{"v":-9223372036854775808}`)},
		{name: "numeric string one past MaxInt64", ent: "number", in: hxV("9223372036854775808"), out: hxOut(`{"v":null}`)},
		{name: "numeric string MinInt64", ent: "number", in: hxV("-9223372036854775808"), out: hxOut(`{"v":-9223372036854775808}`)},
		{name: "numeric string of 1000 digits into number", ent: "number", in: hxV(strings.Repeat("9", 1000)), out: hxOut(`{"v":null}`)},
		{name: "numeric string of 1000 digits into float overflows", ent: "float", in: hxV(strings.Repeat("9", 1000)), out: hxOut(`{"v":null}`)},
		{name: "raw JSON: MaxUint64 into number", ent: "number", in: hxIn([]byte(`{"v":18446744073709551615}`)), out: hxOut(`{"v":null}`)},
		{name: "raw JSON: MinInt64 into number", ent: "number", in: hxIn([]byte(`{"v":-9223372036854775808}`)), out: hxOut(`{"v":-9223372036854775808}`)},
		{name: "raw JSON: 5e-324 into float", ent: "float", in: hxIn([]byte(`{"v":5e-324}`)), out: hxOut(`{"v":5e-324}`)},

		// Cycles: a map that contains itself (directly, or five maps down), a
		// slice that contains itself, into each kind of field and through a
		// recursive reference: a depth error, never a hang.
		{name: "map containing itself into none", ent: "none", in: func() any { return map[string]any{"v": hxCycle(1)} }, fails: depthV},
		{name: "map containing itself into object", ent: "object", in: func() any { return map[string]any{"v": hxCycle(1)} }, fails: depthV},
		{name: "map containing itself into list is not a list", ent: "list", in: func() any { return map[string]any{"v": hxCycle(1)} }, out: hxOut(`{"v":null}`)},
		{name: "map cycle of five into none", ent: "none", in: func() any { return map[string]any{"v": hxCycle(5)} }, fails: depthV},
		{name: "map cycle of five into object", ent: "object", in: func() any { return map[string]any{"v": hxCycle(5)} }, fails: depthV},
		{name: "map containing itself through $ref", ent: "rec", in: func() any { return hxCycle(1) }, fails: []string{hxFail(hxPath("r", 64), "depth")}},
		{name: "map cycle of five through $ref", ent: "rec", in: func() any { return hxCycle(5) }, fails: []string{hxFail(hxPath("r", 64), "depth")}},
		{name: "slice containing itself into none", ent: "none",
			in: func() any { s := []any{nil}; s[0] = s; return map[string]any{"v": s} }, fails: depthV},
		{name: "slice containing itself into list", ent: "list",
			in: func() any { s := []any{1, nil}; s[1] = s; return map[string]any{"v": s} }, fails: depthV},
		{name: "slice containing a map containing the slice, into none", ent: "none",
			in: func() any { s := []any{nil}; s[0] = map[string]any{"s": s}; return map[string]any{"v": s} }, fails: depthV},
		{name: "list of a map containing the list, through a $ref list", ent: "recl",
			in:    func() any { l := []any{nil}; m := map[string]any{"r": l}; l[0] = m; return m },
			fails: []string{hxFail(hxPath("r[0]", 32), "depth")}},
		{name: "map[string]string cannot cycle, map[string]any of it can", ent: "none",
			in: func() any {
				m := map[string]any{}
				m["a"] = map[string]any{"b": m, "s": map[string]string{"x": "y"}}
				return map[string]any{"v": m}
			}, fails: depthV},
		{name: "struct with a cycle through pointers into none", ent: "none",
			in: func() any { n := &hxNode{V: "x"}; n.P = n; return map[string]any{"v": n} }, fails: jsonV},
		{name: "struct with a cycle through an interface into none", ent: "node",
			in: func() any { n := &hxNode{V: "x"}; n.N = n; return n }, fails: []string{hxFail("n", "json")}},
		{name: "struct with a cycle through pointers, through $ref", ent: "node",
			in: func() any { n := &hxNode{V: "x"}; n.P = n; return n }, fails: []string{hxFail(hxPath("p", 64), "depth")}},
		{name: "struct holding a cyclic map into none", ent: "node",
			in: func() any { return &hxNode{N: hxCycle(2)} }, fails: []string{hxFail("n", "depth")}},

		// Values JSON cannot hold, inside maps.
		{name: "channel into none", ent: "none", in: hxV(make(chan int)), fails: jsonV},
		{name: "channel inside a map into none", ent: "none", in: hxV(map[string]any{"c": make(chan int)}), fails: jsonV},
		{name: "func inside a map into object", ent: "object", in: hxV(map[string]any{"f": func() {}}), fails: jsonV},
		{name: "func inside a list", ent: "list", in: hxV([]any{"ok", func() {}}), fails: jsonV},
		{name: "channel into string is null", ent: "string", in: hxV(make(chan int)), out: hxOut(`{"v":null}`)},
		{name: "complex number into none", ent: "none", in: hxV(complex(1, 2)), fails: jsonV},
		{name: "map with bool keys into none", ent: "none", in: hxV(map[bool]int{true: 1}), fails: jsonV},
		{name: "map with int keys into none", ent: "none", in: hxV(map[int]string{2: "b", 10: "a"}), out: hxOut(`{"v":{"10":"a","2":"b"}}`)},
		{name: "MarshalJSON that panics into none", ent: "none", in: hxV(hxPanicMarshal{}), fails: jsonV},
		{name: "MarshalJSON that writes invalid JSON into none", ent: "none", in: hxV(hxBadMarshal{}), fails: jsonV},
		{name: "MarshalText that panics, as a map key", ent: "none", in: hxV(map[hxPanicText]int{{"k"}: 1}), fails: jsonV},
		{name: "[]byte into none with a regex: judged as written", ent: "noneregex", in: hxV([]byte("9:30")), fails: []string{hxFail("v", "regex")}},
		{name: "channel as the input", ent: "string", in: hxIn(make(chan int)), errIs: entity.ErrUnsupportedInput, status: 500},
		{name: "func as the input", ent: "string", in: hxIn(func() {}), errIs: entity.ErrUnsupportedInput, status: 500},
		{name: "int as the input", ent: "string", in: hxIn(42), errIs: entity.ErrUnsupportedInput, status: 500},

		// Typed nils.
		{name: "nil *int into none", ent: "none", in: hxV((*int)(nil)), out: hxOut(`{"v":null}`)},
		{name: "nil *int into a required string", ent: "reqstr", in: hxV((*int)(nil)), fails: []string{hxFail("v", "req")}},
		{name: "nil error interface into none", ent: "none", in: hxV(error(nil)), out: hxOut(`{"v":null}`)},
		{name: "nil map into object", ent: "object", in: hxV(map[string]any(nil)), out: hxOut(`{"v":null}`)},
		{name: "nil slice into list", ent: "list", in: hxV([]any(nil)), out: hxOut(`{"v":null}`)},
		{name: "nil *Object into none", ent: "none", in: hxV((*entity.Object)(nil)), out: hxOut(`{"v":null}`)},
		{name: "nil pointers inside a list", ent: "list", in: hxV([]any{(*int)(nil), (*hxNode)(nil), (map[string]any)(nil)}), out: hxOut(`{"v":[null,null,null]}`)},
		{name: "nil func inside a map: encoding/json refuses func types", ent: "none", in: hxV(map[string]any{"f": (func())(nil)}), fails: jsonV},
		{name: "nil channel inside a map: encoding/json refuses chan types", ent: "none", in: hxV(map[string]any{"c": (chan int)(nil)}), fails: jsonV},
		{name: "nil *struct as the input is empty", ent: "node", in: hxIn((*hxNode)(nil)), out: hxOut(`{"v":null,"n":null,"p":null}`)},
		{name: "nil *Object as the input is empty", ent: "string", in: hxIn((*entity.Object)(nil)), out: hxOut(`{"v":null}`)},
		{name: "nil map as the input is empty", ent: "string", in: hxIn(map[string]any(nil)), out: hxOut(`{"v":null}`)},
		{name: "nil []byte as the input is empty", ent: "string", in: hxIn([]byte(nil)), out: hxOut(`{"v":null}`)},
		{name: "pointer to pointer to map as the input", ent: "string",
			in: func() any { m := map[string]any{"v": "x"}; p := &m; return &p }, out: hxOut(`{"v":"x"}`)},
		{name: "nil pointer to a struct inside a $ref", ent: "node", in: hxIn(&hxNode{P: nil}), out: hxOut(`{"v":"","n":null,"p":null}`)},

		// Duplicate keys in raw JSON: the last one wins, as in encoding/json.
		{name: "raw JSON: duplicate key, last wins", ent: "string", in: hxIn([]byte(`{"v":"first","v":"last"}`)), out: hxOut(`{"v":"last"}`)},
		{name: "raw JSON: duplicate key, last is null", ent: "reqstr", in: hxIn([]byte(`{"v":"x","v":null}`)), fails: []string{hxFail("v", "req")}},
		{name: "raw JSON: duplicate key of different types", ent: "number", in: hxIn([]byte(`{"v":[1],"v":{"a":1},"v":"7"}`)), out: hxOut(`{"v":7}`)},
		{name: "raw JSON: duplicate $ref key, last wins", ent: "rec", in: hxIn([]byte(`{"r":{"a":1},"r":{"a":2}}`)), out: hxOut(`{"a":null,"r":{"a":2,"r":null}}`)},
		{name: "raw JSON: duplicate keys inside a passed-through object are kept", ent: "object", in: hxIn([]byte(`{"v":{"a":1,"a":2}}`)), out: hxOut(`{"v":{"a":1,"a":2}}`)},

		// Truncated and malformed raw JSON: a 400, nothing written.
		{name: "raw JSON: truncated string", ent: "string", in: hxIn([]byte(`{"v":"x`)), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: truncated after a colon", ent: "string", in: hxIn([]byte(`{"v":`)), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: lone brace", ent: "string", in: hxIn([]byte(`{`)), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: truncated escape", ent: "string", in: hxIn([]byte(`{"v":"\u12`)), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: truncated deep", ent: "none", in: hxIn([]byte(`{"v":` + strings.Repeat(`[{"a":`, 500))), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: truncated list of objects", ent: "string", list: true, in: hxIn([]byte(`[{"v":1},{"v":`)), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: trailing garbage", ent: "string", in: hxIn([]byte(`{"v":1}x`)), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: two objects", ent: "string", in: hxIn([]byte(`{"v":1} {"v":2}`)), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: empty", ent: "string", in: hxIn([]byte{}), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: white space only", ent: "string", in: hxIn(json.RawMessage(" \n\t")), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: a string, not an object", ent: "string", in: hxIn([]byte(`"v"`)), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: null", ent: "string", in: hxIn([]byte(`null`)), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: byte order mark", ent: "string", in: hxIn([]byte("\xef\xbb\xbf{\"v\":1}")), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: single quotes", ent: "string", in: hxIn([]byte(`{'v':1}`)), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: trailing comma", ent: "string", in: hxIn([]byte(`{"v":1,}`)), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: raw control character in a string", ent: "string", in: hxIn([]byte("{\"v\":\"a\x01\"}")), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: list of objects and other values", ent: "string", list: true, in: hxIn([]byte(`[{"v":1},2,"x",null,[{"v":3}],{"v":"y"}]`)), out: hxOut(`[{"v":"1"},{"v":"y"}]`)},

		// User code that panics: a field error naming the rule, never a panic.
		{name: "custom rule panics in Check", ent: "boom", in: hxV("x"), fails: []string{hxFail("v", "hxboom")},
			check: hxMessageHas(`is not valid`)}, // the panic's text is for logs (PanicError), not the client
		{name: "custom input rule panics with an error", ent: "boomin", in: hxV("x"), fails: []string{hxFail("v", "hxboomin")}},
		{name: "custom rule with a runtime error", ent: "boomrt", in: hxV("x"), fails: []string{hxFail("v", "hxboomrt")}},
		{name: "custom rule panics with nil", ent: "boomnil", in: hxV("x"), fails: []string{hxFail("v", "hxboomnil")}},
		{name: "custom rule panics on none with a cyclic value", ent: "boomnone", in: func() any { return map[string]any{"v": hxCycle(1)} },
			fails: []string{hxFail("v", "hxboom"), hxFail("v", "depth")}},
		{name: "custom rule panics in every element of a list", ent: "boom", list: true,
			in: hxIn([]any{map[string]any{"v": "a"}, map[string]any{"v": "b"}}), fails: []string{hxFail("[0].v", "hxboom"), hxFail("[1].v", "hxboom")}},
		{name: "driver.Valuer that panics", ent: "string", in: hxIn(hxPanicValuerRow{}), fails: []string{hxFail("v", "value")}},
		{name: "driver.Valuer that panics, into a required field", ent: "reqstr", in: hxIn(&hxPanicValuerRow{}), fails: []string{hxFail("v", "value")}},
		{name: "driver.Valuer that fails is the field's error", ent: "string", in: hxIn(hxValuerRow{V: hxErrValuer{}}), fails: []string{hxFail("v", "value")}},
		{name: "driver.Valuer giving a cyclic map, into none", ent: "none", in: hxIn(hxValuerRow{V: hxCycleValuer{}}), fails: depthV},
		{name: "driver.Valuer in a nil interface field", ent: "string", in: hxIn(hxValuerRow{}), out: hxOut(`{"v":null}`)},

		// The error cap: 100 field errors, then one summary entry.
		{name: "1 million failing fields", ent: "reqstr", list: true,
			in: func() any {
				l := make([]map[string]any, 1_000_000)
				empty := map[string]any{}
				for i := range l {
					l[i] = empty
				}
				return l
			},
			check: hxCapped(1_000_000)},
		{name: "1000 failing fields of one object", ent: "req1000", in: hxIn(map[string]any{}), check: hxCapped(1000)},
		{name: "101 failing fields", ent: "reqstr", list: true, in: func() any { return make([]map[string]any, 101) }, check: hxCapped(101)},
		{name: "100 failing fields: no summary", ent: "reqstr", list: true, in: func() any { return make([]map[string]any, 100) }, check: hxCapped(100)},
	}
	return cases
}

// hxMessageHas checks that the first field error's message holds s.
func hxMessageHas(s string) func(testing.TB, error) {
	return func(t testing.TB, err error) {
		var ve *entity.ValidationError
		if errors.As(err, &ve) && len(ve.Fields) > 0 && !strings.Contains(ve.Fields[0].Message, s) {
			t.Errorf("message %q does not hold %s", ve.Fields[0].Message, s)
		}
	}
}

// hxCapped checks an error of n failing fields under the default cap: the
// first 100 listed, then, past the cap, one summary entry of rule "limit"
// saying how many more, in Fields, in Error() and in Write's body.
func hxCapped(n int) func(testing.TB, error) {
	return func(t testing.TB, err error) {
		var ve *entity.ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("error %v (%T) is not a *ValidationError", err, err)
			return
		}
		listed, more := min(n, 100), max(n-100, 0)
		want := listed
		if more > 0 {
			want++
		}
		if len(ve.Fields) != want {
			t.Errorf("%d Fields, want %d", len(ve.Fields), want)
			return
		}
		for _, f := range ve.Fields[:listed] {
			if f.Rule != "req" {
				t.Errorf("field %v: rule %q, want req", f, f.Rule)
			}
		}
		if ve.Omitted != more {
			t.Errorf("Omitted = %d, want %d", ve.Omitted, more)
		}
		summary := fmt.Sprintf("and %d more", more)
		if more == 0 {
			if strings.Contains(err.Error(), "more field errors") {
				t.Errorf("Error() has a summary with nothing omitted: %.200s", err)
			}
			return
		}
		last := ve.Fields[listed]
		if last.Rule != "limit" || !strings.HasPrefix(last.Message, summary) {
			t.Errorf("summary entry = %q (rule %q), want %q… (rule limit)", last.Message, last.Rule, summary)
		}
		if msg := err.Error(); !strings.Contains(msg, summary) {
			t.Errorf("Error() lacks %q: …%s", summary, msg[max(0, len(msg)-200):])
		}
		body := ve.AppendJSON(nil)
		if !json.Valid(body) || !bytes.Contains(body, []byte(summary)) {
			t.Errorf("Write's body lacks %q: …%s", summary, body[max(0, len(body)-200):])
		}
	}
}

// hxRecorder is a testing.TB that keeps the failures it is told of, for
// checks that must inspect them (Conform's messages).
type hxRecorder struct {
	testing.TB
	msgs []string
}

func (r *hxRecorder) Helper() {}
func (r *hxRecorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *hxRecorder) Error(args ...any) { r.msgs = append(r.msgs, fmt.Sprint(args...)) }

// hxSafe calls f, turning a panic into a test error.
func hxSafe(t testing.TB, what string, f func()) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s panicked: %v\n%s", what, p, debug.Stack())
		}
	}()
	f()
}

func TestHostileInputs(t *testing.T) {
	reg := hxRegistry(t)
	cases := hxCases()
	if len(cases) < 100 {
		t.Errorf("%d hostile cases, want at least 100", len(cases))
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Errorf("two cases named %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			e := reg.Lookup(c.ent)
			if e == nil {
				t.Fatalf("no entity %q", c.ent)
			}
			hxRun(t, e, c)
		})
	}
}

// hxClip shortens s for a message.
func hxClip(s string) string {
	if len(s) > 300 {
		return s[:300] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

// hxRun makes the case's input through every entry point and checks the
// outcome.
func hxRun(t testing.TB, e *entity.Entity, c hxCase) {
	t.Helper()
	in := c.in()
	var want string
	if c.out != nil {
		want = c.out()
	}

	// MakeJSON.
	var out []byte
	var err error
	hxSafe(t, "MakeJSON", func() { out, err = e.MakeJSON(in) })
	hxOutcome(t, "MakeJSON", c, want, out, err)

	// AppendJSON, onto a prefix: appends exactly MakeJSON's bytes, or
	// nothing.
	hxSafe(t, "AppendJSON", func() {
		app, aerr := e.AppendJSON([]byte(appendPrefix), in)
		if !bytes.HasPrefix(app, []byte(appendPrefix)) {
			t.Errorf("AppendJSON lost its prefix: %s", hxClip(string(app)))
			return
		}
		if aerr != nil && len(app) != len(appendPrefix) {
			t.Errorf("AppendJSON failed (%v) and appended %s", aerr, hxClip(string(app[len(appendPrefix):])))
		}
		hxOutcome(t, "AppendJSON", c, want, app[len(appendPrefix):], aerr)
	})

	// Make, or MakeList for a list; MarshalJSON repeats MakeJSON.
	hxSafe(t, "Make", func() {
		if c.list {
			if o, merr := e.Make(in); merr == nil {
				t.Errorf("Make of a list succeeded: %v", o)
			}
			objs, lerr := e.MakeList(in)
			var b []byte
			if lerr == nil {
				b = []byte{'['}
				for i, o := range objs {
					if i > 0 {
						b = append(b, ',')
					}
					ob, oerr := o.MarshalJSON()
					if oerr != nil {
						t.Errorf("MakeList: element %d: MarshalJSON: %v", i, oerr)
					}
					b = append(b, ob...)
				}
				b = append(b, ']')
			}
			hxOutcome(t, "MakeList", c, want, b, lerr)
			return
		}
		o, merr := e.Make(in)
		if merr != nil {
			if o != nil {
				t.Errorf("Make failed (%v) and returned an Object", merr)
			}
			hxOutcome(t, "Make", c, want, nil, merr)
			return
		}
		if o == nil {
			t.Errorf("Make returned neither an Object nor an error")
			return
		}
		mj, jerr := o.MarshalJSON()
		if jerr != nil {
			t.Errorf("Make succeeded but MarshalJSON failed: %v", jerr)
			return
		}
		hxOutcome(t, "Make+MarshalJSON", c, want, mj, nil)
		if want != "" && !bytes.Equal(mj, out) {
			t.Errorf("Object.MarshalJSON differs from MakeJSON:\n got %s\nwant %s", hxClip(string(mj)), hxClip(string(out)))
		}
		hxSameAsMap(t, mj, o)
	})

	// Write: the status and the body.
	hxSafe(t, "Write", func() {
		rec := httptest.NewRecorder()
		werr := e.Write(rec, in)
		hxWritten(t, c, want, rec, werr)
	})
}

// hxOutcome checks what one entry point gave against the case.
func hxOutcome(t testing.TB, what string, c hxCase, want string, out []byte, err error) {
	t.Helper()
	if want != "" {
		if err != nil {
			t.Errorf("%s: error %s, want %s", what, hxClip(err.Error()), hxClip(want))
			return
		}
		if !json.Valid(out) {
			t.Errorf("%s: invalid JSON %s", what, hxClip(string(out)))
		}
		if string(out) != want {
			t.Errorf("%s:\n got %s\nwant %s", what, hxClip(string(out)), hxClip(want))
		}
		return
	}
	if err == nil {
		t.Errorf("%s succeeded with %s, want an error", what, hxClip(string(out)))
		return
	}
	if len(out) != 0 {
		t.Errorf("%s failed (%v) and returned %s", what, err, hxClip(string(out)))
	}
	if c.errIs != nil {
		if !errors.Is(err, c.errIs) {
			t.Errorf("%s: error %v (%T), want one wrapping %v", what, err, err, c.errIs)
		}
		var ie *entity.InputError
		if c.status == 400 && (!errors.As(err, &ie) || ie.StatusCode() != 400) {
			t.Errorf("%s: error %v (%T), want an *InputError with status 400", what, err, err)
		}
		return
	}
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		t.Errorf("%s: error %v (%T), want a *ValidationError", what, hxClip(err.Error()), err)
		return
	}
	if !errors.Is(err, entity.ErrValidation) {
		t.Errorf("%s: errors.Is(err, ErrValidation) is false", what)
	}
	if c.fails != nil {
		got := hxFields(ve)
		if !reflect.DeepEqual(got, c.fails) {
			t.Errorf("%s: field errors\n got %q\nwant %q", what, hxClipList(got), hxClipList(c.fails))
		}
		for _, f := range ve.Fields {
			if f.Rule == "depth" && !errors.Is(f, entity.ErrDepth) {
				t.Errorf("%s: depth error %v does not wrap ErrDepth", what, f)
			}
		}
	}
	if c.check != nil {
		c.check(t, err)
	}
}

func hxFields(ve *entity.ValidationError) []string {
	var l []string
	for _, f := range ve.Fields {
		l = append(l, hxFail(f.Path, f.Rule))
	}
	return l
}

func hxClipList(l []string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = hxClip(s)
	}
	return out
}

// hxWritten checks Write's response against the case.
func hxWritten(t testing.TB, c hxCase, want string, rec *httptest.ResponseRecorder, err error) {
	t.Helper()
	body := rec.Body.Bytes()
	if !json.Valid(body) {
		t.Errorf("Write: invalid JSON body %s", hxClip(string(body)))
		return
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Write: Content-Type %q", ct)
	}
	if want != "" {
		if err != nil || rec.Code != 200 || string(body) != want {
			t.Errorf("Write: %d %s (error %v), want 200 %s", rec.Code, hxClip(string(body)), err, hxClip(want))
		}
		return
	}
	if err == nil {
		t.Errorf("Write succeeded (%d %s), want an error", rec.Code, hxClip(string(body)))
		return
	}
	if c.errIs != nil {
		if rec.Code != c.status {
			t.Errorf("Write: status %d, want %d (%s)", rec.Code, c.status, hxClip(string(body)))
		}
		return
	}
	if rec.Code != 400 {
		t.Errorf("Write: status %d, want 400", rec.Code)
	}
	var resp struct {
		Error  string `json:"error"`
		Entity string `json:"entity"`
		Fields []struct {
			Path, OutputPath, Rule, Message string
		} `json:"fields"`
	}
	if jerr := json.Unmarshal(body, &resp); jerr != nil {
		t.Errorf("Write: body %s: %v", hxClip(string(body)), jerr)
		return
	}
	var ve *entity.ValidationError
	if errors.As(err, &ve) && len(resp.Fields) != len(ve.Fields) {
		t.Errorf("Write: body lists %d fields, the error %d", len(resp.Fields), len(ve.Fields))
	}
	if ve != nil && ve.Omitted > 0 {
		if summary := fmt.Sprintf("and %d more", ve.Omitted); !bytes.Contains(body, []byte(summary)) {
			t.Errorf("Write: body lacks %q: …%s", summary, body[max(0, len(body)-200):])
		}
	}
	if c.fails != nil {
		var got []string
		for _, f := range resp.Fields {
			got = append(got, hxFail(f.Path, f.Rule))
		}
		if !reflect.DeepEqual(got, c.fails) {
			t.Errorf("Write: body's fields\n got %q\nwant %q", hxClipList(got), hxClipList(c.fails))
		}
	}
}

// hxSameAsMap checks that Object.Map() holds what the JSON says: the
// JSON and json.Marshal of the Map decode to the same values (see
// hxJSONEqual).
func hxSameAsMap(t testing.TB, out []byte, o *entity.Object) {
	t.Helper()
	if len(out) > 1<<20 {
		return // a 10 MB string: compared byte for byte above
	}
	mb, err := json.Marshal(o.Map())
	if err != nil {
		t.Errorf("json.Marshal(Object.Map()): %v", err)
		return
	}
	if !hxJSONEqual(out, mb) {
		t.Errorf("Object.Map() differs from the JSON:\n map %s\njson %s", hxClip(string(mb)), hxClip(string(out)))
	}
}

// hxJSONEqual reports whether two JSON texts decode to the same values, as
// encoding/json decodes them (numbers as float64, so 1.0 and 1 are one
// number, and so are 12345678901234567890 and 12345678901234567000). Where
// a number does not fit a float64 (1e400), both are compared as exact
// rationals instead.
func hxJSONEqual(a, b []byte) bool {
	var x, y any
	errA, errB := json.Unmarshal(a, &x), json.Unmarshal(b, &y)
	if errA == nil && errB == nil {
		return reflect.DeepEqual(x, y)
	}
	ra, errA := hxDecode(a)
	rb, errB := hxDecode(b)
	return errA == nil && errB == nil && reflect.DeepEqual(ra, rb)
}

// hxDecode decodes JSON with every number as the exact rational it spells.
func hxDecode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return hxNumbers(v), nil
}

// hxNumbers replaces each json.Number in v with its value as a rational's
// text ("1/1"), so that spellings of one number compare equal.
func hxNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		r, ok := new(big.Rat).SetString(string(v))
		if !ok {
			return string(v)
		}
		return "n:" + r.RatString()
	case []any:
		for i := range v {
			v[i] = hxNumbers(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = hxNumbers(v[k])
		}
	}
	return v
}

// Declarations: hostile declarations are declaration errors that name what
// is wrong, or compile; none panics.

func TestHostileDeclarations(t *testing.T) {
	cases := []struct {
		name string
		decl []string
		want string // a substring of the error; "" for success
	}{
		{"Compile panics", []string{"v", "string", "hxcboom"}, `hxcboom: panic while compiling`},
		{"Compile panics with an error", []string{"v", "string", "hxcboomerr 1"}, `hxcboomerr`},
		{"Compile returns no Checker", []string{"v", "string", "hxcnil"}, `hxcnil`},
		{"regex of 1025 bytes", []string{"v", "string", "regex '" + strings.Repeat("a", 1025) + "'"}, "limit of 1024"},
		{"regex of 1024 bytes", []string{"v", "string", "regex '" + strings.Repeat("a", 1024) + "'"}, ""},
		{"regex with nested repetition", []string{"v", "string", "regex 'a{1000}{1000}'"}, "regex"},
		{"regex repeating past RE2's limit", []string{"v", "string", "regex '(a{1000}){1000}'"}, "regex"},
		{"regex with a backreference", []string{"v", "string", `regex '(a)\1'`}, "regex"},
		{"unclosed quote", []string{"v", "string", "regex '^a"}, "quote"},
		{"10 000 rules", []string{"v", "string", strings.Repeat("min 1 | ", 9999) + "max 5"}, ""},
		{"10 000 empty rules", []string{"v", "string", strings.Repeat("|", 10000)}, "empty"},
		{"a 1 MB field name", []string{strings.Repeat("n", 1<<20), "string", ""}, ""},
		{"NUL in a field name", []string{"a\x00b", "string", ""}, ""},
		{"invalid UTF-8 in a field name", []string{"a\xffb", "string", ""}, ""},
		{"NaN default on float", []string{"v", "float", "default NaN"}, "not a valid float"},
		{"Inf default on float", []string{"v", "float", "default 1e400"}, "not a valid float"},
		{"NaN default on number", []string{"v", "number", "default NaN"}, "not a valid number"},
		{"deep JSON default on none", []string{"v", "none", "default " + strings.Repeat("[", 100) + strings.Repeat("]", 100)}, "default"},
		{"default past MaxInt64", []string{"v", "number", "default 9223372036854775808"}, "not a valid number"},
		{"range with NaN", []string{"v", "number", "range NaN 1"}, "range"},
		{"min with Inf", []string{"v", "string", "min Inf"}, "min"},
		{"min 1e400", []string{"v", "string", "min 1e400"}, "min"},
		{"10 000 unclosed groups", hxGroups(10000, false), "{"},
		{"10 000 stray closes", func() []string {
			d := []string{"v", "string", ""}
			for range 10000 {
				d = append(d, "g", "}", "")
			}
			return d
		}(), "}"},
		{"10 000 nested groups", hxGroups(10000, true), ""},
		{"rename to a quote and U+2028", []string{"v", "string", `rename '"` + "\u2028'"}, ""},
		{"a $ref named with a quote", []string{"v", `$a"b`, ""}, ""},
		{"triples not a multiple of three", []string{"v", "string"}, "not a whole triple"},
	}
	reg := entity.NewRegistry()
	for _, d := range []rules.Def{
		{Name: "hxcboom", Compile: func([]string, rules.Kind) (rules.Checker, error) { panic("hxcboom compiled") }},
		{Name: "hxcboomerr", MinArgs: 1, MaxArgs: 1, Compile: func(a []string, _ rules.Kind) (rules.Checker, error) {
			panic(fmt.Errorf("bad arg %s", a[0]))
		}},
		{Name: "hxcnil", Compile: func([]string, rules.Kind) (rules.Checker, error) { return nil, nil }},
	} {
		if err := reg.RegisterRule(d); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var e *entity.Entity
			var err error
			hxSafe(t, "Expose", func() { e, err = reg.Expose("hostile", c.decl...) })
			if c.want == "" {
				if err != nil {
					t.Fatalf("Expose: %.500v", err)
				}
				hxSafe(t, "MakeJSON", func() {
					out, merr := e.MakeJSON(map[string]any{"v": "x"})
					if merr == nil && !json.Valid(out) {
						t.Errorf("invalid JSON %s", hxClip(string(out)))
					}
				})
				return
			}
			if err == nil {
				t.Fatalf("Expose succeeded, want an error holding %q", c.want)
			}
			if e != nil {
				t.Errorf("Expose failed and returned an entity")
			}
			var l dsl.ErrorList
			if !errors.As(err, &l) || len(l) == 0 {
				t.Errorf("error %T is not a dsl.ErrorList", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %s\nwant it to hold %q", hxClip(err.Error()), c.want)
			}
		})
	}
}

// hxGroups declares n nested groups around one field, closed or not.
func hxGroups(n int, closed bool) []string {
	var d []string
	for range n {
		d = append(d, "g", "{", "")
	}
	d = append(d, "v", "string", "")
	if closed {
		for range n {
			d = append(d, "g", "}", "")
		}
	}
	return d
}

// TestHostileOptions: options out of range are taken to their bounds, and
// the tightest limits still give valid output or clear errors.
func TestHostileOptions(t *testing.T) {
	reg := entity.NewRegistry()
	for _, n := range []int{0, -1, math.MinInt} {
		reg.SetMaxDepth(n)
		reg.SetMaxErrors(n)
		reg.SetMaxBodyBytes(int64(n))
		if reg.MaxDepth() != 1 || reg.MaxErrors() != 1 || reg.MaxBodyBytes() != 0 {
			t.Errorf("after setting %d: MaxDepth %d, MaxErrors %d, MaxBodyBytes %d; want 1, 1, 0",
				n, reg.MaxDepth(), reg.MaxErrors(), reg.MaxBodyBytes())
		}
	}
	reg.SetMaxDepth(math.MaxInt)
	if reg.MaxDepth() != 10000 {
		t.Errorf("MaxDepth %d after SetMaxDepth(MaxInt), want the cap 10000", reg.MaxDepth())
	}
	// A raised limit: 9000 levels through a $ref are written (encoding/json
	// reads at most 10000).
	reg.SetMaxDepth(9001)
	e := expose(t, reg, "rec", "a", "number", "", "r", "$rec", "")
	hxSafe(t, "MakeJSON", func() {
		out, err := e.MakeJSON(hxDeepMap(9000, nil))
		if err != nil || !json.Valid(out) {
			t.Errorf("9000 levels with a limit of 9001: %.200v", err)
		}
	})
	reg.SetMaxDepth(1)
	reg.SetMaxErrors(1)
	one := expose(t, reg, "one", "a", "string", "req", "b", "string", "req", "g", "{", "", "c", "string", "", "g", "}", "")
	_, err := one.MakeJSON(nil)
	var ve *entity.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) != 2 || ve.Fields[1].Rule != "limit" || ve.Omitted != 2 {
		t.Errorf("MaxErrors 1: %v", err)
	}
}

// TestHostileHugeDepthLimit: with the depth limit raised as far as
// SetMaxDepth takes it, a cyclic map still ends with an error, never a
// crash. A stack overflow is fatal (no recover), so the make runs in a
// child process.
func TestHostileHugeDepthLimit(t *testing.T) {
	if os.Getenv("HX_HUGE_DEPTH_CHILD") == "1" {
		debug.SetMaxStack(128 << 20) // fail fast: a fixed library needs far less
		reg := entity.NewRegistry()
		reg.SetMaxDepth(math.MaxInt)
		e := expose(t, reg, "none", "v", "none", "")
		_, err := e.MakeJSON(map[string]any{"v": hxCycle(1)})
		if err == nil {
			t.Fatal("a cyclic map was made")
		}
		t.Logf("error: %.200v", err)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostileHugeDepthLimit$", "-test.v")
	cmd.Env = append(os.Environ(), "HX_HUGE_DEPTH_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		if bytes.Contains(out, []byte("stack overflow")) {
			t.Fatalf("regression: SetMaxDepth(math.MaxInt) then MakeJSON of a map containing itself into a none field: fatal stack overflow (the process dies); want a depth or json field error\n%s",
				hxClip(string(out)))
		}
		t.Fatalf("child: %v\n%s", err, hxClip(string(out)))
	}
}

// TestHostileRecursiveDefaults: an entity with two references to itself,
// each with a bare default, makes an empty input into a binary tree of
// defaults as deep as the depth limit: 2^depth objects. With the default
// limit of 64 levels, any input hangs the make. The work must stay bounded
// (or the declaration be refused): here, at a limit of 16 levels, at most
// a thousand field errors may be met.
func TestHostileRecursiveDefaults(t *testing.T) {
	reg := entity.NewRegistry()
	reg.SetMaxDepth(16)
	if _, err := reg.Expose("bt", "v", "string", "", "l", "$bt", "default", "r", "$bt", "default"); err == nil {
		t.Fatalf("Expose accepted a bare default on a reference to the entity itself")
	}
	// An indirect cycle cannot be seen at declaration (references may point
	// forward): the make stops at it with a field error of rule "default",
	// after work bounded by the entities in the cycle, not by the depth.
	reg.MustExpose("ca", "v", "string", "", "l", "$cb", "default", "r", "$cb", "default")
	reg.MustExpose("cb", "a", "$ca", "default", "b", "$ca", "default")
	_, err := reg.MakeJSON("ca", map[string]any{})
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("MakeJSON over a cycle of defaults: %v, want a ValidationError", err)
	}
	for _, f := range ve.Fields {
		if f.Rule != "default" {
			t.Errorf("field error %v of rule %q, want rule default", f, f.Rule)
		}
	}
	if met := len(ve.Fields) + ve.Omitted; met > 64 {
		t.Fatalf("a cycle of defaults met %d errors: the work is not bounded by the cycle", met)
	}
}

// TestHostileErrorCount: past the cap, Error() still says how many fields
// failed, not how many entries it lists.
func TestHostileErrorCount(t *testing.T) {
	reg := hxRegistry(t)
	_, err := reg.MakeJSON("req1000", map[string]any{})
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	want := `entity "req1000": 1000 fields failed: `
	if !strings.HasPrefix(msg, want) {
		t.Fatalf("regression: 1000 fields failed, 100 listed: Error() begins %q, want %q (it counts the listed entries and the summary entry as fields)",
			msg[:min(len(msg), 60)], want)
	}
}
