package engine

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/rules"
)

// The descriptors of package entity's Field view: each compiled field of
// a view as tools read it (documentation, test kits, sample generators),
// and what a Field does with its node (Check, Transform, ReadJSON,
// Unformat, Write). The request path never uses them.

// Node is a compiled field, as a descriptor holds it.
type Node = node

// FieldDesc describes one field of a view: package entity's Field, whose
// doc says what each member is.
type FieldDesc struct {
	Name, Key                    string
	Kind                         dsl.FieldKind
	Type                         rules.Kind
	Required, Secret, HasDefault bool
	Default                      []byte
	Rules                        []string
	Uses                         []RuleUse
	Fields                       []*FieldDesc
	Ref                          string
	Variants                     []string // a union's variants' names; By its key
	By                           string
	Decl                         *dsl.Field
	List, One                    bool
	Each                         *FieldDesc
	Format                       string
	Lazy                         bool
	If, Unless                   []string
	Since, Until                 string
	OmitNil, OmitEmpty           bool
	ReadOnly, WriteOnly, Merge   bool
	Immutable, JSONTyped         bool
	From                         []string
	Cross                        []CrossDesc
	Doc                          string
	Example                      []byte
	In                           string
	Node                         *Node
}

// RuleUse is one rule a field uses, as compiled (package entity's
// RuleUse).
type RuleUse struct {
	Name string
	Args []string
	Def  rules.Def
}

// CrossDesc describes a cross-field rule of a field (package entity's
// CrossRule).
type CrossDesc struct {
	Rule   string
	Fields []string
	Values [][]byte

	// A required_if naming a field declared in several version ranges:
	// the values as each range's field writes them (ranges), for the view
	// of a call to pick its own (filterFields).
	ranges [][][]byte
	others []*node
}

// fieldsOf describes the fields of p. decls is the copy of their
// declarations, walked alongside the plan: a compiled entity has one node
// per declared field, in order.
func fieldsOf(p *objectPlan, decls []*dsl.Field) []*FieldDesc {
	if len(decls) != len(p.nodes) {
		decls = nil // not the plan's declaration: copy field by field
	}
	fs := make([]*FieldDesc, len(p.nodes))
	for i, n := range p.nodes {
		var decl *dsl.Field
		if decls != nil && decls[i] != nil && decls[i].Name == n.decl.Name && decls[i].Pos == n.decl.Pos {
			decl = decls[i]
		} else {
			decl = n.decl.Clone()
		}
		f := &FieldDesc{Name: n.decl.Name, Key: n.out, Type: n.typ, Required: n.req, Secret: n.secret,
			HasDefault: n.hasDefault, Decl: decl, Node: n}
		if p.dir == dirRequest { // the key a client sends: a parameter's name where it is
			f.Key, f.In, f.JSONTyped = n.in, srcNames[n.src], n.jsonTyped
		}
		if n.defJSON != nil {
			f.Default = append([]byte(nil), n.defJSON...)
		}
		f.Rules = append([]string(nil), n.ruleNames...)
		f.Uses = slices.Clone(n.uses)
		f.Doc = n.doc
		for _, cr := range p.cross {
			if cr.target == n {
				c := CrossDesc{Rule: crossCodes[cr.kind]}
				if len(cr.values) > 0 {
					c.Values = cr.values[0]
					if len(cr.values) > 1 {
						c.ranges, c.others = cr.values, cr.others
					}
				}
				for _, o := range cr.others {
					k := o.out
					if p.dir != dirResponse {
						k = o.in
					}
					if !slices.Contains(c.Fields, k) { // a name of several version ranges, once
						c.Fields = append(c.Fields, k)
					}
				}
				f.Cross = append(f.Cross, c)
			}
		}
		if n.example != nil {
			f.Example = append([]byte(nil), n.example...)
		}
		f.Kind = n.kind
		f.Lazy = n.lazy
		f.OmitNil, f.OmitEmpty = n.omit == omitNil, n.omit == omitEmpty
		f.ReadOnly, f.WriteOnly, f.Immutable = n.readOnly, n.writeOnly, n.immutable
		f.Merge = n.merge
		if n.from != nil {
			f.From = append([]string{n.from.first.in}, n.from.rest...)
		}
		if c := n.cond; c != nil {
			f.If = slices.Clone(c.ifNames)
			f.Unless = slices.Clone(c.unlessNames)
			if c.since.IsSet() {
				f.Since = c.since.String()
			}
			if c.until.IsSet() {
				f.Until = c.until.String()
			}
		}
		switch n.kind {
		case dsl.FieldGroup:
			f.Fields = fieldsOf(n.group, decl.Fields)
		case dsl.FieldRef:
			f.List, f.One = n.refList, n.refOne
			if u := n.union; u != nil {
				f.Ref, f.By = decl.Ref, u.key
				for _, v := range u.variants {
					f.Variants = append(f.Variants, v.name)
				}
				break
			}
			f.Ref = n.ref.name
		}
		if n.format != nil {
			f.Format = n.format.text
		}
		if en := n.each; en != nil {
			f.List = true
			f.Each = &FieldDesc{Name: n.in, Key: n.out, Kind: dsl.FieldValue, Type: en.typ,
				Rules: append([]string(nil), en.ruleNames...), Uses: slices.Clone(en.uses), Decl: en.decl.Clone(), Node: en,
				JSONTyped: p.dir == dirRequest && en.jsonTyped}
			if en.format != nil {
				f.Each.Format = en.format.text
			}
		}
		fs[i] = f
	}
	return fs
}

// RuleFailure is one failed check of a value judged out of any run: the
// rule's name and the error its check returned (a *RulePanic for one that
// panicked).
type RuleFailure struct {
	Rule string
	Err  error
}

// judgeStatic judges v with the checks of lists, in order, out of any run
// (a default or an example at compile time, a Field's Check), and returns
// the failures: every one when all, else the first.
func judgeStatic(v rules.Value, all bool, lists ...[]check) []RuleFailure {
	var fs []RuleFailure
	for _, cks := range lists {
		for _, ck := range cks {
			if err := runCheck(ck, v); err != nil {
				if fs = append(fs, RuleFailure{Rule: ck.rule, Err: err}); !all {
					return fs
				}
			}
		}
	}
	return fs
}

// Check judges an output value with the field's checks (package entity's
// Field.Check documents it).
func Check(n *Node, v rules.Value) []RuleFailure {
	if n == nil || v.Kind == rules.Null {
		return nil
	}
	if n.format != nil && v.Kind != n.typ {
		return nil // what a format wrote (a unix date's number): the checks judged the value
	}
	var errs []RuleFailure
	if xs := n.xforms; len(xs) > 0 {
		tv, err := transformDefault(n, v)
		switch {
		case err != nil:
			errs = append(errs, RuleFailure{Rule: xs[0].info.code, Err: err})
		case v.Kind == rules.String && (tv.Kind != rules.String || tv.Str != v.Str):
			errs = append(errs, RuleFailure{Rule: xs[0].info.code, Err: errNotTransformed})
		}
	}
	return append(errs, judgeStatic(v, true, n.inChecks, n.outChecks)...)
}

// errNotTransformed is what Check says of a string the field's transforms
// would change.
var errNotTransformed = errors.New("is not what the field's transforms write")

// Transform applies the field's transforms to a value (package entity's
// Field.Transform documents it).
func Transform(n *Node, v rules.Value) (rules.Value, error) {
	if n == nil || len(n.xforms) == 0 || v.Kind == rules.Null {
		return v, nil
	}
	return transformDefault(n, v)
}

// ReadJSON reads text, the JSON of one value as the field of type typ
// writes it (package entity's Field.ReadJSON documents it).
func ReadJSON(n *Node, typ rules.Kind, text []byte) (v rules.Value, why string, ok bool) {
	if n != nil && n.format != nil {
		switch w := n.format.writes; w {
		case rules.Any:
			v = decodeAnyValue(bytes.TrimSpace(text))
			if v.Kind == rules.List || v.Kind == rules.Object || v.Kind == rules.Any {
				return rules.Value{}, ": not a string, number or bool", false
			}
			return v, "", true
		default:
			return decodeValue(w, text)
		}
	}
	return decodeValue(typ, text)
}

// Unformat reads back what the field's built-in format wrote (package
// entity's Field.Unformat documents it).
func Unformat(n *Node, text []byte) (v rules.Value, why string, ok bool) {
	if n == nil || n.format == nil || n.format.user != nil {
		return v, "", false
	}
	fm := n.format
	text = bytes.TrimSpace(text)
	if _, why, ok := decodeValue(fm.writes, text); !ok {
		if why == "" {
			why = ": not what " + fm.text + " writes"
		}
		return v, why, false
	}
	if fm.layout == "" && fm.unit == 0 { // fixed
		frac := 0
		if i := bytes.IndexByte(text, '.'); i >= 0 {
			frac = len(text) - i - 1
		}
		if frac != fm.decimals || bytes.ContainsAny(text, "eE") {
			return v, fmt.Sprintf(": not written with %d decimals (%s)", fm.decimals, fm.text), false
		}
		return decodeValue(rules.Float, text)
	}
	if v, ok = fm.unformat(text); !ok {
		return v, ": not a date as " + fm.text + " writes it", false
	}
	return v, "", true
}

// Write returns the JSON a value field writes for v, a value of its
// declared type, as Make writes it: with its format, if it has one.
func Write(n *Node, v rules.Value) ([]byte, error) {
	if n.format != nil && v.Kind != rules.Null {
		return n.format.append(nil, v)
	}
	return appendValue(nil, n.typ, v, defaultDepth, maxOutputLimit)
}

// RefEntity returns the entity a reference field's slot holds now, or nil.
func RefEntity(n *Node) *Entity {
	if n == nil || n.ref == nil {
		return nil
	}
	return n.ref.e.Load()
}

// VariantEntity returns the entity a union field's variant of that name
// holds now, or nil.
func VariantEntity(n *Node, name string) *Entity {
	if n == nil || n.union == nil {
		return nil
	}
	if v := n.union.find(name); v != nil {
		return v.slot.e.Load()
	}
	return nil
}

// MayBeAbsent reports whether a call may leave the field's key out of
// Make's output: it is lazy, written under a condition (if, unless, since,
// until), left out when null or empty (omitnil, omitempty), or writeonly.
func MayBeAbsent(n *Node) bool {
	return n.lazy || n.cond != nil || n.omit != omitNone || n.writeOnly
}

// WritesNull reports whether Make may write null for the field: never for
// a group, nor where a default fills the value (unless the default is
// itself null), nor on a `req` field.
func WritesNull(n *Node) bool {
	switch {
	case n.kind == nodeGroup:
		return false
	case n.kind == nodeRef && n.refDefault:
		return false
	case n.kind == nodeValue && n.hasDefault && !n.defNull:
		return false
	}
	return !n.req
}

// Fields returns the descriptors of the fields a call of e with the
// options o sees: a response's (no writeonly field) or a request's (no
// readonly one), none that the call's flags or version hide.
func (e *Entity) Fields(request bool, o *Opts) []*FieldDesc {
	var r run
	r.ent = e
	d := dirResponse
	if request {
		d = dirRequest
	}
	if o != nil && o.Shaped {
		r.shapeFlags(e, o)
	}
	return filterFields(fieldsOf(e.views[d], nil), &r, request)
}

// shapeFlags reads only the flags and version of o (no selection).
func (r *run) shapeFlags(e *Entity, o *Opts) {
	t := e.env.flags.Load()
	for _, x := range o.List {
		switch x.Kind {
		case OptWith, OptWithContext:
			for _, name := range x.List {
				if b, ok := t.declaredBit(name); ok {
					r.flags |= 1 << b
				}
			}
		case OptVersion:
			if v, ok := dsl.ParseVersion(x.Str); ok {
				r.ver = v
			}
		}
	}
}

func filterFields(fs []*FieldDesc, r *run, request bool) []*FieldDesc {
	out := fs[:0]
	for _, f := range fs {
		n := f.Node
		if n != nil && (n.writeOnly && !request || n.readOnly && request || n.cond != nil && !r.shown(n.cond)) {
			continue
		}
		if f.Fields != nil {
			f.Fields = filterFields(f.Fields, r, request)
		}
		for i, c := range f.Cross {
			for k, o := range c.others { // the call's version range's values
				if o.cond == nil || r.shown(o.cond) {
					f.Cross[i].Values = c.ranges[k]
					break
				}
			}
		}
		out = append(out, f)
	}
	return out
}
