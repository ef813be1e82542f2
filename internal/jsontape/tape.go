// Package jsontape is the raw-JSON reader below package entity: a
// validator that accepts exactly what encoding/json accepts and records the
// document on a tape, the readers that step through valid text with the
// tape, the syntax errors of invalid text (offset and reason), and the key
// table that finds an input key's slot.
//
// A document is read in two passes, never more:
//
//  1. Scan validates the whole input once, exactly as encoding/json's
//     Valid does, without recursion (so no input can exhaust the stack),
//     and records every string literal, object and array it meets on a
//     tape (see below). It also refuses nesting deeper than a limit
//     (MaxNesting, as encoding/json does).
//  2. Each object a reader wants is walked once, member by member (package
//     entity's jsonObject.fill keeps the values of the keys an entity
//     reads in slots). A nested object or array is stepped over in one
//     jump with its tape entry (Container), and a string literal's end is
//     read from the tape (Literal), so the bytes of a list of objects are
//     read by the validator, and only the bytes between their strings by
//     each element's reader.
//
// The readers after the first trust the text: it is valid JSON, and each
// container handed to them is one the validator measured.
//
// The tape is one []int32 with an entry for each string literal and each
// container, in the order they begin in the text; a container is known by
// the number of its entry, its ordinal. A string literal's entry is one
// word: its size in bytes, quotes included, negated when the literal is
// not plain (plain: no escapes, all ASCII, so that its content is its
// value). A container's is two: its size in bytes, from its opening
// bracket to its closing one included, and the ordinal of the entry after
// everything nested in it. Each literal owns at least two bytes of the
// text (its quotes) and each container two (its brackets), so the tape
// holds at most one word per byte of valid text (plus one for each bracket
// that invalid text leaves open, at most the nesting limit). When the tape
// it is given is full, Scan grows it once, to a count of those bytes in
// the rest of the text (growTape): at most 4 bytes of memory per byte of
// input, whatever the input.
package jsontape

import "github.com/expose-go/expose/internal/jsonwire"

// Kind is the type of a JSON value, by its first byte.
type Kind uint8

const (
	None   Kind = iota // no value: the slot was not in the object
	Null               // null
	False              // false
	True               // true
	Number             // a number
	String             // a string literal; plain when it has no escapes and is all ASCII
	Nested             // an object or an array
)

// Literal returns the size of the string literal whose entry is tape[k],
// and whether it is plain.
func Literal(tape []int32, k int) (int, bool) {
	size := int(tape[k])
	if size < 0 {
		return -size, false
	}
	return size, true
}

// Container returns the size of the object or array whose entry is
// tape[k] (its ordinal), and the ordinal of the entry after everything
// nested in it.
func Container(tape []int32, k int) (size, next int) {
	e := tape[k : k+2 : k+2]
	return int(e[0]), int(e[1])
}

// Count returns the number of elements of a JSON array, array, whose own
// ordinal on tape is ord: EachValue's steps, each nested value and string
// stepped over with its tape entry. (The steps are written in both: a
// helper they share does not inline, and costs EachValue, the walk's loop
// over every list, a call per element: +1.7% instructions on a 130-line
// request.)
func Count(array string, ord int32, tape []int32) int {
	k := int(ord) + 2 // the next entry's ordinal
	n := 0
	for i := jsonwire.SkipSpace(array, 1); array[i] != ']'; n++ {
		switch array[i] {
		case '{', '[':
			size, next := Container(tape, k)
			i += size
			k = next
		case '"':
			size, _ := Literal(tape, k)
			i += size
			k++
		default:
			i = jsonwire.ScalarEnd(array, i)
		}
		if i = jsonwire.SkipSpace(array, i); array[i] == ',' {
			i = jsonwire.SkipSpace(array, i+1)
		}
	}
	return n
}

// EachObject calls f with the position, text and ordinal of each element
// of a JSON array that is an object, until f returns false. ord is the
// array's own ordinal on tape.
func EachObject(array string, ord int32, tape []int32, f func(i int, text string, ord int32) bool) {
	EachValue(array, ord, tape, func(i int, text string, k int32, _ bool) bool {
		return text[0] != '{' || f(i, text, k)
	})
}

// EachValue calls f with the position and text of each element of a JSON
// array, until f returns false: with an object's or an array's its
// ordinal on tape (k), with a string literal's whether it is plain (holds
// no escape). ord is the array's own ordinal on tape.
func EachValue(array string, ord int32, tape []int32, f func(i int, text string, k int32, plain bool) bool) {
	k := int(ord) + 2 // the next entry's ordinal
	idx := 0
	for i := jsonwire.SkipSpace(array, 1); array[i] != ']'; idx++ {
		start, plain, nested := i, false, int32(-1)
		switch c := array[i]; c {
		case '{', '[':
			size, next := Container(tape, k)
			nested = int32(k)
			i += size
			k = next
		case '"':
			var size int
			size, plain = Literal(tape, k)
			i += size
			k++
		default:
			i = jsonwire.ScalarEnd(array, i)
		}
		if !f(idx, array[start:i], nested, plain) {
			return
		}
		if i = jsonwire.SkipSpace(array, i); array[i] == ',' {
			i = jsonwire.SkipSpace(array, i+1)
		}
	}
}
