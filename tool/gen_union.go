package tool

// expose gen's unions: a union field ($card|$invoice by 'method') is a
// member of an interface type its variants' structs implement
// (entity.Variant), which a handler switches on; the struct holding it
// decodes it by its key (UnmarshalJSON), so that Bind fills it.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

// unionMember is a member of a struct that holds a union.
type unionMember struct {
	m    *member
	f    *entity.Field
	name string // the interface type's name: the struct's and the member's
	list bool
}

// unionsOf returns the members of st that hold a union.
func unionsOf(st *goStruct) []unionMember {
	var out []unionMember
	for _, m := range st.members {
		if m.omitted == "" && m.typ.union != nil {
			out = append(out, unionMember{m: m, f: m.typ.union, name: st.name + m.goName, list: m.typ.union.List})
		}
	}
	return out
}

// nameUnions gives the union members of st their types: the interface
// named for the struct and the member (OrderPayment), a slice of it for a
// list.
func nameUnions(st *goStruct) {
	for _, u := range unionsOf(st) {
		u.m.typ.expr, u.m.typ.ptr = u.name, false
		if u.list {
			u.m.typ.expr = "[]" + u.name
		}
	}
}

// writeUnions writes, for a struct that holds unions, each union's
// interface type and decoder, and the struct's UnmarshalJSON.
func writeUnions(b *strings.Builder, st *goStruct, names typeNames) {
	us := unionsOf(st)
	if len(us) == 0 {
		return
	}
	for _, u := range us {
		var types []string
		for _, v := range u.f.Variants {
			types = append(types, "*"+names.of(v, st.dir))
		}
		key := strconv.Quote(u.f.By)
		b.WriteString("\n")
		writeDoc(b, "", wrap(u.name+" is field "+strconv.Quote(u.f.Name)+" of "+st.name+", a union: one of "+joinAnd(types)+
			", told by its key "+key+" (entity.Variant). A handler switches on the type it holds; Make writes the key first."))
		b.WriteString("type " + u.name + " interface{ Variant() string }\n\n")
		writeDoc(b, "", wrap("decode"+u.name+" decodes one "+u.name+" from its JSON, by its key: nil for null."))
		b.WriteString("func decode" + u.name + "(text []byte) (" + u.name + ", error) {\n")
		b.WriteString("\tif len(text) == 0 || string(text) == \"null\" {\n\t\treturn nil, nil\n\t}\n")
		b.WriteString("\tvar key struct {\n\t\tV *string `json:" + strconv.Quote(u.f.By) + "`\n\t}\n")
		b.WriteString("\tif err := json.Unmarshal(text, &key); err != nil {\n\t\treturn nil, err\n\t}\n")
		b.WriteString("\tvar v " + u.name + "\n\tswitch {\n\tcase key.V == nil:\n\t\treturn nil, errors.New(" +
			strconv.Quote(u.name+": no key "+key) + ")\n")
		for i, v := range u.f.Variants {
			b.WriteString("\tcase *key.V == " + strconv.Quote(v) + ":\n\t\tv = new(" + strings.TrimPrefix(types[i], "*") + ")\n")
		}
		b.WriteString("\tdefault:\n\t\treturn nil, errors.New(" + strconv.Quote(u.name+": the key "+key+" names no variant") + ")\n\t}\n")
		b.WriteString("\treturn v, json.Unmarshal(text, v)\n}\n")
	}
	b.WriteString("\n")
	writeDoc(b, "", wrap("UnmarshalJSON decodes x from its JSON, each union by its key (Bind and Object.Bind call it)."))
	b.WriteString("func (x *" + st.name + ") UnmarshalJSON(text []byte) error {\n")
	b.WriteString("\ttype plain " + st.name + "\n\tvar aux struct {\n\t\t*plain\n")
	for _, u := range us {
		b.WriteString("\t\t" + u.m.goName + " json.RawMessage `json:" + strconv.Quote(u.m.json) + "`\n")
	}
	b.WriteString("\t}\n\taux.plain = (*plain)(x)\n")
	b.WriteString("\tif err := json.Unmarshal(text, &aux); err != nil {\n\t\treturn err\n\t}\n\tvar err error\n")
	for _, u := range us {
		if !u.list {
			b.WriteString("\tif x." + u.m.goName + ", err = decode" + u.name + "(aux." + u.m.goName + "); err != nil {\n\t\treturn err\n\t}\n")
			continue
		}
		b.WriteString("\tx." + u.m.goName + " = nil\n")
		b.WriteString("\tif len(aux." + u.m.goName + ") > 0 && string(aux." + u.m.goName + ") != \"null\" {\n")
		b.WriteString("\t\tvar elems []json.RawMessage\n\t\tif err := json.Unmarshal(aux." + u.m.goName + ", &elems); err != nil {\n\t\t\treturn err\n\t\t}\n")
		b.WriteString("\t\tx." + u.m.goName + " = make([]" + u.name + ", len(elems))\n")
		b.WriteString("\t\tfor i, el := range elems {\n\t\t\tif x." + u.m.goName + "[i], err = decode" + u.name + "(el); err != nil {\n\t\t\t\treturn err\n\t\t\t}\n\t\t}\n\t}\n")
	}
	b.WriteString("\treturn nil\n}\n")
}

// variantClashes returns the errors of the variants whose struct has a
// member named Variant, which the method a union's interface asks for
// would clash with.
func variantClashes(made map[string][2]*goStruct) []*dsl.Error {
	var errs []*dsl.Error
	for _, sts := range made {
		for _, st := range sts {
			if st == nil {
				continue
			}
			for _, u := range unionsOf(st) {
				for _, v := range u.f.Variants {
					vs := made[v][st.dir]
					if vs == nil {
						continue
					}
					for _, m := range vs.members {
						if m.goName == "Variant" && len(m.fields) > 0 {
							errs = append(errs, genError(v, m.fields[0].Decl, "the field's Go name, Variant, is the method a union's variant has (entity.Variant): declare it under another name and keep its key with rename"))
						}
					}
				}
			}
		}
	}
	return errs
}

// writeVariants writes the Variant method of every struct a union holds,
// once each, and reports whether there was any.
func writeVariants(b *strings.Builder, structs []*goStruct, names typeNames) bool {
	seen := map[string]bool{}
	var lines []string
	for _, st := range structs {
		for _, u := range unionsOf(st) {
			for _, v := range u.f.Variants {
				t := names.of(v, st.dir)
				if t == "" || seen[t] {
					continue
				}
				seen[t] = true
				lines = append(lines, "// Variant returns \""+v+"\", the name of the variant *"+t+" holds.\nfunc (*"+t+") Variant() string { return "+strconv.Quote(v)+" }\n")
			}
		}
	}
	slices.Sort(lines)
	for _, l := range lines {
		b.WriteString("\n" + l)
	}
	return len(seen) > 0
}
