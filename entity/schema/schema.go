package schema

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
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
	// it, every form strict input converts without loss ("27" for a
	// number); other keys are allowed (they are dropped). Header fields (X-)
	// of the top level are not in it: a request reads them from its
	// headers. Writeonly fields are marked writeOnly.
	Request
)

// String returns "response" or "request".
func (m Mode) String() string {
	switch m {
	case Response:
		return "response"
	case Request:
		return "request"
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
// of that schema, or an array of them).
//
// A type maps as its [rules.Kind.Schema] says (number → integer, date → a
// date-time string…), for a Request as [rules.Kind.InputSchema] says (a
// number is an integer or its text). Each rule adds the keywords its
// [rules.Def]'s Schema hook gives, said of every form of a request's value
// as far as [rules.Kind.InputKeywords] can; what no keyword says (a rule without a
// Schema hook, a bound of a float's text, the checks of a formatted or
// transformed value) is named in the property's "$comment" and reported by
// Warnings, never dropped silently. Nothing of a secret field's values is
// published: no enum, pattern, const or default.
//
// It fails when a `$ref` of e, or of an entity it references, names no
// entity (see entity.Registry.Check), or when mode is neither Response nor
// Request.
func JSON(e *entity.Entity, mode Mode, opts ...entity.Option) ([]byte, error) {
	if e == nil {
		return nil, errNilEntity
	}
	g, err := newGen(mode, opts, defsRef)
	if err != nil {
		return nil, err
	}
	root := g.entity(e, true)
	root["$schema"] = Dialect
	defs := map[string]any{}
	for len(g.queue) > 0 {
		d := g.queue[0]
		g.queue = g.queue[1:]
		defs[d.Name()] = g.entity(d, false)
	}
	if len(defs) > 0 {
		root["$defs"] = defs
	}
	if g.err != nil {
		return nil, g.err
	}
	return marshal(root)
}

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
		g, _ := newGen(mode, opts, defsRef)
		g.entity(e, true)
		for len(g.queue) > 0 {
			d := g.queue[0]
			g.queue = g.queue[1:]
			g.entity(d, false)
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
	ref func(name string, mode Mode) string

	queue    []*entity.Entity // referenced entities whose schemas are wanted
	queued   map[string]bool  // by name
	merging  map[string]bool  // the entities being merged, against a cycle
	warnings map[string]bool
	err      error
}

func newGen(mode Mode, opts []entity.Option, ref func(string, Mode) string) (*gen, error) {
	if mode != Response && mode != Request {
		return nil, fmt.Errorf("schema: %v is no mode: use Response or Request", mode)
	}
	return &gen{mode: mode, opts: opts, ref: ref, queued: map[string]bool{}, merging: map[string]bool{}, warnings: map[string]bool{}}, nil
}

// fields returns the fields of e the mode's direction has, for the
// generator's audience.
func (g *gen) fields(e *entity.Entity) []*entity.Field {
	if g.mode == Response {
		return e.Fields(g.opts...)
	}
	return e.RequestFields(g.opts...)
}

// entity returns the object schema of e. top says that it is a request's
// body, whose header fields are not keys.
func (g *gen) entity(e *entity.Entity, top bool) map[string]any {
	return g.object(e, g.fields(e), top, "")
}

// object returns the schema of an object of the fields fs of e; path is
// the declared names of the groups around them ("details.").
func (g *gen) object(e *entity.Entity, fs []*entity.Field, top bool, path string) map[string]any {
	props := map[string]any{}
	var required []string
	g.members(e, fs, top, path, props, &required, false)
	s := map[string]any{"type": "object", "properties": props}
	if g.mode == Response {
		s["additionalProperties"] = false
	}
	if len(required) > 0 {
		s["required"] = sortedSet(required)
	}
	return s
}

// members adds the properties of the fields fs of e to props, those of
// the entities they merge included; merged says that the object is merged
// into another, whose keys are there only when it is.
func (g *gen) members(e *entity.Entity, fs []*entity.Field, top bool, path string, props map[string]any, required *[]string, merged bool) {
	for _, f := range fs {
		name := path + f.Name
		var s map[string]any
		switch {
		case g.mode == Request && top && isHeader(f):
			continue // a header, never a key of the body
		case f.Merge:
			t := g.target(e, f, name)
			if t == nil || g.merging[t.Name()] {
				continue
			}
			g.merging[t.Name()] = true
			g.members(t, g.fields(t), false, "", props, required, true)
			delete(g.merging, t.Name())
			continue
		case f.Kind == dsl.FieldGroup:
			s = g.object(e, f.Fields, top, name+".")
		case f.Kind == dsl.FieldRef:
			s = g.refSchema(e, f, name)
		default:
			s = g.value(e, f, name, g.nullable(f), f.Secret)
		}
		switch {
		case g.mode == Response && f.ReadOnly:
			s["readOnly"] = true
		case g.mode == Request && f.WriteOnly:
			s["writeOnly"] = true
		}
		combine := "anyOf" // two fields of one key in a response: either
		if g.mode == Request {
			combine = "allOf" // two fields read from one key: both judge it
		}
		addProperty(props, f.Key, s, combine)
		if !merged && g.required(f, s) {
			*required = append(*required, f.Key)
		}
	}
}

// required reports whether the key of f is always there: in a response,
// unless a call may leave it out (lazy, omitnil, omitempty); in a request,
// when `req` has no default to fill it, or, for a group, when one of its
// fields is required.
func (g *gen) required(f *entity.Field, s map[string]any) bool {
	if g.mode == Response {
		return !f.Lazy && !f.OmitNil && !f.OmitEmpty
	}
	if f.Kind == dsl.FieldGroup {
		r, _ := s["required"].([]any)
		return len(r) > 0
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

// nullable reports whether the field's schema, in the generator's mode,
// allows null: where Make may write null, or where a request may send it.
func (g *gen) nullable(f *entity.Field) bool {
	if g.mode == Response {
		return f.Nullable()
	}
	return !requestRequired(f)
}

// isHeader reports whether a request reads the field from its headers: a
// field whose name starts with X-, at the top level of the entity or of a
// group there.
func isHeader(f *entity.Field) bool {
	return len(f.Name) > 2 && strings.EqualFold(f.Name[:2], "x-")
}

// refSchema returns the schema of a `$ref` field. In a response: an object
// of the referenced entity or a list of them ([]$name: always a list,
// null where an element is no object). In a request: one object, or for
// []$name a list of objects.
func (g *gen) refSchema(e *entity.Entity, f *entity.Field, name string) map[string]any {
	target := g.target(e, f, name)
	if target == nil {
		return map[string]any{}
	}
	if !g.queued[target.Name()] {
		g.queued[target.Name()] = true
		g.queue = append(g.queue, target)
	}
	one := map[string]any{"$ref": g.ref(target.Name(), g.mode)}
	nullable := g.nullable(f)
	var s map[string]any
	switch {
	case f.List && g.mode == Response:
		s = map[string]any{"type": "array", "items": map[string]any{"anyOf": []any{one, map[string]any{"type": "null"}}}}
	case f.List:
		s = map[string]any{"type": "array", "items": one}
	case g.mode == Response:
		s = map[string]any{"anyOf": []any{one, map[string]any{"type": "array", "items": map[string]any{"$ref": one["$ref"]}}}}
	default:
		s = one
	}
	if nullable {
		s = withNull(s)
	}
	return s
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
