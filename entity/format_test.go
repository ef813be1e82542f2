package entity_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// `format name [args]` (entity/format.go): how a value field is written.

type formatStruct struct {
	At    time.Time
	Price float64
}

var msfulTime = time.Date(2018, 5, 17, 14, 49, 34, 0, time.UTC)

func TestFormats(t *testing.T) {
	refs := map[string][]string{"ev": {"at", "date", "format unix"}}
	st := func() any { return formatStruct{At: msfulTime, Price: 1.5} }
	runDeclCases(t, refs, []declCase{
		{name: "rfc1123", decl: []string{"At", "date", "format rfc1123"}, in: `{"At":"2018-05-17T14:49:34Z"}`, st: st,
			out: `{"At":"Thu, 17 May 2018 14:49:34 GMT"}`},
		{name: "rfc1123 in UTC", decl: []string{"At", "date", "format rfc1123"}, in: `{"At":"2018-05-17T23:49:34+09:00"}`,
			out: `{"At":"Thu, 17 May 2018 14:49:34 GMT"}`},
		{name: "unix", decl: []string{"At", "date", "format unix"}, in: `{"At":"2018-05-17T14:49:34.9Z"}`, st: st,
			out: `{"At":1526568574}`},
		{name: "unixms", decl: []string{"At", "date", "format unixms"}, in: `{"At":"2018-05-17T14:49:34.5Z"}`, out: `{"At":1526568574500}`},
		{name: "date", decl: []string{"At", "date", "format date"}, in: `{"At":"2018-05-17T14:49:34Z"}`, st: st, out: `{"At":"2018-05-17"}`},
		{name: "a layout", decl: []string{"At", "date", "format '2006-01-02 15:04'"}, in: `{"At":"2018-05-17T14:49:34Z"}`, st: st, out: `{"At":"2018-05-17 14:49"}`},
		{name: "a layout in double quotes", decl: []string{"At", "date", `format "Jan 2, 2006"`}, in: `{"At":"2018-05-17"}`, out: `{"At":"May 17, 2018"}`},
		{name: "fixed 2", decl: []string{"Price", "float", "format fixed 2"}, in: `{"Price":1.5}`, st: st, out: `{"Price":1.50}`},
		{name: "fixed 0 rounds", decl: []string{"Price", "float", "format fixed 0"}, in: `{"Price":"2.5"}`, out: `{"Price":2}`},
		{name: "fixed of a large number", decl: []string{"Price", "float", "format fixed 1"}, in: `{"Price":1e21}`, out: `{"Price":1000000000000000000000.0}`},
		{name: "null is null", decl: []string{"At", "date", "format unix"}, in: `{"At":null}`, out: `{"At":null}`},
		{name: "a default is formatted", decl: []string{"At", "date", "format date | default 2020-02-03T10:00:00Z"}, in: `{}`, out: `{"At":"2020-02-03"}`},
		{name: "checks judge the value, not its text", decl: []string{"Price", "float", "format fixed 2 | min 2"}, in: `{"Price":1.999}`, fails: []string{"Price min"}},
		{name: "with req", decl: []string{"At", "date", "req | format unix"}, in: `{}`, fails: []string{"At required"}},
		{name: "with rename", decl: []string{"At", "date", "format unix | rename when"}, in: `{"At":0}`, out: `{"when":0}`},
		{name: "in a group", decl: []string{"g", "{", "", "At", "date", "format date", "g", "}", ""}, in: `{"At":"2018-05-17"}`, out: `{"g":{"At":"2018-05-17"}}`},
		{name: "under a reference", decl: []string{"e", "$ev", ""}, in: `{"e":{"at":"1970-01-01T00:01:00Z"}}`, out: `{"e":{"at":60}}`},
		{name: "under a list of references", decl: []string{"e", "[]$ev", ""}, in: `{"e":[{"at":1000},{"at":null}]}`, out: `{"e":[{"at":1},{"at":null}]}`},
		{name: "each element of a typed list", decl: []string{"ds", "[]date", "each 'format unix'"}, in: `{"ds":["2018-05-17T14:49:34Z",null,1000]}`, out: `{"ds":[1526568574,null,1]}`},
		{name: "a typed list's default, each element formatted", decl: []string{"ds", "[]date", `each 'format unix' | default '["1970-01-01T00:01:00Z"]'`}, in: `{}`, out: `{"ds":[60]}`},
		{name: "strict", decl: []string{"At", "date", "format unix"}, in: `{"At":"2018-05-17T14:49:34Z"}`, strict: true, out: `{"At":1526568574}`},
		{name: "strict refuses before formatting", decl: []string{"Price", "float", "format fixed 2"}, in: `{"Price":true}`, strict: true, fails: []string{"Price type"}},
	})
}

func TestRegisterFormat(t *testing.T) {
	reg := entity.NewRegistry()
	cents := func(v rules.Value, args []string) (any, error) {
		if v.Float < 0 {
			return nil, errors.New("must not be negative")
		}
		return int64(v.Float*100 + 0.5), nil
	}
	for _, c := range []struct {
		name  string
		types rules.KindSet
		f     entity.FormatFunc
		want  string
	}{
		{"cents", rules.Kinds(rules.Float), cents, ""},
		{"Cents", rules.Kinds(rules.Float), cents, `entity: RegisterFormat "Cents": already registered`},
		{"unix", rules.Kinds(rules.Time), cents, `entity: RegisterFormat "unix": "unix" is a built-in format: register yours under another name`},
		{"two words", rules.Kinds(rules.Float), cents, `entity: RegisterFormat "two words": a format's name is one word`},
		{"none", 0, cents, `entity: RegisterFormat "none": no types`},
		{"nil", rules.Kinds(rules.Float), nil, `entity: RegisterFormat "nil": no function`},
	} {
		err := reg.RegisterFormat(c.name, c.types, c.f)
		if got := fmt.Sprint(err); (c.want == "" && err != nil) || (c.want != "" && got != c.want) {
			t.Errorf("RegisterFormat(%q): %v, want %q", c.name, err, c.want)
		}
	}
	must(t, reg.RegisterFormat("word", rules.Kinds(rules.Int, rules.Bool), func(v rules.Value, args []string) (any, error) {
		if v.Kind == rules.Bool {
			return map[bool]string{true: args[0], false: args[1]}[v.Bool], nil
		}
		return strings.Repeat("x", int(v.Int)), nil
	}))
	must(t, reg.RegisterFormat("bad", rules.Kinds(rules.Int), func(v rules.Value, args []string) (any, error) {
		if v.Int == 1 {
			panic("boom")
		}
		return []int{1}, nil
	}))
	e := expose(t, reg, "t", "p", "float", "format cents", "b", "bool", "format word yes no", "n", "number", "format word", "x", "number", "format bad")
	out, err := e.MakeJSON(map[string]any{"p": 1.25, "b": false, "n": 3})
	if err != nil || string(out) != `{"p":125,"b":"no","n":"xxx","x":null}` {
		t.Errorf("got %s, %v", out, err)
	}
	_, err = e.MakeJSON(map[string]any{"p": -1, "x": 2})
	var ve *entity.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) != 2 {
		t.Fatalf("error %v, want 2 field errors", err)
	}
	if fe := ve.Fields[0]; fe.Path != "p" || fe.Code != "format" || fe.Message != "must not be negative" {
		t.Errorf("p: %+v", fe)
	}
	if fe := ve.Fields[1]; fe.Path != "x" || fe.Code != "format" || fe.Message != "the format gave a value that is no string, number, bool or null" {
		t.Errorf("x: %+v", fe)
	}
	_, err = e.MakeJSON(map[string]any{"x": 1})
	if !errors.As(err, &ve) || ve.Fields[0].Message != "is not valid" {
		t.Errorf("a panicking format: %v, want the field's error, not valid", err)
	}
	if _, err := reg.Expose("u", "p", "string", "format cents"); err == nil || !strings.Contains(err.Error(), `format "cents" cannot apply to a string field`) {
		t.Errorf("a registered format on another type: %v", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestFormatFields: tools see the format as written, read what it writes
// and write a value with it.
func TestFormatFields(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "t", "at", "date", "format unix", "p", "float", "format fixed 2 | min 1", "d", "date", "")
	fs := e.Fields()
	if fs[0].Format != "unix" || fs[1].Format != "fixed 2" || fs[2].Format != "" {
		t.Errorf("Format = %q, %q, %q", fs[0].Format, fs[1].Format, fs[2].Format)
	}
	if js, err := fs[0].Write(rules.TimeValue(msfulTime)); err != nil || string(js) != "1526568574" {
		t.Errorf("Write = %s, %v", js, err)
	}
	if v, _, ok := fs[0].ReadJSON([]byte("1526568574")); !ok || v.Kind != rules.Int {
		t.Errorf("ReadJSON of a unix date = %+v, %v; want an integer", v, ok)
	}
	if _, _, ok := fs[0].ReadJSON([]byte(`"2018-05-17T14:49:34Z"`)); ok {
		t.Error("ReadJSON of a unix date read RFC 3339 text")
	}
	if errs := fs[1].Check(rules.FloatValue(0.5)); len(errs) != 1 {
		t.Errorf("Check of a fixed float below its min: %v", errs)
	}
	obj, err := e.Make(map[string]any{"at": msfulTime, "p": 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := obj.Get("p"); got != 2.0 {
		t.Errorf("Get(p) = %#v, want 2.0", got)
	}
}

func ExampleRegistry_RegisterFormat() {
	reg := entity.NewRegistry()
	err := reg.RegisterFormat("cents", rules.Kinds(rules.Float), func(v rules.Value, _ []string) (any, error) {
		return int64(v.Float*100 + 0.5), nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	e := reg.MustExpose("order",
		"at", "date", "format rfc1123",
		"day", "date", "format date",
		"ts", "date", "format unix",
		"total", "float", "format fixed 2",
		"cents", "float", "format cents",
	)
	at := time.Date(2018, 5, 17, 14, 49, 34, 0, time.UTC)
	out, err := e.MakeJSON(map[string]any{"at": at, "day": at, "ts": at, "total": 1.5, "cents": 1.5})
	fmt.Println(string(out), err)
	// Output:
	// {"at":"Thu, 17 May 2018 14:49:34 GMT","day":"2018-05-17","ts":1526568574,"total":1.50,"cents":150} <nil>
}

// TestFieldUnformat: Field.Unformat reads back what a built-in format
// writes, refuses what it never writes, and reads nothing for a field
// without a format.
func TestFieldUnformat(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "t",
		"u", "date", "format unix",
		"d", "date", "format date",
		"p", "float", "format fixed 2",
		"z", "float", "format fixed 0",
		"plain", "date", "",
	)
	byName := map[string]*entity.Field{}
	for _, f := range e.Fields() {
		byName[f.Name] = f
	}
	day := time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name, field, text string
		want              rules.Value
		ok, why           bool // why: a reason is given
	}{
		{"unix", "u", "1705276800", rules.TimeValue(day), true, false},
		{"unix of a string", "u", `"1705276800"`, rules.Value{}, false, true},
		{"date", "d", `"2024-01-15"`, rules.TimeValue(day), true, false},
		{"not a date", "d", `"garbage"`, rules.Value{}, false, true},
		{"fixed 2", "p", "1.50", rules.FloatValue(1.5), true, false},
		{"fixed 2 of more decimals", "p", "1.12345", rules.Value{}, false, true},
		{"fixed 2 of an exponent", "p", "1.50e0", rules.Value{}, false, true},
		{"fixed 0", "z", "2", rules.FloatValue(2), true, false},
		{"fixed 0 of a fraction", "z", "2.5", rules.Value{}, false, true},
		{"no format", "plain", `"2024-01-15T00:00:00Z"`, rules.Value{}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, why, ok := byName[tt.field].Unformat([]byte(tt.text))
			if ok != tt.ok || (why != "") != tt.why {
				t.Fatalf("Unformat(%s) = %+v, %q, %v; want ok %v, a reason %v", tt.text, v, why, ok, tt.ok, tt.why)
			}
			if ok && (v.Kind != tt.want.Kind || !v.Time.Equal(tt.want.Time) || v.Float != tt.want.Float) {
				t.Errorf("Unformat(%s) = %+v, want %+v", tt.text, v, tt.want)
			}
		})
	}
}
