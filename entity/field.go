package entity

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/rules"
)

// Field describes one output field of a compiled entity, for tools that
// read declarations: documentation, test kits, sample generators. It is a
// view of the plan; the request path never uses it.
type Field struct {
	Name     string        // the declared name, read from the input
	Key      string        // the output key, after rename
	Kind     dsl.FieldKind // value, group or reference
	Type     rules.Kind    // dsl.FieldValue: the declared type (rules.Any for none)
	Required bool          // `req`
	Secret   bool          // `secret`
	// HasDefault reports a default. Default is the JSON it writes (nil for a
	// bare default on a reference, which makes the entity from an empty
	// input).
	HasDefault bool
	Default    []byte
	Rules      []string   // names of the checks, in order (not req, default, rename)
	Fields     []*Field   // dsl.FieldGroup: the group's fields
	Ref        string     // dsl.FieldRef: the entity referenced
	Decl       *dsl.Field // a copy of the field as declared, the caller's to modify (a group's holds its Fields' Decls)

	// List reports a typed list: `[]string` (a value field of Type
	// rules.List) or `[]$user` (a reference that is always a list). Each
	// describes the elements of a value field's typed list: a value Field of
	// the element type, whose Rules, Check and ReadJSON are those of
	// `each 'rules'` (its Decl holds them as rules); nil otherwise.
	List bool
	Each *Field
	// One reports a `$name` that holds exactly one object in responses
	// too, in a registry of SingleRefs (a list given to it is the server's
	// error); otherwise a response's `$name` is made from an object or,
	// element by element, from a list of them. A request's `$name` is
	// always one object.
	One bool
	// Format is the field's `format` as written after the word ("unix",
	// "fixed 2", "'2006-01-02'"), or "". ReadJSON then reads what the
	// format writes, and Write writes a value with it.
	Format string

	// Per-call shaping: `lazy` (written only when a selection names it;
	// a response's only, so RequestFields never reports it: a request
	// reads a lazy field like any other), the flags of `if` and `unless`,
	// the versions of `since` and `until` (normalized: "v2.1"; "" when
	// there is none).
	Lazy         bool
	If, Unless   []string
	Since, Until string

	// OmitNil and OmitEmpty: the key is left out when the value is null
	// (omitnil), or also "", 0, false, [] or {} (omitempty). ReadOnly:
	// written by responses, never read from requests; WriteOnly: read from
	// requests, never written by responses.
	OmitNil, OmitEmpty  bool
	ReadOnly, WriteOnly bool
	// Merge: a $ref whose entity's keys are written into this object
	// instead of under Key (see Entity for its fields).
	Merge bool
	// From is the input path the field reads (`from 'a.b.0.c'`: a, b, 0,
	// c), nil when it reads its Name; a group's fields read the object
	// there. A request reads the wire form and no from path.
	From []string
	// Cross holds the field's cross-field rules that its view judges
	// (required_if, required_with, required_without, excluded_with).
	Cross []CrossRule

	// Doc is the field's description: its `doc 'text'`, or in a .entity
	// file the comment lines directly above it. Example is its `example
	// 'value'` as the field writes it (judged by its rules at declaration),
	// nil for none. Tools publish neither for a secret field's value.
	Doc     string
	Example []byte

	// In is where a request reads the field (RequestFields only): "path",
	// "query", "header" or "cookie", under Key; "" for the body (or the
	// query of a request without one).
	In string

	node *node
	_    [0]func() // not comparable
}

// A CrossRule is a cross-field rule of a Field: it judges the field with
// the siblings it names, by their keys in the Field's view. Values holds,
// for required_if, the JSON the sibling writes for each of its values (the
// caller must not modify it).
type CrossRule struct {
	Rule   string // "required_if", "required_with", "required_without" or "excluded_with"
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
func fieldsOf(p *objectPlan, decls []*dsl.Field) []*Field {
	if len(decls) != len(p.nodes) {
		decls = nil // not the plan's declaration: copy field by field
	}
	fs := make([]*Field, len(p.nodes))
	for i, n := range p.nodes {
		var decl *dsl.Field
		if decls != nil && decls[i] != nil && decls[i].Name == n.decl.Name && decls[i].Pos == n.decl.Pos {
			decl = decls[i]
		} else {
			decl = n.decl.Clone()
		}
		f := &Field{Name: n.decl.Name, Key: n.out, Type: n.typ, Required: n.req, Secret: n.secret,
			HasDefault: n.hasDefault, Decl: decl, node: n}
		if p.dir == dirRequest { // the key a client sends: a parameter's name where it is
			f.Key, f.In = n.in, srcNames[n.src]
		}
		if n.defJSON != nil {
			f.Default = append([]byte(nil), n.defJSON...)
		}
		f.Rules = append([]string(nil), n.ruleNames...)
		f.Doc = n.doc
		for _, cr := range p.cross {
			if cr.target == n {
				c := CrossRule{Rule: crossCodes[cr.kind]}
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
		f.ReadOnly, f.WriteOnly = n.readOnly, n.writeOnly
		f.Merge = n.merge
		if n.from != nil {
			f.From = append([]string{n.from.first.in}, n.from.rest...)
		}
		if c := n.cond; c != nil {
			f.If = slices.Clone(c.ifNames)
			f.Unless = slices.Clone(c.unlessNames)
			if c.since.set {
				f.Since = c.since.String()
			}
			if c.until.set {
				f.Until = c.until.String()
			}
		}
		switch n.kind {
		case dsl.FieldGroup:
			f.Fields = fieldsOf(n.group, decl.Fields)
		case dsl.FieldRef:
			f.Ref = n.ref.name
			f.List, f.One = n.refList, n.refOne
		}
		if n.format != nil {
			f.Format = n.format.text
		}
		if en := n.each; en != nil {
			f.List = true
			f.Each = &Field{Name: n.in, Key: n.out, Kind: dsl.FieldValue, Type: en.typ,
				Rules: append([]string(nil), en.ruleNames...), Decl: en.decl.Clone(), node: en}
			if en.format != nil {
				f.Each.Format = en.format.text
			}
		}
		fs[i] = f
	}
	return fs
}

// Optional reports whether a call may leave the field's key out: it is
// lazy, written under a condition (if, unless, since, until), left out
// when null or empty (omitnil, omitempty), or writeonly.
func (f *Field) Optional() bool {
	if f == nil {
		return false
	}
	if f.node != nil {
		return f.node.mayBeAbsent()
	}
	return f.Lazy || len(f.If) > 0 || len(f.Unless) > 0 || f.Since != "" || f.Until != "" ||
		f.OmitNil || f.OmitEmpty || f.WriteOnly
}

// Check judges an output value with the field's checks, the way Make
// judges a converted value: Input-stage checks (num, float, bool,
// timestamp) are given the value too, since an output value is already of
// the declared type. A Null value passes (absent values are for `req`). It
// returns the name of each failing rule with its error, in rule order.
//
// A field with transforms (trim, upper…) writes only what they return: a
// string they would change fails with the first transform's name.
func (f *Field) Check(v rules.Value) []RuleError {
	if f == nil {
		return nil
	}
	if f.node == nil || v.Kind == rules.Null {
		return nil
	}
	if f.node.format != nil && v.Kind != f.node.typ {
		return nil // what a format wrote (a unix date's number): the checks judged the value
	}
	var errs []RuleError
	if xs := f.node.xforms; len(xs) > 0 {
		tv, err := transformDefault(f.node, v)
		switch {
		case err != nil:
			errs = append(errs, RuleError{Rule: xs[0].info.code, Err: err})
		case v.Kind == rules.String && (tv.Kind != rules.String || tv.Str != v.Str):
			errs = append(errs, RuleError{Rule: xs[0].info.code, Err: errNotTransformed})
		}
	}
	for _, cks := range [2][]check{f.node.inChecks, f.node.outChecks} {
		for _, ck := range cks {
			if err := runCheck(ck, v); err != nil {
				errs = append(errs, RuleError{Rule: ck.rule, Err: err})
			}
		}
	}
	return errs
}

// errNotTransformed is what Check says of a string the field's transforms
// would change.
var errNotTransformed = errors.New("is not what the field's transforms write")

// Transform applies the field's transforms (trim, lower, upper, custom
// ones) to a value, as Make does after its conversion and before its
// checks; a field without transforms returns v. The result is the
// caller's: its text is a copy.
func (f *Field) Transform(v rules.Value) (rules.Value, error) {
	if f == nil {
		return v, nil
	}
	if f.node == nil || len(f.node.xforms) == 0 || v.Kind == rules.Null {
		return v, nil
	}
	return transformDefault(f.node, v)
}

// ReadJSON reads text, the JSON of one value as the field writes it (white
// space around it allowed), into the rules.Value its checks judge (see
// Check): what Object.Get decodes and what a test kit checks a payload
// with. ok is false when the JSON type is not the one the field's declared
// type writes, and why then says more when it can (": not an integer");
// also for groups and references, which are not value fields. Lists,
// objects and none values are decoded as encoding/json decodes them into
// an any (Value.Any), with Len their count of elements or keys.
//
// A formatted field is read as its format writes: a string for a date
// layout (rfc1123, date, '2006-01-02'), an integer for unix and unixms, a
// number for fixed, any string, number, bool or null for a registered
// format; Check does not judge those values (it judges values of the
// declared type: see Write).
func (f *Field) ReadJSON(text []byte) (v rules.Value, why string, ok bool) {
	if f == nil {
		return v, "", false
	}
	if f.Kind != dsl.FieldValue {
		return v, "", false
	}
	if f.node != nil && f.node.format != nil {
		switch w := f.node.format.writes; w {
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
	return decodeValue(f.Type, text)
}

// Unformat reads text, the JSON of a value as the field's built-in format
// writes it, back into the value of the field's declared type it
// formatted, as a request reads it: a date for a date layout, unix or
// unixms, a float for fixed (whose text has exactly its decimals). (A
// format may round or truncate: the value need not pass the checks the
// value before it passed.) ok is false with why saying what is wrong
// when the text is not one the format writes ("garbage" for format date);
// ok is false with an empty why when the field has no format, or a
// registered one (RegisterFormat), whose text cannot be read back.
func (f *Field) Unformat(text []byte) (v rules.Value, why string, ok bool) {
	if f == nil || f.node == nil || f.node.format == nil || f.node.format.user != nil {
		return v, "", false
	}
	fm := f.node.format
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

// Write returns the JSON the field writes for v, a value of its declared
// type, as Make writes it: with its format, if it has one.
func (f *Field) Write(v rules.Value) ([]byte, error) {
	if f == nil {
		return nil, errors.New("entity: Write: a nil *Field")
	}
	if f.Kind != dsl.FieldValue || f.node == nil {
		return nil, errors.New("entity: Write: not a value field")
	}
	if f.node.format != nil && v.Kind != rules.Null {
		return f.node.format.append(nil, v)
	}
	return appendValue(nil, f.node.typ, v, defaultDepth, maxOutputLimit)
}

// Entity returns the entity a reference field references, or nil when it is not
// declared.
func (f *Field) Entity() *Entity {
	if f == nil {
		return nil
	}
	if f.node == nil || f.node.ref == nil {
		return nil
	}
	return f.node.ref.e.Load()
}

// Nullable reports whether Make can write null for the field: never for a
// group, nor where a default fills the value (unless the default is itself
// null), nor on a `req` field.
func (f *Field) Nullable() bool {
	if f == nil {
		return false
	}
	if f.node != nil {
		return f.node.writesNull()
	}
	switch {
	case f.Kind == dsl.FieldGroup:
		return false
	case f.HasDefault && !(f.node != nil && f.node.defNull):
		return false
	}
	return !f.Required
}

// mayBeAbsent reports whether a call may leave the field's key out of
// Make's output: it is lazy, written under a condition (if, unless, since,
// until), left out when null or empty (omitnil, omitempty), or writeonly.
func (n *node) mayBeAbsent() bool {
	return n.lazy || n.cond != nil || n.omit != omitNone || n.writeOnly
}

// writesNull reports whether Make may write null for the field: never for
// a group, nor where a default fills the value (unless the default is
// itself null), nor on a `req` field.
func (n *node) writesNull() bool {
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
