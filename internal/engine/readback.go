package engine

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/rules"
)

// Made is an entity's output held as data (package entity's Object, which
// embeds it and whose doc says what it is): exactly the JSON a call
// wrote, read-only, with the compiled plan that says what each key holds.
// Its read-back (Get, Keys, Map, the text a response writes, the declared
// names Bind reads) lives here, beside the plan it reads. It has no
// exported method, so that the Object embedding it shows none of its own.
//
// The zero Made, like a nil *Made, is an empty object.
type Made struct {
	plan *objectPlan // what its keys hold: shared, never modified
	data []byte      // its JSON text, "{…}": never modified

	// idx holds where each plan node's value lies in data, made by the
	// first Get (one pass over data) and never modified after: Gets that
	// follow find a value without reading the text before it.
	idx atomic.Pointer[[]span]

	// hid is where its writeonly members lie, for a Made of a request
	// view that wrote some (nil otherwise), and in a merge patch's merged
	// value the members its omitnil and omitempty leave out of a response;
	// vis is the Made as a response sees it, without them (see visible),
	// made on first need.
	hid *hiddenSpans
	vis atomic.Pointer[Made]

	// made is how the call that made it shaped it, when it had shaping
	// options: the version and flags it had (which of the fields sharing
	// a key wrote it); Make does not take such a Made as made (madeBy).
	// nil for a call without them.
	made *objectMade

	// failed holds the failures of the request it was made from, when
	// the call kept what it wrote though fields failed (Call.KeepFailed):
	// what FailedAt reads. nil otherwise.
	failed []FieldError
}

// Sub is what a Made holds, without its memos: what a call made, or a
// part of another Made (a group's, a reference's object), for the API to
// put in a Made of its own (Init). The zero Sub in a list stands for a
// null element.
type Sub struct {
	plan   *objectPlan
	data   []byte
	hid    *hiddenSpans
	made   *objectMade
	failed []FieldError // a kept failed call's (Call.Made)
}

// IsNull reports whether s stands for a null element of a list.
func (s Sub) IsNull() bool { return s.plan == nil && s.data == nil }

// Init makes m hold s. m must be new: no other goroutine has it yet.
func Init(m *Made, s Sub) {
	m.plan, m.data, m.hid, m.made, m.failed = s.plan, s.data, s.hid, s.made, s.failed
}

// objectMade is how an Object was made (see Made.made).
type objectMade struct {
	ver   version
	flags uint64
}

// span is where a value lies in an Object's text; start is -1 for a key
// the text does not hold.
type span struct{ start, end int }

// emptyObject is the text of the zero Object.
var emptyObject = []byte("{}")

// text returns the object's JSON text.
func (o *Made) text() []byte {
	if o == nil || len(o.data) < 2 || o.data[0] != '{' {
		return emptyObject
	}
	return o.data
}

// count returns the number of keys.
func (o *Made) count() int {
	n := 0
	for it := o.members(); it.next(); {
		n++
	}
	return n
}

// keys returns the keys in output order, as written (a key holding
// invalid UTF-8 is written, and returned, with U+FFFD in its place).
func (o *Made) keys() []string {
	var keys []string
	for it := o.members(); it.next(); {
		keys = append(keys, it.name())
	}
	return keys
}

// get returns the value stored under key, decoded as the Object's doc
// says (a nested object as a Sub, a list of them as Subs), and
// whether the key is there.
func (o *Made) get(key string) (any, bool) {
	if o != nil && o.plan != nil && len(o.data) >= 2 {
		for i, n := range o.plan.nodes {
			if n.out == key && !n.merge { // (a merged $ref writes no key of its own: its entity's, found below)
				if sp := o.index()[i]; sp.start >= 0 {
					v := o.data[sp.start:sp.end]
					if n.kind == nodeValue && n.typ == rules.Int {
						if i, ok := jsonwire.ParseCanonicalInt(v); ok { // the common case, without the general decoding
							return i, true
						}
					}
					it := memberIter{n: n, val: v, made: o.made, dir: o.plan.dir, hid: o.hid}
					return it.value(false), true
				}
				break
			}
		}
	}
	for it := o.members(); it.next(); { // a key as written, or one no node wrote
		if it.name() == key {
			return it.value(false), true
		}
	}
	return nil, false
}

// member returns the text of the value stored under key, as written, and
// the node that wrote it (nil for a key no node wrote).
func (o *Made) member(key string) ([]byte, *node, bool) {
	if o != nil && o.plan != nil && len(o.data) >= 2 {
		for i, n := range o.plan.nodes {
			if n.out == key && !n.merge {
				if sp := o.index()[i]; sp.start >= 0 {
					return o.data[sp.start:sp.end], n, true
				}
				break
			}
		}
	}
	for it := o.members(); it.next(); {
		if it.name() == key {
			return it.val, it.n, true
		}
	}
	return nil, nil, false
}

// index returns where each plan node's value lies, making it on first use.
func (o *Made) index() []span {
	if p := o.idx.Load(); p != nil {
		return *p
	}
	idx := make([]span, len(o.plan.nodes))
	for i := range idx {
		idx[i].start = -1
	}
	for it := o.members(); it.next(); {
		if it.i >= 0 {
			end := it.pos
			idx[it.i] = span{end - len(it.val), end}
		}
	}
	o.idx.Store(&idx) // another Get may have stored the same: either will do
	return idx
}

// responseText returns the object's JSON as a response writes it: the
// one way an Object's bytes are written anywhere (MarshalJSON,
// AppendJSON, String, a none, object or $ref field holding it).
func (o *Made) responseText() []byte {
	return o.visible().text()
}

// visible returns the Object as a response sees it: the Object itself, or
// for one that holds writeonly values (an Object of a request, or a part
// of one), a copy of its text without them, made once. Every response
// reads an Object through it, as input of Make or as a value it writes,
// so that no writeonly value reaches a response by any path. Where the
// writeonly members lie was recorded as they were written: what the
// entities they reference are exposed as later does not matter.
func (o *Made) visible() *Made {
	if o == nil || o.hid == nil {
		return o
	}
	if v := o.vis.Load(); v != nil {
		return v
	}
	v := &Made{plan: o.plan, data: o.hid.cut(o.text(), o.data), made: o.made}
	o.vis.Store(v) // another call may have stored the same: either will do
	return v
}

// hiddenSpans is where the writeonly members of an Object's text lie, in
// the text of the Object that holds it at the top: the text of an Object
// of a member, a part of its holder's, starts cap - cap(its text) into it.
type hiddenSpans struct {
	cap   int
	spans []span // by start; none inside another
}

// newHidden returns the spans the walk recorded (in the order their
// members ended: inner ones before the member around them) for an Object
// of the text data, or nil when there are none.
func newHidden(data []byte, spans []span) *hiddenSpans {
	if len(spans) == 0 {
		return nil
	}
	s := slices.Clone(spans)
	// By start, and of two that start at the same byte (a merged
	// reference's first member, moved to where its object began) the
	// longer first: each kept span holds every one that starts inside it.
	slices.SortFunc(s, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	kept := s[:1]
	for _, x := range s[1:] {
		switch last := &kept[len(kept)-1]; {
		case x.start >= last.end:
			kept = append(kept, x)
		case x.end > last.end: // (spans nest, but this keeps them a union whatever they are)
			last.end = x.end
		}
	}
	return &hiddenSpans{cap: cap(data), spans: kept}
}

// cut returns t, the text of an Object whose bytes are data, without the
// writeonly members inside it: {} when the Object is itself (part of) one.
func (h *hiddenSpans) cut(t, data []byte) []byte {
	if len(data) < 2 || &t[0] != &data[0] {
		return t // the empty object's text
	}
	off := h.cap - cap(data)
	end := off + len(t)
	i, _ := slices.BinarySearchFunc(h.spans, off, func(s span, x int) int { return s.start - x })
	if i > 0 && h.spans[i-1].end > off { // a member around it
		return emptyObject
	}
	var out []byte
	prev := off
	for ; i < len(h.spans) && h.spans[i].start < end; i++ {
		s := h.spans[i]
		if out == nil {
			out = make([]byte, 0, len(t))
		}
		if s.start > prev {
			out = append(out, t[prev-off:s.start-off]...)
		}
		prev = max(prev, s.end)
		// The members' commas: a member cut after '{' or ',' takes the
		// comma after it; one cut before '}' the comma before it.
		switch last := out[len(out)-1]; {
		case (last == '{' || last == ',') && prev < end && t[prev-off] == ',':
			prev++
		case last == ',' && prev < end && t[prev-off] == '}':
			out = out[:len(out)-1]
		}
	}
	if out == nil {
		return t
	}
	return append(out, t[prev-off:]...)
}

// declaredText returns the object's values under their declared names, as
// Make reads a struct or a map: a group's fields beside their siblings, a
// $ref's object (or list of them) under the reference's name with its
// entity's declared names. It is what Bind decodes, so that the struct
// Bind fills is one Make reads.
func (o *Made) declaredText() []byte {
	t := o.text()
	if o == nil || o.plan == nil {
		return t
	}
	first := true
	dst := appendDeclared(append(make([]byte, 0, len(t)), '{'), t, o.plan.nodes, o.made, o.plan.dir, &first, 0)
	return append(dst, '}')
}

// appendDeclared appends the members of data, an object the nodes wrote,
// under their declared names, as Make reads them: a group's fields
// flattened into the object around it, a merged $ref's keys gathered into
// an object under its name, a formatted date written back as a date.
func appendDeclared(dst, data []byte, nodes []*node, made *objectMade, dir direction, first *bool, depth int) []byte {
	it := memberIter{data: data, nodes: nodes, pos: 1, made: made, dir: dir}
	var merged map[*node][]byte // the members each merged $ref wrote here
	for it.next() {
		n := it.n
		if n != nil && it.i < 0 { // a key a merged $ref wrote (a group's too): back under the reference
			if m := mergerOf(nodes, n, dir, 0); m != nil {
				if merged == nil {
					merged = map[*node][]byte{}
				}
				b := merged[m]
				if len(b) > 0 {
					b = append(b, ',')
				}
				merged[m] = append(append(append(b, it.key...), ':'), it.val...)
				continue
			}
		}
		if n != nil && n.kind == nodeGroup && it.val[0] == '{' && depth < maxMergeDepth*16 {
			dst = appendDeclared(dst, it.val, n.group.nodes, made, dir, first, depth+1)
			continue
		}
		if !*first {
			dst = append(dst, ',')
		}
		*first = false
		if n == nil {
			dst = append(append(dst, it.key...), ':')
			dst = append(dst, it.val...)
			continue
		}
		dst = append(jsonwire.AppendString(dst, n.decl.Name), ':')
		dst = declaredValue(dst, n, it.val, made, dir, depth)
	}
	for _, m := range nodes { // in declaration order
		b, ok := merged[m]
		if !ok && (!m.merge || !m.shownIn(made)) {
			continue
		}
		// (a merged $ref whose keys the object holds none of has its
		// object all the same: Make of the Object reads its keys there,
		// and finds none, as Make of what Bind fills must)
		if !*first {
			dst = append(dst, ',')
		}
		*first = false
		dst = append(jsonwire.AppendString(dst, m.decl.Name), ':', '{')
		f := true
		if p := refPlan(m, dir); p != nil {
			dst = appendDeclared(dst, append(append([]byte{'{'}, b...), '}'), p.nodes, made, dir, &f, depth+1)
		}
		dst = append(dst, '}')
	}
	return dst
}

// shownIn reports whether the call that made an object (made: its version
// and flags; nil for none) shows node n.
func (n *node) shownIn(made *objectMade) bool {
	switch {
	case n.cond == nil:
		return true
	case n.shared:
		return n.cond.writesFor(made)
	case made == nil:
		return n.cond.shownFor(0, version{})
	}
	return n.cond.shownFor(made.flags, made.ver)
}

// declaredValue appends val, the value node n wrote, as the declared text
// holds it: a formatted value as the value it formatted, a $ref's object
// (or list of them) under its entity's declared names; anything else as
// written. (A group's value is flattened by appendDeclared, around it.)
func declaredValue(dst []byte, n *node, val []byte, made *objectMade, dir direction, depth int) []byte {
	if n.kind == nodeValue && (n.format != nil || n.each != nil && n.each.format != nil) {
		return appendUnformatted(dst, n, val)
	}
	var p *objectPlan
	if n.kind == nodeRef && n.holds(val) && depth < maxMergeDepth*16 {
		p = refPlan(n, dir)
	}
	if p == nil {
		return append(dst, val...)
	}
	if val[0] == '{' {
		return appendDeclaredObject(dst, n, p, val, made, dir, depth)
	}
	dst = append(dst, '[')
	for i, el := 0, (jsonwire.Elements{Data: val}); el.Next(); i++ {
		if i > 0 {
			dst = append(dst, ',')
		}
		if el.Val[0] == '{' {
			dst = appendDeclaredObject(dst, n, p, el.Val, made, dir, depth)
		} else {
			dst = append(dst, el.Val...)
		}
	}
	return append(dst, ']')
}

// appendDeclaredObject appends v, one object of the reference n whose
// plan is p, with its entity's declared names: a union's by the plan of
// its variant.
func appendDeclaredObject(dst []byte, n *node, p *objectPlan, v []byte, made *objectMade, dir direction, depth int) []byte {
	if n.union != nil {
		p = n.union.planOf(v, dir)
	}
	if p == nil {
		return append(dst, v...)
	}
	f := true
	return append(appendDeclared(append(dst, '{'), v, p.nodes, made, dir, &f, depth+1), '}')
}

// mergerOf returns the merged $ref among nodes whose entity (through its
// own merges too) wrote the key of node n, or nil.
func mergerOf(nodes []*node, n *node, dir direction, depth int) *node {
	if depth > maxMergeDepth {
		return nil
	}
	for _, m := range nodes {
		if !m.merge {
			continue
		}
		p := refPlan(m, dir)
		if p == nil {
			continue
		}
		if slices.Contains(p.nodes, n) || mergerOf(p.nodes, n, dir, depth+1) != nil {
			return m
		}
	}
	return nil
}

// appendUnformatted appends v, what a formatted field (or a typed list of
// formatted elements) wrote, as the value it formatted: what Make reads
// back. A value no format can read back stays as written.
func appendUnformatted(dst []byte, n *node, v []byte) []byte {
	f, typ := n.format, n.typ
	if n.each != nil {
		f, typ = n.each.format, n.each.typ
		if v[0] != '[' {
			return append(dst, v...)
		}
		dst = append(dst, '[')
		for i, el := 0, (jsonwire.Elements{Data: v}); el.Next(); i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendOneUnformatted(dst, f, typ, el.Val)
		}
		return append(dst, ']')
	}
	return appendOneUnformatted(dst, f, typ, v)
}

func appendOneUnformatted(dst []byte, f *format, typ rules.Kind, v []byte) []byte {
	if x, ok := f.unformat(v); ok {
		if b, err := appendValue(dst, typ, x, defaultDepth, maxOutputLimit); err == nil {
			return b
		}
	}
	return append(dst, v...)
}

// mapOf returns the object as plain Go values, for comparisons in tests
// (go-cmp): values as get returns them, but nested objects become
// map[string]any, lists of them []any, and dates their RFC 3339 text as
// written in the JSON.
func (o *Made) mapOf() map[string]any {
	m := map[string]any{}
	for it := o.members(); it.next(); {
		m[it.name()] = it.value(true)
	}
	return m
}

// madeBy reports whether e made the object: its keys are e's own.
func (o *Made) madeBy(e *Entity) bool {
	return o.plan == e.views[dirResponse] && len(o.data) >= 2 && o.made == nil
}

// Subs is a list of objects that a plan wrote (a reference's list a Made
// holds, or what a list call made): its text, whose elements Each views
// as Subs without allocating.
type Subs struct {
	plan *objectPlan
	data []byte
	made *objectMade
	hid  *hiddenSpans
	// union, for a list of a union's objects: each element's plan is its
	// variant's, in the direction dir (plan is nil)
	union *unionPlan
	dir   direction
}

// Len returns the number of elements.
func (l Subs) Len() int {
	n := 0
	for it := (jsonwire.Elements{Data: l.data}); it.Next(); {
		n++
	}
	return n
}

// Each calls f with each element's index and Sub (the zero Sub for a null
// element).
func (l Subs) Each(f func(i int, s Sub)) {
	i := 0
	for it := (jsonwire.Elements{Data: l.data}); it.Next(); {
		var s Sub
		p := l.plan
		if l.union != nil && it.Val[0] == '{' {
			p = l.union.planOf(it.Val, l.dir)
		}
		if it.Val[0] == '{' && p != nil {
			s = Sub{plan: p, data: it.Val, made: l.made, hid: l.hid}
		}
		f(i, s)
		i++
	}
}

// memberIter steps through the members of an Object's text, matching each
// key to the plan node that wrote it. The walker writes a plan's keys in
// order, so the node is found by comparing one key in the common case.
type memberIter struct {
	data  []byte  // the object's text
	nodes []*node // its plan's nodes
	pos   int     // where the next member starts (at its ',' or key)
	want  int     // the plan node expected next
	i     int     // the current member's node index, or -1
	n     *node   // the current member's node, or nil when no node wrote it
	key   []byte  // the current member's key, quoted as written
	val   []byte  // the current member's value text
	made  *objectMade
	dir   direction    // the view of the plan
	hid   *hiddenSpans // the Object's, which those of its members share
}

func (o *Made) members() memberIter {
	var nodes []*node
	if o != nil && o.plan != nil {
		nodes = o.plan.nodes
	}
	it := memberIter{data: o.text(), nodes: nodes, pos: 1}
	if o != nil {
		it.made, it.hid = o.made, o.hid
		if o.plan != nil {
			it.dir = o.plan.dir
		}
	}
	return it
}

// next moves to the next member and reports whether there is one.
func (it *memberIter) next() bool {
	d := it.data
	if it.pos >= len(d) || d[it.pos] == '}' {
		return false
	}
	if d[it.pos] == ',' {
		it.pos++
	}
	end := jsonwire.QuoteEnd(d, it.pos)
	it.key = d[it.pos:end]
	start := end + 1 // past ':'
	stop := jsonwire.ValueEnd(d, start)
	it.val = d[start:stop]
	it.pos = stop
	it.i, it.n = -1, nil
	nodes := it.nodes
	for j := it.want; j < len(nodes); j++ {
		if !nodes[j].merge && bytes.Equal(quotedKey(nodes[j]), it.key) && (!nodes[j].shared || nodes[j].cond.writesFor(it.made)) { // (a merged $ref writes no key of its own)
			it.i, it.n, it.want = j, nodes[j], j+1
			break
		}
	}
	if it.n == nil {
		it.n = mergedNode(nodes, it.key, it.dir, it.made, 0) // a key a merged $ref wrote here
	}
	return true
}

// mergedNode returns the node of an entity that a merged reference among
// nodes names (at any depth of merges) that writes the quoted key, or nil:
// of the nodes sharing the key by version range, the one of the version
// the Object was made in.
func mergedNode(nodes []*node, key []byte, dir direction, made *objectMade, depth int) *node {
	if depth > 64 { // declarations refuse merge cycles: no chain is this long
		return nil
	}
	for _, n := range nodes {
		if !n.merge {
			continue
		}
		p := refPlan(n, dir)
		if p == nil {
			continue
		}
		for _, m := range p.nodes {
			if !m.merge && bytes.Equal(quotedKey(m), key) && (!m.shared || m.cond.writesFor(made)) {
				return m
			}
		}
		if m := mergedNode(p.nodes, key, dir, made, depth+1); m != nil {
			return m
		}
	}
	return nil
}

// name returns the current member's key as written.
func (it *memberIter) name() string {
	if it.n != nil && plainKey(it.n) {
		return it.n.out
	}
	return strings.Clone(jsonwire.Unquote(bytesString(it.key)))
}

// plainKey reports whether the node's output key is written as it is,
// without escapes or replaced bytes, so that its name is the key's text.
func plainKey(n *node) bool { return len(quotedKey(n)) == len(n.out)+2 }

// quotedKey returns the node's output key as the walker writes it, quoted
// and escaped, without the comma before it and the colon after.
func quotedKey(n *node) []byte {
	k := n.key
	if k[0] == ',' {
		k = k[1:]
	}
	return k[:len(k)-1]
}

// value decodes the current member's value as Get returns it or, with
// plain, as Map returns it: nested Objects as maps, lists of them as []any,
// dates as their RFC 3339 text.
func (it *memberIter) value(plain bool) any {
	v, n := it.val, it.n
	switch {
	case v[0] == 'n':
		return nil
	case n == nil || !n.holds(v):
		return decodeAny(v)
	case n.kind == nodeValue && n.each != nil: // a typed list
		return typedListValue(n.each.typ, v, plain)
	case n.kind == nodeValue:
		if plain && n.typ == rules.Time && v[0] == '"' {
			return stringValue(v)
		}
		return scalarValue(n.typ, v)
	}
	p := n.group
	if n.union != nil {
		return it.unionValue(v, plain)
	}
	if n.kind == nodeRef {
		if p = refPlan(n, it.dir); p == nil {
			return decodeAny(v)
		}
	}
	switch {
	case v[0] == '{' && plain:
		return (&Made{plan: p, data: v, made: it.made, hid: it.hid}).mapOf()
	case v[0] == '{':
		return Sub{plan: p, data: v, made: it.made, hid: it.hid}
	case !plain:
		return Subs{plan: p, data: v, made: it.made, hid: it.hid}
	}
	l := []any{}
	for el := (jsonwire.Elements{Data: v}); el.Next(); {
		if el.Val[0] != '{' {
			l = append(l, nil) // a []$name's null element
			continue
		}
		l = append(l, (&Made{plan: p, data: el.Val, made: it.made, hid: it.hid}).mapOf())
	}
	return l
}

// holds reports whether v, a value's text, has a shape the node writes: an
// object for a group, an object or a list for a reference. (An Object
// whose reference was exposed again with another shape holds text the
// node's new declaration does not write.)
func (n *node) holds(v []byte) bool {
	switch n.kind {
	case nodeGroup:
		return v[0] == '{'
	case nodeRef:
		if v[0] == '[' {
			for it := (jsonwire.Elements{Data: v}); it.Next(); {
				if it.Val[0] != '{' && !(n.refList && it.Val[0] == 'n') { // a []$name writes null for an element that is no object
					return false
				}
			}
			return true
		}
		return v[0] == '{'
	}
	return true
}

// refPlan returns the plan of the entity a reference node names now (an
// Object made before the name was exposed again reads its keys through the
// new entity; keys it no longer knows read as plain JSON values).
func refPlan(n *node, d direction) *objectPlan {
	if n.union != nil { // each object's plan is its variant's: see unionPlan.planOf
		return n.union.keys
	}
	if e := n.ref.e.Load(); e != nil {
		return e.refView(d, n.refNested)
	}
	return nil
}

// scalarValue decodes a value field's text by its declared kind, as Get
// returns it. Text of another shape than the kind writes (which the walker
// never produces) is decoded as plain JSON.
func scalarValue(k rules.Kind, text []byte) any {
	if k == rules.Int {
		if i, ok := jsonwire.ParseCanonicalInt(text); ok { // what number fields write
			return i
		}
	}
	v, _, ok := decodeValue(k, text)
	switch {
	case !ok:
		return decodeAny(text)
	case k == rules.String:
		return stringValue(text)
	case k == rules.Int:
		return v.Int
	case k == rules.Float:
		return v.Float
	case k == rules.Bool:
		return v.Bool
	case k == rules.Time:
		return v.Time
	}
	return v.Any
}

// stringValue decodes a JSON string literal into a string of its own.
func stringValue(q []byte) string {
	s := jsonwire.Unquote(bytesString(q))
	if len(s) == len(q)-2 {
		return strings.Clone(s) // a view of q: copy it
	}
	return s
}

// typedListValue decodes the text of a typed list as Object.Get returns
// it: a []any whose elements are what Get returns for a field of the
// element type (int64 for []number, time.Time for []date, or the RFC 3339
// text when plain, as Map gives dates), nil for a null element.
func typedListValue(elem rules.Kind, v []byte, plain bool) any {
	if v[0] != '[' {
		return decodeAny(v)
	}
	l := []any{}
	for it := (jsonwire.Elements{Data: v}); it.Next(); {
		switch {
		case it.Val[0] == 'n':
			l = append(l, nil)
		case plain && elem == rules.Time && it.Val[0] == '"':
			l = append(l, stringValue(it.Val))
		default:
			l = append(l, scalarValue(elem, it.Val))
		}
	}
	return l
}

// The API's reads of a Made: package entity's Object calls these, each
// taking a nil *Made as the empty object.

// Len returns the number of keys.
func Len(m *Made) int { return m.count() }

// Keys returns the keys in output order, as written.
func Keys(m *Made) []string { return m.keys() }

// Get returns the value stored under key and whether the key is there: a
// nested object as a Sub, a list of them as Subs, anything else as the
// Object's doc says.
func Get(m *Made, key string) (any, bool) { return m.get(key) }

// Declares reports whether m's plan has a field written under key: one
// of its own (of either direction, under any flag or version), or of an
// entity merged into it, or a member m holds that no field writes (a
// union's key, which the union writes into its variant's object); and the
// name of the entity whose plan it is (a group's: the entity of the
// group). A nil Made, or one of no plan, declares none.
func Declares(m *Made, key string) (ok bool, entity string) {
	if m == nil || m.plan == nil {
		return false, ""
	}
	if m.plan.owner != nil {
		entity = m.plan.owner.name
	}
	if declares(m.plan, key, 0) {
		return true, entity
	}
	_, held := Get(m, key) // a member the plan has no field for: a union's key, written by the union
	return held, entity
}

// declares reports whether p, or an entity merged into it, has a field
// written under key.
func declares(p *objectPlan, key string, depth int) bool {
	if depth > maxMergeDepth {
		return false
	}
	for _, nodes := range [2][]*node{p.nodes, p.left} {
		for _, n := range nodes {
			switch {
			case n.merge:
				if q := refPlan(n, p.dir); q != nil && declares(q, key, depth+1) {
					return true
				}
			case n.out == key:
				return true
			}
		}
	}
	return false
}

// FailedAt reports whether the request m was made from failed at path (a
// FieldError's Path), below it or above it, when its call kept what it
// wrote though fields failed (Call.KeepFailed); the empty path meets
// every failure. It is false for every other Made.
func FailedAt(m *Made, path string) bool {
	if m == nil {
		return false
	}
	for _, f := range m.failed {
		if pathsMeet(f.Path, path) {
			return true
		}
	}
	return false
}

// pathsMeet reports whether the paths a and b are one path, or one is
// below the other ("address" and "address.city", "items" and
// "items[0]"). The empty path is above every other.
func pathsMeet(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return a == "" || strings.HasPrefix(b, a) && (len(b) == len(a) || b[len(a)] == '.' || b[len(a)] == '[')
}

// Map returns the object as plain Go values (see mapOf).
func Map(m *Made) map[string]any { return m.mapOf() }

// Text returns the object's JSON text as written, writeonly members
// included: what Decode reads.
func Text(m *Made) []byte { return m.text() }

// ResponseText returns the object's JSON as a response writes it: the one
// way a Made's bytes are written anywhere (see visible). The slice is the
// Made's own: it must not be modified.
func ResponseText(m *Made) []byte {
	if m == nil {
		return emptyObject
	}
	return m.responseText()
}

// DeclaredText returns the object's values under their declared names, as
// Make reads a struct or a map (see declaredText).
func DeclaredText(m *Made) []byte { return m.declaredText() }

// holder is package entity's *Object: it embeds a Made, whose method
// engineMade it then has, so that the walk knows an Object among the
// values it reads without knowing the type.
type holder interface{ engineMade() *Made }

func (o *Made) engineMade() *Made { return o }

// madeType is the type of a Made, which an Object's one field is.
var madeType = reflect.TypeFor[Made]()

// isObjectType reports whether t is package entity's Object: a struct
// whose one field embeds a Made.
func isObjectType(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.NumField() == 1 && t.Field(0).Anonymous && t.Field(0).Type == madeType
}

// madeIn returns the Made that v, an object a Made holds, is: an Object
// (nil for a nil *Object), a *Made, or a Sub (a new Made of it; nil for
// the zero Sub, a null element). Any other v gives nil.
func madeIn(v any) *Made {
	switch x := v.(type) {
	case *Made:
		return x
	case Sub:
		if x.IsNull() {
			return nil
		}
		m := new(Made)
		Init(m, x)
		return m
	case holder:
		if isNil(x) {
			return nil
		}
		return x.engineMade()
	}
	return nil
}
