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

// The regression tests of conversions once found wrong, each named
// after its defect. Every case makes its input through every entry point
// (makeAll), so each also checks that MakeJSON, AppendJSON and Make agree.

// convFixed is one input made with a one-field entity `"v", typ, rules`:
// want is the whole output, or "" when the make fails with a field error
// of rule wantRule on v.
type convFixed struct {
	name     string
	typ      string
	rules    string
	in       any
	want     string
	wantRule string
}

// runConvFixed runs a table of convCases.
func runConvFixed(t *testing.T, tests []convFixed) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := exposeOne(t, tt.typ, tt.rules)
			out, _, err := makeAll(t, e, tt.in)
			if tt.want != "" {
				if err != nil {
					t.Fatalf("make: %v", err)
				}
				if string(out) != tt.want {
					t.Errorf("got %s, want %s", out, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("got %s, want a field error of rule %q", out, tt.wantRule)
			}
			fes := fieldErrors(t, err)
			if len(fes) != 1 || fes[0].Path != "v" || fes[0].Rule != tt.wantRule {
				t.Fatalf("error %v, want one field error on v of rule %q", err, tt.wantRule)
			}
		})
	}
}

// Struct inputs whose one field is v, of each kind a float comes in.
type (
	f64Struct    struct{ V float64 }
	f32Struct    struct{ V float32 }
	f64PtrStruct struct{ V *float64 }
	namedFloatS  struct{ V myFloat }
	anyStruct    struct{ V any }
)

// nonFiniteCases: NaN and ±Inf, which JSON cannot hold, are never written,
// whatever the input: on a none field (and inside a list or an object
// passed through) they are a field error of rule json (a struct's float64,
// float32 and *float64 as a map's float64 already was); on a typed field
// they do not convert (the conversion table: NaN/±Inf → null), so null, or
// the default, or a req failure. Struct inputs have a field V, which the
// entities "V"+type of entryRegistry rename to v.
func nonFiniteCases() []entryCase {
	var cases []entryCase
	for _, x := range []struct {
		name string
		f    float64
	}{{"NaN", math.NaN()}, {"+Inf", math.Inf(1)}, {"-Inf", math.Inf(-1)}} {
		f := x.f
		inputs := []struct {
			name string
			in   any
		}{
			{"struct float64", f64Struct{V: f}},
			{"struct float32", f32Struct{V: float32(f)}},
			{"struct *float64", f64PtrStruct{V: &f}},
			{"pointer to struct float64", &f64Struct{V: f}},
			{"struct named float", namedFloatS{V: myFloat(f)}},
			{"struct any holding float64", anyStruct{V: f}},
			{"map float64", map[string]any{"V": f}},
			{"map float32", map[string]any{"V": float32(f)}},
			{"map *float64", map[string]any{"V": &f}},
			{"map named float", map[string]any{"V": myFloat(f)}},
			{"map other named float", map[string]any{"V": namedFloat(f)}},
		}
		for _, in := range inputs {
			for _, typ := range []string{"none", "float", "number", "string", "bool", "date"} {
				c := entryCase{name: x.name + " " + in.name + " into " + typ, ent: "V" + typ, in: given(in.in)}
				if typ == "none" {
					c.fails = []string{failAt("V", "json")}
				} else {
					c.out = wantOut(`{"v":null}`)
				}
				cases = append(cases, c)
			}
		}
	}
	jsonV := []string{failAt("v", "json")}
	nan, inf := math.NaN(), math.Inf(1)
	return append(cases, []entryCase{
		{name: "NaN into a required float", ent: "reqfloat", in: givenV(nan), fails: []string{failAt("v", "req")}},
		{name: "NaN into a float with a default", ent: "deffloat", in: givenV(nan), out: wantOut(`{"v":1.5}`)},
		{name: "NaN inside a list", ent: "list", in: givenV([]any{1, nan}), fails: jsonV},
		{name: "+Inf inside an object", ent: "object", in: givenV(map[string]any{"x": inf}), fails: jsonV},
		{name: "json.Number NaN into none", ent: "none", in: givenV(json.Number("NaN")), fails: jsonV},
		{name: "json.Number Infinity into float", ent: "float", in: givenV(json.Number("Infinity")), out: wantOut(`{"v":null}`)},
		// Raw JSON has no NaN (TestRawJSONInvalid), but 1e400 overflows a
		// float64.
		{name: "raw JSON: 1e400 into float overflows to null", ent: "float", in: given([]byte(`{"v":1e400}`)), out: wantOut(`{"v":null}`)},
		{name: "raw JSON: 1e400 into number", ent: "number", in: given([]byte(`{"v":1e400}`)), out: wantOut(`{"v":null}`)},
		{name: "raw JSON: 1e400 passed through none keeps its text", ent: "none", in: given([]byte(`{"v":1e400}`)), out: wantOut(`{"v":1e400}`)},
	}...)
}

// TestNonFiniteFloatsNeverWritten: NaN and ±Inf from every input form and
// every entry point (nonFiniteCases).
func TestNonFiniteFloatsNeverWritten(t *testing.T) {
	runEntryCases(t, nonFiniteCases())
}

// TestJSONNumberToIntExact: a json.Number on a number field is its exact
// decimal value truncated toward zero, exponents included, null outside
// int64, never read through float64.
func TestJSONNumberToIntExact(t *testing.T) {
	n := func(s string) map[string]any { return map[string]any{"v": json.Number(s)} }
	runConvFixed(t, []convFixed{
		{name: "nines after minus zero truncate to 0", typ: "number", in: n("-0.99999999999999999"), want: `{"v":0}`},
		{name: "nines after a billion keep the billion", typ: "number", in: n("1000000000.99999999"), want: `{"v":1000000000}`},
		{name: "below min int64 is null", typ: "number", in: n("-9223372036854775809"), want: `{"v":null}`},
		{name: "above max int64 is null", typ: "number", in: n("9223372036854775808"), want: `{"v":null}`},
		{name: "beyond 2^53 with a fraction kept exact", typ: "number", in: n("9007199254740993.0"), want: `{"v":9007199254740993}`},
		{name: "exponent", typ: "number", in: n("1e5"), want: `{"v":100000}`},
		{name: "upper-case exponent", typ: "number", in: n("1E5"), want: `{"v":100000}`},
		{name: "exponent moves the point into the digits", typ: "number", in: n("1.5e1"), want: `{"v":15}`},
		{name: "negative exponent", typ: "number", in: n("-12345e-2"), want: `{"v":-123}`},
		{name: "max int64 in exponent form", typ: "number", in: n("9.223372036854775807e18"), want: `{"v":9223372036854775807}`},
		{name: "min int64 with a fraction", typ: "number", in: n("-9223372036854775808.9"), want: `{"v":-9223372036854775808}`},
		{name: "huge exponent is null", typ: "number", in: n("1e400"), want: `{"v":null}`},
		{name: "tiny is zero", typ: "number", in: n("1e-400"), want: `{"v":0}`},
		{name: "not a number is null", typ: "number", in: n("abc"), want: `{"v":null}`},
		{name: "empty is null", typ: "number", in: n(""), want: `{"v":null}`},
		{name: "as raw JSON 1e5 is", typ: "number", in: []byte(`{"v":1e5}`), want: `{"v":100000}`},
		{name: "range judges the exact value", typ: "number", rules: "max 9007199254740992", in: n("9007199254740993.5"), wantRule: "max"},
		{name: "date reads exact milliseconds", typ: "date", in: n("1000000000000.99999999"), want: `{"v":"2001-09-09T01:46:40Z"}`},
	})
}

// TestJSONNumberNegativeZero: json.Number("-0") is -0 on a float field, as
// the string "-0" and raw JSON -0 are, and "-0" on a string field, as a
// float -0 is.
func TestJSONNumberNegativeZero(t *testing.T) {
	runConvFixed(t, []convFixed{
		{name: "json.Number -0 into float", typ: "float", in: map[string]any{"v": json.Number("-0")}, want: `{"v":-0}`},
		{name: "json.Number -0.0 into float", typ: "float", in: map[string]any{"v": json.Number("-0.0")}, want: `{"v":-0}`},
		{name: "string -0 into float", typ: "float", in: map[string]any{"v": "-0"}, want: `{"v":-0}`},
		{name: "raw -0 into float", typ: "float", in: []byte(`{"v":-0}`), want: `{"v":-0}`},
		{name: "float -0 into float", typ: "float", in: map[string]any{"v": math.Copysign(0, -1)}, want: `{"v":-0}`},
		{name: "json.Number -0 into string", typ: "string", in: map[string]any{"v": json.Number("-0")}, want: `{"v":"-0"}`},
		{name: "json.Number -000 into string", typ: "string", in: map[string]any{"v": json.Number("-000")}, want: `{"v":"-0"}`},
		{name: "json.Number -007 into string", typ: "string", in: map[string]any{"v": json.Number("-007")}, want: `{"v":"-7"}`},
		{name: "json.Number -42 into string", typ: "string", in: map[string]any{"v": json.Number("-42")}, want: `{"v":"-42"}`},
		{name: "float -0 into string", typ: "string", in: map[string]any{"v": math.Copysign(0, -1)}, want: `{"v":"-0"}`},
		{name: "raw -0 into string", typ: "string", in: []byte(`{"v":-0}`), want: `{"v":"-0"}`},
		{name: "json.Number -0 into number", typ: "number", in: map[string]any{"v": json.Number("-0")}, want: `{"v":0}`},
	})
}

// jnStruct holds a json.Number as a struct field.
type jnStruct struct {
	V json.Number `json:"v"`
}

// TestJSONNumberNotANumberOnString: a json.Number whose text is no number
// (as the float conversion reads one), or beyond float64's range, is null
// on a string field, from a map and from a struct, as raw JSON's 1e999 is;
// its text never passes through as a string's would. A valid one is
// written as before: an integer as its text without leading zeros, any
// other as its float. The other typed fields never read its text as a
// string either ("true" is no bool, "2020-01-02" no date).
func TestJSONNumberNotANumberOnString(t *testing.T) {
	long := "1" + strings.Repeat("0", 308)  // 1e308: float64 holds it
	huge := "1" + strings.Repeat("0", 309)  // 1e309: beyond float64
	zeros := strings.Repeat("0", 400) + "7" // 7, however long its text
	var tests []convFixed
	for _, c := range []struct {
		name, typ, text, want string
	}{
		{"NaN", "string", "NaN", `{"v":null}`},
		{"Inf", "string", "Inf", `{"v":null}`},
		{"-Infinity", "string", "-Infinity", `{"v":null}`},
		{"1e999 beyond float64", "string", "1e999", `{"v":null}`},
		{"-1e999 beyond float64", "string", "-1e999", `{"v":null}`},
		{"integer beyond float64", "string", huge, `{"v":null}`},
		{"plus sign", "string", "+1", `{"v":null}`},
		{"hexadecimal", "string", "0x10", `{"v":null}`},
		{"underscore", "string", "1_0", `{"v":null}`},
		{"no digit before the point", "string", ".5", `{"v":null}`},
		{"no digit after the point", "string", "5.", `{"v":null}`},
		{"white space", "string", " 1", `{"v":null}`},
		{"empty", "string", "", `{"v":null}`},
		{"words", "string", "abc", `{"v":null}`},
		{"integer keeps its text", "string", "12", `{"v":"12"}`},
		{"leading zeros dropped", "string", "-007", `{"v":"-7"}`},
		{"long integer within float64 keeps its text", "string", long, `{"v":"` + long + `"}`},
		{"many leading zeros", "string", zeros, `{"v":"7"}`},
		{"fraction as its float", "string", "1.50", `{"v":"1.5"}`},
		{"exponent as its float", "string", "1e5", `{"v":"100000"}`},
		{"tiny as its float", "string", "1e-400", `{"v":"0"}`},
		{"true is no bool", "bool", "true", `{"v":null}`},
		{"1 is a bool", "bool", "1", `{"v":true}`},
		{"a date's text is no date", "date", "2020-01-02", `{"v":null}`},
		{"0x10 is no float", "float", "0x10", `{"v":null}`},
		{"Inf is no float", "float", "Inf", `{"v":null}`},
		{"+1 is no number", "number", "+1", `{"v":null}`},
	} {
		tests = append(tests,
			convFixed{name: c.name + " from a map", typ: c.typ, in: map[string]any{"v": json.Number(c.text)}, want: c.want},
			convFixed{name: c.name + " from a struct", typ: c.typ, in: jnStruct{json.Number(c.text)}, want: c.want})
	}
	// req rejects what is null.
	tests = append(tests, convFixed{name: "req rejects NaN", typ: "string", rules: "req",
		in: map[string]any{"v": json.Number("NaN")}, wantRule: "req"})
	runConvFixed(t, tests)
}

// TestRFC3339LowerCase: RFC 3339 allows "t" and "z" in lower case
// (section 5.6); a date field and the timestamp rule accept them.
func TestRFC3339LowerCase(t *testing.T) {
	m := func(s string) map[string]any { return map[string]any{"v": s} }
	runConvFixed(t, []convFixed{
		{name: "lower-case t and z", typ: "date", in: m("2024-02-29t12:30:45z"), want: `{"v":"2024-02-29T12:30:45Z"}`},
		{name: "lower-case t with offset", typ: "date", in: m("2024-02-29t12:30:45+01:00"), want: `{"v":"2024-02-29T11:30:45Z"}`},
		{name: "lower-case z with fraction", typ: "date", in: m("2024-02-29T12:30:45.5z"), want: `{"v":"2024-02-29T12:30:45.5Z"}`},
		{name: "raw JSON", typ: "date", in: []byte(`{"v":"2024-02-29t12:30:45z"}`), want: `{"v":"2024-02-29T12:30:45Z"}`},
		{name: "timestamp rule on a string", typ: "string", rules: "timestamp", in: m("2024-02-29t12:30:45z"), want: `{"v":"2024-02-29t12:30:45z"}`},
		{name: "lower-case z on the space form is not a date", typ: "date", in: m("2024-02-29 12:30:45z"), want: `{"v":null}`},
	})
}

// TestPointerInMapFollowed: a pointer to a scalar is followed in a map
// value as in a struct field, for conversions and for the checks on none.
func TestPointerInMapFollowed(t *testing.T) {
	s, n, f, b := "Ann", 42, 2.5, true
	tm := time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC)
	email := "ann@example.com"
	ps := &s
	var nilS *string
	var cyc any
	cyc = &cyc
	runConvFixed(t, []convFixed{
		{name: "string", typ: "string", in: map[string]any{"v": &s}, want: `{"v":"Ann"}`},
		{name: "int", typ: "number", in: map[string]any{"v": &n}, want: `{"v":42}`},
		{name: "int to string", typ: "string", in: map[string]any{"v": &n}, want: `{"v":"42"}`},
		{name: "float", typ: "float", in: map[string]any{"v": &f}, want: `{"v":2.5}`},
		{name: "bool", typ: "bool", in: map[string]any{"v": &b}, want: `{"v":true}`},
		{name: "time", typ: "date", in: map[string]any{"v": &tm}, want: `{"v":"2024-02-29T12:00:00Z"}`},
		{name: "pointer to pointer", typ: "string", in: map[string]any{"v": &ps}, want: `{"v":"Ann"}`},
		{name: "pointer to nil pointer is null", typ: "string", rules: "default 'x'", in: map[string]any{"v": &nilS}, want: `{"v":"x"}`},
		{name: "nil pointer is null", typ: "string", in: map[string]any{"v": nilS}, want: `{"v":null}`},
		{name: "map[string]string pointer in map[string]any", typ: "object", in: map[string]any{"v": &map[string]string{"a": "b"}}, want: `{"v":{"a":"b"}}`},
		{name: "cycle of pointers is null", typ: "string", in: map[string]any{"v": cyc}, want: `{"v":null}`},
		{name: "none writes the pointee", typ: "none", in: map[string]any{"v": &s}, want: `{"v":"Ann"}`},
		{name: "none checks the pointee", typ: "none", rules: "email", in: map[string]any{"v": &email}, want: `{"v":"ann@example.com"}`},
		{name: "none check fails on the pointee", typ: "none", rules: "max 2", in: map[string]any{"v": &s}, wantRule: "max"},
	})
	// A struct's *time.Time field, read by its Go name.
	e := expose(t, entity.NewRegistry(), "t", "V", "date", "")
	if out, _ := mustMake(t, e, struct{ V *time.Time }{&tm}); string(out) != `{"V":"2024-02-29T12:00:00Z"}` {
		t.Errorf("struct *time.Time: got %s", out)
	}
}

// TestTimeOutsideRFC3339OnString: a time.Time outside years 0000–9999 on a
// string field is null, as on a date field: RFC 3339 has four-digit years.
func TestTimeOutsideRFC3339OnString(t *testing.T) {
	m := func(tm time.Time) map[string]any { return map[string]any{"v": tm} }
	runConvFixed(t, []convFixed{
		{name: "year 10000", typ: "string", in: m(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)), want: `{"v":null}`},
		{name: "year -1", typ: "string", in: m(time.Date(-1, 12, 31, 0, 0, 0, 0, time.UTC)), want: `{"v":null}`},
		{name: "year 9999 by a zone moved to 10000 in UTC", typ: "string",
			in: m(time.Date(9999, 12, 31, 23, 0, 0, 0, time.FixedZone("west", -2*3600))), want: `{"v":null}`},
		{name: "year 10000 on date", typ: "date", in: m(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)), want: `{"v":null}`},
		{name: "default fills it", typ: "string", rules: "default 'never'", in: m(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)), want: `{"v":"never"}`},
		{name: "year 9999", typ: "string", in: m(time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)), want: `{"v":"9999-12-31T23:59:59Z"}`},
		{name: "year 0", typ: "string", in: m(time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)), want: `{"v":"0000-01-01T00:00:00Z"}`},
	})
}

// TestRangeBoundsExact: range compares its bounds exactly, so bounds that
// are equal only as float64 are reversed, a declaration error, and int64
// bounds judge integers exactly.
func TestRangeBoundsExact(t *testing.T) {
	declErrors := []struct {
		name, rules string
	}{
		{"max int64 above max int64 - 1", "range 9223372036854775807 9223372036854775806"},
		{"beyond 2^53", "range 9007199254740993 9007199254740992"},
		{"a digit float64 drops", "range 0.30000000000000001 0.3"},
	}
	for _, tt := range declErrors {
		t.Run(tt.name, func(t *testing.T) {
			_, err := entity.NewRegistry().Expose("r", "v", "number", tt.rules)
			if err == nil || !strings.Contains(err.Error(), "is greater than maximum") {
				t.Fatalf("Expose: %v, want a reversed range error", err)
			}
		})
	}
	m := func(n int64) map[string]any { return map[string]any{"v": n} }
	runConvFixed(t, []convFixed{
		{name: "lower int64 bound holds", typ: "number", rules: "range 9223372036854775806 9223372036854775807", in: m(math.MaxInt64 - 1), want: `{"v":9223372036854775806}`},
		{name: "upper int64 bound holds", typ: "number", rules: "range 9223372036854775806 9223372036854775807", in: m(math.MaxInt64), want: `{"v":9223372036854775807}`},
		{name: "below the int64 bounds", typ: "number", rules: "range 9223372036854775806 9223372036854775807", in: m(math.MaxInt64 - 2), wantRule: "range"},
	})
}

type panicMarshaler struct{}

func (panicMarshaler) MarshalJSON() ([]byte, error) { panic("MarshalJSON panicked") }

type badMarshaler struct{}

func (badMarshaler) MarshalJSON() ([]byte, error) { return []byte(`{"unclosed":`), nil }

type panicTextMarshaler struct{ s string }

func (panicTextMarshaler) MarshalText() ([]byte, error) { panic("MarshalText panicked") }

type namedFloat float64

// numberCases: huge and tiny numbers, at and past the edges of int64,
// uint64 and float64. (NaN and ±Inf are nonFiniteCases.)
func numberCases() []entryCase {
	return []entryCase{
		{name: "1e308 into float", ent: "float", in: givenV(1e308), out: wantOut(`{"v":1e+308}`)},
		{name: "1e308 into number is outside int64", ent: "number", in: givenV(1e308), out: wantOut(`{"v":null}`)},
		{name: "1e308 into string", ent: "string", in: givenV(1e308), out: wantOut(`{"v":"1e+308"}`)},
		{name: "MaxFloat64 into none", ent: "none", in: givenV(math.MaxFloat64), out: wantMarshalV(math.MaxFloat64)},
		{name: "5e-324 into float", ent: "float", in: givenV(5e-324), out: wantOut(`{"v":5e-324}`)},
		{name: "5e-324 into number truncates to 0", ent: "number", in: givenV(5e-324), out: wantOut(`{"v":0}`)},
		{name: "5e-324 into string", ent: "string", in: givenV(5e-324), out: wantOut(`{"v":"5e-324"}`)},
		{name: "-0.0 into float", ent: "float", in: givenV(math.Copysign(0, -1)), out: wantOut(`{"v":-0}`)},
		{name: "MaxInt64 into number", ent: "number", in: givenV(int64(math.MaxInt64)), out: wantOut(`{"v":9223372036854775807}`)},
		{name: "MinInt64 into number", ent: "number", in: givenV(int64(math.MinInt64)), out: wantOut(`{"v":-9223372036854775808}`)},
		{name: "MaxInt64 into float", ent: "float", in: givenV(int64(math.MaxInt64)), out: wantOut(`{"v":9223372036854776000}`)}, // float64(2^63), as encoding/json writes it
		{name: "MinInt64 into string", ent: "string", in: givenV(int64(math.MinInt64)), out: wantOut(`{"v":"-9223372036854775808"}`)},
		{name: "MaxUint64 into number is outside int64", ent: "number", in: givenV(uint64(math.MaxUint64)), out: wantOut(`{"v":null}`)},
		{name: "MaxUint64 into float", ent: "float", in: givenV(uint64(math.MaxUint64)), out: wantOut(`{"v":18446744073709552000}`)}, // float64(2^64)
		{name: "MaxUint64 into string", ent: "string", in: givenV(uint64(math.MaxUint64)), out: wantOut(`{"v":"18446744073709551615"}`)},
		{name: "MaxUint64 into none", ent: "none", in: givenV(uint64(math.MaxUint64)), out: wantOut(`{"v":18446744073709551615}`)},
		{name: "2^63 as a float into number is outside int64", ent: "number", in: givenV(float64(1 << 63)), out: wantOut(`{"v":null}`)},
		{name: "-2^63 as a float into number", ent: "number", in: givenV(-float64(1 << 63)), out: wantOut(`{"v":-9223372036854775808}`)},
		{name: "numeric string one past MaxInt64", ent: "number", in: givenV("9223372036854775808"), out: wantOut(`{"v":null}`)},
		{name: "numeric string MinInt64", ent: "number", in: givenV("-9223372036854775808"), out: wantOut(`{"v":-9223372036854775808}`)},
		{name: "numeric string of 1000 digits into number", ent: "number", in: givenV(strings.Repeat("9", 1000)), out: wantOut(`{"v":null}`)},
		{name: "numeric string of 1000 digits into float overflows", ent: "float", in: givenV(strings.Repeat("9", 1000)), out: wantOut(`{"v":null}`)},
		{name: "raw JSON: MaxUint64 into number", ent: "number", in: given([]byte(`{"v":18446744073709551615}`)), out: wantOut(`{"v":null}`)},
		{name: "raw JSON: MinInt64 into number", ent: "number", in: given([]byte(`{"v":-9223372036854775808}`)), out: wantOut(`{"v":-9223372036854775808}`)},
		{name: "raw JSON: 5e-324 into float", ent: "float", in: given([]byte(`{"v":5e-324}`)), out: wantOut(`{"v":5e-324}`)},
	}
}

// TestHugeAndTinyNumbers: huge and tiny numbers from every entry point.
func TestHugeAndTinyNumbers(t *testing.T) {
	runEntryCases(t, numberCases())
}

// unencodableCases: values JSON cannot hold, inside maps.
func unencodableCases() []entryCase {
	jsonV := []string{failAt("v", "json")}
	return []entryCase{
		{name: "channel into none", ent: "none", in: givenV(make(chan int)), fails: jsonV},
		{name: "channel inside a map into none", ent: "none", in: givenV(map[string]any{"c": make(chan int)}), fails: jsonV},
		{name: "func inside a map into object", ent: "object", in: givenV(map[string]any{"f": func() {}}), fails: jsonV},
		{name: "func inside a list", ent: "list", in: givenV([]any{"ok", func() {}}), fails: jsonV},
		{name: "channel into string is null", ent: "string", in: givenV(make(chan int)), out: wantOut(`{"v":null}`)},
		{name: "complex number into none", ent: "none", in: givenV(complex(1, 2)), fails: jsonV},
		{name: "map with bool keys into none", ent: "none", in: givenV(map[bool]int{true: 1}), fails: jsonV},
		{name: "map with int keys into none", ent: "none", in: givenV(map[int]string{2: "b", 10: "a"}), out: wantOut(`{"v":{"10":"a","2":"b"}}`)},
		{name: "MarshalJSON that panics into none", ent: "none", in: givenV(panicMarshaler{}), fails: jsonV},
		{name: "MarshalJSON that writes invalid JSON into none", ent: "none", in: givenV(badMarshaler{}), fails: jsonV},
		{name: "MarshalText that panics, as a map key", ent: "none", in: givenV(map[panicTextMarshaler]int{{"k"}: 1}), fails: jsonV},
		{name: "[]byte into none with a regex: judged as written", ent: "noneregex", in: givenV([]byte("9:30")), fails: []string{failAt("v", "regex")}},
		{name: "a pointer to a []byte into none with a regex: judged as written", ent: "noneregex", in: givenV(stPtr([]byte("9:30"))), fails: []string{failAt("v", "regex")}},
	}
}

// TestUnencodableValues: a value JSON cannot hold is a field error of rule
// json where it passes through, null where the field converts.
func TestUnencodableValues(t *testing.T) {
	runEntryCases(t, unencodableCases())
}

// The conversion tables: each type's conversion of every kind of input
// (TestConvert*), and the type names (TestTypeAliases).

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
