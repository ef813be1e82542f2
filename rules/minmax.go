package rules

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/expose-go/expose/internal/textconv"
)

// sizeKinds are the declared types that min, max and range apply to.
var sizeKinds = Kinds(String, Int, Float, List, Any)

// errNotSized is what min, max and range say of a value they cannot measure,
// which only a field declared `none` can hold.
var errNotSized = errors.New("must be a string, number or list")

// minMax is a compiled `min`, `max` or `range`. It measures a string by its
// number of runes, a list by its length and a number by its value, and
// checks that the measure lies within [lo, hi].
type minMax struct {
	lo, hi   float64 // bounds for Float values; ±Inf when absent
	loText   string  // the bounds as written; "" when absent
	hiText   string
	loI, hiI int64 // the bounds for integer measures
	noInt    bool  // no int64 lies within the bounds
	errStr   error
	errNum   error
	errList  error
}

// Check implements Checker.
func (c *minMax) Check(v Value) error {
	switch v.Kind {
	case String:
		if !c.holds(int64(utf8.RuneCountInString(v.Str))) {
			return c.errStr
		}
	case Int:
		if !c.holds(v.Int) {
			return c.errNum
		}
	case Float:
		if !(c.lo <= v.Float && v.Float <= c.hi) { // NaN fails
			return c.errNum
		}
	case List:
		if !c.holds(int64(v.Len)) {
			return c.errList
		}
	default:
		return errNotSized
	}
	return nil
}

// CheckInt implements IntChecker.
func (c *minMax) CheckInt(i int64) error {
	if !c.holds(i) {
		return c.errNum
	}
	return nil
}

// CheckString implements StringChecker: a string's length in runes.
func (c *minMax) CheckString(s string) error {
	if !c.holds(int64(utf8.RuneCountInString(s))) {
		return c.errStr
	}
	return nil
}

// holds reports whether the integer n lies within the bounds. Comparing
// integers with integer bounds keeps int64 values beyond 2⁵³ exact.
func (c *minMax) holds(n int64) bool {
	return !c.noInt && c.loI <= n && n <= c.hiI
}

// compileMin compiles `min n`.
func compileMin(args []string, _ Kind) (Checker, error) {
	if err := wantArgs("min", args, 1); err != nil {
		return nil, err
	}
	lo, err := numberArg("min", args[0])
	if err != nil {
		return nil, err
	}
	return newMinMax(lo, math.Inf(1), args[0], ""), nil
}

// compileMax compiles `max n`.
func compileMax(args []string, _ Kind) (Checker, error) {
	if err := wantArgs("max", args, 1); err != nil {
		return nil, err
	}
	hi, err := numberArg("max", args[0])
	if err != nil {
		return nil, err
	}
	return newMinMax(math.Inf(-1), hi, "", args[0]), nil
}

// compileRange compiles `range a b` and its alias `minmax a b`.
func compileRange(args []string, _ Kind) (Checker, error) {
	if err := wantArgs("range", args, 2); err != nil {
		return nil, err
	}
	lo, err := numberArg("range", args[0])
	if err != nil {
		return nil, err
	}
	hi, err := numberArg("range", args[1])
	if err != nil {
		return nil, err
	}
	if textconv.CompareDecimal(args[0], args[1]) > 0 { // exactly: as float64 they may be equal
		return nil, fmt.Errorf("range: minimum %s is greater than maximum %s", args[0], args[1])
	}
	return newMinMax(lo, hi, args[0], args[1]), nil
}

// BoundsConflict returns an error when a and b are compiled min, max or
// range rules of one field that no value can meet together: a minimum
// greater than a maximum ("min 5 | max 3"). The entity compiler asks it of
// every pair of a field's rules, so that such a field is a declaration
// error, as a range upside down is; any other pair gives nil.
func BoundsConflict(a, b Checker) error {
	x, ok1 := a.(*minMax)
	y, ok2 := b.(*minMax)
	if !ok1 || !ok2 {
		return nil
	}
	for _, p := range [2][2]*minMax{{x, y}, {y, x}} {
		lo, hi := p[0].loText, p[1].hiText
		if lo != "" && hi != "" && textconv.CompareDecimal(lo, hi) > 0 { // exactly, as range compares
			return fmt.Errorf("minimum %s is greater than maximum %s: no value meets both", lo, hi)
		}
	}
	return nil
}

// newMinMax builds the checker for the bounds lo and hi, either of which
// may be infinite (absent), and its messages. loText and hiText are the
// bounds as written ("" when absent): the integer bounds are computed from
// them exactly, beyond 2⁵³ too.
func newMinMax(lo, hi float64, loText, hiText string) *minMax {
	c := &minMax{lo: lo, hi: hi, loText: loText, hiText: hiText}
	okLo, okHi := true, true
	c.loI, c.hiI = math.MinInt64, math.MaxInt64
	if loText != "" {
		c.loI, okLo = textconv.CeilDecimal(loText)
	}
	if hiText != "" {
		c.hiI, okHi = textconv.FloorDecimal(hiText)
	}
	c.noInt = !okLo || !okHi || c.loI > c.hiI

	hasLo, hasHi := !math.IsInf(lo, 0), !math.IsInf(hi, 0)
	// Lengths are whole: `min 2.5` on a string means at least 3 runes.
	loN, hiN := numText(math.Ceil(lo)), numText(math.Floor(hi))
	loF, hiF := boundText(loText, lo), boundText(hiText, hi)
	switch {
	case hasLo && hasHi && loN == hiN:
		c.errStr = errors.New("must be exactly " + count(loN, "character") + " long")
		c.errList = errors.New("must have exactly " + count(loN, "element"))
	case hasLo && hasHi:
		c.errStr = errors.New("must be between " + loN + " and " + hiN + " characters long")
		c.errList = errors.New("must have between " + loN + " and " + hiN + " elements")
	case hasLo:
		c.errStr = errors.New("must be at least " + count(loN, "character") + " long")
		c.errList = errors.New("must have at least " + count(loN, "element"))
	default:
		c.errStr = errors.New("must be at most " + count(hiN, "character") + " long")
		c.errList = errors.New("must have at most " + count(hiN, "element"))
	}
	switch {
	case hasLo && hasHi && textconv.CompareDecimal(loText, hiText) == 0:
		c.errNum = errors.New("must be exactly " + loF)
	case hasLo && hasHi:
		c.errNum = errors.New("must be between " + loF + " and " + hiF)
	case hasLo:
		c.errNum = errors.New("must be at least " + loF)
	default:
		c.errNum = errors.New("must be at most " + hiF)
	}
	return c
}

// numText formats a bound for a message: the shortest decimal that reads
// back as f, without exponent, and "0" for negative zero.
func numText(f float64) string {
	return strconv.FormatFloat(f+0, 'f', -1, 64) // -0 + 0 is +0
}

// boundText formats a bound for a message on numbers: its text written
// exactly without an exponent, or numText(f) when that is too long.
func boundText(text string, f float64) string {
	if text != "" {
		if s, ok := textconv.PlainDecimal(text); ok {
			return s
		}
	}
	return numText(f)
}

// count returns n followed by noun, in the plural unless n is "1".
func count(n, noun string) string {
	if n == "1" {
		return n + " " + noun
	}
	return n + " " + noun + "s"
}

// numberArg parses the argument of a size rule.
func numberArg(rule, arg string) (float64, error) {
	f, ok := textconv.ParseFloat(arg)
	if !ok {
		return 0, fmt.Errorf("%s: argument %q is not a number", rule, arg)
	}
	return f, nil
}

// wantArgs checks the number of arguments a Compile function was given.
// The entity compiler checks it first against Def.MinArgs and Def.MaxArgs;
// this guards direct calls.
func wantArgs(rule string, args []string, n int) error {
	if len(args) == n {
		return nil
	}
	return fmt.Errorf("%s: takes %s, got %d", rule, count(strconv.Itoa(n), "argument"), len(args))
}

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
	return compiledBounds(compileMin, args, args[0], "")
}

func maxBounds(args []string) (sizeBounds, bool) {
	if len(args) != 1 {
		return sizeBounds{}, false
	}
	return compiledBounds(compileMax, args, "", args[0])
}

func rangeBounds(args []string) (sizeBounds, bool) {
	if len(args) != 2 {
		return sizeBounds{}, false
	}
	return compiledBounds(compileRange, args, args[0], args[1])
}

// compiledBounds reads the bounds as the rule's Compile reads them (one
// parser, exact decimal comparisons): false where Compile refuses them.
func compiledBounds(compile func([]string, Kind) (Checker, error), args []string, lo, hi string) (sizeBounds, bool) {
	ck, err := compile(args, Any)
	if err != nil {
		return sizeBounds{}, false
	}
	mm := ck.(*minMax)
	return sizeBounds{lo: mm.lo, hi: mm.hi, loArg: lo, hiArg: hi}, true
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
		lo, okLo = textconv.CeilDecimal(b.loArg)
	}
	if b.hiArg != "" {
		hi, okHi = textconv.FloorDecimal(b.hiArg)
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
// only, as the rule measures each kind its own way), with the types the
// rule measures: it refuses a bool or an object there.
func (b sizeBounds) schema(declared Kind) map[string]any {
	m := map[string]any{}
	if declared == Any {
		m["type"] = []any{"array", "number", "string"}
	}
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
	if declared == Int { // the integer bounds the rule compares with, exactly
		if n, ok := textconv.CeilDecimal(b.loArg); ok && b.loArg != "" {
			m["minimum"] = n
		}
		if n, ok := textconv.FloorDecimal(b.hiArg); ok && b.hiArg != "" {
			m["maximum"] = n
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
