package entity_test

// The reference model's Patch, written from docs/requests.md ("PATCH: JSON
// Merge Patch"), go doc entity (Patch) and the request issue's statements
// on Patch: the request is checked as MakeRequest checks one (405), its
// body is a merge patch (415 for another Content-Type, 400 for no JSON
// object); the current value is made as this call's response would make
// it as stored, without its rules (one it cannot read is the server's
// error, 500); RFC 7396's MergePatch applies the
// patch to it; and the merged document is read as MakeRequest reads a
// body, but that a member of the current value the patch leaves in an
// object it merges into is taken as stored, as a readonly value is (no
// rule, type, req or default judges it, nor its own cross-field rules;
// keptStored), that a readonly value is always the current value's, a
// writeonly one is there only when the patch sets it (and required only
// then, or inside a list the patch replaces, whose elements are read as a
// request's are), and DenyUnknown judges only the keys the patch sent.

import (
	"mime"
	"net/http"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

// mdlMergePatch is RFC 7396, section 2:
//
//	define MergePatch(Target, Patch):
//	  if Patch is an Object:
//	    if Target is not an Object:
//	      Target = {} # Ignore the contents and set it to an empty Object
//	    for each Name/Value pair in Patch:
//	      if Value is null:
//	        if Name exists in Target:
//	          remove the Name/Value pair from Target
//	      else:
//	        Target[Name] = MergePatch(Target[Name], Value)
//	    return Target
//	  else:
//	    return Patch
//
// The patch's duplicate keys are read as every JSON input is: the last
// wins (mdlParseJSON). The order of an object's keys, which the RFC
// leaves open (and only JSON no entity describes shows): the target's
// keys keep their places, the patch's new keys follow in the order of
// their last places. Target is not modified.
func mdlMergePatch(target, patch *mdlJSON) *mdlJSON {
	if patch.kind != mdlJObj {
		return patch
	}
	out := &mdlJSON{kind: mdlJObj, obj: map[string]*mdlJSON{}}
	if target != nil && target.kind == mdlJObj {
		out.keys = append(out.keys, target.keys...)
		for k, v := range target.obj {
			out.obj[k] = v
		}
	}
	for _, name := range patch.lastKeys {
		value := patch.obj[name]
		if value.kind == mdlJNull {
			if _, ok := out.obj[name]; ok {
				delete(out.obj, name)
				out.keys = mdlRemove(out.keys, name)
			}
			continue
		}
		if _, ok := out.obj[name]; !ok {
			out.keys = append(out.keys, name)
		}
		out.obj[name] = mdlMergePatch(out.obj[name], value)
	}
	out.raw = mdlJSONText(nil, out)
	return out
}

func mdlRemove(keys []string, k string) []string {
	var out []string
	for _, x := range keys {
		if x != k {
			out = append(out, x)
		}
	}
	return out
}

// mdlJSONText writes a JSON value the model holds: an object's keys in
// order, every other value as its own text.
func mdlJSONText(dst []byte, v *mdlJSON) []byte {
	if v.kind != mdlJObj {
		return append(dst, v.raw...)
	}
	dst = append(dst, '{')
	for i, k := range v.keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = mdlEncodeString(dst, k)
		dst = append(dst, ':')
		dst = mdlJSONText(dst, v.obj[k])
	}
	return append(dst, '}')
}

// patch runs Patch(r, current) with entity name under opts.
func (r *mdlReg) patch(name string, req *http.Request, current any, o mdlOpts) mdlOutcome {
	e := r.ents[name]
	o.request = true
	if !mdlMethodAllowed(e, req.Method) {
		return mdlOutcome{fail: "method"}
	}
	c, sel, exc, fail := r.newCall(e, req, o, nil)
	if fail != "" {
		return mdlOutcome{fail: fail}
	}
	c.openRequest(req)
	cur, ok := r.current(e, current, c)
	// which of a request that cannot be read and a current value that
	// fails is answered is not documented: the model says neither
	if mt, _, err := mime.ParseMediaType(req.Header.Get("Content-Type")); err != nil || mt != entity.MergePatchType {
		return mdlOutcome{fail: mdlEither("media", ok)}
	}
	text, small := c.readBody(req)
	if !small {
		return mdlOutcome{fail: mdlEither("tooLarge", ok)}
	}
	p, err := mdlParseJSON([]byte(text))
	if err != nil || p.kind != mdlJObj {
		return mdlOutcome{fail: mdlEither("invalidJSON", ok)}
	}
	if !ok {
		return mdlOutcome{fail: "server"}
	}
	c.patching = true
	c.touched = map[string]bool{}
	var touched []string
	c.touch(e.fields, p, cur, nil, &touched, 0)
	merged := mdlMergePatch(cur, p)
	out := c.makeEntity(e, mdlLevel{in: merged, wire: true, top: true, cur: cur, pin: p}, sel, exc)
	c.denyQuery(e)
	if len(c.errs) > 0 {
		return mdlOutcome{errs: c.errs}
	}
	return mdlOutcome{json: mdlEncode(nil, out), full: mdlEncodeFull(nil, out), touched: touched, flags: c.flagList()}
}

// mdlEither is the failure of a request that cannot be read, or
// "undocumented" when the current value fails too.
func mdlEither(fail string, currentOK bool) string {
	if currentOK {
		return fail
	}
	return "undocumented"
}

// current reads the current value as it is stored: written in the wire
// form with the call's flags and version, without any rule (r.stored), every
// field it holds written (lazy ones, and those omitnil or omitempty would
// leave out: the current value itself, not what a response shows of it);
// ok is false when it cannot be read at all (no object, raw JSON that does
// not parse, a value that fails to be read).
func (r *mdlReg) current(e *mdlEntity, current any, call *mdlCall) (*mdlJSON, bool) {
	c := &mdlCall{reg: r.stored(), flags: call.flags, ver: call.ver, lang: call.lang, keepAll: true}
	v := current
	if b, isRaw := v.([]byte); isRaw {
		js, err := mdlParseJSON(b)
		if err != nil || js.kind != mdlJObj {
			return nil, false
		}
		v = js
	}
	v = c.readObject(mdlNorm(v))
	if v != nil && !mdlIsObject(v) {
		return nil, false
	}
	out := c.makeEntity(c.reg.ents[e.name], mdlLevel{in: v, topCall: true}, nil, nil)
	if len(c.errs) > 0 {
		return nil, false
	}
	js, err := mdlParseJSON(mdlEncode(nil, out))
	if err != nil {
		return nil, false
	}
	return js, true
}

// touch gives the paths of the fields a patch sets or clears, in the
// patch's order: a key of a field the call reads (no readonly one, no
// parameter, none the flags or the version hide), an object merged into
// a group or into the object the current value (cur) holds for a $name
// stepped into (one given where it holds none is given whole), merged keys
// in place.
func (c *mdlCall) touch(fields []*mdlField, p, cur *mdlJSON, at mdlPath, out *[]string, depth int) {
	if p == nil || p.kind != mdlJObj || depth > 16 {
		return
	}
	for _, k := range p.keys {
		f := c.wireField(fields, k, depth)
		if f == nil {
			continue
		}
		v := p.obj[k]
		switch {
		case f.kind == dsl.FieldGroup && v.kind == mdlJObj:
			c.touch(f.children, v, mdlSub(cur, k), at.key(k), out, depth+1)
		case f.kind == dsl.FieldRef && !f.list && v.kind == mdlJObj && c.reg.ents[f.ref] != nil && mdlSub(cur, k) != nil:
			c.touch(c.reg.ents[f.ref].fields, v, mdlSub(cur, k), at.key(k), out, depth+1)
		default:
			s := at.key(k).String()
			c.touched[s] = true
			*out = append(*out, s)
		}
	}
}

// wireField finds the field a request reads under key at a level, merged
// entities' keys in place: nil for none.
func (c *mdlCall) wireField(fields []*mdlField, key string, depth int) *mdlField {
	vis := c.visible(fields, false)
	for _, f := range fields {
		if !vis[f] || f.src != "" {
			continue
		}
		if f.merge {
			if e := c.reg.ents[f.ref]; e != nil && depth < 16 {
				if mf := c.wireField(e.fields, key, depth+1); mf != nil {
					return mf
				}
			}
			continue
		}
		if f.key == key {
			return f
		}
	}
	return nil
}

// mdlSub gives the object under key of an object, nil for none.
func mdlSub(v *mdlJSON, key string) *mdlJSON {
	if v == nil || v.kind != mdlJObj {
		return nil
	}
	if s, ok := v.obj[key]; ok && s.kind == mdlJObj {
		return s
	}
	return nil
}

// mdlAt gives the value under key of an object, nil for none.
func mdlAt(v *mdlJSON, key string) *mdlJSON {
	if v == nil || v.kind != mdlJObj {
		return nil
	}
	return v.obj[key]
}

// stored is the registry as a patch reads its current value: every entity's
// fields without any rule (no check, no transform, no req, no default, no
// cross-field rule; nothing left out by omitnil, omitempty or lazy), their
// names, types, formats, sources, directions and conditions as declared.
func (r *mdlReg) stored() *mdlReg {
	s := *r
	s.ents = make(map[string]*mdlEntity, len(r.ents))
	for name, e := range r.ents {
		se := *e
		se.fields = mdlStoredFields(e.fields)
		s.ents[name] = &se
	}
	return &s
}

// mdlStoredFields copies fields without their rules (see stored).
func mdlStoredFields(fields []*mdlField) []*mdlField {
	out := make([]*mdlField, len(fields))
	for i, f := range fields {
		sf := *f
		sf.ops, sf.each, sf.cross = nil, nil, nil
		sf.req, sf.hasDefault, sf.defArg = false, false, nil
		sf.omitNil, sf.omitEmpty, sf.lazy = false, false, false
		sf.children = mdlStoredFields(f.children)
		out[i] = &sf
	}
	return out
}
