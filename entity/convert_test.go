package entity_test

import (
	"encoding/json"
	"math"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
)

// The regression tests of the conversions issue 10 found wrong, each named
// after its defect. Every case makes its input through every entry point
// (makeAll), so each also checks that MakeJSON, AppendJSON and Make agree.

// convRegression is one input made with a one-field entity `"v", typ, rules`:
// want is the whole output, or "" when the make fails with a field error
// of rule wantRule on v.
type convRegression struct {
	name     string
	typ      string
	rules    string
	in       any
	want     string
	wantRule string
}

// runConvRegressions runs a table of convCases.
func runConvRegressions(t *testing.T, tests []convRegression) {
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

// TestNonFiniteFloatsNeverWritten: NaN and ±Inf, which JSON cannot hold,
// are never written, whatever the input: on a none field they are a field
// error of rule json (a struct's float64, float32 and *float64 as a map's
// float64 already was); on a typed field they do not convert, so null.
func TestNonFiniteFloatsNeverWritten(t *testing.T) {
	nan, inf, ninf := math.NaN(), math.Inf(1), math.Inf(-1)
	// The input's key is the struct's V; rename writes it as v.
	var tests []convRegression
	for _, x := range []struct {
		name string
		f    float64
	}{{"NaN", nan}, {"+Inf", inf}, {"-Inf", ninf}} {
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
		}
		for _, in := range inputs {
			for _, typ := range []struct {
				typ, want string
			}{{"none", ""}, {"float", `{"v":null}`}, {"number", `{"v":null}`}, {"string", `{"v":null}`},
				{"bool", `{"v":null}`}, {"date", `{"v":null}`}} {
				tests = append(tests, convRegression{name: x.name + " " + in.name + " into " + typ.typ,
					typ: typ.typ, in: in.in, want: typ.want})
			}
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := expose(t, entity.NewRegistry(), "one", "V", tt.typ, "rename v")
			out, _, err := makeAll(t, e, tt.in)
			if tt.want != "" {
				if err != nil || string(out) != tt.want {
					t.Fatalf("got %s, %v; want %s", out, err, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("got %s, want a field error of rule json", out)
			}
			fes := fieldErrors(t, err)
			if len(fes) != 1 || fes[0].Path != "V" || fes[0].Rule != "json" {
				t.Fatalf("error %v, want one field error on V of rule json", err)
			}
			// Write answers the error, never the bytes.
			rec := httptest.NewRecorder()
			if werr := e.Write(rec, tt.in); werr == nil || rec.Code == 200 || !json.Valid(rec.Body.Bytes()) {
				t.Errorf("Write: %v, status %d, body %s", werr, rec.Code, rec.Body)
			}
		})
	}
}

// TestJSONNumberToIntExact: a json.Number on a number field is its exact
// decimal value truncated toward zero, exponents included, null outside
// int64, never read through float64.
func TestJSONNumberToIntExact(t *testing.T) {
	n := func(s string) map[string]any { return map[string]any{"v": json.Number(s)} }
	runConvRegressions(t, []convRegression{
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
	runConvRegressions(t, []convRegression{
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
	var tests []convRegression
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
			convRegression{name: c.name + " from a map", typ: c.typ, in: map[string]any{"v": json.Number(c.text)}, want: c.want},
			convRegression{name: c.name + " from a struct", typ: c.typ, in: jnStruct{json.Number(c.text)}, want: c.want})
	}
	// req rejects what is null.
	tests = append(tests, convRegression{name: "req rejects NaN", typ: "string", rules: "req",
		in: map[string]any{"v": json.Number("NaN")}, wantRule: "req"})
	runConvRegressions(t, tests)
}

// TestRFC3339LowerCase: RFC 3339 allows "t" and "z" in lower case
// (section 5.6); a date field and the timestamp rule accept them.
func TestRFC3339LowerCase(t *testing.T) {
	m := func(s string) map[string]any { return map[string]any{"v": s} }
	runConvRegressions(t, []convRegression{
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
	runConvRegressions(t, []convRegression{
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
	runConvRegressions(t, []convRegression{
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
	runConvRegressions(t, []convRegression{
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

// numberCases: NaN and ±Inf are null where the field converts (the
// conversion table: NaN/±Inf → null), a field error of rule json where the
// value passes through; never invalid JSON. Then huge and tiny numbers.
func numberCases() []entryCase {
	jsonV := []string{failAt("v", "json")}
	nan, inf := math.NaN(), math.Inf(1)
	return []entryCase{
		{name: "NaN into float", ent: "float", in: givenV(nan), out: wantOut(`{"v":null}`)},
		{name: "+Inf into float", ent: "float", in: givenV(inf), out: wantOut(`{"v":null}`)},
		{name: "-Inf into float", ent: "float", in: givenV(math.Inf(-1)), out: wantOut(`{"v":null}`)},
		{name: "float32 NaN into float", ent: "float", in: givenV(float32(nan)), out: wantOut(`{"v":null}`)},
		{name: "named float NaN into float", ent: "float", in: givenV(namedFloat(nan)), out: wantOut(`{"v":null}`)},
		{name: "NaN into number", ent: "number", in: givenV(nan), out: wantOut(`{"v":null}`)},
		{name: "+Inf into number", ent: "number", in: givenV(inf), out: wantOut(`{"v":null}`)},
		{name: "NaN into string", ent: "string", in: givenV(nan), out: wantOut(`{"v":null}`)},
		{name: "NaN into bool", ent: "bool", in: givenV(nan), out: wantOut(`{"v":null}`)},
		{name: "+Inf into date", ent: "date", in: givenV(inf), out: wantOut(`{"v":null}`)},
		{name: "NaN into a required float", ent: "reqfloat", in: givenV(nan), fails: []string{failAt("v", "req")}},
		{name: "NaN into a float with a default", ent: "deffloat", in: givenV(nan), out: wantOut(`{"v":1.5}`)},
		{name: "NaN into none", ent: "none", in: givenV(nan), fails: jsonV},
		{name: "+Inf into none", ent: "none", in: givenV(inf), fails: jsonV},
		{name: "-Inf into none", ent: "none", in: givenV(math.Inf(-1)), fails: jsonV},
		{name: "float32 +Inf into none", ent: "none", in: givenV(float32(inf)), fails: jsonV},
		{name: "NaN inside a list", ent: "list", in: givenV([]any{1, nan}), fails: jsonV},
		{name: "+Inf inside an object", ent: "object", in: givenV(map[string]any{"x": inf}), fails: jsonV},
		{name: "json.Number NaN into none", ent: "none", in: givenV(json.Number("NaN")), fails: jsonV},
		{name: "json.Number Infinity into float", ent: "float", in: givenV(json.Number("Infinity")), out: wantOut(`{"v":null}`)},
		{name: "raw JSON: NaN is not JSON", ent: "float", in: given([]byte(`{"v":NaN}`)), errIs: entity.ErrInvalidJSON, status: 400},
		{name: "raw JSON: 1e400 into float overflows to null", ent: "float", in: given([]byte(`{"v":1e400}`)), out: wantOut(`{"v":null}`)},
		{name: "raw JSON: 1e400 into number", ent: "number", in: given([]byte(`{"v":1e400}`)), out: wantOut(`{"v":null}`)},
		{name: "raw JSON: 1e400 passed through none keeps its text", ent: "none", in: given([]byte(`{"v":1e400}`)), out: wantOut(`{"v":1e400}`)},

		// Huge and tiny numbers.
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

// TestNumberInputs: non-finite, huge and tiny numbers from every entry point.
func TestNumberInputs(t *testing.T) {
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
	}
}

// TestUnencodableValues: a value JSON cannot hold is a field error of rule
// json where it passes through, null where the field converts.
func TestUnencodableValues(t *testing.T) {
	runEntryCases(t, unencodableCases())
}
