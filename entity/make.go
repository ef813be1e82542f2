package entity

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/expose-go/expose/rules"
)

// This file runs a plan. A run walks the plan once over the input, writing
// JSON as it goes (appendObject) or building an *Object (makeObject). It
// collects every failing field; the entry points discard the output when any
// field failed, so nothing partial is ever returned.

// frame is one step of the path to the value being made.
type frame struct {
	in, out     string // field name and output key; empty on an index frame
	idx, outIdx int    // positions in the input and the output list
	index       bool   // a list element
	group       bool   // a group: in the output path only
}

// run is the state of one Make. It lives on the caller's stack: nothing in
// it is allocated on success.
type run struct {
	ent     *Entity
	errs    []*FieldError
	fatal   error
	scratch *[]byte // from scratchPool on first need: see convert

	// The path: the first frames in an array, deeper ones in more. (A slice
	// of the array kept in the run would make the run escape to the heap.)
	depth int
	path  [16]frame
	more  []frame
}

func (r *run) init(e *Entity) { r.ent = e }

// done returns what the run borrowed.
func (r *run) done() {
	if r.scratch != nil {
		putScratch(r.scratch)
		r.scratch = nil
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
	if r.depth < len(r.path) {
		r.path[r.depth] = f
	} else {
		r.more = append(r.more[:r.depth-len(r.path)], f)
	}
	r.depth++
}

func (r *run) pop() { r.depth-- }

// frame returns the i'th frame of the path.
func (r *run) frame(i int) *frame {
	if i < len(r.path) {
		return &r.path[i]
	}
	return &r.more[i-len(r.path)]
}

// err returns the run's error, if any.
func (r *run) err() error {
	if r.fatal != nil {
		return r.fatal
	}
	if len(r.errs) > 0 {
		return &ValidationError{Entity: r.ent.name, Fields: r.errs}
	}
	return nil
}

// paths renders the current path, with the field's own names appended.
func (r *run) paths(in, out string) (string, string) {
	var pin, pout strings.Builder
	add := func(b *strings.Builder, name string) {
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(name)
	}
	for i := 0; i < r.depth; i++ {
		switch f := r.frame(i); {
		case f.index:
			pin.WriteString("[" + strconv.Itoa(f.idx) + "]")
			pout.WriteString("[" + strconv.Itoa(f.outIdx) + "]")
		case f.group:
			add(&pout, f.out)
		default:
			add(&pin, f.in)
			add(&pout, f.out)
		}
	}
	if in != "" || out != "" {
		add(&pin, in)
		add(&pout, out)
	}
	return pin.String(), pout.String()
}

// fail records a failing field.
func (r *run) fail(n *node, rule string, err error) {
	in, out := r.paths(n.in, n.out)
	fe := &FieldError{Path: in, OutputPath: out, Rule: rule, Message: err.Error(), cause: err}
	if errors.Is(err, ErrDepth) {
		fe.Message = "is nested deeper than the limit of " + strconv.Itoa(r.ent.reg.MaxDepth()) + " levels"
	}
	r.errs = append(r.errs, fe)
}

// failValue records a value that cannot be written as JSON.
func (r *run) failValue(n *node, err error) {
	if errors.Is(err, ErrDepth) {
		r.fail(n, "depth", err)
		return
	}
	r.fail(n, "json", err)
}

var errRequired = errors.New("is required")

// runCheck calls a checker; a panic in it (user code) is the field's error.
func runCheck(ck check, v rules.Value) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("rule %q panicked: %v", ck.rule, p)
		}
	}()
	return ck.c.Check(v)
}

// resolve reads, converts, defaults and checks one value field. It returns
// the value to write, whether its text is borrowed (see convert) and whether
// the default fills it.
func (r *run) resolve(n *node, src *source) (v rules.Value, borrowed, fromDefault bool) {
	in, _ := src.get(n.in)
	if !in.isNull() {
		v, borrowed = convert(n.typ, in, r)
		if v.Kind != rules.Null {
			for _, ck := range n.inChecks {
				if err := runCheck(ck, inputValue(in)); err != nil {
					r.fail(n, ck.rule, err)
				}
			}
		}
	}
	if v.Kind == rules.Null {
		if n.hasDefault && !n.defNull {
			return v, false, true
		}
		if n.req {
			r.fail(n, "req", errRequired)
		}
		return v, false, false
	}
	for _, ck := range n.outChecks {
		if err := runCheck(ck, v); err != nil {
			r.fail(n, ck.rule, err)
		}
	}
	return v, borrowed, false
}

// appendValue writes a converted value of declared kind k.
func appendValue(dst []byte, k rules.Kind, v rules.Value, depth int) ([]byte, error) {
	if k == rules.Any && v.Any != nil {
		return appendAny(dst, v.Any, depth)
	}
	switch v.Kind {
	case rules.String:
		return appendString(dst, v.Str), nil
	case rules.Int:
		return strconv.AppendInt(dst, v.Int, 10), nil
	case rules.Float:
		return appendFloat(dst, v.Float, 64), nil
	case rules.Bool:
		return strconv.AppendBool(dst, v.Bool), nil
	case rules.Time:
		return appendTime(dst, v.Time), nil
	case rules.Null:
		return append(dst, "null"...), nil
	}
	return appendAny(dst, v.Any, depth)
}

// appendTop writes v, an object or a list of objects, made with e.
func (r *run) appendTop(dst []byte, e *Entity, v any) []byte {
	depth := e.reg.MaxDepth()
	if v == nil {
		return r.appendObject(dst, e.root, &source{}, depth-1)
	}
	if src, ok := sourceOf(v); ok {
		return r.appendObject(dst, e.root, &src, depth-1)
	}
	if l, ok := listOf(v); ok {
		return r.appendList(dst, e, &l, depth-1)
	}
	r.fatal = unsupported(e, v)
	return dst
}

// appendObject writes one output object.
func (r *run) appendObject(dst []byte, p *objectPlan, src *source, depth int) []byte {
	dst = append(dst, '{')
	for _, n := range p.nodes {
		dst = append(dst, n.key...)
		switch n.kind {
		case nodeValue:
			v, _, fromDefault := r.resolve(n, src)
			if fromDefault {
				dst = append(dst, n.defJSON...)
				continue
			}
			mark := len(dst)
			var err error
			if dst, err = appendValue(dst, n.typ, v, depth); err != nil {
				r.failValue(n, err)
				dst = append(dst[:mark], "null"...)
			}
		case nodeGroup:
			if depth <= 0 {
				r.fail(n, "depth", ErrDepth)
				dst = append(dst, "null"...)
				continue
			}
			r.push(frame{out: n.out, group: true})
			dst = r.appendObject(dst, n.group, src, depth-1)
			r.pop()
		case nodeRef:
			dst = r.appendRef(dst, n, src, depth)
		}
	}
	return append(dst, '}')
}

// refTarget returns the entity a reference node names, recording a fatal
// error when none is declared.
func (r *run) refTarget(n *node) *Entity {
	ent := n.ref.e.Load()
	if ent == nil && r.fatal == nil {
		r.fatal = fmt.Errorf("%w: %q, referenced by field %q of entity %q", ErrUnknownEntity, n.ref.name, n.in, r.ent.name)
	}
	return ent
}

// appendRef writes a reference: an object made with the entity, a list of
// them, or null.
func (r *run) appendRef(dst []byte, n *node, src *source, depth int) []byte {
	ent := r.refTarget(n)
	if ent == nil {
		return append(dst, "null"...)
	}
	sub, list, isList, ok := r.refInput(n, src)
	if !ok {
		return append(dst, "null"...)
	}
	if depth <= 0 {
		r.fail(n, "depth", ErrDepth)
		return append(dst, "null"...)
	}
	r.push(frame{in: n.in, out: n.out})
	if isList {
		dst = r.appendList(dst, ent, &list, depth-1)
	} else {
		dst = r.appendObject(dst, ent.root, &sub, depth-1)
	}
	r.pop()
	return dst
}

// refInput reads a reference's input: an object, a list of objects, or
// nothing (null, absent, or a value of another kind). For nothing, a bare
// default stands for an empty object; otherwise ok is false, after `req` has
// had its say.
func (r *run) refInput(n *node, src *source) (sub source, list elems, isList, ok bool) {
	in, _ := src.get(n.in)
	if !in.isNull() && !in.isStr {
		if sub, ok = sourceOf(in.a); ok {
			return sub, list, false, true
		}
		if list, ok = listOf(in.a); ok {
			return sub, list, true, true
		}
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
	for i := 0; i < l.len; i++ {
		sub, ok := sourceOf(l.at(i))
		if !ok {
			continue
		}
		if out > 0 {
			dst = append(dst, ',')
		}
		if depth <= 0 {
			r.push(frame{index: true, idx: i, outIdx: out})
			r.errs = append(r.errs, r.depthError())
			r.pop()
			return append(dst, ']')
		}
		r.push(frame{index: true, idx: i, outIdx: out})
		dst = r.appendObject(dst, e.root, &sub, depth-1)
		r.pop()
		out++
	}
	return append(dst, ']')
}

// depthError reports the depth limit at the current path.
func (r *run) depthError() *FieldError {
	in, out := r.paths("", "")
	return &FieldError{Path: in, OutputPath: out, Rule: "depth",
		Message: "is nested deeper than the limit of " + strconv.Itoa(r.ent.reg.MaxDepth()) + " levels", cause: ErrDepth}
}

// unsupported is the error for an input that is not an object or a list.
func unsupported(e *Entity, v any) error {
	return fmt.Errorf("%w: entity %q cannot be made from %T: want a map with string keys, an *Object or a list of them", ErrUnsupportedInput, e.name, v)
}
