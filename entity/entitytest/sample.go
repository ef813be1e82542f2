package entitytest

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

// Sample returns an example payload of the entity: a JSON object built from
// the declaration. Each value field holds its default when it has one;
// otherwise Sample tries, in order, the candidate of each of the field's
// rules (the Sample hook of its rules.Def) and then the sample of the
// field's type (rules.Kind.Sample), and keeps the first that passes every
// check of the field. A group holds its fields; a $ref one object made the
// same way, two references deep, then null (an empty list where the
// reference is required or has a default). The payload is what a call
// without options writes (entity.Field.WrittenByDefault): no lazy field,
// no field behind an `if`, and of fields sharing a key by version range
// the latest.
//
// Where no candidate passes every check (two rules that each want
// something the other's candidate lacks, or a custom rule without a Sample
// hook that the type's sample fails), the field holds its type's zero
// value ("", 0, false, the Unix epoch, [], {}, null for none): the payload
// is then one that Conform rejects, and Conform names the rule. A hook that
// panics or returns a value that is not JSON is skipped. The same entity
// always gives the same bytes.
//
// With the option Input, the sample is an input the entity accepts rather
// than an output it writes (see Input).
func Sample(e *entity.Entity, opts ...SampleOption) []byte {
	if e == nil {
		return []byte("null")
	}
	var input bool
	for _, o := range opts {
		input = input || o == Input
	}
	set, fields := e.Registry().Rules(), e.Fields()
	if input {
		dst, _ := sampleInput(append([]byte(nil), '{'), set, fields, 0, map[string]bool{})
		return append(dst, '}')
	}
	return sampleObject(nil, set, fields, 0)
}

// A SampleOption changes what Sample builds.
type SampleOption uint8

// Input makes Sample build a valid input for the entity, a body that
// MakeRequest (strict, even with entity.DenyUnknown) and Make accept, and
// that makes the same values Sample writes without it: each field under
// its input name (the declared name, not the name a rename gives the
// output), a group's fields beside their siblings, where the input holds
// them (a group has no key of its own in the input), and each $ref
// sampled as an input of the entity it references. An input name that two
// fields read is written once, with the value of the first. The values are
// those of the output sample, so an input sample fails exactly where the
// output one does not conform: at a field whose rules no candidate
// satisfies (see Sample), and at a $ref to an entity not declared.
//
//	entity.MustExpose("user",
//		"id", "number", "rename 'number'",
//		"details", "{", "",
//		"age", "number", "",
//		"details", "}", "",
//	)
//	Sample(user)        // {"number":1,"details":{"age":1}}
//	Sample(user, Input) // {"id":1,"age":1}
const Input SampleOption = 1

func sampleObject(dst []byte, set *rules.Set, fields []*entity.Field, depth int) []byte {
	dst = append(dst, '{')
	first := true
	for _, f := range fields {
		if !f.WrittenByDefault() {
			continue // what a call without options writes: no lazy field, no flag set, the latest version
		}
		if f.Merge {
			if t := f.Entity(); t != nil && depth < sampleRefDepth {
				// Its entity's members, without the braces.
				obj := sampleObject(nil, t.Registry().Rules(), t.Fields(), depth+1)
				if len(obj) > 2 {
					if !first {
						dst = append(dst, ',')
					}
					first = false
					dst = append(dst, obj[1:len(obj)-1]...)
				}
			}
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = gjson.AppendJSONString(dst, f.Key)
		dst = append(dst, ':')
		switch f.Kind {
		case dsl.FieldGroup:
			dst = sampleObject(dst, set, f.Fields, depth)
		case dsl.FieldRef:
			if stub, ok := refStub(f, depth); ok {
				dst = append(dst, stub...)
			} else {
				e := f.Entity()
				dst = appendIf(dst, f.List, '[')
				dst = sampleObject(dst, e.Registry().Rules(), e.Fields(), depth+1)
				dst = appendIf(dst, f.List, ']')
			}
		default:
			dst = append(dst, sampleValue(set, f)...)
		}
	}
	return append(dst, '}')
}

// sampleInput appends the members of an input object for fields, groups
// flattened into it: seen holds the input names already written (none for
// the first member).
func sampleInput(dst []byte, set *rules.Set, fields []*entity.Field, depth int, seen map[string]bool) ([]byte, map[string]bool) {
	for _, f := range fields {
		if f.Kind == dsl.FieldGroup {
			dst, seen = sampleInput(dst, set, f.Fields, depth, seen)
			continue
		}
		if seen[f.Name] || !f.ReadByDefault() {
			continue
		}
		if len(seen) > 0 {
			dst = append(dst, ',')
		}
		seen[f.Name] = true
		dst = gjson.AppendJSONString(dst, f.Name)
		dst = append(dst, ':')
		if f.Kind != dsl.FieldRef {
			dst = append(dst, sampleInputValue(set, f)...)
			continue
		}
		if stub, ok := refStub(f, depth); ok {
			dst = append(dst, stub...)
			continue
		}
		e := f.Entity()
		dst = appendIf(dst, f.List, '[')
		dst = append(dst, '{')
		dst, _ = sampleInput(dst, e.Registry().Rules(), e.Fields(), depth+1, map[string]bool{})
		dst = append(dst, '}')
		dst = appendIf(dst, f.List, ']')
	}
	return dst, seen
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

// sampleValue returns a value field's sample: its default, or the first
// candidate that is of the declared type and passes every check, or the
// type's zero value.
func sampleValue(set *rules.Set, f *entity.Field) []byte {
	if f.HasDefault && f.Default != nil {
		return f.Default
	}
	if f.Each != nil {
		return sampleList(set, f, sampleValue(set, f.Each))
	}
	if f.Format != "" {
		return sampleFormatted(set, f)
	}
	for _, c := range candidates(set, f) {
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
func sampleList(set *rules.Set, f *entity.Field, elem []byte) []byte {
	var lengths []int
	for _, c := range candidates(set, f) {
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
func sampleFormatted(set *rules.Set, f *entity.Field) []byte {
	for _, c := range append(candidates(set, f), f.Type.Zero()) {
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
func sampleInputValue(set *rules.Set, f *entity.Field) []byte {
	switch {
	case f.Each != nil && f.Each.Format != "" && !f.HasDefault:
		return sampleList(set, f, sampleInputValue(set, f.Each))
	case f.Format == "" || f.Kind != dsl.FieldValue:
		return sampleValue(set, f)
	case f.HasDefault:
		return []byte("null") // the default fills it, and is written formatted
	}
	for _, c := range append(candidates(set, f), f.Type.Zero()) {
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
func candidates(set *rules.Set, f *entity.Field) []any {
	var out []any
	if f.Decl != nil && set != nil {
		for _, r := range f.Decl.Rules {
			if rules.LookupDirective(r.Name) != rules.NotDirective {
				continue
			}
			def, ok := set.Lookup(r.Name)
			if !ok || def.Sample == nil {
				continue
			}
			args := make([]string, len(r.Args))
			for i, a := range r.Args {
				args[i] = a.Text
			}
			if c, ok := ruleSample(def.Sample, args, f.Type); ok {
				out = append(out, c)
			}
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
