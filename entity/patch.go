package entity

import (
	"errors"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/internal/pathfmt"
)

// PATCH: a JSON Merge Patch (RFC 7396) applied to the current value of a
// resource, then judged as a request. The current value is server data,
// made as a response of the call makes it (the response view, with the
// call's flags and version: the fields the call sees, in the wire form);
// the patch, the request's body, is merged into it as text (merger), and
// the merged document is read as MakeRequest reads a JSON body, with the
// request's parameters, through the view dirPatch: the request view but
// that it holds the readonly fields too (a readonly field keeps its
// current value: the merger drops a patch's readonly keys, at every
// depth, as a POST ignores them) and that a writeonly one the patch does
// not touch is not required (the server need not hold it).

// MergePatchType is the media type of a JSON Merge Patch, the body Patch
// reads.
const MergePatchType = "application/merge-patch+json"

// Patch reads the request r, a JSON Merge Patch (RFC 7396, Content-Type
// application/merge-patch+json) in the wire form, and applies it to
// current, the resource's value as the server holds it (a map, a struct,
// raw JSON, an *Object: any input Make reads), with the entity: a key the
// patch leaves out keeps its value, a null clears it, an object merges
// into a group's or a $name's object, anything else replaces the value.
// Then it judges the merged value as the entity judges a request, strictly
// (a req field the patch clears is a 400), but that a readonly field keeps
// its current value (the patch's is ignored) and a writeonly one the
// patch does not touch is not required.
//
// It returns the merged value, an Object holding the fields of both
// directions (Get, Map and Bind see its writeonly values; MarshalJSON and
// every response write it through the response view, without them), and
// the paths of the fields the patch set or cleared ("name",
// "address.city"), in the order the patch gives them. Nothing is changed
// on failure: current is only read.
//
// The call's language and flags are MakeRequest's: the request's
// Accept-Language and the flags of its context (NewContext), which make
// the current value too, besides those of its options.
//
// The errors are MakeRequest's: a *ValidationError for the fields that
// fail (400), an *InputError for the request itself (405 for a method the
// declaration does not name, 415 for another Content-Type, 413 for a body
// past the limit, 400 for a body that is no JSON object); a current value
// that does not make (it fails its entity as server data) is the server's
// error (500).
func (e *Entity) Patch(r *http.Request, current any, opts ...Option) (_ *Object, touched []string, err error) {
	if e == nil {
		return nil, nil, errNilEntity
	}
	if r == nil {
		return nil, nil, newInputError(ErrUnsupportedMediaType, "problem.media.patch", nil)
	}
	defer func() {
		if err != nil { // the errors of the request in its language, whichever step failed
			err = inLang(err, e.reg.requestLang(r, opts))
		}
	}()
	if len(e.methods) > 0 && !slices.Contains(e.methods, r.Method) {
		ie := newInputError(ErrMethod, "problem.method", map[string]any{"allow": strings.Join(e.methods, ", ")})
		ie.Allow = strings.Join(e.methods, ", ")
		return nil, nil, ie
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != MergePatchType {
		ie := newInputError(ErrUnsupportedMediaType, "problem.media.patch", nil)
		ie.Accept = MergePatchType
		return nil, nil, ie
	}
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		if body, err = readBody(r, e.reg.lim().BodyBytes); err != nil {
			return nil, nil, bodyError(err)
		}
	}
	curJSON, err := e.currentJSON(current, requestFlags(r), opts)
	if err != nil {
		return nil, nil, err
	}

	var run run
	run.startWith(e, topObject, dirPatch, requestFlags(r), opts)
	if run.cfg.lang == "" {
		run.cfg.lang = r.Header.Get("Accept-Language")
	}
	defer run.done()
	if run.fatal != nil {
		return nil, nil, run.fatal
	}

	// The patch, merged into the current value: the body of the request.
	text, err := run.parseJSONOf(body, true)
	if err != nil {
		return nil, nil, err
	}
	m := merger{run: &run, tape: run.js.tape}
	var ctext string
	if len(curJSON) > 0 {
		ctext = jsonwire.TrimSpace(bytesString(curJSON))
		if code, _ := jsontape.Scan(ctext, jsontape.MaxNesting, &m.curTape); code != jsontape.OK || ctext[0] != '{' {
			return nil, nil, errors.New("entity: Patch: the current value's JSON does not read back") // cannot happen: the walk writes JSON
		}
	}
	merged := make([]byte, 0, len(body)+len(ctext)+2)
	merged = m.object(merged, ctext, 0, text, 0, e.view(dirPatch), nil, true, e.reg.lim().Depth)

	// The merged value, read as MakeRequest reads a JSON body.
	if text, err = run.parseJSONOf(merged, true); err != nil {
		return nil, nil, err
	}
	p := e.view(dirPatch)
	src := &requestSource{r: r, reg: e.reg, header: r.Header, body: true, strict: run.cfg.strict}
	if r.URL != nil {
		src.query = r.URL.Query()
	}
	src.js = run.takeJSON(text, 0, p.in)
	run.request, run.reqBody = true, true
	run.maxOut = int(min(e.reg.requestOutputLimit(int64(len(body)+len(ctext))), maxOutputLimit))
	data, err := run.walkCopy(e, src)
	if errors.Is(err, ErrTooLarge) {
		err = requestTooLarge(err, run.maxOut)
	}
	if len(m.cleared) > 0 {
		err = withFailures(e, err, m.cleared)
	}
	if err != nil {
		return nil, nil, err
	}
	o := &Object{plan: p, data: data, made: run.made(), hid: newHidden(data, run.hidden)}
	if len(e.checks) > 0 {
		if err := e.runChecks(r, o); err != nil {
			return nil, nil, err
		}
	}
	return o, m.touched, nil
}

// currentJSON returns the JSON of the current value of a patch, made as a
// response of the call makes it: its flags (those of the request's
// context, ctxFlags, among them) and version decide which fields are there
// (no other option: a selection shapes the answer, not what is kept). Its
// failure is the server's data's (500).
func (e *Entity) currentJSON(current any, ctxFlags []string, opts []Option) ([]byte, error) {
	var shaping []Option
	for _, o := range opts {
		if o.kind == optWith || o.kind == optWithContext || o.kind == optVersion {
			shaping = append(shaping, o)
		}
	}
	var cur run
	cur.startWith(e, topObject, dirResponse, ctxFlags, shaping)
	in, same, err := e.responseInput(current, cur.cfg.shaped, shaping)
	switch {
	case err != nil:
		cur.done()
		return nil, err
	case same != nil:
		cur.done()
		return same.data, nil
	}
	return cur.walkCopy(e, in)
}

// merger writes a merge patch applied to a current value (RFC 7396), both
// JSON text on tapes, as the JSON object a request's view then reads,
// recording the paths the patch touches.
type merger struct {
	run     *run
	tape    []int32 // the patch's
	curTape []int32 // the current value's
	touched []string
	cleared []*FieldError // writeonly req fields the patch clears: the view does not require them
}

// member is one member of a JSON object on a tape: its key (decoded), its
// value's text, and the value's ordinal when it is an object or an array
// (-1 else).
type member struct {
	key, val string
	ord      int32
	over     bool // a current value's member the patch replaces
}

// members steps through the members of a JSON object on its tape.
type members struct {
	text string
	tape []int32
	i, k int
}

func membersOf(text string, ord int32, tape []int32) members {
	return members{text: text, tape: tape, i: jsonwire.SkipSpace(text, 1), k: int(ord) + 2}
}

// next returns the next member, or false after the last.
func (it *members) next() (member, bool) {
	text := it.text
	i := it.i
	if text[i] == '}' {
		return member{}, false
	}
	size, plain := jsontape.Literal(it.tape, it.k)
	it.k++
	end := i + size
	mb := member{key: text[i+1 : end-1], ord: -1}
	if !plain {
		mb.key = jsonwire.Unquote(text[i:end])
	}
	i = jsonwire.SkipSpace(text, jsonwire.SkipSpace(text, end)+1)
	switch text[i] {
	case '"':
		size, _ = jsontape.Literal(it.tape, it.k)
		it.k++
		end = i + size
	case '{', '[':
		mb.ord = int32(it.k)
		size, it.k = jsontape.Container(it.tape, it.k)
		end = i + size
	default:
		end = jsonwire.ScalarEnd(text, i)
	}
	mb.val = text[i:end]
	if i = jsonwire.SkipSpace(text, end); text[i] == ',' {
		i = jsonwire.SkipSpace(text, i+1)
	}
	it.i = i
	return mb, true
}

// object appends the merge of the patch's object ptext (numbered pord on
// its tape) into the current value's object ctext (numbered cord; "" for
// none), objects of the plan p at path: a null removes a key, an object
// merges into the object of a group or a $name, anything else replaces
// (with the readonly keys of the plan's objects in it dropped). A patch's
// readonly key is dropped (the current value's stays), and so is a
// parameter field's key of the current value (a request's parameters are
// read from the request); a key the call does not read stays as the patch
// gives it, for DenyUnknown. record says whether the paths the patch sets
// are recorded (not in the elements of a list it replaces, which it gives
// whole). depth is how many more objects may nest.
func (m *merger) object(dst []byte, ctext string, cord int32, ptext string, pord int32, p *objectPlan, path []byte, record bool, depth int) []byte {
	var buf [16]member
	cur := buf[:0]
	if ctext != "" {
		for it := membersOf(ctext, cord, m.curTape); ; {
			mb, ok := it.next()
			if !ok {
				break
			}
			cur = append(cur, mb)
		}
	}
	dst = append(dst, '{')
	mark := len(dst)
	for it := membersOf(ptext, pord, m.tape); ; {
		pm, ok := it.next()
		if !ok {
			break
		}
		n := m.run.wireNode(p, pm.key, 0)
		switch {
		case n == nil || n.src != srcBody: // read by nothing, or a parameter read from the request: kept for DenyUnknown
			dst = appendMember(dst, mark, pm.key, pm.val)
			continue
		case n.readOnly:
			continue // the server's: ignored, as in a POST
		}
		for i := range cur {
			if cur[i].key == pm.key {
				cur[i].over = true
			}
		}
		var at []byte
		if record {
			at = appendPathKey(path, pm.key)
		}
		if sub := m.run.objectOf(n); sub != nil && pm.val[0] == '{' && depth > 1 {
			ct, co := "", int32(-1)
			for _, c := range cur {
				if c.key == pm.key && c.val[0] == '{' {
					ct, co = c.val, c.ord
				}
			}
			dst = appendMember(dst, mark, pm.key, "")
			dst = m.object(dst, ct, co, pm.val, pm.ord, sub, at, record, depth-1)
			continue
		}
		if record && !slices.Contains(m.touched, string(at)) {
			m.touched = append(m.touched, string(at))
		}
		if pm.val == "null" {
			if record && n.writeOnly && n.patchReq {
				m.cleared = append(m.cleared, m.run.clearedError(n, string(at)))
			}
			continue
		}
		dst = appendMember(dst, mark, pm.key, "")
		dst = m.value(dst, n, pm, depth)
	}
	for _, c := range cur {
		if c.over {
			continue
		}
		if n := m.run.wireNode(p, c.key, 0); n != nil && n.src != srcBody {
			continue // a parameter: read from the request
		}
		dst = appendMember(dst, mark, c.key, c.val)
	}
	return append(dst, '}')
}

// value appends a value the patch gives a node whole: a []$name's
// elements without their readonly keys, an object with its nulls removed
// (RFC 7396: merged into nothing), anything else as it is.
func (m *merger) value(dst []byte, n *node, pm member, depth int) []byte {
	switch {
	case pm.val[0] == '[' && n.kind == nodeRef && n.refList && depth > 1:
		t := m.run.refTarget(n)
		if t == nil {
			break
		}
		p := t.view(m.run.dir)
		dst = append(dst, '[')
		jsontape.EachValue(pm.val, pm.ord, m.tape, func(i int, text string, k int32, _ bool) bool {
			if i > 0 {
				dst = append(dst, ',')
			}
			if text[0] == '{' {
				dst = m.object(dst, "", -1, text, k, p, nil, false, depth-1)
			} else {
				dst = append(dst, text...)
			}
			return true
		})
		return append(dst, ']')
	case pm.val[0] == '{':
		return m.withoutNulls(dst, pm.val, pm.ord)
	}
	return append(dst, pm.val...)
}

// withoutNulls appends the object text, numbered ord on the patch's tape,
// with its nulls removed at every depth of its objects (RFC 7396).
func (m *merger) withoutNulls(dst []byte, text string, ord int32) []byte {
	dst = append(dst, '{')
	mark := len(dst)
	for it := membersOf(text, ord, m.tape); ; {
		mb, ok := it.next()
		if !ok {
			break
		}
		switch mb.val[0] {
		case 'n':
		case '{':
			dst = appendMember(dst, mark, mb.key, "")
			dst = m.withoutNulls(dst, mb.val, mb.ord)
		default:
			dst = appendMember(dst, mark, mb.key, mb.val)
		}
	}
	return append(dst, '}')
}

// appendMember appends the key and the value text of an object's member,
// after a comma unless it is the first since mark.
func appendMember(dst []byte, mark int, key, val string) []byte {
	if len(dst) > mark {
		dst = append(dst, ',')
	}
	dst = jsonwire.AppendString(dst, key)
	dst = append(dst, ':')
	return append(dst, val...)
}

// appendPathKey returns path followed by the key k, in a new slice.
func appendPathKey(path []byte, k string) []byte {
	if len(path) == 0 {
		return pathfmt.AppendFirstKey(nil, k)
	}
	return pathfmt.AppendKey(slices.Clip(path), k)
}

// wireNode returns the node of p that reads the wire key k in this call
// (its condition holds), looking into the merged references it shows
// (their keys are p's), or nil.
func (r *run) wireNode(p *objectPlan, k string, depth int) *node {
	for _, n := range p.nodes {
		if !n.merge && n.out == k && (n.cond == nil || r.shown(n.cond)) {
			return n
		}
	}
	if depth > maxMergeDepth {
		return nil
	}
	for _, n := range p.nodes {
		if n.merge && (n.cond == nil || r.shown(n.cond)) {
			if t := r.refTarget(n); t != nil {
				if m := r.wireNode(t.view(r.dir), k, depth+1); m != nil {
					return m
				}
			}
		}
	}
	return nil
}

// objectOf returns the plan of the object a node holds, for a merge patch
// that merges into it: a group's, a $name's (not a list's); nil for any
// other.
func (r *run) objectOf(n *node) *objectPlan {
	switch {
	case n.kind == nodeGroup:
		return n.group
	case n.kind == nodeRef && !n.refList && !n.merge:
		if t := r.refTarget(n); t != nil {
			return t.view(r.dir)
		}
	}
	return nil
}

// clearedError is the FieldError of a writeonly req field a patch clears,
// at path.
func (r *run) clearedError(n *node, path string) *FieldError {
	f := failure{rule: "req", code: "required", err: errRequired}
	fe := &FieldError{Path: path, OutputPath: path, Pointer: pointerOf(path), Rule: f.rule, Code: f.code}
	fe.Message = r.message(n, n.in, f.code, nil, f, false)
	return fe
}

// pointerOf returns the JSON Pointer of a dotted path of plain keys.
func pointerOf(path string) string {
	var b []byte
	for _, k := range strings.Split(path, ".") {
		b = pathfmt.AppendPointerToken(b, k)
	}
	return string(b)
}

// withFailures adds field errors to a call's error: to its
// ValidationError, or as one.
func withFailures(e *Entity, err error, fs []*FieldError) error {
	if ve, ok := err.(*ValidationError); ok {
		ve.Fields = append(ve.Fields, fs...)
		return ve
	}
	if err != nil {
		return err
	}
	return &ValidationError{Entity: e.name, Fields: fs}
}
