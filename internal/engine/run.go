package engine

import (
	"fmt"
	"sync"
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
// output limit (Limits.OutputBytes: past it the walk stops and the
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
	keys        uint32 // a node read at its from path: which number steps read an object's key (fromKeysOf)
}

type frameKind uint8

const (
	frameRef     frameKind = iota // a reference: in both paths
	frameGroup                    // a group reading its parent's input: in the output path only
	frameNested                   // a group reading the object under its key (a request's): in both paths
	frameIndex                    // a list element
	frameInPlace                  // a merged reference in the wire form: its keys are its parent's, in neither path
)

// secret reports whether the frame is a secret reference: every field below
// it is secret.
func (f *frame) secret() bool { return (f.kind == frameRef || f.kind == frameInPlace) && f.n.secret }

// run is the state of one Make. It lives on the caller's stack: nothing in
// it is allocated on success.
type run struct {
	ent     *Entity
	errs    []FieldError
	omitted int // field errors past the registry's limit
	secret  int // how many secret references the run is inside

	// The entities the run uses, by slot (see refTarget), and those it is
	// making from an empty input for a bare default (see enterDefault).
	pins       [8]pinned
	npins      int
	morePins   []pinned
	defaulting []*Entity

	// inWriteOnly: a merge patch's run is inside a writeonly value's
	// object, whose $names' objects hold no readonly value either (see
	// source.noReadOnly).
	inWriteOnly bool
	// variant is the key of the union whose variant's object the run is
	// making, at the run's depth there (union.go): DenyUnknown knows it.
	variant variantAt
	fatal   error

	scratch  *[]byte // from scratchPool on first need: see convert
	xscratch *[]byte // likewise, for transformed text: see transform.go

	js *jsonStack // from jsonStackPool on first need: see takeJSON

	// What the call accepts at the top (see appendTop), where its output
	// starts in dst, the most bytes it may write, and whether the walk has
	// stopped (a depth error, the output limit, or a fatal error).
	top topKind
	dir direction // the view the run walks
	// request: the run reads an *http.Request; reqBody: one with a body
	// (its fields are read from there, not from the query).
	request, reqBody bool
	cfg              callConfig // what the call's options say
	base             int
	maxOut           int
	stop             bool

	// The call's shape (shape.go): the selection of the object being
	// written (nil: every field but the lazy ones), the flags set, the
	// version asked for.
	mask  *mask
	flags uint64
	ver   version
	// pruned is the plan the call's selection was pruned into
	// (compile_prune.go), walked without a mask (see topView); sel is
	// then the selection, for Selected.
	pruned *objectPlan
	sel    *mask

	// elem is the index of the typed-list element on the value path
	// (value.go), or -1: its failures are at the list's path and
	// that index, without a frame pushed per element.
	elem int

	// The path: the first frames in an array, deeper ones in more. (A slice
	// of the array kept in the run would make the run escape to the heap.)
	depth int
	path  [8]frame
	more  []frame

	// hidden is where the writeonly members the run wrote lie in its
	// output (from base), and in a merge patch's merged value those its
	// omitnil and omitempty leave out (see hide): an Object of a request
	// view leaves them out of what it writes (Object.responseText),
	// whatever is exposed later.
	hidden []span

	// The node read last at its from path, and which of the path's number
	// steps read an object's key (see fromKeysOf).
	fromOf   *node
	fromKeys uint32

	// refused holds, in a merge patch, the paths of the immutable fields
	// whose change the merger refused (patch_immutable.go): the walk of
	// the merged value records their failures; and those of the objects
	// a refused null left as stored, which count as given for their
	// siblings' cross-field rules (takenAsStored). Nil otherwise.
	refused []string
}

// done returns what the run borrowed.
func (r *run) done() {
	if r.js != nil || r.scratch != nil || r.xscratch != nil { // a run of the seed's borrows nothing
		r.giveBack()
	}
}

// giveBack is done, once the run has borrowed something.
func (r *run) giveBack() {
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

// fixedFrame returns frame i when the array holds it, where it stays
// whatever is pushed after it; nil when it is in more.
func (r *run) fixedFrame(i int) *frame {
	if i < len(r.path) {
		return &r.path[i]
	}
	return nil
}

// setIndex sets the index frame i of a list, f when fixedFrame gave it, to
// element idx, the out'th written.
func (r *run) setIndex(f *frame, i, idx, out int) {
	if f == nil { // in more, which a deeper push may have moved
		f = r.frame(i)
	}
	f.idx, f.outIdx = int32(idx), int32(out)
}

// topKind says what a call accepts at the top of its input.
type topKind uint8

const (
	topAny    topKind = iota // an object or a list of objects (AppendJSON, MakeJSON, Write)
	topObject                // an object (Make, MakeRequest)
	topList                  // a list of objects (MakeList)
)

// needsRoom reports whether dst needs room (grow) before an object or an
// element is written: its output has passed the limit, or reached growFrom
// with less than growMargin left.
func (r *run) needsRoom(dst []byte) bool {
	return len(dst)-r.base > r.maxOut || len(dst) >= growFrom && cap(dst)-len(dst) < growMargin
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

// hide records that dst[start:end] is a member a response does not write
// (with the comma before it, unless it is the first): a writeonly one, or
// in a merge patch's merged value one its omitnil or omitempty leaves out.
func (r *run) hide(start, end int) {
	r.hidden = append(r.hidden, span{start - r.base, end - r.base})
}

// takeBack removes what was written from mark on, and the writeonly
// members recorded there.
func (r *run) takeBack(dst []byte, mark int) []byte {
	if len(r.hidden) > 0 {
		r.moveHidden(mark, 0)
	}
	return dst[:mark]
}

// moveHidden moves the writeonly members recorded from mark on by delta
// bytes, or forgets them for a delta of 0 (their text was taken back).
func (r *run) moveHidden(mark, delta int) {
	mark -= r.base
	kept := r.hidden[:0]
	for _, s := range r.hidden {
		switch {
		case s.start < mark:
		case delta == 0:
			continue
		default:
			s.start, s.end = s.start+delta, s.end+delta
		}
		kept = append(kept, s)
	}
	r.hidden = kept
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
