package engine

import (
	"slices"
	"sync"

	"github.com/expose-go/expose/internal/jsontape"
	"github.com/expose-go/expose/internal/jsonwire"
)

// Raw JSON input: a []byte or json.RawMessage holding an object or an array
// of objects is validated once (package jsontape), then each object is read in
// one pass into slots, without building a map. The whole input is validated once before anything is read, so a
// malformed body is a clear error and nothing is written.

// jval is one value of a JSON object, as fill found it. It holds no
// pointer, so that filling and clearing slots costs no write barrier.
type jval struct {
	kind       jsontape.Kind
	plain      bool  // a string literal whose content is its value
	ord        int32 // an object or array: its ordinal on the tape
	start, end int32 // the value's text in the object's
}

// jsonObject holds the values of one JSON object that an entity reads, by
// slot. Entities reading more than 16 distinct input keys spill to a slice.
type jsonObject struct {
	text string
	ord  int32 // its number on the tape
	vals [16]jval
	more []jval

	// For the table read last, the slot (plus one) of the key found at
	// each of the first positions: the objects of a list usually spell
	// their keys in the same order, and comparing one key is cheaper than
	// looking it up.
	hintsFor *inputTable
	hints    [16]int16

	// tail, in a merge patch's merged document, is where the members
	// copied from the current value begin in an object the patch merges
	// into (see merger): a value at or past it is the server's, taken as
	// stored. noTail for any other object.
	tail int32
}

// noTail is the tail of an object with no member taken as stored.
const noTail = 1<<31 - 1

// kept reports whether the value in slot i is a member copied from the
// current value of a patch (see tail).
func (o *jsonObject) kept(i int) bool {
	jv := o.at(i)
	return jv.kind != jsontape.None && jv.start >= o.tail
}

// fill reads the object text once, keeping the values of the keys table t reads.
// A key that comes twice keeps its last value, as encoding/json does. ord
// is the object's ordinal on tape, the validator's record of the
// document (package jsontape), with which string literals end and nested values
// are stepped over without reading them.
func (o *jsonObject) fill(text string, ord int32, st *jsonStack, t *inputTable) {
	tape := st.tape
	clear(o.vals[:min(t.nslots, len(o.vals))])
	if t.nslots > len(o.vals) {
		if len(o.more) < t.nslots-len(o.vals) {
			o.more = make([]jval, t.nslots-len(o.vals))
		}
		clear(o.more)
	}
	o.text, o.ord = text, ord
	if o.hintsFor != t {
		o.hintsFor = t
		clear(o.hints[:])
	}
	k := int(ord) + 2 // the next entry's ordinal
	var skipped jval
	for i, m := jsonwire.SkipSpace(text, 1), 0; text[i] != '}'; m++ {
		// The key, whose end the validator recorded: first the name
		// found at this position last time, else looked up.
		size, plain := jsontape.Literal(tape, k)
		k++
		end := i + size
		key := text[i+1 : end-1]
		slot := -1
		if !plain {
			key = jsonwire.Unquote(text[i:end])
		} else if m < len(o.hints) {
			if h := int(o.hints[m]) - 1; h >= 0 && t.keys.Names[h] == key {
				slot = h
			}
		}
		if slot < 0 {
			slot = t.keys.Lookup(key)
			if m < len(o.hints) {
				o.hints[m] = int16(slot + 1)
			}
		}
		i = jsonwire.SkipSpace(text, jsonwire.SkipSpace(text, end)+1)
		// The value is written field by field into its slot (or into
		// skipped, for a key e does not read): a jval built aside and
		// copied would be stored in pieces and reloaded whole, which
		// stalls the processor's store forwarding.
		jv := &skipped
		if slot >= 0 {
			jv = o.at(slot)
		}
		jv.start, jv.plain, jv.ord = int32(i), false, 0
		switch c := text[i]; c {
		case '"':
			size, jv.plain = jsontape.Literal(tape, k)
			k++
			end, jv.kind = i+size, jsontape.String
		case '{', '[':
			jv.kind, jv.ord = jsontape.Nested, int32(k)
			size, k = jsontape.Container(tape, k)
			end = i + size
		case 't':
			end, jv.kind = i+4, jsontape.True
		case 'f':
			end, jv.kind = i+5, jsontape.False
		case 'n':
			end, jv.kind = i+4, jsontape.Null
		default:
			end, jv.kind = jsonwire.ScalarEnd(text, i), jsontape.Number
		}
		jv.end = int32(end)
		if i = jsonwire.SkipSpace(text, end); text[i] == ',' {
			i = jsonwire.SkipSpace(text, i+1)
		}
	}
}

// at returns slot i.
func (o *jsonObject) at(i int) *jval {
	if i < len(o.vals) {
		return &o.vals[i]
	}
	return &o.more[i-len(o.vals)]
}

// get returns the value in slot i.
func (o *jsonObject) get(i int) raw {
	jv := o.at(i)
	text := o.text[jv.start:jv.end]
	switch jv.kind {
	case jsontape.String:
		if jv.plain {
			return raw{kind: rawStr, s: text[1 : len(text)-1], view: true}
		}
		return raw{kind: rawStr, s: jsonwire.Unquote(text), view: true}
	case jsontape.Number:
		return raw{kind: rawNum, s: text}
	case jsontape.True:
		return raw{a: true}
	case jsontape.False:
		return raw{a: false}
	case jsontape.Nested:
		return raw{kind: rawJSON, s: text, n: int64(jv.ord)}
	}
	return raw{}
}

// jsonStack holds what one run needs to read raw JSON: the tape of the
// document and the jsonObjects being read, one per level of nesting,
// reused level by level. It comes from a pool, so that reading raw JSON
// allocates nothing once warm. (A jsonObject on the stack would escape
// anyway: sources are also read through reflection, and escape analysis
// does not tell their fields apart.)
type jsonStack struct {
	tape []int32 // the document's string literals and containers (package jsontape)
	objs []*jsonObject
	used int

	// fresh holds, for a merge patch's merged document, the ordinals of
	// the objects and lists read as MakeRequest reads them (see merger),
	// in increasing order; empty for any other document.
	fresh []int32
	// stored holds, for a merge patch's merged document, the ordinals
	// that begin and end (exclusive) each object or list copied whole
	// from the current value, in pairs, in increasing order: what the
	// client did not send (see merger).
	stored []int32
	// tails holds, for a merge patch's merged document, the ordinal of
	// each object the patch merges into and the offset in its text where
	// the members copied from the current value begin, in pairs, in
	// increasing order of ordinals (see jsonObject.tail).
	tails []int32
}

// tailOf returns the tail of the object numbered ord (see tails).
func (s *jsonStack) tailOf(ord int32) int32 {
	lo, hi := 0, len(s.tails)/2
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch o := s.tails[2*m]; {
		case o == ord:
			return s.tails[2*m+1]
		case o < ord:
			lo = m + 1
		default:
			hi = m
		}
	}
	return noTail
}

// isStored reports whether the container numbered ord on the merged
// document's tape lies in one copied whole from the current value.
func (s *jsonStack) isStored(ord int32) bool {
	i, _ := slices.BinarySearch(s.stored, ord+1) // the first bound past ord
	return i%2 == 1                              // past a start, not past its end
}

var jsonStackPool = sync.Pool{New: func() any { return new(jsonStack) }}

// parseJSON validates raw JSON input, records its tape for the run's
// readers, and returns its text, trimmed: an object or an array. A run
// reads one document.
func (r *run) parseJSON(b []byte) (string, error) {
	return r.parseJSONOf(b, false)
}

// parseJSONOf is parseJSON, taking an object only when objectOnly is
// set (a request body).
func (r *run) parseJSONOf(b []byte, objectOnly bool) (string, error) {
	if r.js == nil {
		r.js = jsonStackPool.Get().(*jsonStack)
	}
	s := bytesString(b)
	switch code, off := jsontape.Scan(s, jsontape.MaxNesting, &r.js.tape); code {
	case jsontape.OK:
	case jsontape.TooLarge:
		return "", newInputError(ErrBodyTooLarge, "problem.json.too-large", nil)
	default:
		return "", invalidJSON(s, code, off)
	}
	start := len(s) - len(jsonwire.TrimLeftSpace(s))
	s = jsonwire.TrimSpace(s)
	switch {
	case objectOnly && s[0] != '{':
		return "", notAnObject(start, s, "object")
	case s[0] != '{' && s[0] != '[':
		return "", notAnObject(start, s, "object or array")
	}
	return s, nil
}

// invalidJSON returns the InputError of the JSON text b that jsontape.Scan
// refused with code at off, with the offset and what was expected there:
// "the body is not valid JSON: at byte 17, expected ',' or '}'".
func invalidJSON(b string, code jsontape.Code, off int) *InputError {
	off, reason := jsontape.SyntaxError(b, code, off)
	return newInputError(ErrInvalidJSON, "problem.json.syntax", map[string]any{"offset": off, "reason": reason})
}

// notAnObject returns the InputError of valid JSON whose top-level value,
// text at byte off of the input, is not what was wanted:
// "the body is not a JSON object: at byte 0, got an array".
func notAnObject(off int, text, wanted string) *InputError {
	kind := "a number"
	switch text[0] {
	case '{':
		kind = "an object"
	case '[':
		kind = "an array"
	case '"':
		kind = "a string"
	case 't', 'f':
		kind = "a boolean"
	case 'n':
		kind = "null"
	}
	key := "problem.json.not-object"
	if wanted != "object" {
		key = "problem.json.not-object-or-array"
	}
	return newInputError(ErrInvalidJSON, key, map[string]any{"offset": off, "got": kind})
}

// takeJSON returns a jsonObject filled from text, the object numbered ord
// on the run's tape, for the input table t; release it with releaseJSON,
// innermost first.
func (r *run) takeJSON(text string, ord int32, t *inputTable) *jsonObject {
	st := r.js
	if st.used == len(st.objs) {
		st.objs = append(st.objs, new(jsonObject))
	}
	o := st.objs[st.used]
	st.used++
	o.fill(text, ord, st, t)
	o.tail = noTail
	if len(st.tails) > 0 {
		o.tail = st.tailOf(ord)
	}
	return o
}

// releaseJSON gives back the innermost jsonObject taken.
func (r *run) releaseJSON() { r.js.used-- }

// putJSON returns the run's jsonStack to its pool. A stack grown by a huge
// document is dropped rather than kept.
func (r *run) putJSON() {
	if r.js != nil {
		r.js.used, r.js.fresh, r.js.stored, r.js.tails = 0, r.js.fresh[:0], r.js.stored[:0], r.js.tails[:0]
		for _, o := range r.js.objs {
			o.text = "" // do not keep the caller's input alive in the pool
		}
		if cap(r.js.tape) <= 1<<16 {
			jsonStackPool.Put(r.js)
		}
		r.js = nil
	}
}
