package entity_test

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
)

// strictEntity has a field of every type, read from every request source
// (forms too).
func strictEntity(t *testing.T) *entity.Entity {
	reg := entity.NewRegistry()
	expose(t, reg, "item", "n", "number", "")
	return expose(t, reg, "in", "form",
		"i", "number", "", "f", "float", "", "s", "string", "", "b", "bool", "",
		"d", "date", "", "l", "list", "", "o", "object", "", "x", "none", "", "r", "$item", "",
		"X-Int", "number", "",
	)
}

// strictOutcome is what a strict read of one value gives: the written
// value, or the message of its type error.
type strictCase struct {
	name, field, json string // the value as JSON in a body
	want              string // the field's output, or "!" + the error message
}

// strictRequestWant is what a request gives, for the cases where it is not
// what Make(Strict) gives: a request's $name is one object.
var strictRequestWant = map[string]string{
	"a reference from a list": "!must be an object, got an array",
}

var strictJSONCases = []strictCase{
	{"int from an integer", "i", `12`, `12`},
	{"int from 12.0", "i", `12.0`, `12`},
	{"int from 1e3", "i", `1e3`, `1000`},
	{"int from a numeric string", "i", `"27"`, `27`},
	{"int from 007", "i", `"007"`, `7`},
	{"int from -3", "i", `"-3"`, `-3`},
	{"int from 12.0 text", "i", `"12.0"`, `12`},
	{"int from 12.5", "i", `12.5`, "!must be an integer, got a number with a fraction"},
	{"int from 12.5 text", "i", `"12.5"`, "!must be an integer, got a string with a fraction"},
	{"int from 1e3 text", "i", `"1e3"`, "!must be an integer, got a string"},
	{"int from +27", "i", `"+27"`, "!must be an integer, got a string"},
	{"int from a space", "i", `" 27"`, "!must be an integer, got a string"},
	{"int from abc", "i", `"abc"`, "!must be an integer, got a string"},
	{"int from true", "i", `true`, "!must be an integer, got a boolean"},
	{"int from an object", "i", `{}`, "!must be an integer, got an object"},
	{"int from an array", "i", `[1]`, "!must be an integer, got an array"},
	{"int beyond int64", "i", `9223372036854775808`, "!must be an integer, got a number out of range"},
	{"float from a number", "f", `1.5`, `1.5`},
	{"float from a string", "f", `"1.5"`, `1.5`},
	{"float from abc", "f", `"abc"`, "!must be a number, got a string"},
	{"float from true", "f", `true`, "!must be a number, got a boolean"},
	{"string from a string", "s", `"x"`, `"x"`},
	{"string from a number", "s", `123`, "!must be a string, got a number"},
	{"string from true", "s", `true`, "!must be a string, got a boolean"},
	{"string from an object", "s", `{"a":1}`, "!must be a string, got an object"},
	{"bool from true", "b", `true`, `true`},
	{"bool from 1", "b", `1`, `true`},
	{"bool from on", "b", `"on"`, `true`},
	{"bool from yes", "b", `"yes"`, "!must be a boolean, got a string"},
	{"bool from 2", "b", `2`, "!must be a boolean, got a number"},
	{"date from a date", "d", `"2024-02-29"`, `"2024-02-29T00:00:00Z"`},
	{"date from milliseconds", "d", `0`, `"1970-01-01T00:00:00Z"`},
	{"date from no date", "d", `"2023-02-30"`, "!must be a date, got a string"},
	{"list from an array", "l", `[1,"a"]`, `[1,"a"]`},
	{"list from a string", "l", `"a"`, "!must be a list, got a string"},
	{"object from an object", "o", `{"k":1}`, `{"k":1}`},
	{"object from an array", "o", `[]`, "!must be an object, got an array"},
	{"none from anything", "x", `[true]`, `[true]`},
	{"a reference from an object", "r", `{"n":1}`, `{"n":1}`},
	{"a reference from a list", "r", `[{"n":1}]`, `[{"n":1}]`},
	{"a reference from a string", "r", `"x"`, "!must be an object, got a string"},
	{"null is absent", "i", `null`, `null`},
}

// TestStrictJSONBody: MakeRequest reads a JSON body strictly; Make with
// Strict reads the same raw JSON the same way; Lax reads it leniently.
func TestStrictJSONBody(t *testing.T) {
	e := strictEntity(t)
	for _, c := range strictJSONCases {
		t.Run(c.name, func(t *testing.T) {
			body := `{"` + c.field + `":` + c.json + `}`
			r := rqRequest(http.MethodPost, "/", "application/json", body)
			o, err := e.MakeRequest(r)
			rc := c
			if w, ok := strictRequestWant[c.name]; ok {
				rc.want = w
			}
			checkStrict(t, "MakeRequest", rc, o, err)
			o, err = e.Make([]byte(body), entity.Strict())
			checkStrict(t, "Make(Strict)", c, o, err)
			if _, err := e.MakeRequest(rqRequest(http.MethodPost, "/", "application/json", body), entity.Lax()); err != nil && strictRequestWant[c.name] == "" {
				t.Errorf("Lax: %v", err)
			}
		})
	}
}

// checkStrict checks one strict read against its case.
func checkStrict(t *testing.T, what string, c strictCase, o *entity.Object, err error) {
	t.Helper()
	if msg, ok := strings.CutPrefix(c.want, "!"); ok {
		var ve *entity.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != 1 {
			t.Fatalf("%s: %v, want one type error", what, err)
		}
		f := ve.Fields[0]
		if f.Code != "type" || f.Rule != "type" || f.Message != msg || f.Path != c.field {
			t.Errorf("%s: %s %s %q, want %s type %q", what, f.Path, f.Code, f.Message, c.field, msg)
		}
		if f.Params["type"] == nil || f.Params["got"] == nil {
			t.Errorf("%s: params %v, want type and got", what, f.Params)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if got := o.String(); !strings.Contains(got, `"`+c.field+`":`+c.want) {
		t.Errorf("%s: got %s, want %s:%s", what, got, c.field, c.want)
	}
}

// TestStrictText: query, form and header values are text, always strings:
// a string field takes them, other fields read them as their text says,
// but that a parameter's integer (the query's, a header's) is decimal
// digits with an optional minus sign.
func TestStrictText(t *testing.T) {
	e := strictEntity(t)
	cases := []struct {
		name, field, text, want string
		param                   string // the want of a query's or header's value, when it differs
	}{
		{"int", "i", "27", "27", ""},
		{"int with leading zeros", "i", "007", "7", ""},
		{"a negative int", "i", "-3", "-3", ""},
		{"int with zeros", "i", "12.00", "12", "!must be an integer, got a string with a fraction"},
		{"int with a fraction", "i", "12.5", "!must be an integer, got a string with a fraction", ""},
		{"int that is no number", "i", "abc", "!must be an integer, got a string", ""},
		{"int with a plus sign", "i", "+1", "!must be an integer, got a string", ""},
		{"int in exponent form", "i", "1e3", "!must be an integer, got a string", ""},
		{"an empty value is there", "i", "", "!must be an integer, got a string", ""},
		{"string from digits", "s", "123", `"123"`, ""},
		{"bool", "b", "off", "false", ""},
		{"bool from yes", "b", "yes", "!must be a boolean, got a string", ""},
		{"float", "f", "1e3", "1000", ""},
		{"list of one", "l", "a", `["a"]`, ""},
	}
	for _, c := range cases {
		for _, src := range []string{"query", "form", "header"} {
			t.Run(src+": "+c.name, func(t *testing.T) {
				field := c.field
				var r *http.Request
				switch src {
				case "query":
					r = rqRequest(http.MethodGet, "/?"+url.Values{field: {c.text}}.Encode(), "", "")
				case "form":
					r = rqRequest(http.MethodPost, "/", "application/x-www-form-urlencoded", url.Values{field: {c.text}}.Encode())
				case "header":
					if c.field != "i" {
						t.Skip("only X-Int is read from a header")
					}
					field = "X-Int"
					r = rqRequest(http.MethodGet, "/", "", "", "X-Int", c.text)
				}
				want := c.want
				if c.param != "" && src != "form" {
					want = c.param
				}
				o, err := e.MakeRequest(r)
				checkStrict(t, src, strictCase{name: c.name, field: field, want: want}, o, err)
			})
		}
	}
}

// TestStrictMake: Make with Strict reads Go values strictly too, maps and
// structs alike; without it, as before.
func TestStrictMake(t *testing.T) {
	e := strictEntity(t)
	type in struct {
		I any `json:"i"`
	}
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"an int", 12, "12"},
		{"an integral float", 12.0, "12"},
		{"a float with a fraction", 12.5, "!must be an integer, got a number with a fraction"},
		{"a numeric string", "12", "12"},
		{"a bool", true, "!must be an integer, got a boolean"},
		{"a slice", []int{1}, "!must be an integer, got an array"},
		{"a pointer to an int", stPtr(12), "12"},
		{"a pointer to a numeric string", stPtr("27"), "27"},
		{"a pointer to a string with a fraction", stPtr("-3.9"), "!must be an integer, got a string with a fraction"},
		{"a pointer to a float with a fraction", stPtr(12.5), "!must be an integer, got a number with a fraction"},
		{"a pointer to a pointer to a float with a fraction", stPtr(stPtr(12.5)), "!must be an integer, got a number with a fraction"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for what, v := range map[string]any{"map": map[string]any{"i": c.v}, "struct": in{c.v}} {
				o, err := e.Make(v, entity.Strict())
				checkStrict(t, what, strictCase{name: c.name, field: "i", want: c.want}, o, err)
			}
		})
	}
}

// Hostile cases: numbers read exactly, messages that never
// contradict themselves, json.RawMessage as the JSON it holds.
func TestStrictEdges(t *testing.T) {
	e := strictEntity(t)
	cases := []strictCase{
		{"an integer past float64's precision", "i", `9007199254740993`, `9007199254740993`},
		{"the largest int64", "i", `9223372036854775807`, `9223372036854775807`},
		{"the smallest int64", "i", `-9223372036854775808`, `-9223372036854775808`},
		{"past the smallest int64", "i", `-9223372036854775809`, "!must be an integer, got a number out of range"},
		{"a float beyond float64", "f", `1e400`, "!must be a number, got a number out of range"},
		{"digits past int64 as text", "i", `"99999999999999999999"`, "!must be an integer, got a string out of range"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := `{"` + c.field + `":` + c.json + `}`
			o, err := e.MakeRequest(rqRequest(http.MethodPost, "/", "application/json", body))
			checkStrict(t, "MakeRequest", c, o, err)
		})
	}
	goCases := []struct {
		name, field string
		v           any
		want        string
	}{
		{"a date past year 9999", "d", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), "!must be a date, got a date out of range"},
		{"a struct on an object field", "o", struct{ A int }{1}, "!must be an object, got a value that is no JSON object"},
		{"a json.Number that is no number", "i", json.Number("abc"), "!must be an integer, got a value"},
		{"NaN on an integer field", "i", math.NaN(), "!must be an integer, got a number out of range"},
		{"a RawMessage array on a list field", "l", json.RawMessage(`[1, 2]`), `[1,2]`},
		{"a RawMessage object on an object field", "o", json.RawMessage(`{"k": 1}`), `{"k":1}`},
		{"a RawMessage array on an object field", "o", json.RawMessage(`[1]`), "!must be an object, got an array"},
	}
	for _, c := range goCases {
		t.Run(c.name, func(t *testing.T) {
			o, err := e.Make(map[string]any{c.field: c.v}, entity.Strict())
			checkStrict(t, "Make(Strict)", strictCase{name: c.name, field: c.field, want: c.want}, o, err)
		})
	}
}

// TestStrictReferenceLists: a strict call given a list for a $name takes a
// list of objects: an element that is no object (null too) is a type
// error at its index, in every form of list; the output path's index is
// that of the objects written.
func TestStrictReferenceLists(t *testing.T) {
	e := strictEntity(t)
	type item struct {
		N int `json:"n"`
	}
	cases := []struct {
		name   string
		v      any
		want   []string // path, output path and got of each type error
		goOnly bool     // JSON has no such list
	}{
		{"a []any with a number", []any{map[string]any{"n": 1}, 7}, []string{"r[1] r[1] number"}, false},
		{"a []any with null first", []any{nil, map[string]any{"n": 1}}, []string{"r[0] r[0] null"}, false},
		{"a []any with a string and a list", []any{"x", map[string]any{"n": 1}, []any{}}, []string{"r[0] r[0] string", "r[2] r[1] array"}, false},
		{"a JSON array", json.RawMessage(`[{"n":1},true,{"n":2},null]`), []string{"r[1] r[1] boolean", "r[3] r[2] null"}, false},
		{"a []int", []int{1}, []string{"r[0] r[0] number"}, false},
		{"a []*struct with nil", []*item{{1}, nil}, []string{"r[1] r[1] null"}, false},
		{"a [][]string", [][]string{{"a"}}, []string{"r[0] r[0] array"}, false},
		{"a list of objects", []any{map[string]any{"n": 1}, item{2}, &item{3}}, nil, false},
		{"a nil map is an empty object", []any{map[string]any(nil)}, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ins := map[string]any{"map": map[string]any{"r": c.v}}
			if !c.goOnly {
				ins["JSON"] = []byte(marshal(t, map[string]any{"r": c.v}))
			}
			for what, in := range ins {
				_, err := e.Make(in, entity.Strict())
				var got []string
				var ve *entity.ValidationError
				if errors.As(err, &ve) {
					for _, f := range ve.Fields {
						if f.Code != "type" || f.Params["type"] != "object" {
							t.Errorf("%s: %s %s %v, want a type error for an object", what, f.Path, f.Code, f.Params)
						}
						got = append(got, f.Path+" "+f.OutputPath+" "+f.Params["got"].(string))
					}
				} else if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if strings.Join(got, ", ") != strings.Join(c.want, ", ") {
					t.Errorf("%s: got %q, want %q", what, got, c.want)
				}
				if _, err := e.Make(in); err != nil {
					t.Errorf("%s: not strict: %v", what, err)
				}
			}
		})
	}
}

// TestStrictReferenceListMessages: the type error of an element of a list
// given to a $name or a []$name names the field in its message, as any of
// the field's errors does.
func TestStrictReferenceListMessages(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "item", "n", "number", "")
	e := expose(t, reg, "e", "r", "$item", "msg 'ref {field}'", "l", "[]$item", "msg 'list {field}'", "p", "$item", "")
	for _, tt := range []struct {
		name string
		in   any
		want string // path and message
	}{
		{"a $name's element", map[string]any{"r": []any{1}}, "r[0] ref r"},
		{"a []$name's element", map[string]any{"l": []any{1}}, "l[0] list l"},
		{"raw JSON", []byte(`{"r":[{},"x"]}`), "r[1] ref r"},
		{"the built-in message", map[string]any{"p": []any{true}}, "p[0] must be an object, got a boolean"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.Make(tt.in, entity.Strict())
			fs := fieldErrors(t, err)
			if len(fs) != 1 || fs[0].Path+" "+fs[0].Message != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}
