package entity_test

// A reference model of entity's documented semantics: a second, deliberately
// simple interpreter, written from README.md and go doc (entity, dsl, rules)
// only, without reading the library's implementation. It takes a
// declaration as package dsl parses it and an input of plain Go values (or
// raw JSON, or a request), walks the declaration field by field for every
// call, and gives the output as an ordered value and the field errors as
// (path, code) pairs. There is no plan, no fast path, no cache: every call
// reads the declaration again. Rules are package rules' (the model compiles
// each use through its public Def and runs its Checker); how an entity
// applies them (conversion, defaults, req, strictness, shaping, directions,
// merge, from, omit, key case, typed lists, references) is decided here,
// from the docs. FuzzModel (model_fuzz_test.go) compares it with the
// library on responses, FuzzModelRequest (model_fuzz_request_test.go) on
// requests: MakeRequest and Bind of *http.Request (model_request_test.go),
// Patch (model_patch_test.go), and cross-field rules (model_cross_test.go)
// in both directions.
//
// Unions ($a|$b by 'key') are modelled in responses and requests
// (model_union_test.go), on hand-written cases: the generators make none.
//
// It does not cover custom rules and formats, the limits (depth, errors,
// output and body sizes), Checked and Fail, form bodies (a form is a 415,
// as no generated entity reads forms), messages beyond msg and secret,
// and the schema documents.

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// mdlReg is the model's registry: the parsed declarations, the key case,
// the declared flags.
type mdlReg struct {
	ents    map[string]*mdlEntity
	keyCase entity.KeyCaseStyle
	flags   map[string]bool
	set     *rules.Set
	// pathValues is the registry's PathValues option, nil for none;
	// bodyLimit its Limits.BodyBytes (0: the default, 1 MiB).
	pathValues func(r *http.Request, name string) string
	bodyLimit  int64
	// jsonTypes is the registry's JSONTypes option: a request's JSON body
	// gives a number, float, bool or date as its JSON type only.
	jsonTypes bool
	// work counts the objects one case's calls made, each as long as its
	// path is deep (shared by the
	// registry's copies): past mdlWorkBudget the model gives up on the
	// case (mdlOverBudget), which is then not compared.
	work *int
}

// mdlWorkBudget is how many objects the model makes for one case before
// it gives up. The model is simple, not fast (it copies paths, follows
// every bare default): a declaration whose defaults and merges fan out
// can take it seconds, which a fuzzer's worker reports as a hang. The
// library's own bounds are tested apart (Limits, the depth tests).
const mdlWorkBudget = 1000000

// mdlOverBudget is the panic of a model past mdlWorkBudget.
type mdlOverBudget struct{}

type mdlEntity struct {
	name    string
	methods []string
	fields  []*mdlField
	// nested is fields as a request reads them below its top level: each
	// parameter field a readonly body field under its key (fieldsAt).
	nested []*mdlField
}

// fieldsAt gives the fields of e a call reads at a level: below the top
// level of a request (top false), its parameter fields are the server's,
// as readonly body fields are (docs/requests.md: a request's parameters
// are its top level's).
func (c *mdlCall) fieldsAt(e *mdlEntity, top bool) []*mdlField {
	if top || !c.request {
		return e.fields
	}
	return e.nested
}

// mdlOp is one check or transform of a field, compiled through its Def.
type mdlOp struct {
	code      string   // the Def's name: the error's code
	args      []string // as written
	def       rules.Def
	check     rules.Checker
	transform rules.Transformer
}

// mdlField is one declared field, its rules read into what they say.
type mdlField struct {
	name     string
	key      string // the output key: rename, else the name in the key case
	kind     dsl.FieldKind
	typ      rules.Kind // value fields: the declared type (rules.List for a typed list)
	list     bool       // a typed list, []string or []$x
	elem     rules.Kind // []string: the element type
	ref      string
	children []*mdlField
	// variants and by: a union's ($a|$b by 'key'), modelled in
	// model_union_test.go.
	variants []string
	by       string

	req, secret, lazy, omitNil, omitEmpty bool
	readOnly, writeOnly, merge            bool
	immutable                             bool
	hasDefault                            bool
	defArg                                *dsl.Arg // nil: a bare default
	hasMsg                                bool
	msg                                   string
	hasIf, hasUnless                      bool
	ifs, unless                           []string
	since, until                          *mdlVer
	from                                  []string
	format                                []string
	ops                                   []mdlOp
	each                                  []mdlOp
	eachFormat                            []string
	// src is where a request reads a top-level value field: "path",
	// "query", "header" (a header directive, or a name starting with X-)
	// or "cookie", under srcName; "" for the body.
	src, srcName string
	cross        []mdlCross
}

// mdlCross is one cross-field rule of a field: its name (required_if,
// required_with, required_without, excluded_with), the siblings it names
// by their declared names, and required_if's values as written.
type mdlCross struct {
	rule   string
	names  []string
	values []dsl.Arg
}

// mdlDecl is one entity's declaration as triples.
type mdlDecl struct {
	name    string
	triples []string
}

// mdlNewReg reads the declarations into a model registry.
func mdlNewReg(keyCase entity.KeyCaseStyle, flags []string, decls []mdlDecl) (*mdlReg, error) {
	r := &mdlReg{ents: map[string]*mdlEntity{}, keyCase: keyCase, flags: map[string]bool{}, set: rules.Builtin()}
	for _, f := range flags {
		r.flags[f] = true
	}
	for _, d := range decls {
		pe, err := dsl.Parse(d.name, d.triples...)
		if err != nil {
			return nil, err
		}
		e := &mdlEntity{name: d.name, methods: pe.Methods}
		for _, f := range pe.Fields {
			mf, err := r.field(f)
			if err != nil {
				return nil, err
			}
			e.fields = append(e.fields, mf)
		}
		e.nested = slices.Clone(e.fields)
		for i, f := range e.fields {
			if f.src != "" {
				ro := *f
				ro.readOnly, ro.src, ro.srcName = true, "", ""
				e.nested[i] = &ro
			}
		}
		r.ents[d.name] = e
	}
	return r, nil
}

func (r *mdlReg) field(f *dsl.Field) (*mdlField, error) {
	mf := &mdlField{name: f.Name, kind: f.Kind, typ: f.Type, list: f.List, elem: f.Elem, ref: f.Ref, variants: f.Variants, by: f.UnionKey()}
	rename := ""
	hasRename := false
	declared := f.Type
	if f.Kind == dsl.FieldRef {
		declared = rules.List
	}
	for _, rule := range f.Rules {
		args := make([]string, len(rule.Args))
		for i, a := range rule.Args {
			args[i] = a.Text
		}
		switch rules.LookupDirective(rule.Name) {
		case rules.DirectiveNone:
		case rules.DirectiveReq:
			mf.req = true
		case rules.DirectiveDefault:
			mf.hasDefault = true
			mf.defArg = nil
			if len(rule.Args) > 0 {
				a := rule.Args[0]
				mf.defArg = &a
			}
		case rules.DirectiveRename:
			rename, hasRename = args[0], true
		case rules.DirectiveSecret:
			mf.secret = true
		case rules.DirectiveMsg:
			mf.hasMsg, mf.msg = true, args[0]
		case rules.DirectiveLazy:
			mf.lazy = true
		case rules.DirectiveIf:
			mf.hasIf = true
			mf.ifs = append(mf.ifs, args...)
		case rules.DirectiveUnless:
			mf.hasUnless = true
			mf.unless = append(mf.unless, args...)
		case rules.DirectiveSince:
			v, ok := mdlParseVer(args[0])
			if !ok {
				return nil, fmt.Errorf("model: bad version %q", args[0])
			}
			mf.since = &v
		case rules.DirectiveUntil:
			v, ok := mdlParseVer(args[0])
			if !ok {
				return nil, fmt.Errorf("model: bad version %q", args[0])
			}
			mf.until = &v
		case rules.DirectiveOmitNil:
			mf.omitNil = true
		case rules.DirectiveOmitEmpty:
			mf.omitEmpty = true
		case rules.DirectiveReadOnly:
			mf.readOnly = true
		case rules.DirectiveWriteOnly:
			mf.writeOnly = true
		case rules.DirectiveImmutable:
			mf.immutable = true
		case rules.DirectiveMerge:
			mf.merge = true
		case rules.DirectiveFrom:
			mf.from = mdlSplitFrom(args[0])
		case rules.DirectiveFormat:
			mf.format = args
		case rules.DirectiveEach:
			er, err := dsl.ParseRules(args[0])
			if err != nil {
				return nil, err
			}
			for _, e := range er {
				eargs := make([]string, len(e.Args))
				for i, a := range e.Args {
					eargs[i] = a.Text
				}
				if rules.LookupDirective(e.Name) == rules.DirectiveFormat {
					mf.eachFormat = eargs
					continue
				}
				op, err := r.op(e.Name, eargs, f.Elem)
				if err != nil {
					return nil, err
				}
				mf.each = append(mf.each, op)
			}
		case rules.DirectiveUnexpose:
			return nil, errors.New("model: unexpose outside Extend")
		case rules.DirectivePath, rules.DirectiveQuery, rules.DirectiveHeader, rules.DirectiveCookie:
			mf.src = rules.LookupDirective(rule.Name).String()
			if len(args) > 0 {
				mf.srcName = args[0]
			}
		case rules.DirectiveDoc, rules.DirectiveExample:
		case rules.DirectiveBy: // a union's key: mf.by
		case rules.DirectiveRequiredIf:
			mf.cross = append(mf.cross, mdlCross{rule: "required_if", names: args[:1], values: rule.Args[1:]})
		case rules.DirectiveRequiredWith, rules.DirectiveRequiredWithout, rules.DirectiveExcludedWith:
			mf.cross = append(mf.cross, mdlCross{rule: rules.LookupDirective(rule.Name).String(), names: args})
		default:
			op, err := r.op(rule.Name, args, declared)
			if err != nil {
				return nil, err
			}
			mf.ops = append(mf.ops, op)
		}
	}
	if hasRename {
		mf.key = rename
	} else {
		mf.key = mdlKeyCase(r.keyCase, f.Name)
	}
	// A source directive's argument names the parameter; by default the
	// field's key, a header field's declared name. A name starting with X-
	// is a header field.
	if mf.src == "" && mdlIsHeader(f.Name) && f.Kind == dsl.FieldValue {
		mf.src, mf.srcName = "header", f.Name
	}
	if mf.src != "" && mf.srcName == "" {
		mf.srcName = mf.key
		if mf.src == "header" {
			mf.srcName = f.Name
		}
	}
	for _, c := range f.Fields {
		mc, err := r.field(c)
		if err != nil {
			return nil, err
		}
		mf.children = append(mf.children, mc)
	}
	return mf, nil
}

func (r *mdlReg) op(name string, args []string, declared rules.Kind) (mdlOp, error) {
	def, ok := r.set.Lookup(name)
	if !ok {
		return mdlOp{}, fmt.Errorf("model: unknown rule %q", name)
	}
	op := mdlOp{code: def.Name, def: def, args: args}
	var err error
	if def.Transform != nil {
		op.transform, err = def.Transform(args, declared)
	} else {
		op.check, err = def.Compile(args, declared)
	}
	return op, err
}

// mdlSplitFrom splits a from path at its dots, `\.` being a dot in a name.
func mdlSplitFrom(s string) []string {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '.':
			cur.WriteByte('.')
			i++
		case s[i] == '.':
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(s[i])
		}
	}
	return append(out, cur.String())
}

// mdlKeyCase writes a declared name in a key case style, as KeyCaseStyle's
// doc says: words split at '_', '-' and before an upper-case letter that
// follows a lower-case letter or a digit; a name with no word is kept.
func mdlKeyCase(style entity.KeyCaseStyle, name string) string {
	if style == entity.AsDeclared {
		return name
	}
	var words [][]rune
	var cur []rune
	prev := rune(0)
	for _, c := range name {
		if c == '_' || c == '-' {
			if len(cur) > 0 {
				words = append(words, cur)
			}
			cur, prev = nil, c
			continue
		}
		if unicode.IsUpper(c) && len(cur) > 0 && (unicode.IsLower(prev) || ('0' <= prev && prev <= '9')) {
			words = append(words, cur)
			cur = nil
		}
		cur = append(cur, c)
		prev = c
	}
	if len(cur) > 0 {
		words = append(words, cur)
	}
	if len(words) == 0 {
		return name
	}
	var b strings.Builder
	for i, w := range words {
		for j, c := range w {
			c = unicode.ToLower(c)
			if j == 0 && (style == entity.PascalCase || (style == entity.CamelCase && i > 0)) {
				c = unicode.ToUpper(c)
			}
			b.WriteRune(c)
		}
		if i < len(words)-1 {
			switch style {
			case entity.SnakeCase:
				b.WriteByte('_')
			case entity.KebabCase:
				b.WriteByte('-')
			}
		}
	}
	return b.String()
}

// mdlVer is a version: up to four dotted numbers, missing ones 0.
type mdlVer [4]uint64

func mdlParseVer(s string) (mdlVer, bool) {
	var v mdlVer
	s = strings.TrimPrefix(s, "v")
	parts := strings.Split(s, ".")
	if s == "" || len(parts) > 4 {
		return v, false
	}
	for i, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return v, false
		}
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

func (v mdlVer) less(w mdlVer) bool {
	for i := range v {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return false
}

// mdlOpts are one call's options.
type mdlOpts struct {
	request   bool // MakeRequest rather than MakeJSON
	with      []string
	hasWith   bool
	ctxFlags  []string
	hasCtx    bool
	version   string
	sel       string
	hasSel    bool
	only      []string
	hasOnly   bool
	except    []string
	hasExcept bool
	strict    bool
	lax       bool
	deny      bool
	lang      string
}

func (o mdlOpts) shaped() bool {
	return o.hasWith || o.hasCtx || o.version != "" || o.hasSel || o.hasOnly || o.hasExcept
}

// mdlProv says how an *entity.Object given as input was made.
type mdlProv struct {
	entity  string
	request bool // by MakeRequest
	shaped  bool // with shaping options
}

// mdlObjIn is an *entity.Object read by the model: its JSON and how it was
// made.
type mdlObjIn struct {
	js   *mdlJSON
	obj  *entity.Object
	prov mdlProv
}

// mdlErr is one field error as the model predicts it.
type mdlErr struct {
	path, outPath, code string
	msg                 string
	checkMsg            bool // the model knows the message (secret, msg)
	// in is where a request's value was when not in the body ("path",
	// "query", "header", "cookie"; path is then the parameter's name);
	// pointer the RFC 6901 pointer of a body's value.
	in, pointer string
	// anyCode: the docs say that the call fails there, not with which
	// code (a repeated scalar query key).
	anyCode bool
	// secret: the error is a secret field's, or a rule's naming a secret
	// sibling; forbidden are the texts its message and params must not
	// hold (the values of its in, of required_if, what it was sent).
	secret    bool
	forbidden []string
	// params are the library's (the model predicts none).
	params map[string]any
}

// mdlOutcome is a call's result: JSON, field errors, or an error that is
// not about fields (fail: "fields", "version", "unknownField",
// "unknownFlag", "unsupported", "invalidJSON", "method").
type mdlOutcome struct {
	json []byte
	errs []mdlErr
	fail string
	// full is the JSON of the Object with its writeonly values (what
	// Get, Map and Decode see), for requests and patches; touched the
	// paths a patch set or cleared.
	full    []byte
	touched []string
	// flags are the call's, those of its request's context included.
	flags []string
}

// mdlCall is the state of one call.
type mdlCall struct {
	reg     *mdlReg
	flags   map[string]bool
	ver     *mdlVer
	strict  bool
	deny    bool
	request bool
	shaped  bool
	lang    string
	prov    map[*entity.Object]mdlProv
	headers http.Header
	req     *mdlReqIn // the request a request call reads its sources from
	// patching: the call reads a patch's merged value (touched: the paths
	// the patch set or cleared); keepAll: it makes a patch's current
	// value, every field written (lazy ones, those an omit leaves out).
	patching bool
	touched  map[string]bool
	keepAll  bool
	// lastOut and lastNull are what the last value field made wrote
	// (before its checks), and whether it was null after defaults.
	lastOut  any
	lastNull bool
	errs     []mdlErr
	stack    []string // entities being made from an empty input by bare defaults
}

// mdlLevel is where the walk stands: the input object fields are read
// from, the paths, and how to read it.
type mdlLevel struct {
	in   any
	inP  mdlPath
	outP mdlPath
	wire bool // read output keys (requests, Objects made again)
	sec  bool // under a secret field
	top  bool // a request's top level (and the keys merged into it): sources are read
	wo   bool // the keys of a writeonly merged reference
	ro   bool // under a readonly merged reference (patching)
	// cur and pin are, patching, the current value's object and the
	// patch's at this level (nil for none); fromPatch: the level is an
	// element of a list the patch replaced, read as a request's.
	cur, pin  *mdlJSON
	fromPatch bool
	// cleared: patching, the level is a stored object the patch gave a
	// null for, kept as stored since it holds immutable values, each of
	// which the null changes
	cleared bool
	// woCleared: patching, the level is (in) a writeonly group the patch
	// gives a null for: every field of it is cleared, and read
	woCleared bool
	// fresh: patching, the level is (in) an object the patch gives where
	// none is stored, merged into nothing: its nulls are removed
	fresh bool
	// topCall is the object given to the call itself (not an element of a
	// list, nor a reference's)
	topCall bool
}

// newCall sets up a call: its flags (a request's context's too), version,
// language and compiled selection, or the failure of its options.
func (r *mdlReg) newCall(e *mdlEntity, input any, o mdlOpts, prov map[*entity.Object]mdlProv) (*mdlCall, *mdlSel, *mdlExc, string) {
	c := &mdlCall{reg: r, flags: map[string]bool{}, deny: o.deny, request: o.request, shaped: o.shaped(), lang: o.lang, prov: prov}
	c.strict = o.strict || (o.request && !o.lax)
	if o.lax {
		c.strict = false
	}
	for _, f := range o.with {
		if !r.flags[f] {
			return nil, nil, nil, "unknownFlag"
		}
		c.flags[f] = true
	}
	for _, f := range o.ctxFlags {
		if r.flags[f] {
			c.flags[f] = true
		}
	}
	if req, ok := input.(*http.Request); ok && o.request && req != nil {
		// the flags of the request's context apply without WithContext,
		// and its Accept-Language without Lang
		for _, f := range entity.FlagsFromContext(req.Context()) {
			if r.flags[f] {
				c.flags[f] = true
			}
		}
		if c.lang == "" {
			c.lang = mdlAcceptLang(req.Header.Get("Accept-Language"))
		}
	}
	if o.version != "" {
		v, ok := mdlParseVer(o.version)
		if !ok {
			return nil, nil, nil, "version"
		}
		c.ver = &v
	}
	var sel *mdlSel
	if o.hasSel && o.sel != "" {
		s, ok := c.compileSelect(e.fields, o.sel)
		if !ok {
			return nil, nil, nil, "fields"
		}
		sel = s
	}
	if o.hasOnly {
		s, ok := c.compilePaths(e.fields, o.only)
		if !ok {
			return nil, nil, nil, "unknownField"
		}
		sel = s
	}
	var exc *mdlExc
	if o.hasExcept {
		x, ok := c.compileExcept(e.fields, o.except)
		if !ok {
			return nil, nil, nil, "unknownField"
		}
		exc = x
	}
	return c, sel, exc, ""
}

// run makes input with entity name under opts.
func (r *mdlReg) run(name string, input any, o mdlOpts, prov map[*entity.Object]mdlProv) mdlOutcome {
	e := r.ents[name]
	if req, ok := input.(*http.Request); ok && o.request && req != nil && !mdlMethodAllowed(e, req.Method) {
		return mdlOutcome{fail: "method"} // the request itself first
	}
	c, sel, exc, fail := r.newCall(e, input, o, prov)
	if fail != "" {
		if req, ok := input.(*http.Request); ok && o.request {
			// which of a call's bad options and a request that cannot be
			// read is answered is not documented: the model says neither
			rc := &mdlCall{reg: r, request: true}
			if _, rfail := rc.readRequest(e, req); rfail != "" {
				return mdlOutcome{fail: "undocumented"}
			}
		}
		return mdlOutcome{fail: fail}
	}
	var out any
	if o.request {
		req, _ := input.(*http.Request)
		body, fail := c.readRequest(e, req)
		if fail != "" {
			return mdlOutcome{fail: fail}
		}
		out = c.makeEntity(e, mdlLevel{in: body, wire: true, top: true}, sel, exc)
		c.denyQuery(e)
	} else {
		v := input
		switch b := v.(type) {
		case []byte:
			v = json.RawMessage(b)
		}
		if b, ok := v.(json.RawMessage); ok {
			js, err := mdlParseJSON(b)
			if err != nil || (js.kind != mdlJObj && js.kind != mdlJArr) {
				return mdlOutcome{fail: "invalidJSON"}
			}
			v = js
		}
		v = c.readObject(mdlNorm(v))
		switch {
		case v == nil:
			out = c.makeEntity(e, mdlLevel{}, sel, exc)
		case mdlIsList(v):
			list := []any{}
			for i, el := range mdlElems(v) {
				el = c.readObject(mdlNorm(el))
				if !mdlIsObject(el) {
					continue
				}
				list = append(list, c.makeEntity(e, mdlLevel{in: el, inP: mdlPath{}.idx(i), outP: mdlPath{}.idx(len(list))}, sel, exc))
			}
			out = list
		case mdlIsObject(v):
			out = c.makeEntity(e, mdlLevel{in: v, topCall: true}, sel, exc)
		default:
			return mdlOutcome{fail: "unsupported"}
		}
	}
	if len(c.errs) > 0 {
		return mdlOutcome{errs: c.errs}
	}
	return mdlOutcome{json: mdlEncode(nil, out), full: mdlEncodeFull(nil, out), flags: c.flagList()}
}

// flagList gives the call's flags, sorted.
func (c *mdlCall) flagList() []string {
	var out []string
	for f := range c.flags {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// readObject reads an *entity.Object as the model sees it: its JSON and
// how it was made.
func (c *mdlCall) readObject(v any) any {
	o, ok := v.(*entity.Object)
	if !ok {
		return v
	}
	b, err := o.MarshalJSON()
	if err != nil || o == nil {
		return nil
	}
	// A response reads an Object as it writes it (MarshalJSON): a request's
	// writeonly values are not there, not even as keys DenyUnknown sees.
	js, err := mdlParseJSON(b)
	if err != nil {
		return nil
	}
	return mdlObjIn{js: js, obj: o, prov: c.prov[o]}
}

// shows reports whether the call's flags and version show f.
func (c *mdlCall) shows(f *mdlField) bool {
	if f.hasIf {
		ok := false
		for _, x := range f.ifs {
			ok = ok || c.flags[x]
		}
		if !ok {
			return false
		}
	}
	if f.hasUnless {
		for _, x := range f.unless {
			if c.flags[x] {
				return false
			}
		}
	}
	if c.ver != nil {
		if f.since != nil && c.ver.less(*f.since) {
			return false
		}
		if f.until != nil && !c.ver.less(*f.until) {
			return false
		}
	}
	return true
}

// directionHides reports whether the call's direction hides f: a response
// never writes a writeonly field, a request never reads a readonly one.
func (c *mdlCall) directionHides(f *mdlField) bool {
	if c.request {
		return f.readOnly
	}
	return f.writeOnly
}

// visible gives the fields of one object the call reads and writes: shown
// by flags and version, not hidden by the direction, and, in a call without
// a version, of the fields that share a key the one of the latest range
// (whatever the direction: when the direction hides that one, the call
// reads and writes none of them, go doc dsl).
// With forKeys, the fields whose keys the call knows: a request's readonly
// fields too (their keys are accepted: a client may send back what it got),
// but no writeonly field of a response, which does not read it.
func (c *mdlCall) visible(fields []*mdlField, forKeys bool) map[*mdlField]bool {
	vis := map[*mdlField]bool{}
	byKey := map[string][]*mdlField{}
	for _, f := range fields {
		if !c.shows(f) {
			continue
		}
		if !(c.directionHides(f) && !(forKeys && c.request)) {
			vis[f] = true
		}
		if !f.merge {
			byKey[f.key] = append(byKey[f.key], f)
		}
	}
	if c.ver == nil {
		for _, fs := range byKey {
			if len(fs) < 2 {
				continue
			}
			latest := fs[0]
			for _, f := range fs[1:] {
				if latest.since == nil || (f.since != nil && latest.since.less(*f.since)) {
					latest = f
				}
			}
			for _, f := range fs {
				if f != latest {
					delete(vis, f)
				}
			}
		}
	}
	return vis
}
