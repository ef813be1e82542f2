package textconv

import (
	"math"
	"math/big"
	"testing"
)

func TestTruncInt(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int64
		ok   bool
	}{
		{"zero", "0", 0, true},
		{"negative zero", "-0", 0, true},
		{"integer", "42", 42, true},
		{"leading zeros", "007", 7, true},
		{"fraction truncated", "12.7", 12, true},
		{"negative fraction toward zero", "-3.9", -3, true},
		{"nines below minus one are zero", "-0.99999999999999999", 0, true},
		{"nines after a billion kept exact", "1000000000.99999999", 1000000000, true},
		{"beyond 2^53 exact", "9007199254740993.0", 9007199254740993, true},
		{"exponent", "1e5", 100000, true},
		{"upper-case exponent", "1E5", 100000, true},
		{"exponent with plus", "1e+5", 100000, true},
		{"exponent moves the point", "1.5e1", 15, true},
		{"exponent leaves a fraction", "1.55e1", 15, true},
		{"negative exponent", "12345e-2", 123, true},
		{"negative exponent below one", "5e-1", 0, true},
		{"tiny", "1e-400", 0, true},
		{"zero with huge exponent", "0e999999999999999999999", 0, true},
		{"zero fraction with huge exponent", "0.000e400", 0, true},
		{"fraction zeros then digits", "0.0012e4", 12, true},
		{"max int64", "9223372036854775807", math.MaxInt64, true},
		{"max int64 with fraction", "9223372036854775807.999", math.MaxInt64, true},
		{"max int64 in exponent form", "9.223372036854775807e18", math.MaxInt64, true},
		{"min int64", "-9223372036854775808", math.MinInt64, true},
		{"min int64 with fraction", "-9223372036854775808.5", math.MinInt64, true},
		{"min int64 in exponent form", "-922337203685477580.8e1", math.MinInt64, true},

		{"above max int64", "9223372036854775808", 0, false},
		{"below min int64", "-9223372036854775809", 0, false},
		{"above max in exponent form", "9.223372036854775808e18", 0, false},
		{"twenty digits", "10000000000000000000", 0, false},
		{"huge exponent", "1e999999999999999999999", 0, false},
		{"negative huge exponent", "-1e400", 0, false},
		{"empty", "", 0, false},
		{"minus alone", "-", 0, false},
		{"plus sign", "+1", 0, false},
		{"leading dot", ".5", 0, false},
		{"trailing dot", "1.", 0, false},
		{"exponent without digits", "1e", 0, false},
		{"exponent sign without digits", "1e+", 0, false},
		{"space", " 1", 0, false},
		{"NaN", "NaN", 0, false},
		{"Inf", "Inf", 0, false},
		{"hex", "0x10", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := TruncInt(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("TruncInt(%q) = %d, %t; want %d, %t", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestCompareDecimal(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want int
	}{
		{"equal integers", "5", "5", 0},
		{"less", "1", "5", -1},
		{"greater", "5", "1", 1},
		{"zero and negative zero", "0", "-0", 0},
		{"zero forms", "0.000", "-0e5", 0},
		{"negative below positive", "-1", "1", -1},
		{"negatives reversed", "-5", "-1", -1},
		{"int64 bounds float64 confuses", "9223372036854775807", "9223372036854775806", 1},
		{"beyond 2^53", "9007199254740993", "9007199254740992", 1},
		{"digit float64 drops", "0.30000000000000001", "0.3", 1},
		{"trailing zeros", "1.500", "1.5", 0},
		{"leading zeros", "007", "7", 0},
		{"exponent form equal", "1.5e1", "15", 0},
		{"upper-case exponent", "1E2", "100", 0},
		{"exponent form less", "9.99e1", "100", -1},
		{"small fractions", "0.001", "0.01", -1},
		{"negative fractions", "-0.001", "-0.01", 1},
		{"zero below positive fraction", "0", "1e-400", -1},
		{"negative fraction below zero", "-1e-400", "0", -1},
		{"huge exponents", "1e999999999999999999999", "2e999999999999999999999", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CompareDecimal(tt.a, tt.b); got != tt.want {
				t.Errorf("compareDecimal(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
			if got := CompareDecimal(tt.b, tt.a); got != -tt.want {
				t.Errorf("compareDecimal(%q, %q) = %d, want %d", tt.b, tt.a, got, -tt.want)
			}
		})
	}
}

func TestCeilFloorDecimal(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		ceil    int64
		ceilOK  bool
		floor   int64
		floorOK bool
	}{
		{"integer", "5", 5, true, 5, true},
		{"positive fraction", "2.5", 3, true, 2, true},
		{"negative fraction", "-2.5", -2, true, -3, true},
		{"negative below one", "-0.5", 0, true, -1, true},
		{"exponent form integer", "1.5e1", 15, true, 15, true},
		{"just below max int64", "9223372036854775806.5", math.MaxInt64, true, math.MaxInt64 - 1, true},
		{"just above max int64", "9223372036854775807.5", 0, false, math.MaxInt64, true},
		{"far above", "1e30", 0, false, math.MaxInt64, true},
		{"just below min int64", "-9223372036854775808.5", math.MinInt64, true, 0, false},
		{"far below", "-1e30", math.MinInt64, true, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if n, ok := CeilDecimal(tt.in); n != tt.ceil || ok != tt.ceilOK {
				t.Errorf("ceilDecimal(%q) = %d, %t; want %d, %t", tt.in, n, ok, tt.ceil, tt.ceilOK)
			}
			if n, ok := FloorDecimal(tt.in); n != tt.floor || ok != tt.floorOK {
				t.Errorf("floorDecimal(%q) = %d, %t; want %d, %t", tt.in, n, ok, tt.floor, tt.floorOK)
			}
		})
	}
}

func TestPlainDecimal(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // "" when too long
	}{
		{"integer", "42", "42"},
		{"negative zero", "-0", "0"},
		{"trailing zeros", "2.50", "2.5"},
		{"leading zeros", "007.5", "7.5"},
		{"exponent", "9.2e1", "92"},
		{"large exponent", "1e30", "1000000000000000000000000000000"},
		{"negative exponent", "-2.5e-2", "-0.025"},
		{"point inside the digits", "12345e-2", "123.45"},
		{"int64 exactly", "9.223372036854775807e18", "9223372036854775807"},
		{"too long", "1e100", ""},
		{"too small", "1e-100", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := PlainDecimal(tt.in)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("plainDecimal(%q) = %q, %t; want %q", tt.in, got, ok, tt.want)
			}
		})
	}
}

func TestTruncIntAllocs(t *testing.T) {
	for _, s := range []string{"9007199254740993.0", "-1.5e3", "1e400"} {
		if n := testing.AllocsPerRun(100, func() { TruncInt(s) }); n != 0 {
			t.Errorf("TruncInt(%q): %g allocations, want 0", s, n)
		}
	}
}

// FuzzTruncInt checks TruncInt and compareDecimal against math/big's exact
// rationals, on text with exponents small enough for big.Rat.
func FuzzTruncInt(f *testing.F) {
	for _, s := range []string{"0", "-0.99999999999999999", "1e5", "9223372036854775807.5", "-9223372036854775808", "1.5e-3", "007"} {
		f.Add(s, "1")
	}
	minI, maxI := big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	f.Fuzz(func(t *testing.T, s, other string) {
		d, ok := parseDecimal(s)
		if ok != isDecimal(s) {
			t.Fatalf("parseDecimal(%q) ok = %t", s, ok)
		}
		if !ok || d.point > 400 || d.point < -400 || len(s) > 500 {
			TruncInt(s) // must not panic
			return
		}
		r, rok := new(big.Rat).SetString(s)
		if !rok {
			t.Fatalf("big.Rat cannot read %q", s)
		}
		q := new(big.Int).Quo(r.Num(), r.Denom()) // truncated toward zero
		n, ok := TruncInt(s)
		inRange := q.Cmp(minI) >= 0 && q.Cmp(maxI) <= 0
		if ok != inRange || ok && n != q.Int64() {
			t.Fatalf("TruncInt(%q) = %d, %t; want %s, %t", s, n, ok, q, inRange)
		}
		o, ook := parseDecimal(other)
		if !ook || o.point > 400 || o.point < -400 || len(other) > 500 {
			return
		}
		ro, _ := new(big.Rat).SetString(other)
		if got, want := CompareDecimal(s, other), r.Cmp(ro); got != want {
			t.Fatalf("compareDecimal(%q, %q) = %d, want %d", s, other, got, want)
		}
	})
}

func TestExactInt(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"12", 12, true},
		{"12.0", 12, true},
		{"12.000", 12, true},
		{"-3", -3, true},
		{"-0", 0, true},
		{"007", 7, true},
		{"1e3", 1000, true},
		{"1.5e1", 15, true},
		{"12.5", 12, false},
		{"1e-1", 0, false},
		{"0.0000000000000000001", 0, false},
		{"9223372036854775807", 9223372036854775807, true},
		{"9223372036854775808", 0, false},
		{"-9223372036854775808", -9223372036854775808, true},
		{"+27", 0, false},
		{" 27", 0, false},
		{"abc", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			n, ok := ExactInt(tt.in)
			if ok != tt.ok || ok && n != tt.want {
				t.Errorf("ExactInt(%q) = %d, %t; want %d, %t", tt.in, n, ok, tt.want, tt.ok)
			}
		})
	}
}
