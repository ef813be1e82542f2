package textconv

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseInt(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int64
		ok   bool
	}{
		{"zero", "0", 0, true},
		{"digit", "7", 7, true},
		{"leading zeros", "007", 7, true},
		{"negative", "-42", -42, true},
		{"negative zero", "-0", 0, true},
		{"fraction truncated", "12.7", 12, true},
		{"negative fraction truncated toward zero", "-3.9", -3, true},
		{"negative fraction below one", "-0.5", 0, true},
		{"long fraction", "1.00000000000000000000000009", 1, true},
		{"max int64", "9223372036854775807", math.MaxInt64, true},
		{"max int64 with fraction", "9223372036854775807.99", math.MaxInt64, true},
		{"min int64", "-9223372036854775808", math.MinInt64, true},
		{"min int64 with fraction", "-9223372036854775808.9", math.MinInt64, true},
		{"leading zeros before max", "0009223372036854775807", math.MaxInt64, true},

		{"empty", "", 0, false},
		{"minus alone", "-", 0, false},
		{"dot alone", ".", 0, false},
		{"trailing dot", "1.", 0, false},
		{"leading dot", ".5", 0, false},
		{"minus leading dot", "-.5", 0, false},
		{"two dots", "1.2.3", 0, false},
		{"plus", "+1", 0, false},
		{"exponent", "1e5", 0, false},
		{"leading space", " 1", 0, false},
		{"trailing space", "1 ", 0, false},
		{"letters", "abc", 0, false},
		{"trailing letter", "12a", 0, false},
		{"hex", "0x10", 0, false},
		{"underscore", "1_000", 0, false},
		{"two minus signs", "--1", 0, false},
		{"arabic digit", "١", 0, false},
		{"above max int64", "9223372036854775808", 0, false},
		{"below min int64", "-9223372036854775809", 0, false},
		{"far above", "99999999999999999999", 0, false},
		{"above max with fraction", "9223372036854775808.0", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseInt(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("ParseInt(%q) = %d, %t; want %d, %t", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestParseFloat(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want float64
		ok   bool
	}{
		{"zero", "0", 0, true},
		{"integer", "42", 42, true},
		{"negative", "-2.5", -2.5, true},
		{"leading zeros", "007.50", 7.5, true},
		{"exponent", "1e5", 1e5, true},
		{"upper case exponent", "1E5", 1e5, true},
		{"plus exponent", "1e+5", 1e5, true},
		{"minus exponent", "1e-5", 1e-5, true},
		{"fraction and exponent", "2.5e3", 2500, true},
		{"largest float", "1.7976931348623157e308", math.MaxFloat64, true},
		{"underflow is zero", "1e-400", 0, true},
		{"beyond int64", "9223372036854775808", 9223372036854775808, true},

		{"overflow", "1e309", 0, false},
		{"negative overflow", "-1e309", 0, false},
		{"huge exponent", "1e99999999999999999999", 0, false},
		{"empty", "", 0, false},
		{"minus alone", "-", 0, false},
		{"dot alone", ".", 0, false},
		{"trailing dot", "1.", 0, false},
		{"leading dot", ".5", 0, false},
		{"plus", "+1", 0, false},
		{"exponent without digits", "1e", 0, false},
		{"exponent sign without digits", "1e+", 0, false},
		{"exponent alone", "e5", 0, false},
		{"dot before exponent", "1.e5", 0, false},
		{"Inf", "Inf", 0, false},
		{"inf", "inf", 0, false},
		{"NaN", "NaN", 0, false},
		{"hex float", "0x1p3", 0, false},
		{"underscore", "1_0", 0, false},
		{"leading space", " 1", 0, false},
		{"two dots", "1.2.3", 0, false},
		{"two minus signs", "--1", 0, false},
		{"comma", "1,5", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseFloat(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("ParseFloat(%q) = %g, %t; want %g, %t", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
	if f, _ := ParseFloat("-0"); !math.Signbit(f) {
		t.Errorf("ParseFloat(%q) = %g, want -0", "-0", f)
	}
}

func TestParseBool(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
		ok   bool
	}{
		{"true", "true", true, true},
		{"TRUE", "TRUE", true, true},
		{"True", "True", true, true},
		{"false", "false", false, true},
		{"FaLsE", "FaLsE", false, true},
		{"on", "on", true, true},
		{"ON", "ON", true, true},
		{"off", "off", false, true},
		{"Off", "Off", false, true},
		{"one", "1", true, true},
		{"zero", "0", false, true},

		{"empty", "", false, false},
		{"yes", "yes", false, false},
		{"no", "no", false, false},
		{"t", "t", false, false},
		{"f", "f", false, false},
		{"two", "2", false, false},
		{"padded", " true", false, false},
		{"trueish", "truee", false, false},
		{"kelvin sign", "\u212arue", false, false}, // EqualFold folds K, not t
		{"01", "01", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseBool(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("ParseBool(%q) = %t, %t; want %t, %t", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestParseTime(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // in RFC 3339 with nanoseconds, or "" when rejected
	}{
		{"date", "2024-02-29", "2024-02-29T00:00:00Z"},
		{"date one-digit month and day", "2024-2-9", "2024-02-09T00:00:00Z"},
		{"date one-digit day", "2024-02-9", "2024-02-09T00:00:00Z"},
		{"date with slashes", "2024/02/29", "2024-02-29T00:00:00Z"},
		{"date with slashes one-digit", "2024/2/9", "2024-02-09T00:00:00Z"},
		{"year zero", "0000-01-01", "0000-01-01T00:00:00Z"},
		{"year 2000 is leap", "2000-02-29", "2000-02-29T00:00:00Z"},
		{"last day of year", "9999-12-31", "9999-12-31T00:00:00Z"},
		{"RFC 3339 UTC", "2024-02-29T12:34:56Z", "2024-02-29T12:34:56Z"},
		{"RFC 3339 nanoseconds", "2024-02-29T12:34:56.123456789Z", "2024-02-29T12:34:56.123456789Z"},
		{"RFC 3339 milliseconds", "2024-02-29T12:34:56.5Z", "2024-02-29T12:34:56.5Z"},
		{"RFC 3339 tenth digit ignored", "2024-02-29T12:34:56.1234567899Z", "2024-02-29T12:34:56.123456789Z"},
		{"RFC 3339 positive offset", "2024-02-29T12:34:56+02:00", "2024-02-29T10:34:56Z"},
		{"RFC 3339 half-hour offset", "2024-02-29T01:00:00+05:30", "2024-02-28T19:30:00Z"},
		{"RFC 3339 negative offset", "2024-12-31T23:00:00-07:00", "2025-01-01T06:00:00Z"},
		{"RFC 3339 zero offset", "2024-02-29T12:00:00-00:00", "2024-02-29T12:00:00Z"},
		{"RFC 3339 lower-case t", "2024-02-29t12:34:56Z", "2024-02-29T12:34:56Z"},
		{"RFC 3339 lower-case z", "2024-02-29T12:34:56z", "2024-02-29T12:34:56Z"},
		{"RFC 3339 lower-case t and z", "2024-02-29t12:30:45z", "2024-02-29T12:30:45Z"},
		{"RFC 3339 lower-case t with offset", "2024-02-29t12:30:45.5+01:00", "2024-02-29T11:30:45.5Z"},
		{"date and time", "2024-02-29 12:34:56", "2024-02-29T12:34:56Z"},
		{"date and time with fraction", "2024-02-29 12:34:56.25", "2024-02-29T12:34:56.25Z"},
		{"midnight", "2024-02-29 00:00:00", "2024-02-29T00:00:00Z"},
		{"last second", "2024-02-29 23:59:59", "2024-02-29T23:59:59Z"},

		{"empty", "", ""},
		{"not a date", "yesterday", ""},
		{"February 29 in a common year", "2023-02-29", ""},
		{"February 30", "2023-02-30", ""},
		{"1900 is not leap", "1900-02-29", ""},
		{"April 31", "2023-04-31", ""},
		{"month 13", "2023-13-01", ""},
		{"month 0", "2023-00-10", ""},
		{"day 0", "2023-01-00", ""},
		{"day 32", "2023-01-32", ""},
		{"mixed separators", "2024-02/29", ""},
		{"dots", "2024.02.29", ""},
		{"two-digit year", "24-02-29", ""},
		{"five-digit year", "20240-02-29", ""},
		{"three-digit month", "2024-002-9", ""},
		{"no separators", "20240229", ""},
		{"missing day", "2024-02-", ""},
		{"negative year", "-2024-02-29", ""},
		{"trailing space", "2024-02-29 ", ""},
		{"RFC 3339 without zone", "2024-02-29T12:34:56", ""},
		{"date and time with lower-case z", "2024-02-29 12:00:00z", ""},
		{"RFC 3339 lower-case t without zone", "2024-02-29t12:34:56", ""},
		{"RFC 3339 other letter for t", "2024-02-29x12:34:56Z", ""},
		{"RFC 3339 hour 24", "2024-02-29T24:00:00Z", ""},
		{"RFC 3339 minute 60", "2024-02-29T12:60:00Z", ""},
		{"RFC 3339 leap second", "2024-02-29T23:59:60Z", ""},
		{"RFC 3339 offset hour 24", "2024-02-29T12:00:00+24:00", ""},
		{"RFC 3339 offset minute 60", "2024-02-29T12:00:00+01:60", ""},
		{"RFC 3339 offset without colon", "2024-02-29T12:00:00+0200", ""},
		{"RFC 3339 offset hours only", "2024-02-29T12:00:00+02", ""},
		{"RFC 3339 without seconds", "2024-02-29T12:00Z", ""},
		{"RFC 3339 empty fraction", "2024-02-29T12:00:00.Z", ""},
		{"RFC 3339 comma fraction", "2024-02-29T12:00:00,5Z", ""},
		{"RFC 3339 one-digit month", "2024-2-29T12:00:00Z", ""},
		{"RFC 3339 one-digit hour", "2024-02-29T1:00:00Z", ""},
		{"RFC 3339 with slashes", "2024/02/29T12:00:00Z", ""},
		{"RFC 3339 invalid date", "2023-02-29T12:00:00Z", ""},
		{"RFC 3339 trailing text", "2024-02-29T12:00:00Zx", ""},
		{"date and time with zone", "2024-02-29 12:00:00Z", ""},
		{"date and time without seconds", "2024-02-29 12:00", ""},
		{"date and time with slashes", "2024/02/29 12:00:00", ""},
		{"date and time hour 24", "2024-02-29 24:00:00", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseTime(tt.in)
			switch {
			case tt.want == "" && ok:
				t.Errorf("ParseTime(%q) = %v, true; want false", tt.in, got)
			case tt.want != "" && !ok:
				t.Errorf("ParseTime(%q) = false, want %s", tt.in, tt.want)
			case ok && got.Format(time.RFC3339Nano) != tt.want:
				t.Errorf("ParseTime(%q) = %s, want %s", tt.in, got.Format(time.RFC3339Nano), tt.want)
			case ok && got.Location() != time.UTC:
				t.Errorf("ParseTime(%q) location = %v, want UTC", tt.in, got.Location())
			}
		})
	}
}

func TestFloatToTime(t *testing.T) {
	tests := []struct {
		name string
		in   float64
		want string // or "" when rejected
	}{
		{"epoch", 0, "1970-01-01T00:00:00Z"},
		{"milliseconds", 1709210096123, "2024-02-29T12:34:56.123Z"},
		{"fraction dropped", 1.9, "1970-01-01T00:00:00.001Z"},
		{"negative fraction toward zero", -1.9, "1969-12-31T23:59:59.999Z"},
		{"before the epoch", -86400000, "1969-12-31T00:00:00Z"},
		{"negative zero", math.Copysign(0, -1), "1970-01-01T00:00:00Z"},
		{"min int64", -(1 << 63), time.UnixMilli(math.MinInt64).UTC().Format(time.RFC3339Nano)},
		{"largest below 2^63", math.Nextafter(1<<63, 0), time.UnixMilli(1<<63 - 1024).UTC().Format(time.RFC3339Nano)},

		{"NaN", math.NaN(), ""},
		{"+Inf", math.Inf(1), ""},
		{"-Inf", math.Inf(-1), ""},
		{"2^63", 1 << 63, ""},
		{"below min int64", math.Nextafter(-(1 << 63), math.Inf(-1)), ""},
		{"huge", 1e300, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := FloatToTime(tt.in)
			switch {
			case tt.want == "" && ok:
				t.Errorf("FloatToTime(%g) = %v, true; want false", tt.in, got)
			case tt.want != "" && !ok:
				t.Errorf("FloatToTime(%g) = false, want %s", tt.in, tt.want)
			case ok && got.Format(time.RFC3339Nano) != tt.want:
				t.Errorf("FloatToTime(%g) = %s, want %s", tt.in, got.Format(time.RFC3339Nano), tt.want)
			case ok && got.Location() != time.UTC:
				t.Errorf("FloatToTime(%g) location = %v, want UTC", tt.in, got.Location())
			}
		})
	}
}

func TestIntToTime(t *testing.T) {
	tests := []struct {
		name string
		in   int64
		want string
	}{
		{"epoch", 0, "1970-01-01T00:00:00Z"},
		{"milliseconds", 1709210096123, "2024-02-29T12:34:56.123Z"},
		{"one before the epoch", -1, "1969-12-31T23:59:59.999Z"},
		{"JavaScript maximum", 8.64e15, "275760-09-13T00:00:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := IntToTime(tt.in)
			if s := got.Format(time.RFC3339Nano); s != tt.want {
				t.Errorf("IntToTime(%d) = %s, want %s", tt.in, s, tt.want)
			}
			if got.Location() != time.UTC {
				t.Errorf("IntToTime(%d) location = %v, want UTC", tt.in, got.Location())
			}
		})
	}
	for _, ms := range []int64{math.MaxInt64, math.MinInt64} {
		if got, want := IntToTime(ms), time.UnixMilli(ms); !got.Equal(want) {
			t.Errorf("IntToTime(%d) = %v, want %v", ms, got, want)
		}
	}
}

func TestIntToBool(t *testing.T) {
	tests := []struct {
		name   string
		in     int64
		want   bool
		wantOK bool
	}{
		{"one", 1, true, true},
		{"zero", 0, false, true},
		{"two", 2, false, false},
		{"minus one", -1, false, false},
		{"max", math.MaxInt64, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := IntToBool(tt.in)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("IntToBool(%d) = %t, %t; want %t, %t", tt.in, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestFloatToBool(t *testing.T) {
	tests := []struct {
		name   string
		in     float64
		want   bool
		wantOK bool
	}{
		{"one", 1, true, true},
		{"zero", 0, false, true},
		{"negative zero", math.Copysign(0, -1), false, true},
		{"half", 0.5, false, false},
		{"nearly one", math.Nextafter(1, 0), false, false},
		{"two", 2, false, false},
		{"minus one", -1, false, false},
		{"NaN", math.NaN(), false, false},
		{"+Inf", math.Inf(1), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := FloatToBool(tt.in)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("FloatToBool(%g) = %t, %t; want %t, %t", tt.in, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// Sinks for the results of calls timed or counted in tests.
var (
	sinkInt  int64
	sinkOK   bool
	sinkTime time.Time
)

func TestParseAllocs(t *testing.T) {
	tests := []struct {
		name string
		f    func()
	}{
		{"ParseInt", func() { sinkInt, sinkOK = ParseInt("-9223372036854775808.5") }},
		{"ParseInt rejects", func() { sinkInt, sinkOK = ParseInt("12x") }},
		{"ParseFloat", func() { ParseFloat("-2.5e3") }},
		{"ParseFloat rejects", func() { ParseFloat("1.2.3") }},
		{"ParseBool", func() { ParseBool("FALSE") }},
		{"ParseBool rejects", func() { ParseBool("maybe") }},
		{"ParseTime date", func() { ParseTime("2024/2/29") }},
		{"ParseTime RFC 3339 offset", func() { ParseTime("2024-02-29T12:34:56.123+05:30") }},
		{"ParseTime rejects", func() { ParseTime("2023-02-29T12:34:56Z") }},
		{"FloatToTime", func() { FloatToTime(1709210096123.5) }},
		{"IntToTime", func() { sinkTime = IntToTime(1709210096123) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(100, tt.f); n != 0 {
				t.Errorf("%g allocations, want 0", n)
			}
		})
	}
}

// intGrammar is the syntax ParseInt accepts, for the fuzz reference.
var intGrammar = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

func FuzzParseInt(f *testing.F) {
	for _, s := range []string{
		"0", "007", "-0.5", "12.7", "-3.9", "1.", ".5", "+1", "1e5", " 1",
		"9223372036854775807", "-9223372036854775808", "9223372036854775808",
		"-9223372036854775809.1", "1.2.3", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParseInt(s)
		if !intGrammar.MatchString(s) {
			if ok {
				t.Fatalf("ParseInt(%q) = %d, true; want false (not in the grammar)", s, got)
			}
			return
		}
		whole, _, _ := strings.Cut(s, ".")
		want, err := strconv.ParseInt(whole, 10, 64)
		if ok != (err == nil) || ok && got != want {
			t.Fatalf("ParseInt(%q) = %d, %t; strconv.ParseInt(%q) = %d, %v", s, got, ok, whole, want, err)
		}
	})
}

// floatGrammar is the syntax ParseFloat accepts, for the fuzz reference.
var floatGrammar = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"0", "-2.5e3", "1e309", "1e-400", "1.", ".5", "Inf", "NaN", "0x1p3", "1_0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParseFloat(s)
		if !floatGrammar.MatchString(s) {
			if ok {
				t.Fatalf("ParseFloat(%q) = %g, true; want false (not in the grammar)", s, got)
			}
			return
		}
		want, err := strconv.ParseFloat(s, 64)
		if ok != (err == nil) || ok && math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("ParseFloat(%q) = %g, %t; strconv.ParseFloat = %g, %v", s, got, ok, want, err)
		}
	})
}

// rfc3339 is the strict syntax of RFC 3339 that ParseTime accepts, with
// offsets below 24 hours (time.Parse also takes +24:00 and +01:60).
var rfc3339 = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$`)

// dateSpaceTime is the syntax of ParseTime's "2006-01-02 15:04:05" form.
var dateSpaceTime = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?$`)

// FuzzParseTime checks ParseTime against time.Parse: in the RFC 3339 form
// against time.RFC3339Nano, in the space-separated form against its layout,
// and in the date-only forms against the date rewritten as YYYY-MM-DD.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{
		"2024-02-29", "2024/2/9", "2023-02-29", "2024-02-29T12:34:56.123456789Z",
		"2024-02-29T01:00:00+05:30", "2024-02-29 12:34:56", "2024-02-29T24:00:00Z",
		"2024-02-29T12:00:00+24:00", "0000-01-01T00:00:00-23:59", "2024-02-29t12:30:45z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParseTime(s)
		if ok && got.Location() != time.UTC {
			t.Fatalf("ParseTime(%q) location = %v, want UTC", s, got.Location())
		}
		var want time.Time
		var err error
		switch {
		case len(s) > 10 && (s[10] == 'T' || s[10] == 't'):
			// RFC 3339 allows "t" and "z" in lower case; time.Parse
			// does not: it reads the text with them in upper case.
			u := []byte(s)
			u[10] = 'T'
			if u[len(u)-1] == 'z' {
				u[len(u)-1] = 'Z'
			}
			want, err = time.Parse(time.RFC3339Nano, string(u))
			if err == nil && !rfc3339.MatchString(string(u)) {
				// time.Parse is more lenient than RFC 3339 (one-digit
				// hours, comma fractions, offsets of 24 hours): only its
				// answers on the strict syntax are a reference.
				if ok {
					t.Fatalf("ParseTime(%q) = %v, true; want false (not RFC 3339)", s, got)
				}
				return
			}
		case len(s) > 10 && s[10] == ' ':
			want, err = time.Parse("2006-01-02 15:04:05", s)
			if err == nil && !dateSpaceTime.MatchString(s) {
				if ok {
					t.Fatalf("ParseTime(%q) = %v, true; want false", s, got)
				}
				return
			}
		default:
			norm, valid := normalizeDate(s)
			if !valid {
				if ok {
					t.Fatalf("ParseTime(%q) = %v, true; want false (not a date)", s, got)
				}
				return
			}
			want, err = time.Parse("2006-01-02", norm)
		}
		if ok != (err == nil) || ok && !got.Equal(want) {
			t.Fatalf("ParseTime(%q) = %v, %t; time.Parse = %v, %v", s, got, ok, want, err)
		}
	})
}

// dateSyntax is ParseTime's syntax of a date alone: a four-digit year and
// a month and day of one or two digits, separated by '-' or '/' (the date
// rule's syntax; package rules' tests hold the same reference).
var dateSyntax = regexp.MustCompile(`^([0-9]{4})([-/])([0-9]{1,2})([-/])([0-9]{1,2})$`)

// normalizeDate rewrites a string of dateSyntax as YYYY-MM-DD. It reports
// false when s is not of that syntax.
func normalizeDate(s string) (string, bool) {
	m := dateSyntax.FindStringSubmatch(s)
	if m == nil || m[2] != m[4] {
		return "", false
	}
	pad := func(s string) string { return strings.Repeat("0", 2-len(s)) + s }
	return m[1] + "-" + pad(m[3]) + "-" + pad(m[5]), true
}
