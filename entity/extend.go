package entity

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/rules"
)

// This file holds Extend: an entity declared as another one (its base)
// plus fields of its own, minus the base's fields it unexposes. The
// registry remembers how each extension was declared, and the extensions
// of each base, so that exposing a base again compiles its extensions
// again in the same change (change.go), as references see a re-exposed
// entity at once.

// extension is how Extend declared an entity: its base and its own
// triples, parsed.
type extension struct {
	base string
	own  *dsl.Entity
}

// Extend declares entity name as base's fields and methods, then the
// fields decl declares, and registers it as Expose does. A triple
// "mail", "", "unexpose" drops base's field mail (by its declared name:
// a top-level field of base; every field of that name, when base
// declares it in several version ranges); declaring a field base has
// without unexposing it first is a declaration error, as is unexposing a
// field base does not have. The methods (and the word form among them:
// see Entity.ReadsForms) are decl's when it declares a methods string,
// else base's.
//
// Exposing base again (or extending it again) compiles the extension
// again in the same step: it keeps base's fields as they are now. When the
// extension would no longer compile (base lost a field it unexposes, a new
// field clashes), that Expose fails and changes nothing, and its errors
// name the extension. Exposing name with Expose ends its being an
// extension.
func (r *Registry) Extend(name, base string, decl ...string) (*Entity, error) {
	if r == nil {
		return nil, errNilRegistry
	}
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
	b := r.Lookup(base)
	if b == nil {
		return nil, fmt.Errorf("%w: Extend(%q, %q): no entity %q to extend", ErrUnknownEntity, name, base, base)
	}
	ch := r.begin()
	defer ch.end()
	e, err := r.extend(name, b, own)
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
	ch.stage(e)
	ch.setExtension(name, &extension{base: base, own: own})
	if err := ch.commit(name, "extended"); err != nil {
		return nil, err
	}
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
func (r *Registry) extend(name string, base *Entity, own *dsl.Entity) (*Entity, error) {
	whole, errs := combine(name, base.c.DeclRef(), own)
	e, err := r.compile(whole)
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
		// Every field of the name: one declared in several version
		// ranges is one field to unexpose.
		fields = slices.DeleteFunc(slices.Clone(fields), func(x *dsl.Field) bool { return x.Name == f.Name })
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
	methods, forms := own.Methods, own.Forms
	if len(methods) == 0 && !forms {
		methods, forms = b.Methods, b.Forms
	}
	return &dsl.Entity{Name: name, Methods: methods, Forms: forms, Fields: append(fields, added...)}, errs
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

// setExtension records that name extends x.base with its own triples
// x.own, or, for a nil x, that name is no extension; the caller holds mu.
func (r *Registry) setExtension(name string, x *extension) {
	if old, ok := r.exts[name]; ok {
		delete(r.extendedBy[old.base], name)
		if len(r.extendedBy[old.base]) == 0 {
			delete(r.extendedBy, old.base)
		}
		delete(r.exts, name)
	}
	if x == nil {
		return
	}
	if r.exts == nil {
		r.exts = map[string]*extension{}
		r.extendedBy = map[string]map[string]bool{}
	}
	r.exts[name] = x
	if r.extendedBy[x.base] == nil {
		r.extendedBy[x.base] = map[string]bool{}
	}
	r.extendedBy[x.base][name] = true
}
