package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/internal/msgtext"
	"github.com/expose-go/expose/internal/suggest"
	"github.com/expose-go/expose/internal/textconv"
	"github.com/expose-go/expose/rules"
)

// compiler turns one parsed declaration into a plan, collecting every error.
type compiler struct {
	env     *Env
	ent     *Entity
	depth   int  // of the groups around the field compiled
	example bool // an example is being compiled, not a default: see valueWord
	errs    dsl.ErrorList
	flags   *flagTable // the registry's flags and those the declaration named first (condition.go); nil: none new

	// readOnly and writeOnly count the readonly and writeonly groups
	// around the field compiled, whose fields are so too (immutable).
	readOnly, writeOnly int
}

// Compile builds the entity for decl. References are resolved to slots of
// env, created empty for names not declared yet. On error the entity
// holds what compiled, for more error reports only (LoadFS checks its
// references and flags): it is never exposed.
func Compile(env *Env, decl *dsl.Entity) (*Entity, error) {
	c := &compiler{env: env, ent: &Entity{name: decl.Name, env: env, decl: decl, methods: decl.Methods, forms: decl.Forms, cache: new(entityCache)}}
	if !env.KeyCase.Valid() {
		c.errs.Add(&dsl.Error{Entity: decl.Name, Msg: fmt.Sprintf("the registry's key case %v is not a style: give KeyCase one of CamelCase, SnakeCase, KebabCase, PascalCase or AsDeclared", env.KeyCase)})
	}
	c.ent.base = c.object(decl.Fields)
	c.ent.base.ent = c.ent
	c.checkMerges(c.ent.base)
	c.views()
	if err := c.errs.Err(); err != nil {
		return c.ent, err
	}
	c.ent.newFlags = c.flags
	return c.ent, nil
}

func (c *compiler) errorf(f *dsl.Field, pos dsl.Pos, format string, args ...any) {
	c.errs.Add(dsl.NewError(c.ent.name, f, pos, fmt.Sprintf(format, args...)))
}

// object compiles the fields of one output object.
func (c *compiler) object(fields []*dsl.Field) *objectPlan {
	p := &objectPlan{}
	seen := make(map[string][]*node, len(fields))
	for _, f := range fields {
		n, cased := c.field(f)
		// Keys are compared as a client reads them: invalid UTF-8 is
		// written as U+FFFD, so "a\xffb" and "a\ufffdb" are one key.
		// Fields of disjoint version ranges may share one.
		key := jsonwire.ValidUTF8(n.out)
		if prev := c.clash(seen[key], n); prev != nil {
			how := ""
			if cased {
				how = fmt.Sprintf(" (%q in %v)", f.Name, c.env.KeyCase)
			}
			c.errorf(f, f.Pos, "output key %q%s is already written by field %q (%v)%s", n.out, how, prev.decl.Name, prev.decl.Pos, versionHint(prev, n))
			continue
		}
		seen[key] = append(seen[key], n)
		p.nodes = append(p.nodes, n)
	}
	c.resolveCross(p)
	for _, same := range seen {
		if len(same) < 2 {
			continue
		}
		// A call without a version writes the field of the latest range
		// its flags show.
		for _, n := range same {
			n.shared = true
			for _, o := range same {
				if o != n && later(o.cond, n.cond) {
					n.cond.later = append(n.cond.later, o.cond)
				}
			}
		}
	}
	return p
}

// clash returns the node among prev that n's key clashes with: any, unless
// all their version ranges are disjoint from n's.
func (c *compiler) clash(prev []*node, n *node) *node {
	for _, p := range prev {
		if !disjoint(p.cond, n.cond) {
			return p
		}
	}
	return nil
}

// versionHint says how two fields may share a key, when one of them has a
// version range.
func versionHint(a, b *node) string {
	if a.cond.ranged() || b.cond.ranged() {
		return ": fields may share a key only when their since/until version ranges are disjoint"
	}
	return ""
}

// field compiles one field's rules into a node. cased reports whether the
// registry's key case changed its output key.
func (c *compiler) field(f *dsl.Field) (n *node, cased bool) {
	n = &node{in: f.Name, out: f.Name, decl: f}
	if f.Kind != dsl.FieldGroup && isHeaderName(f.Name) {
		n.header = textproto.CanonicalMIMEHeaderKey(f.Name) // the base plan's: the request view reads it at the top only
		n.src = srcHeader
		if c.depth > 0 {
			c.errorf(f, f.Pos, "%q is a header field (its name starts with X-), which a request reads from its headers: declare it at the top level of the entity, not in a group", f.Name)
		}
	}
	if f.Kind == dsl.FieldValue && f.Type == rules.Null {
		// Its type is in error (dsl.ParsePartial): only its rules' names
		// can be judged, so that the error hides no other.
		c.ruleNames(f)
		return n, false
	}
	var defRule, msgRule, exRule, immRule, byRule *dsl.Rule
	n.doc = f.Doc // the comment above it in a file; a doc directive says otherwise
	renamed := false
	for _, r := range f.Rules {
		switch rules.LookupDirective(r.Name) {
		case rules.DirectiveNone:
			c.noArgs(f, r)
		case rules.DirectiveReq:
			c.noArgs(f, r)
			n.req = true
		case rules.DirectiveSecret:
			c.noArgs(f, r)
			n.secret = true
		case rules.DirectiveRename:
			if len(r.Args) != 1 || r.Args[0].Text == "" {
				c.errorf(f, r.Pos, "rule %q takes one argument, the output name", r.Name)
				continue
			}
			n.out = r.Args[0].Text
			renamed = true
		case rules.DirectiveDefault:
			if len(r.Args) > 1 {
				c.errorf(f, r.Pos, "rule %q takes at most one argument, the value", r.Name)
				continue
			}
			defRule = r
		case rules.DirectiveMsg:
			if len(r.Args) != 1 {
				c.errorf(f, r.Pos, "rule %q takes one argument, the message", r.Name)
				continue
			}
			msgRule = r
		case rules.DirectiveLazy:
			c.noArgs(f, r)
			n.lazy = true
		case rules.DirectiveIf, rules.DirectiveUnless, rules.DirectiveSince, rules.DirectiveUntil:
			c.condRule(f, n, r, rules.LookupDirective(r.Name))
		case rules.DirectiveOmitNil, rules.DirectiveOmitEmpty:
			c.noArgs(f, r)
			if rules.LookupDirective(r.Name) == rules.DirectiveOmitEmpty {
				n.omit = omitEmpty
			} else if n.omit == omitNone {
				n.omit = omitNil
			}
		case rules.DirectiveReadOnly, rules.DirectiveWriteOnly:
			c.noArgs(f, r)
			if rules.LookupDirective(r.Name) == rules.DirectiveReadOnly {
				n.readOnly = true
			} else {
				n.writeOnly = true
			}
			if n.readOnly && n.writeOnly {
				c.errorf(f, r.Pos, "a field cannot be both readonly (never read from requests) and writeonly (never written by responses)")
			}
		case rules.DirectiveImmutable:
			c.noArgs(f, r)
			n.immutable = true
			immRule = r
		case rules.DirectiveUnexpose:
			c.errorf(f, r.Pos, "unexpose drops a field of the base entity: it applies only in Extend")
		case rules.DirectiveFrom:
			if len(r.Args) != 1 {
				c.errorf(f, r.Pos, "rule %q takes one argument, the input path ('a.b.0.c')", r.Name)
				continue
			}
			steps, ok := parseFrom(r.Args[0].Text)
			if !ok {
				c.errorf(f, r.Args[0].Pos, "from: %q has an empty step: a path is names and indexes separated by dots (\\. is a dot in a name)", r.Args[0].Text)
				continue
			}
			n.from = &fromPath{first: &node{in: steps[0]}, rest: steps[1:]}
		case rules.DirectiveMerge:
			c.noArgs(f, r)
			if f.Kind != dsl.FieldRef {
				c.errorf(f, r.Pos, "merge writes a $ref's keys into the object around it: it applies only to a $ref")
				continue
			}
			if f.List {
				c.errorf(f, r.Pos, "merge writes a $ref's keys into the object around it: a list ([]$%s) has no keys to merge", f.Ref)
				continue
			}
			n.merge = true
		case rules.DirectiveBy: // union.go
			if f.Variants == nil {
				c.errorf(f, r.Pos, "by names the key that tells a union's variants apart: it applies only to a union ($a|$b)")
				continue
			}
			byRule = r
		case rules.DirectiveEach: // compile_list.go
			c.each(f, n, r)
		case rules.DirectiveFormat: // format.go
			c.format(f, n, r)
		case rules.DirectivePath, rules.DirectiveQuery, rules.DirectiveHeader, rules.DirectiveCookie:
			c.source(f, n, r, rules.LookupDirective(r.Name))
		case rules.DirectiveRequiredIf, rules.DirectiveRequiredWith, rules.DirectiveRequiredWithout, rules.DirectiveExcludedWith:
			c.cross(f, n, r, rules.LookupDirective(r.Name))
		case rules.DirectiveDoc:
			if len(r.Args) != 1 || strings.TrimSpace(r.Args[0].Text) == "" {
				c.errorf(f, r.Pos, "rule %q takes one argument, the description", r.Name)
				continue
			}
			n.doc = r.Args[0].Text
		case rules.DirectiveExample:
			if len(r.Args) != 1 {
				c.errorf(f, r.Pos, "rule %q takes one argument, the example value", r.Name)
				continue
			}
			exRule = r
		default:
			if f.Kind == dsl.FieldRef && f.List && listRules[strings.ToLower(r.Name)] {
				c.rule(f, n, r, strings.ToLower(r.Name)) // a []$name's count of elements
				continue
			}
			if f.Kind != dsl.FieldValue {
				continue // reported below
			}
			c.rule(f, n, r, strings.ToLower(r.Name))
		}
	}

	if !renamed {
		n.out = caseKey(f.Name, c.env.KeyCase)
		cased = n.out != f.Name
	}
	n.kind = f.Kind
	if n.src != srcBody && c.depth == 0 {
		c.sourceName(f, n)
	}
	switch f.Kind {
	case dsl.FieldGroup:
		for _, r := range f.Rules {
			if d := rules.LookupDirective(r.Name); !slices.Contains(groupDirectives, d) && !d.Source() && d != rules.DirectiveImmutable && d != rules.DirectiveBy { // (immutable: see immutable)
				if c.unknownRule(f, r, directiveNames(groupDirectives), ": a group takes only "+directiveList(groupDirectives)) {
					continue
				}
				if d == rules.DirectiveOmitNil {
					c.errorf(f, r.Pos, "omitnil cannot apply to a group, which is never null: omitempty leaves out an empty one")
					continue
				}
				c.errorf(f, r.Pos, "rule %q cannot apply to a group: a group takes only %s", r.Name, directiveList(groupDirectives))
			}
		}
		c.depth++
		ro, wo := b2i(n.readOnly), b2i(n.writeOnly)
		c.readOnly, c.writeOnly = c.readOnly+ro, c.writeOnly+wo
		n.group = c.object(f.Fields)
		c.readOnly, c.writeOnly = c.readOnly-ro, c.writeOnly-wo
		c.depth--
	case dsl.FieldRef:
		if f.Variants != nil {
			c.union(f, n, byRule)
			break
		}
		for _, r := range f.Rules {
			switch d := rules.LookupDirective(r.Name); {
			case d == rules.DirectiveDefault:
				if len(r.Args) > 0 {
					c.errorf(f, r.Args[0].Pos, "a default on a reference takes no value: a bare default makes %q from an empty input", f.Ref)
				}
			case d == rules.NotDirective && f.List && listRules[strings.ToLower(r.Name)], d.Source(), d.Cross(), d == rules.DirectiveImmutable, d == rules.DirectiveBy:
			case !slices.Contains(refDirectives, d) && c.unknownRule(f, r, directiveNames(refDirectives), fmt.Sprintf(": a reference ($%s) takes only %s", f.Ref, directiveList(refDirectives))):
			case !slices.Contains(refDirectives, d):
				c.errorf(f, r.Pos, "rule %q cannot apply to a reference ($%s): a reference takes only %s", r.Name, f.Ref, directiveList(refDirectives))
			}
		}
		if defRule != nil && f.Ref == c.ent.name {
			c.errorf(f, defRule.Pos, "a bare default on a reference to %q itself would make it forever", f.Ref)
		}
		if defRule != nil && f.List { // a []$name's bare default, [], is judged by its rules as any default is
			if fs := judgeStatic(rules.Value{Kind: rules.List}, false, n.outChecks); len(fs) > 0 {
				c.errorf(f, defRule.Pos, "the default fails rule %q: %v", fs[0].Rule, fs[0].Err)
			}
		}
		n.ref = c.env.slotFor(f.Ref)
		n.refList = f.List                     // []$name
		n.refOne = !f.List && c.env.SingleRefs // $name, one object in responses too
		n.refDefault = defRule != nil
		n.hasDefault = defRule != nil
		c.ent.refs = append(c.ent.refs, n)
	default:
		n.typ = f.Type
		c.elems(f, n) // a typed list's element node
		if defRule != nil {
			c.defaultValue(f, n, defRule)
		}
		if exRule != nil {
			c.exampleValue(f, n, exRule)
		}
		if n.from == nil {
			setFast(n) // the fast path reads the field's own name
		}
	}
	if msgRule != nil {
		c.message(f, n, msgRule)
	}
	if immRule != nil {
		c.immutable(f, n, immRule)
	}
	return n, cased
}

// immutable checks where a field's immutable applies: a value field of a
// request's body (a patch compares what it sends with the value the
// current value holds, which holds no writeonly value, nor any of a
// writeonly group's, and reads no parameter from it), that requests read
// (readonly, or in a readonly group: none does, so immutable would say
// nothing).
func (c *compiler) immutable(f *dsl.Field, n *node, r *dsl.Rule) {
	switch {
	case f.Kind == dsl.FieldGroup:
		c.errorf(f, r.Pos, "immutable applies to a value field: declare it on the fields of the group that are set once")
	case f.Kind == dsl.FieldRef:
		c.errorf(f, r.Pos, "immutable applies to a value field: declare it on the fields of $%s that are set once", f.Ref)
	case n.readOnly:
		c.errorf(f, r.Pos, "a field cannot be both readonly (never read from requests, so never changed by one) and immutable (read from a request that creates it, never changed by a patch): keep one")
	case c.readOnly > 0:
		c.errorf(f, r.Pos, "immutable in a readonly group, whose fields no request reads (so none changes them), says nothing: drop one")
	case n.writeOnly:
		c.errorf(f, r.Pos, "a field cannot be both writeonly and immutable: a patch tells a change from the value a response would write, which a writeonly field never has")
	case c.writeOnly > 0:
		c.errorf(f, r.Pos, "immutable in a writeonly group: a patch tells a change from the value a response would write, which the group's fields never have")
	case n.src != srcBody:
		c.errorf(f, r.Pos, "immutable judges what a patch's body changes: %q is read from the request's %s, not its body", f.Name, srcNames[n.src])
	}
}

// The directives a group and a reference take (a reference's default is a
// bare one: see field).
var (
	groupDirectives = []rules.Directive{rules.DirectiveNone, rules.DirectiveReq, rules.DirectiveRename, rules.DirectiveMsg,
		rules.DirectiveLazy, rules.DirectiveIf, rules.DirectiveUnless, rules.DirectiveSince, rules.DirectiveUntil,
		rules.DirectiveOmitEmpty, rules.DirectiveReadOnly, rules.DirectiveWriteOnly, rules.DirectiveFrom, rules.DirectiveDoc}
	refDirectives = append([]rules.Directive{rules.DirectiveNone, rules.DirectiveReq, rules.DirectiveDefault, rules.DirectiveSecret,
		rules.DirectiveOmitNil, rules.DirectiveMerge}, groupDirectives[2:]...)
)

// source compiles a source directive: where a request reads the field
// (compile_view.go). Only a value field at the top level of an entity has
// one; its argument names the parameter, the header or the cookie (by
// default the field's key, a header's its declared name).
func (c *compiler) source(f *dsl.Field, n *node, r *dsl.Rule, d rules.Directive) {
	switch {
	case f.Kind != dsl.FieldValue:
		c.errorf(f, r.Pos, "%s applies to a value field: a request reads a group or a $ref from its body", r.Name)
		return
	case c.depth > 0:
		c.errorf(f, r.Pos, "%s says where a request reads the field, which only a field at the top level of an entity has: move it out of its group", r.Name)
		return
	case n.src != srcBody && !(n.src == srcHeader && isHeaderName(f.Name) && d == rules.DirectiveHeader):
		// (A field named X-… is a header field: header may only name it.)
		c.errorf(f, r.Pos, "a field is read from one place: %s and %s", srcNames[n.src], r.Name)
		return
	case len(r.Args) > 1:
		c.errorf(f, r.Pos, "rule %q takes at most one argument, the name the request gives it", r.Name)
		return
	}
	n.src = srcKind(d - rules.DirectivePath + rules.Directive(srcPath))
	n.param = ""
	name, pos := f.Name, r.Pos
	if len(r.Args) == 1 {
		if r.Args[0].Text == "" {
			c.errorf(f, r.Args[0].Pos, "%s: the name is empty", r.Name)
			return
		}
		n.param, name, pos = r.Args[0].Text, r.Args[0].Text, r.Args[0].Pos
	}
	if len(r.Args) == 0 {
		return // the name is the field's own: see sourceName
	}
	switch n.src {
	case srcPath:
		if !isIdentifier(name) {
			c.errorf(f, pos, "path: %q is no wildcard name of a route pattern, which is a Go identifier", name)
		}
	case srcHeader, srcCookie:
		if !isToken(name) {
			c.errorf(f, pos, "%s: %q is no %s name, which is an HTTP token (letters, digits and !#$%%&'*+-.^_`|~)", r.Name, name, r.Name)
		}
	}
}

// sourceName checks a parameter field whose source directive gives no
// name (or a field named X-…): the request reads it under its key (a
// header under its declared name), which must then be a name the request
// can have; and a parameter is text, which no object field reads.
func (c *compiler) sourceName(f *dsl.Field, n *node) {
	if f.Kind == dsl.FieldValue && f.Type == rules.Object {
		c.errorf(f, f.Pos, "%q is read from the request's %s, which holds text, never an object: declare the field's type", f.Name, srcNames[n.src])
	}
	if n.param != "" {
		return // checked with its directive
	}
	switch n.src {
	case srcPath:
		if !isIdentifier(n.out) {
			c.errorf(f, f.Pos, "path: the field's key %q is no wildcard name of a route pattern, which is a Go identifier: give the wildcard's name (path 'name')", n.out)
		}
	case srcHeader:
		if !isToken(f.Name) {
			c.errorf(f, f.Pos, "%q is no header name, which is an HTTP token (letters, digits and !#$%%&'*+-.^_`|~)", f.Name)
		}
	case srcCookie:
		if !isToken(n.out) {
			c.errorf(f, f.Pos, "cookie: the field's key %q is no cookie name, which is an HTTP token: give the cookie's name (cookie 'name')", n.out)
		}
	}
}

// isIdentifier reports whether s is a Go identifier, as the wildcards of
// net/http's patterns are.
func isIdentifier(s string) bool {
	for i, c := range s {
		if !unicode.IsLetter(c) && c != '_' && (i == 0 || !unicode.IsDigit(c)) {
			return false
		}
	}
	return s != ""
}

// isToken reports whether s is an HTTP token (RFC 9110), as header and
// cookie names are.
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return s != ""
}

// listRules are the rules a []$name takes, on its count of elements.
var listRules = map[string]bool{"min": true, "max": true, "range": true, "minmax": true, "len": true}

// ruleNames reports the rules of f that name no rule nor directive.
func (c *compiler) ruleNames(f *dsl.Field) {
	for _, r := range f.Rules {
		if rules.LookupDirective(r.Name) == rules.NotDirective {
			c.unknownRule(f, r, nil, "")
		}
	}
}

// unknownRule reports r when it names no rule of the registry nor a
// directive, with the nearest of the names of candidates (of every rule
// and directive when candidates is nil), else with what, and says whether
// it did.
func (c *compiler) unknownRule(f *dsl.Field, r *dsl.Rule, candidates []string, what string) bool {
	if rules.LookupDirective(r.Name) != rules.NotDirective {
		return false
	}
	if _, ok := c.env.Rules.Lookup(r.Name); ok {
		return false
	}
	if candidates == nil {
		candidates = append(c.env.Rules.Names(), rules.Reserved...)
	}
	if hint := suggest.DidYouMean(r.Name, candidates, strconv.Quote); hint != "" {
		what = hint
	}
	c.errorf(f, r.Pos, "unknown rule %q%s", r.Name, what)
	return true
}

// directiveNames returns the names of the directives ds and their
// aliases.
func directiveNames(ds []rules.Directive) []string {
	var names []string
	for _, name := range rules.Reserved {
		if slices.Contains(ds, rules.LookupDirective(name)) {
			names = append(names, name)
		}
	}
	return names
}

// directiveList names directives for an error message: "rename, msg and
// lazy".
func directiveList(ds []rules.Directive) string {
	var names []string
	for _, d := range ds {
		if d != rules.DirectiveNone {
			names = append(names, d.String())
		}
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// message compiles a field's `msg 'text'`: its placeholders must be
// {field}, a param of one of the field's rules, or one of the params of
// the failures every field may have ({type} and {got} of type, {limit} of
// depth).
func (c *compiler) message(f *dsl.Field, n *node, r *dsl.Rule) {
	a := r.Args[0]
	if strings.TrimSpace(a.Text) == "" {
		c.errorf(f, a.Pos, "msg takes a text: an empty message would tell the client nothing")
		return
	}
	m, err := msgtext.Parse(a.Text)
	if err != nil {
		c.errorf(f, a.Pos, "%s", strings.TrimPrefix(err.Error(), "entity: "))
		return
	}
	known := []string{"field", "type", "got", "limit"}
	checks := [][]check{n.inChecks, n.outChecks}
	if n.each != nil { // a typed list's msg speaks for its elements too
		checks = append(checks, n.each.inChecks, n.each.outChecks)
	}
	var quoting []string // the placeholders that would describe a value (in's values, a pattern): not a secret's
	for _, cks := range checks {
		for _, ck := range cks {
			for _, p := range ck.info.params {
				known = append(known, p.Name)
				n.msgParams = append(n.msgParams, p)
				if QuotesNoValue(ck.info.code) {
					n.msgSafe = append(n.msgSafe, p)
				} else {
					quoting = append(quoting, p.Name)
				}
			}
		}
	}
	for _, p := range m.Placeholders() {
		switch {
		case !slices.Contains(known, p):
			c.errorf(f, a.Pos, "msg: placeholder {%s} is not {field} nor a param of the field's rules (%s)", p, strings.Join(known[1:], ", "))
		case n.secret && slices.Contains(quoting, p) && !slices.ContainsFunc(n.msgSafe, func(s RuleParam) bool { return s.Name == p }):
			c.errorf(f, a.Pos, "msg: placeholder {%s} would say what the secret field may hold: a secret's message names no value", p)
		}
	}
	n.msg = m
}

// setFast picks the node's fast path, if its checks allow one: a string
// field whose checks all judge a bare string, or a number field with no
// input-stage check nor transform. See appendFast.
func setFast(n *node) {
	if n.format != nil {
		return // written by its format: appendFormatted
	}
	switch n.typ {
	case rules.String:
		if !stringXforms(n) || len(n.xforms) > 0 && len(n.inChecks) > 0 {
			return // input-stage checks judge the input as it came, before the transforms: resolve
		}
		for _, cks := range [2][]check{n.inChecks, n.outChecks} {
			for _, ck := range cks {
				sc, ok := ck.c.(rules.StringChecker)
				if !ok {
					n.strChecks = nil
					return
				}
				n.strChecks = append(n.strChecks, strCheck{rule: ck.rule, c: sc, noPanic: ck.noPanic, info: ck.info})
			}
		}
		n.fast = fastString
	case rules.Int:
		switch {
		case len(n.inChecks) > 0 || len(n.xforms) > 0:
		case len(n.outChecks) == 0:
			n.fast = fastInt
		default:
			n.fast = fastIntChecked
			for _, ck := range n.outChecks {
				ic, ok := ck.c.(rules.IntChecker)
				if !ok {
					n.intChecks = nil
					return
				}
				n.intChecks = append(n.intChecks, intCheck{rule: ck.rule, c: ic, noPanic: ck.noPanic, info: ck.info})
			}
		}
	}
}

func (c *compiler) noArgs(f *dsl.Field, r *dsl.Rule) {
	if len(r.Args) > 0 {
		c.errorf(f, r.Args[0].Pos, "rule %q takes no arguments", r.Name)
	}
}

// rule compiles one registered rule.
func (c *compiler) rule(f *dsl.Field, n *node, r *dsl.Rule, name string) {
	def, ok := c.env.Rules.Lookup(name)
	if !ok {
		c.unknownRule(f, r, nil, "")
		return
	}
	typ := f.Type
	switch {
	case n.elemOf != nil: // an element node of a typed list (compile_list.go)
		typ = n.typ
	case f.Kind == dsl.FieldRef: // a []$name: its list of objects
		typ = rules.List
	}
	if def.Types != 0 && !def.Types.Has(typ) {
		c.errorf(f, r.Pos, "rule %q cannot apply to %s %s field", r.Name, article(typ.String()), typ)
		return
	}
	switch {
	case len(r.Args) < def.MinArgs || def.MaxArgs >= 0 && len(r.Args) > def.MaxArgs:
		c.errorf(f, r.Pos, "rule %q takes %s, got %d", r.Name, argCount(def.MinArgs, def.MaxArgs), len(r.Args))
		return
	}
	args := make([]string, len(r.Args))
	for i, a := range r.Args {
		args[i] = a.Text
	}
	fail := func(err error) {
		msg := err.Error()
		if !strings.HasPrefix(strings.ToLower(msg), strings.ToLower(def.Name)+":") {
			msg = def.Name + ": " + msg
		}
		c.errorf(f, r.Pos, "%s", msg)
	}
	n.uses = append(n.uses, RuleUse{Name: r.Name, Args: args, Def: def})
	info := ruleInfoOf(&def, r.Args)
	if def.Transform != nil {
		t, err := compileTransform(&def, args, typ)
		if err != nil {
			fail(err)
			return
		}
		n.xforms = append(n.xforms, newXform(info, t, def.NoPanic))
		n.ruleNames = append(n.ruleNames, info.code)
		return
	}
	checker, err := compileRule(&def, args, typ)
	if err != nil {
		fail(err)
		return
	}
	for _, prev := range [2][]check{n.inChecks, n.outChecks} {
		for _, p := range prev {
			if err := rules.BoundsConflict(p.c, checker); err != nil {
				c.errorf(f, r.Pos, "%s: %s", strings.ToLower(def.Name), err)
				return
			}
		}
	}
	ck := check{rule: info.code, c: checker, noPanic: def.NoPanic, info: info}
	n.ruleNames = append(n.ruleNames, ck.rule)
	if def.Implied.Has(typ) {
		return // the conversion already guarantees it: nothing to check
	}
	if def.Stage == rules.Input {
		n.inChecks = append(n.inChecks, ck)
	} else {
		n.outChecks = append(n.outChecks, ck)
	}
}

// maxParamList is how many values a list param (in's values) holds.
const maxParamList = 100

// ruleInfoOf returns what a failure of one use of def reports: the rule's
// own name (an alias's use too) and its params. A rule of any number of
// arguments reports those from its last param's place on as one list.
func ruleInfoOf(def *rules.Def, args []dsl.Arg) *ruleInfo {
	info := &ruleInfo{code: strings.ToLower(def.Name)}
	for i, name := range def.Params {
		if i >= len(args) {
			break
		}
		if def.MaxArgs < 0 && i == len(def.Params)-1 {
			// A list, of at most maxParamList values: an error body stays
			// small whatever the declaration lists ("more" counts the rest).
			rest := args[i:]
			list := make([]any, 0, min(len(rest), maxParamList))
			for _, a := range rest[:min(len(rest), maxParamList)] {
				list = append(list, typedArg(a.Text, a.Quoted))
			}
			info.params = append(info.params, RuleParam{name, list})
			if len(rest) > maxParamList {
				info.params = append(info.params, RuleParam{"more", int64(len(rest) - maxParamList)})
			}
			break
		}
		info.params = append(info.params, RuleParam{name, typedArg(args[i].Text, args[i].Quoted)})
	}
	info.exact = len(info.params) == 2 && info.params[0].Value == info.params[1].Value
	return info
}

// compileRule calls a rule's Compile, turning a panic in user code into an
// error.
func compileRule(def *rules.Def, args []string, typ rules.Kind) (rules.Checker, error) {
	return compileGuarded(def.Compile, args, typ, "its Compile returned no Checker")
}

// compileGuarded calls a Def's Compile or Transform, turning a panic in
// user code into an error, and a nil result without one into the error
// none.
func compileGuarded[T comparable](compile func([]string, rules.Kind) (T, error), args []string, typ rules.Kind, none string) (c T, err error) {
	var zero T
	defer func() {
		if p := recover(); p != nil {
			c, err = zero, fmt.Errorf("panic while compiling: %v", p)
		}
	}()
	c, err = compile(args, typ)
	if err == nil && c == zero {
		err = errors.New(none)
	}
	return c, err
}

func argCount(lo, hi int) string {
	plural := func(n int) string {
		if n == 1 {
			return "1 argument"
		}
		return strconv.Itoa(n) + " arguments"
	}
	switch {
	case hi < 0:
		return "at least " + plural(lo)
	case lo == hi:
		return plural(lo)
	}
	return strconv.Itoa(lo) + " to " + plural(hi)
}

// defaultValue converts a default's text with the field's own conversion,
// checks it against the field's rules and pre-writes its JSON.
func (c *compiler) defaultValue(f *dsl.Field, n *node, r *dsl.Rule) {
	if n.each != nil && len(r.Args) > 0 {
		c.listDefault(f, n, r)
		return
	}
	var v rules.Value
	var pos = r.Pos
	if len(r.Args) == 0 {
		v = zeroValue(n.typ)
	} else {
		a := r.Args[0]
		pos = a.Pos
		switch n.typ {
		case rules.Any:
			var x any
			if !a.Quoted && json.Unmarshal([]byte(a.Text), &x) == nil {
				v = inputValue(raw{a: x})
			} else {
				v = rules.Value{Kind: rules.String, Str: a.Text}
			}
		case rules.List, rules.Object:
			var x any
			if err := json.Unmarshal([]byte(a.Text), &x); err == nil {
				v, _ = convert(n.typ, raw{a: x}, nil)
			}
		default:
			v, _ = convert(n.typ, raw{kind: rawStr, s: a.Text}, nil)
		}
		if v.Kind == rules.Null && !(n.typ == rules.Any && a.Text == "null" && !a.Quoted) {
			c.errorf(f, pos, "%s %q is not a valid %s", c.valueWord(), a.Text, n.typ)
			return
		}
	}
	if v.Kind == rules.Null && n.req {
		c.errorf(f, pos, "the %s is null, which req rejects on every call", c.valueWord())
		return
	}
	if v.Kind != rules.Null && len(n.xforms) > 0 {
		var err error
		if v, err = transformDefault(n, v); err != nil {
			c.errorf(f, pos, "the %s fails %v", c.valueWord(), err)
			return
		}
	}
	if v.Kind != rules.Null {
		if fs := judgeStatic(v, false, n.inChecks, n.outChecks); len(fs) > 0 {
			c.errorf(f, pos, "the %s fails rule %q: %v", c.valueWord(), fs[0].Rule, fs[0].Err)
			return
		}
	}
	var js []byte
	var err error
	if n.format != nil && v.Kind != rules.Null {
		js, err = n.format.append(nil, v)
	} else {
		js, err = appendValue(nil, n.typ, v, defaultDepth, maxOutputLimit)
	}
	if err != nil {
		c.errorf(f, pos, "the %s cannot be written as JSON: %v", c.valueWord(), err)
		return
	}
	n.hasDefault = true
	n.defNull = v.Kind == rules.Null
	n.defJSON = js
}

// exampleValue compiles `example 'value'`: the value is converted, judged
// and written as a default is, so that an example never breaks the
// field's own rules.
func (c *compiler) exampleValue(f *dsl.Field, n *node, r *dsl.Rule) {
	tmp := *n
	tmp.hasDefault, tmp.defJSON = false, nil
	c.example = true
	c.defaultValue(f, &tmp, r)
	c.example = false
	if tmp.hasDefault && !tmp.defNull {
		n.example = tmp.defJSON
	}
}

// valueWord names the value being compiled in an error: a default, or an
// example.
func (c *compiler) valueWord() string {
	if c.example {
		return "example"
	}
	return "default"
}

// zeroValue is the value of a bare default: the kind's zero value
// (rules.Kind.Zero), converted as an input would be: "", 0, 0.0, false, the
// Unix epoch, [], {}; null for none.
func zeroValue(k rules.Kind) rules.Value {
	v, _ := convert(k, raw{a: k.Zero()}, nil)
	return v
}

// article returns "an" before a vowel and "a" otherwise.
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// kindKey names the kind of a failing value in message keys: "string",
// "number", "list", or "" for another.
func kindKey(k rules.Kind) string {
	switch k {
	case rules.String:
		return "string"
	case rules.Int, rules.Float:
		return "number"
	case rules.List:
		return "list"
	case rules.Object:
		return "object"
	}
	return ""
}

// typedArg returns a rule's argument as a param's value: an int64 or a
// float64 when it is a number written without quotes, else its text.
func typedArg(a string, quoted bool) any {
	if !quoted {
		if i, err := strconv.ParseInt(a, 10, 64); err == nil {
			return i
		}
		if f, ok := textconv.ParseFloat(a); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f
		}
	}
	return a
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
