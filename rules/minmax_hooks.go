package rules

import (
	"math"
	"strconv"
	"strings"
)

// The hooks of min, max and range: a sample value within the bounds and the
// JSON Schema keywords that say the same. A string is measured in runes, as
// JSON Schema's minLength counts characters; a list by its length; a
// number by its value.

// maxSampleLen bounds the length of a sampled string or list.
const maxSampleLen = 1 << 12

// sizeBounds reads the bounds of a use of min (lo), max (hi) or range (lo
// and hi); an absent bound is infinite. ok is false when an argument is not
// a number.
type sizeBounds struct {
	lo, hi       float64
	loArg, hiArg string // as written; "" when absent
}

func minBounds(args []string) (sizeBounds, bool) {
	if len(args) != 1 {
		return sizeBounds{}, false
	}
	return newSizeBounds(args[0], "")
}

func maxBounds(args []string) (sizeBounds, bool) {
	if len(args) != 1 {
		return sizeBounds{}, false
	}
	return newSizeBounds("", args[0])
}

func rangeBounds(args []string) (sizeBounds, bool) {
	if len(args) != 2 {
		return sizeBounds{}, false
	}
	return newSizeBounds(args[0], args[1])
}

func newSizeBounds(lo, hi string) (sizeBounds, bool) {
	b := sizeBounds{lo: math.Inf(-1), hi: math.Inf(1), loArg: lo, hiArg: hi}
	var ok bool
	if lo != "" {
		if b.lo, ok = ParseFloat(lo); !ok {
			return b, false
		}
	}
	if hi != "" {
		if b.hi, ok = ParseFloat(hi); !ok {
			return b, false
		}
	}
	return b, b.lo <= b.hi
}

// sizeHooks returns the Sample and Schema hooks of a size rule whose
// bounds parse reads.
func sizeHooks(parse func([]string) (sizeBounds, bool)) (func([]string, Kind) any, func([]string, Kind) map[string]any) {
	sample := func(args []string, declared Kind) any {
		b, ok := parse(args)
		if !ok {
			return nil
		}
		return b.sample(declared)
	}
	schema := func(args []string, declared Kind) map[string]any {
		b, ok := parse(args)
		if !ok {
			return nil
		}
		return b.schema(declared)
	}
	return sample, schema
}

// length returns the whole length that a sample of a string or list takes
// within the bounds: the least one allowed, and 1 when there is no lower
// bound and 1 is allowed.
func (b sizeBounds) length() (int, bool) {
	lo, hi := math.Max(math.Ceil(b.lo), 0), math.Floor(b.hi)
	n := lo
	if math.IsInf(b.lo, -1) {
		n = math.Min(1, hi)
	}
	if n < lo || n > hi || n > maxSampleLen {
		return 0, false
	}
	return int(n), true
}

// sample returns a value of the declared kind within the bounds: the lower
// bound when there is one, else 1 or the upper bound when that is less.
func (b sizeBounds) sample(declared Kind) any {
	switch declared {
	case String:
		if n, ok := b.length(); ok {
			return strings.Repeat("a", n)
		}
	case List:
		if n, ok := b.length(); ok {
			l := make([]any, n)
			for i := range l {
				l[i] = int64(i + 1)
			}
			return l
		}
	case Int:
		if n, ok := b.intSample(); ok {
			return n
		}
	case Float:
		if b.loArg != "" {
			return b.lo
		}
		return math.Min(1, b.hi)
	case Any:
		if s := b.sample(String); s != nil {
			return s
		}
		if n := b.sample(Int); n != nil {
			return n
		}
		return b.sample(Float)
	}
	return nil
}

// intSample returns the least integer within the bounds, or 1 or the upper
// bound when there is no lower bound. An integer bound is read exactly.
func (b sizeBounds) intSample() (int64, bool) {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	okLo, okHi := true, true
	if b.loArg != "" {
		lo, okLo = ceilDecimal(b.loArg)
	}
	if b.hiArg != "" {
		hi, okHi = floorDecimal(b.hiArg)
	}
	if !okLo || !okHi {
		return 0, false
	}
	n := lo
	if b.loArg == "" {
		n = min(1, hi)
	}
	return n, lo <= n && n <= hi
}

// schema returns minLength and maxLength for a string, minimum and maximum
// for a number, minItems and maxItems for a list, and all of them for a
// none field (each keyword of JSON Schema applies to its own kind of value
// only, as the rule measures each kind its own way).
func (b sizeBounds) schema(declared Kind) map[string]any {
	m := map[string]any{}
	if declared == String || declared == Any {
		b.lengths(m, "minLength", "maxLength")
	}
	if declared == List || declared == Any {
		b.lengths(m, "minItems", "maxItems")
	}
	if declared == Int || declared == Float || declared == Any {
		if b.loArg != "" {
			m["minimum"] = jsonNumber(b.loArg, b.lo)
		}
		if b.hiArg != "" {
			m["maximum"] = jsonNumber(b.hiArg, b.hi)
		}
	}
	return m
}

// lengths sets the length keywords: the bounds rounded inward, a lower
// bound left out where it is not above 0. An upper bound below 0 allows no
// length, which minLength 1 with maxLength 0 says.
func (b sizeBounds) lengths(m map[string]any, minKey, maxKey string) {
	if lo := math.Ceil(b.lo); lo > 0 {
		m[minKey] = whole(lo)
	}
	if b.hiArg != "" {
		hi := math.Floor(b.hi)
		if hi < 0 {
			m[minKey], hi = int64(1), 0
		}
		m[maxKey] = whole(hi)
	}
}

// whole returns a whole number as an int64 when it fits, else as a float64.
func whole(f float64) any {
	if f >= -(1<<63) && f < 1<<63 {
		return int64(f)
	}
	return f
}

// jsonNumber returns a bound as written: an int64 when it is an integer
// that fits, else its float64 value.
func jsonNumber(text string, f float64) any {
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return n
	}
	return f
}
