package entity_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http/httptest"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/internal/testkit"
	"github.com/expose-go/expose/rules"
)

// exposeOne exposes a one-field entity `"v", typ, rules` in a new registry.
func exposeOne(t testing.TB, typ, rules string) *entity.Entity {
	t.Helper()
	return expose(t, entity.NewRegistry(), "one", "v", typ, rules)
}

// The helpers the packages' tests share (internal/testkit).
var (
	expose = testkit.Expose[*entity.Entity]
)

// This file holds the helpers every table of the suite runs its cases
// through. The central one, makeAll, makes an input through every entry
// point of an entity and checks that they agree, so that each successful
// case of each table also asserts that Object.MarshalJSON gives the same
// bytes as MakeJSON, and each failing case that nothing partial is written.

// absent stands for a field that is not in the input at all.
type absentT struct{}

var absent absentT

// input returns {"v": v}, or {} when v is absent.
func input(v any) map[string]any {
	if _, ok := v.(absentT); ok {
		return map[string]any{}
	}
	return map[string]any{"v": v}
}

// expose exposes an entity in reg, failing the test on a declaration error.
// setLimit changes one limit of reg, keeping the others.
func setLimit(reg *entity.Registry, set func(*entity.Limits)) {
	l := reg.Limits()
	set(&l)
	if err := reg.Configure(l); err != nil {
		panic(err)
	}
}

const appendPrefix = "prefix:"

// makeAll makes v, an object, with e through MakeJSON, AppendJSON (onto a
// prefix, and onto a buffer with spare capacity) and Make, and checks that
// they agree:
//   - on success: the JSON is valid, AppendJSON appends exactly MakeJSON's
//     bytes after the prefix, Make gives an Object whose MarshalJSON (and
//     json.Marshal of it) is MakeJSON's output byte for byte;
//   - on failure: MakeJSON returns nil, AppendJSON returns dst unchanged
//     (same length, prefix intact), Make returns a nil Object, and the three
//     errors read the same.
//
// It returns MakeJSON's output, Make's Object and the error.
func makeAll(t testing.TB, e *entity.Entity, v any) ([]byte, *entity.Object, error) {
	t.Helper()
	out, err := e.MakeJSON(v)

	prefix := []byte(appendPrefix)
	app, aerr := e.AppendJSON(prefix, v)
	roomy := make([]byte, len(appendPrefix), 4096)
	copy(roomy, appendPrefix)
	app2, aerr2 := e.AppendJSON(roomy, v)

	obj, merr := e.Make(v)

	if err != nil {
		if out != nil {
			t.Errorf("MakeJSON failed (%v) but returned %q, want nil", err, out)
		}
		for i, a := range []struct {
			b   []byte
			err error
		}{{app, aerr}, {app2, aerr2}} {
			if a.err == nil {
				t.Errorf("MakeJSON failed (%v) but AppendJSON #%d succeeded: %s", err, i, a.b)
			} else if a.err.Error() != err.Error() {
				t.Errorf("AppendJSON #%d error differs from MakeJSON's:\n got %v\nwant %v", i, a.err, err)
			}
			if string(a.b) != appendPrefix {
				t.Errorf("AppendJSON #%d on failure returned %q, want dst unchanged %q", i, a.b, appendPrefix)
			}
		}
		if merr == nil {
			t.Errorf("MakeJSON failed (%v) but Make succeeded: %v", err, obj)
		} else if merr.Error() != err.Error() {
			t.Errorf("Make error differs from MakeJSON's:\n got %v\nwant %v", merr, err)
		}
		if obj != nil {
			t.Errorf("Make failed but returned an Object: %v", obj)
		}
		return nil, nil, err
	}

	if !json.Valid(out) {
		t.Errorf("MakeJSON gave invalid JSON: %s", out)
	}
	for i, a := range []struct {
		b   []byte
		err error
	}{{app, aerr}, {app2, aerr2}} {
		if a.err != nil {
			t.Errorf("MakeJSON succeeded but AppendJSON #%d failed: %v", i, a.err)
		} else if want := appendPrefix + string(out); string(a.b) != want {
			t.Errorf("AppendJSON #%d:\n got %s\nwant %s", i, a.b, want)
		}
	}
	if merr != nil {
		t.Errorf("MakeJSON succeeded (%s) but Make failed: %v", out, merr)
		return out, nil, nil
	}
	if obj == nil {
		t.Errorf("Make returned a nil Object and no error")
		return out, nil, nil
	}
	mj, jerr := obj.MarshalJSON()
	if jerr != nil {
		t.Errorf("Object.MarshalJSON: %v (MakeJSON gave %s)", jerr, out)
	} else if !bytes.Equal(mj, out) {
		t.Errorf("Object.MarshalJSON differs from MakeJSON:\n got %s\nwant %s", mj, out)
	}
	if jm, jerr := json.Marshal(obj); jerr != nil {
		t.Errorf("json.Marshal(Object): %v", jerr)
	} else if !bytes.Equal(jm, out) {
		t.Errorf("json.Marshal(Object) differs from MakeJSON:\n got %s\nwant %s", jm, out)
	}
	if obj.Len() != len(obj.Keys()) {
		t.Errorf("Len() = %d but Keys() has %d", obj.Len(), len(obj.Keys()))
	}
	return out, obj, nil
}

// mustMake is makeAll for an input that must succeed.
func mustMake(t testing.TB, e *entity.Entity, v any) ([]byte, *entity.Object) {
	t.Helper()
	out, obj, err := makeAll(t, e, v)
	if err != nil {
		t.Fatalf("make %s: %v", e.Name(), err)
	}
	return out, obj
}

// fieldErrors returns the FieldErrors of a *ValidationError, failing the
// test when err is anything else.
func fieldErrors(t testing.TB, err error) []*entity.FieldError {
	t.Helper()
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error %v (%T) is not a *entity.ValidationError", err, err)
	}
	if !errors.Is(err, entity.ErrValidation) {
		t.Errorf("errors.Is(%v, ErrValidation) = false", err)
	}
	if sc := ve.StatusCode(); sc != 400 && sc != 500 { // a request's, or the server's data's
		t.Errorf("StatusCode() = %d, want 400 or 500", sc)
	}
	return ve.Fields
}

// canonicalRule folds a FieldError's Rule to the rule's canonical name, so
// that the tables do not depend on whether an alias is reported as written.
func canonicalRule(r string) string {
	r = strings.ToLower(r)
	switch r {
	case "required":
		return "req"
	case "minmax":
		return "range"
	case "number":
		return "num"
	case "boolean":
		return "bool"
	case "datetime":
		return "timestamp"
	}
	return r
}

// cmpFieldError is a FieldError without its unexported cause, for cmp.
type cmpFieldError struct{ Path, OutputPath, Rule, Message string }

// cmpFieldErrors returns the field errors of err, or nil when err is not a
// ValidationError.
func cmpFieldErrors(err error) []cmpFieldError {
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	fs := []cmpFieldError{}
	for _, f := range ve.Fields {
		fs = append(fs, cmpFieldError{f.Path, f.OutputPath, f.Rule, f.Message})
	}
	return fs
}

// marshal is json.Marshal that fails the test on error.
func marshal(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%#v): %v", v, err)
	}
	return string(b)
}

// Hostile input, case by case through every entry point: each subject's
// table of entryCase (limits_test.go, encode_test.go, convert_test.go,
// input_test.go, structs_test.go, errors_test.go, and the raw JSON cases of
// rawjson_test.go) is made through MakeJSON, AppendJSON, Make (or MakeList
// for a list input) and Write, and each must give its named outcome: the
// exact output bytes, or an error of a given kind with the given field
// errors. On top of that, every case asserts that no entry point panics,
// that a success is valid JSON that Object.MarshalJSON repeats byte for
// byte, and (for an object input) makeAll's agreement checks. These are the
// tests that try every entry point on hostile input; the limits they hold
// the library to are entity.Limits's.
//
// Each bug these cases found is fixed; they stay as regression tests.

// entryRegistry declares the entities of the hostile cases.
func entryRegistry(t testing.TB) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry()
	for _, d := range []rules.Def{
		{Name: "boom", Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(rules.Value) error { panic("boom checked") }), nil
		}},
		{Name: "boomin", Stage: rules.Input, Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(rules.Value) error { panic(errors.New("boomin checked")) }), nil
		}},
		{Name: "boomrt", Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(v rules.Value) error {
				var m map[string]int
				//lint:ignore SA5000 a runtime error on purpose: assignment to a nil map
				m[v.Str] = 1
				return nil
			}), nil
		}},
		{Name: "boomnil", Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(rules.Value) error { panic(nil) }), nil
		}},
	} {
		if err := reg.RegisterRule(d); err != nil {
			t.Fatal(err)
		}
	}
	for _, typ := range []string{"none", "list", "object", "string", "number", "float", "bool", "date"} {
		expose(t, reg, typ, "v", typ, "")
	}
	for _, typ := range []string{"none", "float", "number", "string", "bool", "date"} {
		expose(t, reg, "V"+typ, "V", typ, "rename v") // for struct inputs, whose field is V
	}
	expose(t, reg, "reqstr", "v", "string", "req")
	expose(t, reg, "reqfloat", "v", "float", "req")
	expose(t, reg, "deffloat", "v", "float", "default 1.5")
	expose(t, reg, "rec", "a", "number", "", "r", "$rec", "")
	expose(t, reg, "recl", "r", "$recl", "")
	expose(t, reg, "boom", "v", "string", "boom")
	expose(t, reg, "boomin", "v", "string", "boomin")
	expose(t, reg, "boomrt", "v", "string", "boomrt")
	expose(t, reg, "boomnil", "v", "string", "boomnil")
	expose(t, reg, "boomnone", "v", "none", "boom")
	expose(t, reg, "noneregex", "v", "none", `regex '^\d+:\d+$'`)
	expose(t, reg, "node", "v", "string", "", "n", "none", "", "p", "$node", "")
	expose(t, reg, "keys",
		`q"uote`, "string", "",
		"ctl\x01\x1f\n", "string", "",
		"<a>&b", "string", "",
		"ls\u2028ps\u2029", "string", "",
		"__proto__", "none", "",
		"constructor", "none", "",
		"plain", "string", `rename '"<x>&\u2028'`,
	)
	decl := make([]string, 0, 3*1000)
	for i := range 1000 {
		decl = append(decl, fmt.Sprintf("f%03d", i), "string", "req")
	}
	expose(t, reg, "req1000", decl...)
	if err := reg.Verify(); err != nil {
		t.Fatal(err)
	}
	return reg
}

// entryCase is one hostile input and its outcome.
type entryCase struct {
	name string
	ent  string     // the entity of entryRegistry that makes it
	in   func() any // built per case: some are large

	// The outcome: exactly one of out (the exact output), fails (a
	// *ValidationError whose fields are these, "path rule" each, in order)
	// or errIs (another error, matched by errors.Is, written by Write with
	// status).
	out    func() string
	fails  []string
	errIs  error
	status int

	list  bool                          // a list input: Make refuses it, MakeList makes it
	check func(t testing.TB, err error) // more checks of the error, if any
}

// Builders of inputs and outcomes.

func given(v any) func() any { return func() any { return v } }

func givenV(v any) func() any { return func() any { return map[string]any{"v": v} } }

func wantOut(s string) func() string { return func() string { return s } }

// wantMarshalV is the exact output {"v":<json.Marshal(v)>}.
func wantMarshalV(v any) func() string {
	return func() string {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		return `{"v":` + string(b) + `}`
	}
}

func failAt(path, rule string) string { return path + " " + rule }

// deepMap is v inside n maps {"r": …}.
func deepMap(n int, v any) any {
	for range n {
		v = map[string]any{"r": v}
	}
	return v
}

// mapCycle returns a map that reaches itself through n maps: m0 → m1 → … →
// m0, each under key "r".
func mapCycle(n int) map[string]any {
	first := map[string]any{}
	m := first
	for range n - 1 {
		next := map[string]any{}
		m["r"] = next
		m = next
	}
	m["r"] = first
	return first
}

type linkedNode struct {
	V string      `json:"v"`
	N any         `json:"n"`
	P *linkedNode `json:"p"`
}

// tbRecorder is a testing.TB that keeps the failures it is told of, for
// checks that must inspect them (Conform's messages).
type tbRecorder struct {
	testing.TB
	msgs []string
}

func (r *tbRecorder) Helper() {}
func (r *tbRecorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *tbRecorder) Error(args ...any) { r.msgs = append(r.msgs, fmt.Sprint(args...)) }

// noPanic calls f, turning a panic into a test error.
func noPanic(t testing.TB, what string, f func()) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s panicked: %v\n%s", what, p, debug.Stack())
		}
	}()
	f()
}

// runEntryCases runs each case, as a subtest of its name, with the
// entities of entryRegistry.
func runEntryCases(t *testing.T, cases []entryCase) {
	t.Helper()
	reg := entryRegistry(t)
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Errorf("two cases named %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			e := reg.Lookup(c.ent)
			if e == nil {
				t.Fatalf("no entity %q", c.ent)
			}
			runEntryCase(t, e, c)
		})
	}
}

// clip shortens s for a message.
func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

// runEntryCase makes the case's input through every entry point and checks the
// outcome.
func runEntryCase(t testing.TB, e *entity.Entity, c entryCase) {
	t.Helper()
	in := c.in()
	var want string
	if c.out != nil {
		want = c.out()
	}

	// MakeJSON.
	var out []byte
	var err error
	noPanic(t, "MakeJSON", func() { out, err = e.MakeJSON(in) })
	checkOutcome(t, "MakeJSON", c, want, out, err)

	// AppendJSON, onto a prefix: appends exactly MakeJSON's bytes, or
	// nothing.
	noPanic(t, "AppendJSON", func() {
		app, aerr := e.AppendJSON([]byte(appendPrefix), in)
		if !bytes.HasPrefix(app, []byte(appendPrefix)) {
			t.Errorf("AppendJSON lost its prefix: %s", clip(string(app)))
			return
		}
		if aerr != nil && len(app) != len(appendPrefix) {
			t.Errorf("AppendJSON failed (%v) and appended %s", aerr, clip(string(app[len(appendPrefix):])))
		}
		checkOutcome(t, "AppendJSON", c, want, app[len(appendPrefix):], aerr)
	})

	// Make, or MakeList for a list; MarshalJSON repeats MakeJSON.
	noPanic(t, "Make", func() {
		if c.list {
			if o, merr := e.Make(in); merr == nil {
				t.Errorf("Make of a list succeeded: %v", o)
			}
			objs, lerr := e.MakeList(in)
			var b []byte
			if lerr == nil {
				b = []byte{'['}
				for i, o := range objs {
					if i > 0 {
						b = append(b, ',')
					}
					ob, oerr := o.MarshalJSON()
					if oerr != nil {
						t.Errorf("MakeList: element %d: MarshalJSON: %v", i, oerr)
					}
					b = append(b, ob...)
				}
				b = append(b, ']')
			}
			checkOutcome(t, "MakeList", c, want, b, lerr)
			return
		}
		o, merr := e.Make(in)
		if merr != nil {
			if o != nil {
				t.Errorf("Make failed (%v) and returned an Object", merr)
			}
			checkOutcome(t, "Make", c, want, nil, merr)
			return
		}
		if o == nil {
			t.Errorf("Make returned neither an Object nor an error")
			return
		}
		mj, jerr := o.MarshalJSON()
		if jerr != nil {
			t.Errorf("Make succeeded but MarshalJSON failed: %v", jerr)
			return
		}
		checkOutcome(t, "Make+MarshalJSON", c, want, mj, nil)
		if want != "" && !bytes.Equal(mj, out) {
			t.Errorf("Object.MarshalJSON differs from MakeJSON:\n got %s\nwant %s", clip(string(mj)), clip(string(out)))
		}
		sameAsMap(t, mj, o)
	})

	// makeAll's agreement checks: AppendJSON onto a buffer with spare
	// capacity, json.Marshal of the Object, Len and Keys, the same error
	// text from every entry point.
	if !c.list {
		noPanic(t, "makeAll", func() { makeAll(t, e, in) })
	}

	// Write: the status and the body.
	noPanic(t, "Write", func() {
		rec := httptest.NewRecorder()
		werr := e.Write(rec, in)
		checkWritten(t, c, want, rec, werr)
	})
}

// checkOutcome checks what one entry point gave against the case.
func checkOutcome(t testing.TB, what string, c entryCase, want string, out []byte, err error) {
	t.Helper()
	if want != "" {
		if err != nil {
			t.Errorf("%s: error %s, want %s", what, clip(err.Error()), clip(want))
			return
		}
		if !json.Valid(out) {
			t.Errorf("%s: invalid JSON %s", what, clip(string(out)))
		}
		if string(out) != want {
			t.Errorf("%s:\n got %s\nwant %s", what, clip(string(out)), clip(want))
		}
		return
	}
	if err == nil {
		t.Errorf("%s succeeded with %s, want an error", what, clip(string(out)))
		return
	}
	if len(out) != 0 {
		t.Errorf("%s failed (%v) and returned %s", what, err, clip(string(out)))
	}
	if c.errIs != nil {
		if !errors.Is(err, c.errIs) {
			t.Errorf("%s: error %v (%T), want one wrapping %v", what, err, err, c.errIs)
		}
		var ie *entity.InputError
		if c.status != 0 && (!errors.As(err, &ie) || ie.StatusCode() != c.status) {
			t.Errorf("%s: error %v (%T), want an *InputError with status %d", what, err, err, c.status)
		}
		return
	}
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		t.Errorf("%s: error %v (%T), want a *ValidationError", what, clip(err.Error()), err)
		return
	}
	if !errors.Is(err, entity.ErrValidation) {
		t.Errorf("%s: errors.Is(err, ErrValidation) is false", what)
	}
	if c.fails != nil {
		got := fieldRules(ve)
		if !reflect.DeepEqual(got, c.fails) {
			t.Errorf("%s: field errors\n got %q\nwant %q", what, clipList(got), clipList(c.fails))
		}
		for _, f := range ve.Fields {
			if f.Rule == "depth" && !errors.Is(f, entity.ErrDepth) {
				t.Errorf("%s: depth error %v does not wrap ErrDepth", what, f)
			}
		}
	}
	if c.check != nil {
		c.check(t, err)
	}
}

func fieldRules(ve *entity.ValidationError) []string {
	var l []string
	for _, f := range ve.Fields {
		l = append(l, failAt(f.Path, f.Rule))
	}
	return l
}

func clipList(l []string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = clip(s)
	}
	return out
}

// checkWritten checks Write's response against the case.
func checkWritten(t testing.TB, c entryCase, want string, rec *httptest.ResponseRecorder, err error) {
	t.Helper()
	body := rec.Body.Bytes()
	if !json.Valid(body) {
		t.Errorf("Write: invalid JSON body %s", clip(string(body)))
		return
	}
	if want != "" {
		if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("Write: Content-Type %q", ct)
		}
		if err != nil || rec.Code != 200 || string(body) != want {
			t.Errorf("Write: %d %s (error %v), want 200 %s", rec.Code, clip(string(body)), err, clip(want))
		}
		return
	}
	if err == nil {
		t.Errorf("Write succeeded (%d %s), want an error", rec.Code, clip(string(body)))
		return
	}
	if c.errIs != nil {
		if rec.Code != c.status {
			t.Errorf("Write: status %d, want %d (%s)", rec.Code, c.status, clip(string(body)))
		}
		checkProblem(t, rec, rec.Code)
		return
	}
	var ve *entity.ValidationError
	if errors.As(err, &ve) && ve.StatusCode() == 500 {
		// The server's data failed: the generic 500, nothing of its fields.
		if pb, ok := checkProblem(t, rec, 500); ok && (pb.Type != "about:blank" || pb.Errors != nil || pb.Instance == "") {
			t.Errorf("Write of failing server data: %s, want the generic 500 with an instance", clip(string(body)))
		}
		return
	}
	if rec.Code != 400 {
		t.Errorf("Write: status %d, want 400", rec.Code)
	}
	pb, ok := checkProblem(t, rec, 400)
	if !ok || ve == nil {
		return
	}
	checkProblemErrors(t, pb, ve)
}

// problemBody is the RFC 9457 problem details that WriteError writes, with
// the package's extension members.
type problemBody struct {
	Type     string         `json:"type"`
	Title    string         `json:"title"`
	Status   int            `json:"status"`
	Detail   string         `json:"detail"`
	Instance string         `json:"instance"`
	Errors   []problemField `json:"errors"`
	Omitted  *int           `json:"omitted"`
	Offset   *int           `json:"offset"`
	Accept   []string       `json:"accept"`
}

// problemField is one member of a problem's "errors".
type problemField struct {
	Pointer    string         `json:"pointer"`
	Path       string         `json:"path"`
	OutputPath string         `json:"outputPath"`
	Code       string         `json:"code"`
	Params     map[string]any `json:"params"`
	Message    string         `json:"message"`
}

// problemMembers are the JSON types of the members a problem may have:
// RFC 9457's own (type, title, status, detail; instance on a 500 only) and
// the package's extensions.
var problemMembers = map[string]string{
	"type": "string", "title": "string", "status": "number", "detail": "string", "instance": "string",
	"errors": "array", "omitted": "number", "offset": "number", "accept": "array",
}

// fieldMembers are the JSON types of the members of an "errors" entry:
// pointer for a value of the body, parameter and in for a request's
// parameter.
var fieldMembers = map[string]string{
	"pointer": "string", "parameter": "string", "in": "string", "path": "string", "outputPath": "string",
	"code": "string", "params": "object", "message": "string",
}

// checkProblem checks that rec holds problem details of status: the
// headers (Content-Type application/problem+json, a Content-Length that is
// the body's, nosniff), RFC 9457's members present and of their types, a
// type that is "about:blank" or one of the package's, and every other
// member one the package documents, of its type. It returns the body
// decoded, and whether it was one.
func checkProblem(t testing.TB, rec *httptest.ResponseRecorder, status int) (problemBody, bool) {
	t.Helper()
	var pb problemBody
	body := rec.Body.Bytes()
	h := rec.Header()
	if rec.Code != status {
		t.Errorf("problem: status %d, want %d (%s)", rec.Code, status, clip(string(body)))
	}
	if ct := h.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("problem: Content-Type %q, want application/problem+json", ct)
	}
	if cl := h.Get("Content-Length"); cl != fmt.Sprint(len(body)) {
		t.Errorf("problem: Content-Length %q, body of %d bytes", cl, len(body))
	}
	if h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("problem: no X-Content-Type-Options: nosniff")
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Errorf("problem: body %s is not a JSON object: %v", clip(string(body)), err)
		return pb, false
	}
	ok := checkMembers(t, "problem", raw, problemMembers, "type", "title", "status", "detail")
	if e, has := raw["errors"]; has {
		var list []map[string]json.RawMessage
		if err := json.Unmarshal(e, &list); err != nil {
			t.Errorf("problem: errors %s: %v", clip(string(e)), err)
			ok = false
		}
		for i, f := range list {
			where := []string{"pointer"}
			if _, param := f["in"]; param {
				where = []string{"parameter", "in"}
			}
			ok = checkMembers(t, fmt.Sprintf("problem: errors[%d]", i), f, fieldMembers, append(where, "path", "outputPath", "code", "message")...) && ok
		}
	}
	if err := json.Unmarshal(body, &pb); err != nil {
		t.Errorf("problem: body %s: %v", clip(string(body)), err)
		return pb, false
	}
	if pb.Status != rec.Code {
		t.Errorf("problem: status member %d, response status %d", pb.Status, rec.Code)
	}
	switch pb.Type {
	case "about:blank", "/problems/validation", "/problems/invalid-json", "/problems/unsupported-media-type",
		"/problems/invalid-fields", "/problems/invalid-version":
	default:
		t.Errorf("problem: type %q is not one the package writes", pb.Type)
	}
	if pb.Title == "" || pb.Detail == "" {
		t.Errorf("problem: empty title or detail in %s", clip(string(body)))
	}
	if (pb.Type == "/problems/validation") != (pb.Errors != nil) {
		t.Errorf("problem: type %q with errors %v", pb.Type, pb.Errors != nil)
	}
	if (pb.Instance != "") != (rec.Code == 500) {
		t.Errorf("problem: status %d with instance %q", rec.Code, pb.Instance)
	}
	if pb.Offset != nil && pb.Type != "/problems/invalid-json" && pb.Type != "/problems/invalid-fields" {
		t.Errorf("problem: offset in a problem of type %q", pb.Type)
	}
	if (pb.Accept != nil) != (pb.Type == "/problems/unsupported-media-type") {
		t.Errorf("problem: type %q with accept %q", pb.Type, pb.Accept)
	}
	if (h.Get("Allow") != "") != (status == 405) {
		t.Errorf("problem: status %d with Allow %q", status, h.Get("Allow"))
	}
	return pb, ok
}

// checkMembers checks that obj has the members required and no member
// that types does not name, each of the JSON type it gives.
func checkMembers(t testing.TB, what string, obj map[string]json.RawMessage, types map[string]string, required ...string) bool {
	t.Helper()
	ok := true
	for _, k := range required {
		if _, has := obj[k]; !has {
			t.Errorf("%s: no %q member", what, k)
			ok = false
		}
	}
	for k, v := range obj {
		want, known := types[k]
		if !known {
			t.Errorf("%s: member %q is not documented", what, k)
			ok = false
			continue
		}
		if got := jsonKind(v); got != want {
			t.Errorf("%s: member %q is a JSON %s, want a %s", what, k, got, want)
			ok = false
		}
	}
	return ok
}

// jsonKind names the JSON type of a value.
func jsonKind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// checkProblemErrors checks that a validation problem lists ve's field
// errors, in order, and counts those omitted.
func checkProblemErrors(t testing.TB, pb problemBody, ve *entity.ValidationError) {
	t.Helper()
	fields := ve.Fields
	if ve.Omitted > 0 {
		fields = fields[:len(fields)-1] // the summary entry: "omitted" stands for it
		if pb.Omitted == nil || *pb.Omitted != ve.Omitted {
			t.Errorf("problem: omitted %v, want %d", pb.Omitted, ve.Omitted)
		}
	} else if pb.Omitted != nil {
		t.Errorf("problem: omitted %d, want none", *pb.Omitted)
	}
	if len(pb.Errors) != len(fields) {
		t.Errorf("problem: %d errors, the error %d fields", len(pb.Errors), len(fields))
		return
	}
	for i, f := range fields {
		code := f.Code
		if code == "" {
			code = f.Rule
		}
		want := problemField{f.Pointer, f.Path, f.OutputPath, code, nil, f.Message}
		got := pb.Errors[i]
		if len(f.Params) == 0 && got.Params != nil {
			t.Errorf("problem: errors[%d] has params %v, the field none", i, got.Params)
		}
		got.Params = nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("problem: errors[%d] = %+v, want %+v", i, got, want)
		}
	}
}

// sameAsMap checks that Object.Map() holds what the JSON says: the
// JSON and json.Marshal of the Map decode to the same values (see
// jsonEqual).
func sameAsMap(t testing.TB, out []byte, o *entity.Object) {
	t.Helper()
	if len(out) > 1<<20 {
		return // a 10 MB string: compared byte for byte above
	}
	mb, err := json.Marshal(o.Map())
	if err != nil {
		t.Errorf("json.Marshal(Object.Map()): %v", err)
		return
	}
	if !jsonEqual(out, mb) {
		t.Errorf("Object.Map() differs from the JSON:\n map %s\njson %s", clip(string(mb)), clip(string(out)))
	}
}

// jsonEqual reports whether two JSON texts decode to the same values, as
// encoding/json decodes them (numbers as float64, so 1.0 and 1 are one
// number, and so are 12345678901234567890 and 12345678901234567000). Where
// a number does not fit a float64 (1e400), both are compared as exact
// rationals instead.
func jsonEqual(a, b []byte) bool {
	var x, y any
	errA, errB := json.Unmarshal(a, &x), json.Unmarshal(b, &y)
	if errA == nil && errB == nil {
		return reflect.DeepEqual(x, y)
	}
	ra, errA := decodeExact(a)
	rb, errB := decodeExact(b)
	return errA == nil && errB == nil && reflect.DeepEqual(ra, rb)
}

// decodeExact decodes JSON with every number as the exact rational it spells.
func decodeExact(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return exactNumbers(v), nil
}

// exactNumbers replaces each json.Number in v with its value as a rational's
// text ("1/1"), so that spellings of one number compare equal.
func exactNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		r, ok := new(big.Rat).SetString(string(v))
		if !ok {
			return string(v)
		}
		return "n:" + r.RatString()
	case []any:
		for i := range v {
			v[i] = exactNumbers(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = exactNumbers(v[k])
		}
	}
	return v
}

// declCase is one declaration and one input, written as JSON, made from
// every input kind the case names: a map (the JSON decoded by
// encoding/json), the raw JSON itself, and a struct when st builds one.
// The outcome is the exact output (out) or the failing fields, "path
// rule" each in order (fails). strict makes the call with Strict().
type declCase struct {
	name   string
	decl   []string // the triples of entity "t"; "$"-references name entities of refs
	in     string
	st     func() any // the same input as a struct, or nil
	strict bool
	out    string
	fails  []string
}

// runDeclCases makes each case from a map, from raw JSON and from its
// struct, and checks that every input kind gives the outcome. refs holds
// the triples of other entities the cases reference, by name.
func runDeclCases(t *testing.T, refs map[string][]string, cases []declCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			for name, decl := range refs {
				expose(t, reg, name, decl...)
			}
			e := expose(t, reg, "t", c.decl...)
			var m map[string]any
			if err := json.Unmarshal([]byte(c.in), &m); err != nil {
				t.Fatalf("input %s: %v", c.in, err)
			}
			inputs := []struct {
				kind string
				v    any
			}{{"map", m}, {"raw JSON", []byte(c.in)}}
			if c.st != nil {
				inputs = append(inputs, struct {
					kind string
					v    any
				}{"struct", c.st()})
			}
			var opts []entity.Option
			if c.strict {
				opts = append(opts, entity.Strict())
			}
			for _, in := range inputs {
				out, err := e.MakeJSON(in.v, opts...)
				if c.fails == nil {
					if err != nil {
						t.Errorf("%s: %v", in.kind, err)
					} else if string(out) != c.out {
						t.Errorf("%s:\n got %s\nwant %s", in.kind, out, c.out)
					}
					continue
				}
				var ve *entity.ValidationError
				if !errors.As(err, &ve) {
					t.Errorf("%s: got %s, %v; want failures %q", in.kind, out, err, c.fails)
					continue
				}
				var got []string
				for _, fe := range ve.Fields {
					got = append(got, fe.Path+" "+fe.Code)
				}
				if diff := cmp.Diff(c.fails, got); diff != "" {
					t.Errorf("%s: failing fields (-want +got):\n%s\nerror: %v", in.kind, diff, err)
				}
			}
		})
	}
}
