package jsonwire

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/expose-go/expose/internal/textconv"
)

// canonicalInt must hold exactly for the strings that strconv.FormatInt
// gives back from the int64 textconv.ParseInt reads.
func TestCanonicalInt(t *testing.T) {
	for _, s := range []string{"0", "-0", "1", "-1", "007", "10", "-10", "1.0", "1.", ".1", "", "-", "+1", "1e3", " 1", "1 ",
		"123456789012345678", "-123456789012345678", "1234567890123456789", "9223372036854775807", "99999999999999999999", "0x1", "١"} {
		i, ok := textconv.ParseInt(s)
		want := ok && strconv.FormatInt(i, 10) == s && len(strings.TrimPrefix(s, "-")) <= 18
		if got := IsCanonicalInt(s); got != want {
			t.Errorf("IsCanonicalInt(%q) = %v, want %v", s, got, want)
		}
	}
}

func FuzzCanonicalInt(f *testing.F) {
	f.Add("12")
	f.Add("-0")
	f.Fuzz(func(t *testing.T, s string) {
		if !IsCanonicalInt(s) {
			return
		}
		i, ok := textconv.ParseInt(s)
		if !ok || strconv.FormatInt(i, 10) != s {
			t.Fatalf("IsCanonicalInt(%q) but ParseInt gives %d, %v", s, i, ok)
		}
	})
}

// TestIntText checks the integer texts side by side, as strings and as
// []byte: IsInt, IsShortInt, IsCanonicalInt and ParseCanonicalInt.
func TestIntText(t *testing.T) {
	tests := []struct {
		in                      string
		isInt, short, canonical bool
		n                       int64 // ParseCanonicalInt's, when canonical
		parsed                  bool  // ParseCanonicalInt's ok, when not canonical
	}{
		{"0", true, true, true, 0, false},
		{"7", true, true, true, 7, false},
		{"-7", true, true, true, -7, false},
		{"-0", true, true, false, 0, true},
		{"007", true, true, false, 0, false},
		{"", false, false, false, 0, false},
		{"-", false, false, false, 0, false},
		{"+1", false, false, false, 0, false},
		{"1.0", false, false, false, 0, false},
		{"1e3", false, false, false, 0, false},
		{" 1", false, false, false, 0, false},
		{"999999999999999", true, true, true, 999999999999999, false},
		{"1000000000000000", true, false, true, 1000000000000000, false},
		{"-123456789012345678", true, false, true, -123456789012345678, false},
		{"1234567890123456789", true, false, false, 0, false},
		{"99999999999999999999999999999", true, false, false, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := IsInt(tt.in); got != tt.isInt {
				t.Errorf("IsInt = %v, want %v", got, tt.isInt)
			}
			if got := IsInt([]byte(tt.in)); got != tt.isInt {
				t.Errorf("IsInt([]byte) = %v, want %v", got, tt.isInt)
			}
			if got := IsShortInt(tt.in); got != tt.short {
				t.Errorf("IsShortInt = %v, want %v", got, tt.short)
			}
			if got := IsCanonicalInt([]byte(tt.in)); got != tt.canonical {
				t.Errorf("IsCanonicalInt([]byte) = %v, want %v", got, tt.canonical)
			}
			n, ok := ParseCanonicalInt([]byte(tt.in))
			if want := tt.canonical || tt.parsed; ok != want || n != tt.n {
				t.Errorf("ParseCanonicalInt([]byte) = %d, %v; want %d, %v", n, ok, tt.n, want)
			}
			if n2, ok2 := ParseCanonicalInt(tt.in); n2 != n || ok2 != ok {
				t.Errorf("ParseCanonicalInt = %d, %v; the []byte gives %d, %v", n2, ok2, n, ok)
			}
		})
	}
}

// FuzzIsNumber checks IsNumber, and so NumberEnd, against encoding/json: a
// number is text json.Valid accepts with no white space around it that
// starts as a number does.
func FuzzIsNumber(f *testing.F) {
	for _, s := range []string{"0", "-0.5e+10", "01", "1.", ".5", "1e", "-", "", "12 ", "true", "1E400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := s != "" && IsNumberStart(s[0]) && !IsSpace(s[len(s)-1]) && json.Valid([]byte(s))
		if got := IsNumber(s); got != want {
			t.Fatalf("IsNumber(%q) = %v, want %v", s, got, want)
		}
	})
}

// TestAppendFloat checks the spelling of floats against encoding/json's.
func TestAppendFloat(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 0.1, 1e6, 1e20, 1e21, 1e-6, 1e-7, 123456789.125, -2.5e-9, 1.7976931348623157e308, 5e-324} {
		want, _ := json.Marshal(f)
		if got := AppendFloat(nil, f, 64); string(got) != string(want) {
			t.Errorf("AppendFloat(%g, 64) = %s, want %s", f, got, want)
		}
		f32 := float32(f)
		if math.IsInf(float64(f32), 0) {
			continue // beyond float32
		}
		want, _ = json.Marshal(f32)
		if got := AppendFloat(nil, float64(f32), 32); string(got) != string(want) {
			t.Errorf("AppendFloat(%g, 32) = %s, want %s", f32, got, want)
		}
	}
}
