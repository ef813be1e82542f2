package entity_test

import (
	"errors"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// TestPatchTakesAStoredValueAsStored: a member of the current value that
// the patch leaves is the server's, judged when it was stored, and is not
// judged again (a rule tightened since, a req field the row lacks): the
// merged value holds it as stored. What the patch gives is judged as a
// request judges it, a 400 naming the field at its place in the body,
// quoting nothing.
func TestPatchTakesAStoredValueAsStored(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "contact",
		"name", "string", "",
		"email", "string", "req | email",
		"nick", "string", "default 'anon'",
	)
	tests := []struct {
		name    string
		current map[string]any
		patch   string
		merged  string // the merged Object, when it passes
		code    string // the one error's, at email; "" for none
	}{
		{"a req field the row lacks", map[string]any{"name": "a"}, `{"name":"b"}`, `{"name":"b","email":null,"nick":null}`, ""},
		{"a value the rules refuse", map[string]any{"email": "not-an-email"}, `{"name":"b"}`, `{"name":"b","email":"not-an-email","nick":null}`, ""},
		{"the patch gives the value", map[string]any{"email": "not-an-email"}, `{"email":"b@example.com"}`, `{"name":null,"email":"b@example.com","nick":null}`, ""},
		{"the patch clears the default's field", map[string]any{"email": "a@example.com", "nick": "n"}, `{"nick":null}`, `{"name":null,"email":"a@example.com","nick":"anon"}`, ""},
		{"the patch gives a value the rules refuse", map[string]any{"email": "a@example.com"}, `{"email":"not-an-email"}`, "", "email"},
		{"the patch clears a req field", map[string]any{"email": "a@example.com"}, `{"email":null}`, "", "required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			merged, _, err := e.Patch(patchRequest(tt.patch), tt.current)
			if tt.code == "" {
				if err != nil {
					t.Fatalf("Patch: %v, want none", err)
				}
				if got := merged.String(); got != tt.merged {
					t.Errorf("merged %s, want %s", got, tt.merged)
				}
				return
			}
			fes := fieldErrorsOrNone(err)
			if len(fes) != 1 || fes[0].Path != "email" || fes[0].Pointer != "/email" || fes[0].Code != tt.code {
				t.Fatalf("Patch: %v, want one %s error at email", err, tt.code)
			}
			w := httptest.NewRecorder()
			reg.WriteError(w, err)
			if w.Code != 400 || strings.Contains(w.Body.String(), "not-an-email") {
				t.Errorf("WriteError: %d %s, want a 400 quoting no value", w.Code, w.Body)
			}
		})
	}
}

// TestPatchRunsTheRulesOfTheValuesThePatchGives: the stored value's rules
// run on none of it: neither on the current value as it is read nor on
// the members of it the merged value holds; they run once on each value
// the patch gives (the elements of a list it replaces among them), and a
// readonly one's not at all.
func TestPatchRunsTheRulesOfTheValuesThePatchGives(t *testing.T) {
	var runs atomic.Int64
	reg := entity.NewRegistry()
	err := reg.RegisterRule(rules.Def{Name: "counted", Types: rules.Kinds(rules.String), NoPanic: true,
		Compile: func([]string, rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(rules.Value) error { runs.Add(1); return nil }), nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	expose(t, reg, "line", "sku", "string", "counted", "by", "string", "readonly | counted")
	e := expose(t, reg, "order",
		"name", "string", "",
		"note", "string", "counted",
		"id", "string", "readonly | counted",
		"lines", "[]$line", "",
		"ship", "{", "",
		"to", "string", "counted",
		"at", "string", "counted",
		"ship", "}", "",
	)
	current := map[string]any{"name": "n", "note": "x", "id": "7", "to": "t", "at": "a",
		"lines": []any{map[string]any{"sku": "a", "by": "b"}, map[string]any{"sku": "c", "by": "d"}}}
	tests := []struct {
		name, patch string
		want        int64
	}{
		{"a patch of another field", `{"name":"m"}`, 0},
		{"a patch of the field", `{"note":"y"}`, 1},
		{"a patch that replaces the list", `{"lines":[{"sku":"e"},{"sku":"f"}]}`, 2},
		{"a patch into a group", `{"ship":{"to":"u"}}`, 1}, // its stored "at" is not judged
		{"a patch of the field twice", `{"note":"y","note":"z"}`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs.Store(0)
			if _, _, err := e.Patch(patchRequest(tt.patch), current); err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if got := runs.Load(); got != tt.want {
				t.Errorf("the rule ran %d times, want %d: once per value the patch gives, readonly ones excepted", got, tt.want)
			}
		})
	}
}

// TestPatchOfACurrentValueThatCannotBeRead: a current value that cannot
// be read as the entity's input (one Make refuses, raw JSON that does not
// parse or is no object, a value that fails to be read) is the server's
// error: the client is answered the generic 500.
func TestPatchOfACurrentValueThatCannotBeRead(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "contact", "name", "string", "", "v", "none", "")
	tests := []struct {
		name    string
		current any
	}{
		{"not an object", "a string"},
		{"a list", []any{map[string]any{"name": "a"}}},
		{"raw JSON that does not parse", []byte(`{"name":`)},
		{"raw JSON of a list", []byte(`[{"name":"a"}]`)},
		{"a value that fails to be read", map[string]any{"v": failingValuer{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := e.Patch(patchRequest(`{"name":"b"}`), tt.current)
			if err == nil {
				t.Fatal("Patch: no error")
			}
			var ve *entity.ValidationError
			if errors.As(err, &ve) && ve.StatusCode() != 500 {
				t.Errorf("StatusCode() = %d, want 500 (the server's data)", ve.StatusCode())
			}
			w := httptest.NewRecorder()
			reg.WriteError(w, err)
			if w.Code != 500 || strings.Contains(w.Body.String(), "name") {
				t.Errorf("WriteError: %d %s, want the generic 500", w.Code, w.Body)
			}
		})
	}
}

// TestPatchJudgesTheMergedValue: "a writeonly one the patch does not
// touch is not required (the server need not hold it)": a current value
// held without its writeonly fields is not refused by a cross-field rule
// that requires one, so that a patch the merged value satisfies passes;
// a writeonly field the patch does not give is not read, so the rules
// that name it are not judged (the server may hold it).
func TestPatchJudgesTheMergedValue(t *testing.T) {
	reg := entity.NewRegistry()
	sso := expose(t, reg, "login",
		"name", "string", "",
		"password", "string", "writeonly | required_without 'sso'",
		"sso", "string", "",
	)
	tests := []struct {
		name    string
		e       *entity.Entity
		current map[string]any
		patch   string
	}{
		{"the patch gives the other field", sso, map[string]any{"name": "a"}, `{"sso":"s"}`},
		{"the patch gives the writeonly field", sso, map[string]any{"name": "a"}, `{"password":"p"}`},
		{"the patch gives neither", sso, map[string]any{"name": "a"}, `{"name":"b"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := tt.e.Patch(patchRequest(tt.patch), tt.current); err != nil {
				t.Errorf("Patch of %s onto %v: %v; want no error (the merged value passes every rule)", tt.patch, tt.current, err)
			}
		})
	}
}

// TestPatchJudgesCrossRulesNamingAReadonlyField: the merged value holds a
// readonly field's stored value, and a sibling's cross-field rule that
// names it judges that value when the patch gives or clears the sibling;
// the rules of a value taken as stored are not judged (a row stored
// before the rule was declared is no 400), the readonly field's neither.
func TestPatchJudgesCrossRulesNamingAReadonlyField(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "ticket",
		"status", "string", "readonly",
		"reason", "string", "required_if 'status' closed",
	)
	tests := []struct {
		name    string
		current map[string]any
		patch   string
		fails   string // the field that fails required_if, or ""
	}{
		{"a stored row the rule refuses", map[string]any{"status": "closed"}, `{}`, ""},
		{"the patch gives what the rule asks", map[string]any{"status": "closed"}, `{"reason":"done"}`, ""},
		{"the patch clears it", map[string]any{"status": "closed", "reason": "done"}, `{"reason":null}`, "reason"},
		{"the stored value does not ask", map[string]any{"status": "open"}, `{}`, ""},
		{"the patch's readonly key is ignored", map[string]any{"status": "closed"}, `{"status":"open"}`, ""},
		{"the patch gives an empty value", map[string]any{"status": "closed", "reason": "done"}, `{"reason":""}`, ""},
		{"the patch clears it, the readonly key given", map[string]any{"status": "closed", "reason": "done"}, `{"status":"open","reason":null}`, "reason"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := e.Patch(patchRequest(tt.patch), tt.current)
			fes := fieldErrorsOrNone(err)
			switch {
			case tt.fails == "" && err != nil:
				t.Errorf("Patch: %v; want no error", err)
			case tt.fails != "" && (len(fes) != 1 || fes[0].Path != tt.fails || fes[0].Code != "required_if"):
				t.Errorf("Patch: %v; want %s required_if", err, tt.fails)
			}
		})
	}
}

// TestPatchKeepsAStoredObjectAsItIs: an object or list of the current
// value that the patch leaves (a group's, a $name's, a []$name's) is in
// the merged value as it was stored, whatever its rules say now, with or
// without a format or an omission in it; Bind of the merged Object sets
// its values.
func TestPatchKeepsAStoredObjectAsItIs(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "line", "sku", "string", "req | regex '^[A-Z]+$'", "qty", "number", "range 1 9")
	expose(t, reg, "stamp", "at", "date", "format unix", "note", "string", "omitnil")
	e := expose(t, reg, "order",
		"name", "string", "",
		"lines", "[]$line", "max 1",
		"stamp", "$stamp", "",
		"ship", "{", "",
		"to", "string", "req | min 5",
		"ship", "}", "",
	)
	current := map[string]any{"name": "n", "to": "x",
		"lines": []any{map[string]any{"sku": "lower", "qty": 70}, map[string]any{"qty": 2}},
		"stamp": map[string]any{"at": 1700000000, "note": nil}}
	tests := []struct{ name, patch, want string }{
		{"every object stored", `{"name":"m"}`,
			`{"name":"m","lines":[{"sku":"lower","qty":70},{"sku":null,"qty":2}],"stamp":{"at":1700000},"ship":{"to":"x"}}`},
		{"a group the patch merges into", `{"ship":{"to":"harbour"}}`,
			`{"name":"n","lines":[{"sku":"lower","qty":70},{"sku":null,"qty":2}],"stamp":{"at":1700000},"ship":{"to":"harbour"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			merged, _, err := e.Patch(patchRequest(tt.patch), current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if got := merged.String(); got != tt.want {
				t.Errorf("merged %s\nwant   %s", got, tt.want)
			}
			type line struct {
				Sku *string `json:"sku"`
				Qty int     `json:"qty"`
			}
			var o struct {
				Lines []line `json:"lines"`
			}
			if err := merged.Bind(&o); err != nil || len(o.Lines) != 2 || o.Lines[0].Qty != 70 || o.Lines[1].Sku != nil {
				t.Errorf("Bind: %v %+v", err, o)
			}
		})
	}
	// a patch that gives the list is judged as a request
	_, _, err := e.Patch(patchRequest(`{"lines":[{"sku":"lower","qty":70}]}`), current)
	if fes := fieldErrorsOrNone(err); len(fes) != 2 {
		t.Errorf("Patch of a list: %v, want the sku's regex and the qty's range", err)
	}
}

// TestPatchHidesAStoredEmptyListItsOmitemptyLeavesOut: a stored list the
// patch leaves, empty under omitempty, is in the merged Object (Bind sets
// it) and not in its response form, as any value omitempty leaves out.
func TestPatchHidesAStoredEmptyListItsOmitemptyLeavesOut(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "line", "sku", "string", "")
	e := expose(t, reg, "order", "name", "string", "", "lines", "[]$line", "omitempty")
	merged, _, err := e.Patch(patchRequest(`{"name":"m"}`), map[string]any{"name": "n", "lines": []any{}})
	if err != nil {
		t.Fatalf("Patch: %v", err)
	}
	if got, want := merged.String(), `{"name":"m"}`; got != want {
		t.Errorf("response form %s, want %s", got, want)
	}
	o := struct {
		Lines []struct{} `json:"lines"`
	}{Lines: nil}
	if err := merged.Bind(&o); err != nil || o.Lines == nil {
		t.Errorf("Bind: %v, lines %#v: want an empty list set", err, o.Lines)
	}
}

// TestPatchJudgesAStoredValuesRuleWhenThePatchGivesAFieldItNames: the
// cross-field rules of a value taken as stored are judged when the patch
// gives or clears a field they name, and only then.
func TestPatchJudgesAStoredValuesRuleWhenThePatchGivesAFieldItNames(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "o",
		"a", "string", "excluded_with 'b'",
		"b", "string", "",
		"c", "string", "required_without 'a'",
		"d", "string", "",
	)
	tests := []struct {
		name    string
		current map[string]any
		patch   string
		fails   string // the field that fails, or ""
	}{
		{"the patch gives what a stored value excludes", map[string]any{"a": "x"}, `{"b":"y"}`, "a"},
		{"the patch clears what a stored null requires without", map[string]any{"a": "x"}, `{"a":null}`, "c"},
		{"the patch gives another field", map[string]any{"a": "x", "b": "y"}, `{"d":"z"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := e.Patch(patchRequest(tt.patch), tt.current)
			fes := fieldErrorsOrNone(err)
			switch {
			case tt.fails == "" && err != nil:
				t.Errorf("Patch: %v; want no error", err)
			case tt.fails != "" && (len(fes) != 1 || fes[0].Path != tt.fails):
				t.Errorf("Patch: %v; want one error at %s", err, tt.fails)
			}
		})
	}
}
