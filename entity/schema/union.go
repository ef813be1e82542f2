package schema

import (
	"fmt"
	"strings"

	"github.com/expose-go/expose/entity"
)

// unionSchema returns the schema of a union field ($card|$invoice by
// 'method'): oneOf the variants' schemas, each requiring the key with its
// name as a const (so that a validator without discriminator support
// decides too), and in OpenAPI the discriminator with its mapping; a
// []$a|$b is an array of them. A patch's is anyOf the variants' patches,
// which may leave the key out (it keeps the variant), without a
// discriminator, which requires it.
func (g *gen) unionSchema(e *entity.Entity, f *entity.Field, name string) map[string]any {
	var refs []any
	mapping := map[string]any{}
	for _, v := range f.Variants {
		t := f.Variant(v)
		if t == nil {
			if g.err == nil {
				g.err = fmt.Errorf("schema: entity %q: field %q: variant $%s names no entity", e.Name(), name, v)
			}
			return map[string]any{}
		}
		mode := g.mode
		if f.List && mode == Patch {
			mode = Request // a list is replaced, not merged
		}
		ref := g.wantVariant(t, mode, f.Secret, f.By)
		refs = append(refs, map[string]any{"$ref": ref})
		mapping[v] = ref
	}
	var one map[string]any
	switch {
	case g.mode == Patch && !f.List:
		one = map[string]any{"anyOf": refs}
	default:
		one = map[string]any{"oneOf": refs}
		if g.discriminator {
			one["discriminator"] = map[string]any{"propertyName": f.By, "mapping": mapping}
		}
	}
	s := one
	if f.List {
		s = g.listOf(e, f, name, one)
	}
	if g.nullable(f) {
		s = withNull(s)
	}
	return s
}

// wantVariant is want for a union's variant: the entity's schema with the
// union's key.
func (g *gen) wantVariant(e *entity.Entity, mode Mode, secret bool, by string) string {
	w := wanted{name: e.Name(), mode: mode, secret: secret || g.secret, partial: g.partial && mode == Response, by: by}
	if !g.queued[w] {
		g.queued[w] = true
		w.e = e
		g.queue = append(g.queue, w)
	}
	return g.ref(w)
}

// variantKey adds the union's key to s, the object schema of the variant
// w: a string whose value is the variant's name, required but in a patch
// (where leaving it out keeps the variant).
func (g *gen) variantKey(s map[string]any, w wanted) {
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		s["properties"] = props
	}
	props[w.by] = map[string]any{"type": "string", "const": w.name,
		"description": fmt.Sprintf("The variant: %q.", w.name)}
	if w.mode == Patch {
		return
	}
	var req []string
	l, _ := s["required"].([]any)
	for _, k := range l {
		req = append(req, k.(string))
	}
	s["required"] = sortedSet(append(req, w.by))
}

// componentSafe returns key with every byte that a component name may
// not hold (OpenAPI: letters, digits, ".", "-" and "_") as "_".
func componentSafe(key string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, key)
}
