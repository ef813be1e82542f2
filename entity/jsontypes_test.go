package entity_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
)

// jsonTypesEntity has a field of every type JSONTypes reads as its JSON
// type, in a group, a $name and a typed list too, beside a string, a
// formatted date and parameters, in a registry made with opts.
func jsonTypesEntity(t testing.TB, opts ...entity.RegistryOption) *entity.Entity {
	reg := entity.NewRegistry(opts...)
	expose(t, reg, "item", "n", "number", "")
	return expose(t, reg, "in", "form",
		"i", "number", "", "f", "float", "", "b", "bool", "", "d", "date", "", "s", "string", "",
		"u", "date", "format unix", "ns", "[]number", "", "r", "$item", "",
		"g", "{", "", "gi", "number", "", "g", "}", "",
		"q", "number", "query", "X-Int", "number", "",
	)
}

// jsonTypesCases are a JSON body's values: what a registry of JSONTypes
// reads (want), and what one without it reads (lax, when it differs; Lax
// reads them so in both).
var jsonTypesCases = []struct {
	name, field, json string
	want, lax         string // the field's output, or "!" + the message of its type error
}{
	{"int from a number", "i", `12`, `12`, ""},
	{"int from 12.0", "i", `12.0`, `12`, ""},
	{"int from 1e3", "i", `1e3`, `1000`, ""},
	{"int from a numeric string", "i", `"10"`, "!must be an integer, got a string", `10`},
	{"int from 12.5 text", "i", `"12.5"`, "!must be an integer, got a string", "!must be an integer, got a string with a fraction"},
	{"int from a fraction", "i", `12.5`, "!must be an integer, got a number with a fraction", ""},
	{"int from true", "i", `true`, "!must be an integer, got a boolean", ""},
	{"float from a number", "f", `1.5`, `1.5`, ""},
	{"float from text", "f", `"1.5"`, "!must be a number, got a string", `1.5`},
	{"bool from true", "b", `true`, `true`, ""},
	{"bool from false", "b", `false`, `false`, ""},
	{"bool from text", "b", `"true"`, "!must be a boolean, got a string", `true`},
	{"bool from 1", "b", `1`, "!must be a boolean, got a number", `true`},
	{"date from RFC 3339", "d", `"2026-12-01T09:30:00Z"`, `"2026-12-01T09:30:00Z"`, ""},
	{"date from RFC 3339 with an offset", "d", `"2026-12-01T09:30:00.5+01:00"`, `"2026-12-01T08:30:00.5Z"`, ""},
	{"date from lower-case t and z", "d", `"2026-12-01t09:30:00z"`, `"2026-12-01T09:30:00Z"`, ""},
	{"date from milliseconds", "d", `0`, "!must be a date, got a number", `"1970-01-01T00:00:00Z"`},
	{"date from slashes", "d", `"2026/12/1"`, "!must be a date, got a string", `"2026-12-01T00:00:00Z"`},
	{"date from a date alone", "d", `"2026-12-01"`, "!must be a date, got a string", `"2026-12-01T00:00:00Z"`},
	{"date from a space", "d", `"2026-12-01 09:30:00"`, "!must be a date, got a string", `"2026-12-01T09:30:00Z"`},
	{"date from no date", "d", `"2026-02-30T00:00:00Z"`, "!must be a date, got a string", ""},
	{"a string takes text", "s", `"10"`, `"10"`, ""},
	{"a formatted date reads its format", "u", `1700000000`, `1700000000`, ""},
	{"a list's element from a number", "ns", `[1,2]`, `[1,2]`, ""},
	{"a list's element from text", "ns", `[1,"2"]`, "!must be an integer, got a string", `[1,2]`},
	{"a $name's field from text", "r", `{"n":"1"}`, "!must be an integer, got a string", `{"n":1}`},
	{"a group's field from text", "g", `{"gi":"1"}`, "!must be an integer, got a string", `{"gi":1}`},
	{"null is absent", "i", `null`, `null`, ""},
}

// jsonTypesPath is where a case's field fails: inside its list, $name or
// group.
var jsonTypesPath = map[string]string{"ns": "ns[1]", "r": "r.n", "g": "g.gi"}

// TestJSONTypesBody: under JSONTypes a strict request's JSON body gives
// numbers, bools and dates as their JSON types, where a registry without
// it converts; Lax reads as a registry without it does, in both.
func TestJSONTypesBody(t *testing.T) {
	typed, plain := jsonTypesEntity(t, entity.JSONTypes()), jsonTypesEntity(t)
	for _, c := range jsonTypesCases {
		t.Run(c.name, func(t *testing.T) {
			body := `{"` + c.field + `":` + c.json + `}`
			post := func() *http.Request { return rqRequest(http.MethodPost, "/", "application/json", body) }
			lax := c.lax
			if lax == "" {
				lax = c.want
			}
			at := c.field
			if p := jsonTypesPath[c.field]; p != "" {
				at = p
			}
			o, err := typed.MakeRequest(post())
			checkJSONType(t, "JSONTypes", at, c.field, c.want, o, err)
			o, err = plain.MakeRequest(post())
			checkJSONType(t, "without it", at, c.field, lax, o, err)
			if !strings.HasPrefix(lax, "!") {
				o, err = typed.MakeRequest(post(), entity.Lax())
				checkJSONType(t, "JSONTypes, Lax", at, c.field, lax, o, err)
			}
		})
	}
}

// checkJSONType checks one read: the field's output, or one type error at
// path at.
func checkJSONType(t *testing.T, what, at, field, want string, o *entity.Object, err error) {
	t.Helper()
	if msg, ok := strings.CutPrefix(want, "!"); ok {
		var ve *entity.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != 1 {
			t.Fatalf("%s: %v, want one type error", what, err)
		}
		f := ve.Fields[0]
		if f.Code != "type" || f.Message != msg || f.Path != at || f.Params["type"] == nil || f.Params["got"] == nil {
			t.Errorf("%s: %s %s %q %v, want %s type %q", what, f.Path, f.Code, f.Message, f.Params, at, msg)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if got := o.String(); !strings.Contains(got, `"`+field+`":`+want) {
		t.Errorf("%s: got %s, want %s:%s", what, got, field, want)
	}
}

// TestJSONTypesText: parameters and a form's fields are text, read as
// every registry reads them, under JSONTypes too.
func TestJSONTypesText(t *testing.T) {
	e := jsonTypesEntity(t, entity.JSONTypes())
	form := func(v url.Values) *http.Request {
		return rqRequest(http.MethodPost, "/", "application/x-www-form-urlencoded", v.Encode())
	}
	cases := []struct {
		name, field string
		r           *http.Request
		want        string
	}{
		{"a query parameter", "q", rqRequest(http.MethodGet, "/?q=10", "", ""), `10`},
		{"a query parameter with a fraction", "q", rqRequest(http.MethodGet, "/?q=1.0", "", ""), "!must be an integer, got a string with a fraction"},
		{"a header", "X-Int", rqRequest(http.MethodGet, "/", "", "", "X-Int", "7"), `7`},
		{"a GET's query for a body field", "i", rqRequest(http.MethodGet, "/?i=10", "", ""), `10`},
		{"a query parameter beside a JSON body", "q", rqRequest(http.MethodPost, "/?q=3", "application/json", `{"i":1}`), `3`},
		{"a form's number", "i", form(url.Values{"i": {"10"}}), `10`},
		{"a form's bool", "b", form(url.Values{"b": {"on"}}), `true`},
		{"a form's date", "d", form(url.Values{"d": {"2026/12/1"}}), `"2026-12-01T00:00:00Z"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, err := e.MakeRequest(c.r)
			checkJSONType(t, "MakeRequest", c.field, c.field, c.want, o, err)
		})
	}
}

// TestJSONTypesServerData: Make reads server data as it always does, under
// JSONTypes and Strict too: the setting is a request body's.
func TestJSONTypesServerData(t *testing.T) {
	e := jsonTypesEntity(t, entity.JSONTypes())
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"raw JSON", []byte(`{"i":"10","b":1,"d":"2026/12/1"}`), `"i":10,"f":null,"b":true,"d":"2026-12-01T00:00:00Z"`},
		{"a map", map[string]any{"i": "10", "b": "on", "d": int64(0)}, `"i":10,"f":null,"b":true,"d":"1970-01-01T00:00:00Z"`},
		{"a struct", struct {
			I string  `json:"i"`
			F string  `json:"f"`
			B int     `json:"b"`
			D float64 `json:"d"`
		}{"10", "1.5", 1, 0}, `"i":10,"f":1.5,"b":true,"d":"1970-01-01T00:00:00Z"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, opts := range [][]entity.Option{nil, {entity.Strict()}} {
				o, err := e.Make(c.in, opts...)
				if err != nil {
					t.Fatalf("Make %v: %v", opts, err)
				}
				if got := o.String(); !strings.Contains(got, c.want) {
					t.Errorf("Make %v: %s, want %s", opts, got, c.want)
				}
			}
		})
	}
}

// TestJSONTypesObjectReadBack: a request's Object, made again (its
// values are the entity's, in the wire form), reads as it wrote.
func TestJSONTypesObjectReadBack(t *testing.T) {
	e := jsonTypesEntity(t, entity.JSONTypes())
	const body = `{"i":1,"f":1.5,"b":true,"d":"2026-12-01T09:30:00+09:00","u":1700000000,"ns":[1],"r":{"n":2},"g":{"gi":3}}`
	o, err := e.MakeRequest(rqRequest(http.MethodPost, "/", "application/json", body))
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range [][]entity.Option{nil, {entity.Strict()}} {
		again, err := e.Make(o, opts...)
		if err != nil {
			t.Fatalf("Make %v of the Object: %v", opts, err)
		}
		if again.String() != o.String() {
			t.Errorf("Make %v: %s, want %s", opts, again, o)
		}
	}
}

// TestJSONTypesPatch: a patch's values are the client's, read by their
// JSON types; the current value's, the server's, are not judged so, and
// read back from the wire form the merged value holds.
func TestJSONTypesPatch(t *testing.T) {
	e := jsonTypesEntity(t, entity.JSONTypes())
	current := map[string]any{"i": "5", "b": 1, "d": time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC),
		"ns": []any{"1", 2}, "r": map[string]any{"n": "3"}, "gi": "4", "u": time.Unix(1700000000, 0)}
	cases := []struct {
		name, patch string
		want        string // the merged value, or "!" + path + " " + message
	}{
		{"an empty patch keeps the server's values", `{}`,
			`{"i":5,"f":null,"b":true,"d":"2026-12-01T09:30:00Z","s":null,"u":1700000000,"ns":[1,2],"r":{"n":3},"g":{"gi":4},"q":null,"X-Int":null}`},
		{"a number", `{"i":6}`,
			`{"i":6,"f":null,"b":true,"d":"2026-12-01T09:30:00Z","s":null,"u":1700000000,"ns":[1,2],"r":{"n":3},"g":{"gi":4},"q":null,"X-Int":null}`},
		{"a date", `{"d":"2027-01-01T00:00:00Z"}`,
			`{"i":5,"f":null,"b":true,"d":"2027-01-01T00:00:00Z","s":null,"u":1700000000,"ns":[1,2],"r":{"n":3},"g":{"gi":4},"q":null,"X-Int":null}`},
		{"a numeric string", `{"i":"6"}`, "!i must be an integer, got a string"},
		{"a bool as a number", `{"b":0}`, "!b must be a boolean, got a number"},
		{"a date as milliseconds", `{"d":0}`, "!d must be a date, got a number"},
		{"into a $name", `{"r":{"n":"7"}}`, "!r.n must be an integer, got a string"},
		{"into a group", `{"g":{"gi":"7"}}`, "!g.gi must be an integer, got a string"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(c.patch), current)
			if want, ok := strings.CutPrefix(c.want, "!"); ok {
				var ve *entity.ValidationError
				if !errors.As(err, &ve) || len(ve.Fields) != 1 {
					t.Fatalf("%v, want one type error", err)
				}
				if f := ve.Fields[0]; f.Code != "type" || f.Path+" "+f.Message != want {
					t.Errorf("%s %s %q, want %s", f.Path, f.Code, f.Message, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := o.String(); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
	t.Run("Lax", func(t *testing.T) {
		o, _, err := e.Patch(patchRequest(`{"i":"6","d":"2027/1/1"}`), current, entity.Lax())
		if err != nil {
			t.Fatal(err)
		}
		if got := o.String(); !strings.Contains(got, `"i":6,`) || !strings.Contains(got, `"d":"2027-01-01T00:00:00Z"`) {
			t.Errorf("got %s", got)
		}
	})
}

// TestJSONTypesConfigure: JSONTypes is set before anything is exposed, and
// RequestFields says which fields it reads by their JSON types.
func TestJSONTypesConfigure(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.Configure(entity.JSONTypes()); err != nil {
		t.Fatal(err)
	}
	e := expose(t, reg, "x", "i", "number", "", "s", "string", "", "p", "number", "path", "ds", "[]date", "", "u", "date", "format unix")
	if err := reg.Configure(entity.JSONTypes()); err != nil {
		t.Errorf("Configure again: %v", err)
	}
	late := entity.NewRegistry()
	expose(t, late, "y", "i", "number", "")
	err := late.Configure(entity.JSONTypes())
	if err == nil || err.Error() != `entity: Configure(JSONTypes()) after entity "y" was exposed: set it before exposing anything` {
		t.Errorf("Configure after Expose: %v", err)
	}
	want := map[string]bool{"i": true, "s": false, "p": false, "ds": false, "ds[]": true, "u": false}
	got := map[string]bool{}
	for _, f := range e.RequestFields() {
		got[f.Name] = f.JSONTyped
		if f.Each != nil {
			got[f.Name+"[]"] = f.Each.JSONTyped
		}
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: JSONTyped %v, want %v", name, got[name], w)
		}
	}
	for _, f := range e.Fields() {
		if f.JSONTyped {
			t.Errorf("Fields: %s says JSONTyped, which RequestFields only says", f.Name)
		}
	}
}

// TestJSONTypesReferences: a merged $name's fields, a []$name's objects'
// and an immutable field's patch are read by their JSON types too.
func TestJSONTypesReferences(t *testing.T) {
	reg := entity.NewRegistry(entity.JSONTypes())
	expose(t, reg, "line", "qty", "number", "")
	expose(t, reg, "meta", "at", "date", "")
	e := expose(t, reg, "order", "id", "number", "immutable", "lines", "[]$line", "", "m", "$meta", "merge")
	post := func(body string) *http.Request { return rqRequest(http.MethodPost, "/", "application/json", body) }
	cases := []struct {
		name string
		r    func() (*entity.Object, error)
		want string // the output, or "!" + path + " " + message
	}{
		{"a []$name's element", func() (*entity.Object, error) { return e.MakeRequest(post(`{"lines":[{"qty":1},{"qty":"2"}]}`)) },
			"!lines[1].qty must be an integer, got a string"},
		{"a merged $name's field", func() (*entity.Object, error) { return e.MakeRequest(post(`{"at":0}`)) },
			"!at must be a date, got a number"},
		{"all of their JSON types", func() (*entity.Object, error) {
			return e.MakeRequest(post(`{"id":1,"lines":[{"qty":2}],"at":"2026-12-01T00:00:00Z"}`))
		}, `{"id":1,"lines":[{"qty":2}],"at":"2026-12-01T00:00:00Z"}`},
		{"an immutable field's value as text", func() (*entity.Object, error) {
			o, _, err := e.Patch(patchRequest(`{"id":"7"}`), map[string]any{"id": 7})
			return o, err
		}, "!id must be an integer, got a string"},
		{"an immutable field's value", func() (*entity.Object, error) {
			o, _, err := e.Patch(patchRequest(`{"id":7.0}`), map[string]any{"id": 7})
			return o, err
		}, `{"id":7,"lines":null,"at":null}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, err := c.r()
			if want, ok := strings.CutPrefix(c.want, "!"); ok {
				var ve *entity.ValidationError
				if !errors.As(err, &ve) || len(ve.Fields) != 1 {
					t.Fatalf("%v, want one type error", err)
				}
				if f := ve.Fields[0]; f.Code != "type" || f.Path+" "+f.Message != want {
					t.Errorf("%s %s %q, want %s", f.Path, f.Code, f.Message, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := o.String(); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

// jsonTypesLiterals are JSON values of every kind, and text of every form
// a number, a bool or a date converts from.
var jsonTypesLiterals = []string{
	`0`, `1`, `-3`, `12.0`, `12.5`, `1e3`, `1705321800000`, `9223372036854775808`, `1e400`,
	`true`, `false`, `null`, `[]`, `[1]`, `{}`, `{"a":1}`,
	`"12"`, `"007"`, `"12.0"`, `"12.5"`, `"1e3"`, `""`, `"abc"`, `"true"`, `"on"`, `"0"`, `"1"`,
	`"2026-12-01"`, `"2026/12/1"`, `"2026-12-01 09:30:00"`, `"2026-12-01T09:30:00Z"`, `"2026-12-01t09:30:00z"`,
	`"2026-12-01T09:30:00.123456789+09:00"`, `"2026-12-01T09:30:00+0900"`, `"2026-12-01T24:00:00Z"`, `"2026-02-30T00:00:00Z"`,
	`"\u0032\u0030"`,
}

// rfc3339 is RFC 3339's date-time, the oracle's own spelling of it.
var rfc3339 = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$`)

// jsonTypeOK is the oracle: whether a JSON literal is of the JSON type a
// field of kind typ takes under JSONTypes (what the registry without it
// then makes of it decides the rest).
func jsonTypeOK(typ, lit string) bool {
	var v any
	if json.Unmarshal([]byte(lit), &v) != nil {
		return false
	}
	s, isString := v.(string)
	_, isNumber := v.(float64)
	switch typ {
	case "number", "float":
		return !isString
	case "bool":
		return !isString && !isNumber
	case "date":
		return !isNumber && (!isString || rfc3339.MatchString(s))
	}
	return true
}

// checkJSONTypesAgainstPlain checks the property of JSONTypes for one
// literal in every place a body holds a value: a registry of JSONTypes
// reads it as one without it does when it is of the field's JSON type,
// and refuses it with one type error at its path when it is not.
func checkJSONTypesAgainstPlain(t *testing.T, typed, plain *entity.Entity, lit string) {
	t.Helper()
	for _, typ := range []string{"number", "float", "bool", "date", "string"} {
		f := map[string]string{"number": "i", "float": "f", "bool": "b", "date": "d", "string": "s"}[typ]
		for _, place := range [][2]string{{`{"` + f + `":%s}`, f}, {`{"g":{"g` + f + `":%s}}`, "g.g" + f}, {`{"l` + f + `":[%s]}`, "l" + f + "[0]"}} {
			body := strings.Replace(place[0], "%s", lit, 1)
			got, gotErr := typed.MakeRequest(rqRequest(http.MethodPost, "/", "application/json", body))
			want, wantErr := plain.MakeRequest(rqRequest(http.MethodPost, "/", "application/json", body))
			if jsonTypeOK(typ, lit) || lit == "null" && !strings.Contains(place[1], "[") {
				if (gotErr == nil) != (wantErr == nil) || gotErr == nil && got.String() != want.String() {
					t.Errorf("%s: %v %v, and without JSONTypes %v %v", body, got, gotErr, want, wantErr)
				}
				continue
			}
			var ve *entity.ValidationError
			if !errors.As(gotErr, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Code != "type" || ve.Fields[0].Path != place[1] {
				t.Errorf("%s: %v, want one type error at %s", body, gotErr, place[1])
			}
		}
	}
}

// jsonTypesPair returns an entity of each JSON type, in a group and in a
// typed list too, in a registry of JSONTypes and in one without it.
func jsonTypesPair(t testing.TB) (typed, plain *entity.Entity) {
	decl := []string{"i", "number", "", "f", "float", "", "b", "bool", "", "d", "date", "", "s", "string", "",
		"g", "{", "", "gi", "number", "", "gf", "float", "", "gb", "bool", "", "gd", "date", "", "gs", "string", "", "g", "}", "",
		"li", "[]number", "", "lf", "[]float", "", "lb", "[]bool", "", "ld", "[]date", "", "ls", "[]string", ""}
	return expose(t, entity.NewRegistry(entity.JSONTypes()), "v", decl...), expose(t, entity.NewRegistry(), "v", decl...)
}

// TestJSONTypesAgainstPlain: for JSON values of every kind, in every
// place a body holds one, a registry of JSONTypes reads what is of the
// field's JSON type as a registry without it does, and refuses the rest
// with a type error at its path.
func TestJSONTypesAgainstPlain(t *testing.T) {
	typed, plain := jsonTypesPair(t)
	for _, lit := range jsonTypesLiterals {
		t.Run(lit, func(t *testing.T) { checkJSONTypesAgainstPlain(t, typed, plain, lit) })
	}
}

// FuzzJSONTypes: TestJSONTypesAgainstPlain's property for any JSON value.
func FuzzJSONTypes(f *testing.F) {
	for _, lit := range jsonTypesLiterals {
		f.Add(lit)
	}
	typed, plain := jsonTypesPair(f)
	f.Fuzz(func(t *testing.T, lit string) {
		var v any
		if !json.Valid([]byte(lit)) || json.Unmarshal([]byte(lit), &v) != nil || strings.ContainsAny(lit, "{[") {
			return // a scalar: an object or a list is no field's value here
		}
		checkJSONTypesAgainstPlain(t, typed, plain, lit)
	})
}

// TestJSONTypesAllocs: a request read by its JSON types allocates no more
// than one read without the option.
func TestJSONTypesAllocs(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	typed, plain := jsonTypesPair(t)
	const body = `{"i":12,"f":1.5,"b":true,"d":"2026-12-01T09:30:00Z","s":"x","g":{"gi":1,"gd":"2026-12-01T09:30:00Z"},"li":[1,2,3],"ld":["2026-12-01T09:30:00Z"]}`
	allocs := func(e *entity.Entity) float64 {
		r := rqRequest(http.MethodPost, "/", "application/json", body)
		rd := strings.NewReader(body)
		return testing.AllocsPerRun(50, func() {
			rd.Reset(body)
			r.Body = io.NopCloser(rd)
			if _, err := e.MakeRequest(r); err != nil {
				t.Fatal(err)
			}
		})
	}
	a, b := allocs(typed), allocs(plain)
	if a > b {
		t.Errorf("MakeRequest under JSONTypes: %v allocations, %v without it", a, b)
	}
	t.Logf("MakeRequest: %v allocations under JSONTypes, %v without it", a, b)
}
