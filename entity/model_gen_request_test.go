package entity_test

// The generators of FuzzModelRequest: the declarations of FuzzModel with
// parameters (path, query, header, cookie, X- fields) and cross-field
// rules added, and requests for them: methods, headers, query strings,
// cookies, path values (through SetPathValue or the registry's
// PathValues), bodies in the wire form with repeated keys and nulls in
// every position, and merge patches against a current value.

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// mdlParamFields are fields a request reads from its parameters, added to
// generated declarations.
var mdlParamFields = [][3]string{
	{"id", "number", "path"},
	{"id", "number", "path 'pid' | req | min 1"},
	{"limit", "number", "query | default 20 | range 1 100"},
	{"page", "[]number", "query"},
	{"q", "string", "query | min 2"},
	{"on", "bool", "query"},
	{"day", "date", "query"},
	{"tok", "string", "header 'Authorization'"},
	{"ratio", "float", "header 'X-Ratio'"},
	{"sid", "string", "cookie 'sid'"},
	{"uid", "number", "cookie"},
	{"X-Req", "string", ""},
	{"X-Count", "number", "req"},
	{"X-Tags", "[]string", ""},
	{"X-Mode", "string", "in fast slow | secret"},
}

// requestDecls adds parameters and cross-field rules to the generated
// declarations, and now and then the methods a request must use.
func (g *mdlGen) requestDecls(cs *mdlCase) {
	r := g.r
	for i := range cs.decls {
		d := &cs.decls[i]
		for j := len(d.triples) % 3; j+2 < len(d.triples); j += 3 {
			// a group or a reference named X-… (a header field's name) is
			// no field a request can send: none is generated
			if t := d.triples[j+1]; mdlIsHeader(d.triples[j]) && (t == "{" || t == "}" || strings.Contains(t, "$")) {
				d.triples[j] = "x_trace"
			}
		}
		if i == 0 || r.chance(15) {
			d.triples = g.paramFields(d.triples)
		}
		d.triples = g.crossRules(d.triples)
	}
	if d := &cs.decls[0]; len(d.triples)%3 == 0 && r.chance(20) {
		d.triples = append([]string{r.pick("POST", "PATCH", "PUT, PATCH", "GET|HEAD", "POST|PATCH|GET")}, d.triples...)
	}
}

// paramFields adds parameter fields to a declaration's top level, and
// source directives to some of its value fields.
func (g *mdlGen) paramFields(triples []string) []string {
	r := g.r
	start := len(triples) % 3
	names := map[string]bool{}
	depth := 0
	for i := start; i+2 < len(triples); i += 3 {
		switch triples[i+1] {
		case "{":
			depth++
		case "}":
			depth--
		default:
			if depth == 0 {
				names[triples[i]] = true
			}
		}
	}
	out := append([]string(nil), triples...)
	depth = 0
	for i := start; i+2 < len(out); i += 3 {
		switch out[i+1] {
		case "{":
			depth++
			continue
		case "}":
			depth--
			continue
		}
		k, ok := dsl.LookupType(out[i+1])
		if depth > 0 || !ok || k == rules.Object || k == rules.List || mdlIsHeader(out[i]) || !r.chance(12) {
			continue
		}
		src := r.pick("query", "header 'X-H"+strconv.Itoa(r.intn(3))+"'", "cookie 'c"+strconv.Itoa(r.intn(3))+"'", "path 'p"+strconv.Itoa(r.intn(3))+"'", "query")
		out[i+2] = mdlAddRule(out[i+2], src)
	}
	for n := r.intn(4); n > 0; n-- {
		p := mdlParamFields[r.intn(len(mdlParamFields))]
		if names[p[0]] {
			continue
		}
		names[p[0]] = true
		out = append(out, p[0], p[1], p[2])
	}
	return out
}

// mdlAddRule appends a rule to a rules string.
func mdlAddRule(rs, rule string) string {
	if strings.TrimSpace(rs) == "" {
		return rule
	}
	return rs + " | " + rule
}

// crossRules adds cross-field rules between siblings: the value fields and
// references of one object.
func (g *mdlGen) crossRules(triples []string) []string {
	r := g.r
	type sib struct {
		i    int // the triple's index
		kind rules.Kind
		ref  bool
	}
	out := append([]string(nil), triples...)
	var stack [][]sib
	stack = append(stack, nil)
	add := func(level []sib) {
		if len(level) < 2 || !r.chance(35) {
			return
		}
		for n := 1 + r.intn(2); n > 0; n-- {
			a, b := level[r.intn(len(level))], level[r.intn(len(level))]
			if out[a.i] == out[b.i] {
				continue
			}
			other := "'" + strings.ReplaceAll(out[b.i], "'", "''") + "'"
			var rule string
			switch x := r.intn(4); {
			case x == 0 && !b.ref:
				rule = "required_if " + other + " " + mdlCrossValue(r, b.kind)
			case x <= 1:
				rule = "required_with " + other
			case x == 2:
				rule = "required_without " + other
			default:
				rule = "excluded_with " + other
			}
			out[a.i+2] = mdlAddRule(out[a.i+2], rule)
		}
	}
	for i := len(triples) % 3; i+2 < len(out); i += 3 {
		switch t := out[i+1]; {
		case t == "{":
			stack = append(stack, nil)
		case t == "}":
			add(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		case strings.HasPrefix(t, "$") || strings.HasPrefix(t, "[]$"):
			if !mdlHasWord(out[i+2], "merge") {
				stack[len(stack)-1] = append(stack[len(stack)-1], sib{i: i, ref: true})
			}
		default:
			k, ok := dsl.LookupType(t)
			if ok && !strings.HasPrefix(t, "[]") {
				stack[len(stack)-1] = append(stack[len(stack)-1], sib{i: i, kind: k})
			}
		}
	}
	add(stack[0])
	return out
}

// mdlHasWord reports a rule named word in a rules string.
func mdlHasWord(rs, word string) bool {
	for _, r := range strings.Split(rs, "|") {
		if w, _, _ := strings.Cut(strings.TrimSpace(r), " "); strings.EqualFold(w, word) {
			return true
		}
	}
	return false
}

// mdlCrossValue gives required_if values for a sibling of kind k.
func mdlCrossValue(r *mdlRand, k rules.Kind) string {
	switch k {
	case rules.Int:
		return r.pick("7", "0", "1 2")
	case rules.Float:
		return r.pick("1.5", "0", "2")
	case rules.Bool:
		return r.pick("true", "false")
	case rules.Time:
		return r.pick("2024-01-15", "'2018-05-17T14:49:34Z'")
	}
	return r.pick("ann", "bob", "x", "12", "'a b'")
}

// mdlKV is one key and value, in the order a request gives them.
type mdlKV struct{ k, v string }

// mdlReqParts are the parts of a generated request.
type mdlReqParts struct {
	method, target, ct, body string
	hasBody                  bool
	query, headers, cookies  []mdlKV
	ctxFlags                 []string
	hasCtx                   bool
	setPaths                 map[string]string
}

// build makes the request, afresh.
func (p *mdlReqParts) build() *http.Request {
	var q []string
	for _, kv := range p.query {
		q = append(q, url.QueryEscape(kv.k)+"="+url.QueryEscape(kv.v))
	}
	target := p.target
	if len(q) > 0 {
		target += "?" + strings.Join(q, "&")
	}
	var req *http.Request
	if p.hasBody {
		req = httptest.NewRequest(p.method, target, bytes.NewReader([]byte(p.body)))
	} else {
		req = httptest.NewRequest(p.method, target, nil)
	}
	if p.ct != "" {
		req.Header.Set("Content-Type", p.ct)
	}
	for _, kv := range p.headers {
		req.Header.Add(kv.k, kv.v)
	}
	for _, kv := range p.cookies {
		req.AddCookie(&http.Cookie{Name: kv.k, Value: kv.v})
	}
	for k, v := range p.setPaths {
		req.SetPathValue(k, v)
	}
	if p.hasCtx {
		req = req.WithContext(entity.NewContext(context.Background(), p.ctxFlags...))
	}
	return req
}

func (p *mdlReqParts) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", p.method, p.target)
	if len(p.query) > 0 {
		fmt.Fprintf(&b, " query %q", p.query)
	}
	if p.ct != "" {
		fmt.Fprintf(&b, " Content-Type %q", p.ct)
	}
	if len(p.headers) > 0 {
		fmt.Fprintf(&b, " headers %q", p.headers)
	}
	if len(p.cookies) > 0 {
		fmt.Fprintf(&b, " cookies %q", p.cookies)
	}
	if len(p.setPaths) > 0 {
		fmt.Fprintf(&b, " SetPathValue %q", p.setPaths)
	}
	if p.hasCtx {
		fmt.Fprintf(&b, " context flags %q", p.ctxFlags)
	}
	if p.hasBody {
		fmt.Fprintf(&b, " body %s", p.body)
	}
	return b.String()
}

// requestCall generates a request call (MakeRequest, then Bind) or, when
// patch is set, a Patch call of a current value.
func (g *mdlGen) requestCall(cs *mdlCase, patch bool) {
	r := g.r
	e := g.reg.ents[cs.entity]
	p := &mdlReqParts{target: "/r"}
	switch {
	case patch && (len(e.methods) == 0 || r.chance(85)):
		p.method = "PATCH"
	case len(e.methods) > 0 && r.chance(80):
		ms := strings.FieldsFunc(e.methods[r.intn(len(e.methods))], func(c rune) bool { return c == ' ' || c == '|' || c == ',' })
		p.method = ms[0]
	default:
		p.method = r.pick("POST", "GET", "PUT", "PATCH", "DELETE", "HEAD", "POST", "GET")
	}
	g.params(cs, e.fields, p, 0)
	bodyFromQuery := !patch && !mdlHasBody(p.method) && r.chance(75)
	switch {
	case patch:
		p.hasBody = true
		p.ct = entity.MergePatchType
		if r.chance(6) {
			p.ct = r.pick("application/json", "", "application/merge-patch+json; charset=utf-8")
		}
		body := &mdlGV{kind: 'o'}
		g.patchFor(e.fields, body, 0)
		p.body = string(g.toJSONReq(nil, body))
		if r.chance(3) {
			p.body = r.pick("", "[1]", `{"a":`, "null")
		}
	case bodyFromQuery:
		g.queryBody(e.fields, p, 0)
		if r.chance(10) {
			p.ct = "application/json"
		}
	default:
		body := &mdlGV{kind: 'o'}
		g.wireReq(e.fields, body, 0, true)
		p.body = string(g.toJSONReq(nil, body))
		p.hasBody = true
		p.ct = "application/json"
		switch x := r.intn(100); {
		case x < 6:
			p.ct = r.pick("application/json; charset=utf-8", "application/vnd.api+json", "Application/JSON")
		case x < 9:
			p.ct = r.pick("", "text/plain", "application/x-www-form-urlencoded")
		case x < 12:
			p.body = r.pick("", " \n", "[1]", `"x"`, `{"a":`, "{}")
		}
		if p.body == "" {
			p.hasBody = r.chance(50)
		}
	}
	if p.hasBody && len(p.body) > 2 && strings.HasPrefix(p.ct, "application/") && r.chance(5) {
		// a body at the registry's limit, or past it (413)
		cs.bodyLimit = int64(len(p.body) - r.intn(3))
	}
	if r.chance(10) {
		p.query = append(p.query, mdlKV{mdlNamePool[r.intn(len(mdlNamePool))], r.pick("1", "x", "")})
	}
	if r.chance(20) {
		p.headers = append(p.headers, mdlKV{"Accept-Language", r.pick("ja", "en", "ja-JP,en;q=0.5", "fr, ja;q=0.8", "en;q=0.1, ja;q=0.9", "de")})
	}
	if r.chance(15) {
		p.hasCtx = true
		for _, f := range append(g.flags, "ghost") {
			if r.chance(40) {
				p.ctxFlags = append(p.ctxFlags, f)
			}
		}
	}
	cs.request, cs.parts = p.build, p
	cs.desc = p.String()
}

// params generates the request's parameters for the source fields of a
// top level (merged entities' included): path values, query keys,
// headers, cookies; now and then absent, repeated or of the wrong kind.
func (g *mdlGen) params(cs *mdlCase, fields []*mdlField, p *mdlReqParts, depth int) {
	r := g.r
	for _, f := range fields {
		if f.merge && depth < 3 {
			if e := g.reg.ents[f.ref]; e != nil {
				g.params(cs, e.fields, p, depth+1)
			}
			continue
		}
		if f.src == "" || r.chance(15) {
			continue
		}
		n := 1
		if (f.src == "query" || f.src == "header") && (f.list || f.typ == rules.List || r.chance(8)) {
			n = 1 + r.intn(3)
		}
		for i := 0; i < n; i++ {
			v := g.paramText(f)
			switch f.src {
			case "path":
				if cs.paths == nil {
					cs.paths = map[string]string{}
				}
				cs.paths[f.srcName] = v
			case "query":
				p.query = append(p.query, mdlKV{f.srcName, v})
			case "header":
				p.headers = append(p.headers, mdlKV{f.srcName, v})
			case "cookie":
				p.cookies = append(p.cookies, mdlKV{f.srcName, mdlCookieValue(v)})
			}
		}
	}
	if depth == 0 && len(cs.paths) > 0 {
		if r.chance(50) {
			cs.usePathValues = true
		} else {
			p.setPaths = cs.paths
		}
	}
}

// mdlCookieValue keeps the bytes a cookie value may hold (RFC 6265's
// cookie-octet), as net/http would drop the others.
func mdlCookieValue(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if c := v[i]; c > 0x20 && c < 0x7f && c != '"' && c != ',' && c != ';' && c != '\\' {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// paramText gives a parameter's text for a field, usually one it reads.
func (g *mdlGen) paramText(f *mdlField) string {
	r := g.r
	k := f.typ
	if f.list {
		k = f.elem
	}
	if r.chance(10) {
		return r.pick("", "abc", "1.0", " 7", "é")
	}
	switch k {
	case rules.Int:
		return r.pick("7", "-3", "+5", "007", "2.0", "1e3", "12", "9223372036854775808", "0")
	case rules.Float:
		return r.pick("1.5", "2", "-0", "1e3", "x", ".5")
	case rules.Bool:
		return r.pick("true", "on", "0", "FALSE", "yes", "1")
	case rules.Time:
		return r.pick("2024-01-15", "2024-01-15T10:30:00Z", "1526568574000", "x", "2024/1/2")
	}
	return mdlStrings[r.intn(len(mdlStrings))]
}

// queryBody generates the query of a request without a body whose method
// has none: its body fields as query keys, lists as repeated keys, now
// and then a group's or a reference's key (text, no object).
func (g *mdlGen) queryBody(fields []*mdlField, p *mdlReqParts, depth int) {
	r := g.r
	for _, f := range fields {
		if f.src != "" || !r.chance(70) {
			continue
		}
		switch {
		case f.merge:
			if e := g.reg.ents[f.ref]; e != nil && depth < 3 {
				g.queryBody(e.fields, p, depth+1)
			}
		case f.kind != dsl.FieldValue:
			if r.chance(20) {
				p.query = append(p.query, mdlKV{f.key, r.pick("x", "{}", "")})
			}
		default:
			n := 1
			if f.list || f.typ == rules.List || r.chance(6) {
				n = r.intn(4)
			}
			for i := 0; i < n; i++ {
				p.query = append(p.query, mdlKV{f.key, g.paramText(f)})
			}
		}
	}
}

// wireReq generates a request body in the wire form: output keys, groups
// as objects (or null, or no object), references as objects (or a list,
// or null), merged keys in place, every value now and then null; the keys
// of parameters now and then in the body (where no body supplies them),
// and keys no field reads.
func (g *mdlGen) wireReq(fields []*mdlField, o *mdlGV, depth int, top bool) {
	r := g.r
	for _, f := range fields {
		if !r.chance(80) || g.spent() {
			continue
		}
		switch {
		case f.src != "":
			if r.chance(12) {
				o.set(f.key, g.scalar(f.typ))
			}
		case f.kind == dsl.FieldGroup:
			switch x := r.intn(100); {
			case x < 7:
				o.set(f.key, &mdlGV{kind: 'n'})
			case x < 10:
				o.set(f.key, g.scalar(rules.Any))
			default:
				sub := &mdlGV{kind: 'o'}
				g.wireReq(f.children, sub, depth, false)
				o.set(f.key, sub)
			}
		case f.kind == dsl.FieldRef && f.merge:
			if me := g.reg.ents[f.ref]; me != nil && depth < 4 {
				g.wireReq(me.fields, o, depth+1, top)
			}
		case f.kind == dsl.FieldRef:
			me := g.reg.ents[f.ref]
			if me == nil || depth > 3 || r.chance(6) {
				o.set(f.key, &mdlGV{kind: 'n'})
				continue
			}
			obj := func() *mdlGV {
				sub := &mdlGV{kind: 'o'}
				g.wireReq(me.fields, sub, depth+1, false)
				return sub
			}
			if f.list || r.chance(5) {
				l := &mdlGV{kind: 'l'}
				for i := r.intn(3); i > 0; i-- {
					if r.chance(10) {
						l.elems = append(l.elems, r.pickGV(&mdlGV{kind: 'n'}, g.scalar(rules.Any)))
						continue
					}
					l.elems = append(l.elems, obj())
				}
				o.set(f.key, l)
			} else {
				o.set(f.key, obj())
			}
		case (f.typ == rules.Object || f.typ == rules.Any) && r.chance(12):
			// an object holding a null, which a request keeps
			o.set(f.key, &mdlGV{kind: 'o', keys: []string{"y", "z"}, vals: []*mdlGV{{kind: 'n'}, g.scalar(rules.Int)}})
		default:
			o.set(f.key, g.valueFor(f, depth))
		}
	}
	if r.chance(12) {
		o.set(mdlNamePool[r.intn(len(mdlNamePool))], g.scalar(rules.Any))
	}
}

func (r *mdlRand) pickGV(vs ...*mdlGV) *mdlGV { return vs[r.intn(len(vs))] }

// toJSONReq writes a generated value as a request body: as toJSON does,
// and now and then a key written twice, the first time with another
// value, or the second time with null (the last wins).
func (g *mdlGen) toJSONReq(dst []byte, v *mdlGV) []byte {
	r := g.r
	switch v.kind {
	case 'l':
		dst = append(dst, '[')
		for i, e := range v.elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = g.toJSONReq(dst, e)
		}
		return append(dst, ']')
	case 'o':
		dst = append(dst, '{')
		for i, k := range v.keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			if r.chance(4) {
				dst = mdlEncodeString(dst, k)
				dst = append(dst, ':')
				dst = g.toJSONReq(dst, r.pickGV(g.scalar(rules.Any), &mdlGV{kind: 'o'}, &mdlGV{kind: 'n'}))
				dst = append(dst, ',')
			}
			dst = mdlEncodeString(dst, k)
			dst = append(dst, ':')
			dst = g.toJSONReq(dst, v.vals[i])
			if r.chance(3) {
				dst = mdlEncodeString(append(dst, ','), k)
				dst = append(dst, ":null"...)
			}
		}
		return append(dst, '}')
	}
	return g.toJSON(dst, v)
}

// patchFor generates a merge patch: few of the keys, nulls that clear,
// objects that merge into groups and references, lists that replace,
// readonly keys (ignored) and keys no field reads.
func (g *mdlGen) patchFor(fields []*mdlField, o *mdlGV, depth int) {
	r := g.r
	for _, f := range fields {
		if !r.chance(35) || g.spent() {
			continue
		}
		if r.chance(15) {
			o.set(f.key, &mdlGV{kind: 'n'})
			continue
		}
		switch {
		case f.src != "":
			o.set(f.key, g.scalar(f.typ))
		case f.kind == dsl.FieldGroup:
			sub := &mdlGV{kind: 'o'}
			g.patchFor(f.children, sub, depth)
			o.set(f.key, sub)
		case f.kind == dsl.FieldRef && f.merge:
			if me := g.reg.ents[f.ref]; me != nil && depth < 4 {
				g.patchFor(me.fields, o, depth+1)
			}
		case f.kind == dsl.FieldRef && !f.list:
			if me := g.reg.ents[f.ref]; me != nil && depth < 3 {
				sub := &mdlGV{kind: 'o'}
				g.patchFor(me.fields, sub, depth+1)
				o.set(f.key, sub)
			}
		case f.kind == dsl.FieldRef:
			if me := g.reg.ents[f.ref]; me != nil && depth < 3 {
				l := &mdlGV{kind: 'l'}
				for i := r.intn(3); i > 0; i-- {
					sub := &mdlGV{kind: 'o'}
					g.wireReq(me.fields, sub, depth+1, false)
					l.elems = append(l.elems, sub)
				}
				o.set(f.key, l)
			}
		case (f.typ == rules.Object || f.typ == rules.Any) && r.chance(40):
			obj := &mdlGV{kind: 'o'}
			for i := r.intn(3); i > 0; i-- {
				obj.set(r.pick("k", "a", "b"), r.pickGV(&mdlGV{kind: 'n'}, g.scalar(rules.Int), &mdlGV{kind: 'o', keys: []string{"y"}, vals: []*mdlGV{{kind: 'n'}}}))
			}
			o.set(f.key, obj)
		default:
			o.set(f.key, g.valueFor(f, depth))
		}
	}
	if r.chance(8) {
		o.set(mdlNamePool[r.intn(len(mdlNamePool))], g.scalar(rules.Any))
	}
}

// currentFor generates a current value for a patch: an object by the
// declared names, of values of the fields' types (a current value that
// does not make is the server's error).
func (g *mdlGen) currentFor(fields []*mdlField, o *mdlGV, depth int) {
	r := g.r
	for _, f := range fields {
		if !r.chance(85) || g.spent() {
			continue
		}
		switch {
		case f.kind == dsl.FieldGroup && f.from == nil:
			g.currentFor(f.children, o, depth)
		case f.kind == dsl.FieldGroup:
			sub := &mdlGV{kind: 'o'}
			g.currentFor(f.children, sub, depth)
			o.setPath(f.from, sub)
		case f.kind == dsl.FieldRef:
			me := g.reg.ents[f.ref]
			if me == nil || depth > 2 {
				continue
			}
			obj := func() *mdlGV {
				sub := &mdlGV{kind: 'o'}
				g.currentFor(me.fields, sub, depth+1)
				return sub
			}
			var v *mdlGV
			switch {
			case f.list:
				v = &mdlGV{kind: 'l'}
				for i := r.intn(3); i > 0; i-- {
					v.elems = append(v.elems, obj())
				}
			case r.chance(8):
				v = &mdlGV{kind: 'n'}
			default:
				v = obj()
			}
			if f.from != nil {
				o.setPath(f.from, v)
			} else {
				o.set(f.name, v)
			}
		default:
			v := g.cleanValue(f)
			if f.from != nil {
				o.setPath(f.from, v)
			} else {
				o.set(f.name, v)
			}
		}
	}
}

// cleanValue gives a value of a field's type.
func (g *mdlGen) cleanValue(f *mdlField) *mdlGV {
	r := g.r
	if r.chance(8) && !f.req {
		return &mdlGV{kind: 'n'}
	}
	k := f.typ
	if f.list {
		l := &mdlGV{kind: 'l'}
		for i := r.intn(3); i > 0; i-- {
			l.elems = append(l.elems, g.cleanScalar(f.elem))
		}
		return l
	}
	return g.cleanScalar(k)
}

func (g *mdlGen) cleanScalar(k rules.Kind) *mdlGV {
	r := g.r
	switch k {
	case rules.String:
		return &mdlGV{kind: 's', s: r.pick("ann", "bob", "abc", "a@b.co", "https://x.io/a", "2024-01-15", "9:30", "", "12")}
	case rules.Int:
		return &mdlGV{kind: 'i', i: []int64{0, 1, 2, 3, 7, -5, 12}[r.intn(7)]}
	case rules.Float:
		return &mdlGV{kind: 'f', f: []float64{1.5, 0, -0.5, 2, 10.5, math.Copysign(0, -1)}[r.intn(6)]}
	case rules.Bool:
		return &mdlGV{kind: 'b', b: r.chance(50)}
	case rules.Time:
		return &mdlGV{kind: 's', s: r.pick("2024-01-15", "2018-05-17T14:49:34Z", "2024-01-15T10:30:00.5Z")}
	case rules.List:
		return &mdlGV{kind: 'l', elems: []*mdlGV{{kind: 'i', i: 1}}}
	case rules.Object:
		return &mdlGV{kind: 'o', keys: []string{"k"}, vals: []*mdlGV{{kind: 'i', i: 1}}}
	}
	return g.scalar(rules.Any)
}

// requestOptions generates the options of a request or patch call.
func (g *mdlGen) requestOptions(cs *mdlCase) {
	r := g.r
	o := &cs.opts
	if r.chance(30) {
		o.hasWith = true
		for _, f := range g.flags {
			if r.chance(40) {
				o.with = append(o.with, f)
			}
		}
	}
	if r.chance(8) {
		o.hasCtx = true
		o.ctxFlags = []string{r.pick("admin", "staff", "ghost")}
	}
	if r.chance(30) {
		o.version = r.pick("v1", "v2", "v2.1", "v3", "v1.5")
	}
	if r.chance(8) && cs.mode == "request" {
		o.hasSel, o.sel = true, g.spec(cs)
	}
	switch x := r.intn(100); {
	case x < 10:
		o.strict = true
	case x < 22:
		o.lax = true
	}
	if r.chance(40) {
		o.deny = true
	}
	if r.chance(15) {
		o.lang = r.pick("ja", "en")
	}
}
