package engine

import (
	"errors"
	"slices"

	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/internal/textconv"
	"github.com/expose-go/expose/rules"
)

// `immutable`: a field set once. A request that creates reads it as any
// field, and a response writes it; a merge patch may not change the value
// the current value holds. The check is the merger's, the one place that
// sees both the value the server holds and the value the patch leaves:
//
//   - where the current value holds none (the key is not there, or is
//     null), the patch sets it as a request that creates does: a value
//     given where none was stored is accepted, and so is a null;
//   - where it holds one, the merged value (what the patch leaves: its
//     value, an object merged into the stored one, or nothing when a null
//     removes the key) must be the same JSON value: the same literal, the
//     same string once unescaped, the same number exactly (1, 1.0 and
//     1e0 are one), the same elements in order, the same members in any
//     order (a repeated key: its last); or, for a scalar field, one that
//     reads as the same value of the field's type (its format, or the
//     conversions a lax request makes: "10" for 10, another spelling of
//     the same instant; in a registry of JSONTypes the walk then refuses
//     "10" as a type error, jsontypes.go). A null that clears a stored
//     value is a change;
//   - a null given to a group or a $name whose stored object holds an
//     immutable value clears it: a change of each such value, and the
//     object stays as stored, among the current value's members (read
//     with its stored twin, which judges nothing but these refusals: an
//     immutable node of the views dirPatch and dirStored is read by
//     appendValueField, and no such object is copied verbatim);
//   - a change is refused: the merged value keeps the stored value there,
//     and the merger records the field's path (run.refused); the walk of
//     the merged value, reaching an immutable field at a refused path,
//     records a failure of code "immutable" there (the message quotes no
//     value) and writes the stored value, judged by nothing else, so that
//     the failure is among the merged value's other failures in their
//     order, the fields' as declared, and the cross-field rules see the
//     value the server holds. (In the patch view an immutable field has no
//     fast path: appendValueField is where every one is read.)
//
// The check follows the merger where it merges an object into a stored
// one: into groups and $name objects the current value holds, at every
// depth, and into the entities merged there. An object or a list the
// patch gives where the current value holds none (a $name's object, a
// []$name's list, which a patch replaces whole; a writeonly $name's
// object, which no current value holds) is new: read as MakeRequest reads
// it, its immutable fields included. A list of values is one value: a
// patch that replaces an immutable []T changes it unless it gives the
// same JSON elements in the same order. (The compiler refuses immutable
// where it could say nothing: readonly, writeonly, in such a group, on a
// parameter, on a group or a $name.)

// errImmutable is the error of a patch that changes an immutable field.
var errImmutable = errors.New("cannot change once set")

// once is member for an immutable node n: the patch's member pm is merged
// as member merges it, and then compared with the current value's, c.
func (m *merger) once(r *run, dst []byte, mark int, n *node, wo bool, pm, c member, depth int) []byte {
	if c.val == "" || c.val == "null" {
		dst, _ = m.member(r, dst, mark, n, wo, pm, c, depth) // none stored: the patch sets it (a value field: never kept)
		return dst
	}
	at, ord, touched := len(dst), m.ord, len(m.touched)
	dst, _ = m.member(r, dst, mark, n, wo, pm, c, depth)
	merged := "null" // a null removed the key
	if v := dst[at:]; len(v) > 0 {
		i := 0
		if v[0] == ',' {
			i = 1
		}
		end, _ := jsonwire.StringEnd(v, i) // the key, then its colon
		merged = bytesString(v[end+1:])
	}
	if r.sameValue(n, merged, c.val) {
		return dst
	}
	dst, m.ord, m.touched = dst[:at], ord, m.touched[:touched]
	m.refuse(r, pm.key)
	return m.put(m.key(dst, mark, pm.key), c.val, c.ord, m.curTape)
}

// refuse records the path of the member at key k of the object being
// merged as an immutable field's refused change.
func (m *merger) refuse(r *run, k string) {
	r.refused = append(r.refused, string(appendPathKey(slices.Clip(m.path), k)))
}

// refusedValue records the failure of the immutable node n, whose change
// the merger refused, and writes the stored value that the merged value
// holds in its place (so that the cross-field rules see it), judged by
// nothing: its own failures are not the client's.
func (r *run) refusedValue(dst []byte, n *node, src *source, depth int) []byte {
	r.record(n, failure{rule: "immutable", code: "immutable", err: errImmutable})
	errs, omitted := len(r.errs), r.omitted
	dst = r.valuePath(dst, n, r.read(src, n), depth)
	r.errs, r.omitted = r.errs[:errs], omitted
	return dst
}

// refusedHere reports whether the immutable node n, which the walk of a
// patch's merged value is about to read, is at a path the merger refused
// a change at.
func (r *run) refusedHere(n *node) bool {
	pin, _, _ := r.paths(n.in, n.out)
	return slices.Contains(r.refused, pin)
}

// clearsImmutable reports whether a null the patch gives to the member
// at key k, a group or a $name whose object in the current value is c, of
// the plan p, clears an immutable value it holds, in it or in its
// objects, refusing each.
func (m *merger) clearsImmutable(r *run, k string, c member, p *objectPlan, depth int) bool {
	at := len(m.path)
	m.path = appendPathKey(m.path, k)
	defer func() { m.path = m.path[:at] }()
	found := false
	for it := membersOf(c.val, c.ord, m.curTape); ; {
		cm, ok := it.next()
		if !ok {
			return found
		}
		sn, ro, _ := r.wireNode(p, cm.key, 0)
		switch {
		case sn == nil || ro || cm.val == "null":
		case sn.immutable:
			m.refuse(r, cm.key)
			found = true
		case cm.val[0] == '{' && depth > 1:
			sub := r.objectOf(sn)
			if sn.union != nil {
				sub = m.storedVariant(r, sn.union, cm) // the variant the stored object's key names
			}
			if sub != nil && sub.mayHoldImmutable && m.clearsImmutable(r, cm.key, cm, sub, depth-1) {
				found = true
			}
		}
	}
}

// sameValue reports whether the JSON texts a and b hold the same value of
// node n: the same JSON value (sameJSON), or for a scalar field the same
// value once read as the field's type.
func (r *run) sameValue(n *node, a, b string) bool {
	if a == b || sameJSON(a, b) {
		return true
	}
	switch n.typ {
	case rules.String, rules.Int, rules.Float, rules.Bool, rules.Time:
	default:
		return false
	}
	if n.format == nil && jsonwire.IsNumberStart(a[0]) && jsonwire.IsNumberStart(b[0]) {
		if !r.cfg.strict && n.typ == rules.Int {
			// a lax request reads 0.5 as the integer 0: the two
			// truncated, exactly (past 2^53 too)
			x, okA := textconv.TruncInt(a)
			y, okB := textconv.TruncInt(b)
			return okA && okB && x == y
		}
		return false // two numbers: sameJSON compared them exactly (past 2^53 too)
	}
	x, ok := r.scalarValue(n, a)
	if !ok {
		return false
	}
	y, ok := r.scalarValue(n, b)
	if !ok {
		return false
	}
	if sameScalar(x, y) {
		return true
	}
	if len(n.xforms) == 0 {
		return false
	}
	// the value a response showed of it (trimmed, lowered…) is the same
	// value: both read as the request reads them, transforms and all
	tx, errX := transformDefault(n, x)
	ty, errY := transformDefault(n, y)
	return errX == nil && errY == nil && sameScalar(tx, ty)
}

// sameScalar reports whether two converted values are the same value.
func sameScalar(x, y rules.Value) bool {
	return x.Kind == y.Kind && x.Str == y.Str && x.Int == y.Int && x.Float == y.Float &&
		x.Bool == y.Bool && x.Time.Equal(y.Time)
}

// scalarValue reads the JSON scalar text as node n's request reads it:
// through its format, or converted to its type.
func (r *run) scalarValue(n *node, text string) (rules.Value, bool) {
	var in raw
	switch text[0] {
	case '"':
		in = raw{kind: rawStr, s: jsonwire.Unquote(text)}
	case 't', 'f':
		in = raw{a: text[0] == 't'}
	case '{', '[', 'n':
		return rules.Value{}, false
	default:
		in = raw{kind: rawNum, s: text}
	}
	if n.format != nil {
		if v, ok := n.format.unformatRaw(in); ok {
			return v, v.Kind != rules.Null
		}
	}
	v, _ := convert(n.typ, in, r)
	return v, v.Kind != rules.Null
}

// sameJSON reports whether the valid JSON texts a and b hold the same
// value: the same literal, strings equal once unescaped, numbers equal
// exactly, arrays of the same elements in order, objects of the same
// members in any order (of a repeated key, the last).
func sameJSON(a, b string) bool {
	a, b = jsonwire.TrimSpace(a), jsonwire.TrimSpace(b)
	if a == b {
		return true
	}
	if a[0] != b[0] && !(jsonwire.IsNumberStart(a[0]) && jsonwire.IsNumberStart(b[0])) {
		return false
	}
	switch a[0] {
	case '"':
		return jsonwire.Unquote(a) == jsonwire.Unquote(b)
	case '[':
		ea, eb := jsonElems(a), jsonElems(b)
		if len(ea) != len(eb) {
			return false
		}
		for i := range ea {
			if !sameJSON(ea[i], eb[i]) {
				return false
			}
		}
		return true
	case '{':
		ma, mb := jsonMembers(a), jsonMembers(b)
		if len(ma) != len(mb) {
			return false
		}
		for k, va := range ma {
			if vb, ok := mb[k]; !ok || !sameJSON(va, vb) {
				return false
			}
		}
		return true
	case 't', 'f', 'n':
		return false // a == b was false
	}
	return textconv.CompareDecimal(a, b) == 0
}

// jsonElems returns the texts of the elements of the valid JSON array text.
func jsonElems(text string) []string {
	var out []string
	for i := jsonwire.SkipSpace(text, 1); text[i] != ']'; {
		end := jsonwire.ValueEnd(text, i)
		out = append(out, text[i:end])
		if i = jsonwire.SkipSpace(text, end); text[i] == ',' {
			i = jsonwire.SkipSpace(text, i+1)
		}
	}
	return out
}

// jsonMembers returns the members of the valid JSON object text, by
// their keys unescaped (a repeated key: its last value).
func jsonMembers(text string) map[string]string {
	out := map[string]string{}
	for i := jsonwire.SkipSpace(text, 1); text[i] != '}'; {
		end, _ := jsonwire.StringEnd(text, i)
		key := jsonwire.Unquote(text[i:end])
		i = jsonwire.SkipSpace(text, jsonwire.SkipSpace(text, end)+1) // past the colon
		end = jsonwire.ValueEnd(text, i)
		out[key] = text[i:end]
		if i = jsonwire.SkipSpace(text, end); text[i] == ',' {
			i = jsonwire.SkipSpace(text, i+1)
		}
	}
	return out
}
