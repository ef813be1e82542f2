package engine

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/expose-go/expose/dsl"
)

// Option is one option of a call, as package entity's Option holds it
// (which says what each does): its kind and its argument. Options are
// small values, built without allocating.
type Option struct {
	Kind OptionKind
	Str  string
	List []string
	Ctx  context.Context // WithContext's
}

// OptionKind says what an Option is.
type OptionKind uint8

// The kinds of options.
const (
	OptStrict OptionKind = iota + 1
	OptLax
	OptDenyUnknown
	OptLang
	OptSelect
	OptOnly
	OptExcept
	OptWith
	OptWithContext
	OptVersion
)

// Opts is what a call's options say, decoded once (Decode) into one value
// on the caller's stack: what the walk reads of every call (how strictly,
// whether unknown keys fail), and whether the options shape the output,
// whose shaping options the run then reads once (run.shape).
type Opts struct {
	Strict, DenyUnknown bool
	Shaped              bool // an option shapes the output: Select, Only, Except, With, WithContext, Version
	// FlagsOnly: of the shaping options only the flags and the version
	// count (a patch's current value: which fields it has, not which the
	// answer shows).
	FlagsOnly bool
	List      []Option // the call's options, as given
	// CtxFlags are the flags of the context of the HTTP request the call
	// reads, set as WithContext sets them (a flag the registry has not
	// declared is ignored), before the options'.
	CtxFlags []string
}

// Decode decodes a call's options. request says whether the call reads
// strictly unless told otherwise (a request does: what a client sent is
// read strictly).
func Decode(request bool, list []Option) Opts {
	o := Opts{Strict: request, List: list}
	for i := range list {
		switch list[i].Kind {
		case OptStrict:
			o.Strict = true
		case OptLax:
			o.Strict = false
		case OptDenyUnknown:
			o.DenyUnknown = true
		case OptSelect, OptOnly, OptExcept, OptWith, OptWithContext, OptVersion:
			o.Shaped = true
		}
	}
	return o
}

// callConfig is what the walk reads of a call's options, on the run.
type callConfig struct {
	strict      bool // strict conversions (see package entity's Strict)
	denyUnknown bool
	request     bool // a request's: a selection shapes the output only (see appendShaped)
	shaped      bool // an option shapes the output: run.shape reads them
	// keepFailed: a request's output is kept when fields failed (but not
	// when the walk stopped), for the checks of a handle (Call.KeepFailed).
	keepFailed bool
}

// ---- The run's shape

// shape reads the call's shaping options for entity e: its flags, its
// version and its mask. A bad option ends the call before it starts.
func (r *run) shape(e *Entity, o *Opts) {
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
	for i := range o.List {
		x := &o.List[i]
		switch x.Kind {
		case OptSelect:
			if x.Str != "" && !o.FlagsOnly {
				selects++
				part('S', x.Str)
			}
		case OptOnly, OptExcept:
			if o.FlagsOnly {
				continue
			}
			kind := byte('E')
			if x.Kind == OptOnly {
				selects++
				kind = 'O'
			}
			part(kind, "")
			for _, p := range x.List {
				part('.', p)
			}
		case OptWith:
			t := e.env.flags.Load()
			for _, name := range x.List {
				b, ok := t.declaredBit(name)
				if !ok {
					r.stopWith(fmt.Errorf("%w %q in With: declare it with Registry.DeclareFlags", ErrUnknownFlag, name))
					return
				}
				r.flags |= 1 << b
			}
		case OptWithContext:
			r.setFlags(e, x.List)
		case OptVersion:
			if x.Str == "" {
				continue
			}
			v, ok := dsl.ParseVersion(x.Str)
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
	case len(key) == 0 && (r.dir != dirResponse || !e.views[dirResponse].conds || r.cfg.denyUnknown):
		return // (a response of fields its flags and version decide is pruned for them)
	}
	// A selection is compiled for the call's flags, version and direction:
	// to a client, a field they hide does not exist (see
	// maskBuilder.visible).
	// The version is keyed by the range of versionBounds it lies in: the
	// fields of every version of a range are the same.
	var fl [9 + 8 + 4]byte
	binary.LittleEndian.PutUint64(fl[:], r.flags)
	fl[8] = byte(r.dir) << 1
	if r.ver.IsSet() {
		fl[8] |= 1
		gen, at := versionRange(r.ver)
		binary.LittleEndian.PutUint64(fl[9:], gen)
		binary.LittleEndian.PutUint32(fl[17:], uint32(at))
	}
	part('F', string(fl[:]))
	m := e.cache.masks.lookup(e, key)
	if m == nil {
		var err error
		sel := selectionOf(o.List)
		sel.flags, sel.ver, sel.dir = r.flags, r.ver, r.dir
		if m, err = e.cache.masks.compile(e, key, sel); err != nil {
			r.stopWith(err)
			return
		}
	}
	if m.plan != nil && !r.cfg.denyUnknown { // (DenyUnknown reads the keys of every field: unknown.go)
		r.pruned, r.sel = m.plan, m.root
	} else {
		r.mask = m.root
	}
	for _, d := range m.deps {
		r.pin(d.s, d.e)
	}
}

// setFlags sets the flags named that the registry has declared, as
// WithContext does: one middleware may set flags for every registry of a
// server, and a flag no declaration names can show no field.
func (r *run) setFlags(e *Entity, names []string) {
	t := e.env.flags.Load()
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
	hasExcept    bool      // (Except of nothing is a selection too: of every field, a merge that writes none left out)
	flags        uint64    // the call's (see maskBuilder.visible)
	ver          version   // likewise
	dir          direction // the view the call walks
}

func selectionOf(list []Option) selection {
	var s selection
	for _, o := range list {
		switch {
		case o.Kind == OptSelect && o.Str != "":
			s.spec, s.hasSpec = strings.Clone(o.Str), true
		case o.Kind == OptOnly:
			s.hasOnly = true
			for _, p := range o.List {
				s.only = append(s.only, strings.Clone(p))
			}
		case o.Kind == OptExcept:
			s.hasExcept = true
			for _, p := range o.List {
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
