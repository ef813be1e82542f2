package schema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// value returns the schema of a value field: in a response the type it
// writes (or what its format writes), in a request every form strict input
// reads it from; with the keywords of its rules, null allowed when
// nullable. secret says the field is secret: none of its rules' keywords
// that describe values (enum, const, pattern) is published, nor its
// default.
func (g *gen) value(e *entity.Entity, f *entity.Field, name string, nullable, secret bool) map[string]any {
	var alts []map[string]any
	var comments []string
	var judged string // what the rules say of a transformed value
	switch {
	case g.mode == Response && f.Format != "":
		// What the format writes; the rules judged the value before it.
		alts = []map[string]any{formatSchema(f)}
		if g.checked(e, f) {
			c := fmt.Sprintf("written with format %s: the schema does not say what its rules check of the value", f.Format)
			comments = append(comments, c)
			g.warn(e, name, c)
		}
		comments = append(comments, g.hookless(e, f, name)...)
	case g.mode == Response:
		alts = []map[string]any{f.Type.Schema()}
		comments = g.rules(e, f, name, alts, secret)
	case g.transformed(e, f):
		// The rules judge the transformed value, not the request's (" abc "
		// trimmed passes len 3): what they say is the description's.
		alts = inputForms(f)
		comments, judged = g.transformedRules(e, f, name, secret)
	default:
		alts = inputForms(f)
		comments = g.rules(e, f, name, alts, secret)
	}
	if f.Each != nil { // a typed list: its elements, in a response null where one does not convert (a request refuses a null element)
		alts[0]["items"] = g.value(e, f.Each, name+"[]", g.mode == Response, secret)
	}
	var s map[string]any
	if len(alts) == 1 {
		s = alts[0]
	} else {
		l := make([]any, len(alts))
		for i, a := range alts {
			l[i] = a
		}
		s = map[string]any{"anyOf": l}
	}
	if nullable {
		s = withNull(s)
	} else if _, typed := s["type"]; !typed && f.Type == rules.Any {
		s["type"] = []any{"array", "boolean", "number", "object", "string"} // anything but null
	}
	if len(comments) > 0 {
		s["$comment"] = strings.Join(comments, "; ")
	}
	if judged != "" {
		s["description"] = judged
	}
	if g.mode == Request && fills(f) && f.Default != nil && f.Format == "" && !secret { // a secret's default is no one's business
		s["default"] = json.RawMessage(f.Default)
	}
	return s
}

// inputForms returns the schemas of the forms a request gives f's value
// in: the JSON type alone of a field read by it (Field.JSONTyped, in a
// registry of entity.JSONTypes: an integer, a number, a boolean, a
// date-time string, as a response writes them), else every form strict
// input converts (rules.Kind.InputSchema).
func inputForms(f *entity.Field) []map[string]any {
	switch {
	case !f.JSONTyped:
		return f.Type.InputSchema()
	case f.Type == rules.Time:
		return []map[string]any{f.Type.Schema()} // RFC 3339 date-time text
	}
	return f.Type.InputSchema()[:1] // the JSON value of the kind, in its range
}

// formatSchema returns the schema of what a field's format writes, as
// Field.ReadJSON reads it: a string (a date layout), an int64 (unix,
// unixms), a number (fixed), or, for a registered format, any string,
// number, bool or null.
func formatSchema(f *entity.Field) map[string]any {
	reads := func(text string) bool { _, _, ok := f.ReadJSON([]byte(text)); return ok }
	switch {
	case reads("true"):
		return map[string]any{"type": []any{"boolean", "null", "number", "string"}}
	case reads(`"s"`):
		return map[string]any{"type": "string"}
	case reads("1.5"):
		return map[string]any{"type": "number"}
	}
	return map[string]any{"type": "integer", "format": "int64"}
}

// ruleDefs returns the rules of f that check its value, with their
// definitions, as the field was compiled: not those the conversion
// implies.
func (g *gen) ruleDefs(_ *entity.Entity, f *entity.Field) (uses []entity.RuleUse, defs []rules.Def) {
	for _, u := range f.Uses {
		if u.Def.Implied.Has(f.Type) {
			continue
		}
		uses, defs = append(uses, u), append(defs, u.Def)
	}
	return uses, defs
}

// checked reports whether f has rules that check its value (transforms
// aside).
func (g *gen) checked(e *entity.Entity, f *entity.Field) bool {
	_, defs := g.ruleDefs(e, f)
	for _, d := range defs {
		if d.Transform == nil {
			return true
		}
	}
	return false
}

// transformed reports whether f has transforms.
func (g *gen) transformed(e *entity.Entity, f *entity.Field) bool {
	_, defs := g.ruleDefs(e, f)
	for _, d := range defs {
		if d.Transform != nil {
			return true
		}
	}
	return false
}

// rules adds the keywords of f's rules to the forms alts, in rule order:
// all of them to the one form of a response (or of a request's value read
// by its JSON type, Field.JSONTyped, but a date, which a request may spell
// with any offset: its rules judge the instant), and to each form of a
// request what rules.Kind.InputKeywords says of it. A rule whose keywords
// a form has already goes into "allOf", so that every rule holds. It
// returns what the schema cannot say, for "$comment", and records it as
// warnings.
func (g *gen) rules(e *entity.Entity, f *entity.Field, name string, alts []map[string]any, secret bool) []string {
	var comments []string
	say := func(c string) {
		comments = append(comments, c)
		g.warn(e, name, c)
	}
	uses, defs := g.ruleDefs(e, f)
	for i, r := range uses {
		def := defs[i]
		switch {
		case def.Transform != nil:
			// A transform refuses nothing; what it makes of the value is
			// said on the response only, and is no check the schema misses.
			if g.mode == Response {
				comments = append(comments, fmt.Sprintf("transformed by %q", r.Name))
			}
			continue
		case def.Schema == nil:
			say(fmt.Sprintf("rule %q has no Schema hook: the schema does not say what it checks", r.Name))
			continue
		}
		kw, c := callSchemaHook(def, r.Args, f.Type)
		if secret && withoutValues(kw) {
			say(fmt.Sprintf("rule %q: left out of the schema, which publishes nothing of a secret field's values", r.Name))
		}
		if len(kw) == 0 || g.mode == Response || f.JSONTyped && f.Type != rules.Time { // one form, the value itself (a date's is one spelling of its instant)
			if c != "" {
				say(c)
			}
			if len(kw) > 0 {
				mergeKeywords(alts[0], kw)
			}
			continue
		}
		forms, unsaid := f.Type.InputKeywords(kw)
		stated := false
		for j, form := range forms {
			if len(form) > 0 && j < len(alts) {
				mergeKeywords(alts[j], form)
				stated = true
			}
		}
		switch {
		case !stated: // not even the hook's own words, which would say it is
			say(fmt.Sprintf("rule %q: the request schema does not say it: its keywords describe the value once converted, which no form a request sends it in is", r.Name))
		case len(unsaid) > 0:
			if c != "" {
				say(c)
			}
			say(fmt.Sprintf("rule %q: the request schema says it of the JSON %s only, not of the other forms a request may send it in", r.Name, jsonKind(f.Type)))
		case c != "":
			say(c)
		}
	}
	return comments
}

// transformedRules says, for a request schema, what the rules of f say of
// its value once its transforms made it: the keywords of their Schema
// hooks in words (for the description: "Judged once transformed by
// "trim": minLength 1, maxLength 100."), which the schema's own keywords cannot
// say of the text a request sends; and, for "$comment" and as warnings,
// each rule the schema leaves out, by name.
func (g *gen) transformedRules(e *entity.Entity, f *entity.Field, name string, secret bool) (comments []string, judged string) {
	say := func(c string) {
		comments = append(comments, c)
		g.warn(e, name, c)
	}
	uses, defs := g.ruleDefs(e, f)
	var transforms []string
	for i, def := range defs {
		if def.Transform != nil {
			transforms = append(transforms, strconv.Quote(uses[i].Name))
		}
	}
	by := strings.Join(transforms, ", ")
	var words []string
	for i, def := range defs {
		if def.Transform != nil {
			continue
		}
		r := uses[i]
		if def.Schema == nil {
			say(fmt.Sprintf("rule %q has no Schema hook: the schema does not say what it checks", r.Name))
			continue
		}
		kw, c := callSchemaHook(def, r.Args, f.Type)
		if secret && withoutValues(kw) {
			say(fmt.Sprintf("rule %q: left out of the schema, which publishes nothing of a secret field's values", r.Name))
		}
		if len(kw) == 0 {
			if c != "" {
				say(c) // a hook that panicked, or says no keyword
			}
			continue
		}
		say(fmt.Sprintf("rule %q: it judges the value once transformed by %s: the request schema says it in its description, not in keywords", r.Name, by))
		for _, k := range sortedKeys(keySet(kw)) {
			b, err := compact(kw[k])
			if err == nil {
				words = append(words, k+" "+string(b))
			}
		}
	}
	if len(words) > 0 {
		judged = "Judged once transformed by " + by + ": " + strings.Join(words, ", ") + "."
	}
	return comments, judged
}

// keySet returns the keys of m as a set.
func keySet(m map[string]any) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// jsonKind names the JSON value a kind writes, for a warning.
func jsonKind(k rules.Kind) string {
	switch k {
	case rules.Int, rules.Float:
		return "number"
	case rules.Bool:
		return "boolean"
	case rules.Time:
		return "date-time text"
	}
	return "value"
}

// hookless names, as rules does, the rules of f without a Schema hook,
// where the schema leaves its rules out: no rule is ever dropped unsaid.
func (g *gen) hookless(e *entity.Entity, f *entity.Field, name string) []string {
	var comments []string
	uses, defs := g.ruleDefs(e, f)
	for i, d := range defs {
		if d.Schema == nil && d.Transform == nil {
			c := fmt.Sprintf("rule %q has no Schema hook: the schema does not say what it checks", uses[i].Name)
			comments = append(comments, c)
			g.warn(e, name, c)
		}
	}
	return comments
}

// callSchemaHook calls a rule's Schema hook and returns its keywords and
// its "$comment", apart. A hook that panics gives a comment that says so.
func callSchemaHook(def rules.Def, args []string, k rules.Kind) (kw map[string]any, comment string) {
	defer func() {
		if recover() != nil {
			kw, comment = nil, fmt.Sprintf("rule %q: its Schema hook panicked: the schema does not say what it checks", def.Name)
		}
	}()
	m := def.Schema(args, k)
	if len(m) == 0 {
		return nil, ""
	}
	kw = make(map[string]any, len(m))
	for key, v := range m {
		if key == "$comment" {
			comment, _ = v.(string)
			continue
		}
		kw[key] = deepCopy(v) // the hook's maps are its own
	}
	return kw, comment
}

// deepCopy copies the maps and slices of a JSON value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, y := range x {
			m[k] = deepCopy(y)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, y := range x {
			l[i] = deepCopy(y)
		}
		return l
	}
	return v
}

// valueKeywords are the keywords that describe values rather than their
// type or size: what a secret field's schema never holds.
var valueKeywords = []string{"enum", "const", "pattern", "default", "examples"}

// withoutValues removes the valueKeywords from kw, at any depth, and
// reports whether it removed any.
func withoutValues(kw map[string]any) bool {
	removed := false
	for _, k := range valueKeywords {
		if _, ok := kw[k]; ok {
			delete(kw, k)
			removed = true
		}
	}
	for _, v := range kw {
		switch x := v.(type) {
		case map[string]any:
			removed = withoutValues(x) || removed
		case []any:
			for _, y := range x {
				if m, ok := y.(map[string]any); ok {
					removed = withoutValues(m) || removed
				}
			}
		}
	}
	return removed
}
