package entity_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// leak is what the panicking rules of these tests panic with: it must
// reach no message and no response body.
const leak = "pq: connection to 10.0.0.5:5432 failed for user app_rw"

// panicChecker panics in Check and in CheckString, so that a string field
// takes the string path (runStringGuarded) and other types the value path.
type panicChecker struct{}

func (panicChecker) Check(rules.Value) error                   { panic(leak) }
func (panicChecker) CheckString(string) error                  { panic(errors.New(leak)) }
func (panicChecker) String() string                            { return "panicChecker" }
func compilePanic([]string, rules.Kind) (rules.Checker, error) { return panicChecker{}, nil }

// TestRulePanicMessage checks that a custom rule's panic reaches neither
// the FieldError's message nor Write's body: the client reads "is not
// valid", and the panic's value and stack are in a *PanicError the
// FieldError unwraps to, for logs (nothing under a secret field).
func TestRulePanicMessage(t *testing.T) {
	reg := entity.NewRegistry()
	for _, d := range []rules.Def{
		{Name: "lookup", Compile: compilePanic},
		{Name: "lookupin", Stage: rules.Input, Compile: compilePanic},
	} {
		if err := reg.RegisterRule(d); err != nil {
			t.Fatal(err)
		}
	}
	expose(t, reg, "str", "v", "string", "lookup")
	expose(t, reg, "num", "v", "number", "lookup")
	expose(t, reg, "in", "v", "string", "lookupin")
	expose(t, reg, "secret", "v", "string", "lookup | secret")
	tests := []struct {
		name   string
		entity string
		in     any
		rule   string
		logged bool // a PanicError is kept
	}{
		{"string field, map input", "str", map[string]any{"v": "x"}, "lookup", true},
		{"string field, raw JSON", "str", []byte(`{"v":"x"}`), "lookup", true},
		{"number field", "num", map[string]any{"v": 7}, "lookup", true},
		{"input-stage rule", "in", map[string]any{"v": true}, "lookupin", true},
		{"secret field", "secret", map[string]any{"v": "x"}, "lookup", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := reg.Lookup(tt.entity)
			_, err := e.MakeJSON(tt.in)
			fes := fieldErrors(t, err)
			if len(fes) != 1 || fes[0].Rule != tt.rule || fes[0].Message != "is not valid" {
				t.Fatalf("got %v, want one %s error saying is not valid", err, tt.rule)
			}
			if strings.Contains(err.Error(), "10.0.0.5") {
				t.Errorf("the error's text holds the panic: %v", err)
			}
			var pe *entity.PanicError
			switch {
			case !tt.logged && errors.As(err, &pe):
				t.Errorf("a secret field's error unwraps to the panic %v", pe)
			case tt.logged && !errors.As(err, &pe):
				t.Fatalf("no PanicError in %v", err)
			case tt.logged:
				if fes[0].Unwrap() != error(pe) {
					t.Errorf("FieldError.Unwrap() = %v, want the PanicError", fes[0].Unwrap())
				}
				if pe.Rule != tt.rule || !strings.Contains(pe.Error(), leak) || !strings.HasPrefix(pe.Error(), "entity: ") {
					t.Errorf("PanicError: rule %q, Error() %q", pe.Rule, pe.Error())
				}
				if !strings.Contains(string(pe.Stack), "panicChecker") {
					t.Errorf("the stack does not show the panicking rule:\n%s", pe.Stack)
				}
			}
			rec := httptest.NewRecorder()
			e.Write(rec, tt.in) // the server's data: a 500 that says nothing
			if rec.Code != http.StatusInternalServerError || strings.Contains(rec.Body.String(), "10.0.0.5") {
				t.Errorf("Write: %d %s", rec.Code, rec.Body)
			}
			rec = httptest.NewRecorder()
			e.Write(rec, jsonRequest(t, tt.in), entity.Lax()) // a client's
			if rec.Code != http.StatusBadRequest || strings.Contains(rec.Body.String(), "10.0.0.5") ||
				!strings.Contains(rec.Body.String(), `"message":"is not valid"`) {
				t.Errorf("Write of a request: %d %s", rec.Code, rec.Body)
			}
		})
	}
}

// TestRuleErrorIsAnError checks that Field.Check's RuleError is an error
// that names its rule and unwraps to the check's error.
func TestRuleErrorIsAnError(t *testing.T) {
	e := exposeOne(t, "string", "min 3 | email")
	f := e.Fields()[0]
	errs := f.Check(rules.StringValue("ab"))
	if len(errs) != 2 {
		t.Fatalf("Check: %v, want two rule errors", errs)
	}
	tests := []struct {
		name string
		err  entity.RuleError
		want string
	}{
		{"min", errs[0], `entity: rule "min": must be at least 3 characters long`},
		{"email", errs[1], `entity: rule "email": must be a valid email address`},
		{"no error", entity.RuleError{Rule: "x"}, `entity: rule "x": is not valid`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error = tt.err
			if err.Error() != tt.want {
				t.Errorf("Error() = %q, want %q", err.Error(), tt.want)
			}
			if errors.Unwrap(err) != tt.err.Err {
				t.Errorf("Unwrap() = %v, want %v", errors.Unwrap(err), tt.err.Err)
			}
		})
	}
}

// TestErrorsOfTypedNils checks that every error type of the package can be
// printed, unwrapped and matched when it is a typed nil pointer, as a
// careless `var err *entity.InputError; return err` gives.
func TestErrorsOfTypedNils(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"ValidationError", (*entity.ValidationError)(nil)},
		{"FieldError", (*entity.FieldError)(nil)},
		{"InputError", (*entity.InputError)(nil)},
		{"PanicError", (*entity.PanicError)(nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if msg := tt.err.Error(); !strings.HasPrefix(msg, "entity: ") {
				t.Errorf("Error() = %q", msg)
			}
			for _, target := range []error{entity.ErrMethod, entity.ErrInvalidJSON, entity.ErrBodyTooLarge} {
				if errors.Is(tt.err, target) {
					t.Errorf("a typed nil is %v", target)
				}
			}
			var ie *entity.InputError
			errors.As(tt.err, &ie)
		})
	}
	if s := (*entity.InputError)(nil).StatusCode(); s != http.StatusInternalServerError {
		t.Errorf("StatusCode of a nil InputError = %d, want 500", s)
	}
}

// TestInputErrorSentinels checks that the InputErrors the package returns
// match their sentinels and carry the status statusOf gives them.
func TestInputErrorSentinels(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "post", "POST", "a", "string", "")
	setLimit(reg, func(l *entity.Limits) { l.BodyBytes = 8 })
	big := httptest.NewRequest("POST", "/", strings.NewReader(`{"a":"0123456789"}`))
	big.Header.Set("Content-Type", "application/json")
	_, tooLarge := e.MakeRequest(big)
	_, method := e.MakeRequest(httptest.NewRequest("GET", "/", nil))
	_, invalid := e.MakeRequest(jsonRequest(t, `{`))
	_, serverJSON := e.MakeJSON([]byte(`{`))
	tests := []struct {
		name     string
		err      error
		sentinel error
		status   int
	}{
		{"body too large", tooLarge, entity.ErrBodyTooLarge, 413},
		{"method", method, entity.ErrMethod, 405},
		{"invalid JSON", invalid, entity.ErrInvalidJSON, 400},
		{"invalid JSON of the server's data", serverJSON, entity.ErrInvalidJSON, 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ie *entity.InputError
			if !errors.As(tt.err, &ie) || !errors.Is(tt.err, tt.sentinel) {
				t.Fatalf("%v: not an InputError wrapping %v", tt.err, tt.sentinel)
			}
			if ie.Status != tt.status || ie.StatusCode() != tt.status {
				t.Errorf("Status %d, StatusCode() %d, want %d", ie.Status, ie.StatusCode(), tt.status)
			}
		})
	}
}

// rulePanicCases: user code that panics is a field error naming the rule,
// never a panic.
func rulePanicCases() []entryCase {
	return []entryCase{
		{name: "custom rule panics in Check", ent: "boom", in: givenV("x"), fails: []string{failAt("v", "boom")},
			check: messageHas(`is not valid`)}, // the panic's text is for logs (PanicError), not the client
		{name: "custom input rule panics with an error", ent: "boomin", in: givenV("x"), fails: []string{failAt("v", "boomin")}},
		{name: "custom rule with a runtime error", ent: "boomrt", in: givenV("x"), fails: []string{failAt("v", "boomrt")}},
		{name: "custom rule panics with nil", ent: "boomnil", in: givenV("x"), fails: []string{failAt("v", "boomnil")}},
		{name: "custom rule panics on none with a cyclic value", ent: "boomnone", in: func() any { return map[string]any{"v": mapCycle(1)} },
			fails: []string{failAt("v", "boom"), failAt("v", "depth")}},
		{name: "custom rule panics in every element of a list", ent: "boom", list: true,
			in: given([]any{map[string]any{"v": "a"}, map[string]any{"v": "b"}}), fails: []string{failAt("[0].v", "boom"), failAt("[1].v", "boom")}},
	}
}

// TestRulePanics: a custom rule that panics is a field error naming the
// rule, from every entry point.
func TestRulePanics(t *testing.T) {
	runEntryCases(t, rulePanicCases())
}

// messageHas checks that the first field error's message holds s.
func messageHas(s string) func(testing.TB, error) {
	return func(t testing.TB, err error) {
		var ve *entity.ValidationError
		if errors.As(err, &ve) && len(ve.Fields) > 0 && !strings.Contains(ve.Fields[0].Message, s) {
			t.Errorf("message %q does not hold %s", ve.Fields[0].Message, s)
		}
	}
}

// TestValidationError checks the error's API: every failing field, Error(),
// StatusCode, errors.Is and errors.As.
func TestValidationError(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "signup",
		"name", "string", "req | min 2",
		"mail", "string", "req | email",
		"age", "number", "range 0 150",
		"site", "string", "url",
		"ok", "string", "",
	)
	in := map[string]any{"name": "a", "age": 200, "site": "x", "ok": "fine"}
	out, obj, err := makeAll(t, e, in)
	if err == nil {
		t.Fatalf("succeeded: %s %v", out, obj)
	}
	fields := fieldErrors(t, err)
	var paths []string
	for _, f := range fields {
		paths = append(paths, f.Path+":"+canonicalRule(f.Rule))
	}
	if diff := cmp.Diff([]string{"name:min", "mail:req", "age:range", "site:url"}, paths); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	msg := err.Error()
	for _, want := range []string{`"signup"`, "name", "mail", "age", "site"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Error() = %q, missing %q", msg, want)
		}
	}
	if strings.Contains(msg, "ok") {
		t.Errorf("Error() = %q names a field that passed", msg)
	}
	var fe *entity.FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("errors.As(*FieldError) failed on %v", err)
	}
	if fe.Path != "name" {
		t.Errorf("errors.As found %q, want the first failing field", fe.Path)
	}
	if errors.Is(err, entity.ErrUnknownEntity) || errors.Is(err, entity.ErrUnsupportedInput) {
		t.Errorf("a validation error matches another sentinel")
	}
	var ve *entity.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) != 4 || ve.Entity != "signup" {
		t.Errorf("ValidationError = %+v", ve)
	}

	// Nothing partial: AppendJSON leaves dst as it was, MakeJSON returns nil.
	dst := []byte("keep me")
	got, err := e.AppendJSON(dst, in)
	if err == nil || string(got) != "keep me" || len(got) != len(dst) {
		t.Errorf("AppendJSON on failure = %q, %v; want dst unchanged", got, err)
	}
	b, err := e.MakeJSON(in)
	if b != nil || err == nil {
		t.Errorf("MakeJSON on failure = %q, %v; want nil and an error", b, err)
	}
	// The failure is deterministic and the same entity then succeeds.
	out, _ = mustMake(t, e, map[string]any{"name": "ab", "mail": "a@b.co"})
	if want := `{"name":"ab","mail":"a@b.co","age":null,"site":null,"ok":null}`; string(out) != want {
		t.Errorf("got %s, want %s", out, want)
	}
}

// TestNewFieldError checks the paths a handler's field error gets from its
// JSON Pointer: keys and indexes, escapes, keys a path quotes, and a
// pointer written without its leading slash.
func TestNewFieldError(t *testing.T) {
	tests := []struct{ pointer, wantPointer, path string }{
		{"/customer_id", "/customer_id", "customer_id"},
		{"/items/0/sku", "/items/0/sku", "items[0].sku"},
		{"/items/01", "/items/01", "items.01"}, // a leading zero: a key
		{"/a~1b/c~0d", "/a~1b/c~0d", "a/b.c~d"},
		{"/a.b", "/a.b", `["a.b"]`},
		{"customer_id", "/customer_id", "customer_id"},
		{"", "", ""},
		{"/0", "/0", "[0]"},
	}
	for _, tt := range tests {
		f := entity.NewFieldError(tt.pointer, "no_customer", map[string]any{"id": 42})
		if f.Pointer != tt.wantPointer || f.Path != tt.path || f.OutputPath != tt.path || f.Code != "no_customer" || f.Rule != "no_customer" {
			t.Errorf("NewFieldError(%q) = %+v, want pointer %q, path %q", tt.pointer, f, tt.wantPointer, tt.path)
		}
	}
	if got := entity.NewFieldError("/sku", "unknown_sku", nil).Error(); got != "sku: unknown_sku" {
		t.Errorf("Error() before a message = %q", got)
	}
}

// TestFailMergesHandlerErrors checks that the handler's field errors join
// the library's in one 400 problem, in order, in the request's language,
// and that an error of another kind is returned as it is.
func TestFailMergesHandlerErrors(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "order", "customer_id", "number", "req", "note", "string", "max 3")
	if err := reg.DeclareCode("no_customer", map[string]string{"en": "names no customer", "ja": "該当する顧客がいません"}); err != nil {
		t.Fatal(err)
	}
	if err := reg.DeclareCode("unknown_sku", map[string]string{"en": "{sku} is not in the catalogue", "ja": "{sku}はカタログにありません"}); err != nil {
		t.Fatal(err)
	}
	noCustomer := entity.NewFieldError("/customer_id", "no_customer", nil)
	sku := entity.NewFieldError("/items/0/sku", "unknown_sku", map[string]any{"sku": "A-1"})
	type want struct{ pointer, code, message string }
	tests := []struct {
		name   string
		body   string
		lang   string
		fields []*entity.FieldError
		want   []want
	}{
		{"the handler's alone", `{"customer_id":42}`, "en", []*entity.FieldError{noCustomer, sku},
			[]want{{"/customer_id", "no_customer", "names no customer"}, {"/items/0/sku", "unknown_sku", "A-1 is not in the catalogue"}}},
		{"after the library's", `{"customer_id":42,"note":"long"}`, "ja", []*entity.FieldError{sku},
			[]want{{"/note", "max", "3文字以内で入力してください"}, {"/items/0/sku", "unknown_sku", "A-1はカタログにありません"}}},
		{"a code no catalog names", `{"customer_id":42}`, "ja", []*entity.FieldError{entity.NewFieldError("/x", "nobody", nil)},
			[]want{{"/x", "nobody", "正しくありません"}}},
		{"a built-in code", `{"customer_id":42}`, "ja", []*entity.FieldError{entity.NewFieldError("/coupon", "required", nil)},
			[]want{{"/coupon", "required", "必須です"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := jsonRequest(t, tt.body, "Accept-Language", tt.lang)
			_, err := e.MakeRequest(r)
			err = e.Fail(r, err, tt.fields...)
			var got []want
			for _, f := range fieldErrors(t, err) {
				got = append(got, want{f.Pointer, f.Code, f.Message})
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
			rec := httptest.NewRecorder()
			entity.WriteError(rec, err)
			if pb, ok := checkProblem(t, rec, 400); ok && len(pb.Errors) != len(tt.want) {
				t.Errorf("%d errors in the problem, want %d", len(pb.Errors), len(tt.want))
			}
		})
	}
	if noCustomer.Message != "" {
		t.Errorf("Fail changed the caller's FieldError: %q", noCustomer.Message)
	}
	t.Run("past the error limit", func(t *testing.T) {
		setLimit(reg, func(l *entity.Limits) { l.Errors = 1 })
		defer setLimit(reg, func(l *entity.Limits) { l.Errors = 100 })
		err := e.Fail(nil, nil, noCustomer, sku, sku)
		var ve *entity.ValidationError
		if !errors.As(err, &ve) || ve.Omitted != 2 || len(ve.Fields) != 2 || ve.Fields[1].Code != "limit" || ve.Fields[1].Message != "and 2 more field errors, not listed" {
			t.Errorf("Fail past the limit: %v", err)
		}
	})
	others := []struct {
		name string
		err  error
	}{
		{"an InputError", func() error { _, err := e.MakeRequest(jsonRequest(t, `{`)); return err }()},
		{"the server's data", func() error { _, err := e.Make(map[string]any{}); return err }()},
		{"a server error", errors.New("db down")},
	}
	for _, tt := range others {
		t.Run(tt.name, func(t *testing.T) {
			if got := e.Fail(nil, tt.err, noCustomer); got != tt.err {
				t.Errorf("Fail = %v, want %v as it is", got, tt.err)
			}
		})
	}
	if got := e.Fail(nil, nil); got != nil {
		t.Errorf("Fail with no fields = %v", got)
	}
	if err := (*entity.Entity)(nil).Fail(nil, nil, noCustomer); err == nil {
		t.Error("a nil entity's Fail returned nil")
	}
}
