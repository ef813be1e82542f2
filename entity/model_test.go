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
// library; model_known_test.go lists where they disagree.

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
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
	// bugs are the known disagreements (model_known_test.go) the model
	// reproduces instead of the documented behaviour: zero but when the
	// comparison asks whether a disagreement is a known one.
	bugs    mdlBug
	ents    map[string]*mdlEntity
	keyCase entity.KeyCaseStyle
	flags   map[string]bool
	set     *rules.Set
}

type mdlEntity struct {
	name    string
	methods []string
	fields  []*mdlField
}

// mdlOp is one check or transform of a field, compiled through its Def.
type mdlOp struct {
	code      string // the Def's name: the error's code
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

	req, secret, lazy, omitNil, omitEmpty bool
	readOnly, writeOnly, merge            bool
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
		r.ents[d.name] = e
	}
	return r, nil
}

func (r *mdlReg) field(f *dsl.Field) (*mdlField, error) {
	mf := &mdlField{name: f.Name, kind: f.Kind, typ: f.Type, list: f.List, elem: f.Elem, ref: f.Ref}
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
	op := mdlOp{code: def.Name, def: def}
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
}

// mdlOutcome is a call's result: JSON, field errors, or an error that is
// not about fields (fail: "fields", "version", "unknownField",
// "unknownFlag", "unsupported", "invalidJSON", "method").
type mdlOutcome struct {
	json []byte
	errs []mdlErr
	fail string
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
	errs    []mdlErr
	stack   []string // entities being made from an empty input by bare defaults
	bugs    mdlBug
}

// mdlLevel is where the walk stands: the input object fields are read
// from, the paths, and how to read it.
type mdlLevel struct {
	in   any
	inP  mdlPath
	outP mdlPath
	wire bool // read output keys (requests, Objects made again)
	sec  bool // under a secret field
	top  bool // a request's top level: X- fields come from the headers
	// topCall is the object given to the call itself (not an element of a
	// list, nor a reference's)
	topCall bool
}

// run makes input with entity name under opts.
func (r *mdlReg) run(name string, input any, o mdlOpts, prov map[*entity.Object]mdlProv) mdlOutcome {
	e := r.ents[name]
	c := &mdlCall{reg: r, flags: map[string]bool{}, deny: o.deny, request: o.request, shaped: o.shaped(), lang: o.lang, prov: prov, bugs: r.bugs}
	c.strict = o.strict || (o.request && !o.lax)
	if o.lax {
		c.strict = false
	}
	for _, f := range o.with {
		if !r.flags[f] {
			return mdlOutcome{fail: "unknownFlag"}
		}
		c.flags[f] = true
	}
	for _, f := range o.ctxFlags {
		if r.flags[f] {
			c.flags[f] = true
		}
	}
	if o.version != "" {
		v, ok := mdlParseVer(o.version)
		if !ok {
			return mdlOutcome{fail: "version"}
		}
		c.ver = &v
	}
	var sel *mdlSel
	if o.hasSel && o.sel != "" {
		s, ok := c.compileSelect(e.fields, o.sel)
		if !ok {
			return mdlOutcome{fail: "fields"}
		}
		sel = s
	}
	if o.hasOnly {
		s, ok := c.compilePaths(e.fields, o.only)
		if !ok {
			return mdlOutcome{fail: "unknownField"}
		}
		sel = s
	}
	var exc *mdlExc
	if o.hasExcept {
		x, ok := c.compileExcept(e.fields, o.except)
		if !ok {
			return mdlOutcome{fail: "unknownField"}
		}
		exc = x
	}
	var out any
	if o.request {
		req, _ := input.(*http.Request)
		body, fail := c.readRequest(e, req)
		if fail != "" {
			return mdlOutcome{fail: fail}
		}
		out = c.makeEntity(e, mdlLevel{in: body, wire: true, top: true}, sel, exc)
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
	return mdlOutcome{json: mdlEncode(nil, out)}
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

// readRequest reads a request's JSON body: the object a request's fields
// are read from (headers aside), or a failure.
func (c *mdlCall) readRequest(e *mdlEntity, r *http.Request) (any, string) {
	if r == nil {
		return nil, ""
	}
	if len(e.methods) > 0 {
		ok := false
		for _, m := range e.methods {
			if m == r.Method || (m == "GET" && r.Method == "HEAD") {
				ok = true
			}
		}
		if !ok {
			return nil, "method"
		}
	}
	c.headers = r.Header
	if r.Body == nil {
		return nil, ""
	}
	var buf strings.Builder
	b := make([]byte, 4096)
	for {
		n, err := r.Body.Read(b)
		buf.Write(b[:n])
		if err != nil {
			break
		}
	}
	text := strings.TrimSpace(buf.String())
	if text == "" {
		return nil, ""
	}
	js, err := mdlParseJSON([]byte(text))
	if err != nil || js.kind != mdlJObj {
		return nil, "invalidJSON"
	}
	return js, ""
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
// a version, of the fields that share a key the one of the latest range.
// With forKeys, the fields whose keys the call knows: a request's readonly
// fields too (their keys are accepted: a client may send back what it got),
// but no writeonly field of a response, which does not read it.
func (c *mdlCall) visible(fields []*mdlField, forKeys bool) map[*mdlField]bool {
	vis := map[*mdlField]bool{}
	byKey := map[string][]*mdlField{}
	for _, f := range fields {
		if !c.shows(f) || (c.directionHides(f) && !(forKeys && c.request)) {
			continue
		}
		vis[f] = true
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

// known gives the keys an input object may hold for fields: the names (or
// the first step of from) of the fields the call reads there, groups'
// fields included; in the wire form the output keys, merged ones included.
func (c *mdlCall) known(fields []*mdlField, wire bool, into map[string]bool) {
	vis := c.visible(fields, true)
	for _, f := range fields {
		if !vis[f] {
			continue
		}
		switch {
		case wire && f.merge:
			if e := c.reg.ents[f.ref]; e != nil {
				c.known(e.fields, true, into)
			}
		case wire:
			into[f.key] = true
		case f.kind == dsl.FieldGroup && f.from == nil:
			c.known(f.children, false, into)
		case f.from != nil:
			into[f.from[0]] = true
		default:
			into[f.name] = true
		}
	}
}

// denyUnknown reports the keys of the object in that fields do not read.
func (c *mdlCall) denyUnknown(fields []*mdlField, lvl mdlLevel, top bool) {
	if !c.deny {
		return
	}
	keys := mdlKeys(lvl.in)
	if len(keys) == 0 {
		return
	}
	known := map[string]bool{}
	c.known(fields, lvl.wire, known)
	if top && c.request {
		for _, f := range fields {
			if mdlIsHeader(f.name) {
				delete(known, f.key)
			}
		}
	}
	for _, k := range keys {
		if !known[k] {
			c.errs = append(c.errs, mdlErr{path: lvl.inP.key(k).String(), code: "unknown"})
		}
	}
}

// mdlKeys gives the keys of an input object: a map's, raw JSON's (distinct),
// an Object's; a struct has none (its fields are not keys).
func mdlKeys(v any) []string {
	switch v := v.(type) {
	case *mdlJSON:
		return append(v.keys[:len(v.keys):len(v.keys)], v.hidden...)
	case mdlObjIn:
		return append(v.js.keys[:len(v.js.keys):len(v.js.keys)], v.js.hidden...)
	case nil:
		return nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Map {
		return nil
	}
	var keys []string
	for _, k := range rv.MapKeys() {
		keys = append(keys, k.String())
	}
	sort.Strings(keys)
	return keys
}

func mdlIsHeader(name string) bool {
	return len(name) >= 2 && (name[0] == 'X' || name[0] == 'x') && name[1] == '-'
}

// mdlLookup reads key from an input object: absent is (nil, false).
func mdlLookup(in any, key string) (any, bool) {
	switch v := in.(type) {
	case nil:
		return nil, false
	case *mdlJSON:
		if v.kind != mdlJObj {
			return nil, false
		}
		if e, ok := v.obj[key]; ok {
			return e, true
		}
		return nil, false
	case mdlObjIn:
		if e, ok := v.js.obj[key]; ok {
			return e, true
		}
		return nil, false
	}
	rv := reflect.ValueOf(in)
	switch rv.Kind() {
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return nil, false
		}
		e := rv.MapIndex(reflect.ValueOf(key).Convert(rv.Type().Key()))
		if !e.IsValid() {
			return nil, false
		}
		return e.Interface(), true
	case reflect.Struct:
		return mdlStructField(rv, key)
	}
	return nil, false
}

// mdlStructField reads the field of a struct that encoding/json would fill
// for key: by json tag, else Go name, embedded structs flattened, the
// shallowest field winning and, among several at one depth, the one tagged.
func mdlStructField(rv reflect.Value, key string) (any, bool) {
	type cand struct {
		index  []int
		tagged bool
	}
	type level struct {
		t     reflect.Type
		index []int
	}
	cur := []level{{t: rv.Type()}}
	seen := map[reflect.Type]bool{}
	for len(cur) > 0 {
		var next []level
		var found []cand
		for _, l := range cur {
			if seen[l.t] {
				continue
			}
			seen[l.t] = true
			for i := 0; i < l.t.NumField(); i++ {
				sf := l.t.Field(i)
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if !sf.IsExported() && !(sf.Anonymous && ft.Kind() == reflect.Struct) {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, _, _ := strings.Cut(tag, ",")
				index := append(append([]int(nil), l.index...), i)
				if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					next = append(next, level{t: ft, index: index})
					continue
				}
				if !sf.IsExported() {
					continue
				}
				tagged := name != ""
				if name == "" {
					name = sf.Name
				}
				if name == key {
					found = append(found, cand{index: index, tagged: tagged})
				}
			}
		}
		if len(found) > 0 {
			pick := -1
			if len(found) == 1 {
				pick = 0
			} else {
				for i, f := range found {
					if f.tagged {
						if pick >= 0 {
							return nil, false
						}
						pick = i
					}
				}
			}
			if pick < 0 {
				return nil, false
			}
			v := rv
			for _, i := range found[pick].index {
				if v.Kind() == reflect.Pointer {
					if v.IsNil() {
						return nil, false
					}
					v = v.Elem()
				}
				v = v.Field(i)
			}
			return v.Interface(), true
		}
		cur = next
	}
	return nil, false
}

// read reads f's value at a level: under its name, at its from path, under
// its output key in the wire form, or from the headers.
func (c *mdlCall) read(f *mdlField, lvl mdlLevel) (any, bool, mdlPath) {
	if lvl.wire {
		if lvl.top && c.request && mdlIsHeader(f.name) {
			p := lvl.inP.key(f.name)
			if c.headers == nil {
				return nil, false, p
			}
			vals := c.headers.Values(f.name)
			if len(vals) == 0 {
				return nil, false, p
			}
			if f.kind == dsl.FieldValue && f.typ == rules.List {
				out := make([]any, len(vals))
				for i, v := range vals {
					out[i] = v
				}
				return out, true, p
			}
			return vals[0], true, p
		}
		v, ok := mdlLookup(lvl.in, f.key)
		return v, ok, lvl.inP.key(f.key)
	}
	if f.from != nil {
		return c.readFrom(lvl.in, f.from, lvl.inP)
	}
	v, ok := mdlLookup(lvl.in, f.name)
	return v, ok, lvl.inP.key(f.name)
}

// readFrom follows a from path: a name steps into an object, a number
// into a list; a path that finds nothing is absent. The path read names
// every step, a number as an index unless it stepped into an object.
func (c *mdlCall) readFrom(in any, steps []string, p mdlPath) (any, bool, mdlPath) {
	cur, found := in, true
	for _, s := range steps {
		cur = mdlNorm(cur)
		if o, ok := cur.(*entity.Object); ok && o != nil { // an Object is stepped into by its keys, as it writes them
			b, _ := o.MarshalJSON()
			cur, _ = mdlParseJSON(b)
		}
		n, err := strconv.Atoi(s)
		isNum := err == nil && n >= 0 && strings.Trim(s, "0123456789") == ""
		switch {
		case isNum && !mdlIsObject(cur):
			p = p.idx(n)
			if found && mdlIsList(cur) && n < len(mdlElems(cur)) {
				cur = mdlElems(cur)[n]
				continue
			}
		default:
			p = p.key(s)
			if found {
				if v, ok := mdlLookup(cur, s); ok {
					cur = v
					continue
				}
			}
		}
		found, cur = false, nil
	}
	return cur, found, p
}

// fail records a field error of f.
func (c *mdlCall) fail(f *mdlField, p, op mdlPath, code string, sec bool) {
	e := mdlErr{path: p.String(), outPath: op.String(), code: code}
	switch {
	case f != nil && f.hasMsg:
		e.msg, e.checkMsg = mdlRenderMsg(f.msg, f.name), true
	case (sec || (f != nil && f.secret)) && (code == "in" || code == "regex"):
		// go doc entity, Errors: "Under a secret field the messages that may
		// describe the value (in, regex, a custom rule's) are "is not
		// valid", in the call's language; the built-in ones that quote no
		// value stay"
		e.msg, e.checkMsg = "is not valid", true
		if strings.HasPrefix(c.lang, "ja") {
			e.msg = "正しくありません"
		}
	}
	c.errs = append(c.errs, e)
}

// mdlRenderMsg renders a msg: {field} is the input name, {{ and }} braces.
func mdlRenderMsg(msg, field string) string {
	var b strings.Builder
	for i := 0; i < len(msg); i++ {
		switch {
		case strings.HasPrefix(msg[i:], "{{"):
			b.WriteByte('{')
			i++
		case strings.HasPrefix(msg[i:], "}}"):
			b.WriteByte('}')
			i++
		case strings.HasPrefix(msg[i:], "{field}"):
			b.WriteString(field)
			i += len("{field}") - 1
		default:
			b.WriteByte(msg[i])
		}
	}
	return b.String()
}

// makeEntity makes one object of entity e from the object at lvl.
func (c *mdlCall) makeEntity(e *mdlEntity, lvl mdlLevel, sel *mdlSel, exc *mdlExc) any {
	if o, ok := lvl.in.(mdlObjIn); ok {
		if o.prov.entity == e.name && !o.prov.request && !o.prov.shaped && !c.shaped && !c.request {
			b, _ := o.obj.MarshalJSON()
			return mdlRaw(b)
		}
		if o.prov.entity == e.name {
			lvl.wire = true
		}
		lvl.in = o.js
	}
	c.denyUnknown(e.fields, lvl, lvl.top)
	obj := &mdlObj{}
	c.writeFields(obj, e.fields, lvl, sel, exc)
	return obj
}

// writeFields writes the fields of one output object.
func (c *mdlCall) writeFields(obj *mdlObj, fields []*mdlField, lvl mdlLevel, sel *mdlSel, exc *mdlExc) {
	vis := c.visible(fields, false)
	for _, f := range fields {
		if !vis[f] {
			continue
		}
		if f.kind == dsl.FieldRef && f.merge {
			c.writeMerge(obj, f, lvl, sel, exc)
			continue
		}
		sub, selected := sel.pick(f)
		if f.kind == dsl.FieldValue && sub != nil && sub.path && !sub.leaf {
			selected = false // a path into a value field's fields: it has none
		}
		esub, excluded := exc.pick(f.key)
		if !c.request && (!selected || excluded) {
			continue
		}
		v, omit := c.makeField(f, lvl, sub, esub)
		if omit || !selected || excluded {
			continue
		}
		obj.add(f.key, v)
	}
}

// writeMerge writes a merged reference's keys into obj.
func (c *mdlCall) writeMerge(obj *mdlObj, f *mdlField, lvl mdlLevel, sel *mdlSel, exc *mdlExc) {
	e := c.reg.ents[f.ref]
	sub := lvl
	sub.sec = lvl.sec || f.secret
	sub.top = false
	if f.lazy && (!lvl.wire || !c.request) {
		// a lazy merge field is written only where a selection names its
		// keys (an Object made again, in the wire form, too)
		named := &mdlSel{names: map[string]*mdlSel{}}
		if sel != nil {
			named.names = sel.names
		}
		sel = named
	}
	if lvl.wire {
		c.writeFields(obj, e.fields, sub, sel, exc)
		return
	}
	// fields that are not selected are not read: the merge field is read
	// when one of its entity's fields is written
	if !c.request && (sel != nil || exc != nil) && !c.mergePicked(e, sel, exc, 0) {
		// without a selection the merge field is read like any other; with
		// one, when a field of its entity is written
		return
	}
	raw, found, p := c.read(f, lvl)
	in := c.readObject(mdlNorm(raw))
	sub.inP = p
	if found && in != nil && !mdlIsObject(in) {
		// a list or anything else merges nothing: it is null
		if c.strict {
			c.fail(f, p, lvl.outP, "type", lvl.sec)
			return
		}
		in = nil
	}
	if in == nil {
		if !f.hasDefault {
			if f.req {
				c.fail(f, p, lvl.outP, "required", lvl.sec)
			}
			return
		}
		// its bare default makes the entity from an empty input, in place:
		// one that comes back to an entity being made so is a cycle
		if slices.Contains(c.stack, e.name) {
			c.fail(f, p, lvl.outP, "default", lvl.sec)
			return
		}
		c.stack = append(c.stack, e.name)
		defer func() { c.stack = c.stack[:len(c.stack)-1] }()
	}
	if o, ok := in.(mdlObjIn); ok {
		sub.wire = o.prov.entity == e.name
		in = o.js
	}
	sub.in = in
	c.denyUnknown(e.fields, sub, false)
	c.writeFields(obj, e.fields, sub, sel, exc)
}

// mergePicked reports whether the selection writes a field of the merged
// entity e (through nested merges too).
func (c *mdlCall) mergePicked(e *mdlEntity, sel *mdlSel, exc *mdlExc, depth int) bool {
	for _, mf := range e.fields {
		if mf.merge {
			if me := c.reg.ents[mf.ref]; me != nil && depth < 16 && !mf.lazy && c.mergePicked(me, sel, exc, depth+1) {
				return true
			}
			continue
		}
		if c.directionHides(mf) { // a writeonly field of a response, which a selection may name, writes nothing
			continue
		}
		if _, ok := sel.pick(mf); ok || (sel == nil && !mf.lazy) {
			if _, ex := exc.pick(mf.key); !ex {
				return true
			}
		}
	}
	return false
}

// makeField makes one field's value; omit reports a key left out.
func (c *mdlCall) makeField(f *mdlField, lvl mdlLevel, sel *mdlSel, exc *mdlExc) (any, bool) {
	switch f.kind {
	case dsl.FieldGroup:
		return c.makeGroup(f, lvl, sel, exc)
	case dsl.FieldRef:
		return c.makeRef(f, lvl, sel, exc)
	}
	raw, found, p := c.read(f, lvl)
	op := lvl.outP.key(f.key)
	sec := lvl.sec || f.secret
	var out any
	if f.list {
		out = c.makeTypedList(f, raw, found, p, op, sec)
	} else {
		out = c.makeValue(f, raw, found, p, op, sec)
	}
	return out, mdlOmit(f, out)
}

// mdlOmit reports whether omitnil or omitempty leave the written value out.
func mdlOmit(f *mdlField, out any) bool {
	if out == nil {
		return f.omitNil || f.omitEmpty
	}
	if !f.omitEmpty {
		return false
	}
	switch v := out.(type) {
	case *mdlObj:
		return len(v.keys) == 0
	case []any:
		return len(v) == 0
	case mdlRaw:
		s := string(v)
		switch s {
		case "null", `""`, "false", "[]", "{}":
			return true
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && f == 0 && strings.Trim(s, "-0123456789.eE+") == "" {
			return true
		}
	}
	return false
}

// convert converts an input to a value of typ: the value, what the field
// writes a list, object or none value from, whether it is null, and whether
// it failed strict conversion (a type error).
func (c *mdlCall) convert(typ rules.Kind, raw any) (rules.Value, any, bool, bool) {
	in := mdlNorm(raw)
	if in == nil || mdlIsNilCollection(in) {
		return rules.Value{}, nil, true, false
	}
	if _, ok := in.(mdlValuerFailed); ok {
		return rules.Value{}, in, true, false
	}
	bad := func() (rules.Value, any, bool, bool) {
		return rules.Value{}, nil, true, c.strict
	}
	switch typ {
	case rules.List:
		if mdlIsNilCollection(in) {
			return rules.Value{}, nil, true, false
		}
		if !mdlIsList(in) {
			return bad()
		}
		return rules.Value{Kind: rules.List, Len: mdlLen(in), Any: in}, in, false, false
	case rules.Object:
		if mdlIsNilCollection(in) {
			return rules.Value{}, nil, true, false
		}
		switch v := in.(type) {
		case *entity.Object:
			return rules.Value{Kind: rules.Object, Len: v.Len(), Any: v.Map()}, v, false, false
		case *mdlJSON:
			if v.kind != mdlJObj {
				return bad()
			}
			return rules.Value{Kind: rules.Object, Len: len(v.keys), Any: v.goValue()}, in, false, false
		case mdlObjIn:
			return rules.Value{Kind: rules.Object, Len: len(v.js.keys), Any: v.js.goValue()}, v.obj, false, false
		}
		rv := reflect.ValueOf(in)
		if rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
			return bad()
		}
		return rules.Value{Kind: rules.Object, Len: rv.Len(), Any: in}, in, false, false
	case rules.Any:
		if mdlIsNilCollection(in) {
			return rules.Value{}, nil, true, false
		}
		if o, ok := in.(mdlObjIn); ok {
			return rules.Value{Kind: rules.Object, Len: len(o.js.keys), Any: o.js.goValue()}, o.obj, false, false
		}
		if o, ok := in.(*entity.Object); ok {
			return rules.Value{Kind: rules.Object, Len: o.Len(), Any: o.Map()}, o, false, false
		}
		return mdlNoneValue(in), in, false, false
	}
	if mdlIsList(in) || mdlIsObject(in) {
		return bad()
	}
	v, ok := mdlConvertScalar(typ, in, c.strict)
	if !ok {
		return bad()
	}
	return v, nil, false, false
}

// defaultValue is the value a default fills a null with, converted and
// transformed as the field's own values are.
func (c *mdlCall) defaultValue(f *mdlField, typ rules.Kind) (rules.Value, any, bool) {
	if f.defArg == nil {
		switch typ {
		case rules.Any:
			return rules.Value{}, nil, true
		case rules.List:
			return rules.Value{Kind: rules.List, Any: []any{}}, []any{}, false
		case rules.Object:
			return rules.Value{Kind: rules.Object, Any: map[string]any{}}, map[string]any{}, false
		}
		v, _ := mdlConvertScalar(typ, typ.Zero(), false)
		return v, nil, false
	}
	text := f.defArg.Text
	var raw any = text
	switch typ {
	case rules.List, rules.Object:
		js, err := mdlParseJSON([]byte(text))
		if err != nil {
			panic("model: a list or object default that is not JSON: " + text)
		}
		raw = js
	case rules.Any:
		if !f.defArg.Quoted {
			if js, err := mdlParseJSON([]byte(text)); err == nil {
				raw = js
			}
		}
	}
	saved := c.strict
	c.strict = false
	v, src, null, _ := c.convert(typ, raw)
	c.strict = saved
	if !null {
		v, _ = mdlTransform(f.ops, v)
	}
	return v, src, null
}

// mdlHasTransform reports a transform among ops.
func mdlHasTransform(ops []mdlOp) bool {
	for _, o := range ops {
		if o.transform != nil {
			return true
		}
	}
	return false
}

// mdlTransform runs a field's transforms in order; a failing one gives its
// code.
func mdlTransform(ops []mdlOp, v rules.Value) (rules.Value, string) {
	for _, op := range ops {
		if op.transform == nil {
			continue
		}
		if v.Kind != rules.String {
			continue // on none, transforms change strings only
		}
		nv, _, err := op.transform.Transform(v, nil)
		if err != nil {
			return v, op.code
		}
		if nv.Kind == rules.String {
			nv.Str = strings.Clone(nv.Str)
		}
		v = nv
	}
	return v, ""
}

// makeValue makes a value field: convert, default, transform, req, checks,
// write.
func (c *mdlCall) makeValue(f *mdlField, raw any, found bool, p, op mdlPath, sec bool) any {
	v, src, null, typeErr := c.convert(f.typ, raw)
	if typeErr {
		c.fail(f, p, op, "type", sec)
		return nil
	}
	if _, ok := src.(mdlValuerFailed); ok {
		c.fail(f, p, op, "value", sec)
		return nil
	}
	fromDefault := false
	if null && f.hasDefault {
		v, src, null = c.defaultValue(f, f.typ)
		fromDefault = true
	}
	if null {
		if f.req {
			c.fail(f, p, op, "required", sec)
		}
		return nil
	}
	_, isBytes := src.([]byte)
	if !fromDefault && !isBytes {
		// on none, transforms change strings only: a []byte is written as
		// base64, not as text
		var code string
		if v, code = mdlTransform(f.ops, v); code != "" {
			c.fail(f, p, op, code, sec)
			return nil
		}
		if isBytes && mdlHasTransform(f.ops) {
			src = nil
		}
	}
	passed := c.check(f, f.ops, f.typ, v, p, op, sec)
	out, err := c.write(f.typ, v, src, f.format)
	if err != nil {
		c.fail(f, p, op, "json", sec)
		return nil
	}
	if !passed {
		return nil
	}
	return out
}

// check runs the checks of ops on v; it reports whether all passed.
func (c *mdlCall) check(f *mdlField, ops []mdlOp, typ rules.Kind, v rules.Value, p, op mdlPath, sec bool) bool {
	ok := true
	for _, o := range ops {
		if o.check == nil || o.def.Implied.Has(typ) {
			continue
		}
		if err := o.check.Check(v); err != nil {
			c.fail(f, p, op, o.code, sec)
			ok = false
		}
	}
	return ok
}

// write writes a value of typ.
func (c *mdlCall) write(typ rules.Kind, v rules.Value, src any, format []string) (mdlRaw, error) {
	switch typ {
	case rules.List, rules.Object, rules.Any:
		if b, ok := src.([]byte); ok && typ == rules.Any {
			out, _ := json.Marshal(b)
			return mdlRaw(out), nil
		}
		if typ == rules.Any && v.Kind == rules.String {
			return mdlRaw(mdlEncodeString(nil, v.Str)), nil
		}
		if j, ok := src.(*mdlJSON); ok {
			return mdlRaw(j.compacted()), nil
		}
		b, err := json.Marshal(src)
		if err != nil {
			return nil, err
		}
		return mdlRaw(b), nil
	}
	return mdlWriteScalar(typ, v, format)
}

// makeTypedList makes a []string (…) field.
func (c *mdlCall) makeTypedList(f *mdlField, raw any, found bool, p, op mdlPath, sec bool) any {
	in := mdlNorm(raw)
	var out []any
	switch {
	case in == nil || mdlIsNilCollection(in):
	case !mdlIsList(in):
		if c.strict {
			c.fail(f, p, op, "type", sec)
			return nil
		}
	default:
		out = []any{}
		for i, el := range mdlElems(in) {
			out = append(out, c.makeElem(f, el, p.idx(i), op.idx(i), sec, false))
		}
	}
	if out == nil && f.hasDefault {
		out = []any{}
		if f.defArg != nil {
			js, err := mdlParseJSON([]byte(f.defArg.Text))
			if err != nil || js.kind != mdlJArr {
				panic("model: a typed list default that is not a JSON array")
			}
			saved := c.strict
			c.strict = false
			for i, el := range js.arr {
				out = append(out, c.makeElem(f, el, p.idx(i), op.idx(i), sec, true))
			}
			c.strict = saved
		}
	}
	if out == nil {
		if f.req {
			c.fail(f, p, op, "required", sec)
		}
		return nil
	}
	if !c.check(f, f.ops, rules.List, rules.Value{Kind: rules.List, Len: len(out), Any: out}, p, op, sec) {
		return nil
	}
	return out
}

// makeElem makes one element of a typed list, as a field of the element
// type with the each rules.
func (c *mdlCall) makeElem(f *mdlField, raw any, p, op mdlPath, sec, fromDefault bool) any {
	v, _, null, typeErr := c.convert(f.elem, raw)
	if typeErr {
		c.fail(f, p, op, "type", sec)
		return nil
	}
	if null {
		return nil
	}
	var code string
	if v, code = mdlTransform(f.each, v); code != "" {
		c.fail(f, p, op, code, sec)
		return nil
	}
	if !c.check(f, f.each, f.elem, v, p, op, sec) {
		return nil
	}
	out, _ := mdlWriteScalar(f.elem, v, f.eachFormat)
	return out
}

// makeGroup makes a group: an object of fields read from the same input
// level, or from the object at its from path (in the wire form, the object
// under its key).
func (c *mdlCall) makeGroup(f *mdlField, lvl mdlLevel, sel *mdlSel, exc *mdlExc) (any, bool) {
	sub := lvl
	sub.outP = lvl.outP.key(f.key)
	sub.sec = lvl.sec || f.secret
	sub.top = false
	if lvl.wire || f.from != nil {
		var raw any
		var found bool
		if lvl.wire {
			raw, found = mdlLookup(lvl.in, f.key)
			sub.inP = lvl.inP.key(f.key)
		} else {
			raw, found, sub.inP = c.readFrom(lvl.in, f.from, lvl.inP)
		}
		in := c.readObject(mdlNorm(raw))
		if o, ok := in.(mdlObjIn); ok {
			in = o.js
		}
		if !mdlIsObject(in) {
			if found && in != nil && c.strict && lvl.wire {
				c.fail(f, sub.inP, sub.outP, "type", lvl.sec)
			}
			in = nil
		}
		sub.in = in
		if lvl.wire {
			c.denyUnknown(f.children, sub, false)
		}
	}
	obj := &mdlObj{}
	c.writeFields(obj, f.children, sub, sel, exc)
	return obj, f.omitEmpty && len(obj.keys) == 0
}

// makeRef makes a $x or []$x field.
func (c *mdlCall) makeRef(f *mdlField, lvl mdlLevel, sel *mdlSel, exc *mdlExc) (any, bool) {
	raw, _, p := c.read(f, lvl)

	op := lvl.outP.key(f.key)
	e := c.reg.ents[f.ref]
	in := c.readObject(mdlNorm(raw))
	sec := lvl.sec || f.secret
	make1 := func(obj any, p, op mdlPath) any {
		// (a bare default's empty input is no wire form)
		return c.makeEntity(e, mdlLevel{in: obj, inP: p, outP: op, wire: lvl.wire && obj != nil, sec: sec}, sel, exc)
	}
	var out any
	null := false
	switch {
	case in == nil:
		null = true
	case f.list && mdlIsList(in):
		list := []any{}
		for i, el := range mdlElems(in) {
			el = c.readObject(mdlNorm(el))
			if mdlIsObject(el) {
				list = append(list, make1(el, p.idx(i), op.idx(i)))
				continue
			}
			if c.strict {
				c.fail(f, p.idx(i), op.idx(i), "type", sec)
			}
			list = append(list, nil)
		}
		out = list
	case !f.list && mdlIsObject(in):
		out = make1(in, p, op)
	case !f.list && mdlIsList(in) && !(c.request && lvl.wire):
		list := []any{}
		for i, el := range mdlElems(in) {
			el = c.readObject(mdlNorm(el))
			if mdlIsObject(el) {
				list = append(list, make1(el, p.idx(i), op.idx(len(list))))
				continue
			}
			if c.strict {
				c.fail(f, p.idx(i), op.idx(len(list)), "type", sec)
			}
		}
		out = list
	default:
		if c.strict {
			c.fail(f, p, op, "type", sec)
			return nil, false
		}
		null = true
	}
	if null && f.hasDefault {
		null = false
		if f.list {
			out = []any{}
		} else {
			out = c.makeFromEmpty(f, e, make1, p, op, sec)
		}
	}
	if null {
		if f.req {
			c.fail(f, p, op, "required", sec)
		}
		return nil, f.omitNil || f.omitEmpty
	}
	if l, ok := out.([]any); ok && len(f.ops) > 0 {
		c.check(f, f.ops, rules.List, rules.Value{Kind: rules.List, Len: len(l), Any: l}, p, op, sec)
	}
	return out, mdlOmit(f, out)
}

// makeFromEmpty makes the entity of a bare default from an empty input;
// bare defaults that come back to an entity being made this way are a
// cycle (code "default").
func (c *mdlCall) makeFromEmpty(f *mdlField, e *mdlEntity, make1 func(any, mdlPath, mdlPath) any, p, op mdlPath, sec bool) any {
	for _, n := range c.stack {
		if n == e.name {
			c.fail(f, p, op, "default", sec)
			return nil
		}
	}
	c.stack = append(c.stack, e.name)
	defer func() { c.stack = c.stack[:len(c.stack)-1] }()
	return make1(nil, p, op)
}
