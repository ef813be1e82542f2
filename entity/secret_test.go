package entity_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
	"github.com/expose-go/expose/rules"
)

// A field marked `secret` keeps its value out of every error: a failing
// value must be absent from FieldError.Message and Error(), from
// ValidationError.Error(), from fmt's %v, %+v, %#v (and %s, %q) of the
// error and of each field error, from Write's body, from a log line that
// logs the error (log and log/slog), from the errors reachable by Unwrap, and
// from the test kit's report. Each case makes a failing secret through one
// input path and checks every rendering.

// secValue is the secret. Every rule below rejects it: it is 14 characters
// (min 20), has no @ (email), has letters (regex '^[0-9]+$'), and the
// custom rules reject everything.
const secValue = "Hunter2-s3cr3t"

// secValueErr is a custom rule's error that holds the value in a field of a
// value type: fmt's %#v prints such fields.
type secValueErr struct{ Got string }

func (e secValueErr) Error() string { return "got " + e.Got }

// secRegistry declares one entity per rule, each with the secret field pw
// (read from the X-Pw header for requests) and a plain field beside it.
func secRegistry(t testing.TB) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry()
	for _, d := range []rules.Def{
		{Name: "secquote", Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(v rules.Value) error { return fmt.Errorf("got %q, want another value", v.Str) }), nil
		}},
		{Name: "secquotein", Stage: rules.Input, Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(v rules.Value) error { return fmt.Errorf("input %v is wrong", v.Str) }), nil
		}},
		{Name: "secvalerr", Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(v rules.Value) error { return secValueErr{Got: v.Str} }), nil
		}},
		{Name: "secwrap", Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(v rules.Value) error {
				return fmt.Errorf("rejected: %w", &url.Error{Op: "parse", URL: v.Str, Err: errors.New("bad")})
			}), nil
		}},
		{Name: "secpanic", Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(v rules.Value) error { panic("cannot take " + v.Str) }), nil
		}},
		{Name: "secpanicerr", Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(v rules.Value) error { panic(secValueErr{Got: v.Str}) }), nil
		}},
	} {
		if err := reg.RegisterRule(d); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range secRules {
		expose(t, reg, "sec_"+r.name, "form",
			"pw", "string", "secret | "+r.rules,
			"X-Pw", "string", "secret | "+r.rules,
			"plain", "string", "",
			"g", "{", "",
			"inner", "string", "secret | "+r.rules,
			"g", "}", "",
			"list", "$sec_"+r.name+"_row", "",
		)
		expose(t, reg, "sec_"+r.name+"_row", "pw", "string", "secret | "+r.rules)
		expose(t, reg, "sec_"+r.name+"_none", "pw", "none", "secret | "+r.rules)
	}
	expose(t, reg, "sec_cred", "value", "string", "secquote")
	expose(t, reg, "sec_ref", "cred", "$sec_cred", "secret")
	return reg
}

// secRules are the rules a secret field fails with.
var secRules = []struct{ name, rules string }{
	{"min", "min 20"},
	{"email", "email"},
	{"regex", "regex '^[0-9]+$'"},
	{"quote", "secquote"},
	{"quote_input", "secquotein"},
	{"value_error", "secvalerr"},
	{"wrapped", "secwrap"},
	{"panic", "secpanic"},
	{"panic_error", "secpanicerr"},
	{"all", "min 20 | email | regex '^[0-9]+$' | secquote | secquotein | secvalerr | secwrap | secpanic"},
}

// secInputs are the ways a secret reaches an entity, with the paths of the
// fields that fail.
var secInputs = []struct {
	name  string
	ent   string // "%s" is the rule's name
	in    func() any
	paths []string
}{
	{"map", "sec_%s", func() any { return map[string]any{"pw": secValue, "plain": "ok"} }, []string{"pw"}},
	{"map[string]string", "sec_%s", func() any { return map[string]string{"pw": secValue} }, []string{"pw"}},
	{"[]byte value", "sec_%s", func() any { return map[string]any{"pw": []byte(secValue)} }, []string{"pw"}},
	{"raw JSON", "sec_%s", func() any { return []byte(`{"pw":"` + secValue + `","plain":"ok"}`) }, []string{"pw"}},
	{"raw JSON with escapes", "sec_%s", func() any { return []byte(`{"pw":"Hunter2-s\u0033cr3t"}`) }, []string{"pw"}},
	{"struct", "sec_%s", func() any {
		return struct {
			Pw string `json:"pw"`
		}{secValue}
	}, []string{"pw"}},
	{"group", "sec_%s", func() any { return map[string]any{"inner": secValue} }, []string{"inner"}},
	{"header name as a map key", "sec_%s", func() any { return map[string]any{"X-Pw": secValue} }, []string{"X-Pw"}},
	{"list of $ref", "sec_%s", func() any {
		return map[string]any{"list": []any{map[string]any{"pw": "x"}, map[string]any{"pw": secValue}}}
	}, nil},
	{"raw JSON list of $ref", "sec_%s", func() any { return []byte(`{"list":[{"pw":"` + secValue + `"}]}`) }, nil},
	{"top-level list", "sec_%s_row", func() any { return []any{map[string]any{"pw": secValue}} }, []string{"[0].pw"}},
	{"none field", "sec_%s_none", func() any { return map[string]any{"pw": secValue} }, []string{"pw"}},
	{"none field, raw JSON", "sec_%s_none", func() any { return []byte(`{"pw":"` + secValue + `"}`) }, []string{"pw"}},
}

func TestSecretNeverRendered(t *testing.T) {
	reg := secRegistry(t)
	for _, r := range secRules {
		for _, src := range secInputs {
			t.Run(r.name+"/"+src.name, func(t *testing.T) {
				e := reg.Lookup(fmt.Sprintf(src.ent, r.name))
				in := src.in()
				var errs []error
				_, err := e.MakeJSON(in)
				errs = append(errs, err)
				_, err = e.AppendJSON(nil, in)
				errs = append(errs, err)
				if _, isList := in.([]any); !isList {
					_, err = e.Make(in)
					errs = append(errs, err)
				}
				rec := httptest.NewRecorder()
				errs = append(errs, e.Write(rec, in))
				for i, err := range errs {
					if err == nil {
						t.Fatalf("entry point %d: no error", i)
					}
					secCheckFailed(t, err, src.paths)
				}
				secCheck(t, "Write's body", rec.Body.String())
				secCheckAll(t, errs[0])
			})
		}
	}
}

// TestSecretRequest: a secret read by MakeRequest from each source.
func TestSecretRequest(t *testing.T) {
	reg := secRegistry(t)
	for _, r := range secRules {
		e := reg.Lookup("sec_" + r.name)
		reqs := map[string]func() *http.Request{
			"query": func() *http.Request { return secRequest("GET", "/?pw="+url.QueryEscape(secValue), "", "") },
			"form": func() *http.Request {
				return secRequest("POST", "/", "application/x-www-form-urlencoded", "pw="+url.QueryEscape(secValue))
			},
			"JSON":   func() *http.Request { return secRequest("POST", "/", "application/json", `{"pw":"`+secValue+`"}`) },
			"header": func() *http.Request { r := secRequest("GET", "/", "", ""); r.Header.Set("X-Pw", secValue); return r },
		}
		for name, mk := range reqs {
			t.Run(r.name+"/"+name, func(t *testing.T) {
				_, err := e.MakeRequest(mk())
				if err == nil {
					t.Fatal("no error")
				}
				secCheckAll(t, err)
				rec := httptest.NewRecorder()
				entity.WriteError(rec, err)
				secCheck(t, "WriteError's body", rec.Body.String())
			})
		}
	}
}

// TestSecretRef: `secret` on a reference keeps the values of the entity it
// makes out of errors too (or is refused at declaration).
func TestSecretRef(t *testing.T) {
	reg := secRegistry(t)
	e := reg.Lookup("sec_ref")
	_, err := e.MakeJSON(map[string]any{"cred": map[string]any{"value": secValue}})
	if err == nil {
		t.Fatal("no error")
	}
	rec := &tbRecorder{TB: t}
	secCheckAll(rec, err)
	if len(rec.msgs) > 0 {
		t.Fatalf("regression: `secret` on a $ref is accepted at declaration but does not reach the referenced entity's fields: "+
			"their messages quote the value\n%s", strings.Join(rec.msgs, "\n"))
	}
}

// TestSecretConform: the test kit never prints a secret either.
func TestSecretConform(t *testing.T) {
	reg := secRegistry(t)
	for _, r := range secRules {
		if strings.HasPrefix(r.name, "panic") || r.name == "all" {
			continue // the kit runs the rules: a panicking rule is the kit's business
		}
		t.Run(r.name, func(t *testing.T) {
			rec := &tbRecorder{TB: t}
			if entitytest.Conform(rec, reg.Lookup("sec_"+r.name), []byte(`{"pw":"`+secValue+`","X-Pw":null,"plain":null,"g":{"inner":null},"list":null}`)) {
				t.Skip("the kit does not judge this rule on output")
			}
			report := strings.Join(rec.msgs, "\n")
			if strings.Contains(report, secValue) {
				t.Fatalf("regression: entitytest.Conform prints a failing custom rule's message for a secret field, and the message quotes the value "+
					"(README: \"The value of a field declared secret is never printed\")\n%s", clip(report))
			}
		})
	}
}

// secRequest builds a request with a body of the content type.
func secRequest(method, target, contentType, body string) *http.Request {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	return r
}

// secCheckFailed checks that err is a *ValidationError whose fields fail at
// paths (when given).
func secCheckFailed(t testing.TB, err error, paths []string) {
	t.Helper()
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error %v (%T) is not a *ValidationError", err, err)
	}
	if paths == nil {
		return
	}
	for _, f := range ve.Fields {
		found := false
		for _, p := range paths {
			found = found || f.Path == p
		}
		if !found {
			t.Errorf("field error at %q, want one of %q", f.Path, paths)
		}
	}
}

// secCheck fails when text holds the secret.
func secCheck(t testing.TB, what, text string) {
	t.Helper()
	if strings.Contains(text, secValue) || strings.Contains(text, strings.ReplaceAll(secValue, "-", `\u002d`)) {
		t.Errorf("%s shows the secret: %s", what, clip(text))
	}
}

// secCheckAll renders err every way a program might and checks each,
// except for the leaks through the cause (see secThroughCause), which it
// returns.
func secCheckAll(t testing.TB, err error) (leaks []string) {
	t.Helper()
	render := map[string]string{
		"Error()": err.Error(),
		"%v":      fmt.Sprintf("%v", err),
		"%+v":     fmt.Sprintf("%+v", err),
		"%#v":     fmt.Sprintf("%#v", err),
		"%s":      fmt.Sprintf("%s", err),
		"%q":      fmt.Sprintf("%q", err),
	}
	var ve *entity.ValidationError
	if errors.As(err, &ve) {
		render["ValidationError.AppendJSON"] = string(entity.ProblemJSON(ve))
		if b, jerr := json.Marshal(ve); jerr == nil {
			render["json.Marshal(ValidationError)"] = string(b)
		}
		render["%#v of *ValidationError's value"] = fmt.Sprintf("%#v", *ve)
		for i, f := range ve.Fields {
			p := fmt.Sprintf("Fields[%d] ", i)
			render[p+"Message"] = f.Message
			render[p+"Error()"] = f.Error()
			render[p+"%v"] = fmt.Sprintf("%v", f)
			render[p+"%+v"] = fmt.Sprintf("%+v", f)
			render[p+"%#v"] = fmt.Sprintf("%#v", f)
			render[p+"%+v of the value"] = fmt.Sprintf("%+v", *f)
			render[p+"%#v of the value"] = fmt.Sprintf("%#v", *f)
		}
	}
	// Every error reachable by Unwrap, as errors.Is and errors.As walk them.
	var walk func(prefix string, e error)
	walk = func(prefix string, e error) {
		if e == nil || len(prefix) > 200 {
			return
		}
		render[prefix+" Error()"] = e.Error()
		render[prefix+" %#v"] = fmt.Sprintf("%#v", e)
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			walk(prefix+".Unwrap()", u.Unwrap())
		case interface{ Unwrap() []error }:
			for i, c := range u.Unwrap() {
				walk(fmt.Sprintf("%s.Unwrap()[%d]", prefix, i), c)
			}
		}
	}
	walk("err", err)
	// Log lines.
	var buf bytes.Buffer
	lg := log.New(&buf, "", 0)
	lg.Printf("make failed: %v", err)
	lg.Printf("make failed: %+v", err)
	lg.Println(err)
	render["log"] = buf.String()
	buf.Reset()
	slog.New(slog.NewJSONHandler(&buf, nil)).Error("make failed", "err", err)
	slog.New(slog.NewTextHandler(&buf, nil)).Error("make failed", "err", err)
	render["slog"] = buf.String()

	for name, text := range render {
		if strings.Contains(text, secValue) {
			leaks = append(leaks, name+": "+clip(text))
		}
	}
	for _, l := range leaks {
		if !secThroughCause(l) {
			t.Errorf("the secret shows in %s", l)
		}
	}
	return leaks
}

// secThroughCause reports whether a leak comes through the error a secret
// field's FieldError keeps as its cause: what Unwrap returns, and what %#v
// (or %+v of the struct value) prints of its unexported field. The tests
// above let those pass; TestSecretCause reports them.
func secThroughCause(leak string) bool {
	return strings.Contains(leak, "Unwrap()") || strings.Contains(leak, "%#v") || strings.Contains(leak, "of the value")
}

// TestSecretCause: the cause a FieldError keeps (for errors.Is and
// errors.As) must not hold a secret either: %#v prints it, and
// errors.Unwrap hands it to any logger that walks the chain.
func TestSecretCause(t *testing.T) {
	reg := secRegistry(t)
	var leaks []string
	for _, r := range secRules {
		_, err := reg.Lookup("sec_" + r.name).MakeJSON(map[string]any{"pw": secValue})
		if err == nil {
			t.Fatalf("%s: no error", r.name)
		}
		for _, l := range secCheckAll(t, err) {
			leaks = append(leaks, r.name+": "+l)
		}
	}
	if len(leaks) > 0 {
		t.Fatalf("regression: a secret field's FieldError keeps the rule's error as its cause: errors.Unwrap, errors.As and %%#v reach the value\n%s",
			strings.Join(leaks, "\n"))
	}
}
