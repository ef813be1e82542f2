package schematest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
	"github.com/expose-go/expose/rules"
)

// mixedDecls combine the features the schemas describe: groups, renames,
// recursive and merged references, typed lists with each, in, len, bounds,
// regexes RE2 and ECMA-262 read apart, the formats, omitnil/omitempty,
// lazy/if/since/until with a key shared by versions, readonly/writeonly,
// X- fields, secret defaults, from, custom rules, in on numbers and bools,
// float bounds.
var mixedDecls = [][]string{
	{"mix", "first_name", "string", "req | min 2 | max 5", "age", "number", "range 0 150 | default 7",
		"score", "float", "min 0.5", "tags", "[]string", "each 'len 3' | max 3", "nums", "[]number", "each 'in 2 4'",
		"when", "date", "in 2024-01-15", "kind", "string", "in 'a' 'b' 'c'", "flag", "bool", "in true",
		"anymin", "none", "min 3", "anylen", "none", "len 2",
		"opt", "string", "omitnil", "emp", "number", "omitempty", "lz", "string", "lazy",
		"adm", "string", "if 'admin'", "old", "string", "until 'v2'", "old", "number", "since 'v2'",
		"ro", "string", "readonly", "wo", "string", "writeonly", "X-Trace", "string", "",
		"sec", "string", "secret | default 'hunter22'", "d", "date", "format unix", "fx", "float", "format fixed 2",
		"lay", "date", "format '2006-01-02'", "fr", "string", "from 'deep.x'"},
	{"node", "name", "string", "req", "kids", "[]$node", "", "next", "$node", "", "up", "$leaf", "merge", "g", "{", "rename 'G'",
		"inner", "$leaf", "", "gx", "number", "req", "g", "}", ""},
	{"leaf", "lname", "string", "regex '^[a-z]+$'", "lnum", "number", "even | range 2 10"},
	{"fmts", "mail", "string", "email", "site", "string", "url", "day", "string", "date", "at", "string", "time",
		"ts", "string", "timestamp", "nm", "string", "num", "bo", "string", "bool", "nb", "number", "bool", "ft", "float", "timestamp",
		"at2", "none", "timestamp", "bn", "none", "bool", "nn", "none", "num"},
	{"upx", "u", "string", "upper | in 'AB' 'CD'", "l", "string", "lower | regex '^[a-z]+$'", "t", "string", "trim | len 3",
		"ul", "[]string", "each 'upper | len 2'"},
	{"rx", "r1", "string", "regex '^a.b$'", "r2", "string", "regex '^\\s+$'", "r3", "string", "regex '^[\\s]+$'",
		"r4", "string", "regex 'x{,3}'", "r5", "string", "regex '^\\w+$'", "r6", "string", "regex '^[^a]$'",
		"r7", "string", "regex '\\bé'", "r8", "string", "regex '^.{3}$'", "r10", "string", "regex '^\\d$'",
		"r11", "string", "regex '(?i)abc'", "r12", "string", "regex '^[\\s-z]+$'", "r13", "string", "regex '^[a\\s-z]+$'",
		"r14", "string", "regex '^[\\w-.]+$'", "r15", "string", "regex '^[\\d-z]+$'", "r16", "string", "regex '^(a+)+$'",
		"r17", "string", "regex 'a]b'"},
	{"plain", "name", "string", "min 2 | max 5", "age", "number", "range 0 150 | default 7", "score", "float", "min 0.5",
		"tags", "[]string", "each 'len 3' | max 3", "nums", "[]number", "each 'in 2 4'", "ds", "[]date", "", "when", "date", "in 2024-01-15",
		"lz", "string", "lazy", "adm", "string", "if 'admin' | req", "ro", "string", "readonly | req", "X-Trace", "string", ""},
	{"plain2", "kind", "string", "in 'a' 'b' 'c'", "flag", "bool", "in true", "anymin", "none", "min 3", "anylen", "none", "len 2",
		"wo", "string", "writeonly", "sec", "string", "secret | default 'hunter22' | min 8", "d", "date", "format unix", "site", "string", "url",
		"mail", "string", "email", "t", "string", "trim | len 3", "rx", "string", `regex '^[\w-.]+$'`},
	{"enums", "n", "number", "in 1 2 3", "b", "bool", "in true", "f", "float", "in 1.5 2", "r", "number", "range 1 10000",
		"fl", "float", "range 0 1", "big", "float", "", "txt", "string", "num"},
	{"outer", "name", "string", "", "p", "$inner", "merge", "q", "$inner2", "merge | default", "lst", "[]$inner", "", "one", "$inner", "req"},
	{"inner", "city", "string", "req", "zip", "number", "default 5", "grp", "{", "", "gg", "string", "req", "grp", "}", "",
		"wo", "string", "writeonly", "nested", "$inner2", ""},
	{"inner2", "k", "string", "req | default 'kk'", "v", "bool", "omitempty"},
}

// edgeValues are values added to the generator's candidates for the
// mixed declarations: edges of the conversions and of the patterns.
var edgeValues = map[rules.Kind][]any{
	rules.String: {"a]b", "ab\nc", "ab\rc", "a\u2028b", "x\u00a0y", "a\u000bb", "é", "ÉCOLE", " abc ", "ABC", "\t",
		"https://example.com/%zz", "https://例え.jp/", "https://exa mple.com", "http://a_b.com/", "https://example.com:99999/",
		"http://[::1]/", "https://example.com/a\\b", "https://-a.com", "https://user@host/", "https://example.com/\u00e9",
		"a@b.c", "a@-b.com", "a@b-.com", "\"a b\"@example.com", "a@[1.2.3.4]", ".a@example.com", "a.@example.com",
		"0:00", "00:00", "23:59", "1:5", "2024-1-5", "2024-01-5", "2024/01/05", "0000-01-01", "9999-12-31", "10000-01-01",
		"2024-01-15T12:30:00+24:00", "2024-01-15T12:30Z", "2024-01-15T12:30:00.Z", "2024-01-15T23:59:60Z", "2024-01-15T12:30:00-00:00",
		"1.5e2", "-0", "0x10", "1_000", "Inf", "NaN", "٣", "12.00", "-12.0", "+12", "1e400", "-1e309", "1e308", "7",
		" ", " \t-z", "-", "z", "m", "a-b.c", "9-z", "a_b", "aaaa", "a]b", "x y"},
	rules.Int: {"7", "2", "02", "3.0", "0", "10000", "10001", n("-0"), n("1.0e1"), n("1E2"), n("12.50e1"), n("9223372036854775807.0"), n("9223372036854775808"), n("-9223372036854775808"),
		n("0.0"), n("1e-0"), n("100e-2"), n("5e-1"), "9223372036854775808", "1e2", "-0", "0.0", "00"},
	rules.Float: {n("1e308"), n("1e309"), n("-0.0"), n("5e-324"), n("1E2"), "1E2", "+1.5", "1e", "Infinity", "nan", "0x1p-2", "1_0",
		"1e400", "1.5", "2", "2.0", "0.5e1"},
	rules.Bool: {n("0.0"), n("1e0"), n("-0"), "t", "F", "TRUE", "True", "off", "ON", "01", " 1"},
	rules.Time: {"2024-01-15T12:30:00+09:00", "2024-01-15t12:30:00z", "0000-01-01", "9999-12-31T23:59:59.999999999Z", "2024-02-29", "1900-02-29", "2000-02-29",
		"2024-01-15 12:30:00.5", "2024-01-15T12:30:00", n("-62167219200000.9"), n("-62167219200001"), n("253402300799999.9"), n("1e15"), n("1e3"), n("0.5"), n("-0.5"),
		"0", "1705321800000", "2024-01-15T12:30:00.123+09:00"},
	rules.List:   {[]any{"a", nil, n("1")}, []any{[]any{}}, []any{map[string]any{}}, []any{"abc", "ABC", "abcd"}, []any{"2024-01-15", n("0"), "x"}, []any{n("2"), n("4"), "2", "4.0"}},
	rules.Object: {map[string]any{"x": nil}, map[string]any{"a": n("1"), "b": n("2"), "c": n("3")}},
}

func init() {
	for k, l := range edgeValues {
		candidates[k] = append(candidates[k], l...)
	}
	anyValues = append(anyValues, "2", "3", n("2.0"), "a]b", []any{"a"}, n("1e400"))
}

// mixedRegistry exposes decls (name, triples…) in a new registry with the
// options given, failing the test on an error.
func mixedRegistry(t testing.TB, decls [][]string, opts ...entity.RegistryOption) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry(opts...)
	if err := reg.DeclareFlags("admin", "guest"); err != nil {
		t.Fatal(err)
	}
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
// through MakeJSON with each call shape (lax and strict) and MakeRequest,
// and returns where the schemas of the call's audience disagree with what
// they did, by the Go validator; the same instances go to js, for ajv.
// Requests are compared only where the library reads e's requests in the
// wire form (see wireFormGap).
func disagreements(t testing.TB, reg *entity.Registry, name string, seed uint64, count int, shapes [][]entity.Option, js *ajvBatch, extra ...string) []disagreement {
	t.Helper()
	e := reg.Lookup(name)
	if shapes == nil {
		shapes = [][]entity.Option{nil}
	}
	response := make([]func([]byte) error, len(shapes))
	for i, opts := range shapes {
		s, err := schema.JSON(e, schema.Response, opts...)
		if err != nil {
			t.Fatal(err)
		}
		key := fmt.Sprintf("%s.response.%d", name, i)
		sch := compile(t, key, s)
		response[i] = func(doc []byte) error { return validate(sch, doc) }
		js.schema(key, s)
	}
	rs, err := schema.JSON(e, schema.Request)
	if err != nil {
		t.Fatal(err)
	}
	request := compile(t, name+".request", rs)
	js.schema(name+".request", rs)
	gap := wireFormGap(t, e)
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
	accepted, refused := 0, 0
	defer func() {
		if gap == "" {
			t.Logf("%s: MakeRequest accepted %d inputs and refused %d for a type or req", name, accepted, refused)
		}
	}()
	for i, in := range inputs {
		j := i % len(shapes)
		for _, opts := range [][]entity.Option{shapes[j], append([]entity.Option{entity.Strict()}, shapes[j]...)} {
			made, err := e.MakeJSON([]byte(in), opts...)
			if err == nil {
				if verr := response[j](made); verr != nil {
					add(disagreement{"the response schema refuses what MakeJSON wrote", in, string(made), verr})
				}
				js.check(fmt.Sprintf("%s.response.%d", name, j), made, true, name+": MakeJSON wrote it, the response schema refuses it")
			}
		}
		if gap != "" {
			continue
		}
		r := httptest.NewRequest("POST", "/", bytes.NewReader([]byte(in)))
		r.Header.Set("Content-Type", "application/json")
		_, rerr := e.MakeRequest(r)
		verr := validate(request, []byte(in))
		switch {
		case rerr == nil:
			accepted++
			if verr != nil {
				add(disagreement{"the request schema refuses what MakeRequest accepts", in, "", verr})
			}
			js.check(name+".request", []byte(in), true, name+": MakeRequest accepts it, the request schema refuses it")
		case refusedForTypeOrReq(rerr):
			refused++
			if verr == nil {
				add(disagreement{"the request schema accepts what MakeRequest refuses", in, "", rerr})
			}
			js.check(name+".request", []byte(in), false, name+": MakeRequest refuses it, the request schema accepts it")
		}
	}
	return out
}

// TestMixedDeclarationsAgree: the schemas of mixedDecls, in every key case
// and call shape, hold for what MakeJSON (lax and strict) writes and agree
// with what MakeRequest accepts and refuses for 1500 generated inputs
// each, by the Go validator and by ajv.
func TestMixedDeclarationsAgree(t *testing.T) {
	for _, kc := range []entity.KeyCaseStyle{entity.AsDeclared, entity.CamelCase, entity.KebabCase} {
		var js ajvBatch // one run per key case: the schemas are named by entity
		reg := mixedRegistry(t, mixedDecls, entity.KeyCase(kc))
		for i, d := range mixedDecls {
			t.Run(kc.String()+"/"+d[0], func(t *testing.T) {
				shapes := [][]entity.Option{nil, {entity.With("admin")}, {entity.Version("v1")}, {entity.Version("v3")}, {entity.Select("*,lz")}}
				if d[0] != "mix" {
					shapes = shapes[:4]
				}
				for j, x := range disagreements(t, reg, d[0], uint64(i), 1500, shapes, &js) {
					if j < 3 {
						t.Error(x)
					}
				}
			})
		}
		t.Logf("ajv, %s: %d instances validated", kc, js.run(t, 10))
	}
}
