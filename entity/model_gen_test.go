package entity_test

// The generators of FuzzModel: registries that use every word of the DSL
// (every type and alias, typed lists, groups, $ref and []$ref with
// recursion, every rule and directive), inputs of every kind (maps, structs
// built with reflect.StructOf, raw JSON, Objects, requests) and call
// options, biased towards the interactions hand-written cases miss.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// mdlRand draws choices from the fuzzer's bytes, then from a generator
// seeded by them, so that a short input still makes a whole case and a
// mutation of an early byte changes an early choice.
type mdlRand struct {
	b []byte
	i int
	n uint64
}

func newMdlRand(b []byte) *mdlRand {
	r := &mdlRand{b: b, n: 0x9e3779b97f4a7c15}
	for _, c := range b {
		r.n = (r.n ^ uint64(c)) * 0x100000001b3
	}
	return r
}

func (r *mdlRand) byte() byte {
	if r.i < len(r.b) {
		c := r.b[r.i]
		r.i++
		return c
	}
	r.n = r.n*6364136223846793005 + 1442695040888963407
	return byte(r.n >> 56)
}

func (r *mdlRand) intn(n int) int {
	if n <= 1 {
		return 0
	}
	return int(uint16(r.byte())<<8|uint16(r.byte())) % n
}

// chance is true pct times in a hundred.
func (r *mdlRand) chance(pct int) bool { return r.intn(100) < pct }

func (r *mdlRand) pick(s ...string) string { return s[r.intn(len(s))] }

// mdlScenario biases a case towards one interaction.
type mdlScenario uint8

const (
	mdlAny          mdlScenario = iota
	mdlFromFlags                // from × flags × DenyUnknown
	mdlWriteOnlyRef             // writeonly × $ref × a request Object echoed
	mdlVersionMerge             // versions × merge × Select
	mdlSecretMsgs               // secret × messages
	mdlScenarios
)

func (s mdlScenario) String() string {
	return [...]string{"any", "from×flags×DenyUnknown", "writeonly×$ref×echo", "versions×merge×Select", "secret×messages"}[s]
}

// mdlGen generates one case.
type mdlGen struct {
	r *mdlRand
	// immutable: value fields may be declared immutable (FuzzModelImmutable)
	immutable bool
	scenario  mdlScenario
	nEnts     int
	flags     []string
	reg       *mdlReg // the model's reading of the generated declarations, to aim inputs and options
	lib       *entity.Registry
	names     map[string]bool
	keys      map[string]bool // renamed keys of the level
	// values counts the values the input generators made for the case:
	// past mdlMaxValues they make nulls and empty objects, so that no
	// input is larger than a few thousand values (fan-out over nested
	// lists of $names grows as a power of the depth).
	values int
}

// mdlMaxValues bounds the values generated for one case (mdlGen.values).
const mdlMaxValues = 3000

// spent counts one more generated value and reports whether the budget
// is spent.
func (g *mdlGen) spent() bool {
	g.values++
	return g.values > mdlMaxValues
}

var mdlTypeNames = map[rules.Kind][]string{
	rules.Any:    {"none", "no", "None"},
	rules.String: {"string", "text", "String", "TEXT"},
	rules.Int:    {"number", "num", "int", "integer", "long", "Number", "INT"},
	rules.Float:  {"float", "double", "Float"},
	rules.Bool:   {"bool", "boolean", "flag", "Bool"},
	rules.Time:   {"date", "datetime", "timestamp", "Date"},
	rules.List:   {"list", "array", "List"},
	rules.Object: {"object", "map", "json", "Object"},
}

var mdlKinds = []rules.Kind{rules.Any, rules.String, rules.Int, rules.Float, rules.Bool, rules.Time, rules.List, rules.Object}
var mdlElemKinds = []rules.Kind{rules.String, rules.Int, rules.Float, rules.Bool, rules.Time}

var mdlNamePool = []string{"id", "name", "mail", "tags", "a", "b", "c", "user_id", "fullName", "addr", "city", "zip",
	"pw", "score", "note", "n", "when", "meta", "items", "kid", "cred", "role", "amount", "Ab", "x.y", "X-Trace", "http_code", "v2_name"}

// newCase generates a whole case from the fuzzer's bytes.
func newMdlCase(data []byte) (*mdlCase, *mdlGen) {
	return newMdlCaseWith(data, false)
}

// newMdlCaseWith is newMdlCase, value fields declared immutable now and
// then when immutable is set.
func newMdlCaseWith(data []byte, immutable bool) (*mdlCase, *mdlGen) {
	g := &mdlGen{r: newMdlRand(data), immutable: immutable}
	g.scenario = mdlScenario(g.r.intn(int(mdlScenarios)))
	cs := &mdlCase{}
	if g.r.chance(35) {
		cs.keyCase = []entity.KeyCaseStyle{entity.CamelCase, entity.SnakeCase, entity.KebabCase, entity.PascalCase}[g.r.intn(4)]
	}
	g.flags = []string{"admin", "staff", "beta"}
	cs.flags = g.flags
	g.nEnts = 1 + g.r.intn(3)
	if g.scenario == mdlWriteOnlyRef || g.scenario == mdlVersionMerge {
		g.nEnts = 2 + g.r.intn(2)
	}
	for i := 0; i < g.nEnts; i++ {
		g.names, g.keys = map[string]bool{}, map[string]bool{}
		for _, n := range []string{"amount", "m", "pw", "login", "cred"} {
			g.names[n] = g.scenario != mdlAny
		}
		var triples []string
		if i == 0 && g.r.chance(5) {
			triples = append(triples, g.r.pick("POST", "GET|HEAD", "PUT, PATCH"))
		}
		n := 1 + g.r.intn(5)
		for j := 0; j < n; j++ {
			triples = append(triples, g.field(i, 0)...)
		}
		triples = append(triples, g.scenarioFields(i)...)
		cs.decls = append(cs.decls, mdlDecl{name: fmt.Sprintf("e%d", i), triples: triples})
	}
	cs.entity = "e0"
	return cs, g
}

// scenarioFields adds the fields a scenario's interaction needs.
func (g *mdlGen) scenarioFields(ent int) []string {
	r := g.r
	switch g.scenario {
	case mdlFromFlags:
		if ent == 0 {
			out := []string{g.name(), g.valueType(), "from '" + r.pick("addr.city", "meta.n", "items.0.name", "a", "x\\.y") + "' | " + r.pick("if 'admin'", "unless 'staff'", "none")}
			if r.chance(50) {
				gname := g.name()
				out = append(out, gname, "{", "from 'addr'"+r.pick("", " | if 'admin'", " | unless 'beta'"),
					"city", "string", r.pick("", "req", "if 'staff'"), "zip", "number", "", gname, "}", "")
			}
			return out
		}
	case mdlWriteOnlyRef:
		if ent == 1 {
			return []string{"pw", "string", "writeonly" + r.pick("", " | req", " | min 3", " | secret"), "login", "string", r.pick("", "readonly", "req")}
		}
		if ent == 0 {
			return []string{"cred", r.pick("$e1", "[]$e1"), r.pick("", "secret", "writeonly", "readonly")}
		}
	case mdlVersionMerge:
		if ent == 0 {
			out := []string{"amount", "string", "until 'v2'", "amount", r.pick("$e1", "number", "float"), "since 'v2'"}
			if r.chance(60) {
				out = append(out, "m", "$e"+strconv.Itoa(1+r.intn(g.nEnts-1)), "merge"+r.pick("", " | since 'v3'", " | if 'admin'", " | default"))
			}
			return out
		}
	case mdlSecretMsgs:
		k := mdlKinds[r.intn(len(mdlKinds))]
		return []string{g.name(), r.pick(mdlTypeNames[k]...), "secret | " + g.checkRules(k) + r.pick("", " | msg 'bad {field} {{x}}'", " | req")}
	}
	return nil
}

func (g *mdlGen) name() string {
	for i := 0; i < 4; i++ {
		n := mdlNamePool[g.r.intn(len(mdlNamePool))]
		if !g.names[n] {
			g.names[n] = true
			return n
		}
	}
	n := fmt.Sprintf("f%d", g.r.intn(1000))
	g.names[n] = true
	return n
}

func (g *mdlGen) valueType() string {
	k := mdlKinds[g.r.intn(len(mdlKinds))]
	return g.r.pick(mdlTypeNames[k]...)
}

// field generates one field's triples (a group's, with its fields).
func (g *mdlGen) field(ent, depth int) []string {
	r := g.r
	switch x := r.intn(100); {
	case x < 10 && depth < 3:
		name := g.name()
		var rs []string
		for i := r.intn(3); i > 0; i-- {
			rs = append(rs, g.shapeRule(), r.pick("rename 'g"+strconv.Itoa(r.intn(9))+"'", "msg 'group {field}'", "omitempty", "from '"+r.pick("addr", "meta", "items.0", "a.b")+"'", "readonly", "writeonly"))
		}
		rs = g.clean(rs)
		saved, savedKeys := g.names, g.keys
		g.names, g.keys = map[string]bool{}, map[string]bool{}
		out := []string{name, "{", strings.Join(rs, " | ")}
		for i := 1 + r.intn(3); i > 0; i-- {
			out = append(out, g.field(ent, depth+1)...)
		}
		g.names, g.keys = saved, savedKeys
		return append(out, r.pick(name, "x"), "}", "")
	case x < 28:
		target := "e" + strconv.Itoa(r.intn(g.nEnts))
		typ := "$" + target
		if r.chance(40) {
			typ = "[]" + typ
		}
		var rs []string
		for i := r.intn(3); i > 0; i-- {
			rs = append(rs, r.pick("req", "default", "rename 'r"+strconv.Itoa(r.intn(9))+"'", "secret", "msg 'ref {field}'",
				g.shapeRule(), "omitnil", "omitempty", "readonly", "writeonly", "from '"+r.pick("kid", "items", "meta.kid", "cred")+"'",
				"merge", "default", "req", "omitnil"))
			if r.chance(1) {
				rs = append(rs, r.pick("min 1", "max 2", "len 1"))
			}
		}
		if target == "e"+strconv.Itoa(ent) {
			rs = mdlDrop(rs, "default", "merge")
		}
		return []string{g.name(), typ, strings.Join(g.clean(rs), " | ")}
	case x < 40:
		k := mdlElemKinds[r.intn(len(mdlElemKinds))]
		typ := "[]" + r.pick(mdlTypeNames[k]...)
		var rs []string
		for i := r.intn(3); i > 0; i-- {
			switch r.intn(6) {
			case 0:
				rs = append(rs, "each '"+strings.ReplaceAll(g.eachRules(k), "'", "''")+"'")
			case 1:
				rs = append(rs, r.pick("min 1", "max 2", "len 2", "range 1 3"))
			case 2:
				rs = append(rs, r.pick("default", g.listDefault(k)))
			default:
				rs = append(rs, g.directive())
			}
		}
		return []string{g.name(), typ, strings.Join(g.clean(rs), " | ")}
	}
	k := mdlKinds[r.intn(len(mdlKinds))]
	var rs []string
	for i := r.intn(4); i > 0; i-- {
		if r.chance(45) {
			rs = append(rs, g.checkRules(k))
		} else if r.chance(25) {
			rs = append(rs, g.defaultRule(k))
		} else {
			rs = append(rs, g.directive())
		}
	}
	return []string{g.name(), r.pick(mdlTypeNames[k]...), strings.Join(g.clean(rs), " | ")}
}

// mdlDrop removes the rules named.
func mdlDrop(rs []string, names ...string) []string {
	var out []string
	for _, r := range rs {
		word, _, _ := strings.Cut(r, " ")
		keep := true
		for _, n := range names {
			keep = keep && word != n
		}
		if keep {
			out = append(out, r)
		}
	}
	return out
}

// clean drops rules that make a declaration the library refuses for
// reasons of no interest: a second version bound, an empty version range,
// both readonly and writeonly, a rename onto a key taken, and (most of the
// time) checks next to a default, which the default may fail.
func (g *mdlGen) clean(rs []string) []string {
	var out []string
	seen := map[string]bool{}
	var since, until string
	hasDefault := false
	for _, r := range rs {
		word, arg, _ := strings.Cut(r, " ")
		switch word {
		case "since", "until", "rename", "format", "msg":
			if seen[word] {
				continue
			}
		case "readonly", "writeonly", "immutable":
			if seen["readonly"] || seen["writeonly"] || seen["immutable"] {
				continue
			}
		case "default":
			hasDefault = true
		}
		switch word {
		case "since":
			since = arg
		case "until":
			until = arg
		case "rename":
			k := strings.Trim(arg, "'")
			if g.names[k] || g.keys[k] {
				continue
			}
			g.keys[k] = true
		}
		seen[word] = true
		out = append(out, r)
	}
	if since != "" && until != "" {
		a, _ := mdlParseVer(strings.Trim(since, "'"))
		b, _ := mdlParseVer(strings.Trim(until, "'"))
		if !a.less(b) {
			out = mdlDrop(out, "until")
		}
	}
	if hasDefault && g.r.chance(70) {
		var kept []string
		for _, r := range out {
			word, _, _ := strings.Cut(r, " ")
			if rules.LookupDirective(word) != rules.NotDirective {
				kept = append(kept, r)
			}
		}
		out = kept
	}
	return out
}

func (g *mdlGen) shapeRule() string {
	return g.r.pick("lazy", "if 'admin'", "if 'staff' 'beta'", "unless 'admin'", "since 'v2'", "until 'v2'", "since 'v1.5'", "until 'v3'")
}

func (g *mdlGen) directive() string {
	r := g.r
	switch r.intn(5) {
	case 0:
		return g.shapeRule()
	case 1:
		d := r.pick("req", "secret", "omitnil", "omitempty", "readonly", "writeonly", "none", "required")
		if g.immutable && d == "none" {
			d = "immutable"
		}
		return d
	case 2:
		return "rename '" + r.pick("k", "number", "Out", "user_id", "x y", "a.b") + "'"
	case 3:
		return "from '" + r.pick("addr.city", "meta.n", "items.0.name", "a", "b.c", "x\\.y", "items.1") + "'"
	}
	return "msg '" + r.pick("bad {field}", "{{literal}} {field}", "nope") + "'"
}

func (g *mdlGen) defaultRule(k rules.Kind) string {
	r := g.r
	switch k {
	case rules.String:
		return r.pick("default", "default 'unknown'", "default 0.10", "default ' X '")
	case rules.Int:
		return r.pick("default", "default 0", "default 7", "default -3")
	case rules.Float:
		return r.pick("default", "default 1.5", "default 0.10", "default -0")
	case rules.Bool:
		return r.pick("default", "default true", "default false")
	case rules.Time:
		return r.pick("default", "default '2024-01-15'", "default '2018-05-17T14:49:34Z'")
	case rules.List:
		return r.pick("default", "default '[1,2]'", "default '[]'")
	case rules.Object:
		return r.pick("default", "default '{\"a\":1}'", "default '{}'")
	}
	return r.pick("default", "default 12", "default 'txt'", "default true", "default '[1]'", "default null")
}

func (g *mdlGen) listDefault(k rules.Kind) string {
	switch k {
	case rules.String:
		return `default '["a","b"]'`
	case rules.Int:
		return "default '[1,2]'"
	case rules.Float:
		return "default '[1.5]'"
	case rules.Bool:
		return "default '[true]'"
	}
	return `default '["2024-01-15"]'`
}

// checkRules gives one check or transform for a field of kind k (now and
// then one that does not apply, which Expose refuses).
func (g *mdlGen) checkRules(k rules.Kind) string {
	r := g.r
	if r.chance(3) {
		k = mdlKinds[r.intn(len(mdlKinds))]
	}
	switch k {
	case rules.String, rules.Any:
		return r.pick("min 2", "max 5", "range 1 4", "len 3", "regex '^[a-z]+$'", "url", "email", "date", "time",
			"num", "float", "bool", "timestamp", "in ann bob 12", "trim", "lower", "upper", "min 2.5", "regex 'a.c'")
	case rules.Int:
		return r.pick("min 0", "max 10", "range -5 5", "in 1 2 3", "num", "float", "min 2.5")
	case rules.Float:
		return r.pick("min 0", "max 10.5", "range -1 1", "in 1.5 2", "num", "float", "format fixed 2", "format fixed 0")
	case rules.Bool:
		return r.pick("in true", "bool")
	case rules.Time:
		return r.pick("in 2024-01-15", "timestamp", "format rfc1123", "format unix", "format unixms", "format date", "format '2006-01-02 15:04'")
	case rules.List:
		return r.pick("min 1", "max 2", "len 2")
	}
	return r.pick("len 1", "len 0")
}

func (g *mdlGen) eachRules(k rules.Kind) string {
	var rs []string
	for i := 1 + g.r.intn(2); i > 0; i-- {
		rs = append(rs, g.checkRules(k))
	}
	return strings.Join(rs, " | ")
}
