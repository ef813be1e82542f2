package entity_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestOmit: omitnil leaves a key out when its value is null after
// default; omitempty also when it is "", 0, false, [] or {}; commas stay
// right whichever keys are left out.
func TestOmit(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "item", "id", "number", "")
	e := expose(t, reg, "omit",
		"a", "string", "omitnil",
		"b", "string", "omitempty",
		"n", "number", "omitempty",
		"f", "float", "omitempty",
		"t", "bool", "omitempty",
		"l", "list", "omitempty",
		"o", "object", "omitempty",
		"x", "none", "omitnil",
		"d", "string", "omitnil | default 'dflt'",
		"g", "{", "omitempty",
		"ga", "string", "omitnil",
		"g", "}", "",
		"r", "$item", "omitnil",
		"rs", "$item", "omitempty",
		"last", "string", "omitnil",
	)
	tests := []struct {
		name string
		in   map[string]any
		want string
	}{
		{"everything absent", map[string]any{}, `{"d":"dflt"}`},
		{"empty values", map[string]any{"a": "", "b": "", "n": 0, "f": 0.0, "t": false, "l": []any{}, "o": map[string]any{}, "x": nil, "rs": []any{}},
			`{"a":"","d":"dflt"}`},
		{"values", map[string]any{"a": "a", "b": "b", "n": 1, "f": 0.5, "t": true, "l": []any{1}, "o": map[string]any{"k": 1}, "x": 0, "ga": "in", "r": map[string]any{"id": 1}, "rs": []any{map[string]any{"id": 2}}, "last": "z"},
			`{"a":"a","b":"b","n":1,"f":0.5,"t":true,"l":[1],"o":{"k":1},"x":0,"d":"dflt","g":{"ga":"in"},"r":{"id":1},"rs":[{"id":2}],"last":"z"}`},
		{"a value that does not convert is null", map[string]any{"n": "abc", "last": "z"}, `{"d":"dflt","last":"z"}`},
		{"only the last", map[string]any{"last": "z", "d": "D"}, `{"d":"D","last":"z"}`},
	}
	for _, tt := range tests {
		for form, in := range map[string]any{"map": tt.in, "raw JSON": []byte(marshal(t, tt.in))} {
			t.Run(tt.name+"/"+form, func(t *testing.T) {
				out, err := shapeAll(t, e, in)
				if err != nil {
					t.Fatal(err)
				}
				if out != tt.want {
					t.Errorf("got  %s\nwant %s", out, tt.want)
				}
			})
		}
	}
	t.Run("the first key left out", func(t *testing.T) {
		e := expose(t, reg, "first", "a", "string", "omitnil", "b", "string", "")
		if out, err := shapeAll(t, e, map[string]any{"b": "x"}); err != nil || out != `{"b":"x"}` {
			t.Errorf("got %s, %v", out, err)
		}
		if out, err := shapeAll(t, e, map[string]any{}); err != nil || out != `{"b":null}` {
			t.Errorf("got %s, %v", out, err)
		}
	})
}

// TestDirection: writeonly fields are read from requests and never
// written by responses; readonly fields the other way round.
func TestDirection(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "account",
		"name", "string", "req",
		"password", "string", "writeonly | req | min 8",
		"id", "number", "readonly | req",
		"meta", "{", "readonly",
		"created", "string", "req",
		"meta", "}", "",
	)
	t.Run("a response never writes a writeonly field", func(t *testing.T) {
		out, err := shapeAll(t, e, map[string]any{"name": "n", "password": "hunter2hunter2", "id": 7, "created": "now"})
		if err != nil || out != `{"name":"n","id":7,"meta":{"created":"now"}}` {
			t.Errorf("got %s, %v", out, err)
		}
		if out, err := e.MakeJSON(map[string]any{"name": "n", "id": 7, "created": "now"}); err != nil {
			t.Errorf("a response fails on an absent writeonly req: %s, %v", out, err)
		}
	})
	tests := []struct {
		name  string
		body  string
		want  string
		fails string
	}{
		{"a request reads writeonly, ignores readonly", `{"name":"n","password":"hunter2hunter2","id":"not a number"}`, `{"name":"n","password":"hunter2hunter2"}`, ""},
		{"a writeonly field is checked", `{"name":"n","password":"short"}`, "", "password"},
		{"a readonly req is not required of a request", `{"name":"n","password":"hunter2hunter2"}`, `{"name":"n","password":"hunter2hunter2"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			o, err := e.MakeRequest(req)
			if tt.fails != "" {
				fe := fieldErrors(t, err)
				if len(fe) != 1 || fe[0].Path != tt.fails {
					t.Errorf("got %v, want one error at %s", err, tt.fails)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Get, Map and Decode see what the request sent; its response
			// form (String, MarshalJSON) leaves the writeonly field out.
			if got, _ := json.Marshal(o.Map()); string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if got := o.String(); strings.Contains(got, "password") {
				t.Errorf("String writes a writeonly field: %s", got)
			}
		})
	}
}

func TestOmitDirectionDeclarations(t *testing.T) {
	tests := []struct {
		name string
		decl []string
		err  string
	}{
		{"omitnil on a group", []string{"g", "{", "omitnil", "a", "string", "", "g", "}", ""}, "omitnil cannot apply to a group, which is never null"},
		{"omitempty takes no argument", []string{"a", "string", "omitempty 1"}, `rule "omitempty" takes no arguments`},
		{"both directions", []string{"a", "string", "readonly | writeonly"}, "cannot be both readonly"},
		{"unexpose outside Extend", []string{"a", "string", "unexpose"}, "applies only in Extend"},
		{"merge on a value", []string{"a", "string", "merge"}, "it applies only to a $ref"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := entity.NewRegistry().Expose("e", tt.decl...)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("got %v, want %q", err, tt.err)
			}
		})
	}
}
