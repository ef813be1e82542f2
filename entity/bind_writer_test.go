package entity_test

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
)

// Bind's writer (the struct reader in reverse) against what Bind did
// before it: encoding/json of the Object's values under their declared
// names (entity.BindText). Both store into a fresh value, or into a
// filled one, and must leave the same value and fail alike.

// bindBoth binds o into two values newDst makes, through the writer and
// through encoding/json, and reports any difference.
func bindBoth(t *testing.T, o *entity.Object, newDst func() any) {
	t.Helper()
	got, want := newDst(), newDst()
	gerr, werr := o.Bind(got), entity.BindText(o, want)
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("%s into %T: writer error %v, encoding/json error %v", o, got, gerr, werr)
	}
	if gerr != nil {
		var gu, wu *json.UnmarshalTypeError
		if errors.As(werr, &wu) {
			if !errors.As(gerr, &gu) {
				t.Fatalf("%s into %T: writer error %v, want a type error as %v", o, got, gerr, werr)
			}
			gk, _, _ := strings.Cut(gu.Value, " ")
			wk, _, _ := strings.Cut(wu.Value, " ")
			if gk != wk || gu.Type != wu.Type || gu.Field != wu.Field {
				t.Errorf("%s into %T: writer's type error %q %v at %q, encoding/json's %q %v at %q",
					o, got, gu.Value, gu.Type, gu.Field, wu.Value, wu.Type, wu.Field)
			}
		}
	}
	if diff := cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
		t.Errorf("%s into %T (-encoding/json +writer):\n%s", o, got, diff)
	}
}

// makeBody makes body (a JSON object) as a POST request with e.
func makeBody(t *testing.T, e *entity.Entity, body string) *entity.Object {
	t.Helper()
	o, err := e.MakeRequest(bindRequest("POST", "/", body))
	if err != nil {
		t.Fatalf("MakeRequest(%s): %v", body, err)
	}
	return o
}

type textID struct{ S string }

func (x *textID) UnmarshalText(b []byte) error {
	if string(b) == "bad" {
		return errors.New("a bad id")
	}
	x.S = "id:" + string(b)
	return nil
}

type rawJSON struct{ Text string }

func (x *rawJSON) UnmarshalJSON(b []byte) error { x.Text = string(b); return nil }

type scanned struct{ V any }

func (x *scanned) Scan(v any) error { x.V = v; return nil }

type named string

// bindFieldTypes are the Go types a one-field struct gives its field v in
// TestBindWriterMatchesEncodingJSON: every kind the writer has, and some
// that it leaves to encoding/json.
var bindFieldTypes = []reflect.Type{
	reflect.TypeFor[string](), reflect.TypeFor[named](), reflect.TypeFor[*string](), reflect.TypeFor[**string](),
	reflect.TypeFor[int](), reflect.TypeFor[int8](), reflect.TypeFor[int16](), reflect.TypeFor[int32](), reflect.TypeFor[int64](), reflect.TypeFor[*int64](),
	reflect.TypeFor[uint](), reflect.TypeFor[uint8](), reflect.TypeFor[uint16](), reflect.TypeFor[uint64](),
	reflect.TypeFor[float32](), reflect.TypeFor[float64](), reflect.TypeFor[*float64](), reflect.TypeFor[bool](), reflect.TypeFor[*bool](),
	reflect.TypeFor[time.Time](), reflect.TypeFor[*time.Time](), reflect.TypeFor[any](), reflect.TypeFor[map[string]any](),
	reflect.TypeFor[[]string](), reflect.TypeFor[[]int64](), reflect.TypeFor[[]any](), reflect.TypeFor[[]*string](), reflect.TypeFor[[2]string](),
	reflect.TypeFor[[]byte](), reflect.TypeFor[json.Number](), reflect.TypeFor[json.RawMessage](), reflect.TypeFor[map[string]string](),
	reflect.TypeFor[fmt.Stringer](), reflect.TypeFor[struct{ A string }](), reflect.TypeFor[rawJSON](), reflect.TypeFor[*rawJSON](),
	reflect.TypeFor[textID](),
}

// TestBindWriterMatchesEncodingJSON binds every kind of value an entity
// makes into every kind of Go field, through the writer and through
// encoding/json, fresh and over a field that holds a value.
func TestBindWriterMatchesEncodingJSON(t *testing.T) {
	decls := []struct {
		name   string
		typ    string
		rules  string
		values []string
	}{
		{"string", "string", "", []string{`"ann"`, `"a\"b\u00e9\n"`, `"日本"`, `""`, `null`, `"bad"`, `"12"`}},
		{"number", "number", "", []string{`12`, `-3`, `0`, `300`, `-129`, `70000`, `9223372036854775807`, `null`}},
		{"float", "float", "", []string{`1.5`, `-0.25`, `1e300`, `3`, `null`}},
		{"bool", "bool", "", []string{`true`, `false`, `null`}},
		{"date", "date", "", []string{`"2001-02-03"`, `"2001-02-03T04:05:06.7Z"`, `"2001-02-03T04:05:06+09:00"`, `null`}},
		{"a date formatted unix", "date", "format unix", []string{`"2018-05-17T14:49:34Z"`, `1526568574`, `null`}},
		{"a date formatted by a layout", "date", "format '2006-01-02 15:04'", []string{`"2018-05-17T14:49:34Z"`, `null`}},
		{"none", "none", "", []string{`"x"`, `12.5`, `true`, `{"a":[1,"b",null]}`, `[1,2]`, `null`}},
		{"[]string", "[]string", "", []string{`["a","b"]`, `[]`, `null`}},
		{"[]number", "[]number", "", []string{`[1,2,3]`, `[]`, `null`}},
		{"[]date", "[]date", "", []string{`["2001-02-03"]`, `null`}},
		{"[]date formatted", "[]date", "each 'format rfc1123'", []string{`["2001-02-03"]`}},
	}
	for _, d := range decls {
		e := exposeOne(t, d.typ, d.rules)
		for _, v := range d.values {
			o := makeBody(t, e, `{"v":`+v+`}`)
			for _, ft := range bindFieldTypes {
				st := reflect.StructOf([]reflect.StructField{{Name: "V", Type: ft, Tag: `json:"v"`}})
				t.Run(d.name+"/"+v+"/"+ft.String(), func(t *testing.T) {
					bindBoth(t, o, func() any { return reflect.New(st).Interface() })
					bindBoth(t, o, func() any { return filled(st) })
				})
			}
		}
	}
}

// filled returns a new value of struct type st whose field holds a value
// (a string, a number, a pointer to one, a list of one element…), which
// a bind leaves, clears or writes over.
func filled(st reflect.Type) any {
	p := reflect.New(st)
	f := p.Elem().Field(0)
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			v.SetString("old")
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(7)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			v.SetUint(7)
		case reflect.Float32, reflect.Float64:
			v.SetFloat(7.5)
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem())
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 1, 3))
			fill(v.Index(0))
		case reflect.Map:
			v.Set(reflect.MakeMap(v.Type()))
		case reflect.Interface:
			if v.NumMethod() == 0 {
				v.Set(reflect.ValueOf("old"))
			}
		}
	}
	fill(f)
	return p.Interface()
}

type bindLine struct {
	SKU  string `json:"sku"`
	Qty  int    `json:"qty"`
	Kept string `json:"kept"` // declared by no entity: a filled struct keeps it
}

type bindBase struct {
	Name string `json:"name"`
}

type bindOrder struct {
	bindBase                   // embedded: its fields beside the others
	*bindExtra                 // embedded through a pointer, made when a value reaches it
	Email       string         `json:"EMAIL"` // matched by case, as encoding/json matches
	Age         *int64         `json:"age"`
	Tags        []string       `json:"tags"`
	City        string         `json:"city"`
	Lines       []bindLine     `json:"lines"`
	Ptrs        []*bindLine    `json:"ptrs"`
	Lead        *bindLine      `json:"lead"`
	First       bindLine       `json:"first"`
	Meta        map[string]any `json:"meta"`
	Any         any            `json:"any"`
	Skipped     string         `json:"-"`
	LinesAsMaps []any          `json:"maps"`
}

// selfDecoded decodes itself, as expose gen's struct holding a union does:
// Bind gives its UnmarshalJSON the whole object.
type selfDecoded struct{ Keys []string }

func (s *selfDecoded) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	for k := range m {
		s.Keys = append(s.Keys, k)
	}
	slices.Sort(s.Keys)
	return nil
}

type bindExtra struct {
	Zip string `json:"zip"`
}

// TestBindWriterShapes binds entities of groups, references and lists of
// them into structs of embedded, nested and pointer fields, fresh and
// filled, through the writer and through encoding/json.
func TestBindWriterShapes(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "line", "sku", "string", "req", "qty", "number", "")
	e := expose(t, reg, "order",
		"name", "string", "",
		"email", "string", "",
		"age", "number", "",
		"tags", "[]string", "",
		"address", "{", "",
		"city", "string", "",
		"zip", "string", "",
		"address", "}", "",
		"lines", "[]$line", "",
		"ptrs", "[]$line", "",
		"lead", "$line", "",
		"first", "$line", "",
		"meta", "none", "",
		"any", "none", "",
		"Skipped", "string", "",
		"n", "number", "",
		"maps", "[]$line", "",
	)
	bodies := []struct{ name, body string }{
		{"every field", `{"name":"ann","email":"a@b.c","age":34,"tags":["x","y"],"address":{"city":"Lisbon","zip":"1100"},` +
			`"lines":[{"sku":"A-1","qty":2},{"sku":"B-2","qty":3}],"ptrs":[{"sku":"C","qty":1}],"lead":{"sku":"L","qty":9},` +
			`"first":{"sku":"F"},"meta":{"a":1,"b":[true,null]},"any":[1,"x"],"Skipped":"s","n":5,"maps":[{"sku":"M","qty":4}]}`},
		{"nulls", `{"name":null,"age":null,"tags":null,"address":null,"lines":null,"lead":null,"first":null,"meta":null,"any":null}`},
		{"empty lists", `{"tags":[],"lines":[],"ptrs":[]}`},
		{"a long list", `{"lines":[` + strings.Repeat(`{"sku":"S","qty":1},`, 40) + `{"sku":"T","qty":2}]}`},
		{"nothing", `{}`},
		{"escapes", `{"name":"a\"b\\c\u0001","tags":["\u00e9"]}`},
	}
	dsts := []struct {
		name string
		dst  func() any
	}{
		{"a new struct", func() any { return new(bindOrder) }},
		{"a filled struct", func() any {
			age := int64(1)
			return &bindOrder{bindBase: bindBase{"old"}, bindExtra: &bindExtra{"z"}, Age: &age, Tags: []string{"t", "u", "v"},
				Lines: []bindLine{{"o", 1, "kept"}, {"p", 2, "kept"}, {"q", 3, "kept"}}, Lead: &bindLine{Kept: "k"}, First: bindLine{Kept: "k"},
				Meta: map[string]any{"old": 1}, Any: "old", Skipped: "old"}
		}},
		{"a pointer to a nil struct pointer", func() any { return new(*bindOrder) }},
		{"a map", func() any { return &map[string]any{} }},
		{"a struct that is a json.Unmarshaler", func() any { return new(selfDecoded) }},
		{"a struct with a field tagged string", func() any {
			return new(struct {
				Name string `json:"name"`
				N    int64  `json:"n,string"` // encoding/json's option: the whole object is its
			})
		}},
		{"an interface", func() any { return new(any) }},
	}
	for _, b := range bodies {
		o := makeBody(t, e, b.body)
		for _, d := range dsts {
			t.Run(b.name+"/"+d.name, func(t *testing.T) { bindBoth(t, o, d.dst) })
		}
	}
}

// TestBindWriterExistingCases binds what the other Bind tests make
// (bindRegistry's signup: renames, groups in groups, $ref lists, a
// secret, a header field) through both ways.
func TestBindWriterExistingCases(t *testing.T) {
	reg := bindRegistry(t)
	e := reg.Lookup("signup")
	for _, body := range []string{
		`{"name":"ann","id":12,"born":"2001-02-03","addr":{"city":"Tokyo","zip":"100-0001","geo":{"lat":35.5}},` +
			`"tags":[{"name":"go","weight":2},{"name":"web"}],"lead":{"name":"lead"},"pin":"1234"}`,
		`{"name":"bo","addr":{"city":"Osaka"},"born":null}`,
		`{"name":"bo","addr":{"city":"Osaka","geo":null},"tags":[]}`,
	} {
		o := makeBody(t, e, body)
		for _, dst := range []func() any{
			func() any { return new(bindUser) },
			func() any { return &bindUser{Name: "old", Tags: []bindTag{{"a", 1}}, Lead: &bindTag{"b", 2}} },
			func() any { return new(struct{ Name, City, Pin string }) }, // names matched by case
			func() any {
				return new(struct {
					Name int    `json:"name"` // a type error, the others still stored
					City string `json:"city"`
				})
			},
			func() any {
				return new(struct {
					Tags []struct {
						Name   string `json:"name"`
						Weight string `json:"weight"` // a type error in a list's element: its path
					} `json:"tags"`
				})
			},
		} {
			t.Run(fmt.Sprintf("%T", dst()), func(t *testing.T) { bindBoth(t, o, dst) })
		}
	}
}

// TestBindUnmarshalers: a field of a type Bind cannot fill itself is
// filled by its own method: json.Unmarshaler (with the value's declared
// text), encoding.TextUnmarshaler (a string's text), and sql.Scanner (the
// value as Get returns it: sql.NullString, sql.NullInt64…, which Make
// reads through their driver.Valuer), a null clearing it.
func TestBindUnmarshalers(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "u",
		"s", "string", "",
		"n", "number", "",
		"f", "float", "",
		"b", "bool", "",
		"d", "date", "",
		"id", "string", "",
		"raw", "none", "",
	)
	type dst struct {
		S   sql.NullString  `json:"s"`
		N   sql.NullInt64   `json:"n"`
		F   sql.NullFloat64 `json:"f"`
		B   sql.NullBool    `json:"b"`
		D   sql.NullTime    `json:"d"`
		ID  textID          `json:"id"`
		Raw rawJSON         `json:"raw"`
	}
	when := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	tests := []struct {
		name string
		body string
		dst  dst
		want dst
	}{
		{name: "values", body: `{"s":"ann","n":12,"f":1.5,"b":true,"d":"2001-02-03T04:05:06Z","id":"x7","raw":{"a":[1, 2]}}`,
			want: dst{S: sql.NullString{String: "ann", Valid: true}, N: sql.NullInt64{Int64: 12, Valid: true},
				F: sql.NullFloat64{Float64: 1.5, Valid: true}, B: sql.NullBool{Bool: true, Valid: true},
				D: sql.NullTime{Time: when, Valid: true}, ID: textID{"id:x7"}, Raw: rawJSON{`{"a":[1,2]}`}}},
		{name: "nulls clear a Scanner and leave a TextUnmarshaler", body: `{"s":null,"n":null,"id":null,"raw":null}`,
			dst:  dst{S: sql.NullString{String: "old", Valid: true}, N: sql.NullInt64{Int64: 1, Valid: true}, ID: textID{"old"}},
			want: dst{ID: textID{"old"}, Raw: rawJSON{"null"}}},
		{name: "an absent field is null: it clears a Scanner", body: `{}`,
			dst:  dst{S: sql.NullString{String: "old", Valid: true}},
			want: dst{Raw: rawJSON{"null"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.dst
			if err := e.Bind(bindRequest("POST", "/", tt.body), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Bind (-want +got):\n%s", diff)
			}
			// What a Scanner filled, Make reads again through its Valuer.
			if tt.name == "values" {
				again, err := e.MakeJSON(&got)
				if err != nil {
					t.Fatal(err)
				}
				if want := `"s":"ann","n":12,"f":1.5,"b":true,"d":"2001-02-03T04:05:06Z"`; !strings.Contains(string(again), want) {
					t.Errorf("Make of the bound struct: %s, want it to hold %s", again, want)
				}
			}
		})
	}
	t.Run("a method's error is Bind's, quoting no value", func(t *testing.T) {
		var got dst
		err := e.Bind(bindRequest("POST", "/", `{"id":"bad"}`), &got)
		if err == nil || strings.Contains(err.Error(), "bad") {
			t.Fatalf("Bind: %v, want an error that does not quote the value", err)
		}
	})
	t.Run("a Scanner of another kind", func(t *testing.T) {
		var got struct {
			N scanned `json:"n"`
			D scanned `json:"d"`
		}
		if err := e.Bind(bindRequest("POST", "/", `{"n":12,"d":"2001-02-03T04:05:06Z"}`), &got); err != nil {
			t.Fatal(err)
		}
		if got.N.V != int64(12) || got.D.V != when {
			t.Errorf("Scan got %#v and %#v, want int64(12) and %v", got.N.V, got.D.V, when)
		}
	})
}

// TestBindWriterUnions: a union's object ($a|$b by 'key') is stored by
// its variant's declared names, a list of them too, as encoding/json of
// the declared text stores them.
func TestBindWriterUnions(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "card", "token", "string", "writeonly | req", "last4", "string", "readonly")
	expose(t, reg, "invoice", "po_number", "string", "req | rename 'po'")
	e := expose(t, reg, "order", "name", "string", "", "payment", "$card|$invoice", "by 'method'", "history", "[]$card|$invoice", "by 'method'")
	type payment struct {
		Method   string `json:"method"`
		Token    string `json:"token"`
		PONumber string `json:"po_number"`
	}
	type order struct {
		Name    string         `json:"name"`
		Payment *payment       `json:"payment"`
		History []payment      `json:"history"`
		Any     map[string]any `json:"-"`
	}
	for _, body := range []string{
		`{"name":"a","payment":{"method":"card","token":"t1"},"history":[{"method":"invoice","po":"P-1"},{"method":"card","token":"t2"}]}`,
		`{"name":"a","payment":{"method":"invoice","po":"P-2"}}`,
		`{"payment":null,"history":[]}`,
	} {
		o := makeBody(t, e, body)
		t.Run(body, func(t *testing.T) {
			bindBoth(t, o, func() any { return new(order) })
			bindBoth(t, o, func() any { return &order{Payment: &payment{Token: "old"}, History: []payment{{Token: "old"}}} })
			bindBoth(t, o, func() any { return &map[string]any{} })
		})
	}
}
