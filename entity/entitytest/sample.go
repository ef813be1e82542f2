package entitytest

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// sampleRefDepth is how many references deep Sample makes objects. A
// reference nested deeper (a recursive entity) is null when it may be, and
// an empty list when it is required or has a default.
const sampleRefDepth = 2

// maxSampleLen bounds the length of a sampled string or list.
const maxSampleLen = 1 << 12

// Sample returns an example payload of the entity: a JSON object built from
// the declaration, which Conform accepts. Each field holds its default when
// it has one, and otherwise a value that passes its rules:
//
//   - string: an email for email, a URL for url, a date for date, a time
//     for time, a numeric string for num and float, a string matching each
//     regex (generated from the pattern when no simple candidate matches),
//     else the field's name, repeated or cut to the minimum length for min
//     (and within max and range);
//   - number and float: 1 or 1.5, moved within min, max and range;
//   - bool: true; date: 2024-01-15T12:30:00Z; list: as many elements as
//     min requires, or one; object: {};
//   - a group: its fields; a $ref: one object made the same way, two
//     references deep, then null (an empty list where the reference is
//     required or has a default).
//
// A custom rule is satisfied when one of the candidates passes it. When
// none does, Sample writes null on a field that may be null, and otherwise
// the first candidate, which Conform will report. The same entity always
// gives the same bytes.
func Sample(e *entity.Entity) []byte {
	if e == nil {
		return []byte("null")
	}
	return sampleObject(nil, e.Fields(), 0)
}

func sampleObject(dst []byte, fields []*entity.Field, depth int) []byte {
	dst = append(dst, '{')
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = gjson.AppendJSONString(dst, f.Key)
		dst = append(dst, ':')
		switch f.Kind {
		case entity.GroupField:
			dst = sampleObject(dst, f.Fields, depth)
		case entity.RefField:
			e := f.Entity()
			switch {
			case e == nil:
				dst = append(dst, "null"...)
			case depth >= sampleRefDepth && (f.Required || f.HasDefault):
				dst = append(dst, "[]"...)
			case depth >= sampleRefDepth:
				dst = append(dst, "null"...)
			default:
				dst = sampleObject(dst, e.Fields(), depth+1)
			}
		default:
			dst = append(dst, sampleValue(f)...)
		}
	}
	return append(dst, '}')
}

// sampleValue returns a value field's sample: its default, or the first
// candidate that is of the declared type and passes every rule.
func sampleValue(f *entity.Field) []byte {
	if f.HasDefault && f.Default != nil {
		return f.Default
	}
	cands := candidates(f)
	for _, c := range cands {
		rv, _, ok := valueOf(f.Type, gjson.ParseBytes(c), true)
		if ok && len(f.Check(rv)) == 0 {
			return c
		}
	}
	if nullReason(f) == "" || len(cands) == 0 {
		return []byte("null")
	}
	return cands[0]
}

// bounds returns the interval that a field's min, max and range rules
// allow, ±Inf where open.
func bounds(f *entity.Field) (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	for _, r := range declRules(f) {
		var los, his string
		switch r.name {
		case "min":
			los = r.arg(0)
		case "max":
			his = r.arg(0)
		case "range", "minmax":
			los, his = r.arg(0), r.arg(1)
		}
		if v, ok := rules.ParseFloat(los); ok {
			lo = math.Max(lo, v)
		}
		if v, ok := rules.ParseFloat(his); ok {
			hi = math.Min(hi, v)
		}
	}
	return lo, hi
}

// declRule is one declared rule, its name lower-cased.
type declRule struct {
	name string
	args []string
}

// arg returns argument i, or "".
func (r declRule) arg(i int) string {
	if i < len(r.args) {
		return r.args[i]
	}
	return ""
}

// declRules returns a field's rules as declared.
func declRules(f *entity.Field) []declRule {
	if f.Decl == nil {
		return nil
	}
	out := make([]declRule, 0, len(f.Decl.Rules))
	for _, r := range f.Decl.Rules {
		dr := declRule{name: strings.ToLower(r.Name)}
		for _, a := range r.Args {
			dr.args = append(dr.args, a.Text)
		}
		out = append(out, dr)
	}
	return out
}

// candidates returns JSON values to try for a value field, best first.
func candidates(f *entity.Field) [][]byte {
	lo, hi := bounds(f)
	var c cands
	switch f.Type {
	case rules.String:
		c.strings(f, lo, hi)
	case rules.Int:
		c.ints(lo, hi)
	case rules.Float:
		c.floats(lo, hi)
	case rules.Bool:
		c.add("true", "false")
	case rules.Time:
		c.add(`"2024-01-15T12:30:00Z"`, `"1970-01-01T00:00:00Z"`)
	case rules.List:
		c.lists(lo, hi)
	case rules.Object:
		c.add("{}", `{"key":"value"}`)
	case rules.Any:
		c.strings(f, lo, hi)
		c.ints(lo, hi)
		c.floats(lo, hi)
		c.add("true", "false")
		c.lists(lo, hi)
		c.add("{}")
	}
	return c.list
}

// cands collects candidates, each once.
type cands struct {
	list [][]byte
	seen map[string]bool
}

func (c *cands) add(js ...string) {
	if c.seen == nil {
		c.seen = make(map[string]bool)
	}
	for _, s := range js {
		if !c.seen[s] {
			c.seen[s] = true
			c.list = append(c.list, []byte(s))
		}
	}
}

func (c *cands) addString(ss ...string) {
	for _, s := range ss {
		c.add(string(gjson.AppendJSONString(nil, s)))
	}
}

// lengths turns size bounds into whole lengths, capped at maxSampleLen.
func lengths(lo, hi float64) (lo1, hi1 int) {
	lo1, hi1 = 0, maxSampleLen
	if l := math.Ceil(lo); l > 0 {
		lo1 = int(math.Min(l, maxSampleLen))
	}
	if h := math.Floor(hi); h < maxSampleLen {
		hi1 = int(math.Max(h, -1))
	}
	return lo1, hi1
}

// fit moves a natural length within [lo, hi]; lo wins when they cross.
func fit(n, lo, hi int) int {
	if n > hi {
		n = hi
	}
	if n < lo {
		n = lo
	}
	return max(n, 0)
}

func (c *cands) strings(f *entity.Field, lo, hi float64) {
	l, h := lengths(lo, hi)
	var patterns []string
	for _, r := range declRules(f) {
		switch r.name {
		case "email":
			c.addString(emailOf(fit(16, l, h)), "user@example.com")
		case "url":
			c.addString(urlOf(fit(20, l, h)), "https://example.com/")
		case "date":
			c.addString("2024-01-15", "2024/1/15", "2024/1/5")
		case "time":
			c.addString("12:30", "9:30")
		case "num", "number", "float":
			c.addString(digits(fit(2, l, h)), "42")
		case "bool", "boolean":
			c.addString("true", "false", "on", "off", "1")
		case "timestamp", "datetime":
			c.addString("2024-01-15T12:30:00Z", "2024-01-15", "2024/1/5", "2024-01-15 12:30:00")
			if n := fit(20, l, h); n > 21 && n <= 30 {
				c.addString("2024-01-15T12:30:00." + strings.Repeat("0", n-21) + "Z")
			}
		case "regex":
			if len(r.args) == 1 {
				patterns = append(patterns, r.args[0])
			}
		}
	}
	n := fit(utf8.RuneCountInString(f.Name), l, h)
	if l > 0 {
		n = fit(l, l, h) // a string of the minimum length
	}
	name := fill(f.Name, n)
	c.addString(name, strings.ToUpper(name), digits(n))
	c.addString("sample", "a", "abc", "ABC", "123", "a1", "")
	for _, p := range patterns {
		c.addString(regexSamples(p, l, h)...)
	}
}

func (c *cands) ints(lo, hi float64) {
	ns := []float64{1, 0, 2, 10, 42, 100, -1}
	if !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
		ns = append(ns, math.Floor(lo+(hi-lo)/2), math.Ceil(lo)+1)
	}
	for _, n := range ns {
		if v := math.Min(math.Max(n, math.Ceil(lo)), math.Floor(hi)); v >= math.MinInt64 && v < math.MaxInt64 {
			c.add(strconv.FormatInt(int64(v), 10))
		}
	}
}

func (c *cands) floats(lo, hi float64) {
	for _, n := range []float64{1.5, 0, 1, 2.5, 42, -1.5} {
		v := math.Min(math.Max(n, lo), hi)
		if b, err := json.Marshal(v); err == nil {
			c.add(string(b))
		}
	}
	if !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
		if b, err := json.Marshal(lo + (hi-lo)/2); err == nil {
			c.add(string(b))
		}
	}
}

func (c *cands) lists(lo, hi float64) {
	l, h := lengths(lo, hi)
	for _, n := range []int{fit(1, l, h), l, 0} {
		var b strings.Builder
		b.WriteByte('[')
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(i + 1))
		}
		b.WriteByte(']')
		c.add(b.String())
	}
}

// fill repeats s to n runes ("user" to 6: "userus").
func fill(s string, n int) string {
	if s == "" {
		s = "a"
	}
	r := []rune(s)
	out := make([]rune, n)
	for i := range out {
		out[i] = r[i%len(r)]
	}
	return string(out)
}

// emailOf returns an email address of about n characters (6 at least).
func emailOf(n int) string {
	domain := "example.com"
	if n < 1+1+len(domain) {
		domain = "b.co"
	}
	return fill("user", max(n-1-len(domain), 1)) + "@" + domain
}

// urlOf returns an http URL of about n characters (11 at least).
func urlOf(n int) string {
	const base, short = "https://example.com/", "http://a.co"
	switch {
	case n >= len(base):
		return base + fill("page", n-len(base))
	case n > len(short)+1:
		return short + "/" + fill("a", n-len(short)-1)
	}
	return short
}

// digits returns a number of n digits (1 at least): 1, 10, 100…
func digits(n int) string {
	return "1" + strings.Repeat("0", max(n-1, 0))
}
