package entity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/expose-go/expose/rules"
)

// JSON Schema export: what an entity writes (OutputSchema) and what it
// accepts as a request (InputSchema), as JSON Schema 2020-12, walked from
// the plan Make runs so that the two cannot drift. Each type's schema
// comes from the type table (rules.Kind.Schema, rules.Kind.InputSchema),
// each rule's keywords from its Def's Schema hook.

// SchemaMode says which side of an entity a schema describes.
type SchemaMode uint8

const (
	// OutputSchema describes what Make writes: output names (after rename
	// and the registry's key case), groups as nested objects, each field's
	// type and whether it may be null, no other keys. A field a call may
	// leave out (lazy, if, unless, since, until, omitnil, omitempty) is
	// not required; two fields that write one key in different versions
	// are either schema; a merged $ref's keys stand at the level it is
	// merged into, not required; readonly fields are marked readOnly and
	// writeonly ones, never written, are not there. It describes a call
	// without Select, Only or Except, which may leave out any field
	// (check such payloads with entitytest.Conform and Partial).
	OutputSchema SchemaMode = iota
	// InputSchema describes the JSON object MakeRequest accepts, under its
	// strict conversions: input (declared) names, groups flattened as the
	// input reads them, required where `req` has no default to fill it,
	// every form that converts without loss ("27" for a number); unknown
	// keys are allowed (they are dropped). X- fields are not in it at the
	// top level: requests read them from headers only (OpenAPI lists them
	// as header parameters); inside a referenced entity they are keys like
	// any other. It describes a request read without options: readonly
	// fields, and fields read only under a flag (if) or in another version
	// than the latest, are not in it; writeonly ones are marked writeOnly.
	InputSchema
)

// String returns "output" or "input".
func (m SchemaMode) String() string {
	switch m {
	case OutputSchema:
		return "output"
	case InputSchema:
		return "input"
	}
	return fmt.Sprintf("SchemaMode(%d)", uint8(m))
}

// JSONSchemaDialect is the $schema of every schema JSONSchema writes.
const JSONSchemaDialect = "https://json-schema.org/draft/2020-12/schema"

// JSONSchema returns the entity's JSON Schema (2020-12) in the mode given,
// indented, its keys sorted: an object schema with "properties",
// "required" (sorted) and, in OutputSchema, "additionalProperties": false;
// each entity it references is in "$defs" under its name, recursion
// included (a `$ref` field is an object of that schema, or an array of
// them).
//
// A type maps as its rules.Kind.Schema says (number → integer, date → a
// date-time string…), in InputSchema as rules.Kind.InputSchema says (a
// number is an integer or its text). A field is nullable where Make may
// write null (OutputSchema: no `req` and no default) or where MakeRequest
// accepts null (InputSchema: anything but `req` without a default). Each
// rule adds the keywords its Def's Schema hook gives (min → minLength or
// minimum…, regex → pattern, email → its pattern, url → format uri); in
// InputSchema they judge the form the field writes, since the others are
// judged once converted. A rule without a Schema hook, and what a hook can only give
// as a "$comment", is named in the property's "$comment" and reported by
// SchemaWarnings, never dropped silently.
//
// It fails when a `$ref` of the entity, or of an entity it references,
// names no entity (see Registry.Check), or when the mode is neither.
func (e *Entity) JSONSchema(mode SchemaMode) ([]byte, error) {
	if e == nil {
		return nil, errNilEntity
	}
	g, err := newSchemaGen(mode, defsRef)
	if err != nil {
		return nil, err
	}
	root := g.entity(e, true)
	root["$schema"] = JSONSchemaDialect
	defs := map[string]any{}
	for len(g.queue) > 0 {
		d := g.queue[0]
		g.queue = g.queue[1:]
		defs[d.name] = g.entity(d, false)
	}
	if len(defs) > 0 {
		root["$defs"] = defs
	}
	if g.err != nil {
		return nil, g.err
	}
	return marshalSchema(root)
}

// JSONSchema returns the JSON Schema of the entity named. See
// Entity.JSONSchema.
func (r *Registry) JSONSchema(name string, mode SchemaMode) ([]byte, error) {
	e, err := r.entity(name)
	if err != nil {
		return nil, err
	}
	return e.JSONSchema(mode)
}

// SchemaWarnings returns what the entity's schemas, and those of the
// entities it references, cannot say, one line per use, sorted: each use
// of a rule whose Def has no Schema hook ("entity \"e\", field \"n\": rule
// \"even\" has no Schema hook: the schema does not say what it checks"),
// each "$comment" a hook gave instead of a keyword, and each field read
// at a path (from), which the input schema does not describe. The rules
// are named in the "$comment" of their properties too. A tool prints them.
func (e *Entity) SchemaWarnings() []string {
	if e == nil {
		return nil
	}
	return schemaWarnings(func(g *schemaGen) {
		g.entity(e, true)
		for len(g.queue) > 0 {
			d := g.queue[0]
			g.queue = g.queue[1:]
			if d != e {
				g.entity(d, false)
			}
		}
	})
}

// SchemaWarnings returns the SchemaWarnings of every entity of the
// registry, sorted.
func (r *Registry) SchemaWarnings() []string {
	return schemaWarnings(func(g *schemaGen) {
		for _, name := range r.Names() {
			if e := r.Lookup(name); e != nil {
				g.entity(e, false)
			}
		}
	})
}

// schemaWarnings runs walk in both modes and returns the warnings, sorted.
func schemaWarnings(walk func(*schemaGen)) []string {
	all, _ := newSchemaGen(OutputSchema, defsRef)
	walk(all)
	in, _ := newSchemaGen(InputSchema, defsRef)
	walk(in)
	for w := range in.warnings {
		all.warnings[w] = true
	}
	return all.sortedWarnings()
}

// schemaGen builds the schemas of entities, in one mode.
type schemaGen struct {
	mode SchemaMode
	// ref returns the URI reference of a referenced entity's schema in
	// the mode: "#/$defs/name" in a JSON Schema, a component in OpenAPI.
	ref func(name string, mode SchemaMode) string

	queue    []*Entity       // referenced entities whose schemas are wanted
	queued   map[string]bool // by name
	warnings map[string]bool
	err      error
}

func newSchemaGen(mode SchemaMode, ref func(string, SchemaMode) string) (*schemaGen, error) {
	if mode != OutputSchema && mode != InputSchema {
		return nil, fmt.Errorf("entity: %v is no schema mode: use OutputSchema or InputSchema", mode)
	}
	return &schemaGen{mode: mode, ref: ref, queued: map[string]bool{}, warnings: map[string]bool{}}, nil
}

// defsRef is the URI reference of an entity's schema among a JSON
// Schema's $defs.
func defsRef(name string, _ SchemaMode) string { return "#/$defs/" + pointerFragment(name) }

// pointerFragment returns name as one token of a JSON Pointer (RFC 6901: ~
// as ~0, / as ~1) written in a URI fragment (RFC 3986: what a fragment may
// not hold percent-encoded).
func pointerFragment(name string) string {
	name = strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
	return escapeBytes(name, func(c byte) bool {
		return isAlnumByte(c) || strings.IndexByte("-._~!$&'()*+,;=:@?", c) >= 0
	}, '%', "0123456789ABCDEF")
}

// escapeBytes returns s with each byte that keep refuses written as esc
// and its two hexadecimal digits (of digits, upper or lower case).
func escapeBytes(s string, keep func(byte) bool, esc byte, digits string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; keep(c) {
			b.WriteByte(c)
		} else {
			b.WriteByte(esc)
			b.WriteByte(digits[c>>4])
			b.WriteByte(digits[c&15])
		}
	}
	return b.String()
}

func isAlnumByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// entity returns the object schema of e. top says whether it is the
// request's top level, where X- fields are headers (InputSchema).
func (g *schemaGen) entity(e *Entity, top bool) map[string]any {
	if g.mode == OutputSchema {
		return g.outputObject(e, e.base)
	}
	props := map[string]any{}
	var required []string
	g.inputFields(e, e.base, top, props, &required)
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = sortedSet(required)
	}
	return s
}

// outputObject returns the schema of an object Make writes with p.
func (g *schemaGen) outputObject(e *Entity, p *objectPlan) map[string]any {
	props := make(map[string]any, len(p.nodes))
	var required []string
	g.outputFields(e, p, props, &required, false)
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = sortedSet(required)
	}
	return s
}

// outputFields adds the properties the fields of p write to props, those
// of the entities it merges included; merged says that p's object is
// merged into another, whose keys are there only when it is.
func (g *schemaGen) outputFields(e *Entity, p *objectPlan, props map[string]any, required *[]string, merged bool) {
	for _, n := range p.nodes {
		var s map[string]any
		switch {
		case n.writeOnly:
			continue // never written by a response
		case n.merge:
			if t := g.target(e, n); t != nil {
				g.outputFields(t, t.base, props, required, true)
			}
			continue
		case n.kind == nodeGroup:
			s = g.outputObject(e, n.group)
		default:
			s = g.memberSchema(e, n, "readOnly", n.readOnly)
		}
		addProperty(props, n.out, s, "anyOf") // versions of one key: either
		if !n.mayBeAbsent() && !merged {
			*required = append(*required, n.out)
		}
	}
}

// inputFields adds the properties the fields of p read to props: a
// group's fields at the level of the group, as the input holds them.
func (g *schemaGen) inputFields(e *Entity, p *objectPlan, top bool, props map[string]any, required *[]string) {
	for _, n := range p.nodes {
		var s map[string]any
		switch {
		case !n.readByDefault():
			continue // readonly, or read only under a flag or another version
		case n.kind == nodeGroup:
			g.inputFields(e, n.group, top, props, required)
			continue
		case top && n.header != "":
			continue // a header, never a key of the request's input
		case n.from != nil:
			// Read at a path of the input: not described (yet), but said.
			path := strings.Join(append([]string{n.from.first.in}, n.from.rest...), ".")
			g.warn(e, n, fmt.Sprintf("read from %q: the input schema does not describe the path", path))
			continue
		default:
			s = g.memberSchema(e, n, "writeOnly", n.writeOnly)
		}
		addProperty(props, n.in, s, "allOf") // two fields read one key: both judge it
		if n.inputRequired() {
			*required = append(*required, n.in)
		}
	}
}

// memberSchema returns the schema of a value or reference node, with the
// annotation given (readOnly, writeOnly) when on.
func (g *schemaGen) memberSchema(e *Entity, n *node, annotation string, on bool) map[string]any {
	var s map[string]any
	if n.kind == nodeRef {
		s = g.refSchema(e, n)
	} else {
		s = g.valueSchema(e, n)
	}
	if on {
		s[annotation] = true
	}
	return s
}

// addProperty sets props[key] to s, or, when two fields have the key, to
// both schemas under combine (anyOf, allOf).
func addProperty(props map[string]any, key string, s map[string]any, combine string) {
	if prev, dup := props[key]; dup {
		s = map[string]any{combine: []any{prev, s}}
	}
	props[key] = s
}

// mayBeAbsent reports whether a call may leave the field's key out of
// Make's output: it is lazy, written under a condition (if, unless, since,
// until), left out when null or empty (omitnil, omitempty), or writeonly.
// Such a field is not "required" in OutputSchema (see Field.Optional).
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

// fillsNull reports whether a default stands in for an absent or null
// input.
func (n *node) fillsNull() bool {
	if n.kind == nodeRef {
		return n.refDefault
	}
	return n.hasDefault && !n.defNull
}

// inputRequired reports whether MakeRequest rejects an input that lacks the
// field: `req` without a default.
func (n *node) inputRequired() bool { return n.req && !n.fillsNull() }

// nullable reports whether the field's schema, in the generator's mode,
// allows null.
func (g *schemaGen) nullable(n *node) bool {
	if g.mode == OutputSchema {
		return n.writesNull()
	}
	return !n.inputRequired()
}

// refSchema returns the schema of a `$ref` field: an object of the
// referenced entity, or an array of them (in InputSchema, an array whose
// object elements are, since the others are skipped).
func (g *schemaGen) refSchema(e *Entity, n *node) map[string]any {
	target := g.target(e, n)
	if target == nil {
		return map[string]any{}
	}
	if !g.queued[target.name] {
		g.queued[target.name] = true
		g.queue = append(g.queue, target)
	}
	one := map[string]any{"$ref": g.ref(target.name, g.mode)}
	if n.refList { // []$name: always a list, an element that is no object null
		s := map[string]any{"type": "array", "items": map[string]any{"anyOf": []any{one, map[string]any{"type": "null"}}}}
		if g.nullable(n) {
			s = withNull(s)
		}
		return s
	}
	if n.merge { // read as an object only (a list is a type error); written merged
		if g.nullable(n) {
			return map[string]any{"anyOf": []any{one, map[string]any{"type": "null"}}}
		}
		return one
	}
	items := map[string]any{"$ref": one["$ref"]}
	if g.mode == InputSchema {
		// A list's elements that are not objects are skipped, not refused.
		items = map[string]any{"if": map[string]any{"type": "object"}, "then": items}
	}
	alts := []any{one, map[string]any{"type": "array", "items": items}}
	if g.nullable(n) {
		alts = append(alts, map[string]any{"type": "null"})
	}
	return map[string]any{"anyOf": alts}
}

// target returns the entity a reference node names, or nil, having
// recorded the error, when it names none.
func (g *schemaGen) target(e *Entity, n *node) *Entity {
	t := n.ref.e.Load()
	if t == nil && g.err == nil {
		g.err = fmt.Errorf("entity: schema of %q: field %q: $%s names no entity", e.name, n.decl.Name, n.ref.name)
	}
	return t
}

// valueSchema returns the schema of a value field: its type's, with the
// keywords of its rules, nullable as the mode says.
func (g *schemaGen) valueSchema(e *Entity, n *node) map[string]any {
	return g.valueSchemaOf(e, n, g.nullable(n))
}

// valueSchemaOf is valueSchema, nullable or not as told.
func (g *schemaGen) valueSchemaOf(e *Entity, n *node, nullable bool) map[string]any {
	var alts []map[string]any
	var comments []string
	switch {
	case g.mode == OutputSchema && n.format != nil:
		// What the format writes; the rules judged the value before it.
		alts = []map[string]any{n.format.schema()}
		comments = []string{"written with format " + n.format.text + ": its rules judge the value, not what is written"}
	case g.mode == OutputSchema:
		alts = []map[string]any{n.typ.Schema()}
	default:
		alts = n.typ.InputSchema()
	}
	if n.each != nil { // a typed list: its elements, null where one does not convert
		alts[0]["items"] = g.valueSchemaOf(e, n.each, true)
	}
	switch {
	case g.mode == InputSchema && len(n.xforms) > 0:
		// The rules judge the transformed value, not the input (" abc "
		// trimmed passes len 3).
		comments = []string{"its rules judge the value once transformed, which the input is not"}
	case g.mode == InputSchema && n.typ == rules.Time && hasChecks(n):
		// The rules judge the date, whatever text or number gave it
		// (in 2024-01-15 takes "2024/1/15"): no keyword on the text says it.
		comments = []string{"its rules judge the date, not the text or number that gives it"}
	case n.format == nil || g.mode == InputSchema:
		comments = g.addRules(e, n, alts[0])
	}
	if n.format != nil && g.mode == OutputSchema || g.mode == InputSchema && (len(n.xforms) > 0 || n.typ == rules.Time && hasChecks(n)) {
		comments = append(comments, g.hookless(e, n)...) // named, though its keywords do not apply here
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
	} else if _, typed := s["type"]; !typed && n.typ == rules.Any {
		s["type"] = []any{"array", "boolean", "number", "object", "string"} // anything but null
	}
	if len(comments) > 0 {
		s["$comment"] = strings.Join(comments, "; ")
	}
	if g.mode == InputSchema && n.fillsNull() && n.defJSON != nil && !n.secret { // a secret's default is no one's business
		s["default"] = json.RawMessage(n.defJSON)
	}
	return s
}

// hasChecks reports whether a value node has checks that run.
func hasChecks(n *node) bool { return len(n.inChecks)+len(n.outChecks) > 0 }

// schema returns the JSON Schema of what the format writes: the schema of
// the kind it writes (a string for a layout, an integer for unix, a number
// for fixed), or for a registered format any JSON scalar or null.
func (f *format) schema() map[string]any {
	if f.user != nil {
		return map[string]any{"type": []any{"boolean", "null", "number", "string"}}
	}
	return f.writes.Schema()
}

// addRules adds the keywords of n's rules to s, in rule order: a rule
// whose keywords s already has goes into "allOf", so that every rule
// holds. It returns what the schema cannot say, for "$comment", and
// records it as warnings.
func (g *schemaGen) addRules(e *Entity, n *node, s map[string]any) []string {
	var comments []string
	set := e.reg.rules
	for _, r := range n.decl.Rules {
		if rules.LookupDirective(r.Name) != rules.NotDirective {
			continue
		}
		def, ok := set.Lookup(r.Name)
		if !ok || def.Implied.Has(n.typ) {
			continue // implied: the conversion guarantees it
		}
		if def.Schema == nil && def.Transform != nil {
			// A transform refuses nothing; what it makes of the value is
			// said on the output only, and is no check the schema misses.
			if g.mode == OutputSchema {
				comments = append(comments, fmt.Sprintf("transformed by %q", r.Name))
			}
			continue
		}
		if def.Schema == nil {
			c := fmt.Sprintf("rule %q has no Schema hook: the schema does not say what it checks", r.Name)
			comments = append(comments, c)
			g.warn(e, n, c)
			continue
		}
		args := make([]string, len(r.Args))
		for i, a := range r.Args {
			args[i] = a.Text
		}
		kw, c := callSchemaHook(def, args, n.typ)
		if c != "" {
			comments = append(comments, c)
			g.warn(e, n, c)
		}
		mergeKeywords(s, kw)
	}
	return comments
}

// hookless names, as addRules does, the rules of n without a Schema hook,
// where the schema leaves n's rules out: no rule is ever dropped unsaid.
func (g *schemaGen) hookless(e *Entity, n *node) []string {
	var comments []string
	for _, r := range n.decl.Rules {
		if rules.LookupDirective(r.Name) != rules.NotDirective {
			continue
		}
		if def, ok := e.reg.rules.Lookup(r.Name); ok && def.Schema == nil && def.Transform == nil && !def.Implied.Has(n.typ) {
			c := fmt.Sprintf("rule %q has no Schema hook: the schema does not say what it checks", r.Name)
			comments = append(comments, c)
			g.warn(e, n, c)
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
		kw[key] = v
	}
	return kw, comment
}

// mergeKeywords adds kw to s: a bound that s has too is kept at the
// tighter of the two (min 1 and min 3 are minimum 3); when s has another
// of kw's keywords, kw's others go to s's "allOf", so that every rule
// holds.
func mergeKeywords(s, kw map[string]any) {
	rest := make(map[string]any, len(kw))
	for k, v := range kw {
		prev, clash := s[k]
		tighter, isBound := boundKeywords[k]
		switch {
		case !clash:
			rest[k] = v
		case isBound && isNumber(prev) && isNumber(v):
			if less(v, prev) == tighter {
				s[k] = v
			}
		default:
			rest[k] = v
		}
	}
	for k := range rest {
		if _, clash := s[k]; clash {
			all, _ := s["allOf"].([]any)
			s["allOf"] = append(all, rest)
			return
		}
	}
	for k, v := range rest {
		s[k] = v
	}
}

// boundKeywords are the keywords that bound a number, a length or a
// count, each mapped to what less(new, old) is when the new bound is the
// tighter: false for lower bounds, true for upper ones.
var boundKeywords = map[string]bool{
	"minimum": false, "exclusiveMinimum": false, "minLength": false, "minItems": false, "minProperties": false,
	"maximum": true, "exclusiveMaximum": true, "maxLength": true, "maxItems": true, "maxProperties": true,
}

func isNumber(v any) bool {
	switch v.(type) {
	case int64, float64:
		return true
	}
	return false
}

// less reports whether the number a is less than b (int64 or float64),
// exactly when both are int64.
func less(a, b any) bool {
	ai, aInt := a.(int64)
	bi, bInt := b.(int64)
	if aInt && bInt {
		return ai < bi
	}
	return boundFloat(a) < boundFloat(b)
}

func boundFloat(v any) float64 {
	if i, ok := v.(int64); ok {
		return float64(i)
	}
	return v.(float64)
}

// withNull returns s allowing null too: "null" added to its type when the
// type is all that rejects null, else s and null as alternatives.
func withNull(s map[string]any) map[string]any {
	restricts := false
	for _, k := range []string{"allOf", "oneOf", "enum", "const", "not", "$ref", "anyOf"} {
		if _, ok := s[k]; ok {
			restricts = true
		}
	}
	if alts, ok := s["anyOf"].([]any); ok && len(s) == 1 {
		return map[string]any{"anyOf": append(alts, map[string]any{"type": "null"})}
	}
	if restricts {
		return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
	}
	switch t := s["type"].(type) {
	case string:
		s["type"] = []any{t, "null"}
	case []any:
		s["type"] = append(t, "null")
	}
	return s
}

// warn records what the schema of n cannot say.
func (g *schemaGen) warn(e *Entity, n *node, msg string) {
	g.warnings[fmt.Sprintf("entity %q, field %q: %s", e.name, n.decl.Name, msg)] = true
}

func (g *schemaGen) sortedWarnings() []string {
	if len(g.warnings) == 0 {
		return nil
	}
	out := make([]string, 0, len(g.warnings))
	for w := range g.warnings {
		out = append(out, w)
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

// marshalSchema writes v as indented JSON with its keys sorted, and
// without encoding/json's HTML escapes (patterns hold < and &).
func marshalSchema(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("entity: schema: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
