package schematest

import (
	"encoding/json"
	"math/rand/v2"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// The input generator: JSON objects for an entity, each key of it absent,
// null, a value of its field's type (what the conversions and the rules
// accept, and what they refuse by a hair), or a value of any other kind.
// Numbers are json.Numbers, so that their text ("12.0", "1e3") is sent as
// written.

// candidates are the values tried for each declared type, chosen to sit
// on both sides of the conversions and of the built-in rules.
var candidates = map[rules.Kind][]any{
	rules.String: {"", "a", "ab", "abc", "abcd", "ABCD", "abcdefg", "lower", "UPPER", "hello go world", "go", "yes", "no",
		"user@example.com", "a..b@example.com", "é@example.com", "a@b", "a b@example.com",
		"https://example.com/a?b#c", "http://x", "HTTP://EXAMPLE.COM", "ftp://example.com", "https://[::1]:8080/",
		"2024-01-15", "2024/1/5", "2024-02-29", "2023-02-29", "12:30", "9:05", "24:00",
		"2024-01-15T12:30:00Z", "2024-01-15 12:30:00", "2024-01-15t12:30:00.5+09:00",
		"12", "007", "-3", "12.0", "12.5", "1e3", "+1", " 1", "true", "On", "FALSE", "0", "1",
		"ABC-1234", "my-slug-2", "#a1b2c3", "+123456789012", "1234567890", "x\u2028y", "\U0001F600\U0001F600\U0001F600",
		"ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFG@example.com"},
	rules.Int: {n("0"), n("1"), n("-1"), n("2"), n("3"), n("4"), n("5"), n("12"), n("12.0"), n("12.5"), n("150"), n("151"),
		n("-5"), n("-6"), n("1000"), n("1e3"), n("9007199254740993"), n("9223372036854775807"),
		"12", "007", "-3", "12.0", "12.5", "1e3", "+27", " 27", "abc", "20", "10"},
	rules.Float: {n("0"), n("0.5"), n("0.7"), n("0.9"), n("0.95"), n("1.5"), n("-2.5"), n("1e3"), n("12"), "0.5", "1.5e2", "-0", "abc", "1.", ".5"},
	rules.Bool:  {true, false, n("0"), n("1"), n("2"), n("1.0"), "true", "FALSE", "on", "Off", "1", "0", "yes", ""},
	rules.Time: {"2024-01-15", "2024/1/5", "2024-01-15T12:30:00Z", "2024-01-15T12:30:00.123456789+09:00", "2024-01-15 12:30:00",
		"2024-02-30", "yesterday", n("0"), n("1705321800000"), n("1705321800000.5"), n("-62167219200000"), n("253402300799999"), n("253402300800000"), n("-1.5")},
	rules.List:   {[]any{}, []any{n("1")}, []any{n("1"), n("2")}, []any{"a", "b", "c"}, []any{nil}},
	rules.Object: {map[string]any{}, map[string]any{"a": n("1")}, map[string]any{"b": []any{}}},
}

func n(s string) json.Number { return json.Number(s) }

// anyValues are values of every JSON kind.
var anyValues = []any{"", "abc", "user@example.com", "abcdef", n("0"), n("2"), n("3"), n("12.5"), true, false,
	[]any{}, []any{n("1"), n("2"), n("3")}, map[string]any{}, map[string]any{"k": "v"}}

// generator makes inputs from a seeded source: the same inputs every run.
type generator struct {
	r *rand.Rand
}

func newGenerator(seed uint64) *generator {
	return &generator{r: rand.New(rand.NewPCG(seed, 0x5eed))}
}

// object returns an input object for e, its references made depth deep at
// most.
func (g *generator) object(e *entity.Entity, depth int) map[string]any {
	m := map[string]any{}
	// How many keys the object has: a sparse one passes more often (the
	// checks skip absent values), a full one fails more.
	present := [...]int{2, 5, 9}[g.r.IntN(3)]
	g.fields(e.Fields(), m, depth, present)
	if g.r.IntN(4) == 0 {
		m["undeclared"] = g.pick(anyValues) // dropped: never a failure
	}
	return m
}

// fields adds a value for each field to m, a group's fields at m's level.
// present out of 10 of the values are there, one in ten of those null.
func (g *generator) fields(fs []*entity.Field, m map[string]any, depth, present int) {
	for _, f := range fs {
		if f.Kind == dsl.FieldGroup {
			g.fields(f.Fields, m, depth, present)
			continue
		}
		if g.r.IntN(10) >= present {
			continue // absent
		}
		switch k := g.r.IntN(10); {
		case k == 0:
			m[f.Name] = nil
		case k == 1:
			m[f.Name] = g.pick(anyValues)
		default:
			m[f.Name] = g.value(f, depth)
		}
	}
}

// value returns a value of f's type, or for a reference an object or a
// list of objects of its entity.
func (g *generator) value(f *entity.Field, depth int) any {
	if f.Kind != dsl.FieldRef {
		if f.Type == rules.Any {
			return g.pick(anyValues)
		}
		return g.pick(candidates[f.Type])
	}
	target := f.Entity()
	if target == nil || depth <= 0 {
		return []any{}
	}
	if g.r.IntN(2) == 0 {
		return g.object(target, depth-1)
	}
	l := make([]any, g.r.IntN(3))
	for i := range l {
		l[i] = g.object(target, depth-1)
	}
	return l
}

func (g *generator) pick(l []any) any { return l[g.r.IntN(len(l))] }
