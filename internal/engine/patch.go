package engine

import (
	"encoding/binary"
	"errors"
	"slices"

	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/internal/pathfmt"
)

// MergePatchType is the media type of a JSON Merge Patch, the body a
// patch call reads.
const MergePatchType = "application/merge-patch+json"

// PATCH: a JSON Merge Patch (RFC 7396) applied to the current value of a
// resource, then judged as a request, in three steps of one view each:
//
//  1. The current value, server data in any form Make reads, is written in
//     the wire form by the view dirCurrent: the response view without
//     rules, transforms, defaults, omissions or lazy fields, with the
//     call's flags and version, so that it holds every field the call
//     sees as the server holds it (a readonly value too, where a response
//     would leave it out or default it). Nothing of it is judged there:
//     nor is it in step 3, but what the patch gives.
//  2. The patch, the request's body, is merged into it as text (merger),
//     as RFC 7396 says: a repeated key has its last value, as MakeRequest
//     reads it; an object merges into the object the current value holds
//     (a group's, a $name's, a value field's), recursively, a null
//     removing a key; anything else replaces the value, a list whole. The
//     merger knows the entity's fields: a readonly key of the patch is
//     dropped at every depth (the current value's stays, also inside a
//     group the patch sets to null), a writeonly one's null is kept (it
//     clears what the server holds), and a $name's object or a []$name's
//     list that the patch gives where the current value holds none is
//     marked, on the merged text's tape, to be read as MakeRequest reads
//     it (jsonStack.fresh).
//  3. The merged document is read as MakeRequest reads a JSON body, with
//     the request's parameters, through the view dirPatch: the request
//     view but that it holds the readonly fields, taken as they are
//     (nothing judges them; a readonly $name's object is read with the
//     view dirStored, which judges nothing either), that a writeonly
//     field is read only when its object holds its key (the server's
//     value stays otherwise: it is not in the current value), and that a
//     value its omitnil or omitempty leaves out is kept, hidden from its
//     response form, so that Bind of the merged Object sets it. What the
//     merger marked fresh is read with the request view (appendInView).
//     A member the merger copied from the current value into an object
//     the patch merges into (after the patch's members: jsonObject.tail)
//     is read with its node's stored twin, which judges nothing
//     (storedTwins), and an object or a list of it that such a twin would
//     write again as it is (objectPlan.verbatim) is copied.
//
// The stored value's rules thus run on none of it: only what the patch
// gives, and what the objects it merges into lack, are judged.

// AppendPatch applies body, a merge patch, to current, the resource's
// value as the server holds it (any input Make reads; an Object is used as
// it is when e's response view made it unshaped), and reads the merged
// value as a request of req: the view Patch (package entity's
// Entity.Patch documents what it does). cur holds the options the current
// value is read with (the call's flags and version). It appends what it
// made to dst and returns the paths the patch touched; on failure c says
// why.
func (c *Call) AppendPatch(dst []byte, e *Entity, req *HTTPRequest, body []byte, current any, o, cur *Opts) (_ []byte, touched []string) {
	cv, ok := c.readCurrent(e, current, cur)
	if !ok {
		return dst, nil
	}
	defer cv.release()

	var run run
	run.start(e, topObject, dirPatch, o)
	defer run.done()
	fail := func(err error) ([]byte, []string) {
		if err != nil {
			run.fatal = err
		}
		c.report(&run)
		return dst, nil
	}
	if run.fatal != nil {
		return fail(nil)
	}

	// The patch, merged into the current value: the body of the request.
	text, err := run.parseJSONOf(body, true)
	if err != nil {
		return fail(err)
	}
	p := e.view(dirPatch)
	mb := bufPool.Get().(*[]byte)
	defer putBuf(mb)
	*mb, touched = run.mergePatch((*mb)[:0], p, text, &cv)

	// The merged value, read as MakeRequest reads a JSON body.
	if text, err = run.parseJSONOf(*mb, true); err != nil {
		return fail(err)
	}
	src := &requestSource{r: req.R, env: e.env, header: req.R.Header, query: req.Query, body: true, strict: run.cfg.strict}
	src.js = run.takeJSON(text, 0, p.in)
	run.request, run.reqBody = true, true
	run.cfg.keepFailed = c.KeepFailed
	c.MaxOut = e.env.RequestOutputLimit(int64(len(body) + len(cv.text)))
	run.maxOut = int(min(c.MaxOut, maxOutputLimit))
	dst = run.walkInto(dst, e, src)
	c.report(&run)
	return dst, touched
}

// currentValue is the current value of a patch in the wire form, on its
// tape, in pooled memory that release gives back.
type currentValue struct {
	text string
	tape []int32
	buf  *[]byte    // the bufPool buffer holding text, if any
	js   *jsonStack // the jsonStackPool stack holding tape
}

// readCurrent writes the current value of a patch in the wire form, with
// the view dirCurrent, as the call sees it: its flags and version (cur:
// no other option, since a selection shapes the answer, not what is kept)
// decide which fields are there. An Object the entity made for a
// response, in a call without them, is its own text. A failure is the
// server's data's (500), reported in c.
func (c *Call) readCurrent(e *Entity, current any, cur *Opts) (currentValue, bool) {
	var cv currentValue
	if m := madeIn(current); m != nil && MadeBy(m, e) && (cur == nil || !cur.Shaped) {
		cv.text = bytesString(m.data)
	} else {
		var r run
		r.start(e, topObject, dirCurrent, cur)
		cv.buf = bufPool.Get().(*[]byte)
		b := r.walkInto((*cv.buf)[:0], e, current)
		*cv.buf = b
		if r.fatal != nil || len(r.errs) > 0 {
			c.Dir = Response // the server's data
			c.report(&r)
			putBuf(cv.buf)
			return currentValue{}, false
		}
		cv.text = bytesString(b)
	}
	cv.js = jsonStackPool.Get().(*jsonStack)
	if code, _ := jsontape.Scan(cv.text, jsontape.MaxNesting, &cv.js.tape); code != jsontape.OK || cv.text[0] != '{' {
		cv.release()
		c.Dir, c.Fatal = Response, errors.New("entity: Patch: the current value's JSON does not read back") // cannot happen: the walk writes JSON
		return currentValue{}, false
	}
	cv.tape = cv.js.tape
	return cv, true
}

// release gives back the memory of the current value.
func (cv *currentValue) release() {
	if cv.buf != nil {
		putBuf(cv.buf)
	}
	if cv.js != nil && cap(cv.js.tape) <= 1<<16 {
		jsonStackPool.Put(cv.js)
	}
	*cv = currentValue{}
}

// putBuf puts a bufPool buffer back, unless it grew too large.
func putBuf(bp *[]byte) {
	if cap(*bp) <= maxPooled {
		*bp = (*bp)[:0]
		bufPool.Put(bp)
	}
}

// mergePatch appends the patch text, parsed by the run (on its tape),
// merged into the current value cur, objects of the plan p, and returns
// the paths it touched.
func (r *run) mergePatch(dst []byte, p *objectPlan, text string, cur *currentValue) ([]byte, []string) {
	// The merger's buffers are its own: an immutable field's comparison
	// converts values (sameValue) with the run's scratch buffers.
	pb, tb := scratchPool.Get().(*[]byte), scratchPool.Get().(*[]byte)
	m := merger{tape: r.js.tape, curTape: cur.tape, path: (*pb)[:0], touched: (*tb)[:0]}
	r.js.fresh, r.js.stored, r.js.tails = r.js.fresh[:0], r.js.stored[:0], r.js.tails[:0]
	dst = m.object(r, dst, cur.text, 0, text, 0, p, false, r.ent.env.lim().Depth)
	paths := m.paths()
	putScratch(pb)
	putScratch(tb)
	return dst, paths
}

// merger writes a merge patch applied to a current value (RFC 7396), both
// JSON text on tapes, as the JSON object the patch view then reads,
// recording the paths the patch touches. Each member of either is written
// once at most, so that the merged text is no longer than the two
// together (and the writeonly keys a null for a group clears), whatever
// the patch repeats.
type merger struct {
	tape    []int32 // the patch's
	curTape []int32 // the current value's
	// ord is the ordinal the merged text's tape gives the next string
	// literal or container written (see package jsontape): each literal
	// takes one entry, each container two, in the order they begin. The
	// ordinals of the objects and lists that the patch gives whole to a
	// $name or a []$name where the current value holds none are recorded
	// in the run's jsonStack.fresh, for the walk of the merged text to
	// read them as MakeRequest reads them (appendInView).
	ord int32
	// path is the path of the object being merged, in pathfmt's form;
	// touched the paths the patch set or cleared, each after its length
	// in 4 bytes, little-endian. Both are pooled buffers of their own, not
	// the run's scratch buffers, which converting a value uses. (The
	// merger holds no pointer into the stack, nor the run: as its methods
	// store into it, whatever it points to would be moved to the heap.)
	path, touched []byte
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

// lastKeys says which members of a JSON object are the last of their key:
// a key said twice has its last value, as MakeRequest reads it (and as
// encoding/json does).
type lastKeys struct {
	keys []string       // every key, in order, for an object of few members
	last map[string]int // the index of each key's last member, for one of many
}

// readKeys reads the keys of the object text, numbered ord on tape, into
// keys (room for a few; past it, a map).
func readKeys(keys []string, text string, ord int32, tape []int32) lastKeys {
	l := lastKeys{keys: keys[:0]}
	i := 0
	for it := membersOf(text, ord, tape); ; i++ {
		mb, ok := it.next()
		if !ok {
			return l
		}
		if l.last == nil {
			if len(l.keys) < cap(l.keys) {
				l.keys = append(l.keys, mb.key)
				continue
			}
			l.last = make(map[string]int, 2*len(l.keys))
			for j, k := range l.keys {
				l.last[k] = j
			}
		}
		l.last[mb.key] = i
	}
}

// index returns the index of the last member of key k, or -1 for none.
func (l lastKeys) index(k string) int {
	if l.last != nil {
		if i, ok := l.last[k]; ok {
			return i
		}
		return -1
	}
	for i := len(l.keys) - 1; i >= 0; i-- {
		if l.keys[i] == k {
			return i
		}
	}
	return -1
}

// isLast reports whether member i, of key k, is the last of its key.
func (l lastKeys) isLast(i int, k string) bool {
	if l.last != nil {
		return l.last[k] == i
	}
	return !slices.Contains(l.keys[i+1:], k)
}

// put appends val, a value copied from the text of tape (numbered ord
// there when it is a container), counting its entries on the merged
// text's tape.
func (m *merger) put(dst []byte, val string, ord int32, tape []int32) []byte {
	switch val[0] {
	case '"':
		m.ord++
	case '{', '[':
		_, next := jsontape.Container(tape, int(ord))
		m.ord += int32(next) - ord
	}
	return append(dst, val...)
}

// key appends the key k of an object's member and its colon, after a
// comma unless it is the first since mark.
func (m *merger) key(dst []byte, mark int, k string) []byte {
	if len(dst) > mark {
		dst = append(dst, ',')
	}
	m.ord++
	dst = jsonwire.AppendString(dst, k)
	return append(dst, ':')
}

// open appends the first byte of a container, and returns its ordinal on
// the merged text's tape.
func (m *merger) open(dst []byte, c byte) ([]byte, int32) {
	o := m.ord
	m.ord += 2
	return append(dst, c), o
}

// touch records the path of the member at key k of the object being
// merged as one the patch set or cleared.
func (m *merger) touch(k string) {
	at := len(m.touched)
	m.touched = append(m.touched, 0, 0, 0, 0)
	if len(m.path) == 0 {
		m.touched = pathfmt.AppendFirstKey(m.touched, k)
	} else {
		m.touched = pathfmt.AppendKey(append(m.touched, m.path...), k)
	}
	binary.LittleEndian.PutUint32(m.touched[at:], uint32(len(m.touched)-at-4))
}

// paths returns the paths touch recorded, views of one string. (The
// run's buffers it used stay the run's: what they grew to is dropped.)
func (m *merger) paths() []string {
	if len(m.touched) == 0 {
		return nil
	}
	all := string(m.touched)
	n := 0
	for i := 0; i < len(all); n++ {
		i += 4 + int(binary.LittleEndian.Uint32(m.touched[i:]))
	}
	out := make([]string, 0, n)
	for i := 0; i < len(all); {
		size := int(binary.LittleEndian.Uint32(m.touched[i:]))
		out = append(out, all[i+4:i+4+size])
		i += 4 + size
	}
	return out
}

// object appends the merge of the patch's object ptext (numbered pord on
// its tape) into the current value's object ctext (numbered cord; "" for
// none), objects of the plan p, as RFC 7396 merges them (see member). A
// patch's readonly key is dropped (the current value's stays), and so is
// a parameter field's key of the current value (a request's parameters
// are read from the request); a key the call does not read stays as the
// patch gives it, for DenyUnknown; an object or list the current value
// holds where the patch gives nothing is copied whole, and marked stored:
// its keys are the server's, which DenyUnknown does not judge (a nested
// entity's parameter fields, say). A key the patch gives twice is merged
// once, with its last value. wo says the object is a writeonly value's
// (a group of a writeonly merged reference, say): its fields are
// writeonly too. depth is how many more objects may nest.
func (m *merger) object(r *run, dst []byte, ctext string, cord int32, ptext string, pord int32, p *objectPlan, wo bool, depth int) []byte {
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
	var keys [16]string
	last := readKeys(keys[:0], ptext, pord, m.tape)
	start := len(dst)
	dst, o := m.open(dst, '{')
	mark := len(dst)
	// where the current value's members begin, recorded for the walk of
	// the merged text (jsonObject.tail): they follow the patch's
	at := len(r.js.tails)
	r.js.tails = append(r.js.tails, o, noTail)
	i := -1
	for it := membersOf(ptext, pord, m.tape); ; {
		pm, ok := it.next()
		if !ok {
			break
		}
		i++
		n, ro, nwo := r.wireNode(p, pm.key, 0)
		wo := wo || nwo
		switch {
		case ro:
			if n.src != srcBody && len(m.path) == 0 && r.cfg.denyUnknown {
				// a readonly merged reference's parameter: its key is
				// the server's in the merged value (kept from the current
				// value), so the client's is judged here, as a POST
				// judges it (no body key reads a parameter)
				r.failUnknown(pm.key, "")
			}
			continue // the server's: ignored, as in a POST
		case n == nil || n.src != srcBody: // read by nothing, or a parameter read from the request: kept for DenyUnknown
			for j := range cur {
				if cur[j].key == pm.key { // the patch's value replaces the current value's (a union's key, say)
					cur[j].over = true
				}
			}
			dst = m.put(m.key(dst, mark, pm.key), pm.val, pm.ord, m.tape)
			continue
		case !last.isLast(i, pm.key):
			continue // a later value replaces it
		}
		c := -1
		for j := range cur {
			if cur[j].key == pm.key {
				cur[j].over, c = true, j
			}
		}
		var cm member
		if c >= 0 {
			cm = cur[c]
		}
		kept := false
		if n.immutable {
			dst = m.once(r, dst, mark, n, wo, pm, cm, depth) // patch_immutable.go
		} else {
			dst, kept = m.member(r, dst, mark, n, wo, pm, cm, depth)
		}
		if kept {
			cur[c].over = false // the stored member stays, among the current value's
		}
	}
	r.js.tails[at+1] = int32(len(dst) - start)
	for _, c := range cur {
		if c.over {
			continue
		}
		if n, ro, _ := r.wireNode(p, c.key, 0); n != nil && n.src != srcBody && !ro {
			continue // a parameter: read from the request (a readonly merged reference's is the server's, kept)
		}
		dst = m.putStored(r, m.key(dst, mark, c.key), c)
	}
	return append(dst, '}')
}

// putStored appends c, a member of the current value, as it is, marking
// an object or a list stored on the run's jsonStack: its keys are the
// server's, which DenyUnknown does not judge.
func (m *merger) putStored(r *run, dst []byte, c member) []byte {
	start := m.ord
	dst = m.put(dst, c.val, c.ord, m.curTape)
	if c.val[0] == '{' || c.val[0] == '[' {
		r.js.stored = append(r.js.stored, start, m.ord)
	}
	return dst
}

// member appends the merge of one member of the patch, pm, for the node
// n (writeonly when wo says so, itself or through a merged reference),
// into the current value's member of the same key, c (c.val "" for none):
//
//   - an object merges into the object of a group, or of a $name that the
//     current value holds one for, with the plan of its object (object);
//     given to a $name that holds none, it is merged into nothing (its
//     nulls removed) and marked fresh: read as MakeRequest reads it;
//   - a null given to a group or a $name whose object in the current
//     value holds an immutable value changes it: each is refused, and
//     the object stays as stored (clearsImmutable): member writes nothing
//     and reports it kept, for object to write it with the current
//     value's members, read as stored;
//   - a null removes the key, but a writeonly field's (kept: it clears
//     the value the server holds, which the current value does not), and
//     a group's, or a $name's that its bare default makes again, that
//     holds readonly values: its object is then what clearedGroup leaves;
//   - an object given to a value field (none, object) merges into the
//     object the current value holds, as RFC 7396 merges any JSON
//     (plain), or into nothing;
//   - a list replaces the value whole, as it is (a []$name's marked
//     fresh), and so does anything else.
func (m *merger) member(r *run, dst []byte, mark int, n *node, wo bool, pm, c member, depth int) (_ []byte, kept bool) {
	curObj := c.val != "" && c.val[0] == '{'
	if (n.kind == nodeGroup || n.kind == nodeRef && !n.refList && n.union == nil) && !r.cfg.strict && pm.val[0] != '{' && pm.val != "null" {
		pm.val = "null" // what a lax request reads for a group or a $name given no object (Strict, and a union: a type error, the value kept for it)
	}
	sub := r.objectOf(n)
	if n.union != nil && curObj && pm.val[0] == '{' {
		sub = m.variantOf(r, n.union, c, pm) // nil: the patch changes the variant, which it replaces whole
	}
	if sub != nil && pm.val[0] == '{' && depth > 1 && (n.kind == nodeGroup || curObj) {
		if !curObj {
			c = member{ord: -1}
		}
		at := len(m.path)
		m.path = appendPathKey(m.path, pm.key)
		dst = m.object(r, m.key(dst, mark, pm.key), c.val, c.ord, pm.val, pm.ord, sub, wo, depth-1)
		m.path = m.path[:at]
		return dst, false
	}
	if sub != nil && sub.mayHoldImmutable && pm.val == "null" && curObj && depth > 1 && m.clearsImmutable(r, pm.key, c, sub, depth-1) {
		m.refuse(r, pm.key) // its own path too: it counts as given for its siblings' cross-field rules
		return dst, true    // refused: the object stays as stored
	}
	if n.union != nil && curObj && depth > 1 && (pm.val == "null" || pm.val[0] == '{' && sub == nil) {
		// a null for a union, or another variant, removes the stored
		// variant's immutable values as a null for a $name does
		if vp := m.storedVariant(r, n.union, c); vp != nil && vp.mayHoldImmutable && m.clearsImmutable(r, pm.key, c, vp, depth-1) {
			m.refuse(r, pm.key)
			return dst, true // refused: the variant stays as stored
		}
	}
	m.touch(pm.key)
	switch {
	case pm.val == "null" && n.kind == nodeGroup && curObj && depth > 1 && m.holdsReadOnly(r, c.val, c.ord, n.group, depth-1):
		return m.clearedGroup(r, m.key(dst, mark, pm.key), c.val, c.ord, n.group, n.writeOnly, depth-1), false
	case pm.val == "null" && m.remade(r, n, c, depth) != nil:
		return m.clearedGroup(r, m.key(dst, mark, pm.key), c.val, c.ord, sub, n.writeOnly, depth-1), false
	case pm.val == "null":
		if wo {
			dst = append(m.key(dst, mark, pm.key), "null"...)
		}
		return dst, false
	case pm.val[0] == '{' && n.kind == nodeRef && !n.refList: // a $name that holds no object, or a union's new variant
		dst, o := m.withoutNulls(m.key(dst, mark, pm.key), pm.val, pm.ord, depth)
		r.js.fresh = append(r.js.fresh, o)
		return dst, false
	case pm.val[0] == '{' && n.kind == nodeValue && curObj:
		return m.plain(m.key(dst, mark, pm.key), c.val, c.ord, pm.val, pm.ord, depth), false
	case pm.val[0] == '{' && n.kind == nodeValue:
		dst, _ = m.withoutNulls(m.key(dst, mark, pm.key), pm.val, pm.ord, depth)
		return dst, false
	case pm.val[0] == '[' && n.kind == nodeRef && n.refList:
		dst = m.key(dst, mark, pm.key)
		r.js.fresh = append(r.js.fresh, m.ord)
	default:
		dst = m.key(dst, mark, pm.key)
	}
	return m.put(dst, pm.val, pm.ord, m.tape), false
}

// holdsReadOnly reports whether a group's object in the current value,
// ctext (numbered cord), of the plan p, holds a readonly value, in it or
// in a group of it.
func (m *merger) holdsReadOnly(r *run, ctext string, cord int32, p *objectPlan, depth int) bool {
	for it := membersOf(ctext, cord, m.curTape); ; {
		c, ok := it.next()
		if !ok {
			return false
		}
		switch n, ro, _ := r.wireNode(p, c.key, 0); {
		case n == nil:
		case ro:
			return true
		case n.kind == nodeGroup && c.val[0] == '{' && depth > 1 && m.holdsReadOnly(r, c.val, c.ord, n.group, depth-1):
			return true
		case m.remade(r, n, c, depth) != nil:
			return true
		}
	}
}

// remade returns the plan of a $name, n, that a null (its own, or its
// group's) makes again from its bare default, when its object in the
// current value, c, holds readonly values: they stay, as a group's do
// (clearedGroup). It returns nil for any other node.
func (m *merger) remade(r *run, n *node, c member, depth int) *objectPlan {
	if n.kind != nodeRef || !n.refDefault || depth <= 1 || c.val == "" || c.val[0] != '{' {
		return nil
	}
	if sub := r.objectOf(n); sub != nil && m.holdsReadOnly(r, c.val, c.ord, sub, depth-1) {
		return sub
	}
	return nil
}

// clearedGroup appends what a null leaves of a group whose object in the
// current value, ctext (numbered cord), of the plan p, holds readonly
// values (holdsReadOnly; a null removes any other group, as in a
// request), or of a $name that its bare default makes again: its
// readonly members, the server's, as they are, and in each of its groups
// and $names made again by their default (remade) that holds some what a
// null leaves of it; a writeonly group's (wo) with
// a null for each writeonly field (it clears the value the server holds,
// which the current value does not), another's without its writeonly
// fields (the server's stay, as for a group the null removes). Its other
// fields are cleared by their absence.
func (m *merger) clearedGroup(r *run, dst []byte, ctext string, cord int32, p *objectPlan, wo bool, depth int) []byte {
	dst, _ = m.open(dst, '{')
	mark := len(dst)
	for it := membersOf(ctext, cord, m.curTape); ; {
		c, ok := it.next()
		if !ok {
			break
		}
		n, ro, _ := r.wireNode(p, c.key, 0)
		switch {
		case n == nil:
		case ro:
			dst = m.put(m.key(dst, mark, c.key), c.val, c.ord, m.curTape)
		case n.kind == nodeGroup && c.val[0] == '{' && depth > 1 && m.holdsReadOnly(r, c.val, c.ord, n.group, depth-1):
			dst = m.clearedGroup(r, m.key(dst, mark, c.key), c.val, c.ord, n.group, wo, depth-1)
		default:
			if sub := m.remade(r, n, c, depth); sub != nil {
				dst = m.clearedGroup(r, m.key(dst, mark, c.key), c.val, c.ord, sub, wo || n.writeOnly, depth-1)
			}
		}
	}
	if wo {
		r.eachWriteOnly(p, false, 0, func(k string) {
			dst = append(m.key(dst, mark, k), "null"...)
		})
	}
	return append(dst, '}')
}

// plain appends the merge of the patch's object ptext (numbered pord on
// its tape) into the current value's object ctext (numbered cord), JSON
// no plan describes (a none or object field's), as RFC 7396 merges any:
// a null removes a key, an object merges into the object there, anything
// else replaces the value. The current value's keys keep their order, the
// patch's new ones follow.
func (m *merger) plain(dst []byte, ctext string, cord int32, ptext string, pord int32, depth int) []byte {
	if depth <= 1 {
		dst, _ = m.withoutNulls(dst, ptext, pord, depth)
		return dst
	}
	var buf [16]member
	cur := buf[:0]
	for it := membersOf(ctext, cord, m.curTape); ; {
		mb, ok := it.next()
		if !ok {
			break
		}
		cur = append(cur, mb)
	}
	var at map[string]int // the index of each key's last member in cur, for one of many
	find := func(k string) int {
		if len(cur) <= len(buf) {
			for j := len(cur) - 1; j >= 0; j-- {
				if cur[j].key == k {
					return j
				}
			}
			return -1
		}
		if at == nil {
			at = make(map[string]int, len(cur))
			for j, c := range cur {
				at[c.key] = j
			}
		}
		if j, ok := at[k]; ok {
			return j
		}
		return -1
	}
	var keys [16]string
	last := readKeys(keys[:0], ptext, pord, m.tape)
	var pbuf [16]member
	pms := pbuf[:0]
	for it := membersOf(ptext, pord, m.tape); ; {
		pm, ok := it.next()
		if !ok {
			break
		}
		pms = append(pms, pm)
	}
	dst, _ = m.open(dst, '{')
	mark := len(dst)
	// The current value's keys keep their places, a key the patch sets
	// with its new value; a key either repeats is written once, at the
	// current value's last (stored JSON may repeat one: its last value is
	// the one read, as MakeRequest reads a body).
	for j, c := range cur {
		i := last.index(c.key)
		if i < 0 {
			if find(c.key) == j {
				dst = m.put(m.key(dst, mark, c.key), c.val, c.ord, m.curTape)
			}
			continue
		}
		pm := pms[i]
		switch {
		case find(c.key) != j, pm.val == "null":
		case pm.val[0] == '{' && c.val[0] == '{':
			dst = m.plain(m.key(dst, mark, pm.key), c.val, c.ord, pm.val, pm.ord, depth-1)
		case pm.val[0] == '{':
			dst, _ = m.withoutNulls(m.key(dst, mark, pm.key), pm.val, pm.ord, depth-1)
		default:
			dst = m.put(m.key(dst, mark, pm.key), pm.val, pm.ord, m.tape)
		}
	}
	// The patch's new keys follow, in its order (a repeated one at its last
	// place).
	for i, pm := range pms {
		switch {
		case !last.isLast(i, pm.key), pm.val == "null", find(pm.key) >= 0:
		case pm.val[0] == '{':
			dst, _ = m.withoutNulls(m.key(dst, mark, pm.key), pm.val, pm.ord, depth-1)
		default:
			dst = m.put(m.key(dst, mark, pm.key), pm.val, pm.ord, m.tape)
		}
	}
	return append(dst, '}')
}

// withoutNulls appends the patch's object text, numbered ord on its tape,
// merged into nothing (RFC 7396): its nulls removed at every depth of its
// objects, a repeated key's last value kept. It returns the object's
// ordinal on the merged text's tape. Past the depth limit it is copied as
// it is (the walk refuses it).
func (m *merger) withoutNulls(dst []byte, text string, ord int32, depth int) ([]byte, int32) {
	o := m.ord
	if depth <= 1 {
		return m.put(dst, text, ord, m.tape), o
	}
	var keys [16]string
	last := readKeys(keys[:0], text, ord, m.tape)
	dst, _ = m.open(dst, '{')
	mark := len(dst)
	i := -1
	for it := membersOf(text, ord, m.tape); ; {
		mb, ok := it.next()
		if !ok {
			break
		}
		i++
		switch {
		case !last.isLast(i, mb.key), mb.val == "null":
		case mb.val[0] == '{':
			dst, _ = m.withoutNulls(m.key(dst, mark, mb.key), mb.val, mb.ord, depth-1)
		default:
			dst = m.put(m.key(dst, mark, mb.key), mb.val, mb.ord, m.tape)
		}
	}
	return append(dst, '}'), o
}

// appendPathKey appends the key k to a path.
func appendPathKey(path []byte, k string) []byte {
	if len(path) == 0 {
		return pathfmt.AppendFirstKey(path, k)
	}
	return pathfmt.AppendKey(path, k)
}

// wireNode returns the node of p that reads the wire key k in this call
// (its condition holds), looking into the merged references it shows
// (their keys are p's), or nil; ro and wo say whether it is readonly or
// writeonly, itself or through a merged reference it is reached by.
func (r *run) wireNode(p *objectPlan, k string, depth int) (_ *node, ro, wo bool) {
	for _, n := range p.nodes {
		if !n.merge && n.out == k && (n.cond == nil || r.shown(n.cond)) {
			return n, n.readOnly, n.writeOnly
		}
	}
	if depth > maxMergeDepth {
		return nil, false, false
	}
	for _, mn := range p.nodes {
		if mn.merge && (mn.cond == nil || r.shown(mn.cond)) {
			if t := r.refTarget(mn); t != nil {
				if n, ro, wo := r.wireNode(t.refView(r.dir, mn.refNested), k, depth+1); n != nil {
					return n, ro || mn.readOnly, wo || mn.writeOnly
				}
			}
		}
	}
	return nil, false, false
}

// eachWriteOnly calls f with the wire key of each writeonly field of p
// the call shows (wo: every field, of a writeonly merged reference),
// those of the entities it merges included; readonly ones excepted.
func (r *run) eachWriteOnly(p *objectPlan, wo bool, depth int, f func(k string)) {
	for _, n := range p.nodes {
		switch {
		case n.cond != nil && !r.shown(n.cond), n.readOnly:
		case n.merge:
			if t := r.refTarget(n); t != nil && depth < maxMergeDepth {
				r.eachWriteOnly(t.refView(r.dir, n.refNested), wo || n.writeOnly, depth+1, f)
			}
		case wo || n.writeOnly:
			f(n.out)
		}
	}
}

// variantOf returns the plan of the variant a union's object in the
// current value, c, holds (written by the view dirCurrent: its key
// first), when the patch's object pm keeps it: it names no key, or the
// same variant. It returns nil when the patch names another variant (or
// anything else), which then replaces the object whole, read as a
// request reads it (member), and when the current object names none.
func (m *merger) variantOf(r *run, u *unionPlan, c, pm member) *objectPlan {
	cv := u.of(c.val)
	if cv == nil {
		return nil
	}
	key := "" // the patch's key, its last value where it repeats it (as MakeRequest reads it)
	for it := membersOf(pm.val, pm.ord, m.tape); ; {
		mb, ok := it.next()
		if !ok {
			break
		}
		if mb.key == u.key {
			key = mb.val
		}
	}
	if key != "" && (key[0] != '"' || jsonwire.Unquote(key) != cv.name) {
		return nil
	}
	return m.storedVariant(r, u, c)
}

// storedVariant returns the plan of the variant a union's object in the
// current value, c, holds; nil for none.
func (m *merger) storedVariant(r *run, u *unionPlan, c member) *objectPlan {
	if cv := u.of(c.val); cv != nil {
		if t := r.refTarget(cv.n); t != nil {
			return t.refView(r.dir, true)
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
	case n.kind == nodeRef && !n.refList && !n.merge && n.union == nil: // a union's: its variant's (variantOf)
		if t := r.refTarget(n); t != nil {
			return t.refView(r.dir, n.refNested)
		}
	}
	return nil
}
