package entity_test

// The generators of FuzzModel: registries that use every word of the DSL
// (every type and alias, typed lists, groups, $ref and []$ref with
// recursion, every rule and directive), inputs of every kind (maps, structs
// built with reflect.StructOf, raw JSON, Objects, requests) and call
// options, biased towards the interactions hand-written cases miss.

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/expose-go/expose/dsl"
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
	r        *mdlRand
	scenario mdlScenario
	nEnts    int
	flags    []string
	reg      *mdlReg // the model's reading of the generated declarations, to aim inputs and options
	lib      *entity.Registry
	names    map[string]bool
	keys     map[string]bool // renamed keys of the level
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
	g := &mdlGen{r: newMdlRand(data)}
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
		case "readonly", "writeonly":
			if seen["readonly"] || seen["writeonly"] {
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
		return r.pick("req", "secret", "omitnil", "omitempty", "readonly", "writeonly", "none", "required")
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

// mdlGV is a generated input value, before it is made a map, a struct or
// raw JSON.
type mdlGV struct {
	kind  byte // 'n' null, 's' string, 'i' int, 'u' uint64, 'f' float, 'b' bool, 't' time, 'N' json.Number, 'l' list, 'o' object, 'x' an Object
	s     string
	i     int64
	u     uint64
	f     float64
	b     bool
	t     time.Time
	elems []*mdlGV
	keys  []string
	vals  []*mdlGV
	obj   *entity.Object
}

func (v *mdlGV) set(k string, e *mdlGV) {
	for i, kk := range v.keys {
		if kk == k {
			v.vals[i] = e
			return
		}
	}
	v.keys = append(v.keys, k)
	v.vals = append(v.vals, e)
}

func (v *mdlGV) get(k string) *mdlGV {
	for i, kk := range v.keys {
		if kk == k {
			return v.vals[i]
		}
	}
	return nil
}

// setPath puts e at a from path, making the objects and lists on the way.
func (v *mdlGV) setPath(steps []string, e *mdlGV) {
	cur := v
	for i, s := range steps {
		last := i == len(steps)-1
		if n, err := strconv.Atoi(s); err == nil && n >= 0 && n < 4 && cur.kind == 'l' {
			for len(cur.elems) <= n {
				cur.elems = append(cur.elems, &mdlGV{kind: 'o'})
			}
			if last {
				cur.elems[n] = e
				return
			}
			if cur.elems[n].kind != 'o' && cur.elems[n].kind != 'l' {
				cur.elems[n] = &mdlGV{kind: 'o'}
			}
			cur = cur.elems[n]
			continue
		}
		if cur.kind != 'o' {
			return
		}
		if last {
			cur.set(s, e)
			return
		}
		next := cur.get(s)
		if next == nil || (next.kind != 'o' && next.kind != 'l') {
			next = &mdlGV{kind: 'o'}
			if i+1 < len(steps) {
				if _, err := strconv.Atoi(steps[i+1]); err == nil {
					next = &mdlGV{kind: 'l'}
				}
			}
			cur.set(s, next)
		}
		cur = next
	}
}

var mdlStrings = []string{"ann", " Ann@Example.COM ", "a@b.co", "2024-01-15", "2024/1/2", "2024-01-15T10:30:00Z", "12", "007",
	"12.0", "-3.9", "1e3", "true", "on", "FALSE", "", "https://x.io/a", "9:30", "x y", "<&>", "é", "bob", "abc", "1.5", "0"}

// scalar generates a scalar of kind k, a plausible one most of the time.
func (g *mdlGen) scalar(k rules.Kind) *mdlGV {
	r := g.r
	if r.chance(25) {
		k = mdlKinds[r.intn(len(mdlKinds))]
	}
	switch k {
	case rules.String, rules.Any:
		if k == rules.Any && r.chance(30) {
			return g.scalar(mdlElemKinds[r.intn(len(mdlElemKinds))])
		}
		return &mdlGV{kind: 's', s: mdlStrings[r.intn(len(mdlStrings))]}
	case rules.Int:
		switch r.intn(8) {
		case 0:
			return &mdlGV{kind: 'f', f: []float64{12.7, -3.9, 1e21, 0.5, 2}[r.intn(5)]}
		case 1:
			return &mdlGV{kind: 's', s: r.pick("007", "-3.9", "12.0", "1e5", "abc", "12.5")}
		case 2:
			return &mdlGV{kind: 'N', s: r.pick("1e5", "-007", "12", "1.5", "-0")}
		case 3:
			return &mdlGV{kind: 'u', u: []uint64{7, math.MaxUint64}[r.intn(2)]}
		}
		return &mdlGV{kind: 'i', i: []int64{0, 1, 3, 7, -5, 12, 1526568574000}[r.intn(7)]}
	case rules.Float:
		switch r.intn(5) {
		case 0:
			return &mdlGV{kind: 's', s: r.pick("1.25", "-0", "1e400", "x", "2")}
		case 1:
			return &mdlGV{kind: 'i', i: int64(r.intn(20)) - 5}
		}
		return &mdlGV{kind: 'f', f: []float64{1.5, 0, -0.5, 1e21, 0.1, 10.5, 1e-7, 2, math.Copysign(0, -1)}[r.intn(9)]}
	case rules.Bool:
		switch r.intn(4) {
		case 0:
			return &mdlGV{kind: 's', s: r.pick("on", "off", "TRUE", "1", "yes")}
		case 1:
			return &mdlGV{kind: 'i', i: int64(r.intn(3))}
		}
		return &mdlGV{kind: 'b', b: r.chance(50)}
	case rules.Time:
		switch r.intn(4) {
		case 0:
			return &mdlGV{kind: 't', t: time.Date(2018, 5, 17, 14, 49, 34, r.intn(2)*500000000, time.FixedZone("", 3600*(r.intn(3)-1)))}
		case 1:
			return &mdlGV{kind: 'i', i: []int64{1526568574000, 0, -1000}[r.intn(3)]}
		}
		return &mdlGV{kind: 's', s: r.pick("2024-01-15", "2024/1/2", "2024-01-15T10:30:00Z", "2006-01-02 15:04:05", "2024-02-30", "12", "2024-01-15t10:30:00z")}
	case rules.List:
		l := &mdlGV{kind: 'l'}
		for i := r.intn(3); i > 0; i-- {
			l.elems = append(l.elems, g.scalar(mdlElemKinds[r.intn(len(mdlElemKinds))]))
		}
		return l
	case rules.Object:
		o := &mdlGV{kind: 'o'}
		for i := r.intn(3); i > 0; i-- {
			o.set(r.pick("k", "a", "b"), g.scalar(rules.Int))
		}
		return o
	}
	return &mdlGV{kind: 'n'}
}

// valueFor generates a value for field f, usually of a kind it reads.
func (g *mdlGen) valueFor(f *mdlField, depth int) *mdlGV {
	r := g.r
	if r.chance(6) {
		return &mdlGV{kind: 'n'}
	}
	switch {
	case f.kind == dsl.FieldRef:
		e := g.reg.ents[f.ref]
		if e == nil || depth > 3 || r.chance(10) {
			return g.scalar(rules.Any)
		}
		if f.list || r.chance(30) {
			l := &mdlGV{kind: 'l'}
			for i := r.intn(3); i > 0; i-- {
				if r.chance(12) {
					l.elems = append(l.elems, g.scalar(rules.Any))
					continue
				}
				l.elems = append(l.elems, g.objectFor(e, depth+1))
			}
			return l
		}
		return g.objectFor(e, depth+1)
	case f.list:
		l := &mdlGV{kind: 'l'}
		for i := r.intn(4); i > 0; i-- {
			if r.chance(10) {
				l.elems = append(l.elems, &mdlGV{kind: 'n'})
				continue
			}
			l.elems = append(l.elems, g.scalar(f.elem))
		}
		if r.chance(8) {
			return g.scalar(f.elem)
		}
		return l
	}
	return g.scalar(f.typ)
}

// objectFor generates an input object for entity e: its fields' keys (and
// from paths) mostly there, and now and then a key it does not declare.
func (g *mdlGen) objectFor(e *mdlEntity, depth int) *mdlGV {
	o := &mdlGV{kind: 'o'}
	g.fill(o, e.fields, depth)
	if g.r.chance(25) {
		o.set(mdlNamePool[g.r.intn(len(mdlNamePool))], g.scalar(rules.Any))
	}
	return o
}

func (g *mdlGen) fill(o *mdlGV, fields []*mdlField, depth int) {
	for _, f := range fields {
		if f.kind == dsl.FieldGroup {
			if f.from != nil {
				sub := &mdlGV{kind: 'o'}
				g.fill(sub, f.children, depth)
				o.setPath(f.from, sub)
			} else {
				g.fill(o, f.children, depth)
			}
			continue
		}
		if !g.r.chance(80) {
			continue
		}
		if f.merge {
			if e := g.reg.ents[f.ref]; e != nil && depth < 4 {
				if f.from != nil {
					o.setPath(f.from, g.objectFor(e, depth+1))
				} else {
					o.set(f.name, g.objectFor(e, depth+1))
				}
			}
			continue
		}
		v := g.valueFor(f, depth)
		if f.from != nil {
			o.setPath(f.from, v)
		} else {
			o.set(f.name, v)
		}
	}
}

// wireFor generates a body in the wire form for entity e: output keys,
// groups as objects, merged keys in place, X- fields into headers at the
// top level.
func (g *mdlGen) wireFor(e *mdlEntity, fields []*mdlField, o *mdlGV, h http.Header, depth int) {
	for _, f := range fields {
		if !g.r.chance(80) {
			continue
		}
		switch {
		case h != nil && mdlIsHeader(f.name):
			h.Add(f.name, g.r.pick("7", "abc", "2024-01-15", "true"))
		case f.kind == dsl.FieldGroup:
			sub := &mdlGV{kind: 'o'}
			g.wireFor(e, f.children, sub, nil, depth)
			o.set(f.key, sub)
		case f.kind == dsl.FieldRef && f.merge:
			if me := g.reg.ents[f.ref]; me != nil && depth < 4 {
				g.wireFor(me, me.fields, o, nil, depth+1)
			}
		case f.kind == dsl.FieldRef:
			me := g.reg.ents[f.ref]
			if me == nil || depth > 3 {
				continue
			}
			sub := &mdlGV{kind: 'o'}
			g.wireFor(me, me.fields, sub, nil, depth+1)
			if f.list {
				o.set(f.key, &mdlGV{kind: 'l', elems: []*mdlGV{sub}})
			} else {
				o.set(f.key, sub)
			}
		default:
			o.set(f.key, g.valueFor(f, depth))
		}
	}
	if g.r.chance(15) {
		o.set(mdlNamePool[g.r.intn(len(mdlNamePool))], g.scalar(rules.Any))
	}
}

// toGo makes a generated value a Go value as a handler holds it: maps,
// slices (typed where they can be), pointers now and then.
func (g *mdlGen) toGo(v *mdlGV) any {
	r := g.r
	var out any
	switch v.kind {
	case 'n':
		if r.chance(20) {
			return (*string)(nil)
		}
		return nil
	case 's':
		out = v.s
		if r.chance(5) {
			out = []byte(v.s)
		}
	case 'i':
		out = v.i
		if r.chance(30) && v.i == int64(int32(v.i)) {
			out = int(v.i)
		}
	case 'u':
		out = v.u
	case 'f':
		out = v.f
	case 'b':
		out = v.b
	case 't':
		out = v.t
	case 'N':
		out = json.Number(v.s)
	case 'x':
		return v.obj
	case 'l':
		allStr, allObj := len(v.elems) > 0, len(v.elems) > 0
		for _, e := range v.elems {
			allStr = allStr && e.kind == 's'
			allObj = allObj && e.kind == 'o'
		}
		switch {
		case len(v.elems) == 0 && r.chance(20):
			return []any(nil)
		case allStr && r.chance(40):
			s := make([]string, len(v.elems))
			for i, e := range v.elems {
				s[i] = e.s
			}
			return s
		case allObj && r.chance(40):
			s := make([]map[string]any, len(v.elems))
			for i, e := range v.elems {
				s[i], _ = g.toGo(e).(map[string]any)
			}
			return s
		}
		s := make([]any, len(v.elems))
		for i, e := range v.elems {
			s[i] = g.toGo(e)
		}
		return s
	case 'o':
		if len(v.keys) == 0 && r.chance(15) {
			return map[string]any(nil)
		}
		m := make(map[string]any, len(v.keys))
		for i, k := range v.keys {
			m[k] = g.toGo(v.vals[i])
		}
		return m
	}
	if r.chance(5) {
		p := reflect.New(reflect.TypeOf(out))
		p.Elem().Set(reflect.ValueOf(out))
		return p.Interface()
	}
	return out
}

// toStruct makes a generated object a struct of a type built with
// reflect.StructOf: a field per key, json-tagged with it (or named after
// it, when it is a Go name), nested objects as structs or maps, some
// fields in an embedded struct, a json:"-" field, sql.Null* values.
func (g *mdlGen) toStruct(v *mdlGV, depth int) any {
	r := g.r
	var fields []reflect.StructField
	var values []reflect.Value
	var embedded []int
	for i, k := range v.keys {
		if !mdlTagName(k) {
			continue
		}
		val := g.structValue(v.vals[i], depth)
		sf := reflect.StructField{Name: "F" + strconv.Itoa(i), Type: val.Type(), Tag: reflect.StructTag(`json:"` + k + `"`)}
		if k[0] >= 'A' && k[0] <= 'Z' && strings.Trim(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == "" && r.chance(50) {
			sf.Name, sf.Tag = k, ""
		}
		fields = append(fields, sf)
		values = append(values, val)
		if r.chance(15) {
			embedded = append(embedded, len(fields)-1)
		}
	}
	if r.chance(15) && len(v.keys) > 0 && mdlTagName(v.keys[0]) {
		fields = append(fields, reflect.StructField{Name: "Hidden", Type: reflect.TypeOf(""), Tag: `json:"-"`})
		values = append(values, reflect.ValueOf("hidden"))
	}
	if len(embedded) > 0 && len(embedded) < len(fields) {
		var inner []reflect.StructField
		var innerVals []reflect.Value
		var outer []reflect.StructField
		var outerVals []reflect.Value
		isEmb := map[int]bool{}
		for _, i := range embedded {
			isEmb[i] = true
		}
		for i := range fields {
			if isEmb[i] {
				inner = append(inner, fields[i])
				innerVals = append(innerVals, values[i])
			} else {
				outer = append(outer, fields[i])
				outerVals = append(outerVals, values[i])
			}
		}
		it := reflect.StructOf(inner)
		iv := reflect.New(it).Elem()
		for i, x := range innerVals {
			iv.Field(i).Set(x)
		}
		if r.chance(30) {
			p := reflect.New(it)
			if r.chance(70) {
				p.Elem().Set(iv)
			} else {
				p = reflect.Zero(reflect.PointerTo(it))
			}
			outer = append(outer, reflect.StructField{Name: "Emb", Type: p.Type(), Anonymous: true})
			outerVals = append(outerVals, p)
		} else {
			outer = append(outer, reflect.StructField{Name: "Emb", Type: it, Anonymous: true})
			outerVals = append(outerVals, iv)
		}
		fields, values = outer, outerVals
	}
	st := reflect.StructOf(fields)
	sv := reflect.New(st).Elem()
	for i, x := range values {
		sv.Field(i).Set(x)
	}
	if r.chance(30) {
		return sv.Addr().Interface()
	}
	return sv.Interface()
}

// mdlTagName reports whether k can be a json tag name (encoding/json
// ignores other tags).
func mdlTagName(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		default:
			return false
		}
	}
	return true
}

func (g *mdlGen) structValue(v *mdlGV, depth int) reflect.Value {
	r := g.r
	switch v.kind {
	case 'o':
		if depth < 4 && r.chance(70) && len(v.keys) > 0 {
			return reflect.ValueOf(g.toStruct(v, depth+1))
		}
	case 's':
		if r.chance(15) {
			return reflect.ValueOf(sql.NullString{String: v.s, Valid: true})
		}
		return reflect.ValueOf(v.s)
	case 'i':
		if r.chance(15) {
			return reflect.ValueOf(sql.NullInt64{Int64: v.i, Valid: true})
		}
		if r.chance(30) && v.i == int64(int32(v.i)) {
			return reflect.ValueOf(int32(v.i))
		}
		return reflect.ValueOf(v.i)
	case 'f':
		return reflect.ValueOf(v.f)
	case 'b':
		return reflect.ValueOf(v.b)
	case 'n':
		switch r.intn(3) {
		case 0:
			return reflect.ValueOf(sql.NullString{})
		case 1:
			return reflect.Zero(reflect.TypeOf((*int)(nil)))
		}
		return reflect.Zero(reflect.TypeOf((*any)(nil)).Elem())
	}
	x := g.toGo(v)
	if x == nil {
		return reflect.Zero(reflect.TypeOf((*any)(nil)).Elem())
	}
	return reflect.ValueOf(x)
}

// toJSON writes a generated value as raw JSON: numbers in several
// spellings, white space, escapes, now and then a key written twice (the
// last wins).
func (g *mdlGen) toJSON(dst []byte, v *mdlGV) []byte {
	r := g.r
	switch v.kind {
	case 'n':
		return append(dst, "null"...)
	case 's':
		if r.chance(10) && v.s != "" && v.s[0] < 0x80 {
			return append(fmt.Appendf(dst, `"\u%04x`, v.s[0]), mdlEncodeString(nil, v.s[1:])[1:]...)
		}
		return mdlEncodeString(dst, v.s)
	case 'i':
		switch {
		case r.chance(15):
			return append(strconv.AppendInt(dst, v.i, 10), ".0"...)
		case r.chance(10) && v.i > 0:
			return append(strconv.AppendInt(dst, v.i, 10), "e0"...)
		}
		return strconv.AppendInt(dst, v.i, 10)
	case 'u':
		return strconv.AppendUint(dst, v.u, 10)
	case 'f':
		if math.IsNaN(v.f) || math.IsInf(v.f, 0) {
			return append(dst, "1e400"...)
		}
		if r.chance(15) {
			return strconv.AppendFloat(dst, v.f, 'e', -1, 64)
		}
		b, _ := json.Marshal(v.f)
		return append(dst, b...)
	case 'b':
		return strconv.AppendBool(dst, v.b)
	case 't':
		return mdlEncodeString(dst, v.t.Format(time.RFC3339Nano))
	case 'N':
		if json.Valid([]byte(v.s)) {
			return append(dst, v.s...)
		}
		return mdlEncodeString(dst, v.s)
	case 'x':
		b, _ := v.obj.MarshalJSON()
		return append(dst, b...)
	case 'l':
		dst = append(dst, '[')
		for i, e := range v.elems {
			if i > 0 {
				dst = append(dst, r.pick(",", ", ", " ,")...)
			}
			dst = g.toJSON(dst, e)
		}
		return append(dst, ']')
	case 'o':
		dst = append(dst, '{')
		for i, k := range v.keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			if r.chance(5) {
				dst = mdlEncodeString(dst, k)
				dst = append(dst, ':')
				dst = g.toJSON(dst, g.scalar(rules.Any))
				dst = append(dst, ',')
			}
			dst = mdlEncodeString(dst, k)
			dst = append(dst, r.pick(":", ": ", " : ")...)
			dst = g.toJSON(dst, v.vals[i])
		}
		return append(dst, '}')
	}
	return dst
}

// input generates the call's input for the case's entity in one of the
// input kinds, and describes it.
func (g *mdlGen) input(cs *mdlCase, reg *entity.Registry) {
	r := g.r
	e := g.reg.ents[cs.entity]
	var v *mdlGV
	if r.chance(12) {
		v = &mdlGV{kind: 'l'}
		for i := r.intn(3); i > 0; i-- {
			v.elems = append(v.elems, g.objectFor(e, 0))
		}
	} else {
		v = g.objectFor(e, 0)
	}
	if g.scenario == mdlWriteOnlyRef || r.chance(10) {
		g.objects(cs, reg, v)
	}
	switch r.intn(10) {
	case 0, 1, 2:
		b := g.toJSON(nil, v)
		cs.input, cs.desc = b, "raw JSON "+string(b)
	case 3, 4:
		if v.kind == 'o' {
			cs.input = g.toStruct(v, 0)
			cs.desc = fmt.Sprintf("struct %#v", cs.input)
			break
		}
		fallthrough
	default:
		cs.input = g.toGo(v)
		cs.desc = fmt.Sprintf("%#v", cs.input)
	}
}

// objects replaces the input, or a $ref value in it, by an *entity.Object
// the library made: by Make, by Make with shaping options, or by
// MakeRequest (whose Object holds writeonly fields), to check that it is
// made again as the docs say.
func (g *mdlGen) objects(cs *mdlCase, reg *entity.Registry, v *mdlGV) {
	if cs.prov == nil {
		cs.prov = map[*entity.Object]mdlProv{}
	}
	put := func(at *mdlGV, name string) {
		if obj, prov := g.makeObject(reg, name); obj != nil {
			cs.prov[obj] = prov
			*at = mdlGV{kind: 'x', obj: obj}
		}
	}
	if v.kind == 'o' && g.r.chance(60) {
		for _, f := range g.reg.ents[cs.entity].fields {
			at := v.get(f.name)
			if f.kind != dsl.FieldRef || f.merge || f.from != nil || at == nil {
				continue
			}
			if at.kind == 'l' && len(at.elems) > 0 {
				at = at.elems[0]
			}
			put(at, f.ref)
			return
		}
	}
	switch v.kind {
	case 'o':
		put(v, cs.entity)
	case 'l':
		if len(v.elems) > 0 {
			put(v.elems[0], cs.entity)
		}
	}
}

// makeObject makes an Object of entity name with the library.
func (g *mdlGen) makeObject(reg *entity.Registry, name string) (*entity.Object, mdlProv) {
	r := g.r
	e := g.reg.ents[name]
	prov := mdlProv{entity: name}
	switch r.intn(3) {
	case 0:
		prov.request = true
		body := &mdlGV{kind: 'o'}
		h := http.Header{}
		if r.chance(50) {
			g.wireFor(e, e.fields, body, h, 0)
		} else {
			g.fill(body, e.fields, 0)
		}
		req := httptest.NewRequest("POST", "/", bytes.NewReader(g.toJSON(nil, body)))
		req.Header.Set("Content-Type", "application/json")
		for k, vs := range h {
			req.Header[k] = vs
		}
		obj, err := reg.Lookup(name).MakeRequest(req, entity.Lax())
		if err != nil {
			return nil, prov
		}
		return obj, prov
	case 1:
		prov.shaped = true
		opts := []entity.Option{entity.With(g.flags[r.intn(len(g.flags))])}
		if r.chance(50) {
			opts = []entity.Option{entity.Version(r.pick("v1", "v2", "v3"))}
		}
		obj, err := reg.Lookup(name).Make(g.toGo(g.objectFor(e, 0)), opts...)
		if err != nil {
			return nil, prov
		}
		return obj, prov
	}
	obj, err := reg.Lookup(name).Make(g.toGo(g.objectFor(e, 0)))
	if err != nil {
		return nil, prov
	}
	return obj, prov
}

// request generates a request call: a JSON body in the wire form, X-
// headers.
func (g *mdlGen) request(cs *mdlCase) {
	e := g.reg.ents[cs.entity]
	body := &mdlGV{kind: 'o'}
	h := http.Header{}
	g.wireFor(e, e.fields, body, h, 0)
	text := g.toJSON(nil, body)
	method := "POST"
	if len(e.methods) > 0 && g.r.chance(80) {
		method = strings.FieldsFunc(e.methods[0], func(c rune) bool { return c == ' ' || c == '|' || c == ',' })[0]
	}
	cs.request = func() *http.Request {
		req := httptest.NewRequest(method, "/", bytes.NewReader(text))
		req.Header.Set("Content-Type", "application/json")
		for k, vs := range h {
			req.Header[k] = vs
		}
		return req
	}
	cs.desc = fmt.Sprintf("%s body %s headers %v", method, text, h)
}

// options generates the call's options.
func (g *mdlGen) options(cs *mdlCase) {
	r := g.r
	o := &cs.opts
	if r.chance(35) || g.scenario == mdlFromFlags {
		o.hasWith = true
		for _, f := range g.flags {
			if r.chance(40) {
				o.with = append(o.with, f)
			}
		}
		if r.chance(3) {
			o.with = append(o.with, "ghost")
		}
	}
	if r.chance(10) {
		o.hasCtx = true
		o.ctxFlags = []string{r.pick("admin", "staff", "ghost")}
	}
	if r.chance(35) || g.scenario == mdlVersionMerge {
		o.version = r.pick("v1", "v2", "v2.1", "v3", "v10", "2", "v1.5", "1.4.9")
		if r.chance(3) {
			o.version = "latest"
		}
	}
	switch x := r.intn(100); {
	case x < 35 || (g.scenario == mdlVersionMerge && x < 70):
		o.hasSel, o.sel = true, g.spec(cs)
	case x < 45:
		o.hasOnly, o.only = true, g.paths(cs)
	}
	if r.chance(12) {
		o.hasExcept, o.except = true, g.paths(cs)
	}
	switch x := r.intn(100); {
	case x < 25:
		o.strict = true
	case x < 35:
		o.lax = true
	}
	if r.chance(35) || g.scenario == mdlFromFlags {
		o.deny = true
	}
	if r.chance(25) || g.scenario == mdlSecretMsgs {
		o.lang = r.pick("ja", "en", "ja-JP")
	}
}

// keysAt gives the output keys of one level, merged keys in place, with
// the fields that have fields.
func (g *mdlGen) keysAt(fields []*mdlField) ([]string, map[string][]*mdlField) {
	var keys []string
	sub := map[string][]*mdlField{}
	for _, f := range fields {
		if f.kind == dsl.FieldRef && f.merge {
			if e := g.reg.ents[f.ref]; e != nil {
				k, s := g.keysAt(e.fields)
				keys = append(keys, k...)
				for kk, v := range s {
					sub[kk] = append(sub[kk], v...)
				}
			}
			continue
		}
		keys = append(keys, f.key)
		switch f.kind {
		case dsl.FieldGroup:
			sub[f.key] = append(sub[f.key], f.children...)
		case dsl.FieldRef:
			if e := g.reg.ents[f.ref]; e != nil {
				sub[f.key] = append(sub[f.key], e.fields...)
			}
		}
	}
	return keys, sub
}

// spec generates a Select spec from the entity's output keys, with
// sub-selections, *, and now and then a name that is not there.
func (g *mdlGen) spec(cs *mdlCase) string {
	return g.specAt(g.reg.ents[cs.entity].fields, 0)
}

func (g *mdlGen) specAt(fields []*mdlField, depth int) string {
	r := g.r
	keys, sub := g.keysAt(fields)
	if len(keys) == 0 || depth > 3 {
		return "*"
	}
	var items []string
	for i := 1 + r.intn(3); i > 0; i-- {
		k := keys[r.intn(len(keys))]
		switch {
		case r.chance(4):
			items = append(items, k+"x")
		case r.chance(10):
			items = append(items, "*")
		case len(sub[k]) > 0 && r.chance(40):
			if r.chance(50) {
				items = append(items, k+"/"+g.specAt(sub[k], depth+1))
			} else {
				items = append(items, k+"("+g.specAt(sub[k], depth+1)+")")
			}
		default:
			items = append(items, k)
		}
	}
	s := strings.Join(items, ",")
	if strings.Contains(s, "*/") || strings.Contains(s, "*(") {
		return strings.ReplaceAll(strings.ReplaceAll(s, "*/", "*,"), "*(", "*,(")
	}
	return s
}

// paths generates Only or Except paths.
func (g *mdlGen) paths(cs *mdlCase) []string {
	r := g.r
	var out []string
	for i := r.intn(3); i > 0; i-- {
		fields := g.reg.ents[cs.entity].fields
		var steps []string
		for d := 0; d < 3; d++ {
			keys, sub := g.keysAt(fields)
			if len(keys) == 0 {
				break
			}
			k := keys[r.intn(len(keys))]
			if r.chance(4) {
				k += "x"
			}
			if r.chance(8) {
				k = "*"
			}
			steps = append(steps, strings.ReplaceAll(k, ".", `\.`))
			if k == "*" || len(sub[k]) == 0 || r.chance(50) {
				break
			}
			fields = sub[k]
		}
		out = append(out, strings.Join(steps, "."))
	}
	return out
}
