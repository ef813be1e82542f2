package entity

import (
	"errors"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/engine"
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
	Rules      []string // names of the checks, in order (not req, default, rename)
	// Uses are the rules the field uses (its checks and transforms, not
	// its directives), in the order declared, each with its definition in
	// the registry as the field was compiled and its arguments: what tools
	// read of a rule (its Schema and Sample hooks) without looking its
	// name up again.
	Uses   []RuleUse
	Fields []*Field // dsl.FieldGroup: the group's fields
	Ref    string   // dsl.FieldRef: the entity referenced (a union's: its variants' names joined by "|")
	// Variants, for a union ($card|$invoice), are its variants' names in
	// the order declared, and By the key whose value, one of them, tells
	// which variant an object is (see Field.Variant); nil and "" for any
	// other field.
	Variants []string
	By       string
	Decl     *dsl.Field // a copy of the field as declared, the caller's to modify (a group's holds its Fields' Decls)

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
	// Immutable: set once (`immutable`). A request that creates
	// (MakeRequest, Bind) reads it as any field, and a response writes
	// it; a Patch may send the value the field holds, or give one where
	// it holds none (null), but changing or clearing a value it holds is
	// a failure of code "immutable" at its path.
	Immutable bool
	// JSONTyped (RequestFields only): a value a request's JSON body gives
	// as its JSON type only, in a registry of JSONTypes: a JSON number
	// for a number or float, a boolean for a bool, RFC 3339 date-time
	// text for a date (a typed list's elements, in Each). A parameter and
	// a field with a format say false; a form body's fields are text,
	// read as parameters are, whatever it says.
	JSONTyped bool
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
	// query of a request without one). A request reads a parameter field
	// only at its top level: below it (the entity referenced or merged into
	// a group), the field is the server's, as a readonly one is.
	In string

	node *engine.Node
	_    [0]func() // not comparable
}

// A RuleUse is one rule of a Field as compiled: the name it was written
// under (an alias's too), its arguments as written, and its definition.
type RuleUse struct {
	Name string
	Args []string
	Def  rules.Def
}

// usesOf returns the RuleUses of the engine's.
func usesOf(us []engine.RuleUse) []RuleUse {
	if us == nil {
		return nil
	}
	out := make([]RuleUse, len(us))
	for i, u := range us {
		out[i] = RuleUse(u)
	}
	return out
}

// A CrossRule is a cross-field rule of a Field: it judges the field with
// the siblings it names, by their keys in the Field's view. Values holds,
// for required_if, the JSON the sibling writes for each of its values (the
// caller must not modify it).
type CrossRule struct {
	Rule   string // "required_if", "required_with", "required_without" or "excluded_with"
	Fields []string
	Values [][]byte
}

// fieldsOf returns the Fields of the engine's descriptors.
func fieldsOf(ds []*engine.FieldDesc) []*Field {
	if ds == nil {
		return nil
	}
	fs := make([]*Field, len(ds))
	for i, d := range ds {
		fs[i] = fieldOf(d)
	}
	return fs
}

func fieldOf(d *engine.FieldDesc) *Field {
	if d == nil {
		return nil
	}
	f := &Field{Name: d.Name, Key: d.Key, Kind: d.Kind, Type: d.Type, Required: d.Required, Secret: d.Secret,
		HasDefault: d.HasDefault, Default: d.Default, Rules: d.Rules, Uses: usesOf(d.Uses), Fields: fieldsOf(d.Fields), Ref: d.Ref, Variants: d.Variants, By: d.By, Decl: d.Decl,
		List: d.List, One: d.One, Each: fieldOf(d.Each), Format: d.Format, Lazy: d.Lazy, If: d.If, Unless: d.Unless,
		Since: d.Since, Until: d.Until, OmitNil: d.OmitNil, OmitEmpty: d.OmitEmpty, ReadOnly: d.ReadOnly,
		WriteOnly: d.WriteOnly, Immutable: d.Immutable, JSONTyped: d.JSONTyped, Merge: d.Merge, From: d.From, Doc: d.Doc, Example: d.Example, In: d.In, node: d.Node}
	for _, c := range d.Cross {
		f.Cross = append(f.Cross, CrossRule{Rule: c.Rule, Fields: c.Fields, Values: c.Values})
	}
	return f
}

// Optional reports whether a call may leave the field's key out: it is
// lazy, written under a condition (if, unless, since, until), left out
// when null or empty (omitnil, omitempty), or writeonly.
func (f *Field) Optional() bool {
	if f == nil {
		return false
	}
	if f.node != nil {
		return engine.MayBeAbsent(f.node)
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
	if f == nil || f.node == nil {
		return nil
	}
	var errs []RuleError
	for _, rf := range engine.Check(f.node, v) {
		err := rf.Err
		if p, ok := err.(*engine.RulePanic); ok {
			err = panicOf(p)
		}
		errs = append(errs, RuleError{Rule: rf.Rule, Err: err})
	}
	return errs
}

// Transform applies the field's transforms (trim, lower, upper, custom
// ones) to a value, as Make does after its conversion and before its
// checks; a field without transforms returns v. The result is the
// caller's: its text is a copy.
func (f *Field) Transform(v rules.Value) (rules.Value, error) {
	if f == nil {
		return v, nil
	}
	return engine.Transform(f.node, v)
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
	return engine.ReadJSON(f.node, f.Type, text)
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
	if f == nil || f.node == nil {
		return v, "", false
	}
	return engine.Unformat(f.node, text)
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
	return engine.Write(f.node, v)
}

// Entity returns the entity a reference field references, or nil when it is not
// declared (and for a union, whose entities are its variants': see Variant).
func (f *Field) Entity() *Entity {
	if f == nil {
		return nil
	}
	return handleOf(engine.RefEntity(f.node))
}

// Variant returns the entity of the union's variant of that name, or nil
// when the field is no union, has no such variant, or it names no entity.
func (f *Field) Variant(name string) *Entity {
	if f == nil {
		return nil
	}
	return handleOf(engine.VariantEntity(f.node, name))
}

// Nullable reports whether Make can write null for the field: never for a
// group, nor where a default fills the value (unless the default is itself
// null), nor on a `req` field.
func (f *Field) Nullable() bool {
	if f == nil {
		return false
	}
	if f.node != nil {
		return engine.WritesNull(f.node)
	}
	switch {
	case f.Kind == dsl.FieldGroup:
		return false
	case f.HasDefault:
		return false
	}
	return !f.Required
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
	o := e.opts(request, opts)
	return fieldsOf(e.c.Fields(request, &o))
}
