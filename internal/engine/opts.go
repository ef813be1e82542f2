package engine

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/expose-go/expose/dsl"
)

// Opts is what a call's options say, decoded once by the API (package
// entity's Option) into one value, on the caller's stack: building it
// allocates nothing, and a call given no option reads none of it but its
// booleans.
type Opts struct {
	// Strict: the call reads its input strictly (a request's default);
	// Lax turns it off. DenyUnknown: unknown keys are field errors.
	Strict, DenyUnknown bool

	// Shaped says that an option shapes the output: a selection, flags or
	// a version follow.
	Shaped bool

	// Select is Select's spec ("" for none); Selects counts the Select
	// options given a spec past the first, and the Only options: a call
	// takes one of them.
	Select  string
	Selects int

	// Paths are Only's and Except's lists, in the order given; Flags
	// With's and the context's flag names (a With's undeclared flag is an
	// error, a context's is ignored).
	Paths [4]PathsOpt
	More  []PathsOpt // past Paths
	Flags [2]FlagsOpt
	MoreF []FlagsOpt // past Flags

	// Version is Version's text ("" for none).
	Version string

	np, nf int // how many Paths and Flags options were added
}

// PathsOpt is one Only or Except option's paths.
type PathsOpt struct {
	Only  bool
	Paths []string
}

// FlagsOpt is one With option's flags, or those a context holds.
type FlagsOpt struct {
	Names   []string
	Context bool // WithContext's (or a request's context): undeclared ones are ignored
}

// AddPaths adds an Only or Except option's paths.
func (o *Opts) AddPaths(only bool, paths []string) {
	p := PathsOpt{Only: only, Paths: paths}
	if only {
		o.Selects++
	}
	o.Shaped = true
	if o.np < len(o.Paths) {
		o.Paths[o.np] = p
	} else {
		o.More = append(o.More, p)
	}
	o.np++
}

// AddFlags adds With's (or a context's) flag names.
func (o *Opts) AddFlags(names []string, context bool) {
	o.Shaped = true
	f := FlagsOpt{Names: names, Context: context}
	if o.nf < len(o.Flags) {
		o.Flags[o.nf] = f
	} else {
		o.MoreF = append(o.MoreF, f)
	}
	o.nf++
}

// eachPaths calls f with each Only and Except option, in order.
func (o *Opts) eachPaths(f func(p PathsOpt)) {
	for _, p := range o.Paths[:min(o.np, len(o.Paths))] {
		f(p)
	}
	for _, p := range o.More {
		f(p)
	}
}

// eachFlags calls f with each flags option.
func (o *Opts) eachFlags(f func(fl FlagsOpt) bool) {
	for _, fl := range o.Flags[:min(o.nf, len(o.Flags))] {
		if !f(fl) {
			return
		}
	}
	for _, fl := range o.MoreF {
		if !f(fl) {
			return
		}
	}
}

// callConfig is what the walk reads of a call's options, on the run.
type callConfig struct {
	strict      bool // strict conversions (see package entity's Strict)
	denyUnknown bool
	request     bool // a request's: a selection shapes the output only (see appendShaped)
	shaped      bool // an option shapes the output: run.shape reads them
}

// ---- The run's shape

// shape reads the call's shaping options for entity e: its flags, its
// version and its mask. A bad option ends the call before it starts.
func (r *run) shape(e *Entity, o *Opts) {
	t := e.env.flags.Load()
	bad := ""
	o.eachFlags(func(fl FlagsOpt) bool {
		for _, name := range fl.Names {
			b, ok := t.declaredBit(name)
			switch {
			case ok:
				r.flags |= 1 << b
			case !fl.Context:
				bad = name
				return false
			}
		}
		return true
	})
	if bad != "" {
		r.stopWith(fmt.Errorf("%w %q in With: declare it with Registry.DeclareFlags", ErrUnknownFlag, bad))
		return
	}
	if o.Version != "" {
		v, ok := dsl.ParseVersion(o.Version)
		if !ok {
			r.stopWith(newInputError(ErrInvalidVersion, "problem.version", nil)) // nothing of the client's text
			return
		}
		r.ver = v
	}
	selects := o.Selects
	if o.Select != "" {
		selects++
	}
	if selects > 1 {
		r.stopWith(fmt.Errorf("entity: entity %q: a call takes one Select or Only, not several", e.name))
		return
	}
	if o.Select == "" && o.np == 0 {
		return
	}

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
	if o.Select != "" {
		part('S', o.Select)
	}
	o.eachPaths(func(p PathsOpt) {
		kind := byte('E')
		if p.Only {
			kind = 'O'
		}
		part(kind, "")
		for _, s := range p.Paths {
			part('.', s)
		}
	})
	// A selection is compiled for the call's flags, version and direction:
	// to a client, a field they hide does not exist (see
	// maskBuilder.visible).
	var fl [9 + dsl.MaxVersionParts*4]byte
	binary.LittleEndian.PutUint64(fl[:], r.flags)
	fl[8] = byte(r.dir)
	if r.ver.IsSet() {
		fl[8] |= 2
		for i, p := range r.ver.Parts() {
			binary.LittleEndian.PutUint32(fl[9+4*i:], p)
		}
	}
	part('F', string(fl[:]))
	m := e.cache.masks.lookup(e, key)
	if m == nil {
		var err error
		sel := selectionOf(o)
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

func selectionOf(o *Opts) selection {
	var s selection
	if o.Select != "" {
		s.spec, s.hasSpec = strings.Clone(o.Select), true
	}
	o.eachPaths(func(p PathsOpt) {
		if p.Only {
			s.hasOnly = true
		}
		for _, x := range p.Paths {
			if p.Only {
				s.only = append(s.only, strings.Clone(x))
			} else {
				s.except = append(s.except, strings.Clone(x))
			}
		}
	})
	return s
}

// stopWith ends the run before it starts, with err.
func (r *run) stopWith(err error) {
	r.fatal, r.stop = err, true
}
