package entity_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
)

// FuzzRandomEntity builds, from the fuzzer's bytes, a random registry (one
// to three entities: every type and alias, groups, references to each other
// and to themselves, rules with arguments, some declarations wrong on
// purpose) and a random input (maps, lists, scalars of every Go kind), then
// makes the input as a Go value, as encoding/json decodes its JSON, and as
// that raw JSON. Properties:
//
//   - nothing panics; Expose returns an entity or a dsl.ErrorList;
//   - MakeJSON, AppendJSON and Make agree: all succeed or all fail with the
//     same error, a *ValidationError;
//   - on success the output is valid JSON, Object.MarshalJSON gives the same
//     bytes, Object.Map() decodes to the same values, and
//     entitytest.Conform passes (every rule holds on the output);
//   - the raw JSON gives what the decoded maps give: the same field errors,
//     or the same values (passed-through values keep their text, so they
//     are compared decoded).
func FuzzRandomEntity(f *testing.F) {
	for _, s := range fzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &fzGen{b: data}
		ents, decls, err := g.registry()
		if err != nil {
			var l dsl.ErrorList
			if !errors.As(err, &l) || len(l) == 0 || err.Error() == "" {
				t.Fatalf("Expose error %v (%T) is not a dsl.ErrorList\n%s", err, err, decls)
			}
			return
		}
		e := ents[g.intn(len(ents))]
		var in any = g.input(e.Name(), 3)
		if g.intn(8) == 0 {
			in = []any{in, g.input(e.Name(), 2), "not an object"}
		}
		// The call's flags and version, now and then (a call with none of
		// them sees every field but the if's and the versions shadowed).
		var opts []entity.Option
		if g.intn(3) == 0 {
			opts = append(opts, entity.With(fzPick(g, []string{"f", "g"})))
		}
		if g.intn(3) == 0 {
			opts = append(opts, entity.Version(fzPick(g, []string{"v1", "v2.5", "v3"})))
		}
		where := func() string {
			return fmt.Sprintf("entity %s of\n%s\ninput %s\noptions %d", e.Name(), decls, fzShow(in), len(opts))
		}

		fzMake(t, e, in, where, opts...)
		js, jerr := json.Marshal(in)
		if jerr != nil {
			return // NaN and the like: the Go value alone
		}
		var decoded any
		if err := json.Unmarshal(js, &decoded); err != nil {
			t.Fatalf("json.Unmarshal of json.Marshal's output: %v", err)
		}
		mapRes := fzMake(t, e, decoded, where, opts...)
		rawRes := fzMake(t, e, js, where, opts...)
		fzSame(t, mapRes, rawRes, func() string { return where() + "\nraw JSON " + string(js) })
	})
}

// fzSeeds are byte strings that start the corpus (testdata/fuzz holds
// more): each drives the generator to a different shape.
var fzSeeds = []string{
	"",
	"\x00\x00\x00",
	"\x01\x05\x01\x02\x03\x09\x00\x01\x02\x03\x04\x05\x06\x07",
	"\x02\x04\x09\x01\x00\x08\x02\x03\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c",
	"\x00\x03\x09\x00\x01\x00\x01\x02\x02\x07\x07\x07\x07\x07\x07\x07\x07",
	"\x02\x04\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f",
	"seed: the quick brown fox jumps over the lazy dog 0123456789",
	"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\xf4\xf3\xf2\xf1\xf0",
}

// fzResult is what one input gave through the entry points.
type fzResult struct {
	out    []byte
	err    error
	fields []string // "path rule" of each field error
}

// fzMake makes in through MakeJSON, AppendJSON and Make (MakeList for a
// list) and checks the properties that hold for one input.
func fzMake(t *testing.T, e *entity.Entity, in any, where func() string, opts ...entity.Option) fzResult {
	t.Helper()
	out, err := e.MakeJSON(in, opts...)
	app, aerr := e.AppendJSON([]byte("prefix"), in, opts...)
	_, isList := in.([]any)
	if !isList {
		if b, ok := in.([]byte); ok && len(b) > 0 && b[0] == '[' {
			isList = true
		}
	}
	var obj *entity.Object
	var objs []*entity.Object
	var merr error
	if isList {
		objs, merr = e.MakeList(in, opts...)
	} else {
		obj, merr = e.Make(in, opts...)
	}
	if (err == nil) != (aerr == nil) || (err == nil) != (merr == nil) {
		t.Fatalf("entry points disagree: MakeJSON %v, AppendJSON %v, Make %v\n%s", err, aerr, merr, where())
	}
	if err != nil {
		if aerr.Error() != err.Error() || merr.Error() != err.Error() {
			t.Fatalf("errors differ:\nMakeJSON   %v\nAppendJSON %v\nMake       %v\n%s", err, aerr, merr, where())
		}
		if string(app) != "prefix" {
			t.Fatalf("AppendJSON failed and appended %q\n%s", app, where())
		}
		var ve *entity.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) == 0 {
			t.Fatalf("error %v (%T) is not a *ValidationError\n%s", err, err, where())
		}
		res := fzResult{err: err}
		for _, f := range ve.Fields {
			res.fields = append(res.fields, f.Path+" "+f.Rule)
		}
		return res
	}
	if !json.Valid(out) {
		t.Fatalf("invalid JSON %s\n%s", out, where())
	}
	if string(app) != "prefix"+string(out) {
		t.Fatalf("AppendJSON gave %s, MakeJSON %s\n%s", app, out, where())
	}
	var mj []byte
	var mapped any
	if isList {
		var ms []any
		mj = []byte{'['}
		for i, o := range objs {
			b, err := o.MarshalJSON()
			if err != nil {
				t.Fatalf("MarshalJSON: %v\n%s", err, where())
			}
			if i > 0 {
				mj = append(mj, ',')
			}
			mj = append(mj, b...)
			ms = append(ms, o.Map())
		}
		mj = append(mj, ']')
		mapped = ms
		if ms == nil {
			mapped = []any{}
		}
	} else {
		var merr error
		if mj, merr = obj.MarshalJSON(); merr != nil {
			t.Fatalf("MarshalJSON: %v\n%s", merr, where())
		}
		mapped = obj.Map()
	}
	if !bytes.Equal(mj, out) {
		t.Fatalf("MarshalJSON differs from MakeJSON:\n got %s\nwant %s\n%s", mj, out, where())
	}
	mb, jerr := json.Marshal(mapped)
	if jerr != nil {
		t.Fatalf("json.Marshal(Map()): %v\n%s", jerr, where())
	}
	if !jsonEqual(out, mb) {
		t.Fatalf("Map() differs from the JSON:\n map %s\njson %s\n%s", mb, out, where())
	}
	rec := &tbRecorder{TB: t}
	if !entitytest.Conform(rec, e, out, entitytest.Call(opts...)) {
		t.Fatalf("the output does not conform to its entity:\n%s\noutput %s\n%s", strings.Join(rec.msgs, "\n"), out, where())
	}
	return fzResult{out: out}
}

// TestRandomEntityConformTimestamp: every rule judges the value that is
// written, so a string field with `timestamp` given the number 12 fails
// (it would write "12", which is no date), and Conform accepts what the
// entity does write.
func TestRandomEntityConformTimestamp(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "ts", "v", "string", "timestamp")
	for _, v := range []any{12, 1.5, json.Number("12")} {
		if out, err := e.MakeJSON(map[string]any{"v": v}); err == nil {
			t.Errorf("MakeJSON(%v) = %s, want a timestamp error", v, out)
		}
	}
	for _, v := range []any{"2024-02-29", "2024-02-29T10:00:00Z"} {
		out, err := e.MakeJSON(map[string]any{"v": v})
		if err != nil {
			t.Fatalf("MakeJSON(%v): %v", v, err)
		}
		rec := &tbRecorder{TB: t}
		if !entitytest.Conform(rec, e, out) {
			t.Errorf("Conform(%s): %q", out, rec.msgs)
		}
	}
}

// fzSame checks that the raw JSON gave what its decoded maps gave.
func fzSame(t *testing.T, maps, raw fzResult, where func() string) {
	t.Helper()
	if (maps.err == nil) != (raw.err == nil) {
		t.Fatalf("maps: %v; raw JSON: %v\nmaps gave %s, raw %s\n%s", maps.err, raw.err, maps.out, raw.out, where())
	}
	if maps.err != nil {
		if strings.Join(maps.fields, "; ") != strings.Join(raw.fields, "; ") {
			t.Fatalf("field errors differ:\n maps %q\n  raw %q\n%s", maps.fields, raw.fields, where())
		}
		return
	}
	if !jsonEqual(maps.out, raw.out) {
		t.Fatalf("outputs differ:\n maps %s\n  raw %s\n%s", maps.out, raw.out, where())
	}
}

// fzGen turns the fuzzer's bytes into choices; past the end every choice
// is 0, so every byte string gives one finite, deterministic test.
type fzGen struct {
	b []byte
	i int
}

func (g *fzGen) byte() byte {
	if g.i >= len(g.b) {
		return 0
	}
	c := g.b[g.i]
	g.i++
	return c
}

func (g *fzGen) intn(n int) int { return int(g.byte()) % n }

func fzPick[T any](g *fzGen, l []T) T { return l[g.intn(len(l))] }

var (
	fzNames   = []string{"a", "b", "id", "name", "mail", "list", "x", "n", "X-H", "__proto__", `q"k`, "<&>", "é", "d", "l", "y"}
	fzTypes   = []string{"none", "string", "number", "float", "bool", "date", "list", "object", "text", "int", "double", "flag", "timestamp", "array", "map", "no", "long", "[]string", "[]number", "[]float", "[]date"}
	fzNums    = []string{"0", "1", "2", "3", "5", "10", "-1", "2.5", "150", "1e3"}
	fzRegexes = []string{`'^[a-z]+$'`, `'\d'`, `'^.{0,5}$'`, `'a|b'`, `'^$'`, `'(x+x+)+y'`, `'^\p{L}+$'`}
	fzRenames = []string{"id", "who", "out", "list", `'a b'`, `'"q"'`, "x"}
)

// registry declares one to three entities e0…, exposing them in order.
func (g *fzGen) registry() ([]*entity.Entity, string, error) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("f", "g"); err != nil {
		return nil, "", err
	}
	setLimit(reg, func(l *entity.Limits) { l.Depth = 3 + g.intn(30) })
	if g.intn(4) == 0 {
		setLimit(reg, func(l *entity.Limits) { l.Errors = 1 + g.intn(5) })
	}
	n := 1 + g.intn(3)
	var ents []*entity.Entity
	var text strings.Builder
	for i := range n {
		decl := g.fields(i, n, 0)
		name := "e" + strconv.Itoa(i)
		fmt.Fprintf(&text, "%s: %q\n", name, decl)
		e, err := reg.Expose(name, decl...)
		if err != nil {
			if e != nil {
				return nil, text.String(), fmt.Errorf("Expose returned an entity and %w", err)
			}
			return nil, text.String(), err
		}
		ents = append(ents, e)
	}
	if err := reg.Verify(); err != nil {
		// Every $ref names e0…e(n-1), but a bare default on one may make an
		// entity that fails from {}: Check reports it, as a dsl.ErrorList.
		return nil, text.String(), err
	}
	return ents, text.String(), nil
}

// fields declares the fields of one output object of entity cur (of nEnt).
func (g *fzGen) fields(cur, nEnt, depth int) []string {
	var decl []string
	used := map[string]bool{}
	for range 1 + g.intn(5) {
		name := fzPick(g, fzNames)
		if used[name] && g.intn(8) != 0 {
			continue // a duplicate now and then: a declaration error
		}
		used[name] = true
		switch k := g.intn(14); {
		case k == 12 && depth < 2:
			decl = append(decl, name, "{", g.rules("{"))
			decl = append(decl, g.fields(cur, nEnt, depth+1)...)
			decl = append(decl, name, "}", "")
		case k == 13 || k == 12:
			target := g.intn(nEnt)
			rules := g.rules("$")
			if target <= cur && strings.Contains(rules, "default") {
				// A bare default on a reference that may lead back to its
				// own entity makes a tree of defaults as deep as the depth
				// limit: exponential work.
				rules = strings.ReplaceAll(rules, "default", "req")
			}
			decl = append(decl, name, "$e"+strconv.Itoa(target), rules)
		default:
			typ := fzTypes[g.intn(len(fzTypes))]
			decl = append(decl, name, typ, g.rules(typ))
		}
	}
	return decl
}

// fzKinds gives each type of fzTypes its kind: the rules that apply.
var fzKinds = map[string]string{
	"none": "none", "no": "none", "string": "string", "text": "string", "number": "number", "int": "number", "long": "number",
	"float": "float", "double": "float", "bool": "bool", "flag": "bool", "date": "date", "timestamp": "date",
	"list": "list", "array": "list", "object": "object", "map": "object",
	"[]string": "tlist", "[]number": "tlist", "[]float": "tlist", "[]date": "tlist",
}

// fzChecks are the checks that apply to each kind, and fzDefaults the
// defaults that convert to it.
var (
	fzChecks = map[string][]string{
		"none":   {"min", "max", "range", "regex", "email", "url", "date", "time", "num", "float", "bool", "timestamp"},
		"string": {"min", "max", "range", "regex", "email", "url", "date", "time", "num", "float", "bool", "timestamp"},
		"number": {"min", "max", "range", "num", "float", "bool", "timestamp"},
		"float":  {"min", "max", "range", "num", "float", "timestamp"},
		"bool":   {"bool"},
		"date":   {"timestamp"},
		"list":   {"min", "max", "range"},
		"object": {},
		"tlist":  {"min", "max", "len", "each"},
	}
	fzDefaults = map[string][]string{
		"none":   {"0", "'x'", "true", "null", `'{"a":[1]}'`, `[1,"a"]`},
		"string": {"'x'", "'a@b.co'", "0.10", "'2024-01-02'", "''"},
		"number": {"0", "7", "'-3'", "150"},
		"float":  {"1.5", "0", "-2"},
		"bool":   {"true", "off"},
		"date":   {"'2024-01-02'", "0", "'2024-01-02T03:04:05Z'"},
		"list":   {"'[1,2]'", "'[]'", `'[{"a":1}]'`},
		"object": {`'{"a":1}'`, "'{}'"},
		"tlist":  {"'[]'"},
	}
	// fzDirectives are the shaping and typed-list words for fields, groups and
	// references: shaping, omission, direction, paths and merging (flags
	// f and g are declared by every fuzzed registry).
	fzDirectives = map[string][]string{
		"value": {"lazy", "if 'f'", "unless 'g'", "since 'v2'", "until 'v3'", "omitnil", "omitempty", "readonly", "writeonly",
			"from 'a'", "from 'x.y'", "from 'l.0'", "from 'a.b.c'"},
		"string": {"trim", "lower", "upper", "in 'x' 'abc'", "len 3"},
		"date":   {"format unix", "format rfc1123", "format '2006-01-02'"},
		"float":  {"format fixed 2", "in 1.5 0"},
		"number": {"in 0 1 7"},
		"group":  {"lazy", "if 'f'", "omitempty", "from 'x'", "readonly"},
		"ref":    {"lazy", "unless 'g'", "omitnil", "merge", "from 'y'", "writeonly"},
	}
)

// rules writes a rules string for a field of type typ ("{" for a group,
// "$" for a reference): mostly rules that apply, now and then one that
// does not or is malformed, for the declaration errors.
func (g *fzGen) rules(typ string) string {
	var rs []string
	for range g.intn(4) {
		switch typ {
		case "{":
			if g.intn(3) == 0 {
				rs = append(rs, fzPick(g, fzDirectives["group"]))
				continue
			}
			rs = append(rs, "rename "+fzPick(g, fzRenames))
			continue
		case "$":
			if g.intn(3) == 0 {
				rs = append(rs, fzPick(g, fzDirectives["ref"]))
				continue
			}
			rs = append(rs, fzPick(g, []string{"req", "default", "rename " + fzPick(g, fzRenames), "secret"}))
			continue
		}
		kind := fzKinds[typ]
		switch g.intn(28) {
		case 24, 25:
			rs = append(rs, fzPick(g, fzDirectives["value"]))
		case 26, 27:
			if ds := fzDirectives[kind]; len(ds) > 0 {
				rs = append(rs, fzPick(g, ds))
			}
		case 0, 1:
			rs = append(rs, fzPick(g, []string{"req", "REQ", "required"}))
		case 2:
			rs = append(rs, "default")
		case 3, 4:
			rs = append(rs, "default "+fzPick(g, fzDefaults[kind]))
		case 5:
			rs = append(rs, fzPick(g, []string{"rename ", "rn "})+fzPick(g, fzRenames))
		case 6:
			rs = append(rs, "secret")
		case 7:
			rs = append(rs, fzPick(g, []string{"none", "no", "not"}))
		case 8:
			// Anything at all: a rule that may not apply, or a malformed one.
			rs = append(rs, fzPick(g, []string{"email", "min 1", "bool", "nope", "min", "range 5 1", "req x", "''", "regex '^a", "regex '['", "rename"}))
		default:
			checks := fzChecks[kind]
			if len(checks) == 0 {
				continue
			}
			rs = append(rs, g.check(fzPick(g, checks)))
		}
	}
	return strings.Join(rs, " | ")
}

// check writes one use of a check with its arguments.
func (g *fzGen) check(name string) string {
	switch name {
	case "min", "max":
		return name + " " + fzPick(g, fzNums)
	case "range":
		lo := g.intn(5)
		return fzPick(g, []string{"range", "minmax"}) + " " + strconv.Itoa(lo) + " " + strconv.Itoa(lo+g.intn(40))
	case "regex":
		return "regex " + fzPick(g, fzRegexes)
	case "num":
		return fzPick(g, []string{"num", "number"})
	case "bool":
		return fzPick(g, []string{"bool", "boolean"})
	case "timestamp":
		return fzPick(g, []string{"timestamp", "datetime"})
	case "len":
		return "len " + strconv.Itoa(g.intn(4))
	case "each":
		return fzPick(g, []string{"each 'min 1'", "each 'max 3'", "each ''"})
	}
	return name
}

// input makes a random object for the entity named (its keys drawn from the
// names fields are declared with).
func (g *fzGen) input(_ string, depth int) map[string]any {
	m := map[string]any{}
	for range g.intn(7) {
		m[fzPick(g, fzNames)] = g.value(depth)
	}
	return m
}

var fzStrings = []string{
	"", "x", "abc", "a@b.co", "not an email", "http://example.com/p?q=1", "ftp://x", "2024-02-29", "2023-02-29",
	"2024/1/2", "2024-01-02T03:04:05Z", "2024-01-02 03:04:05", "9:30", "24:00", "007", "-3.9", "1e5", "1.2.3", ".",
	"true", "OFF", "1", "0", "12345678901234567890", "<&>\u2028", "\xff\xfe", "é😀", `"q"`, "\x00\n",
	strings.Repeat("z", 40),
}

// value makes a random value, nested at most depth levels.
func (g *fzGen) value(depth int) any {
	switch g.intn(16) {
	case 0:
		return nil
	case 1, 2:
		return fzPick(g, fzStrings)
	case 3:
		return fzPick(g, []int64{0, 1, -1, 7, 150, 1 << 53, math.MaxInt64, math.MinInt64})
	case 4:
		return fzPick(g, []float64{0, 0.5, -3.9, 12.7, 1e21, 1e-7, 5e-324, 1e308, math.Copysign(0, -1), float64(1 << 63)})
	case 5:
		return g.intn(2) == 0
	case 6:
		if depth > 0 {
			l := make([]any, g.intn(4))
			for i := range l {
				l[i] = g.value(depth - 1)
			}
			return l
		}
		return []any{}
	case 7, 8:
		if depth > 0 {
			return g.input("", depth-1)
		}
		return map[string]any{}
	case 9:
		return json.Number(fzPick(g, []string{"12", "1.5", "-0", "1e2", "12345678901234567890"}))
	case 10:
		return time.Date(2000+g.intn(30), time.Month(1+g.intn(12)), 1+g.intn(28), g.intn(24), 0, 0, g.intn(3)*500000000, time.UTC)
	case 11:
		// Not []byte: on none a []byte is judged as its text but written as
		// base64 ("[]byte into none with a regex").
		return fzPick(g, fzStrings) + "!"
	case 12:
		return fzPick(g, []any{uint64(math.MaxUint64), uint8(7), int8(-8), float32(0.1), uint(3)})
	case 13:
		return map[string]string{fzPick(g, fzNames): fzPick(g, fzStrings)}
	case 14:
		if depth > 0 {
			return []map[string]any{g.input("", depth-1)}
		}
		return math.NaN()
	}
	return fzPick(g, []any{(*int)(nil), map[string]any(nil), []any(nil), "x"})
}

// fzShow prints a Go input for a failure message: as JSON, and with its
// Go types.
func fzShow(v any) string {
	gv := fmt.Sprintf("%#v", v)
	if len(gv) > 2000 {
		gv = gv[:2000] + "…"
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b) + "\nGo: " + gv
	}
	return gv
}
