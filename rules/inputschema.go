package rules

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// The forms strict input reads a value of each kind from, as JSON Schema:
// the patterns of a number's text, of a bool's words, and how the keywords
// a rule gives the value it judges (Def.Schema's) are said of each form
// (Kind.InputKeywords).

// Patterns of the text strict input reads as a number or a bool, in the
// syntax RE2 and ECMA-262 read alike.
var (
	// intTextPattern is the text strict input reads as an integer:
	// ParseInt's syntax with no fraction but zeros ("27", "007", "-3",
	// "12.0"), in the range of int64.
	intTextPattern = intTextOf(math.MinInt64, math.MaxInt64)

	// floatTextPattern is the text ParseFloat reads as a finite number: a
	// number of decimal syntax whose integer digits (leading zeros aside)
	// and exponent keep it under 10^308, or from 1e308 to float64's
	// largest number written d.ddd e308 (1.7976931348623157e308). It
	// leaves out spellings no pattern of bounded size says exactly, which
	// ParseFloat reads: other spellings from 1e308 up (17.9e307), a digit
	// string of more than 209 digits with a positive exponent. It never
	// matches text ParseFloat refuses ("1e400", "1.8e308", "1.", "+1").
	floatTextPattern = floatTextPatternOf()

	// boolPattern is ParseBool's words, in any case.
	boolPattern = "^(?:" + caseless(boolWords[1]...) + "|" + caseless(boolWords[0]...) + ")$"
)

// boolWords are the words ParseBool reads, false's then true's.
var boolWords = [2][]string{{"false", "off", "0"}, {"true", "on", "1"}}

// caseless returns the words as alternatives of a pattern that ignores
// ASCII case: "on" as [Oo][Nn].
func caseless(words ...string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte('|')
		}
		for _, c := range []byte(w) {
			if lo, up := c|0x20, c&^0x20; 'a' <= lo && lo <= 'z' {
				b.WriteString("[" + string(up) + string(lo) + "]")
			} else {
				b.WriteByte(c)
			}
		}
	}
	return b.String()
}

// floatTextPatternOf builds floatTextPattern: for each range of exponents,
// the integer digits that keep the magnitude under 10^308.
func floatTextPatternOf() string {
	intDigits := func(n int) string { // zeros, or up to n digits leading zeros aside
		if n == 1 {
			return "(?:0+|0*[1-9])"
		}
		return "(?:0+|0*[1-9][0-9]{0," + strconv.Itoa(n-1) + "})"
	}
	const frac = `(?:\.[0-9]+)?`
	return "^-?(?:" + strings.Join([]string{
		intDigits(308) + frac + "(?:[eE]-[0-9]+)?",                      // no exponent, or a negative one
		intDigits(209) + frac + `[eE]\+?0*[0-9]{1,2}`,                   // up to e99
		intDigits(9) + frac + `[eE]\+?0*[12][0-9]{2}`,                   // e100 to e299
		intDigits(1) + frac + `[eE]\+?0*30[0-7]`,                        // e300 to e307
		"0+" + frac + `[eE]\+?0*308`,                                    // 0.x e308
		`0*1(?:\.` + fractionBelow(maxFloatFraction) + `)?[eE]\+?0*308`, // 1e308 up to float64's largest
	}, "|") + ")$"
}

// maxFloatFraction is the fraction of float64's largest number written
// d.ddd e308 (1.7976931348623157e308), to the digit where it meets the
// least number ParseFloat rounds beyond it (1.79769313486231580793…e308).
const maxFloatFraction = "7976931348623158"

// fractionBelow returns the pattern of the digit strings that, as a
// fraction, are at most 0.t: less than t at their first differing digit,
// or t itself followed by zeros. A fraction longer than t that starts with
// t and goes on with other digits is left out.
func fractionBelow(t string) string {
	if t == "" {
		return "0*"
	}
	same := t[:1] + fractionBelow(t[1:])
	switch t[0] {
	case '0':
		return "(?:" + same + ")?"
	case '1':
		return "(?:0[0-9]*|" + same + ")?"
	}
	return "(?:[0-" + string(t[0]-1) + "][0-9]*|" + same + ")?"
}

// intTextOf returns the pattern of the text strict input reads as an
// integer from lo to hi: an optional minus sign, any leading zeros, the
// digits, and a fraction of zeros ("-007.00" is -7).
func intTextOf(lo, hi int64) string {
	if lo > hi {
		return "^[^\\s\\S]$" // nothing: no text converts to no integer
	}
	var alts []string
	if hi > 0 && (lo == -hi || lo == -hi-1) { // symmetric, as int64's range: one pattern of magnitudes
		alts = append(alts, "-?0*"+digitsBetween(1, uint64(hi)), "-?0+")
		if lo == -hi-1 {
			alts = append(alts, "-0*"+strconv.FormatUint(uint64(hi)+1, 10))
		}
		return `^(?:` + strings.Join(alts, "|") + `)(?:\.0+)?$`
	}
	if lo < 0 {
		// -|n| for n in [lo, min(hi, -1)]: magnitudes from max(1, -hi) to -lo.
		top := uint64(-(lo + 1)) + 1 // -lo, for MinInt64 too
		bottom := uint64(1)
		if hi < -1 {
			bottom = uint64(-hi)
		}
		alts = append(alts, "-0*"+digitsBetween(bottom, top))
	}
	if lo <= 0 && hi >= 0 {
		alts = append(alts, "-?0+")
	}
	if hi > 0 {
		alts = append(alts, "0*"+digitsBetween(uint64(max(lo, 1)), uint64(hi)))
	}
	return `^(?:` + strings.Join(alts, "|") + `)(?:\.0+)?$`
}

// intTextEnum returns the pattern of the text strict input reads as one of
// the integers.
func intTextEnum(ns []int64) string {
	var neg, pos []string
	zero := false
	for _, n := range ns {
		switch {
		case n < 0:
			neg = append(neg, strconv.FormatUint(uint64(-(n+1))+1, 10))
		case n == 0:
			zero = true
		default:
			pos = append(pos, strconv.FormatInt(n, 10))
		}
	}
	var alts []string
	if len(neg) > 0 {
		alts = append(alts, "-0*(?:"+strings.Join(neg, "|")+")")
	}
	if zero {
		alts = append(alts, "-?0+")
	}
	if len(pos) > 0 {
		alts = append(alts, "0*(?:"+strings.Join(pos, "|")+")")
	}
	if len(alts) == 0 {
		return "^[^\\s\\S]$"
	}
	return `^(?:` + strings.Join(alts, "|") + `)(?:\.0+)?$`
}

// digitsBetween returns the pattern of the decimal numbers from a to b
// (1 <= a <= b), written without leading zeros.
func digitsBetween(a, b uint64) string {
	as, bs := strconv.FormatUint(a, 10), strconv.FormatUint(b, 10)
	if len(as) == len(bs) {
		return sameLength(as, bs)
	}
	alts := []string{sameLength(as, strings.Repeat("9", len(as)))}
	if len(bs) > len(as)+1 { // every number of the lengths between
		alts = append(alts, "[1-9]"+digits(len(as), len(bs)-2))
	}
	alts = append(alts, sameLength("1"+strings.Repeat("0", len(bs)-1), bs))
	return "(?:" + strings.Join(alts, "|") + ")"
}

// sameLength returns the pattern of the digit strings from lo to hi, both
// of one length, nesting the alternatives under their common prefixes so
// that the pattern grows with the length, not its square.
func sameLength(lo, hi string) string {
	if lo == hi {
		return lo
	}
	if len(lo) == 1 {
		return "[" + lo + "-" + hi + "]"
	}
	if lo[0] == hi[0] {
		return lo[:1] + sameLength(lo[1:], hi[1:])
	}
	rest := len(lo) - 1
	zeros, nines := strings.Repeat("0", rest), strings.Repeat("9", rest)
	var alts []string
	first, last := lo[0], hi[0]
	if lo[1:] != zeros {
		alts = append(alts, lo[:1]+group(sameLength(lo[1:], nines)))
		first++
	}
	if hi[1:] != nines {
		last--
	}
	if first <= last {
		class := "[" + string(first) + "-" + string(last) + "]"
		switch last - first {
		case 0:
			class = string(first)
		case 1:
			class = "[" + string(first) + string(last) + "]"
		}
		alts = append(alts, class+digits(rest, rest))
	}
	if hi[1:] != nines {
		alts = append(alts, hi[:1]+group(sameLength(zeros, hi[1:])))
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return "(?:" + strings.Join(alts, "|") + ")"
}

// digits returns the pattern of from lo to hi decimal digits.
func digits(lo, hi int) string {
	switch {
	case lo == 1 && hi == 1:
		return "[0-9]"
	case lo == hi:
		return "[0-9]{" + strconv.Itoa(lo) + "}"
	}
	return "[0-9]{" + strconv.Itoa(lo) + "," + strconv.Itoa(hi) + "}"
}

// group returns p grouped when it is an alternation, for a prefix.
func group(p string) string {
	if strings.HasPrefix(p, "(?:") || !strings.Contains(p, "|") {
		return p
	}
	return "(?:" + p + ")"
}

// InputKeywords returns, for each form of the kind's InputSchema in order,
// the JSON Schema keywords that say of that form what keywords say of the
// value it converts to (keywords are a rule's, as its Def.Schema gives them
// for the value a field of the kind writes), nil where there are none; and
// the keywords that some form cannot say, sorted, which then judge only the
// converted value.
//
// A JSON value of the kind itself (a string, an integer, a boolean…) takes
// the keywords as they are. A number's text ("27", "12.0") takes an
// integer enum and bounds as the pattern of every text that converts
// within them, and 0 and 1 and a bool's words ("on", "FALSE") take a
// boolean enum as the numbers and words that give its values. Nothing else
// is said of a number's text, nor anything of a float's text or of a
// date's text or number.
func (k Kind) InputKeywords(keywords map[string]any) (forms []map[string]any, unsaid []string) {
	forms = make([]map[string]any, len(k.InputSchema()))
	if len(keywords) == 0 {
		return forms, nil
	}
	switch k {
	case Int:
		forms[0] = copyKeywords(keywords)
		forms[1], unsaid = intTextKeywords(keywords)
	case Bool:
		forms[0] = copyKeywords(keywords)
		var u1, u2 []string
		forms[1], u1 = boolKeywords(keywords, boolAsNumber)
		forms[2], u2 = boolKeywords(keywords, boolAsText)
		unsaid = append(u1, u2...)
	case Float, Time:
		if k == Float {
			forms[0] = copyKeywords(keywords)
		}
		for key := range keywords {
			unsaid = append(unsaid, key)
		}
	default:
		forms[0] = copyKeywords(keywords)
	}
	return forms, sortedSet(unsaid)
}

func copyKeywords(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// sortedSet returns the distinct strings of l, sorted.
func sortedSet(l []string) []string {
	sort.Strings(l)
	out := l[:0]
	for i, s := range l {
		if i == 0 || s != l[i-1] {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// intTextKeywords says keywords of an integer of a number's text: bounds
// and enums as patterns, under allOf when there are several.
func intTextKeywords(keywords map[string]any) (map[string]any, []string) {
	var patterns []any
	var unsaid []string
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	bounded := false
	keys := make([]string, 0, len(keywords))
	for key := range keywords {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		v := keywords[key]
		ok := true
		switch key {
		case "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum":
			var n int64
			n, ok = intBound(key, v)
			if ok {
				bounded = true
				if strings.HasSuffix(key, "inimum") {
					lo = max(lo, n)
				} else {
					hi = min(hi, n)
				}
			}
		case "enum", "const":
			l, _ := v.([]any)
			if key == "const" {
				l = []any{v}
			}
			var ns []int64
			for _, x := range l {
				n, isInt := exactInt(x)
				if !isInt {
					ok = false
					break
				}
				ns = append(ns, n)
			}
			if ok {
				patterns = append(patterns, map[string]any{"pattern": intTextEnum(ns)})
			}
		case "allOf":
			subs, _ := v.([]any)
			for _, s := range subs {
				m, isMap := s.(map[string]any)
				if !isMap {
					ok = false
					break
				}
				said, u := intTextKeywords(m)
				unsaid = append(unsaid, u...)
				if said != nil {
					patterns = append(patterns, said)
				}
			}
		default:
			ok = false
		}
		if !ok {
			unsaid = append(unsaid, key)
		}
	}
	if bounded {
		patterns = append(patterns, map[string]any{"pattern": intTextOf(lo, hi)})
	}
	return allOf(patterns), unsaid
}

// allOf returns the one schema of l, or l under "allOf", or nil for none.
func allOf(l []any) map[string]any {
	switch len(l) {
	case 0:
		return nil
	case 1:
		return l[0].(map[string]any)
	}
	return map[string]any{"allOf": l}
}

// intBound returns the least (for a lower bound) or greatest (upper)
// int64 a bound keyword allows; it saturates at int64's range.
func intBound(key string, v any) (int64, bool) {
	var f float64
	switch x := v.(type) {
	case int64:
		switch key {
		case "exclusiveMinimum":
			if x == math.MaxInt64 {
				return 0, false
			}
			return x + 1, true
		case "exclusiveMaximum":
			if x == math.MinInt64 {
				return 0, false
			}
			return x - 1, true
		}
		return x, true
	case float64:
		f = x
	default:
		return 0, false
	}
	if math.IsNaN(f) {
		return 0, false
	}
	switch key {
	case "minimum":
		f = math.Ceil(f)
	case "exclusiveMinimum":
		f = math.Floor(f) + 1
	case "maximum":
		f = math.Floor(f)
	case "exclusiveMaximum":
		f = math.Ceil(f) - 1
	}
	switch {
	case f < -(1 << 63):
		return math.MinInt64, true
	case f >= 1<<63:
		return math.MaxInt64, true
	}
	return int64(f), true
}

// exactInt returns a JSON value that is an integer as an int64.
func exactInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		if x == math.Trunc(x) && x >= -(1<<63) && x < 1<<63 {
			return int64(x), true
		}
	}
	return 0, false
}

// The forms of a bool other than a JSON boolean.
const (
	boolAsNumber = iota // 0 or 1
	boolAsText          // ParseBool's words
)

// boolKeywords says keywords of a bool of one of its other forms: an enum
// of booleans as the numbers or words that give them.
func boolKeywords(keywords map[string]any, form int) (map[string]any, []string) {
	var unsaid []string
	var out []any
	for key, v := range keywords {
		l, isList := v.([]any)
		if key == "const" {
			l, isList = []any{v}, true
		}
		if key != "enum" && key != "const" || !isList {
			unsaid = append(unsaid, key)
			continue
		}
		var allow [2]bool
		ok := true
		for _, x := range l {
			b, isBool := x.(bool)
			if !isBool {
				ok = false
				break
			}
			if b {
				allow[1] = true
			} else {
				allow[0] = true
			}
		}
		switch {
		case !ok:
			unsaid = append(unsaid, key)
		case !allow[0] && !allow[1]:
			out = append(out, map[string]any{"not": map[string]any{}})
		case allow[0] && allow[1]:
		case form == boolAsNumber:
			n := int64(0)
			if allow[1] {
				n = 1
			}
			out = append(out, map[string]any{"enum": []any{n}})
		default:
			words := boolWords[0]
			if allow[1] {
				words = boolWords[1]
			}
			out = append(out, map[string]any{"pattern": "^(?:" + caseless(words...) + ")$"})
		}
	}
	return allOf(out), unsaid
}
