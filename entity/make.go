package entity

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"sync"

	"github.com/expose-go/expose/rules"
)

// This file runs a plan: the one walker. A run walks the plan once over the
// input, writing JSON as it goes (appendObject); every output form is made
// from what it writes (MakeJSON copies it out, Make and MakeList view it as
// Objects, Write sends it). It collects every failing field; the entry
// points discard the output when any field failed, so nothing partial is
// ever returned.
//
// The work of one run is bounded by its input and two limits: the depth
// limit (a field nested deeper fails, and ends the walk: data that deep
// cannot be written at all, as encoding/json stops at a cycle) and the
// output limit (Registry.MaxOutputBytes: past it the walk stops and the
// call fails with ErrTooLarge), so that neither cyclic Go data nor
// declarations that multiply objects (bare defaults on references) can
// make a call run away.

// frame is one step of the path to the value being made: a reference or
// a group (its node), or a list element (its positions). Names are read
// from the node only when an error is built.
type frame struct {
	n           *node
	idx, outIdx int32 // frameIndex: positions in the input and the output list
	kind        frameKind
}

type frameKind uint8

const (
	frameRef   frameKind = iota // a reference: in both paths
	frameGroup                  // a group: in the output path only
	frameIndex                  // a list element
)

// secret reports whether the frame is a secret reference: every field below
// it is secret.
func (f *frame) secret() bool { return f.kind == frameRef && f.n.secret }

// run is the state of one Make. It lives on the caller's stack: nothing in
// it is allocated on success.
type run struct {
	ent     *Entity
	errs    []*FieldError
	omitted int // field errors past the registry's limit
	secret  int // how many secret references the run is inside

	// The entities the run uses, by slot (see refTarget), and those it is
	// making from an empty input for a bare default (see enterDefault).
	pins       [8]pinned
	npins      int
	morePins   []pinned
	defaulting []*Entity
	fatal      error
	scratch    *[]byte // from scratchPool on first need: see convert
	xscratch   *[]byte // likewise, for transformed text: see transform.go

	js *jsonStack // from jsonStackPool on first need: see takeJSON

	// What the call accepts at the top (see appendTop), where its output
	// starts in dst, the most bytes it may write, and whether the walk has
	// stopped (a depth error, the output limit, or a fatal error).
	top    topKind
	cfg    callConfig // what the call's options say
	msgs   *catalogs  // the registry's messages, on the first failure (see messages)
	lang   int        // the call's language among msgs
	base   int
	maxOut int
	stop   bool

	// The call's shape (shape.go): the selection of the object being
	// written (nil: every field but the lazy ones), the flags set, the
	// version asked for.
	mask  *mask
	flags uint64
	ver   version

	// The path: the first frames in an array, deeper ones in more. (A slice
	// of the array kept in the run would make the run escape to the heap.)
	depth int
	path  [8]frame
	more  []frame
}

// init readies the run to make e, with the call's options.
func (r *run) init(e *Entity, opts []Option) {
	r.ent = e
	r.maxOut = int(min(e.reg.MaxOutputBytes(), maxOutputLimit))
	if e.slot != nil {
		r.pin(e.slot, e) // recursive references see this very entity
	}
	if r.cfg.shaped {
		r.shape(e, opts)
	}
}

// done returns what the run borrowed.
func (r *run) done() {
	r.putJSON()
	if r.scratch != nil {
		putScratch(r.scratch)
		r.scratch = nil
	}
	if r.xscratch != nil {
		putScratch(r.xscratch)
		r.xscratch = nil
	}
}

// scratchBuf returns the run's buffer for text converted from numbers and
// times. (A buffer inside the run would make it escape: the converted value
// reaches rule checkers through an interface.)
func (r *run) scratchBuf() []byte {
	if r.scratch == nil {
		r.scratch = scratchPool.Get().(*[]byte)
	}
	return (*r.scratch)[:0]
}

func (r *run) push(f frame) {
	if f.secret() {
		r.secret++
	}
	if r.depth < len(r.path) {
		r.path[r.depth] = f
	} else {
		r.more = append(r.more[:r.depth-len(r.path)], f)
	}
	r.depth++
}

func (r *run) pop() {
	if r.frame(r.depth - 1).secret() {
		r.secret--
	}
	r.depth--
}

// frame returns the i'th frame of the path.
func (r *run) frame(i int) *frame {
	if i < len(r.path) {
		return &r.path[i]
	}
	return &r.more[i-len(r.path)]
}

// err returns the run's error, if any, in the call's language. A
// ValidationError is marked with the run's direction, the one place that
// says whose fault it is: a response-side run's is the server's data's
// (statusOf answers it with 500), a request's the client's.
func (r *run) err() error {
	if r.fatal != nil {
		r.messages()
		return inLang(r.fatal, msgLang{r.msgs, r.lang})
	}
	if len(r.errs) > 0 {
		fields := r.errs
		if r.omitted > 0 {
			// The summary of the errors past the limit: at the top, since
			// the walk is over.
			fields = append(fields, r.fieldError(nil, "", "", failure{rule: "limit", code: "limit",
				params: map[string]any{"omitted": int64(r.omitted)}}))
		}
		return &ValidationError{Entity: r.ent.name, Fields: fields, Omitted: r.omitted,
			response: !r.cfg.request, lang: msgLang{r.msgs, r.lang}}
	}
	return nil
}

// paths renders the current path, with the field's own names appended:
// where the value was read (as a path and as an RFC 6901 JSON Pointer)
// and where it would have been written.
func (r *run) paths(in, out string) (pin, pout, ptr string) {
	return r.pathsOf(in, out, in != "" || out != "")
}

// pathsOf is paths; named says whether in and out name a last step (an
// empty key is a key too: see failUnknown).
func (r *run) pathsOf(in, out string, named bool) (pin, pout, ptr string) {
	var arr [3][96]byte // room for most paths, on the stack: only the strings are allocated
	bin, bout, bptr := arr[0][:0], arr[1][:0], arr[2][:0]
	add := func(b []byte, name string) []byte {
		if len(b) == 0 {
			return AppendPathFirstKey(b, name)
		}
		return AppendPathKey(b, name)
	}
	for i := 0; i < r.depth; i++ {
		switch f := r.frame(i); {
		case f.kind == frameIndex:
			bin = AppendPathIndex(bin, int(f.idx))
			bout = AppendPathIndex(bout, int(f.outIdx))
			bptr = strconv.AppendInt(append(bptr, '/'), int64(f.idx), 10)
		case f.kind == frameGroup:
			bout = add(bout, f.n.out)
			if fp := f.n.from; fp != nil { // it reads the object at its path
				bin = add(bin, fp.first.in)
				bptr = appendPointerToken(bptr, fp.first.in)
				bin, bptr = appendFromPath(bin, bptr, fp.rest)
			}
		default:
			in := f.n.in
			if fp := f.n.from; fp != nil {
				in = fp.first.in
			}
			bin = add(bin, in)
			if !f.n.merge { // a merged reference's keys are its parent's
				bout = add(bout, f.n.out)
			}
			bptr = appendPointerToken(bptr, in)
			if fp := f.n.from; fp != nil {
				bin, bptr = appendFromPath(bin, bptr, fp.rest)
			}
		}
	}
	if named {
		bin = add(bin, in)
		bout = add(bout, out)
		bptr = appendPointerToken(bptr, in)
	}
	return string(bin), string(bout), string(bptr)
}

// appendPointerToken appends "/" and name, escaped as RFC 6901 says: ~ as
// ~0 and / as ~1.
func appendPointerToken(b []byte, name string) []byte {
	b = append(b, '/')
	for i := 0; i < len(name); i++ {
		switch c := name[i]; c {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, c)
		}
	}
	return b
}

// failure is what a failing field reports: the rule as the registry
// knows it, the code, the params (a map of the failure's own), the kind
// of the failing value ("string", "number", "list" or "", for the
// message's key: see messages.go), and the error.
type failure struct {
	rule, code string
	params     map[string]any
	kind       string
	exact      bool
	err        error
}

// failType records a value that is there but does not convert to the
// field's type without loss (strict input): got says what it arrived as.
func (r *run) failType(n *node, got string) {
	want := n.typ
	if n.kind == nodeRef {
		want = rules.Object
	}
	r.failCode(n, "type", map[string]any{"type": want.String(), "got": got}, errors.New(typeMessage(want, got)))
}

// fail records a failing field of a rule that has no params: its code is
// the rule's ("required" for req).
func (r *run) fail(n *node, rule string, err error) {
	code := rule
	if rule == "req" {
		code = "required"
	}
	r.record(n, failure{rule: rule, code: code, err: err})
}

// failCode records a failing field with its code and params (see
// FieldError); its rule is the code.
func (r *run) failCode(n *node, code string, params map[string]any, err error) {
	r.record(n, failure{rule: code, code: code, params: params, err: err})
}

// failCheck records a failing check of a value of kind k.
func (r *run) failCheck(n *node, rule string, ri *ruleInfo, k rules.Kind, err error) {
	f := failure{rule: rule, code: rule, kind: kindKey(k), err: err}
	if ri != nil {
		f.code, f.params, f.exact = ri.code, ri.paramMap(), ri.exact
	}
	r.record(n, f)
}

// record records a failing field: the one place every field error of a
// run is built (fieldError) and collected.
func (r *run) record(n *node, f failure) {
	if errors.Is(f.err, ErrDepth) {
		r.stop = true // data nested that deep cannot be written at all
	}
	if r.full() {
		return
	}
	in, out := "", ""
	if n != nil {
		in, out = n.in, n.out
	}
	r.errs = append(r.errs, r.fieldError(n, in, out, f))
}

// fieldError builds the FieldError of a failure of node n (nil for a list
// element or the limit's summary) read from the input name in: its paths,
// code, params and message, in the call's language.
func (r *run) fieldError(n *node, in, out string, f failure) *FieldError {
	var pin, pout, ptr string
	if n != nil && n.from != nil { // read at its from path
		pin, pout, ptr = r.paths(n.from.first.in, out)
		bin, bptr := appendFromPath([]byte(pin), []byte(ptr), n.from.rest)
		pin, ptr = string(bin), string(bptr)
	} else {
		pin, pout, ptr = r.paths(in, out)
	}
	fe := &FieldError{Path: pin, OutputPath: pout, Pointer: ptr, Rule: f.rule, Code: f.code, Params: f.params, cause: f.err}
	if errors.Is(f.err, ErrDepth) {
		f.code = "depth"
		fe.Code = "depth"
		fe.Params = map[string]any{"limit": int64(r.ent.reg.MaxDepth())}
	}
	secret := (n != nil && n.secret || r.secret > 0) && fe.Code != "required" && fe.Code != "depth"
	if secret {
		// A secret's value must never reach a message: rules written by
		// users may quote it, so none of their words, nor their error, are
		// kept. Under a secret reference every field is secret.
		fe.cause = nil
	}
	fe.Message = r.message(n, in, f.code, fe.Params, f, secret)
	return fe
}

// message renders a failure's message: the field's own (msg), else the
// catalog's for the call's language, else (for a rule no catalog names)
// the rule's error text. For a rule that panicked it is the catalog's "is
// not valid", and under a secret too, but for the built-in messages that
// quote no value (quotesNoValue).
func (r *run) message(n *node, field, code string, params map[string]any, f failure, secret bool) string {
	cat := r.messages()
	if n != nil && n.msg != nil { // one text for every language: params as they are
		if len(n.msgParams) > 0 { // a placeholder of another rule than the failing one still says its value
			all := make(map[string]any, len(n.msgParams)+len(params))
			for _, p := range n.msgParams {
				all[p.name] = p.value
			}
			maps.Copy(all, params)
			params = all
		}
		return cat.render(n.msg, r.lang, "", field, params)
	}
	var arr [3]string // the keys to look up, on the stack
	keys := arr[:0]
	_, panicked := f.err.(*rulePanic) // made where the check ran: never wrapped
	switch {
	case panicked || secret && !quotesNoValue(code):
		keys = append(keys, keyInvalid)
	case f.kind != "" && f.exact:
		keys = append(keys, code+"."+f.kind+".exact", code+"."+f.kind, code)
	case f.kind != "":
		keys = append(keys, code+"."+f.kind, code)
	default:
		keys = append(keys, code)
	}
	if m, li := cat.lookup(r.lang, keys); m != nil {
		return cat.render(m, li, code, field, params)
	}
	if f.err == nil {
		return "is not valid"
	}
	return f.err.Error()
}

// messages returns the catalogs of the run's registry and picks the
// call's language among them, on the first failure.
func (r *run) messages() *catalogs {
	if r.msgs == nil && r.ent != nil {
		r.msgs = r.ent.reg.messages()
		r.lang = r.msgs.match(r.cfg.lang)
	}
	return r.msgs
}

// full reports whether the run has collected as many field errors as the
// registry allows, counting the ones it drops from then on.
func (r *run) full() bool {
	if len(r.errs) < r.ent.reg.MaxErrors() {
		return false
	}
	r.omitted++
	return true
}

// failValue records a value that cannot be written as JSON.
func (r *run) failValue(n *node, err error) {
	if err == errTooLarge {
		r.tooLarge()
		return
	}
	if errors.Is(err, ErrDepth) {
		r.fail(n, "depth", err)
		return
	}
	r.fail(n, "json", err)
}

// runCheck calls a checker; a panic in it (user code) is the field's error.
func runCheck(ck check, v rules.Value) error {
	if ck.noPanic {
		return ck.c.Check(v)
	}
	return runGuarded(ck, v)
}

// runGuarded calls a checker that may panic.
func runGuarded(ck check, v rules.Value) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = newRulePanic(ck.rule, p)
		}
	}()
	return ck.c.Check(v)
}

// resolve reads, converts, defaults and checks one value field. It returns
// the value to write, the input it came from, whether its text is borrowed
// (see convert) and whether the default fills it.
func (r *run) resolve(n *node, src *source) (v rules.Value, in raw, borrowed, fromDefault bool) {
	in = r.read(src, n)
	if in.kind == rawFail {
		r.fail(n, "value", errors.New(in.s))
		return v, raw{}, false, false
	}
	if !in.isNull() {
		v, borrowed = convert(n.typ, in, r)
		if r.cfg.strict {
			var got string
			var ok bool
			if v, got, ok = strictly(n.typ, in, v); !ok {
				r.failType(n, got)
				return rules.Value{}, in, false, false
			}
		}
		if v.Kind != rules.Null {
			for _, ck := range n.inChecks {
				iv := inputValue(in)
				if err := runCheck(ck, iv); err != nil {
					r.failCheck(n, ck.rule, ck.info, iv.Kind, err)
				}
			}
		}
	}
	if len(n.xforms) > 0 && v.Kind != rules.Null {
		v = r.transform(n, v)
		borrowed = true
	}
	if v.Kind == rules.Null {
		if n.hasDefault && !n.defNull {
			return v, in, false, true
		}
		if n.req {
			r.fail(n, "req", errRequired)
		}
		return v, in, false, false
	}
	for _, ck := range n.outChecks {
		if err := runCheck(ck, v); err != nil {
			r.failCheck(n, ck.rule, ck.info, v.Kind, err)
		}
	}
	return v, in, borrowed, false
}

// passesText reports whether a converted value is written as its input's
// JSON text: a JSON object, array or number read from raw JSON into a
// none, list or object field keeps its text (key order, number spelling).
func passesText(k rules.Kind, in raw) bool {
	return (in.kind == rawJSON || in.kind == rawNum) && (k == rules.Any || k == rules.List || k == rules.Object)
}

// topKind says what a call accepts at the top of its input.
type topKind uint8

const (
	topAny    topKind = iota // an object or a list of objects (AppendJSON, MakeJSON, Write)
	topObject                // an object (Make, MakeRequest)
	topList                  // a list of objects (MakeList)
)

// appendTop writes v, an object or a list of objects, made with e.
func (r *run) appendTop(dst []byte, e *Entity, v any) []byte {
	r.base = len(dst)
	depth := e.reg.MaxDepth()
	if m, ok := v.(map[string]any); ok && m != nil && r.top != topList { // the common case first
		dst = r.appendObject(dst, e.root, &source{ma: m}, depth-1)
	} else {
		dst = r.appendTopOther(dst, e, v, depth)
	}
	if len(dst)-r.base > r.maxOut { // what no object's start saw: its last values
		r.tooLarge()
	}
	return dst
}

// appendTopOther is appendTop for every input but a map[string]any. (It is
// apart so that the common case's stack frame stays small: a handler's
// goroutine starts with a small stack, and every byte of frame on the way
// down is a byte that may make it grow.)
//
//go:noinline
func (r *run) appendTopOther(dst []byte, e *Entity, v any, depth int) []byte {
	switch b := v.(type) {
	case []byte:
		if b != nil {
			return r.appendJSONTop(dst, e, b, depth)
		}
	case json.RawMessage:
		if b != nil {
			return r.appendJSONTop(dst, e, b, depth)
		}
	}
	if l, ok := listOf(v); ok { // a nil slice too: an empty list
		if r.top == topObject {
			r.fatal = fmt.Errorf("%w: entity %q: Make takes one object, and %T is a list: use MakeList, or MakeJSON, AppendJSON or Write, which take lists", ErrUnsupportedInput, e.name, v)
			return dst
		}
		return r.appendList(dst, e, &l, depth-1)
	}
	if r.top == topList {
		if v == nil {
			return r.appendList(dst, e, &elems{}, depth-1)
		}
		r.fatal = unsupported(e, v)
		return dst
	}
	if isNil(v) {
		return r.appendObject(dst, e.root, &source{}, depth-1)
	}
	if src, ok := sourceOf(v, e); ok {
		return r.appendObject(dst, e.root, &src, depth-1)
	}
	r.fatal = unsupported(e, v)
	return dst
}

// appendJSONTop writes raw JSON input: an object or an array of objects.
func (r *run) appendJSONTop(dst []byte, e *Entity, b []byte, depth int) []byte {
	text, err := r.parseJSON(b)
	switch {
	case err != nil:
	case text[0] == '[' && r.top == topObject:
		err = newInputError(ErrInvalidJSON, "problem.json.array", nil)
	case text[0] != '[' && r.top == topList:
		err = newInputError(ErrInvalidJSON, "problem.json.not-list", nil)
	}
	if err != nil {
		r.fatal = err
		return dst
	}
	if text[0] == '[' {
		return r.appendList(dst, e, &elems{js: text}, depth-1)
	}
	jo := r.takeJSON(text, 0, e)
	dst = r.appendObject(dst, e.root, &source{js: jo}, depth-1)
	r.releaseJSON()
	return dst
}

// appendObject writes one output object.
func (r *run) appendObject(dst []byte, p *objectPlan, src *source, depth int) []byte {
	if len(dst)-r.base > r.maxOut || cap(dst)-len(dst) < growMargin {
		dst = r.grow(dst)
	}
	if r.stop {
		return dst
	}
	if r.mask != nil || p.shaped {
		return r.appendShaped(dst, p, src, depth)
	}
	dst = append(dst, '{')
	for _, n := range p.nodes {
		dst = append(dst, n.key...)
		if n.fast != fastNone { // the busiest case, without a call
			var ok bool
			if dst, ok = r.appendFast(dst, n, src); ok {
				if r.stop { // a long string passed the output limit
					return dst
				}
				continue
			}
		}
		if dst = r.appendSlow(dst, n, src, depth); r.stop {
			return dst
		}
	}
	if r.cfg.denyUnknown && p.ent != nil { // an entity's object, not a group's
		r.unknownKeys(p.ent, src) // after the fields: they come in declaration order
	}
	return append(dst, '}')
}

// appendSlow writes the value of one node but through its fast path: a
// value field's general path, a group, a reference.
func (r *run) appendSlow(dst []byte, n *node, src *source, depth int) []byte {
	switch n.kind {
	case nodeValue:
		return r.appendValueField(dst, n, src, depth)
	case nodeGroup:
		if depth <= 0 {
			r.fail(n, "depth", ErrDepth)
			return append(dst, "null"...)
		}
		if n.from != nil {
			return r.appendGroupFrom(dst, n, src, depth)
		}
		r.push(frame{n: n, kind: frameGroup})
		dst = r.appendObject(dst, n.group, src, depth-1)
		r.pop()
		return dst
	}
	return r.appendRef(dst, n, src, depth)
}

// appendShaped is appendObject for an object whose fields depend on the
// call or on their values: a selection (r.mask), or lazy, conditional,
// omitted-when-empty or one-way (readonly, writeonly) nodes. A node whose
// condition fails, a writeonly node in a response and a readonly node in
// a request are left out, key and all: neither read nor checked. A node
// whose value is what its omitnil or omitempty leaves out is written and
// taken back. A
// node the selection leaves out (or a lazy node no selection names) is
// not read either, but on a request (MakeRequest, Bind) it is read and
// checked like any other and what it wrote taken back: a selection shapes
// a request's answer, never which fields are validated.
//
//go:noinline
func (r *run) appendShaped(dst []byte, p *objectPlan, src *source, depth int) []byte {
	saved := r.mask
	m := saved
	if m != nil && m.plan != p { // cannot happen: the run uses the entities its mask was made for (see shape)
		r.stopWith(fmt.Errorf("entity: entity %q: a field selection meets an object it was not made for", r.ent.name))
		return dst
	}
	dst = append(dst, '{')
	first, j := true, 0
	for i, n := range p.nodes {
		if n.cond != nil && !r.shown(n.cond) || n.writeOnly && !r.cfg.request || n.readOnly && r.cfg.request {
			continue
		}
		show := !n.lazy
		var sub *mask
		if m != nil {
			show = m.star && !n.lazy
			for j < len(m.ents) && int(m.ents[j].idx) < i {
				j++
			}
			if j < len(m.ents) && int(m.ents[j].idx) == i {
				show, sub = m.ents[j].on, m.ents[j].sub
			}
		}
		if !show {
			if !r.cfg.request {
				continue
			}
			sub = nil // read and check all of it
		}
		mark, key := len(dst), n.key
		if first && key[0] == ',' {
			key = key[1:]
		}
		if n.merge {
			key = nil // its object's members are written instead (mergeInto)
		}
		dst = append(dst, key...)
		if n.fast != fastNone && show && n.omit == omitNone { // as appendObject: the busiest case without a call
			var ok bool
			if dst, ok = r.appendFast(dst, n, src); ok {
				if r.stop {
					return dst
				}
				first = false
				continue
			}
		}
		r.mask = sub
		dst = r.appendSlow(dst, n, src, depth)
		r.mask = saved
		if r.stop {
			return dst
		}
		if n.merge && show {
			if dst = r.mergeInto(dst, mark, first, n); len(dst) > mark {
				first = false
			}
			continue
		}
		if !show || n.omit != omitNone && n.omits(dst[mark+len(key):]) {
			dst = dst[:mark]
			continue
		}
		first = false
	}
	if r.cfg.denyUnknown && p.ent != nil {
		r.unknownKeys(p.ent, src)
	}
	return append(dst, '}')
}

// growMargin is the room appendObject makes sure of before it writes an
// object once its output has reached growFrom bytes (grow). Smaller outputs
// grow as append grows them, so that AppendJSON into a buffer with room
// for the output never allocates.
const (
	growMargin = 512
	growFrom   = 64 << 10
)

// grow stops the walk when the output has passed the limit, or makes room
// in a large output (growOutput).
//
//go:noinline
func (r *run) grow(dst []byte) []byte {
	switch {
	case len(dst)-r.base > r.maxOut:
		r.tooLarge()
	case len(dst) >= growFrom && cap(dst)-len(dst) < growMargin:
		return growOutput(dst, r.base+r.maxOut)
	}
	return dst
}

// growOutput doubles dst's capacity, up to a little past end, the output
// limit. Growing by doubling (append grows large slices by a quarter)
// keeps what a call allocates for its output near twice what it writes,
// and under about twice the limit when it passes it.
func growOutput(dst []byte, end int) []byte {
	limit := end + 2*growMargin
	n := max(2*cap(dst), 4096)
	if n > limit/2 { // the next doubling would pass the limit: go to it
		n = max(limit, len(dst)+2*growMargin)
	}
	b := make([]byte, len(dst), n)
	copy(b, dst)
	return b
}

// tooLarge stops the walk: its output has passed the limit.
//
//go:noinline
func (r *run) tooLarge() {
	r.stop = true
	if r.fatal == nil {
		r.fatal = fmt.Errorf("%w: entity %q writes more than the limit of %d bytes", ErrTooLarge, r.ent.name, r.maxOut)
	}
}

// appendValueField writes a value field through the general path: resolve
// converts, defaults and checks. (Apart from appendObject, and not inlined,
// to keep appendObject's frame small; see appendTopOther.)
//
//go:noinline
func (r *run) appendValueField(dst []byte, n *node, src *source, depth int) []byte {
	v, in, _, fromDefault := r.resolve(n, src)
	switch {
	case fromDefault:
		return append(dst, n.defJSON...)
	case v.Kind != rules.Null && n.each != nil:
		dst = r.appendTypedList(dst, n, in, depth)
	case v.Kind != rules.Null && n.format != nil:
		dst = r.appendFormatted(dst, n, v)
	case v.Kind != rules.Null && passesText(n.typ, in):
		mark := len(dst)
		var err error
		if dst, err = appendCompact(dst, in.s, depth); err != nil {
			r.failValue(n, err)
			dst = append(dst[:mark], "null"...)
		}
	default:
		mark := len(dst)
		var err error
		if dst, err = appendValue(dst, n.typ, v, depth, r.base+r.maxOut); err != nil {
			r.failValue(n, err)
			dst = append(dst[:mark], "null"...)
		}
	}
	if len(dst)-r.base > r.maxOut {
		r.tooLarge()
	}
	return dst
}

// appendFast writes a value field read from a map[string]any, a JSON
// object or a struct when it holds what the node's fast path expects: a
// string for a string field whose checks are all StringCheckers, an int,
// int64, numeric string or short JSON integer for a number field without
// checks, or nothing (default, req or null). It is the request path's
// busiest function. It reports false, having written nothing, for anything
// else, which the general path (resolve) converts.
func (r *run) appendFast(dst []byte, n *node, src *source) ([]byte, bool) {
	var s string
	switch {
	case src.ma != nil:
		switch x := src.ma[n.in].(type) {
		case nil:
			return r.appendAbsent(dst, n), true
		case string:
			s = x
		case int:
			if n.fast != fastInt {
				return dst, false
			}
			return strconv.AppendInt(dst, int64(x), 10), true
		case int64:
			if n.fast != fastInt {
				return dst, false
			}
			return strconv.AppendInt(dst, x, 10), true
		default:
			return dst, false
		}
	case src.js != nil:
		jv := src.js.at(n.slot)
		text := src.js.text[jv.start:jv.end]
		switch jv.kind {
		case jsonString:
			if s = text[1 : len(text)-1]; !jv.plain {
				s = unquote(text)
			}
		case jsonNumber:
			switch {
			case n.fast != fastInt || !isShortInt(text):
				return dst, false
			case canonicalInt(text):
				return append(dst, text...), true
			}
			i, _ := rules.ParseInt(text)
			return strconv.AppendInt(dst, i, 10), true
		case jsonNone, jsonNull:
			return r.appendAbsent(dst, n), true
		default:
			return dst, false
		}
	case src.st != nil:
		in := src.st.get(src.rv, n.slot)
		switch {
		case in.kind == rawStr:
			s = in.s
		case in.kind == rawInt && n.fast == fastInt:
			return strconv.AppendInt(dst, in.n, 10), true
		case in.kind == rawNum && n.fast == fastInt && isShortInt(in.s):
			i, _ := rules.ParseInt(in.s)
			return strconv.AppendInt(dst, i, 10), true
		case in.kind == rawAny && in.a == nil:
			return r.appendAbsent(dst, n), true
		default:
			return dst, false
		}
	default:
		return dst, false
	}
	if n.fast == fastInt {
		if canonicalInt(s) {
			return append(dst, s...), true
		}
		if r.cfg.strict {
			return dst, false // "12.5" is no integer: the general path says so
		}
		if i, ok := rules.ParseInt(s); ok {
			return strconv.AppendInt(dst, i, 10), true
		}
		return dst, false
	}
	if len(n.xforms) > 0 {
		s = r.transformString(n, s)
	}
	for _, ck := range n.strChecks {
		if err := runStringCheck(ck, s); err != nil {
			r.failCheck(n, ck.rule, ck.info, rules.String, err)
		}
	}
	dst = appendString(dst, s)
	if len(s) > growMargin && len(dst)-r.base > r.maxOut {
		r.tooLarge()
	}
	return dst, true
}

// appendAbsent writes a value field that is absent: its default, or null
// (after req has had its say).
func (r *run) appendAbsent(dst []byte, n *node) []byte {
	switch {
	case n.hasDefault && !n.defNull:
		return append(dst, n.defJSON...)
	case n.req:
		r.fail(n, "req", errRequired)
	}
	return append(dst, "null"...)
}

// runStringCheck calls a string checker; a panic in it (user code) is the
// field's error.
func runStringCheck(ck strCheck, s string) error {
	if ck.noPanic {
		return ck.c.CheckString(s)
	}
	return runStringGuarded(ck, s)
}

// runStringGuarded calls a string checker that may panic.
func runStringGuarded(ck strCheck, s string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = newRulePanic(ck.rule, p)
		}
	}()
	return ck.c.CheckString(s)
}

// refTarget returns the entity a reference node names, recording a fatal
// error when none is declared. The first entity a run finds in a slot is
// the one it uses for the rest of the run, so that a Make sees one version
// of each entity even while a name is re-exposed.
func (r *run) refTarget(n *node) *Entity {
	for i := range r.npins {
		if r.pins[i].s == n.ref {
			return r.pins[i].e
		}
	}
	for _, p := range r.morePins {
		if p.s == n.ref {
			return p.e
		}
	}
	ent := n.ref.e.Load()
	if ent == nil {
		if r.fatal == nil {
			r.fatal = fmt.Errorf("%w: %q, referenced by field %q of entity %q", ErrUnknownEntity, n.ref.name, n.in, r.ent.name)
		}
		return nil
	}
	r.pin(n.ref, ent)
	return ent
}

// pin records the entity the run uses for a slot.
func (r *run) pin(s *slot, e *Entity) {
	if r.npins < len(r.pins) {
		r.pins[r.npins] = pinned{s, e}
		r.npins++
		return
	}
	r.morePins = append(r.morePins, pinned{s, e})
}

// pinned is an entity a run uses for a slot.
type pinned struct {
	s *slot
	e *Entity
}

// enterDefault records that the run makes ent from an empty input for a
// bare default, and reports false when it is already doing so further up:
// a cycle of defaults would never end.
func (r *run) enterDefault(n *node, ent *Entity) bool {
	for _, e := range r.defaulting {
		if e == ent {
			r.fail(n, "default", errDefaultCycle)
			return false
		}
	}
	r.defaulting = append(r.defaulting, ent)
	return true
}

func (r *run) leaveDefault() { r.defaulting = r.defaulting[:len(r.defaulting)-1] }

// appendRef writes a reference: an object made with the entity, a list of
// them, or null.
func (r *run) appendRef(dst []byte, n *node, src *source, depth int) []byte {
	ent := r.refTarget(n)
	if ent == nil {
		return append(dst, "null"...)
	}
	in := r.read(src, n)
	if m, ok := in.a.(json.RawMessage); ok && in.kind == rawAny { // JSON in a Go value: its object or list
		in = decodeRawMessage(m)
	}
	if n.refList { // issue 14: []$name, always a list (typedlist.go)
		return r.appendRefTyped(dst, n, ent, in, depth)
	}
	var l elems
	switch la, isAny := in.a.([]any); {
	case in.kind == rawJSON && in.s[0] == '{':
		return r.appendRefJSON(dst, n, ent, in.s, int32(in.n), depth)
	case in.kind == rawJSON:
		l = elems{js: in.s, jsOrd: int32(in.n)}
	case in.kind == rawAny && isAny && la != nil:
		l = elems{la: la, len: len(la)}
	default:
		return r.appendRefOther(dst, n, ent, in, depth)
	}
	return r.appendRefList(dst, n, ent, &l, depth)
}

// appendRefJSON writes a reference read from a raw JSON object, numbered
// ord on the run's tape.
//
//go:noinline
func (r *run) appendRefJSON(dst []byte, n *node, ent *Entity, text string, ord int32, depth int) []byte {
	jo := r.takeJSON(text, ord, ent)
	dst = r.appendRefObject(dst, n, ent, &source{js: jo}, depth)
	r.releaseJSON()
	return dst
}

// appendRefList writes a reference read from a list.
func (r *run) appendRefList(dst []byte, n *node, ent *Entity, l *elems, depth int) []byte {
	if depth <= 0 {
		r.fail(n, "depth", ErrDepth)
		return append(dst, "null"...)
	}
	r.push(frame{n: n, kind: frameRef})
	dst = r.appendList(dst, ent, l, depth-1)
	r.pop()
	return dst
}

// appendRefOther writes a reference read from anything else: a Go object
// or list, or nothing. (Apart, and not inlined, to keep appendRef's frame
// small: see appendTopOther.)
//
//go:noinline
func (r *run) appendRefOther(dst []byte, n *node, ent *Entity, in raw, depth int) []byte {
	sub, list, isList, ok := r.refInput(n, in, ent)
	switch {
	case !ok:
		return append(dst, "null"...)
	case isList:
		return r.appendRefList(dst, n, ent, &list, depth)
	}
	return r.appendRefObject(dst, n, ent, &sub, depth)
}

// appendRefObject writes one object of a reference.
func (r *run) appendRefObject(dst []byte, n *node, ent *Entity, sub *source, depth int) []byte {
	if depth <= 0 {
		r.fail(n, "depth", ErrDepth)
		return append(dst, "null"...)
	}
	if sub.empty() {
		if !r.enterDefault(n, ent) {
			return append(dst, "null"...)
		}
		defer r.leaveDefault()
	}
	r.push(frame{n: n, kind: frameRef})
	dst = r.appendObject(dst, ent.root, sub, depth-1)
	r.pop()
	return dst
}

// refInput reads a reference's input (other than a raw JSON object): an
// object, a list of objects, or nothing (null, absent, or a value of another
// kind). For nothing, a bare default stands for an empty object; otherwise
// ok is false, after `req` has had its say.
func (r *run) refInput(n *node, in raw, e *Entity) (sub source, list elems, isList, ok bool) {
	if in.kind != rawAny || in.a != nil { // absent or null reads as nothing at once
		if in.kind == rawAny {
			if sub, ok = sourceOf(in.a, e); ok {
				return sub, list, false, true
			}
		}
		if list, ok = listOfRaw(in); ok {
			return sub, list, true, true
		}
	}
	if r.cfg.strict && !in.isNull() { // there, but no object nor list
		r.failType(n, arrivedAs(in))
		return sub, list, false, false
	}
	if n.refDefault {
		return source{}, list, false, true
	}
	if n.req {
		r.fail(n, "req", errRequired)
	}
	return sub, list, false, false
}

// appendList writes the objects of a list made with e, skipping elements
// that are not objects.
func (r *run) appendList(dst []byte, e *Entity, l *elems, depth int) []byte {
	dst = append(dst, '[')
	out := 0
	if l.js != "" {
		r.eachJSONObject(l.js, l.jsOrd, func(idx int, text string, ord int32) bool {
			jo := r.takeJSON(text, ord, e)
			var ok bool
			dst, ok = r.appendElem(dst, e, &source{js: jo}, idx, out, depth)
			r.releaseJSON()
			out++
			return ok && !r.stop
		})
		return append(dst, ']')
	}
	for i := 0; i < l.len; i++ {
		var sub source
		ok := false
		if l.la != nil {
			var m map[string]any
			if m, ok = l.la[i].(map[string]any); ok {
				sub = source{ma: m} // the common case, without the general lookup
			}
		}
		if !ok {
			sub, ok = l.at(i, e)
		}
		if !ok {
			continue
		}
		if dst, ok = r.appendElem(dst, e, &sub, i, out, depth); !ok || r.stop {
			break
		}
		out++
	}
	return append(dst, ']')
}

// appendElem writes element i of a list, the out'th written. It reports
// false when the depth limit stops the list.
func (r *run) appendElem(dst []byte, e *Entity, sub *source, i, out, depth int) ([]byte, bool) {
	if out > 0 {
		dst = append(dst, ',')
	}
	r.push(frame{kind: frameIndex, idx: int32(i), outIdx: int32(out)})
	if depth <= 0 {
		r.stop = true // see fail
		if !r.full() {
			r.errs = append(r.errs, r.depthError())
		}
		r.pop()
		return dst, false
	}
	dst = r.appendObject(dst, e.root, sub, depth-1)
	r.pop()
	return dst, true
}

// depthError reports the depth limit at the current path.
func (r *run) depthError() *FieldError {
	return r.fieldError(nil, "", "", failure{rule: "depth", code: "depth", err: ErrDepth})
}

// unsupported is the error for an input that is not an object or a list.
func unsupported(e *Entity, v any) error {
	return fmt.Errorf("%w: entity %q cannot be made from %T: want a map with string keys, a struct, an *Object, raw JSON, or a list of them", ErrUnsupportedInput, e.name, v)
}

// scratchPool holds the buffers runs convert numbers and times into text
// with (see scratchBuf).
var scratchPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// putScratch returns a buffer to scratchPool unless it grew too large.
func putScratch(bp *[]byte) {
	if cap(*bp) <= maxPooled {
		*bp = (*bp)[:0]
		scratchPool.Put(bp)
	}
}

// canonicalInt reports whether s is an integer spelled exactly as
// strconv.FormatInt spells it (an optional minus, no leading zero, no "-0",
// at most 18 digits so that it is an int64), so that a number field may
// write s itself instead of parsing and formatting it.
func canonicalInt(s string) bool {
	i := 0
	if len(s) > 0 && s[0] == '-' {
		i = 1
	}
	switch {
	case len(s)-i == 0 || len(s)-i > 18:
		return false
	case s[i] == '0':
		return len(s) == 1
	}
	for ; i < len(s); i++ {
		if s[i]-'0' > 9 {
			return false
		}
	}
	return true
}

// isShortInt reports whether JSON number text is an integer that a float64
// holds exactly (at most 15 digits), so that reading it as an integer gives
// what encoding/json's float64 would.
func isShortInt(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 15 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
