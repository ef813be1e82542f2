package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// The docs page says each schema of the document in words: its type
// (links to the components it names), and each keyword as a rule ("1–100
// characters", "one of "bronze", "silver""), as the schema states it: the
// page knows nothing the document does not say, and so nothing of a
// secret field's values, which the document never holds.

// segment is a piece of a phrase: text, code, or a link to a component.
type segment struct {
	Text string
	Code bool   // the text is a value or a pattern, shown as code
	Link string // the component named, for a link to its section
}

// phrase is words made of segments.
type phrase []segment

func words(s string) phrase              { return phrase{{Text: s}} }
func code(s string) segment              { return segment{Text: s, Code: true} }
func (p phrase) add(s ...segment) phrase { return append(p, s...) }
func (p phrase) text(s string) phrase    { return append(p, segment{Text: s}) }

// String returns the phrase's text, for tests and titles.
func (p phrase) String() string {
	var b strings.Builder
	for _, s := range p {
		b.WriteString(s.Text)
	}
	return b.String()
}

// described is what the page says of one schema.
type described struct {
	Type     phrase
	Rules    []phrase
	Desc     string
	Examples []string
	// Fields are the properties of an object schema written inline (a
	// group), shown under it; Checks its object rules (cross-field).
	Fields []row
	Checks []phrase
}

// row is one field of an object, or one parameter.
type row struct {
	Name     string // a property's path in the object ("address.city"), a parameter's name
	In       string // a parameter's place
	Depth    int    // nesting, for the page's indentation
	Required bool
	described
}

// componentOf returns the component a schema reference names, or "".
func componentOf(ref string) string {
	if name, ok := strings.CutPrefix(ref, "#/components/schemas/"); ok {
		return name
	}
	return ""
}

// describe says the schema v in words; path is the property path of the
// fields of an inline object.
func describe(v any, path string, depth int) described {
	s, ok := v.(map[string]any)
	if !ok {
		if b, isBool := v.(bool); isBool && !b {
			return described{Type: words("no value")}
		}
		return described{Type: words("any value")}
	}
	var d described
	d.Desc, _ = s["description"].(string)
	if ex, ok := s["examples"].([]any); ok {
		for _, x := range ex {
			d.Examples = append(d.Examples, jsonText(x))
		}
	}
	d.Type, d.Rules = typeOf(s)
	d.Rules = append(d.Rules, annotations(s)...)
	if isObject(s) {
		d.Fields = fields(s, path, depth)
		d.Checks = objectChecks(s)
	}
	return d
}

// isObject reports whether s is an inline object schema with properties.
func isObject(s map[string]any) bool {
	_, props := s["properties"].(map[string]any)
	return props && s["$ref"] == nil
}

// fields returns the rows of the properties of the object schema s, in
// key order, each followed by the rows of an inline object it holds.
func fields(s map[string]any, path string, depth int) []row {
	props, _ := s["properties"].(map[string]any)
	required := map[string]bool{}
	if req, ok := s["required"].([]any); ok {
		for _, k := range req {
			if ks, ok := k.(string); ok {
				required[ks] = true
			}
		}
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []row
	for _, k := range keys {
		name := path + k
		d := describe(props[k], name+".", depth+1)
		nested := d.Fields
		d.Fields = nil
		out = append(out, row{Name: name, Depth: depth, Required: required[k], described: d})
		out = append(out, nested...)
	}
	return out
}

// typeOf returns the type of a schema in words, and the rules of its
// keywords.
func typeOf(s map[string]any) (phrase, []phrase) {
	alts, nullable := alternatives(s)
	var typ phrase
	var rules []phrase
	switch {
	case len(alts) == 0:
		typ = words("null")
		nullable = false
	case len(alts) > 1 && otherForms(alts):
		// A request's value and the other forms it may be sent in: the
		// value's type, and the forms' types.
		typ, rules = single(alts[0])
		var forms []string
		for _, a := range alts[1:] {
			t, _ := single(a)
			f := t.String()
			if f == "string" {
				f = "text"
			}
			if !containsString(forms, f) {
				forms = append(forms, f)
			}
		}
		typ = typ.text(" (or sent as " + strings.Join(forms, " or ") + ")")
	default:
		for i, a := range alts {
			t, r := single(a)
			if i > 0 {
				typ = typ.text(" or ")
			}
			typ = append(typ, t...)
			if len(alts) > 1 && len(r) > 0 {
				for j := range r {
					r[j] = append(phrase{}, t...).text(": ").add(r[j]...)
				}
			}
			rules = append(rules, r...)
		}
	}
	if nullable {
		typ = typ.text(" or null")
	}
	return typ, rules
}

// alternatives returns the forms a schema allows, but null, and whether
// it allows null: the alternatives of its anyOf (with the keywords beside
// it), or the schema itself, its type list without "null".
func alternatives(s map[string]any) ([]map[string]any, bool) {
	nullable := false
	var out []map[string]any
	if l, ok := s["anyOf"].([]any); ok {
		for _, a := range l {
			m, ok := a.(map[string]any)
			if !ok {
				continue
			}
			if m["type"] == "null" && len(m) == 1 {
				nullable = true
				continue
			}
			alts, null := alternatives(m)
			nullable = nullable || null
			out = append(out, alts...)
		}
		return out, nullable
	}
	if types, ok := s["type"].([]any); ok {
		rest := make([]any, 0, len(types))
		for _, t := range types {
			if t == "null" {
				nullable = true
			} else {
				rest = append(rest, t)
			}
		}
		c := make(map[string]any, len(s))
		for k, v := range s {
			c[k] = v
		}
		switch len(rest) {
		case 0:
			return nil, nullable
		case 1:
			c["type"] = rest[0]
		default:
			c["type"] = rest
		}
		s = c
	}
	return []map[string]any{s}, nullable
}

// otherForms reports whether alts are a value and the other forms a
// request may send it in: a first form that is no string nor reference,
// and others of plain types.
func otherForms(alts []map[string]any) bool {
	first, _ := alts[0]["type"].(string)
	if first == "" || first == "string" || alts[0]["$ref"] != nil {
		return false
	}
	for _, a := range alts[1:] {
		if t, _ := a["type"].(string); t == "" || t == "object" || t == "array" || a["$ref"] != nil {
			return false
		}
	}
	return true
}

// single returns the type of one form (no anyOf of its own but within
// allOf) and the rules of its keywords.
func single(s map[string]any) (phrase, []phrase) {
	var typ phrase
	var rules []phrase
	switch t := s["type"].(type) {
	case string:
		typ = words(typeWords(t, s))
	case []any:
		var l []string
		for _, x := range t {
			if xs, ok := x.(string); ok {
				l = append(l, typeWords(xs, s))
			}
		}
		typ = words(strings.Join(l, " or "))
	}
	if ref, ok := s["$ref"].(string); ok {
		name := componentOf(ref)
		typ = phrase{{Text: name, Link: name}}
	}
	if _, ok := s["anyOf"]; ok && len(typ) == 0 {
		typ, rules = typeOf(s)
	}
	if l, ok := s["oneOf"].([]any); ok && len(typ) == 0 { // a union: its variants, and the key that tells them
		typ = words("one of ")
		for i, a := range l {
			if m, ok := a.(map[string]any); ok {
				if i > 0 {
					typ = typ.text(" or ")
				}
				t, _ := single(m)
				typ = typ.add(t...)
			}
		}
		if d, ok := s["discriminator"].(map[string]any); ok {
			if k, ok := d["propertyName"].(string); ok {
				rules = append(rules, words("the variant is told by the value of its key ").add(segment{Text: k, Code: true}))
			}
		}
	}
	if s["type"] == "array" {
		if items, ok := s["items"].(map[string]any); ok {
			it, ir := typeOf(items)
			typ = words("list of ").add(it...)
			for _, r := range ir {
				rules = append(rules, words("each: ").add(r...))
			}
		}
	}
	if len(typ) == 0 {
		typ = words("any value")
	}
	rules = append(rules, keywordRules(s)...)
	if all, ok := s["allOf"].([]any); ok {
		for _, a := range all {
			if m, ok := a.(map[string]any); ok && m["description"] == nil {
				_, r := single(m)
				rules = append(rules, r...)
			}
		}
	}
	return typ, rules
}

// typeWords names a JSON Schema type.
func typeWords(t string, s map[string]any) string {
	switch t {
	case "string":
		if f, ok := s["format"].(string); ok {
			return "string (" + f + ")"
		}
	case "array":
		return "list"
	}
	return t
}

// keywordRules says the validation keywords of one schema.
func keywordRules(s map[string]any) []phrase {
	var out []phrase
	if r := between(s, "minLength", "maxLength", "character", false); r != nil {
		out = append(out, r)
	}
	if r := between(s, "minItems", "maxItems", "item", false); r != nil {
		out = append(out, r)
	}
	if r := between(s, "minProperties", "maxProperties", "key", false); r != nil {
		out = append(out, r)
	}
	if r := bounds(s); r != nil {
		out = append(out, r)
	}
	if m, ok := s["multipleOf"]; ok {
		out = append(out, words("a multiple of ").add(code(jsonText(m))))
	}
	if c, ok := s["const"]; ok {
		out = append(out, words("exactly ").add(code(jsonText(c))))
	}
	if e, ok := s["enum"].([]any); ok {
		p := words("one of ")
		for i, v := range e {
			if i > 0 {
				p = p.text(", ")
			}
			p = p.add(code(jsonText(v)))
		}
		out = append(out, p)
	}
	if pat, ok := s["pattern"].(string); ok {
		out = append(out, words("matches the pattern ").add(code(visible(pat))))
	}
	if u, _ := s["uniqueItems"].(bool); u {
		out = append(out, words("no two items alike"))
	}
	return out
}

// annotations says what a schema notes beside its rules: its default,
// readOnly, writeOnly, $comment.
func annotations(s map[string]any) []phrase {
	var out []phrase
	if d, ok := s["default"]; ok {
		out = append(out, words("default ").add(code(jsonText(d))))
	}
	if b, _ := s["readOnly"].(bool); b {
		out = append(out, words("read-only: responses write it, requests do not send it"))
	}
	if b, _ := s["writeOnly"].(bool); b {
		out = append(out, words("write-only: requests send it, responses never write it"))
	}
	if c, ok := s["$comment"].(string); ok {
		out = append(out, words("note: "+c))
	}
	return out
}

// between says a pair of bounds on a count: "1–100 characters", "at least
// 8 characters".
func between(s map[string]any, minKey, maxKey, unit string, _ bool) phrase {
	lo, hasLo := number(s[minKey])
	hi, hasHi := number(s[maxKey])
	plural := func(n string) string {
		if n == "1" {
			return n + " " + unit
		}
		return n + " " + unit + "s"
	}
	switch {
	case hasLo && hasHi && lo == hi:
		return words("exactly " + plural(hi))
	case hasLo && hasHi:
		return words(lo + "–" + plural(hi))
	case hasLo:
		return words("at least " + plural(lo))
	case hasHi:
		return words("at most " + plural(hi))
	}
	return nil
}

// bounds says a number's bounds: "from 1 to 99", "more than 0"; nothing
// for the bounds of a 64-bit integer, which every number field has.
func bounds(s map[string]any) phrase {
	lo, hasLo := number(s["minimum"])
	hi, hasHi := number(s["maximum"])
	xlo, hasXlo := number(s["exclusiveMinimum"])
	xhi, hasXhi := number(s["exclusiveMaximum"])
	if lo == strconv.FormatInt(math.MinInt64, 10) {
		hasLo = false
	}
	if hi == strconv.FormatInt(math.MaxInt64, 10) {
		hasHi = false
	}
	var parts []string
	switch {
	case hasLo && hasHi:
		parts = append(parts, "from "+lo+" to "+hi)
	case hasLo:
		parts = append(parts, "at least "+lo)
	case hasHi:
		parts = append(parts, "at most "+hi)
	}
	if hasXlo {
		parts = append(parts, "more than "+xlo)
	}
	if hasXhi {
		parts = append(parts, "less than "+xhi)
	}
	if len(parts) == 0 {
		return nil
	}
	return words(strings.Join(parts, ", "))
}

// objectChecks says an object schema's rules on its keys together: the
// described constraints of its allOf (cross-field rules) and its
// dependentRequired.
func objectChecks(s map[string]any) []phrase {
	var out []phrase
	if all, ok := s["allOf"].([]any); ok {
		for _, a := range all {
			m, _ := a.(map[string]any)
			if d, ok := m["description"].(string); ok {
				out = append(out, words(d))
			}
		}
	}
	if dep, ok := s["dependentRequired"].(map[string]any); ok {
		keys := make([]string, 0, len(dep))
		for k := range dep {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ts, _ := dep[k].([]any)
			var names []string
			for _, t := range ts {
				names = append(names, strconv.Quote(jsonString(t)))
			}
			out = append(out, words(strings.Join(names, ", ")+" required when "+strconv.Quote(k)+" is present"))
		}
	}
	return out
}

// visible returns s with each rune that shows nothing (a control
// character, white space but the space) written as \uXXXX, as a pattern
// writes it.
func visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == ' ' || unicode.IsGraphic(r) && !unicode.IsSpace(r) {
			b.WriteRune(r)
		} else if r > 0xffff {
			fmt.Fprintf(&b, "\\u{%X}", r)
		} else {
			fmt.Fprintf(&b, "\\u%04X", r)
		}
	}
	return b.String()
}

// number returns a JSON number's text.
func number(v any) (string, bool) {
	if n, ok := v.(json.Number); ok {
		return n.String(), true
	}
	return "", false
}

func jsonString(v any) string {
	s, _ := v.(string)
	return s
}

// jsonText writes a JSON value as compact JSON text, HTML as it is.
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
