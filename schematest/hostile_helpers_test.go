package schematest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// hostileExtra are values added to the generator's candidates for the
// hostile corpus: edges of the conversions and of the patterns.
var hostileExtra = map[rules.Kind][]any{
	rules.String: {"a]b", "ab\nc", "ab\rc", "a\u2028b", "x\u00a0y", "a\u000bb", "é", "ÉCOLE", " abc ", "ABC", "\t",
		"https://example.com/%zz", "https://例え.jp/", "https://exa mple.com", "http://a_b.com/", "https://example.com:99999/",
		"http://[::1]/", "https://example.com/a\\b", "https://-a.com", "https://user@host/", "https://example.com/\u00e9",
		"a@b.c", "a@-b.com", "a@b-.com", "\"a b\"@example.com", "a@[1.2.3.4]", ".a@example.com", "a.@example.com",
		"0:00", "00:00", "23:59", "1:5", "2024-1-5", "2024-01-5", "2024/01/05", "0000-01-01", "9999-12-31", "10000-01-01",
		"2024-01-15T12:30:00+24:00", "2024-01-15T12:30Z", "2024-01-15T12:30:00.Z", "2024-01-15T23:59:60Z", "2024-01-15T12:30:00-00:00",
		"1.5e2", "-0", "0x10", "1_000", "Inf", "NaN", "٣", "12.00", "-12.0", "+12"},
	rules.Int: {n("-0"), n("1.0e1"), n("1E2"), n("12.50e1"), n("9223372036854775807.0"), n("9223372036854775808"), n("-9223372036854775808"),
		n("0.0"), n("1e-0"), n("100e-2"), n("5e-1"), "9223372036854775808", "1e2", "-0", "0.0", "00"},
	rules.Float: {n("1e308"), n("1e309"), n("-0.0"), n("5e-324"), n("1E2"), "1E2", "+1.5", "1e", "Infinity", "nan", "0x1p-2", "1_0"},
	rules.Bool:  {n("0.0"), n("1e0"), n("-0"), "t", "F", "TRUE", "True", "off", "ON", "01", " 1"},
	rules.Time: {"2024-01-15T12:30:00+09:00", "2024-01-15t12:30:00z", "0000-01-01", "9999-12-31T23:59:59.999999999Z", "2024-02-29", "1900-02-29", "2000-02-29",
		"2024-01-15 12:30:00.5", "2024-01-15T12:30:00", n("-62167219200000.9"), n("-62167219200001"), n("253402300799999.9"), n("1e15"), n("1e3"), n("0.5"), n("-0.5"),
		"0", "1705321800000", "2024-01-15T12:30:00.123+09:00"},
	rules.List:   {[]any{"a", nil, n("1")}, []any{[]any{}}, []any{map[string]any{}}, []any{"abc", "ABC", "abcd"}, []any{"2024-01-15", n("0"), "x"}, []any{n("2"), n("4"), "2", "4.0"}},
	rules.Object: {map[string]any{"x": nil}, map[string]any{"a": n("1"), "b": n("2"), "c": n("3")}},
}

func init() {
	for k, l := range hostileExtra {
		candidates[k] = append(candidates[k], l...)
	}
	anyValues = append(anyValues, "2", "3", n("2.0"), "a]b", []any{"a"}, n("1e400"))
}

// hostileRegistry exposes decls (name, triples…) in a new registry with
// the options given, failing the test on an error.
func hostileRegistry(t testing.TB, decls [][]string, opts ...entity.RegistryOption) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry(opts...)
	for _, d := range []rules.Def{even, caps} {
		if err := reg.RegisterRule(d); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range decls {
		if _, err := reg.Expose(d[0], d[1:]...); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// disagreement is one input on which a schema and the library disagree.
type disagreement struct {
	what, input, output string
	err                 error
}

func (d disagreement) String() string {
	return fmt.Sprintf("%s: input %s output %s: %v", d.what, d.input, d.output, d.err)
}

// disagreements runs count generated inputs (and the extra inputs given)
// through MakeJSON with each call shape and MakeRequest, and returns where
// the schemas disagree with what they did.
func disagreements(t testing.TB, reg *entity.Registry, name string, seed uint64, count int, shapes [][]entity.Option, extra ...string) []disagreement {
	t.Helper()
	e := reg.Lookup(name)
	os, err := e.JSONSchema(entity.OutputSchema)
	if err != nil {
		t.Fatal(err)
	}
	is, err := e.JSONSchema(entity.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	osch := compile(t, name+".output", os)
	isch := compile(t, name+".input", is)
	if shapes == nil {
		shapes = [][]entity.Option{nil}
	}
	g := newGenerator(seed)
	var out []disagreement
	seen := map[string]bool{}
	add := func(d disagreement) {
		if key := d.what + d.input; !seen[key] {
			seen[key] = true
			out = append(out, d)
		}
	}
	inputs := extra
	for range count {
		b, _ := json.Marshal(g.object(e, 3))
		inputs = append(inputs, string(b))
	}
	for i, in := range inputs {
		for _, opts := range [][]entity.Option{shapes[i%len(shapes)], append([]entity.Option{entity.Strict()}, shapes[i%len(shapes)]...)} {
			made, err := e.MakeJSON([]byte(in), opts...)
			if err == nil {
				if verr := validate(osch, made); verr != nil {
					add(disagreement{"output schema refuses what MakeJSON wrote", in, string(made), verr})
				}
			}
		}
		r := httptest.NewRequest("POST", "/", bytes.NewReader([]byte(in)))
		r.Header.Set("Content-Type", "application/json")
		_, rerr := e.MakeRequest(r)
		verr := validate(isch, []byte(in))
		switch {
		case rerr == nil && verr != nil:
			add(disagreement{"input schema refuses what MakeRequest accepts", in, "", verr})
		case rerr != nil && refusedForTypeOrReq(rerr) && verr == nil:
			add(disagreement{"input schema accepts what MakeRequest refuses", in, "", rerr})
		}
	}
	return out
}
