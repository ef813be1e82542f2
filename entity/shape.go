package entity

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// This file holds per-call shaping: which of an entity's fields one call
// writes. A selection (Select, Only, Except) is compiled once per entity
// and spec into a mask, cached; flags (With, WithContext) and a version
// (Version) are read once per call into the run. The walker reads them in
// appendShaped; an entity without `lazy`, `if`, `unless`, `since`,
// `until`, `omitnil`, `omitempty`, `readonly`, `writeonly` or `merge`, in a
// call without a selection, never reaches it.

// Select makes a call write only the fields spec names, in the grammar of
// Google APIs' partial responses, for a `fields` query parameter passed
// straight in:
//
//	a,b        fields a and b
//	a/b        field b of a (a group, a $ref, or a list of $refs)
//	a(b,c)     fields b and c of a
//	*          every field of a level (but the lazy ones)
//
// Names are output names (after rename and the registry's key case). A
// group or $ref selected without a sub-selection is written whole (its
// lazy fields left out); a lazy field is written only when named. The
// empty spec selects nothing away: it is the call without Select.
//
// A spec that does not parse, or names a field the entity does not have,
// fails the call at once with an *InputError (400, wrapping
// ErrInvalidFields) whose message says what is wrong at its byte offset
// (Offset, HasOffset), quoting nothing of the spec. A field the call does
// not write whatever its selection (one its flags or version hide, a
// writeonly field of a response, a readonly one of a request) is one it
// does not have: a spec naming it fails as one naming an undeclared
// field, in the same words. Specs longer than 4096 bytes or nested more than
// 64 levels are refused the same way.
//
// On a response, fields that are not selected are neither read, converted,
// checked nor written: a selection saves work. On a request (MakeRequest,
// Bind) every declared field is still read and checked, so that a client
// can never skip `req`: the selection only shapes what is returned.
//
// Each spec is compiled once per entity into a mask kept in a cache of at
// most 256 specs per entity (a client sending endless different specs
// costs a compile each, never memory without bound); a call with a spec
// already seen allocates nothing for it.
func Select(spec string) Option { return Option{kind: optSelect, str: spec} }

// Only is Select for code: it writes only the fields at the dotted output
// paths given (list.details.mail; `\.` is a dot within a name; `*` as the
// last step selects every field of that level). A path the entity does not
// have is a programming error: the call fails with an error wrapping
// ErrUnknownField (500 in Write). The paths name what is declared: a field
// the call's flags or version hide, a writeonly field of a response and a
// readonly one of a request are valid paths that select nothing (Only of
// such a field alone writes {}). Only and Select may not be combined.
func Only(paths ...string) Option { return Option{kind: optOnly, list: paths} }

// Except leaves out the fields at the dotted output paths given, from
// what the call would write otherwise (everything, or what Select or Only
// selects). An unknown path is an error wrapping ErrUnknownField; a
// declared field the call does not write (Only says which) is a valid
// path, and leaving it out changes nothing: Except("password") of a
// writeonly password is a safe default.
func Except(paths ...string) Option { return Option{kind: optExcept, list: paths} }

// With sets flags for one call: a field whose rules say `if 'admin'` is
// written only in calls that set admin (or another flag its `if` names),
// one with `unless 'guest'` is left out of calls that set guest. Flags
// apply to nested groups and referenced entities at any depth. Every flag
// must be declared first (Registry.DeclareFlags): a call naming one that
// is not fails with an error wrapping ErrUnknownFlag, so that a misspelled
// flag can never expose a field. Several With options add up.
func With(flags ...string) Option { return Option{kind: optWith, list: flags} }

// WithContext sets the flags stored in ctx by NewContext, as With does:
// middleware sets a request's roles once, handlers pass r.Context(). It
// also binds a stream to ctx: EncodeSeq stops when ctx is done. A call
// that reads a request (MakeRequest, Bind, Patch) needs no WithContext for
// the request's own context: it takes that context's flags, as it takes
// its Accept-Language.
//
// Unlike With, it ignores a flag the registry has not declared: one
// middleware may set flags for every registry of a server, and a flag no
// declaration names can show no field (Verify refuses undeclared flags in
// rules), so ignoring it fails closed.
func WithContext(ctx context.Context) Option {
	return Option{kind: optWithContext, list: FlagsFromContext(ctx), ctx: ctx}
}

// flagsKey is the context key of NewContext's flags.
type flagsKey struct{}

// NewContext returns a copy of ctx holding flags, added to those ctx
// already holds, for WithContext.
func NewContext(ctx context.Context, flags ...string) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	all := slices.Concat(FlagsFromContext(ctx), flags)
	return context.WithValue(ctx, flagsKey{}, slices.Compact(sortedCopy(all)))
}

// FlagsFromContext returns the flags NewContext stored in ctx, sorted; nil
// when there are none. The slice is shared: do not modify it.
func FlagsFromContext(ctx context.Context) []string {
	if ctx == nil {
		return nil
	}
	f, _ := ctx.Value(flagsKey{}).([]string)
	return f
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// Version sets the API version of one call, for fields declared with
// `since 'v2'` (written to calls of v2 and later) and `until 'v3'` (to
// calls before v3). A version is a dotted list of at most 4 numbers with
// an optional leading v: v2, 2.1, v2.10 (numbers compare numerically, so
// v2.10 is after v2.9, and missing numbers are 0: v2 is v2.0). Versions
// usually come from the client, so a malformed one fails the call with an
// *InputError (400, wrapping ErrInvalidVersion), whose message does not
// quote it. A call without Version
// writes every field; where two fields share an output key by disjoint
// version ranges, it writes the one of the latest range. The empty string
// is no version.
func Version(v string) Option { return Option{kind: optVersion, str: v} }

// ---- The run's shape

// shape reads the call's shaping options for entity e: its flags, its
// version and its mask. A bad option ends the call before it starts.
func (r *run) shape(e *Entity, opts []Option) {
	// The selection's cache key: each part its kind, its length and its
	// bytes, so that no two selections have one key. Built on the stack, or
	// in a pooled buffer when longer.
	var arr [256]byte
	key := arr[:0]
	var pooled *[]byte
	defer func() {
		if pooled != nil {
			putScratch(pooled)
		}
	}()
	part := func(kind byte, s string) {
		if len(key)+len(s)+binary.MaxVarintLen64+1 > cap(key) && pooled == nil {
			pooled = scratchPool.Get().(*[]byte)
			key = append((*pooled)[:0], key...)
		}
		key = append(binary.AppendUvarint(append(key, kind), uint64(len(s))), s...)
	}
	selects := 0
	for _, o := range opts {
		switch o.kind {
		case optSelect:
			if o.str != "" {
				selects++
				part('S', o.str)
			}
		case optOnly, optExcept:
			kind := byte('E')
			if o.kind == optOnly {
				selects++
				kind = 'O'
			}
			part(kind, "")
			for _, p := range o.list {
				part('.', p)
			}
		case optWith:
			t := e.reg.flags.Load()
			for _, name := range o.list {
				b, ok := t.declaredBit(name)
				if !ok {
					r.stopWith(fmt.Errorf("%w %q in With: declare it with Registry.DeclareFlags", ErrUnknownFlag, name))
					return
				}
				r.flags |= 1 << b
			}
		case optWithContext:
			r.setFlags(e, o.list)
		case optVersion:
			if o.str == "" {
				continue
			}
			v, ok := parseVersion(o.str)
			if !ok {
				r.stopWith(newInputError(ErrInvalidVersion, "problem.version", nil)) // nothing of the client's text
				return
			}
			r.ver = v
		}
	}
	switch {
	case selects > 1:
		r.stopWith(fmt.Errorf("entity: entity %q: a call takes one Select or Only, not several", e.name))
		return
	case len(key) == 0:
		return
	}
	// A selection is compiled for the call's flags, version and direction:
	// to a client, a field they hide does not exist (see
	// maskBuilder.visible).
	var fl [9 + maxVersionParts*4]byte
	binary.LittleEndian.PutUint64(fl[:], r.flags)
	fl[8] = byte(r.dir) << 1
	if r.ver.set {
		fl[8] |= 1
		for i, p := range r.ver.part {
			binary.LittleEndian.PutUint32(fl[9+4*i:], p)
		}
	}
	part('F', string(fl[:]))
	m := e.cache.masks.lookup(e, key)
	if m == nil {
		var err error
		sel := selectionOf(opts)
		sel.flags, sel.ver, sel.dir = r.flags, r.ver, r.dir
		if m, err = e.cache.masks.compile(e, key, sel); err != nil {
			r.stopWith(err)
			return
		}
	}
	r.mask = m.root
	for _, d := range m.deps {
		r.pin(d.s, d.e)
	}
}

// setFlags sets the flags named that the registry has declared, as
// WithContext does: one middleware may set flags for every registry of a
// server, and a flag no declaration names can show no field.
func (r *run) setFlags(e *Entity, names []string) {
	t := e.reg.flags.Load()
	for _, name := range names {
		if b, ok := t.declaredBit(name); ok {
			r.flags |= 1 << b
		}
	}
}

// selection is what a call's Select, Only and Except options say, copied
// out of them (so that the options never escape: With's flags are then
// free to stay on the caller's stack).
type selection struct {
	spec         string // Select's
	only, except []string
	hasSpec      bool
	hasOnly      bool
	flags        uint64    // the call's (see maskBuilder.visible)
	ver          version   // likewise
	dir          direction // the view the call walks
}

func selectionOf(opts []Option) selection {
	var s selection
	for _, o := range opts {
		switch {
		case o.kind == optSelect && o.str != "":
			s.spec, s.hasSpec = strings.Clone(o.str), true
		case o.kind == optOnly:
			s.hasOnly = true
			for _, p := range o.list {
				s.only = append(s.only, strings.Clone(p))
			}
		case o.kind == optExcept:
			for _, p := range o.list {
				s.except = append(s.except, strings.Clone(p))
			}
		}
	}
	return s
}

// stopWith ends the run before it starts, with err.
func (r *run) stopWith(err error) {
	r.fatal, r.stop = err, true
}

// made returns how the run shaped what it wrote, for the Objects made of
// it: nil for a call without shaping options (an allocation for one
// with them).
func (r *run) made() *objectMade {
	if !r.cfg.shaped {
		return nil
	}
	return &objectMade{ver: r.ver, flags: r.flags}
}
