package textconv

import "math"

// Exact decimal arithmetic on number text: what a json.Number or a rule's
// bound means, read without going through float64 (which rounds every
// integer beyond 2⁵³ and every long fraction). Nothing here allocates.

// decimal is the text of a decimal number (as isDecimal accepts it) read as
// sign, significant digits and the position of the point: the value is
// ±0.d₁d₂d₃… × 10^point. The digits are those of the integer part (lead,
// its leading zeros dropped) followed by those of the fraction (tail, its
// leading zeros dropped too when lead is empty), so that the first digit is
// not 0 unless the number is zero; trailing zeros are kept and weigh
// nothing.
type decimal struct {
	neg        bool
	lead, tail string
	point      int
}

// maxExp bounds the exponents decimal keeps: beyond it every comparison and
// truncation has the same result, and point cannot overflow.
const maxExp = 1 << 40

// parseDecimal reads s, which must match -?digits(.digits)?([eE][+-]?digits)?.
func parseDecimal(s string) (decimal, bool) {
	if !isDecimal(s) {
		return decimal{}, false
	}
	var d decimal
	i := 0
	if s[0] == '-' {
		d.neg = true
		i++
	}
	end := SkipDigits(s, i)
	for i < end && s[i] == '0' {
		i++
	}
	d.lead = s[i:end]
	i = end
	if i < len(s) && s[i] == '.' {
		end = SkipDigits(s, i+1)
		d.tail = s[i+1 : end]
		i = end
	}
	d.point = len(d.lead)
	if d.lead == "" {
		j := 0
		for j < len(d.tail) && d.tail[j] == '0' {
			j++
		}
		d.tail = d.tail[j:]
		d.point = -j
	}
	if i < len(s) { // the exponent
		i++
		eneg := s[i] == '-'
		if s[i] == '+' || s[i] == '-' {
			i++
		}
		e := 0
		for ; i < len(s); i++ {
			if e < maxExp {
				e = e*10 + int(s[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
		d.point += e
	}
	return d, true
}

// digit returns the k-th significant digit (from 0), or 0 past the last.
func (d *decimal) digit(k int) byte {
	if k < len(d.lead) {
		return d.lead[k] - '0'
	}
	if k -= len(d.lead); k < len(d.tail) {
		return d.tail[k] - '0'
	}
	return 0
}

// ndigits returns the number of significant digits, trailing zeros
// included.
func (d *decimal) ndigits() int { return len(d.lead) + len(d.tail) }

// isZero reports whether every digit is 0.
func (d *decimal) isZero() bool {
	if d.lead != "" {
		return false // lead starts with a non-zero digit
	}
	for i := 0; i < len(d.tail); i++ {
		if d.tail[i] != '0' {
			return false
		}
	}
	return true
}

// compareMagnitude compares |a| and |b|: -1, 0 or +1.
func compareMagnitude(a, b *decimal) int {
	az, bz := a.isZero(), b.isZero()
	switch {
	case az && bz:
		return 0
	case az:
		return -1
	case bz:
		return 1
	case a.point != b.point:
		if a.point < b.point {
			return -1
		}
		return 1
	}
	for k := range max(a.ndigits(), b.ndigits()) {
		if x, y := a.digit(k), b.digit(k); x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// compareDecimal compares the numbers a and b exactly: -1, 0 or +1. Both
// must be decimal text (ParseFloat's syntax); -0 equals 0.
func CompareDecimal(a, b string) int {
	x, _ := parseDecimal(a)
	y, _ := parseDecimal(b)
	xneg := x.neg && !x.isZero()
	yneg := y.neg && !y.isZero()
	switch {
	case xneg && !yneg:
		return -1
	case !xneg && yneg:
		return 1
	case xneg:
		return compareMagnitude(&y, &x)
	}
	return compareMagnitude(&x, &y)
}

// truncDecimal returns the integer part of d, truncated toward zero, and
// whether a non-zero fraction was dropped. fit is 0 when the integer part
// lies in int64, +1 when it is above MaxInt64 and -1 when below MinInt64.
func truncDecimal(d *decimal) (n int64, frac bool, fit int) {
	if d.isZero() {
		return 0, false, 0
	}
	limit := uint64(math.MaxInt64)
	if d.neg {
		limit++
	}
	var u uint64
	for k := 0; k < d.point; k++ {
		if k >= 19 { // the first digit is not 0: 20 digits are ≥ 10¹⁹ > 2⁶³
			return 0, false, overflow(d.neg)
		}
		x := uint64(d.digit(k))
		if u > (limit-x)/10 {
			return 0, false, overflow(d.neg)
		}
		u = u*10 + x
	}
	for k := max(d.point, 0); k < d.ndigits(); k++ {
		if d.digit(k) != 0 {
			frac = true
			break
		}
	}
	if d.neg {
		return int64(-u), frac, 0 // two's complement: right for u == 1<<63 too
	}
	return int64(u), frac, 0
}

func overflow(neg bool) int {
	if neg {
		return -1
	}
	return 1
}

// TruncInt parses s as a decimal number and returns it truncated toward
// zero, exactly: "-0.99999999999999999" is 0, "1000000000.99999999" is
// 1000000000, "1e5" is 100000, "1.5e1" is 15. s has ParseFloat's syntax (an
// optional minus sign, digits, an optional fraction, an optional exponent);
// TruncInt reports false for anything else and for a result outside int64.
// It never goes through float64, and does not allocate.
func TruncInt(s string) (int64, bool) {
	d, ok := parseDecimal(s)
	if !ok {
		return 0, false
	}
	n, _, fit := truncDecimal(&d)
	return n, fit == 0
}

// ExactInt parses s as TruncInt does and reports whether it is an integer
// exactly, in int64: "12", "12.0", "1e3" and "-0" are; "12.5", "1e-1" and
// "9223372036854775808" are not. It is how strict input reads a number
// for an integer field, without loss.
func ExactInt(s string) (int64, bool) {
	d, ok := parseDecimal(s)
	if !ok {
		return 0, false
	}
	n, frac, fit := truncDecimal(&d)
	return n, fit == 0 && !frac
}

// ceilDecimal returns the least int64 not less than the number s (decimal
// text), and false when there is none.
func CeilDecimal(s string) (int64, bool) {
	d, _ := parseDecimal(s)
	n, frac, fit := truncDecimal(&d)
	switch {
	case fit < 0:
		return math.MinInt64, true
	case fit > 0:
		return 0, false
	case frac && !d.neg:
		if n == math.MaxInt64 {
			return 0, false
		}
		return n + 1, true
	}
	return n, true
}

// floorDecimal returns the greatest int64 not greater than the number s
// (decimal text), and false when there is none.
func FloorDecimal(s string) (int64, bool) {
	d, _ := parseDecimal(s)
	n, frac, fit := truncDecimal(&d)
	switch {
	case fit > 0:
		return math.MaxInt64, true
	case fit < 0:
		return 0, false
	case frac && d.neg:
		if n == math.MinInt64 {
			return 0, false
		}
		return n - 1, true
	}
	return n, true
}

// plainDecimal returns the number s (decimal text) written exactly without
// an exponent, as a message quotes a bound: "9.2e1" is "92", "2.50" is
// "2.5", "-0" is "0". It reports false when that takes more than 64 bytes.
func PlainDecimal(s string) (string, bool) {
	d, _ := parseDecimal(s)
	if d.isZero() {
		return "0", true
	}
	n := d.ndigits()
	for n > 0 && d.digit(n-1) == 0 {
		n-- // trailing zeros weigh nothing
	}
	size := max(d.point, n) + 2 // digits, a minus sign and a point
	if d.point <= 0 {
		size = 2 - d.point + n + 1 // "0." and the zeros before the digits
	}
	if size > 64 {
		return "", false
	}
	b := make([]byte, 0, size)
	if d.neg {
		b = append(b, '-')
	}
	if d.point <= 0 {
		b = append(b, '0', '.')
		for range -d.point {
			b = append(b, '0')
		}
	}
	for k := range max(d.point, n) {
		if k == d.point && k > 0 {
			b = append(b, '.')
		}
		b = append(b, '0'+d.digit(k))
	}
	return string(b), true
}
