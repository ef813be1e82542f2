package entity_test

// How the reference model reads an input: the keys an object may hold,
// DenyUnknown, a field's value under its name, key or from path, and the
// field errors it records.

import (
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

// known gives the keys an input object may hold for fields: the names (or
// the first step of from) of the fields the call reads there, groups'
// fields included; in the wire form the output keys, merged ones included.
func (c *mdlCall) known(fields []*mdlField, wire, top bool, into map[string]bool) {
	vis := c.visible(fields, true)
	for _, f := range fields {
		if !vis[f] {
			continue
		}
		switch {
		case wire && c.request && f.src != "" && !f.readOnly:
			// a body never supplies a parameter (a readonly one's key is
			// accepted: a client may send back what it got; so is a nested
			// object's, which is readonly: fieldsAt)
		case wire && f.merge:
			if e := c.reg.ents[f.ref]; e != nil {
				c.known(c.fieldsAt(e, top), true, top, into)
			}
		case wire:
			into[f.key] = true
		case f.kind == dsl.FieldGroup && f.from == nil:
			c.known(f.children, false, false, into)
		case f.from != nil:
			into[f.from[0]] = true
		default:
			into[f.name] = true
		}
	}
}

// denyUnknown reports the keys of the object in that fields do not read.
func (c *mdlCall) denyUnknown(fields []*mdlField, lvl mdlLevel, top bool) {
	if !c.deny {
		return
	}
	if _, ok := lvl.in.(*mdlQueryIn); ok {
		return // the query's keys: denyQuery
	}
	in := lvl.in
	if c.patching {
		// a patch's: only the keys the client sent
		in = nil
		if lvl.pin != nil {
			in = lvl.pin
		}
	}
	keys := mdlKeys(in)
	if c.patching && lvl.fresh {
		// merged into nothing, its nulls are removed (RFC 7396): no key
		keys = slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return mdlAt(lvl.pin, k).kind == mdlJNull })
	}
	if len(keys) == 0 {
		return
	}
	known := map[string]bool{}
	c.known(fields, lvl.wire, top, known)
	for _, k := range keys {
		if !known[k] {
			p := lvl.inP.key(k)
			c.errs = append(c.errs, mdlErr{path: p.String(), pointer: p.pointer(), code: "unknown"})
		}
	}
}

// mdlKeys gives the keys of an input object: a map's, raw JSON's (distinct),
// an Object's; a struct has none (its fields are not keys).
func mdlKeys(v any) []string {
	switch v := v.(type) {
	case *mdlJSON:
		return append(v.keys[:len(v.keys):len(v.keys)], v.hidden...)
	case mdlObjIn:
		return append(v.js.keys[:len(v.js.keys):len(v.js.keys)], v.js.hidden...)
	case nil:
		return nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Map {
		return nil
	}
	var keys []string
	for _, k := range rv.MapKeys() {
		keys = append(keys, k.String())
	}
	sort.Strings(keys)
	return keys
}

func mdlIsHeader(name string) bool {
	return len(name) >= 2 && (name[0] == 'X' || name[0] == 'x') && name[1] == '-'
}

// mdlLookup reads key from an input object: absent is (nil, false).
func mdlLookup(in any, key string) (any, bool) {
	switch v := in.(type) {
	case nil:
		return nil, false
	case *mdlQueryIn:
		vals, ok := v.q[key]
		if !ok {
			return nil, false
		}
		return mdlParam{vals: vals, in: "query", name: key}, true
	case *mdlJSON:
		if v.kind != mdlJObj {
			return nil, false
		}
		if e, ok := v.obj[key]; ok {
			return e, true
		}
		return nil, false
	case mdlObjIn:
		if e, ok := v.js.obj[key]; ok {
			return e, true
		}
		return nil, false
	}
	rv := reflect.ValueOf(in)
	switch rv.Kind() {
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return nil, false
		}
		e := rv.MapIndex(reflect.ValueOf(key).Convert(rv.Type().Key()))
		if !e.IsValid() {
			return nil, false
		}
		return e.Interface(), true
	case reflect.Struct:
		return mdlStructField(rv, key)
	}
	return nil, false
}

// mdlStructField reads the field of a struct that encoding/json would fill
// for key: by json tag, else Go name, embedded structs flattened, the
// shallowest field winning and, among several at one depth, the one tagged.
func mdlStructField(rv reflect.Value, key string) (any, bool) {
	type cand struct {
		index  []int
		tagged bool
	}
	type level struct {
		t     reflect.Type
		index []int
	}
	cur := []level{{t: rv.Type()}}
	seen := map[reflect.Type]bool{}
	for len(cur) > 0 {
		var next []level
		var found []cand
		for _, l := range cur {
			if seen[l.t] {
				continue
			}
			seen[l.t] = true
			for i := 0; i < l.t.NumField(); i++ {
				sf := l.t.Field(i)
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if !sf.IsExported() && !(sf.Anonymous && ft.Kind() == reflect.Struct) {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, _, _ := strings.Cut(tag, ",")
				index := append(append([]int(nil), l.index...), i)
				if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					next = append(next, level{t: ft, index: index})
					continue
				}
				if !sf.IsExported() {
					continue
				}
				tagged := name != ""
				if name == "" {
					name = sf.Name
				}
				if name == key {
					found = append(found, cand{index: index, tagged: tagged})
				}
			}
		}
		if len(found) > 0 {
			pick := -1
			if len(found) == 1 {
				pick = 0
			} else {
				for i, f := range found {
					if f.tagged {
						if pick >= 0 {
							return nil, false
						}
						pick = i
					}
				}
			}
			if pick < 0 {
				return nil, false
			}
			v := rv
			for _, i := range found[pick].index {
				if v.Kind() == reflect.Pointer {
					if v.IsNil() {
						return nil, false
					}
					v = v.Elem()
				}
				v = v.Field(i)
			}
			return v.Interface(), true
		}
		cur = next
	}
	return nil, false
}

// read reads f's value at a level: under its name, at its from path, under
// its output key in the wire form, or from the headers.
func (c *mdlCall) read(f *mdlField, lvl mdlLevel) (any, bool, mdlPath) {
	if lvl.wire {
		if c.request && f.src != "" {
			// a parameter is read from the request at its top level (the
			// keys merged into it too), never from a body object (a nested
			// object has none: fieldsAt)
			if lvl.top && c.req != nil {
				return c.readParam(f)
			}
			return nil, false, lvl.inP.key(f.srcName)
		}
		v, ok := mdlLookup(lvl.in, f.key)
		return v, ok, c.keyPath(lvl, f.key)
	}
	if f.from != nil {
		return c.readFrom(lvl.in, f.from, lvl.inP)
	}
	v, ok := mdlLookup(lvl.in, f.name)
	return v, ok, lvl.inP.key(f.name)
}

// keyPath is the path of key at a level: a query key's names the
// parameter.
func (c *mdlCall) keyPath(lvl mdlLevel, key string) mdlPath {
	if _, ok := lvl.in.(*mdlQueryIn); ok {
		return mdlPath{{key: key, in: "query"}}
	}
	return lvl.inP.key(key)
}

// readFrom follows a from path: a name steps into an object, a number
// into a list; a path that finds nothing is absent. The path read names
// every step, a number as an index unless it stepped into an object.
func (c *mdlCall) readFrom(in any, steps []string, p mdlPath) (any, bool, mdlPath) {
	cur, found := in, true
	for _, s := range steps {
		cur = mdlNorm(cur)
		if o, ok := cur.(*entity.Object); ok && o != nil { // an Object is stepped into by its keys, as it writes them
			b, _ := o.MarshalJSON()
			cur, _ = mdlParseJSON(b)
		}
		n, err := strconv.Atoi(s)
		isNum := err == nil && n >= 0 && strings.Trim(s, "0123456789") == ""
		switch {
		case isNum && !mdlIsObject(cur):
			p = p.idx(n)
			if found && mdlIsList(cur) && n < len(mdlElems(cur)) {
				cur = mdlElems(cur)[n]
				continue
			}
		default:
			p = p.key(s)
			if found {
				if v, ok := mdlLookup(cur, s); ok {
					cur = v
					continue
				}
			}
		}
		found, cur = false, nil
	}
	return cur, found, p
}

// fail records a field error of f.
func (c *mdlCall) fail(f *mdlField, p, op mdlPath, code string, sec bool) {
	e := mdlErr{path: p.String(), outPath: op.String(), code: code, in: p.in()}
	if e.in == "" {
		e.pointer = p.pointer()
	}
	switch {
	case f != nil && f.hasMsg:
		// {field} is "the field's input name" (go doc entity, SetMessages):
		// in a response its declared name, but its key in an Object read
		// by its output keys; in a request the name it is read under, its
		// wire key or its parameter's name (an element's error names its
		// list)
		name := f.name
		for i := len(p) - 1; i >= 0; i-- {
			if !p[i].isIdx {
				// a request's: the key it is read under; a response's
				// too where it read an Object of the entity by its
				// output keys (the wire form: the path says its key)
				if c.request || p[i].key == f.key {
					name = p[i].key
				}
				break
			}
		}
		e.msg, e.checkMsg = mdlRenderMsg(f.msg, name), true
	case (sec || (f != nil && f.secret)) && (code == "in" || code == "regex"):
		// go doc entity, Errors: "Under a secret field the messages that may
		// describe the value (in, regex, a custom rule's) are "is not
		// valid", in the call's language; the built-in ones that quote no
		// value stay"
		e.msg, e.checkMsg = "is not valid", true
		if strings.HasPrefix(c.lang, "ja") {
			e.msg = "正しくありません"
		}
	}
	c.errs = append(c.errs, e)
}

// mdlRenderMsg renders a msg: {field} is the input name, {{ and }} braces.
func mdlRenderMsg(msg, field string) string {
	var b strings.Builder
	for i := 0; i < len(msg); i++ {
		switch {
		case strings.HasPrefix(msg[i:], "{{"):
			b.WriteByte('{')
			i++
		case strings.HasPrefix(msg[i:], "}}"):
			b.WriteByte('}')
			i++
		case strings.HasPrefix(msg[i:], "{field}"):
			b.WriteString(field)
			i += len("{field}") - 1
		default:
			b.WriteByte(msg[i])
		}
	}
	return b.String()
}
