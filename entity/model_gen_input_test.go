package entity_test

// The input generators of FuzzModel: values of every kind for the fields
// of a generated declaration, made maps, structs (reflect.StructOf), raw
// JSON, Objects or requests, and the call's options.

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
	if g.spent() || r.chance(6) {
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
	if g.spent() {
		return o
	}
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
		if !g.r.chance(80) || g.spent() {
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
