package engine

import (
	"strconv"

	"github.com/expose-go/expose/internal/jsonwire"
)

// The walk of struct input. A struct is read through its plan
// (structPlan: each slot's offset and kind, compiled once per type and
// input table), and a list of structs through its element type's plan,
// found once for the list (appendList). appendStruct is appendObject for a struct: the
// same steps, but each field of a common kind (a string, an integer) read
// with a load at its offset and written at once, without the fast path's
// choice of source; anything else goes through the general path
// (appendSlow), as from any source.

// appendStruct writes one output object read from the struct source src.
// (The plan p is neither shaped nor masked: see appendObject.)
func (r *run) appendStruct(dst []byte, p *objectPlan, src *source, depth int) []byte {
	if r.needsRoom(dst) {
		dst = r.grow(dst)
	}
	if r.stop {
		return dst
	}
	dst = append(dst, '{')
	fields := src.st.fields
	for n := p.head; n != nil; n = n.next { // see appendMap
		dst = appendKey(dst, n)
		if n.fast != fastNone {
			switch f := &fields[n.slot]; {
			case f.hot == hotString && n.fast == fastString:
				s := f.loc.At(src.sp).String()
				if !n.plain(s) {
					if dst = r.fastString(dst, n, s); r.stop {
						return dst
					}
					continue
				}
				dst = jsonwire.AppendString(dst, s)
				continue
			case f.hot == hotInt && n.fast == fastInt:
				dst = appendInt(dst, f.loc.At(src.sp).Int(f.loc.Size))
				continue
			case f.hot == hotInt && n.fast == fastIntChecked:
				if dst = r.fastInt(dst, n, f.loc.At(src.sp).Int(f.loc.Size)); r.stop { // a check failed with ErrDepth
					return dst
				}
				continue
			}
			var ok bool
			if dst, ok = r.appendFast(dst, n, src); ok {
				if r.stop {
					return dst
				}
				continue
			}
		}
		if dst = r.appendSlow(dst, n, src, depth); r.stop {
			return dst
		}
	}
	return append(dst, '}')
}

// appendStructElems writes the objects of a list of structs (or of
// pointers to them, nil ones skipped), l.structs having found their plan,
// as appendList writes a list's: one frame for the whole list, its
// indexes set per element. (DenyUnknown has nothing to judge in a struct:
// its fields are not keys.)
func (r *run) appendStructElems(dst []byte, p *objectPlan, l *elems, depth int) []byte {
	plain := r.mask == nil && !p.shaped
	r.push(frame{kind: frameIndex})
	d := r.depth - 1
	f := r.fixedFrame(d)
	out := 0
	for i := 0; i < l.len; i++ {
		sub := source{st: l.st, sp: l.sbase.Index(i, l.ssize), frozen: l.sfrozen && !l.sptrs}
		if l.sptrs {
			if sub.sp = sub.sp.Pointer(); sub.sp.IsNil() {
				if r.cfg.strict {
					r.skipNotObject(d, i, out, nil)
				}
				continue
			}
		}
		if out > 0 {
			dst = append(dst, ',')
		}
		r.setIndex(f, d, i, out)
		if depth <= 0 { // see appendElem
			r.stopAtDepth()
			break
		}
		if plain {
			dst = r.appendStruct(dst, p, &sub, depth-1)
		} else {
			dst = r.appendObject(dst, p, &sub, depth-1)
		}
		if r.stop {
			break
		}
		out++
	}
	r.pop()
	return dst
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
