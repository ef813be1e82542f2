package entity

import (
	"errors"
	"fmt"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/rules"
)

// This file holds Extend: an entity declared as another one (its base)
// plus fields of its own, minus the base's fields it unexposes. The
// registry remembers how each extension was declared, so that exposing
// its base again compiles it again, as references see a re-exposed entity
// at once.

// extension is how Extend declared an entity: its base and its own
// triples, parsed.
type extension struct {
	base string
	own  *dsl.Entity
}

// Extend declares entity name as base's fields and methods, then the
// fields decl declares, and registers it as Expose does. A triple
// "mail", "", "unexpose" drops base's field mail (by its declared name:
// a top-level field of base); declaring a field base has without
// unexposing it first is a declaration error, as is unexposing a field
// base does not have. The methods are decl's when it declares some, else
// base's.
//
// Exposing base again (or extending it again) compiles the extension
// again: it keeps base's fields as they are now. When the extension no
// longer compiles (base lost a field it unexposes, a new field clashes),
// it keeps its last compiled form and Check reports why. Exposing name
// with Expose ends its being an extension.
func (r *Registry) Extend(name, base string, decl ...string) (*Entity, error) {
	own, perr := dsl.ParsePartial(name, unexposeTriples(decl)...)
	r.mu.Lock()
	defer r.mu.Unlock()
	for b := base; ; {
		if b == name {
			return nil, fmt.Errorf("entity: Extend(%q, %q): %q extends %q already: an entity cannot extend itself", name, base, base, name)
		}
		x, ok := r.exts[b]
		if !ok {
			break
		}
		b = x.base
	}
	e, err := r.extend(name, base, own)
	if perr != nil {
		// The triples that parsed are compiled too, as Expose does, so
		// that one syntax error hides no other error.
		l := perr.(dsl.ErrorList)
		var cl dsl.ErrorList
		if errors.As(err, &cl) {
			l = append(l, cl...)
			l.Sort()
		}
		return nil, l
	}
	if err != nil {
		return nil, err
	}
	if err := r.store(name, e); err != nil {
		return nil, err
	}
	if r.exts == nil {
		r.exts = map[string]*extension{}
	}
	r.exts[name] = &extension{base: base, own: own}
	delete(r.extErrs, name)
	r.reextend(name, map[string]bool{name: true})
	return e, nil
}

// MustExtend is like Extend but panics with every declaration error.
func (r *Registry) MustExtend(name, base string, decl ...string) *Entity {
	e, err := r.Extend(name, base, decl...)
	if err != nil {
		panic(fullError(err))
	}
	return e
}

// unexposeTriples returns decl with the type of each "name", "",
// "unexpose" triple filled in, so that it parses.
func unexposeTriples(decl []string) []string {
	var out []string
	for i := 0; i+2 < len(decl); i += 3 {
		word, _, _ := strings.Cut(strings.TrimSpace(decl[i+2]), " ")
		word, _, _ = strings.Cut(word, "|")
		if strings.TrimSpace(decl[i+1]) == "" && rules.LookupDirective(word) == rules.DirectiveUnexpose {
			if out == nil {
				out = append([]string(nil), decl...)
			}
			out[i+1] = "none"
		}
	}
	if out == nil {
		return decl
	}
	return out
}

// extend compiles extension name of base, with its own parsed triples.
func (r *Registry) extend(name, base string, own *dsl.Entity) (*Entity, error) {
	b := r.Lookup(base)
	if b == nil {
		return nil, fmt.Errorf("%w: Extend(%q, %q): no entity %q to extend", ErrUnknownEntity, name, base, base)
	}
	whole, errs := combine(name, b.decl, own)
	e, err := compile(r, whole)
	var cl dsl.ErrorList
	if errors.As(err, &cl) {
		errs = append(errs, cl...)
	} else if err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return e, nil
}

// combine returns the declaration of extension name: base's fields but
// those own unexposes, then own's other fields.
func combine(name string, base, own *dsl.Entity) (*dsl.Entity, dsl.ErrorList) {
	var errs dsl.ErrorList
	b := base.Clone()
	fields := b.Fields
	var added []*dsl.Field
	for _, f := range own.Fields {
		if !unexposes(f) {
			added = append(added, f)
			continue
		}
		if len(f.Rules) != 1 {
			errs.Add(dsl.NewError(name, f, f.Pos, "unexpose takes a field of the base out: write it alone, \""+f.Name+"\", \"\", \"unexpose\""))
			continue
		}
		i := fieldIndex(fields, f.Name)
		switch {
		case i < 0 && fieldIndex(b.Fields, f.Name) >= 0:
			errs.Add(dsl.NewError(name, f, f.Pos, fmt.Sprintf("unexpose: field %q of %q is unexposed already", f.Name, base.Name)))
			continue
		case i < 0:
			errs.Add(dsl.NewError(name, f, f.Pos, fmt.Sprintf("unexpose: %q has no field %q", base.Name, f.Name)))
			continue
		}
		fields = append(fields[:i:i], fields[i+1:]...)
	}
	kept := added[:0:0]
	for _, f := range added {
		if fieldIndex(fields, f.Name) >= 0 {
			errs.Add(dsl.NewError(name, f, f.Pos, fmt.Sprintf("field %q is a field of %q: unexpose it first (\"%s\", \"\", \"unexpose\") to declare it anew", f.Name, base.Name, f.Name)))
			continue // left out, so that the compiler does not report the clash again
		}
		kept = append(kept, f)
	}
	added = kept
	methods := own.Methods
	if len(methods) == 0 {
		methods = b.Methods
	}
	return &dsl.Entity{Name: name, Methods: methods, Fields: append(fields, added...)}, errs
}

// unexposes reports whether a field of Extend's triples is an unexpose.
func unexposes(f *dsl.Field) bool {
	for _, r := range f.Rules {
		if rules.LookupDirective(r.Name) == rules.DirectiveUnexpose {
			return true
		}
	}
	return false
}

// fieldIndex returns the index of the field named name, or -1.
func fieldIndex(fields []*dsl.Field, name string) int {
	for i, f := range fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// reextend compiles the extensions of base again, and theirs in turn; one
// that no longer compiles keeps its last form, and Check reports why.
// done holds the entities compiled in this pass.
func (r *Registry) reextend(base string, done map[string]bool) {
	for name, x := range r.exts {
		if x.base != base || done[name] {
			continue
		}
		done[name] = true
		e, err := r.extend(name, base, x.own)
		if err == nil {
			err = r.store(name, e)
		}
		if err != nil {
			if r.extErrs == nil {
				r.extErrs = map[string]error{}
			}
			r.extErrs[name] = err
			continue
		}
		delete(r.extErrs, name)
		r.reextend(name, done)
	}
}

// checkExtensions reports, for Check, every extension that no longer
// compiles since its base was exposed again.
func (r *Registry) checkExtensions(errs *dsl.ErrorList) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for name, err := range r.extErrs {
		var l dsl.ErrorList
		if errors.As(err, &l) {
			for _, e := range l {
				x := *e
				x.Msg = fmt.Sprintf("%s (since %q, which it extends, was exposed again; it keeps its last form)", x.Msg, r.exts[name].base)
				errs.Add(&x)
			}
			continue
		}
		errs.Add(&dsl.Error{Entity: name, Pos: dsl.Pos{Offset: -1}, Msg: err.Error()})
	}
}
