package schema

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/tidwall/gjson"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// sampleRefDepth is how many references deep Sample makes objects. A
// reference nested deeper (a recursive entity) is null when it may be, and
// an empty list when it is required or has a default.
const sampleRefDepth = 2

// Sample returns an example payload of e in mode, as a call with opts sees
// e ([entity.With]'s flags and [entity.Version]'s version; other options
// are ignored, as [JSON] ignores them): for a Response a JSON object built
// from the declaration, what such a call writes ([entity.Entity.Fields]);
// without options, a call without flags or version; no lazy field (a call
// writes one only when its selection names it). Each value field holds its
// default when it has one (but a secret or writeonly field's, which Sample
// never prints), else its example (`example 'value'`, likewise never a
// secret or writeonly field's); otherwise Sample tries, in order, the
// candidate of each of the field's rules (the Sample hook of its
// [rules.Def]) and then the sample of the field's type
// ([rules.Kind.Sample]), and keeps the first that passes every check of
// the field. A group holds its fields; a $ref one object made the same
// way, two references deep, then null (an empty list where the reference
// is required or has a default). A field that omitnil or omitempty leaves
// out when its value is null or empty is left out when its sample is, as
// Make leaves it out: the payload holds nothing Make would not write. The
// cross-field rules ([entity.Field.Cross]) hold as the library judges
// them: a field excluded_with a present one is left out (null where the
// response always writes its key; of two fields that exclude each other,
// the later), and a field that required_if, required_with or
// required_without asks for holds a value that is not null.
//
// Where no candidate passes every check (two rules that each want
// something the other's candidate lacks, or a custom rule without a Sample
// hook that the type's sample fails), the field holds its type's zero
// value ("", 0, false, the Unix epoch, [], {}, null for none): the payload
// is then one that entitytest.Conform rejects, naming the rule. A hook that
// panics or returns a value that is not JSON is skipped. The same entity,
// mode and options always give the same bytes.
//
//	user := entity.MustExpose("user",
//		"id", "number", "readonly",
//		"name", "string", "req | rename 'userName'",
//		"password", "string", "writeonly | secret | min 8",
//		"address", "{", "",
//		"city", "string", "",
//		"address", "}", "",
//	)
//	schema.Sample(user, schema.Response) // {"id":1,"userName":"sample","address":{"city":"sample"}}
//	schema.Sample(user, schema.Request)  // {"userName":"sample","password":"aaaaaaaa","address":{"city":"sample"}}
//
// For a Request the sample is a request body the entity reads
// ([entity.Entity.RequestFields]) rather than an output it writes, in the
// wire form a client sends: each field under its key (after rename and key
// case), groups as nested objects, the keys of a merged $ref in the object
// that holds it, lazy and writeonly fields included, no readonly field,
// and no parameter (a path, query, header or cookie field, or one named
// X-…: [entity.Field.In]), which a request reads outside its body. Its
// values are those of the Response sample (a formatted field's as an input
// of its type), so that a request of it makes the Response sample, and so
// that it fails exactly where the Response sample does not conform: at a
// field whose rules no candidate satisfies, and at a $ref to an entity not
// declared. For a Patch it is the Request sample, a merge patch that sets
// every field it holds. For a nil e, or a mode that is none of the three,
// it is null.
func Sample(e *entity.Entity, mode Mode, opts ...entity.Option) []byte {
	if e == nil {
		return []byte("null")
	}
	s := &sampler{call: opts}
	switch mode {
	case Response:
		return s.object(nil, e.Fields(opts...), 0, false)
	case Request, Patch:
		return s.inputObject(nil, e.RequestFields(opts...), 0, false, true)
	}
	return []byte("null")
}

// sampler builds one sample.
type sampler struct {
	call []entity.Option
}

// object appends an object of fields: a response's.
func (s *sampler) object(dst []byte, fields []*entity.Field, depth int, secret bool) []byte {
	dst = append(dst, '{')
	first := true
	dst = s.members(dst, fields, depth, secret, &first, s.cross(fields, depth, secret, false, false))
	return append(dst, '}')
}

// members appends the members of an object of fields, each but the
// object's first (first, which it clears) after a comma, as the
// cross-field decisions d say (nil: none).
func (s *sampler) members(dst []byte, fields []*entity.Field, depth int, secret bool, first *bool, d decisions) []byte {
	for _, f := range fields {
		if f.Lazy || d[f].skip {
			continue // written only when a selection names it; excluded by a present field
		}
		sec := secret || f.Secret || f.WriteOnly
		if f.Merge {
			if t := f.Entity(); t != nil && depth < sampleRefDepth {
				dst = s.members(dst, t.Fields(s.call...), depth+1, sec, first, nil)
			}
			continue
		}
		mark, wasFirst := len(dst), *first
		if !wasFirst {
			dst = append(dst, ',')
		}
		*first = false
		dst = gjson.AppendJSONString(dst, f.Key)
		dst = append(dst, ':')
		at := len(dst)
		switch {
		case d[f].val != nil:
			dst = append(dst, d[f].val...)
		case f.Kind == dsl.FieldGroup:
			dst = s.object(dst, f.Fields, depth, sec)
		case f.Variants != nil:
			dst = s.variant(dst, f, depth, sec, false)
		case f.Kind == dsl.FieldRef:
			if stub, ok := refStub(f, depth); ok {
				dst = append(dst, stub...)
			} else {
				e := f.Entity()
				dst = appendIf(dst, f.List, '[')
				dst = s.object(dst, e.Fields(s.call...), depth+1, sec)
				dst = appendIf(dst, f.List, ']')
			}
		default:
			dst = append(dst, sampleValue(f, sec)...)
		}
		if omits(f, dst[at:]) {
			dst, *first = dst[:mark], wasFirst
		}
	}
	return dst
}

// inputObject appends an object of fields, a request's, in the wire form;
// top says it is the body itself, whose parameters are left out.
func (s *sampler) inputObject(dst []byte, fields []*entity.Field, depth int, secret, top bool) []byte {
	dst = append(dst, '{')
	first := true
	dst = s.inputMembers(dst, fields, depth, secret, top, &first, s.cross(fields, depth, secret, true, top))
	return append(dst, '}')
}

// inputMembers is members for a request's object.
func (s *sampler) inputMembers(dst []byte, fields []*entity.Field, depth int, secret, top bool, first *bool, d decisions) []byte {
	for _, f := range fields {
		if isParam(f) || d[f].skip {
			continue // read from the request's path, query, headers or cookies (below the top level, the server's); excluded by a present field
		}
		sec := secret || f.Secret || f.WriteOnly
		if f.Merge {
			if t := f.Entity(); t != nil && depth < sampleRefDepth {
				dst = s.inputMembers(dst, t.RequestFields(s.call...), depth+1, sec, false, first, nil)
			}
			continue
		}
		mark, wasFirst := len(dst), *first
		if !wasFirst {
			dst = append(dst, ',')
		}
		*first = false
		dst = gjson.AppendJSONString(dst, f.Key)
		dst = append(dst, ':')
		at := len(dst)
		switch {
		case d[f].val != nil:
			dst = append(dst, d[f].val...)
		case f.Kind == dsl.FieldGroup:
			dst = s.inputObject(dst, f.Fields, depth, sec, false)
		case f.Variants != nil:
			dst = s.variant(dst, f, depth, sec, true)
		case f.Kind == dsl.FieldRef:
			if stub, ok := refStub(f, depth); ok {
				dst = append(dst, stub...)
			} else {
				e := f.Entity()
				dst = appendIf(dst, f.List, '[')
				dst = s.inputObject(dst, e.RequestFields(s.call...), depth+1, sec, false)
				dst = appendIf(dst, f.List, ']')
			}
		default:
			dst = append(dst, sampleInputValue(f, sec)...)
		}
		if !f.Required && omits(f, dst[at:]) {
			dst, *first = dst[:mark], wasFirst // what the output leaves out, the input does not send
		}
	}
	return dst
}

// decision is what the cross-field rules make of one field of a sample:
// left out, or written with val.
type decision struct {
	skip bool
	val  []byte
}

// decisions are the cross-field decisions of an object's fields; a nil
// one decides nothing.
type decisions map[*entity.Field]decision

// cross decides how the object of fields satisfies its cross-field rules
// as the library judges them (present: there, and not null): a field
// excluded_with a present one is left out (null where a response always
// writes its key; of two that exclude each other, the later), and a value
// field that a required_if, required_with or required_without asks for
// gets a value that is not null. A rule that names a field the object does
// not have (one the call's flags hide) is not judged, as the library does
// not judge it. It decides from the fields' own samples (an object for a
// group or a reference, the value of a value field), before the object is
// written, so that no member is written twice.
func (s *sampler) cross(fields []*entity.Field, depth int, secret, input, top bool) decisions {
	n := 0
	for _, f := range fields {
		n += len(f.Cross)
	}
	if n == 0 {
		return nil
	}
	byKey := map[string]*entity.Field{}
	vals := map[*entity.Field][]byte{} // the value fields' samples
	present := map[*entity.Field]bool{}
	for _, f := range fields {
		if f.Merge {
			continue
		}
		byKey[f.Key] = f
		sec := secret || f.Secret || f.WriteOnly
		switch {
		case !input && f.Lazy, input && isParam(f):
			// Not written: absent.
		case f.Kind == dsl.FieldGroup:
			present[f] = true
		case f.Kind == dsl.FieldRef:
			stub, ok := refStub(f, depth)
			present[f] = !ok || stub != "null" && !omits(f, []byte(stub))
		default:
			v := sampleValue(f, sec)
			if input {
				v = sampleInputValue(f, sec)
			}
			vals[f] = v
			present[f] = string(v) != "null" && (input && f.Required || !omits(f, v))
		}
	}
	d := decisions{}
	// Each pass may make a field present that another rule names; a
	// declaration's rules settle within as many passes as there are.
	for range 1 + n {
		changed := false
		for i := len(fields) - 1; i >= 0; i-- { // the later of two fields that exclude each other goes
			t := fields[i]
			for _, cr := range t.Cross {
				if !judged(cr, byKey) {
					continue
				}
				anyPresent, nonePresent := false, true
				for _, k := range cr.Fields {
					if present[byKey[k]] {
						anyPresent, nonePresent = true, false
					}
				}
				switch cr.Rule {
				case "excluded_with":
					if anyPresent && present[t] {
						if !input && !t.Optional() && t.Nullable() {
							d[t] = decision{val: []byte("null")}
						} else {
							d[t] = decision{skip: true}
						}
						present[t], changed = false, true
					}
					continue
				case "required_if":
					o := byKey[cr.Fields[0]]
					anyPresent = false
					for _, v := range cr.Values {
						anyPresent = anyPresent || present[o] && bytes.Equal(vals[o], v)
					}
				case "required_without":
					anyPresent = nonePresent
				}
				if !anyPresent || present[t] || t.Kind != dsl.FieldValue {
					continue
				}
				v := sampleValue(withoutDefault(t), secret || t.Secret || t.WriteOnly)
				if string(v) == "null" || omits(t, v) {
					continue
				}
				d[t], vals[t], present[t], changed = decision{val: v}, v, true, true
			}
		}
		if !changed {
			break
		}
	}
	return d
}

// judged reports whether the library judges a cross-field rule in an
// object of the fields byKey: every field it names is one of them.
func judged(cr entity.CrossRule, byKey map[string]*entity.Field) bool {
	for _, k := range cr.Fields {
		if byKey[k] == nil {
			return false
		}
	}
	return true
}

// withoutDefault returns f without its default, for a value that is not
// the default's null.
func withoutDefault(f *entity.Field) *entity.Field {
	if !f.HasDefault || string(f.Default) != "null" {
		return f
	}
	c := *f
	c.HasDefault, c.Default = false, nil
	return &c
}

// omits reports whether Make leaves out f's key when its value is the JSON
// v: null under omitnil, also "", 0, false, [] and {} under omitempty.
func omits(f *entity.Field, v []byte) bool {
	if !f.OmitNil && !f.OmitEmpty {
		return false
	}
	r := gjson.ParseBytes(v)
	switch {
	case r.Type == gjson.Null:
		return true
	case !f.OmitEmpty:
		return false
	case r.Type == gjson.String:
		return r.Str == ""
	case r.Type == gjson.Number:
		return r.Float() == 0
	case r.Type == gjson.False:
		return true
	case r.IsArray():
		return len(r.Array()) == 0
	case r.IsObject():
		empty := true
		r.ForEach(func(_, _ gjson.Result) bool { empty = false; return false })
		return empty
	}
	return false
}

// variant appends a union's sample: an object of its first variant, the
// key first (input: as a request sends it), or a list of one for
// []$a|$b; beyond sampleRefDepth, or for a variant not declared, what
// refStub gives a reference.
func (s *sampler) variant(dst []byte, f *entity.Field, depth int, secret, input bool) []byte {
	e := f.Variant(f.Variants[0])
	switch {
	case e != nil && depth < sampleRefDepth:
	case f.List && depth >= sampleRefDepth && (f.Required || f.HasDefault):
		return append(dst, "[]"...)
	default:
		return append(dst, "null"...)
	}
	var obj []byte
	if input {
		obj = s.inputObject(nil, e.RequestFields(s.call...), depth+1, secret, false)
	} else {
		obj = s.object(nil, e.Fields(s.call...), depth+1, secret)
	}
	dst = appendIf(dst, f.List, '[')
	dst = gjson.AppendJSONString(append(dst, '{'), f.By)
	dst = gjson.AppendJSONString(append(dst, ':'), f.Variants[0])
	if len(obj) > 2 {
		dst = append(append(dst, ','), obj[1:]...)
	} else {
		dst = append(dst, '}')
	}
	return appendIf(dst, f.List, ']')
}

// refStub returns what a reference holds where Sample makes no object for
// it: null for an entity not declared; beyond sampleRefDepth, null, or an
// empty list where the reference is required or has a default. ok is
// false where Sample makes an object.
func refStub(f *entity.Field, depth int) (stub string, ok bool) {
	switch {
	case f.Entity() == nil:
		return "null", true
	case depth >= sampleRefDepth && (f.Required || f.HasDefault):
		return "[]", true
	case depth >= sampleRefDepth:
		return "null", true
	}
	return "", false
}

// sampleValue returns a value field's sample: its default (not when secret
// is set: the field is secret or writeonly, or under such a field), or the first candidate that
// is of the declared type and passes every check, or the type's zero
// value.
func sampleValue(f *entity.Field, secret bool) []byte {
	if f.HasDefault && f.Default != nil && !secret {
		return f.Default
	}
	if f.Example != nil && !secret { // as the field writes it, judged at declaration
		return f.Example
	}
	if f.Each != nil {
		return sampleList(f, sampleValue(f.Each, secret))
	}
	if f.Format != "" {
		return sampleFormatted(f)
	}
	for _, c := range candidates(f) {
		js, ok := toJSON(c)
		if !ok {
			continue
		}
		rv, _, ok := f.ReadJSON(js)
		if !ok {
			continue
		}
		// What the field writes of the candidate: its transforms' result.
		if tv, err := f.Transform(rv); err == nil && tv.Kind == rules.String && tv.Str != rv.Str {
			if js, ok = toJSON(tv.Str); !ok {
				continue
			}
			rv = tv
		}
		if len(f.Check(rv)) == 0 {
			return js
		}
	}
	if js, ok := toJSON(f.Type.Zero()); ok {
		return js
	}
	return []byte("null")
}

// sampleList returns a typed list's sample: its element's sample elem
// (made as a field's, from each's rules) repeated as many times as the first length
// the list's rules accept, among the lengths of their own candidates, 1
// and 0.
func sampleList(f *entity.Field, elem []byte) []byte {
	var lengths []int
	for _, c := range candidates(f) {
		if l, ok := c.([]any); ok {
			lengths = append(lengths, len(l))
		}
	}
	var js []byte
	for _, n := range append(lengths, 1, 0) {
		js = append(js[:0], '[')
		for i := range n {
			if i > 0 {
				js = append(js, ',')
			}
			js = append(js, elem...)
		}
		js = append(js, ']')
		if rv, _, ok := f.ReadJSON(js); ok && len(f.Check(rv)) == 0 {
			return js
		}
	}
	return []byte("[]")
}

// sampleFormatted returns a formatted field's sample: the first candidate
// that passes its checks, written with its format.
func sampleFormatted(f *entity.Field) []byte {
	for _, c := range append(candidates(f), f.Type.Zero()) {
		v, ok := goValue(c)
		if !ok || v.Kind != f.Type || len(f.Check(v)) > 0 {
			continue
		}
		if js, err := f.Write(v); err == nil {
			return js
		}
	}
	return []byte("null")
}

// sampleInputValue returns the input that makes a field's sample: the
// sample itself, but for a formatted field, the value its format writes,
// as an input of its type.
func sampleInputValue(f *entity.Field, secret bool) []byte {
	useDefault := f.HasDefault && !secret
	switch {
	case f.Each != nil && f.Each.Format != "" && !useDefault:
		return sampleList(f, sampleInputValue(f.Each, secret))
	case f.Format == "" && f.Each == nil && f.Example != nil && !secret && !useDefault:
		return f.Example // as the field writes it, which a request sends
	case f.Format == "" || f.Kind != dsl.FieldValue:
		return sampleValue(f, secret)
	case useDefault:
		return []byte("null") // the default fills it, and is written formatted
	}
	for _, c := range append(candidates(f), f.Type.Zero()) {
		if v, ok := goValue(c); ok && v.Kind == f.Type && len(f.Check(v)) == 0 {
			if js, ok := toJSON(c); ok {
				return js
			}
		}
	}
	return []byte("null")
}

// goValue returns a scalar candidate as a rules.Value.
func goValue(c any) (rules.Value, bool) {
	switch x := c.(type) {
	case string:
		return rules.StringValue(x), true
	case int64:
		return rules.IntValue(x), true
	case float64:
		return rules.FloatValue(x), true
	case bool:
		return rules.BoolValue(x), true
	case time.Time:
		return rules.TimeValue(x.UTC()), true
	}
	return rules.Value{}, false
}

// appendIf appends c when cond holds.
func appendIf(dst []byte, cond bool, c byte) []byte {
	if cond {
		dst = append(dst, c)
	}
	return dst
}

// candidates returns the values to try for a value field: each rule's
// sample, in the order the rules are written, then the type's.
func candidates(f *entity.Field) []any {
	var out []any
	for _, u := range f.Uses {
		if u.Def.Sample == nil {
			continue
		}
		if c, ok := ruleSample(u.Def.Sample, u.Args, f.Type); ok {
			out = append(out, c)
		}
	}
	return append(out, f.Type.Sample())
}

// ruleSample calls a rule's Sample hook; a hook that panics or has no
// candidate gives none.
func ruleSample(hook func([]string, rules.Kind) any, args []string, k rules.Kind) (c any, ok bool) {
	defer func() {
		if recover() != nil {
			c, ok = nil, false
		}
	}()
	c = hook(args, k)
	return c, c != nil
}

// toJSON writes a candidate as JSON as Make would: times in UTC, no HTML
// escaping. It reports false for a value that is not JSON or whose
// marshalling panics.
func toJSON(c any) (js []byte, ok bool) {
	defer func() {
		if recover() != nil {
			js, ok = nil, false
		}
	}()
	if t, isTime := c.(time.Time); isTime {
		c = t.UTC()
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		return nil, false
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), true
}
