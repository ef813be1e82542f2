package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

// A selection parameter (Route.Select): the text a handler passes to
// entity.Select, whose grammar is dsl.ParseSelection's and whose names are
// the keys of the operation's response. Its schema says both in its
// description (the grammar nests, which no pattern says), and its example
// and default are selections of that response. The response itself is
// then the partial variant of its schema: a selection may leave out any
// field.

// selection returns the operation's parameters with the selection
// parameter rt.Select stated: the query parameter of that name an entity
// reads, or a new one.
func (d *document) selection(where string, rt Route, params []Parameter) ([]Parameter, error) {
	resp := rt.Response
	if resp == nil {
		return nil, fmt.Errorf("schema: OpenAPI: %s: Select names a parameter, but the route has no Response entity to select from", where)
	}
	i := slices.IndexFunc(params, func(p Parameter) bool { return p.In == "query" && p.Name == rt.Select })
	s := map[string]any{"type": "string"}
	if i < 0 {
		params = append(params, Parameter{Name: rt.Select, In: "query"})
		i = len(params) - 1
	} else if err := json.Unmarshal(params[i].Schema, &s); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	bad := func(why string) error {
		return fmt.Errorf("schema: OpenAPI: %s: the selection parameter %q %s", where, rt.Select, why)
	}
	if s["type"] != "string" {
		return nil, bad("is read by a field that is no string")
	}
	if def, ok := s["default"].(string); ok && !d.selects(resp, def) {
		return nil, bad("has a default that is no selection of the response: every request without it would fail")
	}
	ex, _ := s["examples"].([]any)
	delete(s, "examples")
	if len(ex) == 1 {
		if v, ok := ex[0].(string); ok && d.selects(resp, v) {
			s["examples"] = ex // the declared example, where it selects from this response
		}
	}
	if _, ok := s["examples"]; !ok {
		if ex := d.exampleSelection(resp); ex != "" {
			s["examples"] = []any{ex}
		}
	}
	s["description"] = "A selection of the response's fields: keys separated by commas, " +
		"a(b,c) for the keys b and c of the object a, a/b for its key b alone, * for every key of a level; " +
		"empty for every field. The keys: " + selectionNames(resp, d.c.opts) + "."
	b, err := compact(s)
	if err != nil {
		return nil, err
	}
	params[i].Schema = b
	return params, nil
}

// selects reports whether spec is a selection of the response e, as calls
// of the document's audience see it: entity.Select refuses it with no
// other error.
func (d *document) selects(e *entity.Entity, spec string) bool {
	_, err := e.MakeJSON(map[string]any{}, append(slices.Clone(d.c.opts), entity.Select(spec))...)
	return !errors.Is(err, entity.ErrInvalidFields)
}

// exampleSelection returns a selection of the response e: its first key,
// and the first key of the first object among its keys ("id,address(city)").
func (d *document) exampleSelection(e *entity.Entity) string {
	keys := members(e, d.c.opts, nil)
	if len(keys) == 0 {
		return ""
	}
	ex := keys[0].key
	for _, k := range keys {
		if len(k.sub) > 0 {
			if k.key == ex {
				ex = k.key + "(" + k.sub[0].key + ")"
			} else {
				ex += "," + k.key + "(" + k.sub[0].key + ")"
			}
			break
		}
	}
	if !d.selects(e, ex) {
		return keys[0].key
	}
	return ex
}

// member is a key a selection may name, and those of its object.
type member struct {
	key string
	sub []member
}

// members returns the keys of the response e that a selection may name,
// as calls with opts see them, each object's with its own (a merged
// entity's at the level it is merged into); an entity already on the way
// down (recursion) is not gone into again.
func members(e *entity.Entity, opts []entity.Option, path []string) []member {
	if slices.Contains(path, e.Name()) {
		return nil
	}
	path = append(path, e.Name())
	var walk func(fs []*entity.Field) []member
	walk = func(fs []*entity.Field) []member {
		var out []member
		for _, f := range fs {
			switch {
			case f.Merge:
				if t := f.Entity(); t != nil {
					out = append(out, members(t, opts, path)...)
				}
			case f.Kind == dsl.FieldGroup:
				out = append(out, member{f.Key, walk(f.Fields)})
			case f.Kind == dsl.FieldRef:
				m := member{key: f.Key}
				if t := f.Entity(); t != nil {
					m.sub = members(t, opts, path)
				}
				out = append(out, m)
			default:
				out = append(out, member{key: f.Key})
			}
		}
		return out
	}
	return walk(e.Fields(opts...))
}

// selectionNames says the keys of the response e: "id, name, address(city,
// zip)".
func selectionNames(e *entity.Entity, opts []entity.Option) string {
	var say func(ms []member) string
	say = func(ms []member) string {
		l := make([]string, len(ms))
		for i, m := range ms {
			l[i] = m.key
			if len(m.sub) > 0 {
				l[i] += "(" + say(m.sub) + ")"
			}
		}
		return strings.Join(l, ", ")
	}
	return say(members(e, opts, nil))
}
