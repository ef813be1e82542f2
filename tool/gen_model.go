package tool

// expose gen's model: the Go struct types of entities, one a direction,
// built from entity's Field views (Entity.Fields and RequestFields) of
// every audience the declarations name.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// direction is the way a generated struct serves an entity.
type direction int

const (
	response direction = iota // the struct Make reads to write a response
	request                   // the struct Bind fills from a request
)

// goType is the Go type of a struct member: a named or predeclared type
// (expr), or an anonymous struct or slice that a `from` path's steps make.
type goType struct {
	expr    string    // "int64", "time.Time", "[]Customer", "map[string]any"; "" for an anonymous struct or slice
	ptr     bool      // *expr: a value that can be null
	slice   bool      // []elem, elem an anonymous struct or slice (a from path's index step)
	elem    *goType   // slice: the element type
	members []*member // an anonymous struct (expr "" and not slice)
	// union is the union field ($card|$invoice) whose interface type the
	// member holds (a slice of it for []$a|$b): named for its struct and
	// member (unionName), its expr set once they are named.
	union *entity.Field
}

// member is one field of a generated struct.
type member struct {
	json   string // the json tag: the declared name, or a from path's step
	goName string
	typ    *goType
	// fields are the declared fields the member holds, in declaration
	// order: more than one when fields share a declared name (versions of
	// one key, a group's field named like a sibling), or a from path.
	fields []*entity.Field
	exprs  []string // the Go type each of fields asked for
	// omitted, when not empty, makes the member this comment only: a
	// field whose from path cannot be a Go type beside the others.
	omitted string
}

// goStruct is one generated type: an entity in one direction.
type goStruct struct {
	name    string
	ent     *entity.Entity
	dir     direction
	members []*member
}

// genError is an error of a declaration that no Go code can be generated
// for, at its place.
func genError(entityName string, d *dsl.Field, msg string) *dsl.Error {
	return dsl.NewError(entityName, d, d.Pos, msg)
}

// views returns, for every declared field of e that the direction reads or
// writes in some call, its Field as that direction's view gives it, by the
// field's position: the union of the views of every audience the
// declaration names (a field shown to admins only, a version's field), so
// that one struct serves every call.
func views(e *entity.Entity, decl *dsl.Entity, dir direction) map[dsl.Pos]*entity.Field {
	byPos := map[dsl.Pos]*entity.Field{}
	var add func(fs []*entity.Field)
	add = func(fs []*entity.Field) {
		for _, f := range fs {
			if f.Decl != nil {
				if _, ok := byPos[f.Decl.Pos]; !ok {
					byPos[f.Decl.Pos] = f
				}
			}
			add(f.Fields)
		}
	}
	for _, opts := range audiences(decl) {
		if dir == request {
			add(e.RequestFields(opts...))
		} else {
			add(e.Fields(opts...))
		}
	}
	return byPos
}

// audiences returns the call options of the audiences that see the
// declaration's fields: the call without options, and for each field the
// flags of its if (and its groups'), less those of its unless, with the
// version of a since on its path, or the lowest version, v0, when only
// until bounds it.
func audiences(decl *dsl.Entity) [][]entity.Option {
	out := [][]entity.Option{nil}
	seen := map[string]bool{"": true}
	var walk func(fs []*dsl.Field, ifs, unless, since []string, until bool)
	walk = func(fs []*dsl.Field, ifs, unless, since []string, until bool) {
		for _, f := range fs {
			fi, fu, fs, ft := slices.Clone(ifs), slices.Clone(unless), slices.Clone(since), until
			for _, r := range f.Rules {
				var args []string
				for _, a := range r.Args {
					args = append(args, a.Text)
				}
				switch rules.LookupDirective(r.Name) {
				case rules.DirectiveIf:
					fi = append(fi, args...)
				case rules.DirectiveUnless:
					fu = append(fu, args...)
				case rules.DirectiveSince:
					fs = append(fs, args...)
				case rules.DirectiveUntil:
					ft = true
				}
			}
			var flags []string
			for _, name := range fi {
				if !slices.Contains(fu, name) && !slices.Contains(flags, name) {
					flags = append(flags, name)
				}
			}
			slices.Sort(flags)
			versions := fs
			if len(versions) == 0 && ft {
				versions = []string{"v0"}
			}
			if len(versions) == 0 {
				versions = []string{""}
			}
			for _, v := range versions {
				key := strings.Join(flags, ",") + "@" + v
				if key == "@" || seen[key] {
					continue
				}
				seen[key] = true
				var opts []entity.Option
				if len(flags) > 0 {
					opts = append(opts, entity.With(flags...))
				}
				if v != "" {
					opts = append(opts, entity.Version(v))
				}
				out = append(out, opts)
			}
			walk(f.Fields, fi, fu, fs, ft)
		}
	}
	walk(decl.Fields, nil, nil, nil, false)
	return out
}

// placement is a declared field's place in its struct: the steps from the
// struct to its member (its name; on a response its from path), and its
// type.
type placement struct {
	steps []string
	typ   *goType
	field *entity.Field
	group bool // a group's from path: an anonymous struct its fields join
}

// buildStruct returns the struct of entity e in direction dir, named by names,
// and the errors of the names it cannot write.
func buildStruct(e *entity.Entity, dir direction, names typeNames) (*goStruct, []*dsl.Error) {
	decl := e.Decl()
	byPos := views(e, decl, dir)
	var places []placement
	var errs []*dsl.Error
	var walk func(fs []*dsl.Field, prefix []string)
	walk = func(fs []*dsl.Field, prefix []string) {
		for _, d := range fs {
			f := byPos[d.Pos]
			if f == nil {
				continue // not in this direction, or never shown
			}
			steps := append(slices.Clip(prefix), f.Name)
			fromPath := dir == response && f.From != nil
			if fromPath {
				steps = append(slices.Clip(prefix), f.From...)
			}
			if f.Kind == dsl.FieldGroup {
				if dir == response && f.From != nil { // its fields are read from the object there
					places = append(places, placement{steps: steps, typ: &goType{}, field: f, group: true})
					walk(d.Fields, steps)
				} else { // its fields sit beside its siblings
					walk(d.Fields, prefix)
				}
				continue
			}
			if !fromPath && len(prefix) == 0 { // a from path's steps are judged by pathMember
				if err := checkName(e.Name(), d, f.Name); err != nil {
					errs = append(errs, err)
					continue
				}
			}
			places = append(places, placement{steps: steps, typ: fieldType(f, dir, names), field: f})
		}
	}
	walk(decl.Fields, nil)
	st := &goStruct{ent: e, dir: dir}
	top := &goType{}
	for _, p := range places {
		m, why := pathMember(p)
		if why == "" {
			if merged := mergeMember(top, m); merged != nil {
				top = merged
				continue
			}
			why = fmt.Sprintf("its path meets the member %q, of another type", p.steps[0])
		}
		what := "Field"
		if p.group {
			what = "Group"
		}
		top.members = append(top.members, &member{fields: []*entity.Field{p.field},
			omitted: fmt.Sprintf("%s %q (read at %s) is left out: %s.", what, p.field.Name, quotePath(p.steps), why)})
	}
	st.members = top.members
	nameMembers(st.members)
	return st, errs
}

// checkName returns the error of a declared name that makes no Go field.
func checkName(entityName string, d *dsl.Field, name string) *dsl.Error {
	keep := "declare the field under another name and keep its key with rename '" + strings.ReplaceAll(name, "'", "''") + "'"
	if id, ok := goName(name); !ok {
		return genError(entityName, d, "the field's name makes no exported Go name ("+whyNotExported(id)+"): "+keep)
	}
	for _, r := range name {
		if !validTag(string(r)) {
			return genError(entityName, d, "the field's name holds "+strconv.QuoteRune(r)+
				", which a json struct tag cannot hold (Make and Bind would read the Go field's name instead): "+keep)
		}
	}
	return nil
}

// whyNotExported says why id, a goName result, is no exported name.
func whyNotExported(id string) string {
	r, _ := utf8.DecodeRuneInString(id)
	switch {
	case id == "":
		return "it has no letter or digit"
	case unicode.IsDigit(r):
		return "it starts with a digit"
	}
	return "it starts with " + strconv.QuoteRune(r) + ", a letter without an upper case"
}

// pathMember returns the member a placement adds to the top of its struct:
// for a from path of several steps, anonymous structs (a name step) and
// slices (an index step) down to the field's type. why says why a path
// cannot be written so (a step that makes no Go name).
func pathMember(p placement) (m *member, why string) {
	for i, s := range p.steps {
		if i > 0 && isIndex(s) {
			continue
		}
		if _, ok := goName(s); !ok || !validTag(s) {
			return nil, fmt.Sprintf("its path's step %q makes no Go field name", s)
		}
	}
	// From the field's type up: the member of the last name step holds
	// the field (and its doc).
	t := p.typ
	fields, exprs := []*entity.Field{p.field}, []string{p.typ.expr}
	if p.group {
		fields, exprs = nil, nil // the group's own fields carry the docs
	}
	for i := len(p.steps) - 1; i >= 1; i-- {
		if isIndex(p.steps[i]) {
			t = &goType{slice: true, elem: t}
			continue
		}
		t = &goType{members: []*member{{json: p.steps[i], typ: t, fields: fields, exprs: exprs}}}
		fields, exprs = nil, nil
	}
	return &member{json: p.steps[0], typ: t, fields: fields, exprs: exprs}, ""
}

// isIndex reports whether a from path's step is a list index: digits
// without a leading zero, as Make reads them.
func isIndex(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0 && strconv.Itoa(n) == s
}

// mergeMember returns the anonymous struct t with m added: a member of
// m's json name merged with m, or m appended. It returns nil when they
// cannot merge (a value and a struct under one name); t is not changed.
func mergeMember(t *goType, m *member) *goType {
	out := &goType{members: slices.Clone(t.members)}
	for i, old := range out.members {
		if old.omitted != "" || old.json != m.json {
			continue
		}
		typ := mergeType(old.typ, m.typ)
		if typ == nil {
			return nil
		}
		out.members[i] = &member{json: old.json, typ: typ,
			fields: slices.Concat(old.fields, m.fields), exprs: slices.Concat(old.exprs, m.exprs)}
		return out
	}
	out.members = append(out.members, m)
	return out
}

// mergeType returns the type that holds the values of a and b, or nil
// when none does: one named type (a pointer if either is); any for two
// named types that differ (a key declared as string until v2 and as
// number since); anonymous structs merged member by member, slices by
// their elements.
func mergeType(a, b *goType) *goType {
	switch {
	case a.expr != "" && b.expr != "":
		if a.expr != b.expr {
			return &goType{expr: "any"}
		}
		return &goType{expr: a.expr, ptr: a.ptr || b.ptr}
	case a.slice && b.slice:
		if e := mergeType(a.elem, b.elem); e != nil {
			return &goType{slice: true, elem: e}
		}
	case a.expr == "" && !a.slice && b.expr == "" && !b.slice:
		t := a
		for _, m := range b.members {
			if t = mergeMember(t, m); t == nil {
				return nil
			}
		}
		return t
	}
	return nil
}

// nameMembers gives the members of a struct, and those of its anonymous
// structs, their Go names: Go-cased json names, a clash settled by a
// number in member order.
func nameMembers(ms []*member) {
	s := scope{}
	for _, m := range ms {
		if m.omitted != "" {
			continue
		}
		id, _ := goName(m.json)
		m.goName = s.claim(id)
		for t := m.typ; t != nil; t = t.elem {
			nameMembers(t.members)
		}
	}
}

// fieldType returns the Go type of a value or reference field in direction
// dir: number int64, float float64, string string, bool bool, date
// time.Time, none any, list []any, object map[string]any, a typed list a
// slice of its element type, a $ref the referenced entity's struct of the
// direction ([]$ref a slice of it); a pointer to a scalar or a struct when
// the direction's view may hold null for it (Field.Nullable). Slices, maps
// and any hold null as nil.
func fieldType(f *entity.Field, dir direction, names typeNames) *goType {
	if f.Variants != nil {
		return &goType{expr: "any", union: f} // named in nameUnions
	}
	if f.Kind == dsl.FieldRef {
		name := names.of(f.Ref, dir)
		if f.List {
			return &goType{expr: "[]" + name}
		}
		return &goType{expr: name, ptr: f.Nullable()}
	}
	if f.Type == rules.List && f.Each != nil {
		return &goType{expr: "[]" + scalarType(f.Each.Type)}
	}
	t := &goType{expr: scalarType(f.Type)}
	switch f.Type {
	case rules.Int, rules.Float, rules.String, rules.Bool, rules.Time:
		t.ptr = f.Nullable()
	}
	return t
}

// scalarType is the Go type of a declared type.
func scalarType(k rules.Kind) string {
	switch k {
	case rules.Int:
		return "int64"
	case rules.Float:
		return "float64"
	case rules.String:
		return "string"
	case rules.Bool:
		return "bool"
	case rules.Time:
		return "time.Time"
	case rules.List:
		return "[]any"
	case rules.Object:
		return "map[string]any"
	}
	return "any"
}

// typeNames holds the Go type names of a registry's entities, for both
// directions.
type typeNames struct {
	resp, req map[string]string
}

func (n typeNames) of(entityName string, dir direction) string {
	if dir == request {
		return n.req[entityName]
	}
	return n.resp[entityName]
}

// nameTypes names the types of the entities, in order: every response
// type first (Customer for entity "customer"), then every request type
// (CustomerRequest), a clash settled by a number in that order; so that a
// type's name does not depend on which entities are generated. An entity
// whose name makes no exported name gets none (its error is reported when
// it is generated).
func nameTypes(ents []*entity.Entity) typeNames {
	n := typeNames{resp: map[string]string{}, req: map[string]string{}}
	s := scope{}
	for _, dir := range []direction{response, request} {
		for _, e := range ents {
			id, ok := goName(e.Name())
			if !ok {
				continue
			}
			if dir == request {
				n.req[e.Name()] = s.claim(id + "Request")
			} else {
				n.resp[e.Name()] = s.claim(id)
			}
		}
	}
	return n
}
