package engine

import (
	"errors"
	"slices"
	"strings"

	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/internal/pathfmt"
)

// MergePatchType is the media type of a JSON Merge Patch, the body a
// patch call reads.
const MergePatchType = "application/merge-patch+json"

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

// AppendPatch applies body, a merge patch, to current, the resource's
// value as the server holds it (any input Make reads; an Object is used as
// it is when e's response view made it unshaped), and reads the merged
// value as a request of req: the view Patch (package entity's
// Entity.Patch documents what it does). cur holds the options the current
// value is made with (the call's flags and version). It appends what it
// made to dst and returns the paths the patch touched; on failure c says
// why.
func (c *Call) AppendPatch(dst []byte, e *Entity, req *HTTPRequest, body []byte, current any, o, cur *Opts) (_ []byte, touched []string) {
	cc := Call{Dir: Response, Top: TopObject}
	var curJSON []byte
	if m := madeIn(current); m != nil && MadeBy(m, e) && (cur == nil || !cur.Shaped) {
		curJSON = m.data
	} else {
		curJSON = cc.AppendCopy(e, current, cur)
		if cc.Failed() {
			*c = cc
			return dst, nil
		}
	}

	var run run
	run.start(e, topObject, dirPatch, o)
	defer run.done()
	if run.fatal != nil {
		c.report(&run)
		return dst, nil
	}
	fail := func(err error) ([]byte, []string) {
		run.fatal = err
		c.report(&run)
		return dst, nil
	}

	// The patch, merged into the current value: the body of the request.
	text, err := run.parseJSONOf(body, true)
	if err != nil {
		return fail(err)
	}
	m := merger{run: &run, tape: run.js.tape}
	var ctext string
	if len(curJSON) > 0 {
		ctext = jsonwire.TrimSpace(bytesString(curJSON))
		if code, _ := jsontape.Scan(ctext, jsontape.MaxNesting, &m.curTape); code != jsontape.OK || ctext[0] != '{' {
			return fail(errors.New("entity: Patch: the current value's JSON does not read back")) // cannot happen: the walk writes JSON
		}
	}
	merged := make([]byte, 0, len(body)+len(ctext)+2)
	merged = m.object(merged, ctext, 0, text, 0, e.view(dirPatch), nil, true, e.env.lim().Depth)

	// The merged value, read as MakeRequest reads a JSON body.
	if text, err = run.parseJSONOf(merged, true); err != nil {
		return fail(err)
	}
	p := e.view(dirPatch)
	src := &requestSource{r: req.R, env: e.env, header: req.R.Header, query: req.Query, body: true}
	src.js = run.takeJSON(text, 0, p.in)
	run.request, run.reqBody = true, true
	c.MaxOut = e.env.RequestOutputLimit(int64(len(body) + len(ctext)))
	run.maxOut = int(min(c.MaxOut, maxOutputLimit))
	dst = run.walkInto(dst, e, src)
	c.report(&run)
	if len(m.cleared) > 0 {
		c.Failures = append(c.Failures, m.cleared...)
	}
	return dst, m.touched
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
	fe := &FieldError{Path: path, OutputPath: path, Pointer: pointerOf(path), Rule: "req", Code: "required", Cause: errRequired, Err: errRequired, Field: n.in}
	if n.msg != nil {
		fe.Msg, fe.MsgParams = n.msg, n.msgParams
	}
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
