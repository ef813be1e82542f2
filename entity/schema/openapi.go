package schema

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

// OpenAPI 3.1: Components holds the schemas of a set of entities for one
// audience, under OpenAPI component names, and gives the pieces an API
// document is made of (a reference to an entity's schema, a body's,
// the parameters a request reads outside its body, the problem details);
// OpenAPI assembles a whole document for a list of Routes from them.

// OpenAPIVersion is the "openapi" member of the documents OpenAPI writes.
const OpenAPIVersion = "3.1.0"

// requestSuffix and patchSuffix end the component names of an entity's
// Request and Patch schemas.
const (
	requestSuffix = ".request"
	patchSuffix   = ".patch"
)

// Components is the components.schemas of an OpenAPI 3.1 document, for
// the audience its options say (see JSON): each entity added, in the modes
// asked, and every entity their schemas reference, each once, under its
// component name (ComponentName); the problem details when asked. A
// Components is built by one goroutine at a time.
type Components struct {
	opts     []entity.Option
	schemas  map[string]json.RawMessage
	owner    map[string]string // component name → what it was made from
	warnings map[string]bool
}

// NewComponents returns an empty set of components whose schemas describe
// what calls made with opts see (With, Version; other options are
// ignored).
func NewComponents(opts ...entity.Option) *Components {
	return &Components{opts: opts, schemas: map[string]json.RawMessage{}, owner: map[string]string{}, warnings: map[string]bool{}}
}

// ComponentName returns the component name of an entity's schema in a
// mode: its name, each byte OpenAPI does not allow in one (letters,
// digits, ".", "-", "_") written as "_" and two hexadecimal digits, and
// ".request" for a Request, ".patch" for a Patch.
func ComponentName(name string, mode Mode) string {
	comp := escapeBytes(name, func(c byte) bool {
		return isAlnum(c) || c == '.' || c == '-' || c == '_'
	}, '_', "0123456789abcdef")
	switch mode {
	case Request:
		comp += requestSuffix
	case Patch:
		comp += patchSuffix
	}
	return comp
}

func componentRef(comp string) string { return "#/components/schemas/" + comp }

func entityComponentRef(w wanted) string { return componentRef(componentName(w)) }

// componentName is the component name of a wanted schema: ComponentName,
// and its variant's suffix (".partial", ".secret") after it.
func componentName(w wanted) string { return ComponentName(w.name, w.mode) + w.variantSuffix() }

// Ref adds the schema of e in mode, and of every entity it references, and
// returns a reference to it: {"$ref":"#/components/schemas/NAME"}, a
// response's body, a request's or a patch's (a Request or Patch schema
// holds no parameter: a request reads those outside its body, see
// Parameters). It fails as JSON does, and when two names become one
// component name.
func (c *Components) Ref(e *entity.Entity, mode Mode) (json.RawMessage, error) {
	if e == nil {
		return nil, errNilEntity
	}
	if err := c.add(e, mode); err != nil {
		return nil, err
	}
	return compact(map[string]any{"$ref": entityComponentRef(wanted{name: e.Name(), mode: mode})})
}

// partialRef adds the Response schema of e as a response a selection
// shapes writes it (the component NAME.partial: no field required, no
// cross-field rule, and so are the entities it references), and returns
// a reference to it.
func (c *Components) partialRef(e *entity.Entity) (json.RawMessage, error) {
	g, err := newGen(Response, c.opts, entityComponentRef)
	if err != nil {
		return nil, err
	}
	g.discriminator = true
	g.partial = true
	ref := g.want(e, Response, false)
	if err := c.drain(g); err != nil {
		return nil, err
	}
	return compact(map[string]any{"$ref": ref})
}

// requires reports whether the schema of e in mode, added before,
// requires a key.
func (c *Components) requires(e *entity.Entity, mode Mode) bool {
	var s struct{ Required []string }
	json.Unmarshal(c.schemas[componentName(wanted{name: e.Name(), mode: mode})], &s)
	return len(s.Required) > 0
}

// Parameter is a value a request reads outside its body, as OpenAPI
// lists it in an operation's "parameters".
type Parameter struct {
	Name string // the parameter's name: the path wildcard's, the query key's, the header's, the cookie's
	In   string // "path", "query", "header" or "cookie"
	// Required: a path parameter, or `req` without a default.
	Required bool
	// Schema is the schema of the value the parameter's text stands for
	// (an integer for a number field), with the keywords of the field's
	// rules, never null (a parameter is text, or not there).
	Schema      json.RawMessage
	Description string // the field's description
}

// MarshalJSON writes the parameter as an OpenAPI Parameter Object.
func (p Parameter) MarshalJSON() ([]byte, error) {
	m := map[string]any{"name": p.Name, "in": p.In, "schema": p.Schema}
	if p.Required {
		m["required"] = true
	}
	if p.Description != "" {
		m["description"] = p.Description
	}
	return compact(m)
}

// Parameters returns the parameters a request made with e reads: its
// fields that a source directive or an X- name puts in the request's path,
// query, headers or cookies ([entity.Field.In]), under the names a request
// gives them, and when query is true (a method whose requests read their
// body fields from the query: GET, HEAD, DELETE, OPTIONS) its other
// value fields as query parameters; those of the entities it merges
// (`merge`) too, whose keys are its own. A group or a reference, an
// object, is read from a body only, and so are the fields in it. A name
// read by two fields is one parameter (a header's name
// case-insensitively).
func (c *Components) Parameters(e *entity.Entity, query bool) ([]Parameter, error) {
	if e == nil {
		return nil, errNilEntity
	}
	g, _ := newGen(Request, c.opts, entityComponentRef)
	g.discriminator = true
	var out []Parameter
	seen := map[string]bool{}
	var walk func(e *entity.Entity, fs []*entity.Field) error
	walk = func(e *entity.Entity, fs []*entity.Field) error {
		for _, f := range fs {
			switch {
			case f.Merge:
				t := g.target(e, f, f.Name)
				if t == nil || g.merging[t.Name()] {
					continue
				}
				g.merging[t.Name()] = true
				saved := g.secret
				g.secret = g.secret || f.Secret
				err := walk(t, t.RequestFields(c.opts...))
				g.secret = saved
				delete(g.merging, t.Name())
				if err != nil {
					return err
				}
				continue
			case f.Kind != dsl.FieldValue:
				continue // an object: read from a body only
			case !isParam(f) && !query:
				continue
			}
			p := Parameter{Name: f.Key, In: f.In, Required: requestRequired(f) || f.In == "path", Description: f.Doc}
			if p.In == "" {
				p.In = "query"
			}
			key := p.In + " " + p.Name
			if p.In == "header" {
				key = p.In + " " + strings.ToLower(p.Name)
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			s := paramSchema(g.value(e, f, f.Name, false, g.isSecret(f)))
			g.annotate(f, s)
			delete(s, "description") // the parameter's own
			b, err := compact(s)
			if err != nil {
				return err
			}
			p.Schema = b
			out = append(out, p)
		}
		return nil
	}
	if err := walk(e, e.RequestFields(c.opts...)); err != nil {
		return nil, err
	}
	if err := c.drain(g); err != nil {
		return nil, err
	}
	return out, nil
}

// paramSchema returns the schema of a parameter's value from the request
// schema of its field: the first of its forms, the JSON value its text
// stands for (an integer, not the integer's text), with the annotations of
// the whole.
func paramSchema(s map[string]any) map[string]any {
	alts, ok := s["anyOf"].([]any)
	if !ok || len(alts) == 0 {
		return s
	}
	first, ok := alts[0].(map[string]any)
	if !ok {
		return s
	}
	out := make(map[string]any, len(first)+len(s))
	for k, v := range first {
		out[k] = v
	}
	for k, v := range s {
		if k != "anyOf" {
			out[k] = v
		}
	}
	return out
}

// Problem adds the schemas of the problem details (ProblemName) and of one
// entry of their "errors" (FieldErrorName), with problem types under base
// (see entity.Registry.ProblemTypeBase), and returns the reference to the
// first.
func (c *Components) Problem(base string) (json.RawMessage, error) {
	problem, fieldError := problemSchemas(base, componentRef(FieldErrorName))
	for _, s := range []struct {
		name string
		v    map[string]any
	}{{ProblemName, problem}, {FieldErrorName, fieldError}} {
		if err := c.put(s.name, "the problem details", s.v); err != nil {
			return nil, err
		}
	}
	return compact(map[string]any{"$ref": componentRef(ProblemName)})
}

// Schemas returns the components, by name: the caller's to modify.
func (c *Components) Schemas() map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(c.schemas))
	for k, v := range c.schemas {
		out[k] = append(json.RawMessage(nil), v...)
	}
	return out
}

// MarshalJSON writes the components as the JSON object of
// components.schemas, its keys sorted.
func (c *Components) MarshalJSON() ([]byte, error) { return compact(c.schemas) }

// Warnings returns what the schemas added so far cannot say, sorted (see
// the package's Warnings).
func (c *Components) Warnings() []string { return sortedKeys(c.warnings) }

// add adds the schema of e in mode, and those of the entities it
// references.
func (c *Components) add(e *entity.Entity, mode Mode) error {
	g, err := newGen(mode, c.opts, entityComponentRef)
	if err != nil {
		return err
	}
	g.discriminator = true
	g.want(e, mode, false)
	return c.drain(g)
}

// drain adds the schema of each entity g has queued, and of those they
// reference, each in its mode; and g's warnings.
func (c *Components) drain(g *gen) error {
	for g.more() {
		w := g.next()
		name, owner := componentName(w), entityOwner(w)
		if c.owner[name] == owner {
			continue // added before
		}
		s := g.entityIn(w)
		if g.err != nil {
			return g.err
		}
		if err := c.put(name, owner, s); err != nil {
			return err
		}
	}
	for w := range g.warnings {
		c.warnings[w] = true
	}
	return g.err
}

// entityOwner says what a component is made from: an entity's schema in a
// mode, as a secret reference holds it or not.
func entityOwner(w wanted) string {
	var as string
	if w.by != "" {
		as += fmt.Sprintf(" as a union's variant told by %q", w.by)
	}
	if w.partial {
		as += " as a selection shapes it"
	}
	if w.secret {
		as += " under a secret reference"
	}
	return fmt.Sprintf("the %s schema of entity %q%s", w.mode, w.name, as)
}

// put sets the component name to s, made from what from says.
func (c *Components) put(name, from string, s map[string]any) error {
	if prev, dup := c.owner[name]; dup && prev != from {
		return fmt.Errorf("schema: %s and %s are both the component %q", prev, from, name)
	}
	b, err := compact(s)
	if err != nil {
		return err
	}
	c.owner[name], c.schemas[name] = from, b
	return nil
}
