package entity_test

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// exposeAccount exposes an account whose immutable fields are of every
// kind: values of each type, a typed list, an object value, one in a
// group, one in a $name and in a []$name's elements.
func exposeAccount(t testing.TB, reg *entity.Registry) *entity.Entity {
	t.Helper()
	expose(t, reg, "person",
		"ssn", "string", "immutable",
		"nick", "string", "",
	)
	return expose(t, reg, "account",
		"id", "number", "readonly",
		"handle", "string", "immutable | min 3",
		"name", "string", "max 10",
		"created", "date", "immutable",
		"score", "number", "immutable",
		"ratio", "float", "immutable",
		"active", "bool", "immutable",
		"tags", "[]string", "immutable",
		"meta", "object", "immutable",
		"profile", "{", "",
		"born", "string", "immutable",
		"bio", "string", "",
		"profile", "}", "",
		"owner", "$person", "",
		"items", "[]$person", "",
	)
}

// accountCurrent is an account as the server holds it.
func accountCurrent() map[string]any {
	return map[string]any{"id": 1, "handle": "ann", "name": "Ann", "created": "2026-01-02T03:04:05Z",
		"score": 10, "ratio": 0.5, "active": true, "tags": []any{"a", "b"}, "meta": map[string]any{"k": 1, "j": []any{1, 2}},
		"born": "1990", "bio": "x", "owner": map[string]any{"ssn": "123", "nick": "n"},
		"items": []any{map[string]any{"ssn": "9", "nick": "m"}}}
}

// TestPatchImmutable: a patch may send an immutable field's stored value
// (however spelled: the same JSON value, or the same value of its type),
// or leave it; one that changes or clears it fails with code "immutable"
// at its path, in a group, in a $name the current value holds, in an
// object value merged into the stored one; the elements of a list the
// patch replaces are new, read as a request that creates reads them.
func TestPatchImmutable(t *testing.T) {
	reg := entity.NewRegistry()
	e := exposeAccount(t, reg)
	tests := []struct {
		name, patch string
		current     func(map[string]any) // changes to accountCurrent; nil: none
		fails       []string             // "pointer code", in order; nil: accepted
	}{
		{name: "another field", patch: `{"name":"Annie"}`},
		{name: "the same string", patch: `{"handle":"ann"}`},
		{name: "the same string escaped", patch: `{"handle":"\u0061nn"}`},
		{name: "a changed string", patch: `{"handle":"bob"}`, fails: []string{"/handle immutable"}},
		{name: "a null clears a stored value", patch: `{"handle":null}`, fails: []string{"/handle immutable"}},
		{name: "a change the field's rules would refuse too", patch: `{"handle":"x"}`, fails: []string{"/handle immutable"}},
		{name: "a change and another field's failure", patch: `{"handle":"bob","name":"a name too long"}`,
			fails: []string{"/handle immutable", "/name max"}},
		{name: "failures in the fields' order, not the patch's", patch: `{"score":1,"name":"a name too long","handle":"bob"}`,
			fails: []string{"/handle immutable", "/name max", "/score immutable"}},
		{name: "the same number", patch: `{"score":10}`},
		{name: "the same number spelled otherwise", patch: `{"score":1e1,"ratio":0.50}`},
		{name: "the same number as text", patch: `{"score":"10"}`},
		{name: "a changed number", patch: `{"score":11}`, fails: []string{"/score immutable"}},
		{name: "a changed float", patch: `{"ratio":0.25}`, fails: []string{"/ratio immutable"}},
		{name: "the same bool", patch: `{"active":true}`},
		{name: "a changed bool", patch: `{"active":false}`, fails: []string{"/active immutable"}},
		{name: "the same instant", patch: `{"created":"2026-01-02T04:04:05+01:00"}`},
		{name: "a changed date", patch: `{"created":"2026-01-03T03:04:05Z"}`, fails: []string{"/created immutable"}},
		{name: "the same list", patch: `{"tags":["a","b"]}`},
		{name: "a list reordered", patch: `{"tags":["b","a"]}`, fails: []string{"/tags immutable"}},
		{name: "an object value merged to the same", patch: `{"meta":{"k":1.0}}`},
		{name: "an object value's member changed", patch: `{"meta":{"k":2}}`, fails: []string{"/meta immutable"}},
		{name: "an object value's member removed", patch: `{"meta":{"j":null}}`, fails: []string{"/meta immutable"}},
		{name: "an object value given whole, members reordered", patch: `{"meta":{"j":[1,2],"k":1}}`},
		{name: "in a group, the same", patch: `{"profile":{"born":"1990","bio":"y"}}`},
		{name: "in a group, changed", patch: `{"profile":{"born":"1991"}}`, fails: []string{"/profile/born immutable"}},
		{name: "in a group, cleared with it", patch: `{"profile":null}`, fails: []string{"/profile/born immutable"}},
		{name: "in a $name, the same", patch: `{"owner":{"ssn":"123","nick":"o"}}`},
		{name: "in a $name, changed", patch: `{"owner":{"ssn":"124"}}`, fails: []string{"/owner/ssn immutable"}},
		{name: "in a $name, cleared with it", patch: `{"owner":null}`, fails: []string{"/owner/ssn immutable"}},
		{name: "in a $name holding none, cleared", patch: `{"owner":null}`,
			current: func(m map[string]any) { m["owner"] = map[string]any{"nick": "n"} }},
		{name: "in a list's elements, which are new", patch: `{"items":[{"ssn":"10"},{"ssn":"11"}]}`},
		{name: "none stored: the patch sets it", patch: `{"handle":"bob","score":3}`,
			current: func(m map[string]any) { delete(m, "handle"); m["score"] = nil }},
		{name: "none stored: a null", patch: `{"handle":null}`, current: func(m map[string]any) { delete(m, "handle") }},
		{name: "none stored in a $name: the patch sets it", patch: `{"owner":{"ssn":"1"}}`,
			current: func(m map[string]any) { m["owner"] = map[string]any{"nick": "n"} }},
		{name: "no $name stored: read as a request that creates", patch: `{"owner":{"ssn":"1"}}`,
			current: func(m map[string]any) { delete(m, "owner") }},
		{name: "every change at once", patch: `{"handle":"bob","score":1,"profile":{"born":"2000"},"owner":{"ssn":"0"}}`,
			fails: []string{"/handle immutable", "/score immutable", "/profile/born immutable", "/owner/ssn immutable"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			current := accountCurrent()
			if tt.current != nil {
				tt.current(current)
			}
			o, _, err := e.Patch(patchRequest(tt.patch), current)
			var got []string
			for _, fe := range fieldErrorsOrNone(err) {
				got = append(got, fe.Pointer+" "+fe.Code)
			}
			if !slices.Equal(got, tt.fails) {
				t.Fatalf("Patch(%s) fails %q, want %q", tt.patch, got, tt.fails)
			}
			if err != nil {
				return
			}
			// The merged value holds what the patch sent.
			var patch, merged map[string]any
			if err := json.Unmarshal([]byte(tt.patch), &patch); err != nil {
				t.Fatal(err)
			}
			b, _ := o.MarshalJSON()
			if err := json.Unmarshal(b, &merged); err != nil {
				t.Fatal(err)
			}
			if h, ok := patch["handle"].(string); ok && merged["handle"] != h {
				t.Errorf("merged handle = %v, want %q: %s", merged["handle"], h, b)
			}
		})
	}
}

// TestPatchImmutableProblem: the failure is a 400 problem whose error
// names the field and code "immutable", in the request's language, and
// quotes neither the stored value nor the one sent.
func TestPatchImmutableProblem(t *testing.T) {
	reg := entity.NewRegistry()
	e := exposeAccount(t, reg)
	tests := []struct {
		name, lang, want string
	}{
		{"English", "", "cannot change once set"},
		{"Japanese", "ja", "一度設定すると変更できません"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := patchRequest(`{"handle":"mallory-sent-this"}`)
			if tt.lang != "" {
				r.Header.Set("Accept-Language", tt.lang)
			}
			_, _, err := e.Patch(r, accountCurrent())
			w := httptest.NewRecorder()
			reg.WriteError(w, err)
			body := w.Body.String()
			if w.Code != 400 || !strings.Contains(body, `"code":"immutable"`) || !strings.Contains(body, tt.want) {
				t.Errorf("problem %d %s, want a 400 with code immutable saying %q", w.Code, body, tt.want)
			}
			if strings.Contains(body, "mallory") || strings.Contains(body, `"ann"`) {
				t.Errorf("problem %s quotes a value", body)
			}
		})
	}
}

// TestPatchImmutableWith: immutable with the other directives and
// inputs: in an entity merged into the object, under secret (the message
// quotes no value), through a format, with a default (none stored: the
// default is no stored value), omitempty (the stored value is what the
// current value holds, not its response form), flags that hide the
// field, and a struct's zero value, which is a value.
func TestPatchImmutableWith(t *testing.T) {
	type row struct {
		Code string `json:"code"`
		Name string `json:"name"`
	}
	tests := []struct {
		name    string
		decl    []string
		current any
		patch   string
		fails   []string
	}{
		{"in a merged entity, the same", []string{"base", "$base", "merge", "name", "string", ""},
			map[string]any{"base": map[string]any{"code": "a1"}}, `{"code":"a1","name":"x"}`, nil},
		{"in a merged entity, changed", []string{"base", "$base", "merge", "name", "string", ""},
			map[string]any{"base": map[string]any{"code": "a1"}}, `{"code":"b2"}`, []string{"/code immutable"}},
		{"under a writeonly $name, which no current value holds: new", []string{"w", "$base", "writeonly", "name", "string", ""},
			map[string]any{"w": map[string]any{"code": "a1"}}, `{"w":{"code":"b2"}}`, nil},
		{"under a readonly $name, which no patch changes", []string{"r", "$base", "readonly", "name", "string", ""},
			map[string]any{"r": map[string]any{"code": "a1"}}, `{"r":{"code":"b2"}}`, nil},
		{"refused: the cross-field rules see the stored value", []string{"code", "string", "immutable", "backup", "string", "required_without 'code'"},
			map[string]any{"code": "a1"}, `{"code":null}`, []string{"/code immutable"}},
		{"refused: the stored value is judged by nothing", []string{"code", "string", "immutable | min 3", "name", "string", ""},
			map[string]any{"code": "a1"}, `{"code":"b2"}`, []string{"/code immutable"}},
		{"secret, changed", []string{"code", "string", "immutable | secret", "name", "string", ""},
			map[string]any{"code": "a1"}, `{"code":"b2"}`, []string{"/code immutable"}},
		{"a format's form, the same", []string{"code", "date", "immutable | format unix", "name", "string", ""},
			map[string]any{"code": "2026-01-02T03:04:05Z"}, `{"code":1767323045}`, nil},
		{"a format's form, changed", []string{"code", "date", "immutable | format unix", "name", "string", ""},
			map[string]any{"code": "2026-01-02T03:04:05Z"}, `{"code":1767323046}`, []string{"/code immutable"}},
		{"a default, none stored", []string{"code", "string", "immutable | default a1", "name", "string", ""},
			map[string]any{"name": "x"}, `{"code":"b2"}`, nil},
		{"a default, stored", []string{"code", "string", "immutable | default a1", "name", "string", ""},
			map[string]any{"code": "a1"}, `{"code":"b2"}`, []string{"/code immutable"}},
		{"omitempty: the stored empty value", []string{"code", "string", "immutable | omitempty", "name", "string", ""},
			map[string]any{"code": ""}, `{"code":"b2"}`, []string{"/code immutable"}},
		{"a flag hides it: an unknown key", []string{"code", "string", "immutable | if 'admin'", "name", "string", ""},
			map[string]any{"code": "a1"}, `{"code":"b2"}`, nil},
		{"a struct's zero value is a value", []string{"code", "string", "immutable", "name", "string", ""},
			row{Name: "x"}, `{"code":"b2"}`, []string{"/code immutable"}},
		{"a struct's value, the same", []string{"code", "string", "immutable", "name", "string", ""},
			row{Code: "a1"}, `{"code":"a1","name":"y"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			if err := reg.DeclareFlags("admin"); err != nil {
				t.Fatal(err)
			}
			expose(t, reg, "base", "code", "string", "immutable")
			e := expose(t, reg, "t", tt.decl...)
			_, _, err := e.Patch(patchRequest(tt.patch), tt.current)
			var got []string
			for _, fe := range fieldErrorsOrNone(err) {
				got = append(got, fe.Pointer+" "+fe.Code)
			}
			if !slices.Equal(got, tt.fails) {
				t.Fatalf("Patch(%s) fails %q, want %q", tt.patch, got, tt.fails)
			}
			if err == nil {
				return
			}
			w := httptest.NewRecorder()
			reg.WriteError(w, err)
			if body := w.Body.String(); strings.Contains(body, "a1") || strings.Contains(body, "b2") {
				t.Errorf("problem %s quotes a value", body)
			}
		})
	}
}

// TestPatchImmutableMessages: "immutable" is a code a catalog may word,
// in any language, without params: a placeholder is refused.
func TestPatchImmutableMessages(t *testing.T) {
	tests := []struct {
		name, lang, msg, want string
		fails                 bool
	}{
		{"English reworded", "en", "is set once", "is set once", false},
		{"a language of its own", "de", "kann nicht mehr geändert werden", "kann nicht mehr geändert werden", false},
		{"a placeholder it has not", "en", "was {value}", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			e := exposeAccount(t, reg)
			err := reg.SetMessages(tt.lang, map[string]string{"immutable": tt.msg})
			if (err != nil) != tt.fails {
				t.Fatalf("SetMessages = %v, want failure %v", err, tt.fails)
			}
			if tt.fails {
				return
			}
			r := patchRequest(`{"handle":"bob"}`)
			r.Header.Set("Accept-Language", tt.lang)
			_, _, err = e.Patch(r, accountCurrent())
			fes := fieldErrorsOrNone(err)
			if len(fes) != 1 || fes[0].Message != tt.want {
				t.Errorf("Patch: %v, want one error saying %q", err, tt.want)
			}
		})
	}
}

// FuzzPatchImmutable: whatever the body, Patch answers a merged value or
// the client's error (4xx); and a merged value holds every immutable
// value the current value holds, as it was.
func FuzzPatchImmutable(f *testing.F) {
	for _, s := range []string{`{}`, `{"handle":"ann"}`, `{"handle":"bob"}`, `{"score":1e1,"created":"2026-01-02T04:04:05+01:00"}`,
		`{"profile":null}`, `{"owner":{"ssn":null}}`, `{"meta":{"k":1.0,"j":[1,2]}}`, `{"tags":["a","b"],"items":[{"ssn":"1"}]}`} {
		f.Add(s)
	}
	reg := entity.NewRegistry()
	e := exposeAccount(f, reg)
	f.Fuzz(func(t *testing.T, body string) {
		o, _, err := e.Patch(patchRequest(body), accountCurrent())
		if err != nil {
			w := httptest.NewRecorder()
			reg.WriteError(w, err)
			if w.Code < 400 || w.Code >= 500 {
				t.Fatalf("Patch of %q: %v, status %d; want a 4xx", body, err, w.Code)
			}
			return
		}
		b, _ := o.MarshalJSON()
		var got struct {
			Handle, Created string
			Score           json.Number
			Active          bool
			Tags            []string
			Profile         struct{ Born string }
			Owner           struct{ Ssn string }
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("merged %s: %v", b, err)
		}
		if got.Handle != "ann" || got.Created != "2026-01-02T03:04:05Z" || got.Score != "10" || !got.Active ||
			!slices.Equal(got.Tags, []string{"a", "b"}) || got.Profile.Born != "1990" || got.Owner.Ssn != "123" {
			t.Fatalf("Patch of %q changed an immutable value: %s", body, b)
		}
	})
}

// TestPatchImmutableRefusedNullKeepsTheServersKeys: a null refused for a
// $name holding an immutable value leaves its object as stored, whose
// keys are the server's: DenyUnknown judges none of them (a header
// field's key there, which no request may send, among them).
func TestPatchImmutableRefusedNullKeepsTheServersKeys(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "doc", "city", "$doc", "", "X-H1", "string", "", "user_id", "string", "immutable")
	current := map[string]any{"city": map[string]any{"X-H1": "h", "user_id": "u"}, "user_id": "t"}
	_, _, err := e.Patch(patchRequest(`{"city":null}`), current, entity.DenyUnknown())
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Patch: %v, want a ValidationError", err)
	}
	var got []string
	for _, f := range ve.Fields {
		got = append(got, f.Path+":"+f.Code)
	}
	if want := "city.user_id:immutable"; strings.Join(got, " ") != want {
		t.Errorf("failures %q, want %s", got, want)
	}
}

// TestPatchImmutableComparisonKeepsThePaths: comparing an immutable
// value converts it (a number given for a string, a transform), which
// leaves the path of the change refused and the paths the patch touched
// as they are, at any depth.
func TestPatchImmutableComparisonKeepsThePaths(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "acct",
		"id", "{", "", "handle", "string", "immutable", "nick", "string", "immutable | trim", "id", "}", "",
		"note", "string", "")
	current := map[string]any{"handle": "9:30", "nick": " ann ", "note": "a"}
	for _, tc := range []struct {
		name, patch string
		failed      string // the refused path, or "" for none
		touched     []string
	}{
		{"a number for a string", `{"id":{"handle":2e+00}}`, "id.handle", nil},
		{"a long number for a string", `{"id":{"handle":12345678901234567890}}`, "id.handle", nil},
		{"the transformed value, and another field", `{"id":{"nick":"ann"},"note":"b"}`, "", []string{"id.nick", "note"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, touched, err := e.Patch(patchRequest(tc.patch), current)
			if tc.failed == "" {
				if err != nil {
					t.Fatalf("Patch: %v", err)
				}
				if !slices.Equal(touched, tc.touched) {
					t.Errorf("touched %q, want %q", touched, tc.touched)
				}
				return
			}
			fes := fieldErrors(t, err)
			if len(fes) != 1 || fes[0].Path != tc.failed || fes[0].Code != "immutable" {
				t.Errorf("failures %v, want one immutable at %s", err, tc.failed)
			}
		})
	}
}

// TestPatchImmutableRefusedNullJudgesNothingElse: a refused null leaves
// the object as stored, and judges nothing of it but its immutable
// values: a req field it lacks, a value its rules refuse, a nested
// object's are the server's, as in any stored object a patch leaves. (The
// current value is server data, whose groups' fields are the object's.)
func TestPatchImmutableRefusedNullJudgesNothingElse(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "inner", "v", "string", "req | immutable", "w", "string", "req | min 3",
		"deep", "{", "", "d", "number", "immutable", "x", "string", "req", "deep", "}", "")
	expose(t, reg, "card", "number", "string", "immutable", "holder", "string", "req")
	expose(t, reg, "invoice", "po", "string", "req")
	expose(t, reg, "payer", "p", "$card|$invoice", "by 'method'", "who", "string", "req")
	e := expose(t, reg, "outer",
		"r", "$inner", "",
		"g", "{", "", "gv", "string", "immutable", "gw", "string", "req", "gr", "$inner", "", "g", "}", "",
		"pay", "$card|$invoice", "by 'method'",
		"n", "string", "min 2",
		"gu", "{", "", "gp", "$card|$invoice", "by 'method'", "gu", "}", "",
		"ru", "$payer", "",
		"gg", "{", "", "gpr", "$payer", "", "gg", "}", "")
	tests := []struct {
		name    string
		current map[string]any
		patch   string
		fails   []string // "path code", in order
	}{
		{"a $name lacking a req field", map[string]any{"r": map[string]any{"v": "x"}}, `{"r":null}`,
			[]string{"r.v immutable"}},
		{"a $name holding a value its rules refuse", map[string]any{"r": map[string]any{"v": "x", "w": "y"}}, `{"r":null}`,
			[]string{"r.v immutable"}},
		{"a group inside it, every immutable value", map[string]any{"r": map[string]any{"v": "x", "d": 1}}, `{"r":null}`,
			[]string{"r.v immutable", "r.deep.d immutable"}},
		{"an immutable value only deep down", map[string]any{"r": map[string]any{"d": 1}}, `{"r":null}`,
			[]string{"r.deep.d immutable"}},
		{"a group holding a $name", map[string]any{"gr": map[string]any{"v": "x"}}, `{"g":null}`,
			[]string{"g.gr.v immutable"}},
		{"a group's own value", map[string]any{"gv": "a"}, `{"g":null}`,
			[]string{"g.gv immutable"}},
		{"a union's variant", map[string]any{"pay": map[string]any{"method": "card", "number": "4111"}}, `{"pay":null}`,
			[]string{"pay.number immutable"}},
		{"a union's other variant", map[string]any{"pay": map[string]any{"method": "card", "number": "4111"}}, `{"pay":{"method":"invoice"}}`,
			[]string{"pay.number immutable"}},
		{"with another field's failure", map[string]any{"r": map[string]any{"v": "x"}}, `{"n":"a","r":null}`,
			[]string{"r.v immutable", "n min"}},
		{"a union in a group", map[string]any{"gp": map[string]any{"method": "card", "number": "4"}}, `{"gu":null}`,
			[]string{"gu.gp.number immutable"}},
		{"a union in a $name", map[string]any{"ru": map[string]any{"p": map[string]any{"method": "card", "number": "4"}}}, `{"ru":null}`,
			[]string{"ru.p.number immutable"}},
		{"a union in a $name in a group", map[string]any{"gpr": map[string]any{"p": map[string]any{"method": "card", "number": "4"}}}, `{"gg":null}`,
			[]string{"gg.gpr.p.number immutable"}},
		{"a union in a $name nulled in a group", map[string]any{"gpr": map[string]any{"p": map[string]any{"method": "card", "number": "4"}}}, `{"gg":{"gpr":null}}`,
			[]string{"gg.gpr.p.number immutable"}},
		{"a union's other variant in a $name: nothing immutable", map[string]any{"ru": map[string]any{"p": map[string]any{"method": "invoice", "po": "q"}}}, `{"ru":null}`, nil},
		{"a null where none is held: removed", map[string]any{"r": map[string]any{"w": "y"}}, `{"r":null}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := e.Patch(patchRequest(tt.patch), tt.current)
			got := failedFields(err)
			if !slices.Equal(got, tt.fails) {
				t.Errorf("Patch(%s) fails %q, want %q", tt.patch, got, tt.fails)
			}
		})
	}
}

// TestPatchImmutableRefusedNullCountsAsGiven: for its siblings' cross-field
// rules, a refused null's object counts as given, as a refused change of a
// value does: a rule naming it is judged, on the stored object it keeps.
func TestPatchImmutableRefusedNullCountsAsGiven(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "in", "v", "string", "immutable", "w", "string", "")
	e := expose(t, reg, "out", "r", "$in", "", "n", "string", "required_with 'r'", "m", "string", "")
	current := map[string]any{"r": map[string]any{"v": "x"}}
	tests := []struct {
		name, patch string
		fails       []string
	}{
		{"a refused null", `{"r":null}`, []string{"r.v immutable", "n required_with"}},
		{"a refused change inside it", `{"r":{"v":"z"}}`, []string{"r.v immutable", "n required_with"}},
		{"a change it accepts", `{"r":{"w":"y"}}`, []string{"n required_with"}},
		{"nothing of it: the server's, not judged", `{"m":"x"}`, nil},
		{"the rule met", `{"r":null,"n":"a"}`, []string{"r.v immutable"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := e.Patch(patchRequest(tt.patch), current)
			got := failedFields(err)
			if !slices.Equal(got, tt.fails) {
				t.Errorf("Patch(%s) fails %q, want %q", tt.patch, got, tt.fails)
			}
		})
	}
}

// TestPatchImmutableLaxNumbers: an integer is compared as the call reads
// it: a lax patch reads 0.5 as 0, the same value, and a strict one
// refuses it as a change.
func TestPatchImmutableLaxNumbers(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "acct", "score", "long", "immutable", "ratio", "float", "immutable", "big", "long", "immutable")
	current := map[string]any{"score": int64(0), "ratio": 0.5, "big": int64(9007199254740993)}
	tests := []struct {
		name, patch string
		opts        []entity.Option
		fails       []string
	}{
		{"a fraction, lax", `{"score":0.5}`, []entity.Option{entity.Lax()}, nil},
		{"a fraction, strict", `{"score":0.5}`, nil, []string{"score immutable"}},
		{"another integer, lax", `{"score":1.5}`, []entity.Option{entity.Lax()}, []string{"score immutable"}},
		{"a float, exactly, lax", `{"ratio":0.50}`, []entity.Option{entity.Lax()}, nil},
		{"another float, lax", `{"ratio":0.25}`, []entity.Option{entity.Lax()}, []string{"ratio immutable"}},
		{"past 2^53, another integer, lax", `{"big":9007199254740992}`, []entity.Option{entity.Lax()}, []string{"big immutable"}},
		{"past 2^53, a fraction of another, lax", `{"big":9007199254740992.5}`, []entity.Option{entity.Lax()}, []string{"big immutable"}},
		{"past 2^53, the same with a fraction, lax", `{"big":9007199254740993.5}`, []entity.Option{entity.Lax()}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := e.Patch(patchRequest(tt.patch), current, tt.opts...)
			got := failedFields(err)
			if !slices.Equal(got, tt.fails) {
				t.Errorf("Patch(%s) fails %q, want %q", tt.patch, got, tt.fails)
			}
		})
	}
}
