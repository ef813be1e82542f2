package entity_test

// FuzzModelRequest: the request direction of the reference model against
// the library. Each case is a registry (FuzzModel's declarations with
// parameters and cross-field rules added) and one call: MakeRequest of a
// generated request, then Bind of it into a map and into a struct whose
// Make must write the request's response form again; or Patch of a
// current value; or a response (MakeJSON) of an entity with cross-field
// rules. They must agree on the Object (its response form and, with its
// writeonly values, what Decode sees), the field errors (path, code, and
// where a value came from: pointer, or parameter and in), the statuses,
// and touched.
//
//	go test -fuzz FuzzModelRequest -run '^$' -parallel 1 ./entity -fuzztime 10m
//	go test -run TestModelRequestSurvey ./entity -model.survey 5000   # every disagreement, without stopping

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

func FuzzModelRequest(f *testing.F) {
	// the seeds are testdata/fuzz/FuzzModelRequest: cases on which the
	// library and the model agree (TestModelRequestSurvey -model.agree)
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, g := mdlGenerateReq(data)
		if cs == nil {
			return
		}
		d, skip := cs.compareReq(g.lib)
		if skip || d == "" {
			return
		}
		if *mdlCollectFlag != "" {
			mdlSaveCorpus(t, *mdlCollectFlag, data)
			return
		}
		t.Fatalf("the library and the model disagree\n%s%s", cs.report(), d)
	})
}

// FuzzModelImmutable is FuzzModelRequest with value fields declared
// immutable now and then (in place of a rule-less "none"), so that its
// patches change, keep and clear fields set once. Its corpus is its own.
func FuzzModelImmutable(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, g := mdlGenerateReqWith(data, true)
		if cs == nil {
			return
		}
		d, skip := cs.compareReq(g.lib)
		if skip || d == "" {
			return
		}
		t.Fatalf("the library and the model disagree\n%s%s", cs.report(), d)
	})
}

// mdlGenerateReq makes the whole case of data: nil when the library
// refuses the declarations.
func mdlGenerateReq(data []byte) (*mdlCase, *mdlGen) {
	return mdlGenerateReqWith(data, false)
}

// mdlGenerateReqWith is mdlGenerateReq, with immutable fields when
// immutable is set.
func mdlGenerateReqWith(data []byte, immutable bool) (*mdlCase, *mdlGen) {
	cs, g := newMdlCaseWith(data, immutable)
	g.requestDecls(cs)
	if _, err := cs.build(); err != nil {
		return nil, nil
	}
	var err error
	if g.reg, err = mdlNewReg(cs.keyCase, cs.flags, cs.decls); err != nil {
		panic(fmt.Sprintf("the model cannot read declarations the library accepts: %v\n%s", err, cs.report()))
	}
	switch x := g.r.intn(100); {
	case x < 55:
		cs.mode = "request"
		cs.opts.request = true
		g.requestCall(cs, false)
		g.requestOptions(cs)
	case x < 88:
		cs.mode = "patch"
		cs.opts.request = true
		e := g.reg.ents[cs.entity]
		cur := &mdlGV{kind: 'o'}
		g.currentFor(e.fields, cur, 0)
		cs.current = g.toGo(cur)
		if g.r.chance(25) {
			cs.current = g.toJSON(nil, cur)
		}
		g.requestCall(cs, true)
		g.requestOptions(cs)
	default:
		// (the Objects in the input are this registry's: the call must be
		// made with its entities)
		reg, _ := cs.build()
		g.input(cs, reg)
		g.options(cs)
		g.lib = reg
		return cs, g
	}
	// (drawn last, so that the draws before it make the same case as
	// before the option was modeled)
	cs.jsonTypes = g.r.chance(30)
	if g.lib, err = cs.build(); err != nil {
		return nil, nil
	}
	return cs, g
}

// compareReq runs the case through the library and the model, and
// describes where they disagree ("" when they agree).
func (cs *mdlCase) compareReq(reg *entity.Registry) (diff string, skip bool) {
	var mod mdlOutcome
	var perr any
	func() {
		defer func() {
			if perr = recover(); perr != nil {
				if _, over := perr.(mdlOverBudget); over {
					return
				}
				perr = fmt.Sprintf("%v\n%s", perr, debug.Stack())
			}
		}()
		var err error
		if mod, err = cs.model(); err != nil {
			perr = err
		}
	}()
	if _, over := perr.(mdlOverBudget); over {
		// the model gave up: the library still runs the case (a panic of
		// its own is a failure), which is not compared
		switch cs.mode {
		case "request":
			_, _, _ = cs.libRequest(reg)
		case "patch":
			_, _, _ = cs.libPatch(reg)
		default:
			_, _ = cs.walker(reg)
		}
		return "", true
	}
	if perr != nil {
		return fmt.Sprintf("the model panicked: %v", perr), false
	}
	switch cs.mode {
	case "request":
		lib, obj, skip := cs.libRequest(reg)
		if skip || mod.fail == "undocumented" {
			return "", true
		}
		if d := mdlDiffReq(lib, mod); d != "" {
			return d, false
		}
		if obj != nil {
			return cs.bindChecks(reg, obj, mod), false
		}
		return "", false
	case "patch":
		lib, obj, skip := cs.libPatch(reg)
		if skip || mod.fail == "undocumented" {
			return "", true
		}
		if d := mdlDiffReq(lib, mod); d != "" {
			return d, false
		}
		if obj != nil {
			return cs.patchBindCheck(obj, mod), false
		}
		return "", false
	}
	lib, skip := cs.walker(reg)
	if skip {
		return "", true
	}
	return mdlDiff(lib, mod), false
}

// libRequest runs MakeRequest through the library.
func (cs *mdlCase) libRequest(reg *entity.Registry) (mdlOutcome, *entity.Object, bool) {
	obj, err := reg.Lookup(cs.entity).MakeRequest(cs.request(), cs.opts.options()...)
	if err != nil {
		out, skip := mdlLibError(err, false)
		return out, nil, skip
	}
	return mdlOutcome{json: []byte(obj.String()), full: mdlDecoded(obj)}, obj, false
}

// libPatch runs Patch through the library.
func (cs *mdlCase) libPatch(reg *entity.Registry) (mdlOutcome, *entity.Object, bool) {
	obj, touched, err := reg.Lookup(cs.entity).Patch(cs.request(), cs.current, cs.opts.options()...)
	if err != nil {
		out, skip := mdlLibError(err, true)
		return out, nil, skip
	}
	return mdlOutcome{json: []byte(obj.String()), full: mdlDecoded(obj), touched: touched}, obj, false
}

// mdlDecoded gives what Decode sees of an Object (its writeonly values
// too), as canonical JSON; nil when it does not decode.
func mdlDecoded(obj *entity.Object) []byte {
	var v any
	if err := obj.Decode(&v); err != nil {
		return nil
	}
	b, _ := json.Marshal(v)
	return b
}

// mdlCanon gives JSON text in one spelling: numbers as float64, keys
// sorted; nil for text that is no JSON or holds a number beyond float64.
func mdlCanon(text []byte) []byte {
	var v any
	if err := json.Unmarshal(text, &v); err != nil {
		return nil
	}
	b, _ := json.Marshal(v)
	return b
}

// mdlErrKey is an error's place and code for a comparison of requests:
// path, in (or pointer) and code.
func mdlErrKey(e mdlErr) string {
	where := e.pointer
	if e.in != "" {
		where = "in " + e.in
	}
	return e.path + " (" + where + "):" + e.code
}

// mdlDiffReq compares a request's or a patch's outcomes.
func mdlDiffReq(lib, mod mdlOutcome) string {
	if lib.fail != mod.fail || (lib.errs != nil) != (mod.errs != nil) {
		return fmt.Sprintf("library %s\nmodel   %s\n", mdlShowReq(lib), mdlShowReq(mod))
	}
	if mod.errs != nil {
		var lk, mk []string
		libAt := map[string]bool{}
		for _, e := range lib.errs {
			lk = append(lk, mdlErrKey(e))
		}
		for _, e := range mod.errs {
			if e.anyCode {
				// the docs say the call fails there, not with which code:
				// the library's code there stands
				for _, l := range lib.errs {
					if l.path == e.path && l.in == e.in && !libAt[mdlErrKey(l)] {
						e.code, libAt[mdlErrKey(l)] = l.code, true
						break
					}
				}
			}
			mk = append(mk, mdlErrKey(e))
		}
		sort.Strings(lk)
		sort.Strings(mk)
		if strings.Join(lk, "\n") != strings.Join(mk, "\n") {
			return fmt.Sprintf("library %s\nmodel   %s\n%s", mdlShowReq(lib), mdlShowReq(mod), mdlErrSetDiff(lk, mk))
		}
		if d := mdlMsgDiff(lib.errs, mod.errs); d != "" {
			return d
		}
		return ""
	}
	if string(lib.json) != string(mod.json) {
		return fmt.Sprintf("response form:\nlibrary %s\nmodel   %s\n", lib.json, mod.json)
	}
	if lib.full != nil && string(mdlCanon(lib.full)) != string(mdlCanon(mod.full)) {
		return fmt.Sprintf("the Object with its writeonly values (Decode):\nlibrary %s\nmodel   %s\n", mdlCanon(lib.full), mdlCanon(mod.full))
	}
	if strings.Join(lib.touched, " ") != strings.Join(mod.touched, " ") {
		return fmt.Sprintf("touched:\nlibrary %q\nmodel   %q\n", lib.touched, mod.touched)
	}
	return ""
}

// mdlErrSetDiff lists the errors one side has and the other lacks.
func mdlErrSetDiff(lib, mod []string) string {
	in := func(l []string) map[string]int {
		m := map[string]int{}
		for _, k := range l {
			m[k]++
		}
		return m
	}
	li, mi := in(lib), in(mod)
	var b strings.Builder
	for _, k := range lib {
		if mi[k] == 0 {
			fmt.Fprintf(&b, "  only the library: %s\n", k)
		} else {
			mi[k]--
		}
	}
	for _, k := range mod {
		if li[k] == 0 {
			fmt.Fprintf(&b, "  only the model:   %s\n", k)
		} else {
			li[k]--
		}
	}
	return b.String()
}

// mdlMsgDiff checks the messages the model knows (msg, secret) and what a
// secret's error must not hold.
func mdlMsgDiff(lib, mod []mdlErr) string {
	for _, m := range mod {
		var msgs []string // the library's messages at m's path, code and place (two fields may read one parameter)
		for _, l := range lib {
			if l.path == m.path && l.code == m.code && l.in == m.in {
				msgs = append(msgs, l.msg)
			}
		}
		if m.checkMsg && len(msgs) > 0 && !slices.Contains(msgs, m.msg) {
			return fmt.Sprintf("message of %s: library %q, model %q\n", mdlErrKey(m), msgs, m.msg)
		}
		if len(m.forbidden) > 0 && slices.ContainsFunc(mod, func(o mdlErr) bool {
			return o.path == m.path && o.code == m.code && o.in == m.in && len(o.forbidden) == 0
		}) {
			// a field that is no secret reads the parameter too: its
			// message may quote what it declares (an in list the secret's
			// repeats), so one of the library's messages there, the
			// secret's, must hold none of it
			if !slices.ContainsFunc(lib, func(l mdlErr) bool {
				return l.path == m.path && l.code == m.code && l.in == m.in && !mdlHoldsAny(l, m.forbidden)
			}) {
				return fmt.Sprintf("every message of %s holds a secret's value: %q\n", mdlErrKey(m), msgs)
			}
			continue
		}
		for _, l := range lib {
			if l.path != m.path || l.code != m.code || l.in != m.in {
				continue
			}
			for _, f := range m.forbidden {
				if len(f) < 3 {
					continue
				}
				if strings.Contains(l.msg, f) {
					return fmt.Sprintf("the message of %s (%q) holds %q, a secret's value\n", mdlErrKey(m), l.msg, f)
				}
				if strings.Contains(fmt.Sprint(l.params), f) {
					return fmt.Sprintf("the params of %s (%v) hold %q, a secret's value\n", mdlErrKey(m), l.params, f)
				}
			}
		}
	}
	return ""
}

// mdlHoldsAny reports whether the message or the params of l hold one of
// the values forbidden (those of 3 bytes or more).
func mdlHoldsAny(l mdlErr, forbidden []string) bool {
	for _, f := range forbidden {
		if len(f) >= 3 && (strings.Contains(l.msg, f) || strings.Contains(fmt.Sprint(l.params), f)) {
			return true
		}
	}
	return false
}

// mdlShowReq prints a request's outcome.
func mdlShowReq(o mdlOutcome) string {
	switch {
	case o.fail != "":
		return "fails: " + o.fail
	case o.errs != nil:
		var ks []string
		for _, e := range o.errs {
			ks = append(ks, mdlErrKey(e))
		}
		sort.Strings(ks)
		return "field errors: " + strings.Join(ks, ", ")
	}
	s := string(o.json)
	if o.touched != nil {
		s += fmt.Sprintf(" touched %q", o.touched)
	}
	return s
}

// mdlMakeOpts are the options of a Make of a request's Object: the
// request call's flags and version, so that the same fields exist.
func (cs *mdlCase) mdlMakeOpts(flags []string) mdlOpts {
	o := mdlOpts{version: cs.opts.version}
	if len(flags) > 0 {
		o.hasWith, o.with = true, flags
	}
	return o
}

// bindChecks runs Bind of the case's request into a map and into a struct
// and checks what each holds: Make of it writes the request's response
// form again (the model's Make of the request's Object), and the map holds
// the request's writeonly values and none of its readonly ones.
func (cs *mdlCase) bindChecks(reg *entity.Registry, obj *entity.Object, mod mdlOutcome) string {
	e := reg.Lookup(cs.entity)
	m, err := cs.modelReg()
	if err != nil {
		return err.Error()
	}
	mo := cs.mdlMakeOpts(mod.flags)
	want := m.run(cs.entity, obj, mo, map[*entity.Object]mdlProv{obj: {entity: cs.entity, request: true}})
	if want.errs != nil || want.fail != "" {
		return "" // the request's Object does not make again: nothing to compare a round trip with
	}
	lo := mo.options()
	if got, err := e.MakeJSON(obj, lo...); err != nil || string(got) != string(want.json) {
		return fmt.Sprintf("Make of the request's Object:\nlibrary %s %v\nmodel   %s\n", got, err, want.json)
	}
	if cs.roundTrips(m) && !cs.opts.hasSel && !cs.opts.hasOnly && !cs.opts.hasExcept {
		// (a selection shapes the Object, and so what Bind stores)
		dst := map[string]any{}
		if err := e.Bind(cs.request(), &dst, cs.opts.options()...); err != nil {
			return fmt.Sprintf("Bind into a map: %v (MakeRequest succeeded)\n", err)
		}
		// (a none, list or object value is decoded as encoding/json
		// decodes it: its number's spelling, and a uint64's precision,
		// are not kept)
		if got, err := e.MakeJSON(dst, lo...); err != nil || string(mdlCanon(got)) != string(mdlCanon(want.json)) {
			return fmt.Sprintf("Make of what Bind put in a map %s:\nlibrary %s %v\nmodel   %s (Make of the request's Object)\n", mdlShow(dst, nil), got, err, want.json)
		}
		if d := m.bindMapCheck(cs.entity, dst, mod); d != "" {
			return d
		}
		if st := m.bindStruct(cs.entity, mod.flags, cs.opts.version); st != nil {
			p := reflect.New(st)
			if err := e.Bind(cs.request(), p.Interface(), cs.opts.options()...); err != nil {
				return fmt.Sprintf("Bind into a struct: %v (MakeRequest succeeded)\n", err)
			}
			if got, err := e.MakeJSON(p.Interface(), lo...); err != nil || string(mdlCanon(got)) != string(mdlCanon(want.json)) {
				return fmt.Sprintf("Make of what Bind put in a struct %s:\nlibrary %s %v\nmodel   %s (Make of the request's Object)\n", mdlShow(p.Interface(), nil), got, err, want.json)
			}
		}
	}
	return ""
}

// roundTrips reports whether Bind then Make can round-trip the case's
// entity: no field reads another place than its declared name (from), and
// no two fields that one struct or map level holds share a declared name
// (a group's fields beside their siblings), but for version variants.
func (cs *mdlCase) roundTrips(m *mdlReg) bool {
	seen := map[string]bool{}
	type owner struct {
		level   *[]*mdlField // the declaration level the name is declared at
		version bool         // with since or until
	}
	var level func(fields *[]*mdlField, names map[string]owner, depth int) bool
	level = func(fields *[]*mdlField, names map[string]owner, depth int) bool {
		for _, f := range *fields {
			if f.from != nil || (f.readOnly && f.kind != dsl.FieldValue) {
				// Make reads a from field elsewhere than Bind puts it; a
				// readonly group or reference is in neither the request's
				// Object nor what Bind fills, and Make writes it from each
				// differently (an Object's in the wire form)
				return false
			}
			if f.kind == dsl.FieldGroup {
				if !level(&f.children, names, depth) {
					return false
				}
				continue
			}
			versioned := f.since != nil || f.until != nil
			if prev, ok := names[strings.ToLower(f.name)]; ok && !(prev.level == fields && prev.version && versioned) {
				return false // two fields of one level under one name: Make reads both from it
			}
			names[strings.ToLower(f.name)] = owner{fields, versioned}
			if f.kind == dsl.FieldRef && !seen[f.ref] && depth < 6 {
				seen[f.ref] = true
				if e := m.ents[f.ref]; e != nil && !level(&e.fields, map[string]owner{}, depth+1) {
					return false
				}
			}
		}
		return true
	}
	seen[cs.entity] = true
	return level(&m.ents[cs.entity].fields, map[string]owner{}, 0)
}

// bindMapCheck checks the top level of what Bind put in a map: each value
// field the request reads (a group's beside its siblings) under its
// declared name, with the Object's value, writeonly ones included, and no
// readonly field.
func (m *mdlReg) bindMapCheck(name string, dst map[string]any, mod mdlOutcome) string {
	var full map[string]json.RawMessage
	if json.Unmarshal(mod.full, &full) != nil {
		return ""
	}
	c := m.callFor(mod.flags, "")
	var walk func(fields []*mdlField, obj map[string]json.RawMessage) string
	walk = func(fields []*mdlField, obj map[string]json.RawMessage) string {
		vis := c.visible(fields, false)
		for _, f := range fields {
			if f.readOnly {
				if v, ok := dst[f.name]; ok && v != nil && c.shows(f) && !mdlNamed(fields, f) {
					return fmt.Sprintf("Bind put the readonly field %q in the map: %v\n", f.name, v)
				}
				continue
			}
			if !vis[f] {
				continue
			}
			switch {
			case f.kind == dsl.FieldGroup:
				var sub map[string]json.RawMessage
				json.Unmarshal(obj[f.key], &sub)
				if d := walk(f.children, sub); d != "" {
					return d
				}
			case f.kind == dsl.FieldValue:
				raw, ok := obj[f.key]
				if !ok || mdlHasDate(f) {
					continue // a date is a time.Time there: Make of the map judges it
				}
				got, _ := json.Marshal(dst[f.name])
				if string(mdlCanon(got)) != string(mdlCanon(raw)) {
					return fmt.Sprintf("Bind put %s under %q in the map, the Object holds %s\n", got, f.name, raw)
				}
			}
		}
		return ""
	}
	return walk(m.ents[name].fields, full)
}

// mdlHasDate reports a date field, or a typed list of dates.
func mdlHasDate(f *mdlField) bool {
	return f.typ == rules.Time || (f.list && f.elem == rules.Time)
}

// callFor is a call of the given flags and version, to ask which fields
// it sees.
func (m *mdlReg) callFor(flags []string, version string) *mdlCall {
	c := &mdlCall{reg: m, flags: map[string]bool{}, request: true}
	for _, f := range flags {
		c.flags[f] = true
	}
	if v, ok := mdlParseVer(version); ok {
		c.ver = &v
	}
	return c
}

// bindStruct builds the struct Make reads for an entity, as expose gen
// writes it: a field per declared name (a group's beside its siblings), a
// pointer for each scalar so that null stays null, a *struct for a $name
// (merged ones under their own name), a slice for a list; nil when a name
// cannot be a json tag.
func (m *mdlReg) bindStruct(name string, flags []string, version string) reflect.Type {
	c := m.callFor(flags, version)
	var build func(e *mdlEntity, stack []string) reflect.Type
	ok := true
	build = func(e *mdlEntity, stack []string) reflect.Type {
		var fields []reflect.StructField
		var add func(fs []*mdlField)
		add = func(fs []*mdlField) {
			vis := c.visible(fs, true)
			for _, f := range fs {
				if f.kind == dsl.FieldGroup {
					add(f.children)
					continue
				}
				if !mdlTagName(f.name) || strings.ContainsAny(f.name, ",\"\\") {
					ok = false
					return
				}
				var t reflect.Type
				switch {
				case !vis[f] || f.readOnly:
					continue // Bind puts no readonly value
				case f.kind == dsl.FieldRef:
					re := m.ents[f.ref]
					if re == nil || len(stack) > 4 || mdlContains(stack, f.ref) {
						t = reflect.TypeFor[any]()
						break
					}
					st := build(re, append(stack, f.ref))
					if f.list {
						// (a nil slice is an empty list: a pointer to one keeps null)
						t = reflect.PointerTo(reflect.SliceOf(reflect.PointerTo(st)))
					} else {
						t = reflect.PointerTo(st)
					}
				case f.list:
					t = reflect.PointerTo(reflect.SliceOf(reflect.PointerTo(mdlGoType(f.elem))))
				case f.typ == rules.Any || f.typ == rules.List || f.typ == rules.Object:
					t = reflect.TypeFor[any]()
				default:
					t = reflect.PointerTo(mdlGoType(f.typ))
				}
				fields = append(fields, reflect.StructField{
					Name: fmt.Sprintf("F%d", len(fields)),
					Type: t,
					Tag:  reflect.StructTag(`json:"` + f.name + `"`),
				})
			}
		}
		add(e.fields)
		return reflect.StructOf(fields)
	}
	st := build(m.ents[name], []string{name})
	if !ok {
		return nil
	}
	return st
}

// mdlNamed reports another field of the level declared under f's name.
func mdlNamed(fields []*mdlField, f *mdlField) bool {
	for _, o := range fields {
		if o != f && o.name == f.name {
			return true
		}
	}
	return false
}

func mdlContains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// mdlGoType is the Go type a struct holds a scalar type's value in.
func mdlGoType(k rules.Kind) reflect.Type {
	switch k {
	case rules.Int:
		return reflect.TypeFor[int64]()
	case rules.Float:
		return reflect.TypeFor[float64]()
	case rules.Bool:
		return reflect.TypeFor[bool]()
	case rules.Time:
		return reflect.TypeFor[time.Time]()
	}
	return reflect.TypeFor[string]()
}

var mdlShowFlag = flag.Int("model.show", 30, "TestModelRequestSurvey: how many disagreements to print")

var mdlAgreeFlag = flag.String("model.agree", "", "TestModelRequestSurvey: write up to 20 cases of each call on which both agree into this fuzz corpus directory")

var mdlReqSurveyFlag = flag.Int("model.reqsurvey", 0, "TestModelRequestSurvey: run this many generated request cases and list the disagreements")

// TestModelRequestSurvey runs many generated request cases without
// stopping at the first disagreement, for triage.
func TestModelRequestSurvey(t *testing.T) {
	var inputs [][]byte
	switch {
	case *mdlDirFlag != "":
		inputs = mdlReadCorpus(t, *mdlDirFlag)
	case *mdlReqSurveyFlag > 0:
		for i := 0; i < *mdlReqSurveyFlag; i++ {
			sum := sha256.Sum256([]byte(fmt.Sprintf("request survey %d", i)))
			inputs = append(inputs, sum[:])
		}
	default:
		t.Skip("set -model.reqsurvey N, or -model.dir with a corpus")
	}
	refused, ran, differ, shown := 0, 0, 0, 0
	modes, agreed := map[string]int{}, map[string]int{}
	for i, data := range inputs {
		if *mdlCaseFlag >= 0 && i != *mdlCaseFlag {
			continue
		}
		cs, g := mdlGenerateReq(data)
		if cs == nil {
			refused++
			continue
		}
		d, skip := cs.compareReq(g.lib)
		if skip {
			continue
		}
		ran++
		modes[cs.mode]++
		if d == "" {
			if *mdlAgreeFlag != "" && agreed[cs.mode] < 20 {
				agreed[cs.mode]++
				mdlSaveCorpus(t, *mdlAgreeFlag, data)
			}
			continue
		}
		differ++
		if *mdlSaveFlag != "" {
			mdlSaveCorpus(t, *mdlSaveFlag, data)
		}
		if shown < *mdlShowFlag {
			shown++
			t.Logf("case %d\n%s%s\n", i, cs.report(), d)
		}
	}
	t.Logf("%d cases: %d declarations refused, %d compared (%v), %d disagreements", len(inputs), refused, ran, modes, differ)
}

var mdlDirFlag = flag.String("model.dir", "", "TestModelRequestSurvey: run the corpus files of this directory instead of generated cases")

// mdlReadCorpus reads the inputs of a fuzz corpus directory.
func mdlReadCorpus(t *testing.T, dir string) [][]byte {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		t.Logf("file %d: %s", len(out), e.Name())
		out = append(out, mdlReadCorpusFile(t, filepath.Join(dir, e.Name())))
	}
	return out
}

// mdlReadCorpusFile reads the input of one corpus file ("go test fuzz v1"
// and one []byte).
func mdlReadCorpusFile(t *testing.T, file string) []byte {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(b), "\n")
	q, ok := strings.CutPrefix(strings.TrimSpace(rest), "[]byte(")
	if !ok {
		t.Fatalf("%s: not a corpus file of one []byte", file)
	}
	s, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return []byte(s)
}

// patchBindCheck binds the merged Object into the current value, as
// docs/requests.md has a handler do (merged.Bind(&current)), and checks
// the top level (a group's fields beside their siblings): each field the
// merged Object holds takes its value, every other one (a writeonly field
// the patch did not set, an omitnil one left out) keeps the current one.
func (cs *mdlCase) patchBindCheck(obj *entity.Object, mod mdlOutcome) string {
	var cur0 map[string]any
	b, err := json.Marshal(mdlJSONable(cs.current))
	if err != nil || json.Unmarshal(b, &cur0) != nil || cur0 == nil {
		return ""
	}
	dst := map[string]any{}
	json.Unmarshal(b, &dst)
	if err := obj.Bind(&dst); err != nil {
		return fmt.Sprintf("Bind of the merged Object into the current value: %v\n", err)
	}
	var full map[string]json.RawMessage
	if json.Unmarshal(mod.full, &full) != nil {
		return ""
	}
	m, err := cs.modelReg()
	if err != nil || !cs.roundTrips(m) {
		return ""
	}
	c := m.callFor(mod.flags, cs.opts.version)
	var walk func(fields []*mdlField, obj map[string]json.RawMessage) string
	walk = func(fields []*mdlField, obj map[string]json.RawMessage) string {
		vis := c.visible(fields, true)
		for _, f := range fields {
			if !vis[f] || mdlNamed(fields, f) {
				continue
			}
			switch f.kind {
			case dsl.FieldGroup:
				var sub map[string]json.RawMessage
				json.Unmarshal(obj[f.key], &sub)
				if d := walk(f.children, sub); d != "" {
					return d
				}
			case dsl.FieldValue:
				if mdlHasDate(f) {
					continue // a date is a time.Time there
				}
				want, ok := obj[f.key]
				if !ok {
					was, _ := json.Marshal(cur0[f.name])
					want = was
				}
				got, _ := json.Marshal(dst[f.name])
				if string(mdlCanon(got)) != string(mdlCanon(want)) {
					return fmt.Sprintf("after merged.Bind(&current), %q is %s; want %s (merged %s)\n", f.name, got, want, mod.full)
				}
			}
		}
		return ""
	}
	return walk(m.ents[cs.entity].fields, full)
}

// mdlJSONable gives a generated current value as encoding/json can write
// it: the value itself (raw JSON as its text).
func mdlJSONable(v any) any {
	if b, ok := v.([]byte); ok {
		return json.RawMessage(b)
	}
	return v
}
