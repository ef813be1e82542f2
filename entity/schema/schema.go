package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// Mode says which direction of an entity a schema describes.
type Mode uint8

const (
	// Response describes what a response writes (Make, MakeJSON, Write):
	// the fields of [entity.Entity.Fields], under their output keys, groups as
	// nested objects, a merged $ref's keys at the level it is merged into
	// (not required), each field's type and whether it may be null, no
	// other keys. A field is required unless a call may leave it out
	// (lazy, omitnil, omitempty); readonly fields are marked readOnly. It
	// describes a call without Select, Only or Except, which may leave out
	// any field (check such payloads with entitytest.Conform).
	Response Mode = iota
	// Request describes the JSON body a request reads (MakeRequest, Bind):
	// the fields of [entity.Entity.RequestFields] under the keys a client sends,
	// groups as nested objects, required where `req` has no default to fill
	// it (a group where it is `req` or holds a required field; another group
	// may be null, read as an absent one), every form strict input converts
	// without loss ("27" for a
	// number); other keys are allowed (they are dropped). No parameter
	// (path, query, header and cookie fields, X- ones included:
	// entity.Field.In) is in it: a request reads those of the top level,
	// and of the entities merged there, outside its body (see
	// Components.Parameters), and those of a referenced entity, or of one
	// merged into a group, nowhere: they are the server's there, as
	// readonly fields are. Writeonly fields are marked
	// writeOnly.
	Request
	// Patch describes the body of a JSON Merge Patch (RFC 7396,
	// entity.MergePatchType) that [entity.Entity.Patch] reads: the body
	// fields of a Request (no readonly field, no parameter), every one
	// optional (a key left out keeps its value), null allowed where
	// clearing the field leaves a value the entity accepts (not on a `req`
	// field without a default, nor on a `req` group or one holding such a
	// field); a `$name`
	// is the referenced entity's Patch schema (a patch object merges into
	// it), a `[]$name` a list of its Request schema (a list is replaced);
	// no default (absent means unchanged) and no cross-field rule (they
	// judge the merged value, not the patch).
	Patch
)

// String returns "response", "request" or "patch".
func (m Mode) String() string {
	switch m {
	case Response:
		return "response"
	case Request:
		return "request"
	case Patch:
		return "patch"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// Dialect is the $schema of every document JSON writes.
const Dialect = "https://json-schema.org/draft/2020-12/schema"

// errNilEntity is the error of a schema asked of a nil *entity.Entity.
var errNilEntity = errors.New("schema: a nil *entity.Entity (Lookup finds nothing under a name that is not exposed)")

// JSON returns the JSON Schema (2020-12) of e in mode, as a call with opts
// sees e: [entity.With]'s flags and [entity.Version]'s version decide which fields there
// are (a field that only flagged calls see is not in a document made
// without the flag); other options are ignored. Without options it
// describes a call without flags and without a version.
//
// The document is indented, its keys sorted, the same bytes every time:
// an object schema with "properties", "required" (sorted) and, for a
// Response, "additionalProperties": false; each entity e references is in
// "$defs" under its name, recursion included (a `$ref` field is an object
// of that schema, or an array of them; one object in a registry of
// entity.SingleRefs, Field.One).
//
// A type maps as its [rules.Kind.Schema] says (number → integer, date → a
// date-time string…), for a Request as [rules.Kind.InputSchema] says (a
// number is an integer or its text), but in a registry of
// entity.JSONTypes, where a JSON body's number, float, bool and date
// fields (Field.JSONTyped) are the JSON type a response writes (integer,
// number, boolean, a date-time string) and nothing else. Each rule adds the keywords its
// [rules.Def]'s Schema hook gives, said of every form of a request's value
// as far as [rules.Kind.InputKeywords] can; what no keyword says (a rule without a
// Schema hook, a bound of a float's text, the checks of a formatted or
// transformed value, each rule by name) is named in the property's
// "$comment" and reported by Warnings, never dropped silently; in a
// request, the keywords of the rules that judge a transformed value ("trim
// | min 1") are said in words in its "description" ("Judged once
// transformed by "trim": minLength 1."). Nothing of a secret field's values is
// published: no enum, pattern, const, default or example. Under a secret
// `$ref` every field of the referenced entity, and of the entities it
// references, is secret: the reference names that entity's schema as a
// secret reference holds it ($defs "NAME.secret", a component
// "NAME.secret"), which lists the fields without their values.
//
// The schema of an entity holds its description (in a file, the comment
// lines above it: dsl.Entity.Doc) as "description", and so does a field's
// ([entity.Field.Doc]), followed, for an immutable field
// ([entity.Field.Immutable]), by words that say it is set once (in a
// Patch: that a patch may send its value, or give one where it holds
// none, but not change nor clear it; no keyword says so, and readOnly
// would say a request never sends it, which a request that creates
// does); a field's example ([entity.Field.Example]) as "examples"
// (but a secret field's, and in a request a formatted field's, whose
// example is what the format writes); an object's cross-field rules
// ([entity.Field.Cross]) are said as the library judges them: a field is
// present when its key is there and its value is not null (in a request,
// also when a default fills it), so that "required" is joined by a
// constraint that refuses null where the field may be null.
//
// It fails when a `$ref` of e, or of an entity it references, names no
// entity (see entity.Registry.Verify), or when mode is not one of Response,
// Request and Patch. The $defs of a Patch schema hold the Patch schemas
// of the entities a `$name` references, and under NAME.request the
// Request schemas of those a `[]$name` does.
func JSON(e *entity.Entity, mode Mode, opts ...entity.Option) ([]byte, error) {
	if e == nil {
		return nil, errNilEntity
	}
	g, err := newGen(mode, opts, func(w wanted) string { return defsRef(defsName(w, mode)) })
	if err != nil {
		return nil, err
	}
	root := g.entity(e)
	root["$schema"] = Dialect
	defs := map[string]any{}
	for g.more() {
		w := g.next()
		defs[defsName(w, mode)] = g.entityIn(w)
	}
	if len(defs) > 0 {
		root["$defs"] = defs
	}
	if g.err != nil {
		return nil, g.err
	}
	return marshal(root)
}

// defsName is the name of a wanted schema among the $defs of a document
// of mode root: its entity's name, for another mode a suffix (".request"),
// and its variant's (variantSuffix).
func defsName(w wanted, root Mode) string {
	name := w.name
	if w.mode != root {
		name += "." + w.mode.String()
	}
	return name + w.variantSuffix()
}

// variantSuffix ends the name of a variant of an entity's schema:
// ".partial" for a response a selection shapes (no field required),
// ".secret" for one a secret reference holds (every field secret, none of
// their values published), both in that order.
func (w wanted) variantSuffix() string {
	suffix := ""
	if w.by != "" {
		suffix += bySuffix + componentSafe(w.by)
	}
	if w.partial {
		suffix += partialSuffix
	}
	if w.secret {
		suffix += secretSuffix
	}
	return suffix
}

const (
	bySuffix      = ".by_" // a union's variant, with its key: "card.by_method"
	partialSuffix = ".partial"
	secretSuffix  = ".secret"
)

// Warnings returns what the schemas of e, and of the entities it
// references, cannot say, in both modes, as a call with opts sees them:
// one line per use, sorted ("entity \"e\", field \"n\": rule \"even\" has
// no Schema hook: the schema does not say what it checks"). The same text
// is in the "$comment" of the properties. A tool prints them.
func Warnings(e *entity.Entity, opts ...entity.Option) []string {
	if e == nil {
		return nil
	}
	all := map[string]bool{}
	for _, mode := range []Mode{Response, Request} {
		g, _ := newGen(mode, opts, func(w wanted) string { return defsRef(w.name) })
		g.entity(e)
		for g.more() {
			g.entityIn(g.next())
		}
		for w := range g.warnings {
			all[w] = true
		}
	}
	return sortedKeys(all)
}

// gen builds the schemas of entities, in one mode, for one audience.
type gen struct {
	mode Mode
	opts []entity.Option
	// ref returns the URI reference of a referenced entity's schema: its
	// $defs entry in a JSON Schema, a component in OpenAPI.
	ref func(w wanted) string
	// secret says that the fields described are under a secret reference
	// (or merged from one): each of them is secret. partial says that they
	// are in a response a selection shapes (Route.Select), which may leave
	// out any of them.
	secret, partial bool
	// discriminator: a union's schema says its discriminator (OpenAPI's
	// keyword, which JSON Schema 2020-12 has not: its oneOf decides by
	// each variant's const key alone).
	discriminator bool

	queue    []wanted        // referenced entities whose schemas are wanted
	queued   map[wanted]bool // the same, as a set
	merging  map[string]bool // the entities being merged, against a cycle
	warnings map[string]bool
	err      error
}

// wanted is an entity whose schema in a mode a document needs, and which
// variant of it: secret, as a secret reference holds it; partial, as a
// response a selection shapes writes it.
type wanted struct {
	name            string
	mode            Mode
	secret, partial bool
	// by is, for a union's variant, the union's key: the schema requires
	// it, its value the entity's name (const), before the entity's fields.
	by string
	e  *entity.Entity
}

func newGen(mode Mode, opts []entity.Option, ref func(wanted) string) (*gen, error) {
	if mode != Response && mode != Request && mode != Patch {
		return nil, fmt.Errorf("schema: %v is no mode: use Response, Request or Patch", mode)
	}
	return &gen{mode: mode, opts: opts, ref: ref, queued: map[wanted]bool{}, merging: map[string]bool{}, warnings: map[string]bool{}}, nil
}

// want queues the schema of e in mode, once, and returns its reference:
// under a secret reference (secret, or g.secret), the schema whose fields
// are all secret; in a response a selection shapes, the partial one.
func (g *gen) want(e *entity.Entity, mode Mode, secret bool) string {
	w := wanted{name: e.Name(), mode: mode, secret: secret || g.secret, partial: g.partial && mode == Response}
	if !g.queued[w] {
		g.queued[w] = true
		w.e = e
		g.queue = append(g.queue, w)
	}
	return g.ref(w)
}

// more reports whether schemas are queued; next takes the first.
func (g *gen) more() bool { return len(g.queue) > 0 }

func (g *gen) next() wanted {
	w := g.queue[0]
	g.queue = g.queue[1:]
	return w
}

// fields returns the fields of e the mode's direction has, for the
// generator's audience.
func (g *gen) fields(e *entity.Entity) []*entity.Field {
	if g.mode == Response {
		return e.Fields(g.opts...)
	}
	return e.RequestFields(g.opts...)
}

// entity returns the object schema of e.
func (g *gen) entity(e *entity.Entity) map[string]any {
	s := g.object(e, g.fields(e), "")
	if d := e.Decl(); d != nil && d.Doc != "" {
		s["description"] = d.Doc // in a file, the comment above the entity
	}
	return s
}

// entityIn returns the schema of a referenced entity, in its mode, secret
// or not.
func (g *gen) entityIn(w wanted) map[string]any {
	savedMode, savedSecret, savedPartial := g.mode, g.secret, g.partial
	g.mode, g.secret, g.partial = w.mode, w.secret, w.partial
	defer func() { g.mode, g.secret, g.partial = savedMode, savedSecret, savedPartial }()
	s := g.entity(w.e)
	if w.by != "" {
		g.variantKey(s, w)
	}
	return s
}

// isRequest reports whether the generator describes what a request reads:
// a Request or a Patch.
func (g *gen) isRequest() bool { return g.mode != Response }

// object returns the schema of an object of the fields fs of e; path is
// the declared names of the groups around them ("details.").
func (g *gen) object(e *entity.Entity, fs []*entity.Field, path string) map[string]any {
	props := map[string]any{}
	var required []string
	g.members(e, fs, path, props, &required, false)
	s := map[string]any{"type": "object", "properties": props}
	if g.mode == Response {
		s["additionalProperties"] = false
	}
	if len(required) > 0 {
		s["required"] = sortedSet(required)
	}
	if g.mode != Patch && !g.partial {
		g.cross(e, fs, path, s) // a selection leaves out fields the rules name, and then they are not judged
	}
	return s
}

// members adds the properties of the fields fs of e to props, those of
// the entities they merge included; merged says that the object is merged
// into another, whose keys are there only when it is.
func (g *gen) members(e *entity.Entity, fs []*entity.Field, path string, props map[string]any, required *[]string, merged bool) {
	for _, f := range fs {
		name := path + f.Name
		var s map[string]any
		switch {
		case g.isRequest() && isParam(f):
			// A parameter is never a key of a body: at the top level (an
			// entity merged there included) the request reads it outside
			// its body (see Components.Parameters); below it, in a
			// referenced object or merged into a group, it reads nothing.
			continue
		case f.Merge:
			t := g.target(e, f, name)
			if t == nil || g.merging[t.Name()] {
				continue
			}
			g.merging[t.Name()] = true
			saved := g.secret
			g.secret = g.secret || f.Secret // a secret reference's fields are secret, merged too
			g.members(t, g.fields(t), "", props, required, true)
			g.secret = saved
			delete(g.merging, t.Name())
			continue
		case f.Kind == dsl.FieldGroup:
			s = g.object(e, f.Fields, name+".")
			if g.isRequest() && !groupRequired(f) {
				s = withNull(s) // null, as absent, reads the group from nothing (in a patch: clears it)
			}
		case f.Kind == dsl.FieldRef && f.Variants != nil:
			s = g.unionSchema(e, f, name)
		case f.Kind == dsl.FieldRef:
			s = g.refSchema(e, f, name)
		default:
			s = g.value(e, f, name, g.nullable(f), g.isSecret(f))
		}
		switch {
		case g.mode == Response && f.ReadOnly:
			s["readOnly"] = true
		case g.isRequest() && f.WriteOnly:
			s["writeOnly"] = true
		}
		g.annotate(f, s)
		if f.Immutable {
			g.immutable(s)
		}
		combine := "anyOf" // two fields of one key in a response: either
		if g.isRequest() {
			combine = "allOf" // two fields read from one key: both judge it
		}
		addProperty(props, f.Key, s, combine)
		if !merged && g.required(f) {
			*required = append(*required, f.Key)
		}
	}
}

// required reports whether the key of f is always there: in a response,
// unless a call may leave it out (lazy, omitnil, omitempty); in a request,
// when `req` has no default to fill it, or, for a group, when it is `req`
// or one of its fields is required (groupRequired).
func (g *gen) required(f *entity.Field) bool {
	switch g.mode {
	case Response:
		return !f.Lazy && !f.OmitNil && !f.OmitEmpty && !g.partial // a selection may leave out any field
	case Patch:
		return false // a key left out keeps its value
	}
	if f.Kind == dsl.FieldGroup {
		return groupRequired(f)
	}
	return requestRequired(f)
}

// requestRequired reports whether a request that lacks f fails: `req`
// without a default to fill it.
func requestRequired(f *entity.Field) bool { return f.Required && !fills(f) }

// fills reports whether a default stands in for an absent or null value:
// a default that is not null (a bare default on a $ref makes the entity
// from an empty input: its Default is nil).
func fills(f *entity.Field) bool { return f.HasDefault && string(f.Default) != "null" }

// groupRequired reports whether a request must send the group f's
// object: it is `req` (its fields all optional or not), or one of its
// fields must be sent. Otherwise an absent group, or null, is read as an
// empty one.
func groupRequired(f *entity.Field) bool { return f.Required || holdsRequired(f.Fields) }

// holdsRequired reports whether one of fs, or of the groups among them,
// is required in a request: a request without them (a patch that clears
// them) fails.
func holdsRequired(fs []*entity.Field) bool {
	for _, f := range fs {
		if requestRequired(f) || f.Kind == dsl.FieldGroup && groupRequired(f) {
			return true
		}
	}
	return false
}

// nullable reports whether the field's schema, in the generator's mode,
// allows null: where Make may write null, or where a request may send it
// (in a patch: where clearing the field is accepted).
func (g *gen) nullable(f *entity.Field) bool {
	if g.mode == Response {
		return f.Nullable()
	}
	return !requestRequired(f)
}

// isParam reports whether a request reads the field outside its body:
// from its path, query, headers or cookies (entity.Field.In).
func isParam(f *entity.Field) bool { return f.In != "" }

// isSecret reports whether f is secret: declared so, or under a secret
// reference.
func (g *gen) isSecret(f *entity.Field) bool { return f.Secret || g.secret }

// annotate adds the field's description and example to its schema s:
// never a secret field's example, nor in a request a formatted one's (it
// is what the format writes, not what a request sends).
func (g *gen) annotate(f *entity.Field, s map[string]any) {
	if prev, _ := s["description"].(string); f.Doc != "" && prev != "" {
		s["description"] = f.Doc + " " + prev // what the schema says in words (rules judging a transformed value)
	} else if f.Doc != "" {
		s["description"] = f.Doc
	}
	if f.Example != nil && !g.isSecret(f) && !(g.isRequest() && f.Format != "") {
		s["examples"] = []any{json.RawMessage(f.Example)}
	}
}

// immutableWords say in each mode what `immutable` means: no keyword of
// JSON Schema does (readOnly says a request never sends the value, which
// a request that creates does).
var immutableWords = [...]string{
	Response: "Set once: it never changes once set.",
	Request:  "Set once: a patch cannot change it once set.",
	Patch:    "Set once: a patch may send the value it holds, or give one where it holds none, but not change nor clear it (code immutable).",
}

// immutable says in s's description that its field is set once, after
// the field's own description.
func (g *gen) immutable(s map[string]any) {
	words := immutableWords[g.mode]
	if prev, _ := s["description"].(string); prev != "" {
		words = prev + " " + words
	}
	s["description"] = words
}

// refSchema returns the schema of a `$ref` field. In a response: an object
// of the referenced entity or a list of them (one object where it holds one,
// Field.One; []$name: always a list, null where an element is no object).
// In a request: one object, or for []$name a list of objects; in a patch
// one object's patch, or a list of objects as a request sends them.
func (g *gen) refSchema(e *entity.Entity, f *entity.Field, name string) map[string]any {
	target := g.target(e, f, name)
	if target == nil {
		return map[string]any{}
	}
	var one map[string]any
	if f.List && g.mode == Patch {
		one = map[string]any{"$ref": g.want(target, Request, f.Secret)} // a list is replaced, not merged
	} else {
		one = map[string]any{"$ref": g.want(target, g.mode, f.Secret)}
	}
	nullable := g.nullable(f)
	var s map[string]any
	switch {
	case f.List:
		s = g.listOf(e, f, name, one)
	case g.mode == Response && !f.One: // msful's: an object, or a list of them
		s = map[string]any{"anyOf": []any{one, map[string]any{"type": "array", "items": map[string]any{"$ref": one["$ref"]}}}}
	default:
		s = one
	}
	if nullable {
		s = withNull(s)
	}
	return s
}

// listOf is the schema of the list field f (a []$name's, a []$a|$b's)
// whose elements are one: a response's may hold a null element; the
// keywords of its count's rules with it.
func (g *gen) listOf(e *entity.Entity, f *entity.Field, name string, one map[string]any) map[string]any {
	items := one
	if g.mode == Response {
		items = map[string]any{"anyOf": []any{one, map[string]any{"type": "null"}}}
	}
	s := map[string]any{"type": "array", "items": items}
	g.counts(e, f, name, s)
	return s
}

// counts adds to the array schema s of a []$name the keywords of its
// rules on its count of elements (min, max, range, len), as their Schema
// hooks say them of a list.
func (g *gen) counts(e *entity.Entity, f *entity.Field, name string, s map[string]any) {
	uses, defs := g.ruleDefs(e, f)
	for i, def := range defs {
		if def.Schema == nil {
			g.warn(e, name, fmt.Sprintf("rule %q has no Schema hook: the schema does not say what it checks", uses[i].Name))
			continue
		}
		kw, c := callSchemaHook(def, uses[i].Args, rules.List)
		if c != "" {
			g.warn(e, name, c)
		}
		if len(kw) > 0 {
			mergeKeywords(s, kw)
		}
	}
}

// target returns the entity a reference field names, or nil, having
// recorded the error, when it names none.
func (g *gen) target(e *entity.Entity, f *entity.Field, name string) *entity.Entity {
	t := f.Entity()
	if t == nil && g.err == nil {
		g.err = fmt.Errorf("schema: entity %q: field %q: $%s names no entity", e.Name(), name, f.Ref)
	}
	return t
}

// addProperty sets props[key] to s, or, when two fields have the key, to
// both schemas under combine (anyOf, allOf).
func addProperty(props map[string]any, key string, s map[string]any, combine string) {
	if prev, dup := props[key]; dup {
		s = map[string]any{combine: []any{prev, s}}
	}
	props[key] = s
}

// warn records what the schema of a field cannot say.
func (g *gen) warn(e *entity.Entity, field, msg string) {
	g.warnings[fmt.Sprintf("entity %q, field %q: %s", e.Name(), field, msg)] = true
}

// sortedKeys returns the keys of m, sorted, or nil.
func sortedKeys(m map[string]bool) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sortedSet returns the distinct strings of l, sorted, as JSON values.
func sortedSet(l []string) []any {
	sort.Strings(l)
	out := make([]any, 0, len(l))
	for i, s := range l {
		if i == 0 || s != l[i-1] {
			out = append(out, s)
		}
	}
	return out
}
