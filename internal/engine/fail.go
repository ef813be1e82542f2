package engine

import (
	"errors"
	"strconv"

	"github.com/expose-go/expose/internal/pathfmt"
	"github.com/expose-go/expose/rules"
)

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
			return pathfmt.AppendFirstKey(b, name)
		}
		return pathfmt.AppendKey(b, name)
	}
	for i := 0; i < r.depth; i++ {
		switch f := r.frame(i); {
		case f.kind == frameIndex:
			bin = pathfmt.AppendIndex(bin, int(f.idx))
			bout = pathfmt.AppendIndex(bout, int(f.outIdx))
			bptr = strconv.AppendInt(append(bptr, '/'), int64(f.idx), 10)
		case f.kind == frameInPlace:
		case f.kind == frameNested:
			bin = add(bin, f.n.in)
			bout = add(bout, f.n.out)
			bptr = pathfmt.AppendPointerToken(bptr, f.n.in)
		case f.kind == frameGroup:
			bout = add(bout, f.n.out)
			if fp := f.n.from; fp != nil { // it reads the object at its path
				bin = add(bin, fp.first.in)
				bptr = pathfmt.AppendPointerToken(bptr, fp.first.in)
				bin, bptr = appendFromPath(bin, bptr, fp.rest, f.keys)
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
			bptr = pathfmt.AppendPointerToken(bptr, in)
			if fp := f.n.from; fp != nil {
				bin, bptr = appendFromPath(bin, bptr, fp.rest, f.keys)
			}
		}
	}
	if named {
		bin = add(bin, in)
		bout = add(bout, out)
		bptr = pathfmt.AppendPointerToken(bptr, in)
	}
	// one string for the three, which the failure keeps together
	var all [288]byte
	s := string(append(append(append(all[:0], bin...), bout...), bptr...))
	i, j := len(bin), len(bin)+len(bout)
	return s[:i], s[i:j], s[j:]
}

// failure is what a failing field reports: the rule as the registry
// knows it, the code, the params (a map of the failure's own), the kind
// of the failing value ("string", "number", "list" or "", for the
// message's key: see package entity's messages.go), and the error.
type failure struct {
	rule, code string
	field      string // the name {field} says, when not the last step's (a list's element)
	params     map[string]any
	kind       string
	exact      bool
	err        error
}

// failType records a value that is there but does not convert to the
// field's type without loss (strict input): got says what it arrived as.
func (r *run) failType(n *node, got string) {
	want := n.typ
	if n.kind == nodeRef || n.kind == nodeGroup {
		want = rules.Object
	}
	r.failWant(n, want, got)
}

// failWant records that n's value, wanted as want, arrived as got: the
// one place a type failure is built (typeFailure).
func (r *run) failWant(n *node, want rules.Kind, got string) { r.record(n, typeFailure(want, got, "")) }

// typeFailure is the failure of a value wanted as want that arrived as
// got; field is the name {field} says, when not the last step's (a list's
// element).
func typeFailure(want rules.Kind, got, field string) failure {
	return failure{rule: "type", code: "type", field: field,
		params: map[string]any{"type": want.String(), "got": got}, err: errors.New(typeMessage(want, got))}
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
//
// A failure of a typed list's element node is the list field's, at the
// element's index (run.elem), under the list's msg and secrecy; its
// {field} is the list's name.
func (r *run) record(n *node, f failure) {
	if errors.Is(f.err, ErrDepth) {
		r.stop = true // data nested that deep cannot be written at all
	}
	if r.full() {
		return
	}
	if n != nil && n.elemOf != nil {
		r.push(frame{kind: frameIndex, idx: int32(r.elem), outIdx: int32(r.elem)})
		f.field = n.elemOf.in
		r.elemError(r.addError(), n.elemOf, &f)
		r.pop()
		return
	}
	in, out := "", ""
	if n != nil {
		in, out = n.in, n.out
	}
	r.fieldError(r.addError(), n, in, out, &f)
}

// addError appends a FieldError to the run's, to be filled in place.
func (r *run) addError() *FieldError {
	r.errs = append(r.errs, FieldError{})
	return &r.errs[len(r.errs)-1]
}

// fieldError fills fe, the FieldError of a failure of node n (nil for a
// list element or the limit's summary) read from the input name in: its
// paths, code, params and what its message needs.
func (r *run) fieldError(fe *FieldError, n *node, in, out string, f *failure) {
	var pin, pout, ptr string
	if n != nil && n.from != nil { // read at its from path
		pin, pout, ptr = r.paths(n.from.first.in, out)
		bin, bptr := appendFromPath([]byte(pin), []byte(ptr), n.from.rest, r.fromKeysOf(n))
		pin, ptr = string(bin), string(bptr)
	} else {
		pin, pout, ptr = r.paths(in, out)
	}
	r.newFieldError(fe, n, in, pin, pout, ptr, f)
}

// elemError fills fe, the FieldError of a failure of an element of the list
// node n (a typed list's, a []$name's), whose frame and the element's
// index are the run's last: its paths are theirs, the list's from path
// among them, with no name of its own.
func (r *run) elemError(fe *FieldError, n *node, f *failure) {
	pin, pout, ptr := r.pathsOf("", "", false)
	r.newFieldError(fe, n, "", pin, pout, ptr, f)
}

// atTopLevel reports whether the walk stands in the top-level object: no
// frame but merged references' keys, which are their parent's.
func (r *run) atTopLevel() bool {
	for i := 0; i < r.depth; i++ {
		if r.frame(i).kind != frameInPlace {
			return false
		}
	}
	return true
}

// newFieldError fills fe, the FieldError of a failure of node n at the
// paths given: its code, params and what its message needs, which the API
// renders after the walk in the call's language.
func (r *run) newFieldError(fe *FieldError, n *node, in, pin, pout, ptr string, f *failure) {
	*fe = FieldError{Path: pin, OutputPath: pout, Pointer: ptr, Rule: f.rule, Code: f.code, Params: f.params, Cause: f.err, Err: f.err,
		Kind: f.kind, Exact: f.exact}
	if n != nil && r.request && r.atTopLevel() { // a request's top-level field (merged keys too): where it was read
		switch {
		case n.src != srcBody:
			fe.In = srcNames[n.src]
		case !r.reqBody:
			fe.In = srcNames[srcQuery]
		}
	}
	if errors.Is(f.err, ErrDepth) {
		fe.Code = "depth"
		fe.Params = map[string]any{"limit": int64(r.ent.env.lim().Depth)}
	}
	_, fe.Panicked = f.err.(*RulePanic) // made where the check ran: never wrapped
	fe.Secret = (n != nil && n.secret || r.secret > 0) && fe.Code != "required" && fe.Code != "depth"
	if fe.Secret {
		// A secret's value must never reach a message: rules written by
		// users may quote it, so none of their words, nor their error, are
		// kept, nor the params of a rule that would describe it (in's
		// values, a pattern). Under a secret reference every field is
		// secret.
		fe.Cause = nil
		if !QuotesNoValue(fe.Code) {
			fe.Params = nil
		}
	}
	fe.Field = in
	if f.field != "" {
		fe.Field = f.field
	}
	if n != nil && n.msg != nil {
		fe.Msg, fe.MsgParams = n.msg, n.msgParams
		if fe.Secret { // only the params that describe no value, which a secret's params are too
			fe.MsgParams = n.msgSafe
		}
	}
}

// full reports whether the run has collected as many field errors as the
// registry allows, counting the ones it drops from then on.
func (r *run) full() bool {
	if len(r.errs) < r.ent.env.lim().Errors {
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

// depthError fills fe with the depth limit at the current path.
func (r *run) depthError(fe *FieldError) {
	r.fieldError(fe, nil, "", "", &failure{rule: "depth", code: "depth", err: ErrDepth})
}
