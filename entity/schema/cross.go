package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// The cross-field rules of an object's fields (entity.Field.Cross), said
// as the library judges them: a field is present when its key is there and
// its value is not null; in a request a default that fills the field makes
// it present whatever the request sends, and a group is always there. Each
// rule is a constraint of the object, with a "description" that says it in
// words:
//
//	required_if 'o' 'v'…   {"if": o is one of the values, "then": present(t)}
//	required_with 'o'…     {"if": present(o), "then": present(t)} for each o;
//	                       "dependentRequired" where neither may be null
//	required_without 'o'…  {"anyOf": [present(t), present(o)…]}
//	excluded_with 'o'…     {"if": present(o), "then": {"not": present(t)}} for each o
//
// where present(k) is {"required": [k], "properties": {k: {}}}, and where
// k may be null {"required": [k], "properties": {k: {"not": {"type":
// "null"}}}}. A rule that names a field the audience does not see, or in
// a response a lazy one (a call without a selection writes none), is not
// judged there and not said.

// cross adds the cross-field rules of the fields fs to s, their object's
// schema.
func (g *gen) cross(e *entity.Entity, fs []*entity.Field, path string, s map[string]any) {
	byKey := map[string]*entity.Field{}
	for _, f := range fs {
		if !f.Merge {
			byKey[f.Key] = f
		}
	}
	props, _ := s["properties"].(map[string]any)
	var all []any
	dep := map[string][]string{}
	for _, f := range fs {
		for _, cr := range f.Cross {
			cs, comment := g.crossRule(e, f, cr, byKey, dep)
			all = append(all, cs...)
			if comment != "" {
				g.warn(e, path+f.Name, comment)
				if p, ok := props[f.Key].(map[string]any); ok {
					if prev, _ := p["$comment"].(string); prev != "" {
						comment = prev + "; " + comment
					}
					p["$comment"] = comment
				}
			}
		}
	}
	if len(all) > 0 {
		prev, _ := s["allOf"].([]any)
		s["allOf"] = append(prev, all...)
	}
	if len(dep) > 0 {
		m := make(map[string]any, len(dep))
		for k, ts := range dep {
			m[k] = sortedSet(ts)
		}
		s["dependentRequired"] = m
	}
}

// crossRule returns the constraints of one rule of the field t, with what
// the schema cannot say of it; keys that only require others go to dep
// (dependentRequired).
func (g *gen) crossRule(e *entity.Entity, t *entity.Field, cr entity.CrossRule, byKey map[string]*entity.Field, dep map[string][]string) ([]any, string) {
	others := make([]*entity.Field, 0, len(cr.Fields))
	for _, k := range cr.Fields {
		o := byKey[k]
		if o == nil {
			return nil, "" // a field the audience does not see: the rule is not judged
		}
		others = append(others, o)
	}
	for _, f := range append([]*entity.Field{t}, others...) {
		switch {
		case g.mode == Response && f.Lazy:
			return nil, "" // written only when a selection names it, which the schema does not describe
		case g.isRequest() && isParam(f):
			return nil, fmt.Sprintf("%s: %q is a parameter (%s), which the body's schema does not hold: the schema does not say the rule", cr.Rule, f.Key, f.In)
		}
	}
	pt, alwaysT := g.presence(t)
	var out []any
	var comment string
	switch cr.Rule {
	case "required_if":
		o := others[0]
		if g.isSecret(o) {
			return nil, fmt.Sprintf("required_if: left out of the schema, which publishes nothing of the secret field %q's values", o.Key)
		}
		if alwaysT {
			return nil, ""
		}
		if g.isRequest() && (o.Type != rules.String && !(o.JSONTyped && o.Type != rules.Time) || o.Format != "" || g.transformed(e, o)) { // a date's offsets are other spellings of its instant
			comment = fmt.Sprintf("required_if: the request schema compares %q as the JSON value a request sends, not as the library converts it (its other forms, its transforms)", o.Key)
		}
		out = append(out, describe(map[string]any{"if": g.valueIs(o, cr.Values), "then": pt},
			fmt.Sprintf("%s is required when %s is %s", strconv.Quote(t.Key), strconv.Quote(o.Key), valueWords(cr.Values))))
	case "required_with":
		if alwaysT {
			return nil, ""
		}
		for _, o := range others {
			po, alwaysO := g.presence(o)
			words := fmt.Sprintf("%s is required when %s is present", strconv.Quote(t.Key), strconv.Quote(o.Key))
			switch {
			case alwaysO:
				out = append(out, describe(pt, words))
			case simple(po) && simple(pt):
				dep[o.Key] = append(dep[o.Key], t.Key)
			default:
				out = append(out, describe(map[string]any{"if": po, "then": pt}, words))
			}
		}
	case "required_without":
		alts := []any{pt}
		for _, o := range others {
			po, alwaysO := g.presence(o)
			if alwaysO {
				return nil, ""
			}
			alts = append(alts, po)
		}
		if alwaysT {
			return nil, ""
		}
		out = append(out, describe(map[string]any{"anyOf": alts},
			fmt.Sprintf("%s is required when %s", strconv.Quote(t.Key), noneWords(others))))
	case "excluded_with":
		for _, o := range others {
			po, alwaysO := g.presence(o)
			words := fmt.Sprintf("%s must be absent or null when %s is present", strconv.Quote(t.Key), strconv.Quote(o.Key))
			switch {
			case alwaysO && alwaysT:
				out = append(out, describe(map[string]any{"not": map[string]any{}}, words)) // never both, and both always are
			case alwaysO:
				out = append(out, describe(map[string]any{"not": pt}, words))
			case alwaysT:
				out = append(out, describe(map[string]any{"not": po}, words))
			default:
				out = append(out, describe(map[string]any{"if": po, "then": map[string]any{"not": pt}}, words))
			}
		}
	default:
		return nil, fmt.Sprintf("cross-field rule %q: the schema does not say it", cr.Rule)
	}
	return out, comment
}

// presence returns the schema that holds when the key of f is present, as
// the library judges it: there, and not null; always reports that it is
// present whatever the object holds (a request's default fills it, a
// group is written).
func (g *gen) presence(f *entity.Field) (s map[string]any, always bool) {
	switch {
	case f.Kind == dsl.FieldGroup && (g.isRequest() || !f.OmitEmpty):
		return nil, true
	case g.isRequest() && fills(f):
		return nil, true
	}
	prop := map[string]any{} // the key's own schema refuses null
	if f.Kind != dsl.FieldGroup && g.nullable(f) {
		prop = map[string]any{"not": map[string]any{"type": "null"}}
	}
	// "properties" names the key beside "required" even where it adds
	// nothing, as strict validators (ajv's strictRequired) want.
	return map[string]any{"required": []any{f.Key}, "properties": map[string]any{f.Key: prop}}, false
}

// simple reports whether a presence schema requires no more than the key:
// its own schema refuses null.
func simple(s map[string]any) bool {
	props, _ := s["properties"].(map[string]any)
	for _, p := range props {
		if m, _ := p.(map[string]any); len(m) > 0 {
			return false
		}
	}
	return true
}

// valueIs returns the schema that holds when the field o has one of
// values, the JSON it writes: in a request a default that is one of them
// makes an absent or null o hold too.
func (g *gen) valueIs(o *entity.Field, values [][]byte) map[string]any {
	enum := make([]any, 0, len(values)+1)
	for _, v := range values {
		enum = append(enum, json.RawMessage(v))
	}
	var is map[string]any
	if len(enum) == 1 {
		is = map[string]any{"const": enum[0]}
	} else {
		is = map[string]any{"enum": enum}
	}
	if g.isRequest() && fills(o) {
		for _, v := range values {
			if bytes.Equal(v, o.Default) {
				// Absent or null, the default stands in: only another value fails.
				return map[string]any{"properties": map[string]any{o.Key: map[string]any{"anyOf": []any{is, map[string]any{"type": "null"}}}}}
			}
		}
	}
	return map[string]any{"required": []any{o.Key}, "properties": map[string]any{o.Key: is}}
}

// describe gives a constraint its description.
func describe(s map[string]any, words string) map[string]any {
	out := make(map[string]any, len(s)+1)
	for k, v := range s {
		out[k] = v
	}
	out["description"] = words
	return out
}

// valueWords says the values of a required_if: "\"ship\"", "one of 1, 2".
func valueWords(values [][]byte) string {
	if len(values) == 1 {
		return string(values[0])
	}
	l := make([]string, len(values))
	for i, v := range values {
		l[i] = string(v)
	}
	return "one of " + strings.Join(l, ", ")
}

// noneWords says that none of the fields is present.
func noneWords(fs []*entity.Field) string {
	if len(fs) == 1 {
		return strconv.Quote(fs[0].Key) + " is absent or null"
	}
	l := make([]string, len(fs))
	for i, f := range fs {
		l[i] = strconv.Quote(f.Key)
	}
	sort.Strings(l)
	return "none of " + strings.Join(l, ", ") + " is present"
}
