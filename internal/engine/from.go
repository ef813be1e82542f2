package engine

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/internal/pathfmt"
)

// This file holds the read step of the value path (read, which every
// field's value goes through first), and `from 'a.b.0.c'`: a field that reads its value at a path
// of the input rather than under its own name. The first step is read as
// a field of that name would be (so every input kind reads it: maps,
// structs, raw JSON, requests); the steps after it descend into what it
// holds: a key of an object, an index of a list.

// fromPath is a compiled `from`: the node that reads its first step, and
// the steps after it.
type fromPath struct {
	first *node
	rest  []string
}

// parseFrom splits a from path at its dots (splitDotted). It reports
// false for a path with an empty step.
func parseFrom(p string) ([]string, bool) {
	steps := splitDotted(p)
	for _, s := range steps {
		if s == "" {
			return nil, false
		}
	}
	return steps, true
}

// splitDotted splits a dotted path, of from and of Only and Except, at its
// dots; `\.` is a dot within a name.
func splitDotted(p string) []string {
	var steps []string
	var cur strings.Builder
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\' && i+1 < len(p) && p[i+1] == '.':
			cur.WriteByte('.')
			i++
		case p[i] == '.':
			steps = append(steps, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(p[i])
		}
	}
	return append(steps, cur.String())
}

// fromKeysOf returns, for node n just read at its from path, which of the
// path's number steps after the first read an object's key (bit i for
// step i), so that its errors' paths name them as keys (a.0.b), not
// indexes (a[0].b).
func (r *run) fromKeysOf(n *node) uint32 {
	if r.fromOf == n && n != nil { // (the run's field first: n.from is on a cold line of the node)
		return r.fromKeys
	}
	return 0
}

// descend follows steps into in: absent (null) wherever a step finds
// nothing, or a value that is neither an object nor a list. keys says
// which number steps read an object's key (see fromKeysOf).
func (r *run) descend(in raw, steps []string) (_ raw, keys uint32) {
	for i, step := range steps {
		if i < 32 && isObjectInput(in) {
			if _, isNum := stepIndex(step); isNum {
				keys |= 1 << i
			}
		}
		switch in.kind {
		case rawJSON:
			in = r.jsonStep(in, step)
		case rawAny:
			if in.a == nil {
				return raw{}, keys
			}
			in = goStep(in.a, step)
		default:
			return raw{}, keys
		}
	}
	return in, keys
}

// isObjectInput reports whether a value a from path steps into is an
// object (its steps are keys, numbers too).
func isObjectInput(in raw) bool {
	switch in.kind {
	case rawJSON:
		return in.s[0] == '{'
	case rawAny:
		switch x := in.a.(type) {
		case nil, string, []any, bool, int, int64, float64, []byte:
			return false
		case map[string]any, map[string]string, holder, *Made, Sub:
			return true
		case json.RawMessage: // JSON held in a Go value, stepped into decoded
			return jsonKindOf(x) == "object"
		default:
			rv := reflect.ValueOf(x)
			for rv.Kind() == reflect.Pointer && !rv.IsNil() {
				rv = rv.Elem()
			}
			return rv.Kind() == reflect.Map && rv.Type().Key().Kind() == reflect.String || rv.Kind() == reflect.Struct && readsFields(rv.Type())
		}
	}
	return false
}

// jsonStep reads key step of a raw JSON object (the last of duplicate
// keys, as everywhere), or element step of a raw JSON array, through the
// run's tape (see source_json.go).
func (r *run) jsonStep(in raw, step string) raw {
	text, tape := in.s, r.js.tape
	k := int(in.n) + 2 // the first entry inside the container
	want, isIndex := -1, false
	if text[0] == '[' {
		i, ok := stepIndex(step)
		if !ok {
			return raw{}
		}
		want, isIndex = i, true
	}
	closer := byte('}')
	if isIndex {
		closer = ']'
	}
	var last raw // the value of the last key step met
	for i, idx := jsonwire.SkipSpace(text, 1), 0; text[i] != closer; idx++ {
		match := isIndex && idx == want
		if !isIndex {
			size, plain := jsontape.Literal(tape, k)
			k++
			end := i + size
			key := text[i+1 : end-1]
			if !plain {
				key = jsonwire.Unquote(text[i:end])
			}
			match = key == step
			i = jsonwire.SkipSpace(text, jsonwire.SkipSpace(text, end)+1)
		}
		var end int
		var v raw
		switch c := text[i]; c {
		case '"':
			size, plain := jsontape.Literal(tape, k)
			k++
			end = i + size
			if plain {
				v = raw{kind: rawStr, s: text[i+1 : end-1], view: true}
			} else {
				v = raw{kind: rawStr, s: jsonwire.Unquote(text[i:end]), view: true}
			}
		case '{', '[':
			sp := tape[k : k+2 : k+2]
			end = i + int(sp[0])
			v = raw{kind: rawJSON, s: text[i:end], n: int64(k)}
			k = int(sp[1])
		case 't':
			end, v = i+4, raw{a: true}
		case 'f':
			end, v = i+5, raw{a: false}
		case 'n':
			end = i + 4
		default:
			end = jsonwire.ScalarEnd(text, i)
			v = raw{kind: rawNum, s: text[i:end]}
		}
		switch {
		case match && isIndex:
			return v
		case match:
			last = v
		}
		if i = jsonwire.SkipSpace(text, end); text[i] == ',' {
			i = jsonwire.SkipSpace(text, i+1)
		}
	}
	return last
}

// goStep reads key step of a Go object (a map with string keys, a struct,
// an *Object) or element step of a Go list. A []byte is text, which no
// step goes into.
func goStep(v any, step string) raw {
	switch x := v.(type) {
	case map[string]any:
		return raw{a: x[step]}
	case map[string]string:
		if s, ok := x[step]; ok {
			return raw{kind: rawStr, s: s}
		}
		return raw{}
	case []any:
		if i, ok := stepIndex(step); ok && i < len(x) {
			return raw{a: x[i]}
		}
		return raw{}
	case json.RawMessage: // JSON held in a Go value: decoded, then stepped into
		return goStep(decodeRawMessage(x).a, step)
	case holder, *Made, Sub:
		m := madeIn(x)
		if m == nil {
			return raw{}
		}
		got, _ := m.visible().get(step)
		return raw{a: got}
	case Subs: // a list an Object holds
		i, ok := stepIndex(step)
		var got Sub
		x.Each(func(j int, s Sub) {
			if ok && j == i {
				got = s
			}
		})
		if got.IsNull() {
			return raw{}
		}
		return raw{a: got}
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return raw{}
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return raw{}
		}
		e := rv.MapIndex(reflect.ValueOf(step).Convert(rv.Type().Key()))
		if !e.IsValid() {
			return raw{}
		}
		return rawOfValue(e)
	case reflect.Slice, reflect.Array:
		i, ok := stepIndex(step)
		if !ok || i >= rv.Len() || rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
			return raw{}
		}
		return rawOfValue(rv.Index(i))
	case reflect.Struct:
		return readField(rv, typeFields(rv.Type())[step])
	}
	return raw{}
}

// groupSource returns the source a group reading an object apart from its
// parent's reads its fields from: in, the object at its from path or under
// its key, or an empty input. release says whether a raw JSON object was
// taken (releaseJSON after the group). A request's group given a value
// that is not an object is a type error (Strict): ok is false then.
func (r *run) groupSource(n *node, in raw) (sub source, release, ok bool) {
	switch {
	case in.kind == rawJSON && in.s[0] == '{':
		return source{js: r.takeJSON(in.s, int32(in.n), n.group.in)}, true, true
	case in.kind == rawAny && in.a != nil:
		if s, ok := sourceOf(in.a, n.group); ok {
			return s, false, true
		}
	}
	if n.nested && r.cfg.strict && !in.isNull() {
		r.failType(n, arrivedAs(in))
		return source{}, false, false
	}
	return source{}, false, true
}

// appendFromPath appends the steps of a from path after its first to an
// input path and a JSON Pointer: a number as an index, but where keys
// says it read an object's key.
func appendFromPath(bin, bptr []byte, rest []string, keys uint32) ([]byte, []byte) {
	for j, s := range rest {
		if i, ok := stepIndex(s); ok && (j >= 32 || keys&(1<<j) == 0) {
			bin = pathfmt.AppendIndex(bin, i)
		} else {
			bin = pathfmt.AppendKey(bin, s)
		}
		bptr = pathfmt.AppendPointerToken(bptr, s)
	}
	return bin, bptr
}

// appendGroupApart writes a group that reads an object apart from its
// parent's: the object at its from path (server data), the object under
// its key (a request's wire form, or an Object of the entity being made,
// read by its keys); none there is an empty input.
//
//go:noinline
func (r *run) appendGroupApart(dst []byte, n *node, src *source, depth int) []byte {
	var in raw
	kind := frameGroup
	if n.nested || src.wire {
		in, kind = src.get(n), frameNested
	} else {
		in = r.read(src, n)
	}
	if n.nested && n.req && in.isNull() { // a request must send the object of a req group
		r.fail(n, "req", errRequired)
		return append(dst, "null"...)
	}
	sub, release, ok := r.groupSource(n, in)
	if !ok {
		return append(dst, "null"...)
	}
	sub.unpatched = r.dir == dirPatch && sub.empty() && !n.writeOnly && !src.writeOnly
	sub.writeOnly = src.writeOnly // a group of a writeonly merged reference: its fields are writeonly too
	sub.noReadOnly = src.noReadOnly || src.writeOnly
	// The group's object is in the wire form when its parent is (the
	// object under its key, or none: an Object without the group's object,
	// whose fields are read by key there too, and find nothing); an
	// Object at a group's from path is server data like any, read by the
	// declared names, whatever entity made it.
	sub.wire = src.wire && (sub.obj != nil || sub.empty())
	r.push(frame{n: n, kind: kind, keys: r.fromKeysOf(n)})
	if sub.writeOnly || sub.noReadOnly { // each of its fields read only where the patch gives it, no readonly one (appendShaped)
		dst = r.appendShaped(dst, n.group, &sub, depth-1)
	} else {
		dst = r.appendObject(dst, n.group, &sub, depth-1)
	}
	if src.wire && r.cfg.denyUnknown && !n.group.checksUnknown && !r.stop {
		// An Object read in the wire form holds the group as an object of
		// its own, whose keys are judged as a request's group's are.
		r.unknownKeys(n.group, &sub)
	}
	r.pop()
	if release {
		r.releaseJSON()
	}
	return dst
}

// stepIndex reads a step of a from path as a list index: a number spelled
// as strconv.Itoa spells it (no sign, no leading zero), so that the step
// that reads an element is the one errors name.
func stepIndex(step string) (int, bool) {
	i, err := strconv.Atoi(step)
	if err != nil || i < 0 || strconv.Itoa(i) != step {
		return 0, false
	}
	return i, true
}

// decodeRawMessage reads JSON a Go value holds (a json.RawMessage in a
// map) as encoding/json decodes it into an any: absent when it is not
// JSON.
func decodeRawMessage(m json.RawMessage) raw {
	var v any
	if json.Unmarshal(m, &v) != nil {
		return raw{}
	}
	return raw{a: v}
}
