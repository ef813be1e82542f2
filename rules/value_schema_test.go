package rules

import (
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/expose-go/expose/internal/textconv"
)

func TestKindSchema(t *testing.T) {
	tests := []struct {
		kind Kind
		want map[string]any
	}{
		{String, map[string]any{"type": "string"}},
		{Int, map[string]any{"type": "integer", "format": "int64"}},
		{Float, map[string]any{"type": "number"}},
		{Bool, map[string]any{"type": "boolean"}},
		{Time, map[string]any{"type": "string", "format": "date-time"}},
		{List, map[string]any{"type": "array"}},
		{Object, map[string]any{"type": "object"}},
		{Any, map[string]any{}},
		{Kind(200), map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.kind.String(), func(t *testing.T) {
			if got := tt.kind.Schema(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Schema() = %v, want %v", got, tt.want)
			}
			got := tt.kind.Schema()
			got["x"] = 1
			if _, shared := tt.kind.Schema()["x"]; shared {
				t.Errorf("Schema() returns a shared map")
			}
		})
	}
}

// TestKindInputSchemaPatterns: the text forms of InputSchema match exactly
// the text that the conversions read, the range of int64 included.
func TestKindInputSchemaPatterns(t *testing.T) {
	texts := []string{"", "0", "-0", "12", "007", "-3", "12.0", "12.00", "12.5", "1e3", "+1", " 1", "1.", ".5",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "0009223372036854775807.000",
		"99999999999999999999", "-0.0", "1e308", "1.7e307", "-2e-400",
		"true", "FALSE", "On", "off", "1", "yes", "2024-01-15", "2024/1/5", "2024-02-30", "2024-01-15T12:30:00Z",
		"2024-01-15 12:30:00", "2024-01-15T12:30:00", "2024-01-15T12:30:00.5+09:00", "abc", "NaN", "-1.5e-3"}
	accepts := map[Kind]func(string) bool{
		Int: func(s string) bool {
			_, ok := textconv.ParseInt(s)
			return ok && !strings.ContainsAny(strings.TrimRight(s[strings.IndexByte(s+".", '.'):], "0"), "123456789")
		},
		Float: func(s string) bool { _, ok := textconv.ParseFloat(s); return ok },
		Bool:  func(s string) bool { _, ok := textconv.ParseBool(s); return ok },
		Time:  func(s string) bool { _, ok := textconv.ParseTime(s); return ok },
	}
	for k, accept := range accepts {
		var re *regexp.Regexp
		for _, alt := range k.InputSchema() {
			if alt["type"] == "string" {
				re = regexp.MustCompile(alt["pattern"].(string))
			}
		}
		if re == nil {
			t.Fatalf("%s: no text form in %v", k, k.InputSchema())
		}
		for _, s := range texts {
			if got, want := re.MatchString(s), accept(s); got != want {
				t.Errorf("%s: the pattern matches %q: %v, the conversion reads it: %v", k, s, got, want)
			}
		}
	}
}

func TestKindInputSchemaFirstIsOutput(t *testing.T) {
	for _, name := range TypeNames() {
		k, _ := LookupKind(name)
		in := k.InputSchema()
		if len(in) == 0 || in[0]["type"] != k.Schema()["type"] && k != Time {
			t.Errorf("%s: InputSchema()[0] = %v, want the type of %v", k, in, k.Schema())
		}
	}
}

// TestFloatTextBeyondFloat64: the text form of a float never matches text
// that ParseFloat refuses, number text beyond float64 ("1e400") included,
// and matches the finite numbers as people write them.
func TestFloatTextBeyondFloat64(t *testing.T) {
	re := regexp.MustCompile(floatTextPattern)
	refused := []string{"1e400", "1e309", "-1e309", "2e308", "1.8e308", "1.7976931348623159e308", "1.79769313486231581e308", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792",
		"Infinity", "NaN", "1.", ".5", "+1", "1e", "0x10", "1_000"}
	for _, s := range refused {
		if _, ok := textconv.ParseFloat(s); ok {
			t.Fatalf("ParseFloat(%q) accepts it: fix the list", s)
		}
		if re.MatchString(s) {
			t.Errorf("the float text pattern matches %.40q", s)
		}
	}
	// What the pattern leaves out, though ParseFloat reads it: from 1e308
	// up, and absurd spellings.
	for _, s := range []string{"10e307", "1" + strings.Repeat("0", 209) + "e90", "0.01e309", "1.797693134862315800001e308"} {
		if _, ok := textconv.ParseFloat(s); !ok || re.MatchString(s) {
			t.Errorf("%.40q: ParseFloat reads it %v, the pattern matches it %v; want true, false", s, ok, re.MatchString(s))
		}
	}
	for _, s := range []string{"0", "-0", "1.5", "1e3", "1E+3", "12.50e1", "-2.5e-3", "1e-400", "9.99e307", "0.5e308",
		"1" + strings.Repeat("0", 307), "123456789e299", "0000.5", strings.Repeat("9", 209) + "e99",
		"1e308", "-1.5e308", "1.7976931348623157e308", "1.7976931348623158e+308", "1.79769313486231580000e308", "1.0e308", "1.1e308"} {
		if _, ok := textconv.ParseFloat(s); !ok {
			t.Fatalf("ParseFloat(%q) refuses it: fix the list", s)
		}
		if !re.MatchString(s) {
			t.Errorf("the float text pattern refuses %.40q", s)
		}
	}
}

// FuzzFloatTextPattern: whatever the float text pattern matches,
// ParseFloat reads as a finite number.
func FuzzFloatTextPattern(f *testing.F) {
	for _, s := range []string{"1e307", "12e300", "0.5e308", "9e99", "-0.0e-9", "1.7976931348623158e308", "1.79769313486231580e308"} {
		f.Add(s)
	}
	re := regexp.MustCompile(floatTextPattern)
	f.Fuzz(func(t *testing.T, s string) {
		if _, ok := textconv.ParseFloat(s); re.MatchString(s) && !ok {
			t.Fatalf("the pattern matches %q, which ParseFloat refuses", s)
		}
	})
}

// FuzzIntTextOf: the pattern of the integers from lo to hi matches exactly
// the text strict input reads as one of them.
func FuzzIntTextOf(f *testing.F) {
	f.Add(int64(3), int64(10000), "10000")
	f.Add(int64(-150), int64(-7), "-0099.0")
	f.Add(int64(math.MinInt64), int64(math.MaxInt64), "-9223372036854775808")
	f.Add(int64(0), int64(0), "-0")
	f.Add(int64(-7), int64(7), "-7")
	f.Add(int64(-8), int64(7), "-08")
	f.Add(int64(-5), int64(9223372036854775000), "9223372036854774999")
	f.Fuzz(func(t *testing.T, lo, hi int64, s string) {
		re := regexp.MustCompile(intTextOf(lo, hi))
		for _, text := range []string{s, strconv.FormatInt(lo, 10), strconv.FormatInt(hi, 10), strconv.FormatInt(lo-1, 10), strconv.FormatInt(hi+1, 10), strconv.FormatInt(lo/2+hi/2, 10)} {
			n, ok := textconv.ParseInt(text)
			ok = ok && !strings.ContainsAny(strings.TrimRight(text[strings.IndexByte(text+".", '.'):], "0"), "123456789")
			if want := ok && lo <= n && n <= hi; re.MatchString(text) != want {
				t.Fatalf("intTextOf(%d, %d) matches %q: %v, want %v", lo, hi, text, !want, want)
			}
		}
	})
}

// TestInputKeywords: what a rule says of a value is said of each form a
// request may send it in, where it can be: an integer enum and bounds of
// a number's text, a bool enum of 0 and 1 and of the words; the rest is
// unsaid.
func TestInputKeywords(t *testing.T) {
	match := func(form map[string]any, s string) bool {
		ok := true
		var walk func(m map[string]any)
		walk = func(m map[string]any) {
			if p, has := m["pattern"].(string); has && !regexp.MustCompile(p).MatchString(s) {
				ok = false
			}
			if l, has := m["allOf"].([]any); has {
				for _, x := range l {
					walk(x.(map[string]any))
				}
			}
		}
		walk(form)
		return ok
	}
	tests := []struct {
		name     string
		kind     Kind
		keywords map[string]any
		form     int      // the form the texts are checked against
		pass     []string // texts the form accepts
		fail     []string
		enum     []any // the form's enum, when it has one
		unsaid   []string
	}{
		{"in on a number", Int, map[string]any{"enum": []any{int64(1), int64(2), int64(3)}}, 1,
			[]string{"1", "02", "3.00", "0003"}, []string{"7", "0", "-1", "1.5", "12"}, nil, nil},
		{"in with negatives and zero", Int, map[string]any{"enum": []any{int64(-5), int64(0)}}, 1,
			[]string{"-5", "-005.0", "0", "-0", "00"}, []string{"5", "-50", "1"}, nil, nil},
		{"range on a number", Int, map[string]any{"minimum": int64(1), "maximum": int64(10000)}, 1,
			[]string{"1", "10000", "0999", "42.0"}, []string{"0", "10001", "-1", "99999"}, nil, nil},
		{"exclusive float bounds", Int, map[string]any{"exclusiveMinimum": 0.5, "exclusiveMaximum": 3.0}, 1,
			[]string{"1", "2"}, []string{"0", "3"}, nil, nil},
		{"in true on a bool, as a number", Bool, map[string]any{"enum": []any{true}}, 1, nil, nil, []any{int64(1)}, nil},
		{"in true on a bool, as a word", Bool, map[string]any{"enum": []any{true}}, 2,
			[]string{"true", "ON", "1"}, []string{"false", "0", "off"}, nil, nil},
		{"in on a float", Float, map[string]any{"enum": []any{1.5}}, 1, nil, nil, nil, []string{"enum"}},
		{"bounds of a float", Float, map[string]any{"minimum": 0.5, "maximum": int64(2)}, 1, nil, nil, nil, []string{"maximum", "minimum"}},
		{"in on a date", Time, map[string]any{"enum": []any{"2024-01-15T00:00:00Z"}}, 0, nil, nil, nil, []string{"enum"}},
		{"another keyword of a number's text", Int, map[string]any{"multipleOf": int64(2)}, 1, nil, nil, nil, []string{"multipleOf"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forms, unsaid := tt.kind.InputKeywords(tt.keywords)
			if len(forms) != len(tt.kind.InputSchema()) {
				t.Fatalf("%d forms, want %d", len(forms), len(tt.kind.InputSchema()))
			}
			if strings.Join(unsaid, ",") != strings.Join(tt.unsaid, ",") {
				t.Errorf("unsaid = %q, want %q", unsaid, tt.unsaid)
			}
			form := forms[tt.form]
			for _, s := range tt.pass {
				if !match(form, s) {
					t.Errorf("form %v refuses %q", form, s)
				}
			}
			for _, s := range tt.fail {
				if match(form, s) {
					t.Errorf("form %v accepts %q", form, s)
				}
			}
			if tt.enum != nil && !reflect.DeepEqual(form["enum"], tt.enum) {
				t.Errorf("enum = %v, want %v", form["enum"], tt.enum)
			}
		})
	}
}

// TestNoneRulesStateTheKindsTheyMeasure: on a none field, the schema of
// min, max, range, len, regex, email and in refuses exactly the JSON kinds
// the rule refuses (a bool for max 2, a number for regex).
func TestNoneRulesStateTheKindsTheyMeasure(t *testing.T) {
	kinds := []struct {
		json string
		v    Value
	}{
		{"string", StringValue("ab")}, {"number", IntValue(2)}, {"number", FloatValue(2)}, {"boolean", BoolValue(true)},
		{"array", Value{Kind: List, Len: 2, Any: []any{int64(1), int64(2)}}}, {"object", Value{Kind: Object, Len: 2, Any: map[string]any{"a": 1, "b": 2}}},
	}
	kindErrors := []error{errNotSized, errNoLength, errNotString, errNotScalar}
	set := Builtin()
	for _, tt := range []struct {
		rule string
		args []string
	}{
		{"min", []string{"2"}}, {"max", []string{"2"}}, {"range", []string{"1", "3"}}, {"len", []string{"2"}},
		{"regex", []string{"."}}, {"email", nil}, {"url", nil}, {"date", nil}, {"time", nil}, {"in", []string{"ab", "2", "true"}},
	} {
		t.Run(tt.rule, func(t *testing.T) {
			def, _ := set.Lookup(tt.rule)
			ck, err := def.Compile(tt.args, Any)
			if err != nil {
				t.Fatal(err)
			}
			schema := def.Schema(tt.args, Any)
			for _, k := range kinds {
				err := ck.Check(k.v)
				refused := false
				for _, ke := range kindErrors {
					refused = refused || err == ke
				}
				if got := schemaTakesType(schema, k.json, k.v); got == refused {
					t.Errorf("%s: the rule refuses a %s: %v; the schema takes it: %v (%v)", tt.rule, k.json, refused, got, schema)
				}
			}
		})
	}
}

// schemaTakesType reports whether a schema's "type" and "enum" let a value
// of the JSON type through (its other keywords aside).
func schemaTakesType(s map[string]any, jsonType string, v Value) bool {
	if enum, ok := s["enum"].([]any); ok {
		for _, e := range enum {
			switch e.(type) {
			case string:
				if jsonType == "string" {
					return true
				}
			case int64, float64:
				if jsonType == "number" {
					return true
				}
			case bool:
				if jsonType == "boolean" {
					return true
				}
			}
		}
		return false
	}
	switch t := s["type"].(type) {
	case string:
		return t == jsonType
	case []any:
		for _, x := range t {
			if x == jsonType {
				return true
			}
		}
		return false
	}
	return true
}
