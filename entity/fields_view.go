package entity

// The Field view of one direction, as a call with given options sees it.
// (A first form, over the plan as it is; the compiled direction views
// replace it.)

// Fields returns the fields a response call made with opts writes, in
// output order: no writeonly field, and none that the call's flags (With)
// or version (Version) hide. Lazy fields are included (Optional reports
// them). Each call returns new Fields; their Decl fields are one copy of
// the declaration.
func (e *Entity) Fields(opts ...Option) []*Field {
	return e.viewFields(false, opts)
}

// RequestFields returns the fields a request made with opts reads: no
// readonly field, and none that the call's flags or version hide. Key is
// the key a client sends.
func (e *Entity) RequestFields(opts ...Option) []*Field {
	return e.viewFields(true, opts)
}

func (e *Entity) viewFields(request bool, opts []Option) []*Field {
	if e == nil {
		return nil
	}
	var r run
	r.ent = e
	r.cfg = config(request, opts)
	r.cfg.request = request
	d := dirResponse
	if request {
		d = dirRequest
	}
	if r.cfg.shaped {
		r.shapeFlags(e, opts)
	}
	return filterFields(fieldsOf(e.views[d], nil), &r, request)
}

// shapeFlags reads only the flags and version of opts (no selection).
func (r *run) shapeFlags(e *Entity, opts []Option) {
	for _, o := range opts {
		switch o.kind {
		case optWith, optWithContext:
			t := e.reg.flags.Load()
			for _, name := range o.list {
				if b, ok := t.declaredBit(name); ok {
					r.flags |= 1 << b
				}
			}
		case optVersion:
			if v, ok := parseVersion(o.str); ok {
				r.ver = v
			}
		}
	}
}

func filterFields(fs []*Field, r *run, request bool) []*Field {
	out := fs[:0]
	for _, f := range fs {
		n := f.node
		if n != nil && (n.writeOnly && !request || n.readOnly && request || n.cond != nil && !r.shown(n.cond)) {
			continue
		}
		if f.Fields != nil {
			f.Fields = filterFields(f.Fields, r, request)
		}
		out = append(out, f)
	}
	return out
}
