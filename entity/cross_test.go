package entity_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

func crossEntity(t testing.TB) *entity.Entity {
	t.Helper()
	reg := entity.NewRegistry()
	expose(t, reg, "address", "city", "string", "req")
	return expose(t, reg, "order",
		"delivery", "string", "req | in ship pickup",
		"ship", "$address", "required_if delivery ship",
		"email", "string", "required_without phone",
		"phone", "string", "",
		"coupon", "string", "excluded_with discount",
		"discount", "number", "",
		"card", "{", "",
		"number", "string", "required_with cvc",
		"cvc", "string", "",
		"card", "}", "",
	)
}

// TestCrossFieldRules: required_if, required_with, required_without and
// excluded_with judge a field with its siblings, on requests and responses
// alike, after defaults, with messages in the call's language.
func TestCrossFieldRules(t *testing.T) {
	e := crossEntity(t)
	tests := []struct {
		name   string
		in     string
		fails  string
		server string // server data, where it differs from the wire form (a group reads its parent's input)
	}{
		{"ship without the address", `{"delivery":"ship","email":"a@b"}`, "ship required_if", ""},
		{"pickup needs none", `{"delivery":"pickup","email":"a@b"}`, "", ""},
		{"shipped", `{"delivery":"ship","ship":{"city":"x"},"phone":"1"}`, "", ""},
		{"neither email nor phone", `{"delivery":"pickup"}`, "email required_without", ""},
		{"a null is absent", `{"delivery":"pickup","email":null,"phone":null}`, "email required_without", ""},
		{"both coupon and discount", `{"delivery":"pickup","phone":"1","coupon":"X","discount":5}`, "coupon excluded_with", ""},
		{"in a group, with its siblings", `{"delivery":"pickup","phone":"1","card":{"cvc":"123"}}`, "card.number required_with",
			`{"delivery":"pickup","phone":"1","cvc":"123"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, request := range []bool{false, true} {
				var err error
				if request {
					_, err = e.MakeRequest(rqRequest("POST", "/", "application/json", tt.in))
				} else {
					in := tt.in
					if tt.server != "" {
						in = tt.server
					}
					_, err = e.MakeJSON([]byte(in))
				}
				var got []string
				for _, f := range fieldErrorsOrNone(err) {
					got = append(got, f.OutputPath+" "+f.Code)
				}
				if strings.Join(got, ",") != tt.fails {
					t.Errorf("request %v: got %q (%v), want %q", request, got, err, tt.fails)
				}
			}
		})
	}
	t.Run("messages", func(t *testing.T) {
		_, err := e.MakeRequest(rqRequest("POST", "/", "application/json", `{"delivery":"ship"}`, "Accept-Language", "ja"))
		fs := fieldErrorsOrNone(err)
		if len(fs) != 2 || fs[0].Message != `deliveryがshipのときは必須です` || fs[0].Params["other"] != "delivery" {
			t.Errorf("got %q %v", fs[0].Message, fs[0].Params)
		}
		_, err = e.MakeJSON([]byte(`{"delivery":"pickup","coupon":"c","discount":1,"phone":"1"}`))
		if fs := fieldErrorsOrNone(err); len(fs) != 1 || fs[0].Message != `must be absent when discount is given` {
			t.Errorf("got %v", err)
		}
	})
	for _, tt := range []struct {
		name string
		decl []string
		want string
	}{
		{"an unknown sibling", []string{"a", "string", "required_with b"}, `no field "b" in the same object`},
		{"itself", []string{"a", "string", "required_with a"}, "names the field itself"},
		{"a value the sibling cannot hold", []string{"n", "number", "", "a", "string", "required_if n x"}, `is not a valid number`},
		{"no value", []string{"n", "number", "", "a", "string", "required_if n"}, "then its values"},
		{"a cousin", []string{"g", "{", "", "x", "string", "", "g", "}", "", "a", "string", "required_with x"}, `no field "x"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := entity.NewRegistry().Expose("bad", tt.decl...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestCrossRuleOfAFailedField: a field whose own value fails (a type
// error, req, or an element's type error that leaves its list empty) has
// that error only, not a cross-field rule's besides: the client sent it,
// or was told it is required. One error per field and cause.
func TestCrossRuleOfAFailedField(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "address", "city", "string", "")
	e := expose(t, reg, "order",
		"delivery", "string", "",
		"n", "number", "required_if delivery ship",
		"ship", "$address", "required_if delivery ship",
		"m", "number", "required_with delivery",
		"k", "number", "required_without delivery",
		"r", "number", "req | required_if delivery ship",
		"x", "number", "excluded_with delivery",
		"trig", "number", "",
		"l", "[]$address", "omitempty | required_with trig",
	)
	tests := []struct {
		name, in string
		fails    string // path code, comma-separated
	}{
		{"required_if, wrongly typed", `{"delivery":"ship","n":"zz","ship":{},"m":1,"r":1}`, "n type"},
		{"required_if, a list for a $name", `{"delivery":"ship","n":1,"ship":7,"m":1,"r":1}`, "ship type"},
		{"required_with, wrongly typed", `{"delivery":"ship","n":1,"ship":{},"m":true,"r":1}`, "m type"},
		{"required_without, wrongly typed", `{"k":1.5,"r":1}`, "k type"},
		{"req and required_if, absent", `{"delivery":"ship","n":1,"ship":{},"m":1}`, "r required"},
		{"excluded_with, wrongly typed", `{"delivery":"pickup","m":1,"r":1,"x":"zz"}`, "x type"},
		{"excluded_with, sent", `{"delivery":"pickup","m":1,"r":1,"x":1}`, "x excluded_with"},
		{"absent: the rule's error", `{"delivery":"ship","ship":{},"m":1,"r":1}`, "n required_if"},
		{"required_with, a list whose elements fail", `{"delivery":"pickup","m":1,"r":1,"trig":1,"l":[1,"a"]}`, "l[0] type,l[1] type"},
		{"required_with, an empty list left out", `{"delivery":"pickup","m":1,"r":1,"trig":1,"l":[]}`, "l required_with"},
		{"all at once", `{"delivery":"ship","n":"a","ship":"b","m":"c","r":"d"}`, "n type,ship type,m type,r type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.MakeRequest(rqRequest("POST", "/", "application/json", tt.in))
			_, merr := e.MakeJSON([]byte(tt.in), entity.Strict())
			for what, err := range map[string]error{"MakeRequest": err, "MakeJSON(Strict)": merr} {
				var got []string
				for _, f := range fieldErrorsOrNone(err) {
					got = append(got, f.Path+" "+f.Code)
				}
				if strings.Join(got, ",") != tt.fails {
					t.Errorf("%s: got %q, want %q", what, got, tt.fails)
				}
			}
		})
	}
}

// TestCrossRulePathOfAnObjectInTheWireForm: an Object of the entity is
// read by its output keys, and a cross-field rule's failure there is
// named by the key it is read under, as any other failure of it is.
func TestCrossRulePathOfAnObjectInTheWireForm(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "doc",
		"g", "{", "",
		"n", "string", "",
		"cred", "string", "readonly | rename 'r3' | required_with 'n'",
		"m", "string", "readonly | rename 'r4' | req",
		"g", "}", "",
		"top", "string", "readonly | rename 'r5' | required_with 'x'",
		"x", "string", "",
	)
	r := jsonRequest(t, `{"g":{"n":"a"},"x":"b"}`)
	o, err := e.MakeRequest(r)
	if err != nil {
		t.Fatalf("MakeRequest: %v", err)
	}
	_, err = e.MakeJSON(o) // its readonly fields are not there: the server's error
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("MakeJSON of the request's Object: %v, want a ValidationError", err)
	}
	var got []string
	for _, f := range ve.Fields {
		got = append(got, f.Path+" "+f.OutputPath+" "+f.Code)
	}
	want := []string{"g.r4 g.r4 required", "g.r3 g.r3 required_with", "r5 r5 required_with"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("failures %q, want %q", got, want)
	}
}

// TestCrossRulePathOfAFromPath: a cross-field failure of a field read at
// a from path names its number steps as its read took them, an object's
// key (a.1) or a list's index (a[1]), as its own failure does, whatever
// the fields read after it.
func TestCrossRulePathOfAFromPath(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "row",
		"v", "string", "from 'items.1' | required_with 'w'",
		"w", "string", "from 'other.0'",
		"z", "string", "from 'list.0'")
	for _, tc := range []struct {
		name string
		in   map[string]any
		want string
	}{
		{"an object's key", map[string]any{"items": map[string]any{"a": "x"}, "other": []any{"b"}, "list": []any{"c"}}, "items.1"},
		{"a list's index", map[string]any{"items": []any{"x"}, "other": []any{"b"}, "list": map[string]any{"0": "c"}}, "items[1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.Make(tc.in)
			fes := fieldErrors(t, err)
			if len(fes) != 1 || fes[0].Path != tc.want || fes[0].Code != "required_with" {
				t.Fatalf("failures %v, want one required_with at %s", err, tc.want)
			}
		})
	}
}
