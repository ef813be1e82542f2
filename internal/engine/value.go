package engine

import (
	"errors"
	"strconv"

	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/internal/textconv"
	"github.com/expose-go/expose/rules"
)

// The value path. Every value a plan writes — a value field's, a typed
// list's element, the list of a []$ref — goes through one sequence,
// written once here:
//
//	read → convert → strict type check → input checks → transform →
//	default, req → checks → format → write
//
// (The strict type check of a request's JSON body in a registry of
// JSONTypes judges its JSON type first: jsontypes.go.)
//
// A field reads its value from its source (appendValueField); a typed
// list's element is read from its list and runs the same path with its
// element node (valuePath), at the list's path and its index (run.elem),
// with the list's msg and secrecy; a failure of any step of any of them is
// recorded by run.record. The fast paths (appendFast, the same cases
// written out in appendMap's loop for a map, fastString) are the same
// steps for what needs no conversion: a string judged by the same
// compiled checks, an integer already written canonically; anything else
// they hand to valuePath as it was read.

// appendValueField writes a value field read from src through the value
// path. (Apart from appendObject, and not inlined, to keep appendObject's
// frame small; see appendTopOther.)
//
//go:noinline
func (r *run) appendValueField(dst []byte, n *node, src *source, depth int) []byte {
	if n.immutable && len(r.refused) > 0 && r.refusedHere(n) {
		return r.refusedValue(dst, n, src, depth)
	}
	return r.valuePath(dst, n, r.read(src, n), depth)
}

// valuePath runs one value, in, read for node n (a field's, or a typed
// list's element node), through the value path and writes it: null when
// it is null or does not convert (Strict: a type error), its default when
// one fills it.
func (r *run) valuePath(dst []byte, n *node, in raw, depth int) []byte {
	v, fromDefault := r.resolve(n, in)
	mark := len(dst)
	var err error
	switch {
	case fromDefault:
		return append(dst, n.defJSON...)
	case v.Kind == rules.Null:
		return append(dst, "null"...)
	case n.each != nil:
		dst = r.appendTypedList(dst, n, in, depth)
	case n.format != nil:
		if dst, err = n.format.append(dst, v); err != nil {
			r.record(n, failure{rule: "format", code: "format", err: err})
			return append(dst[:mark], "null"...)
		}
	case passesText(n.typ, in):
		if dst, err = appendCompact(dst, in.s, depth); err != nil {
			r.failValue(n, err)
			dst = append(dst[:mark], "null"...)
		}
	default:
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

// resolve converts, judges and defaults one value read for node n: the
// steps of the value path before the write. It returns the value to write
// (null for none) and whether the default fills it.
func (r *run) resolve(n *node, in raw) (v rules.Value, fromDefault bool) {
	if in.kind == rawAny {
		in = valued(in)
	}
	if in.kind == rawFail {
		r.fail(n, "value", errors.New(in.s))
		return v, false
	}
	if !in.isNull() {
		converted := false
		if n.format != nil && !r.dir.responds() { // the wire form holds what the format wrote
			v, converted = n.format.unformatRaw(in)
		}
		if !converted {
			v, _ = convert(n.typ, in, r)
		}
		if r.cfg.strict && !converted {
			var got string
			var ok bool
			if n.jsonTyped {
				if got, ok = jsonTyped(n.typ, in, v); !ok {
					r.failType(n, got)
					return rules.Value{}, false
				}
			}
			if v, got, ok = strictly(n.typ, in, v); !ok {
				r.failType(n, got)
				return rules.Value{}, false
			}
		}
		if v.Kind != rules.Null && len(n.inChecks) > 0 {
			r.judge(n, n.inChecks, inputValue(in)) // what arrived, before any transform
		}
	}
	if len(n.xforms) > 0 && v.Kind != rules.Null && !(n.typ == rules.Any && isNoneBytes(in)) {
		v = r.transform(n, v) // (a none field's []byte is no string: it passes as encoding/json writes it)
	}
	if v.Kind == rules.Null {
		if n.elemOf != nil && r.cfg.request && r.cfg.strict && in.isNull() && !n.elemOf.readOnly {
			// A request's list of T holds T's: a null element is no
			// value a later response of it could write (each's rules
			// never judged it), as for a []$name. (A patch's readonly
			// list is the server's, as stored: not judged.)
			r.failType(n, "null")
			return v, false
		}
		if n.hasDefault && !n.defNull {
			return v, true
		}
		if n.req {
			r.fail(n, "req", errRequired)
		}
		return v, false
	}
	if len(n.outChecks) > 0 {
		r.judge(n, n.outChecks, v)
	}
	return v, false
}

// judge runs checks on v for node n, recording each that fails: the one
// place where a node's compiled checks run on a value.
func (r *run) judge(n *node, cks []check, v rules.Value) {
	for _, ck := range cks {
		if err := runCheck(ck, v); err != nil {
			r.failCheck(n, ck.rule, ck.info, v.Kind, err)
		}
	}
}

// passesText reports whether a converted value is written as its input's
// JSON text: a JSON object, array or number read from raw JSON into a
// none, list or object field keeps its text (key order, number spelling).
func passesText(k rules.Kind, in raw) bool {
	return (in.kind == rawJSON || in.kind == rawNum) && (k == rules.Any || k == rules.List || k == rules.Object)
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
			if !n.fast.isInt() {
				return dst, false
			}
			r.intChecks(n, int64(x))
			return appendInt(dst, int64(x)), true
		case int64:
			if !n.fast.isInt() {
				return dst, false
			}
			r.intChecks(n, x)
			return appendInt(dst, x), true
		default:
			return dst, false
		}
	case src.js != nil:
		jv := src.js.at(n.slot)
		text := src.js.text[jv.start:jv.end]
		switch jv.kind {
		case jsontape.String:
			if s = text[1 : len(text)-1]; !jv.plain {
				s = jsonwire.Unquote(text)
			}
		case jsontape.Number:
			switch {
			case !n.fast.isInt() || !jsonwire.IsShortInt(text):
				return dst, false
			case n.fast == fastInt && jsonwire.IsCanonicalInt(text):
				return append(dst, text...), true
			}
			i, _ := textconv.ParseInt(text)
			return r.fastInt(dst, n, i), true
		case jsontape.None, jsontape.Null:
			return r.appendAbsent(dst, n), true
		default:
			return dst, false
		}
	case src.st != nil:
		switch f := &src.st.fields[n.slot]; f.hot {
		case hotString: // a load at an offset
			s = f.loc.At(src.sp).String()
		case hotInt:
			if !n.fast.isInt() {
				return dst, false
			}
			return r.fastInt(dst, n, f.loc.At(src.sp).Int(f.loc.Size)), true
		case hotAbsent:
			return r.appendAbsent(dst, n), true
		case hotSlow:
			return dst, false
		default:
			switch in := src.st.get(src, n); {
			case in.kind == rawStr:
				s = in.s
			case in.kind == rawInt && n.fast.isInt():
				return r.fastInt(dst, n, in.n), true
			case in.kind == rawAny && in.a == nil:
				return r.appendAbsent(dst, n), true
			default:
				return dst, false
			}
		}
	default:
		return dst, false
	}
	if n.fast.isInt() {
		return r.intText(dst, n, s)
	}
	return r.fastString(dst, n, s), true
}

// intText is the fast path of a number node given the string s: written
// as it is when it is a canonical integer and nothing judges it, parsed
// and judged when it is an integer; false, having written nothing, for
// any other text, which the general path converts (or, Strict, refuses).
func (r *run) intText(dst []byte, n *node, s string) ([]byte, bool) {
	if n.jsonTyped {
		return dst, false // text for a number of a JSON body is no number under JSONTypes: resolve says so
	}
	if n.fast == fastInt && jsonwire.IsCanonicalInt(s) {
		return append(dst, s...), true
	}
	if r.cfg.strict && !jsonwire.IsCanonicalInt(s) {
		return dst, false // "12.5" is no integer: the general path says so
	}
	if i, ok := textconv.ParseInt(s); ok {
		return r.fastInt(dst, n, i), true
	}
	return dst, false
}

// fastInt is the value path of an integer read for a number node
// (fastInt, fastIntChecked): its checks, which judge the converted value,
// and the write.
func (r *run) fastInt(dst []byte, n *node, i int64) []byte {
	r.intChecks(n, i)
	return appendInt(dst, i)
}

// intChecks runs a number node's checks on the integer i, if it has any.
func (r *run) intChecks(n *node, i int64) {
	if n.fast == fastIntChecked {
		r.judgeInt(n, i)
	}
}

// judgeInt runs a number node's checks on the integer i.
//
//go:noinline
func (r *run) judgeInt(n *node, i int64) {
	if n.intChecks == nil {
		r.judge(n, n.outChecks, rules.Value{Kind: rules.Int, Int: i})
		return
	}
	for _, ck := range n.intChecks { // the same checks, without a Value to copy
		if err := runIntCheck(ck, i); err != nil {
			r.failCheck(n, ck.rule, ck.info, rules.Int, err)
		}
	}
}

// fastString is the value path of a string read for a string node (a
// field's or a typed list's element): a string with nothing to judge is
// written at once (inlined into its callers), any other through
// judgeString.
func (r *run) fastString(dst []byte, n *node, s string) []byte {
	if n.plain(s) {
		return jsonwire.AppendString(dst, s)
	}
	return r.judgeString(dst, n, s)
}

// plain reports whether the string s of string node n is written as it
// is: nothing transforms or checks it, and it is too short to pass the
// output limit by itself.
func (n *node) plain(s string) bool {
	return len(n.xforms)|len(n.strChecks) == 0 && len(s) <= growMargin
}

// judgeString is fastString for a string its node transforms or checks,
// or a long one (the output limit is checked after it).
func (r *run) judgeString(dst []byte, n *node, s string) []byte {
	if len(n.xforms) > 0 {
		s = r.transformString(n, s)
	}
	for i := range n.strChecks {
		ck := &n.strChecks[i]
		var err error
		if ck.noPanic { // a built-in checker: called as it is
			err = ck.c.CheckString(s)
		} else {
			err = runStringGuarded(*ck, s)
		}
		if err != nil {
			r.failCheck(n, ck.rule, ck.info, rules.String, err)
		}
	}
	dst = jsonwire.AppendString(dst, s)
	if len(s) > growMargin && len(dst)-r.base > r.maxOut {
		r.tooLarge()
	}
	return dst
}

// appendAbsent writes a value field that is absent: its default, or null
// (after req has had its say).
func (r *run) appendAbsent(dst []byte, n *node) []byte {
	switch {
	case n.fills():
		return appendPadded(dst, n.defJSON, &n.defPad, n.defShort)
	case n.req:
		r.fail(n, "req", errRequired)
	}
	return append(dst, "null"...)
}

// fills reports whether a default other than null fills node n when its
// value is absent.
func (n *node) fills() bool { return n.hasDefault && !n.defNull }

// xbuf returns the run's buffer for transformed text, emptied.
func (r *run) xbuf() []byte {
	if r.xscratch == nil {
		r.xscratch = scratchPool.Get().(*[]byte)
	}
	return (*r.xscratch)[:0]
}

// keepXbuf keeps what a transform grew the buffer to, for the next field.
func (r *run) keepXbuf(b []byte) {
	if cap(b) > cap(*r.xscratch) {
		*r.xscratch = b[:0]
	}
}

// transform applies n's transforms to a converted value, in order. A
// transform that fails is the field's error, and the value is then null.
//
//go:noinline
func (r *run) transform(n *node, v rules.Value) rules.Value {
	buf := r.xbuf()
	for _, x := range n.xforms {
		var err error
		if v, buf, err = runTransform(x, v, buf); err != nil {
			r.failCheck(n, x.info.code, x.info, v.Kind, err)
			v = rules.Value{}
			break
		}
	}
	r.keepXbuf(buf)
	return v
}

// transformString applies n's transforms, all StringTransformers, to a
// string (the fast path).
//
//go:noinline
func (r *run) transformString(n *node, s string) string {
	buf := r.xbuf()
	for _, x := range n.xforms {
		if x.noPanic {
			s, buf = x.st.TransformString(s, buf)
			continue
		}
		v, b, err := runTransform(x, rules.StringValue(s), buf)
		if err != nil || v.Kind != rules.String { // only a panic: a StringTransformer cannot fail
			r.failCheck(n, x.info.code, x.info, rules.String, err)
			break
		}
		s, buf = v.Str, b
	}
	r.keepXbuf(buf)
	return s
}

// runTransform calls a transformer; a panic in it (user code) is the
// field's error.
func runTransform(x xform, v rules.Value, buf []byte) (out rules.Value, b []byte, err error) {
	if !x.noPanic {
		defer func() {
			if p := recover(); p != nil {
				out, b, err = v, buf, newRulePanic(x.info.code, p)
			}
		}()
	}
	return x.t.Transform(v, buf)
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

// runIntCheck is runCheck for an integer checker.
func runIntCheck(ck intCheck, i int64) (err error) {
	if ck.noPanic {
		return ck.c.CheckInt(i)
	}
	defer func() {
		if p := recover(); p != nil {
			err = newRulePanic(ck.rule, p)
		}
	}()
	return ck.c.CheckInt(i)
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

// appendInt appends i in decimal, as strconv.AppendInt does, the common
// small values without its general loop.
func appendInt(dst []byte, i int64) []byte {
	if u := uint64(i); u < 100 {
		if u < 10 {
			return append(dst, byte('0'+u))
		}
		return append(dst, digitPairs[2*u], digitPairs[2*u+1])
	}
	return appendIntMore(dst, i)
}

// appendIntMore is appendInt for the values from 100.
func appendIntMore(dst []byte, i int64) []byte {
	if u := uint64(i); u < 10000 {
		hi, lo := u/100, u%100
		if hi < 10 {
			return append(dst, byte('0'+hi), digitPairs[2*lo], digitPairs[2*lo+1])
		}
		return append(dst, digitPairs[2*hi], digitPairs[2*hi+1], digitPairs[2*lo], digitPairs[2*lo+1])
	}
	return strconv.AppendInt(dst, i, 10)
}

// digitPairs holds "00" to "99".
const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"
