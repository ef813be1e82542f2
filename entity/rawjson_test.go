package entity_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// Raw JSON input: a []byte or json.RawMessage is read without building a
// map. The contract these tests hold it to: the output is the output of
// decoding the same bytes with encoding/json and making the maps, byte for
// byte, except inside pass-through none/list/object values, which keep the
// input's text, compacted.

// rjRegistry declares the raw-JSON corpus entities: every type, most rules,
// nested groups, renames, defaults, a recursive $ref (object and list), and
// the pass-through types in an entity of their own.
func rjRegistry(t testing.TB) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry()
	expose(t, reg, "child",
		"name", "string", "max 20",
		"age", "number", "range 0 150",
		"mail", "string", "email",
		"kid", "$child", "",
	)
	expose(t, reg, "row",
		"s", "string", "max 40",
		"n", "number", "num",
		"f", "float", "float",
		"b", "bool", "default",
		"d", "date", "timestamp",
		"mail", "string", "email",
		"site", "string", "url",
		"day", "string", "date",
		"at", "string", "time",
		"code", "text", "regex '^[a-z]+$' | default 'none'",
		"id", "int", "rename number | min 1",
		"g", "{", "rename group",
		"gi", "integer", "range -5 5",
		"gs", "string", "rename gmail | email",
		"h", "{", "",
		"hb", "flag", "bool",
		"h", "}", "",
		"g", "}", "",
		"child", "$child", "",
		"kids", "$child", "rename children",
		"dflt", "$child", "default",
	)
	expose(t, reg, "strict",
		"name", "string", "req | min 2",
		"mail", "string", "req | email",
		"age", "number", "req | range 0 150",
		"kids", "$child", "req",
	)
	expose(t, reg, "pass",
		"x", "none", "",
		"l", "list", "max 5",
		"o", "object", "",
		"xm", "none", "max 3",
		"xd", "none", "default 'dflt'",
		"ld", "array", "default",
		"od", "map", "default",
		"s", "string", "",
		"n", "number", "",
		"child", "$child", "",
	)
	if err := reg.Verify(); err != nil {
		t.Fatal(err)
	}
	return reg
}

// rjPass names the pass-through fields of the "pass" entity (none, list,
// object), by input name, with the first byte of JSON text each keeps as
// text: any of `{[` or a number for none, `[` for list, `{` for object.
var rjPass = map[string]string{"x": "any", "l": "[", "o": "{", "xm": "any", "xd": "any", "ld": "[", "od": "{"}

// rawJSONCorpus is the raw JSON corpus, made with every entity of rjRegistry.
var rawJSONCorpus = []struct{ name, json string }{
	{"empty object", `{}`},
	{"seed-like", `{"limit":2,"list":[{"id":"12","name":"maachang","age":40,"mail":"maachang@maachang.com"}],"name":"ab","mail":"a@b.co","age":40,"kids":[]}`},
	{"every type valid", `{"s":"hello","n":42,"f":1.5,"b":true,"d":"2020-01-02T03:04:05+09:00","mail":"a@b.co","site":"https://x.org/p?q=1","day":"2020/1/2","at":"9:05","code":"abc","id":"7","gi":3,"gs":"g@h.io","hb":"on","child":{"name":"c","age":"3","kid":{"name":"gc","kid":null}},"kids":[{"name":"k1"},5,null,{"name":"k2","age":150}],"x":{"b":1,"a":[1.50,"\u00e9"]},"l":[3,2,1],"o":{"z":1,"a":2},"name":"Ann","age":30}`},
	{"strings that need escaping", `{"s":"<a href=\"x\">&amp;</a>\u2028\u2029\t\n\\\/","name":"\u00e9\u00e8\u0000\u001f","mail":"x@y.zz","x":"<&>","gs":"\ud83d\ude00@x.io"}`},
	{"raw unicode", `{"s":"日本語 😀","name":"Zoë","child":{"name":"日本語"}}`},
	{"invalid UTF-8 inside a string", "{\"s\":\"a\xffb\xc0\",\"name\":\"\xe2\x82\",\"x\":\"\xff\"}"},
	{"numbers, large and small", `{"s":1e21,"n":12.7,"f":-0,"d":0,"id":1e3,"gi":-3.9,"x":1e21,"age":149.99}`},
	{"numbers, tiny and negative", `{"s":0.000001,"n":-9.2e18,"f":1e-7,"b":1,"d":1577836800000,"gi":-0.5,"age":-0.9}`},
	{"integers at the int64 edges", `{"n":9223372036854775807,"id":-9223372036854775808,"s":123456789012345678901234567890,"f":9007199254740993,"x":12345678901234567890}`},
	{"exponent spellings", `{"s":1E2,"n":1e+2,"f":2.5e-3,"gi":5E-1,"x":1E2,"l":[1E2,0.10]}`},
	{"numeric strings", `{"n":"007","f":"-3.9","b":"OFF","d":"2006-01-02 15:04:05","id":"1.2.3","gi":"-4","age":"42"}`},
	{"booleans and nulls", `{"s":true,"n":false,"f":null,"b":null,"d":true,"mail":null,"gi":true,"hb":0,"name":false,"x":null,"l":null,"o":null}`},
	{"values of the wrong kind", `{"s":{"a":1},"n":[1],"f":{},"b":[],"d":{},"child":"str","kids":{"name":"single"},"x":"str","l":{"a":1},"o":[1,2],"name":["x"],"mail":{"a":"b"}}`},
	{"rules failing everywhere", `{"s":"` + strings.Repeat("x", 41) + `","mail":"bad","site":"ftp://x","day":"2023-02-30","at":"24:00","code":"ABC","id":0,"gi":6,"gs":"nope","hb":"maybe","child":{"age":151,"mail":"x"},"kids":[{"age":-1},7,{"name":"this name is far too long"}],"l":[1,2,3,4,5,6],"xm":"abcd","name":"a","age":200}`},
	{"duplicate keys, last wins", `{"s":"first","s":"second","name":"a","name":"abc","child":{"name":"a","name":"b"},"kids":[{"age":1,"age":200}],"x":{"k":1,"k":2},"x":[0]}`},
	{"duplicate keys, last is invalid", `{"mail":"a@b.co","mail":"bad","age":1,"age":"x"}`},
	{"escaped keys", `{"\u0073":"escaped key","n\u0061me":"xy","ki\u0064s":[{"n\u0061me":"k"}],"\/x":1}`},
	{"white space everywhere", " \n\t{ \"s\" : \"a b\" ,\n \"kids\" : [ { \"name\" : \"k\" } , 1 ] , \"x\" : [ 1 , { \"k\" : \"v w\" } ] ,\r\n \"o\" : { } }\n "},
	{"undeclared keys holding anything", `{"zzz":{"deep":[1,2,{"a":null}]},"s":"x","yyy":[[[]]],"www":"\ud83d\ude00"}`},
	{"deep recursive $ref within the limit", `{"child":` + rjNest(`{"name":"n","kid":%s}`, `{"name":"leaf"}`, 20) + `}`},
	{"pass-through values", `{"x":1.50,"l":[1.0,2e1,"\u00e9",{"b":1,"a":2}],"o":{"b":{"y":1,"x":2},"a":[]},"xm":[1,2,3]}`},
	{"pass-through escapes", `{"x":"\u00e9<>&","l":["\u00e9","<"],"o":{"\u00e9":"\/"},"xm":"abc"}`},
	{"pass-through negative zero", `{"x":-0,"n":-0,"l":[-0.0],"xm":-0}`},
	{"pass-through duplicate keys inside", `{"o":{"a":1,"a":2},"x":{"b":[],"b":{}}}`},
	{"pass-through defaults", `{"xd":null,"ld":null,"od":null}`},
	{"pass-through strings and bools", `{"x":true,"xd":"v","xm":"ab","l":null}`},
	{"strict valid", `{"name":"Ann","mail":"ann@example.com","age":"30","kids":[{"name":"k"}]}`},
	{"strict kids as an object", `{"name":"Ann","mail":"ann@example.com","age":30,"kids":{"name":"k"}}`},
	{"strict kids null", `{"name":"Ann","mail":"ann@example.com","age":30,"kids":null}`},
	{"top-level array of objects", `[{"s":"a","name":"ab","mail":"a@b.co","age":1,"kids":[]},1,"x",null,[],{"s":"b","kids":[{"name":"k"}],"x":[1.50]}]`},
	{"top-level array, failures in elements", `[7,{"s":"` + strings.Repeat("y", 50) + `","mail":"no","kids":[1,{"age":-5}]},{"l":[1,2,3,4,5,6,7]}]`},
	{"top-level empty array", `[]`},
	{"top-level array of scalars", `[1,"a",true,null]`},
}

// rjNest nests inner n times in format, which holds one %s.
func rjNest(format, inner string, n int) string {
	s := inner
	for range n {
		s = fmt.Sprintf(format, s)
	}
	return s
}

// rjExpected is what MakeJSON must write for raw JSON input text, given
// what it wrote for the same text decoded by encoding/json (mapOut): the
// same bytes, except that a pass-through field (pass) whose input is a JSON
// object, array or number it accepts is written as that input's text,
// compacted.
func rjExpected(t *testing.T, e *entity.Entity, text string, mapOut []byte, pass map[string]string) []byte {
	t.Helper()
	if len(pass) == 0 {
		return mapOut
	}
	trimmed := bytes.TrimSpace([]byte(text))
	if trimmed[0] == '[' {
		var ins []json.RawMessage
		var outs []json.RawMessage
		if err := json.Unmarshal(trimmed, &ins); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(mapOut, &outs); err != nil {
			t.Fatal(err)
		}
		var objs []json.RawMessage
		for _, in := range ins {
			if in[0] == '{' {
				objs = append(objs, in)
			}
		}
		if len(objs) != len(outs) {
			t.Fatalf("%d objects in the input, %d in the output %s", len(objs), len(outs), mapOut)
		}
		parts := make([]string, len(outs))
		for i := range outs {
			parts[i] = string(rjExpected(t, e, string(objs[i]), outs[i], pass))
		}
		return []byte("[" + strings.Join(parts, ",") + "]")
	}
	var in, out map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &in); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(mapOut, &out); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range e.Fields() {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.Key)
		b.Write(k)
		b.WriteByte(':')
		val := out[f.Key]
		if accepts, ok := pass[f.Name]; ok {
			if iv, ok := in[f.Name]; ok && rjKeepsText(iv, accepts) {
				val = rjCompact(t, iv)
			}
		}
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// rjCompact is what a pass-through field writes of its raw input text: the
// text without insignificant white space (json.Compact), HTML-escaped as
// json.Marshal escapes a json.RawMessage (json.HTMLEscape: <, >, &, U+2028,
// U+2029), so that the output is HTML-safe everywhere and json.Marshal of an
// Object gives MakeJSON's bytes. Other escapes and number spellings stay.
func rjCompact(t *testing.T, text []byte) []byte {
	t.Helper()
	var c, h bytes.Buffer
	if err := json.Compact(&c, text); err != nil {
		t.Fatal(err)
	}
	json.HTMLEscape(&h, c.Bytes())
	return h.Bytes()
}

// rjKeepsText reports whether a pass-through field that accepts (see
// rjPass) keeps the JSON text v as it is.
func rjKeepsText(v json.RawMessage, accepts string) bool {
	c := v[0]
	isNum := c == '-' || c >= '0' && c <= '9'
	switch accepts {
	case "any":
		return c == '{' || c == '[' || isNum
	default:
		return c == accepts[0]
	}
}

// TestRawJSONMatchesMaps makes every corpus input with every corpus entity
// twice: from the raw bytes, and from what encoding/json decodes them into.
// The outputs are identical, pass-through values aside (see rjExpected), or
// both fail with the same field errors. Object inputs also go through
// makeAll (Make, AppendJSON, MarshalJSON agree), json.RawMessage gives the
// same result as []byte, and Object.Map is the same either way.
func TestRawJSONMatchesMaps(t *testing.T) {
	reg := rjRegistry(t)
	for _, name := range []string{"row", "strict", "pass", "child"} {
		e := reg.Lookup(name)
		pass := map[string]string(nil)
		if name == "pass" {
			pass = rjPass
		}
		for _, c := range rawJSONCorpus {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				var decoded any
				if err := json.Unmarshal([]byte(c.json), &decoded); err != nil {
					t.Fatalf("bad corpus entry: %v", err)
				}
				mapOut, mapErr := e.MakeJSON(decoded)
				rawOut, rawErr := e.MakeJSON([]byte(c.json))
				rmOut, rmErr := e.MakeJSON(json.RawMessage(c.json))
				if !bytes.Equal(rawOut, rmOut) || fmt.Sprint(rawErr) != fmt.Sprint(rmErr) {
					t.Errorf("json.RawMessage and []byte differ:\n %s %v\n %s %v", rmOut, rmErr, rawOut, rawErr)
				}
				switch {
				case mapErr != nil && rawErr != nil:
					if diff := cmp.Diff(cmpFieldErrors(mapErr), cmpFieldErrors(rawErr)); diff != "" {
						t.Errorf("field errors differ (-map +raw):\n%s", diff)
					}
					if mapErr.Error() != rawErr.Error() {
						t.Errorf("errors differ:\n map %v\n raw %v", mapErr, rawErr)
					}
				case mapErr != nil:
					t.Errorf("the map failed (%v) but raw JSON gave %s", mapErr, rawOut)
				case rawErr != nil:
					t.Errorf("raw JSON failed (%v) but the map gave %s", rawErr, mapOut)
				default:
					if want := rjExpected(t, e, c.json, mapOut, pass); !bytes.Equal(rawOut, want) {
						t.Errorf("raw JSON output differs:\n got %s\nwant %s\n map %s", rawOut, want, mapOut)
					}
				}
				m, isObject := decoded.(map[string]any)
				if !isObject {
					return
				}
				out, obj, err := makeAll(t, e, []byte(c.json))
				if fmt.Sprint(err) != fmt.Sprint(rawErr) || !bytes.Equal(out, rawOut) {
					t.Errorf("makeAll disagrees with MakeJSON: %s %v", out, err)
				}
				mobj, merr := e.Make(m)
				if obj != nil && mobj != nil {
					if diff := cmp.Diff(mobj.Map(), obj.Map()); diff != "" {
						t.Errorf("Object.Map differs (-map +raw):\n%s", diff)
					}
				} else if (obj == nil) != (mobj == nil) {
					t.Errorf("Make: raw %v, map %v", err, merr)
				}
			})
		}
	}
}

// TestRawJSONPassThrough spells out what a pass-through field keeps of its
// raw input: the text, compacted, with its key order, duplicate keys, number
// spelling and escapes; and what it does not keep: strings, booleans and
// null are values, written as encoding/json writes them.
func TestRawJSONPassThrough(t *testing.T) {
	reg := rjRegistry(t)
	e := reg.Lookup("pass")
	cases := []struct {
		name, in string
		want     string // the output's prefix: x, l, o
		mapWant  string // the same from the decoded map
	}{
		{"number spelling", `{"x":1.50,"l":[1.0,2e1],"o":{"n":100E-2}}`,
			`{"x":1.50,"l":[1.0,2e1],"o":{"n":100E-2}`,
			`{"x":1.5,"l":[1,20],"o":{"n":1}`},
		{"key order", `{"o":{"b":1,"a":2,"c":{"z":0,"y":1}}}`,
			`{"x":null,"l":null,"o":{"b":1,"a":2,"c":{"z":0,"y":1}}`,
			`{"x":null,"l":null,"o":{"a":2,"b":1,"c":{"y":1,"z":0}}`},
		{"duplicate keys inside", `{"o":{"a":1,"a":2}}`,
			`{"x":null,"l":null,"o":{"a":1,"a":2}`,
			`{"x":null,"l":null,"o":{"a":2}`},
		{"escapes inside kept, HTML escaped", "{\"x\":[\"\\u00e9\",\"<b>&\",\"\\/\",\"\\ud83d\\ude00\",\"\u2028\"]}",
			`{"x":["\u00e9","\u003cb\u003e\u0026","\/","\ud83d\ude00","\u2028"]`,
			`{"x":["é","\u003cb\u003e\u0026","/","😀","\u2028"]`},
		{"white space compacted, not in strings", "{\"l\": [ 1 ,\n\t\"a b\" , { \"k\" : [ ] } ]}",
			`{"x":null,"l":[1,"a b",{"k":[]}]`,
			`{"x":null,"l":[1,"a b",{"k":[]}]`},
		{"big integer", `{"x":12345678901234567890}`,
			`{"x":12345678901234567890`,
			`{"x":12345678901234567000`},
		{"negative zero", `{"x":-0}`, `{"x":-0`, `{"x":-0`},
		{"a string on none is a value", `{"x":"\u00e9<"}`, `{"x":"é\u003c"`, `{"x":"é\u003c"`},
		{"a bool on none is a value", `{"x":true}`, `{"x":true`, `{"x":true`},
		{"an object on list is null", `{"l":{"a":1}}`, `{"x":null,"l":null`, `{"x":null,"l":null`},
		{"an array on object is null", `{"o":[1]}`, `{"x":null,"l":null,"o":null`, `{"x":null,"l":null,"o":null`},
		{"a number on list is null", `{"l":1.50}`, `{"x":null,"l":null`, `{"x":null,"l":null`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, obj := mustMake(t, e, []byte(c.in))
			if !strings.HasPrefix(string(out), c.want) {
				t.Errorf("raw:\n got %s\nwant %s…", out, c.want)
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(c.in), &m); err != nil {
				t.Fatal(err)
			}
			mout, _ := mustMake(t, e, m)
			if !strings.HasPrefix(string(mout), c.mapWant) {
				t.Errorf("map:\n got %s\nwant %s…", mout, c.mapWant)
			}
			// Object.Get gives a kept text as a json.RawMessage.
			for _, k := range []string{"x", "l", "o"} {
				v, _ := obj.Get(k)
				if rm, ok := v.(json.RawMessage); ok && !strings.Contains(string(out), `"`+k+`":`+string(rm)) {
					t.Errorf("Get(%q) = %s, not the text written", k, rm)
				}
			}
		})
	}
	t.Run("json.RawMessage in a map, as json.Marshal writes it", func(t *testing.T) {
		e := exposeOne(t, "none", "")
		rm := json.RawMessage(`{ "b" : "<\u00e9>" , "a" : 1.50 }`)
		out, _ := mustMake(t, e, map[string]any{"v": rm})
		if want := marshal(t, map[string]any{"v": rm}); string(out) != want {
			t.Errorf("got %s, want %s", out, want)
		}
	})
	t.Run("nested in a $ref list", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "item", "meta", "none", "", "n", "number", "")
		e := expose(t, reg, "items", "list", "$item", "")
		out, _ := mustMake(t, e, []byte(`{"list":[{"meta":{"b":1.0,"a":2},"n":1.0},{"meta":[ 1.50 ]}]}`))
		if want := `{"list":[{"meta":{"b":1.0,"a":2},"n":1},{"meta":[1.50],"n":null}]}`; string(out) != want {
			t.Errorf("got %s, want %s", out, want)
		}
	})
	t.Run("Get and Map", func(t *testing.T) {
		obj, err := e.Make([]byte(`{"x":{"b":1.50,"a":[true]},"l":[2,1],"o":{"k":"v"}}`))
		if err != nil {
			t.Fatal(err)
		}
		x, _ := obj.Get("x")
		if want := map[string]any{"b": 1.5, "a": []any{true}}; !cmp.Equal(x, want) {
			t.Errorf("Get(x) = %#v, want the decoded JSON %#v", x, want)
		}
		if b, _ := obj.MarshalJSON(); !strings.Contains(string(b), `"x":{"b":1.50,"a":[true]}`) {
			t.Errorf("MarshalJSON = %s, want the input text of x", b)
		}
		want := map[string]any{"x": map[string]any{"b": 1.5, "a": []any{true}}, "l": []any{2.0, 1.0},
			"o": map[string]any{"k": "v"}, "xm": nil, "xd": "dflt", "ld": []any{}, "od": map[string]any{},
			"s": nil, "n": nil, "child": nil}
		if diff := cmp.Diff(want, obj.Map()); diff != "" {
			t.Errorf("Map (-want +got):\n%s", diff)
		}
	})
}

// TestRawJSONInvalid: input that is not JSON, or not an object or an array
// of objects, is an *InputError wrapping ErrInvalidJSON from every entry
// point, never a panic, and AppendJSON leaves dst as it was. Whose bytes
// they are decides the status: a request's body (MakeRequest, Bind, Write
// of the request, Patch) is the client's, 400 invalid-json with its
// offset; raw JSON given to a response (Make, MakeJSON, AppendJSON,
// MakeList, Write, EncodeSeq) is the server's data, 500 with the generic
// body, its error still saying where for the log.
func TestRawJSONInvalid(t *testing.T) {
	reg := rjRegistry(t)
	cases := []struct {
		name string
		in   []byte
		ent  string // the entity of rjRegistry that reads it; "" is "row"
	}{
		{"empty", []byte{}, ""},
		{"white space", []byte(" \n\t "), ""},
		{"lone brace", []byte(`{`), ""},
		{"truncated object", []byte(`{"s":`), ""},
		{"truncated string", []byte(`{"s":"abc`), ""},
		{"truncated escape", []byte(`{"s":"\u12`), ""},
		{"truncated array", []byte(`[{"s":1},`), ""},
		{"truncated list of objects", []byte(`[{"s":1},{"s":`), ""},
		// Truncated 1000 levels down in a pass-through value: invalid JSON,
		// not a depth error.
		{"truncated deep in a pass-through value", []byte(`{"x":` + strings.Repeat(`[{"a":`, 500)), "pass"},
		{"unclosed nested", []byte(`{"child":{"name":"x"}`), ""},
		{"trailing garbage", []byte(`{"s":"x"} x`), ""},
		{"two objects", []byte(`{}{}`), ""},
		{"trailing comma", []byte(`{"s":1,}`), ""},
		{"single quotes", []byte(`{'s':1}`), ""},
		{"unquoted key", []byte(`{s:1}`), ""},
		{"bad literal", []byte(`{"b":tru}`), ""},
		{"leading zero", []byte(`{"n":01}`), ""},
		{"bad escape", []byte(`{"s":"\x"}`), ""},
		{"control character in a string", []byte("{\"s\":\"a\x01b\"}"), ""},
		{"byte order mark", []byte("\ufeff{}"), ""},
		{"bare number", []byte(`42`), ""},
		{"bare string", []byte(`"x"`), ""},
		{"bare true", []byte(`true`), ""},
		{"null", []byte(`null`), ""},
		{"NaN", []byte(`{"f":NaN}`), ""},
	}
	const prefix = "keep:"
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ent := c.ent
			if ent == "" {
				ent = "row"
			}
			e := reg.Lookup(ent)
			check := func(what string, err error, status int) {
				t.Helper()
				var ie *entity.InputError
				if !errors.As(err, &ie) {
					t.Errorf("%s: error %v (%T) is not an *entity.InputError", what, err, err)
					return
				}
				if ie.StatusCode() != status {
					t.Errorf("%s: StatusCode() = %d, want %d", what, ie.StatusCode(), status)
				}
				if !errors.Is(err, entity.ErrInvalidJSON) {
					t.Errorf("%s: errors.Is(%v, ErrInvalidJSON) = false", what, err)
				}
				if !strings.HasPrefix(err.Error(), "entity: ") {
					t.Errorf("%s: Error() = %q, want the package prefix", what, err)
				}
			}
			written := func(what string, rec *httptest.ResponseRecorder, status int) {
				t.Helper()
				pb, ok := checkProblem(t, rec, status)
				switch {
				case !ok:
				case status == 400 && pb.Type != "/problems/invalid-json":
					t.Errorf("%s: problem type %q, want /problems/invalid-json", what, pb.Type)
				case status == 500 && (withoutInstance(rec.Body.String()) != generic500 || pb.Instance == ""):
					t.Errorf("%s: %s, want the generic 500 with an instance", what, rec.Body)
				}
			}

			// The server's raw JSON, given to a response.
			for _, v := range []any{c.in, json.RawMessage(c.in)} {
				out, err := e.MakeJSON(v)
				check("MakeJSON", err, 500)
				if out != nil {
					t.Errorf("MakeJSON returned %q with the error", out)
				}
				dst, err := e.AppendJSON([]byte(prefix), v)
				check("AppendJSON", err, 500)
				if string(dst) != prefix {
					t.Errorf("AppendJSON returned %q, want dst unchanged %q", dst, prefix)
				}
				obj, err := e.Make(v)
				check("Make", err, 500)
				if obj != nil {
					t.Errorf("Make returned an Object with the error")
				}
				objs, err := e.MakeList(v)
				check("MakeList", err, 500)
				if objs != nil {
					t.Errorf("MakeList returned objects with the error")
				}
			}
			rec := httptest.NewRecorder()
			check("Write", e.Write(rec, c.in), 500)
			written("Write", rec, 500)
			rec = httptest.NewRecorder()
			check("EncodeSeq", entity.EncodeSeq(rec, e, seqOf(c.in)), 500)
			written("EncodeSeq", rec, 500)

			// The same bytes as a client's body. An empty one is no body.
			if len(bytes.TrimSpace(c.in)) == 0 {
				return
			}
			post := func() *http.Request { return jsonRequest(t, c.in) }
			_, err := e.MakeRequest(post())
			check("MakeRequest", err, 400)
			var dst map[string]any
			check("Bind", e.Bind(post(), &dst), 400)
			rec = httptest.NewRecorder()
			check("Write of the request", e.Write(rec, post()), 400)
			written("Write of the request", rec, 400)
			patch := httptest.NewRequest(http.MethodPatch, "/", bytes.NewReader(c.in))
			patch.Header.Set("Content-Type", entity.MergePatchType)
			_, _, err = e.Patch(patch, nil)
			check("Patch", err, 400)
		})
	}
}

// TestRawJSONTopLevelArrays: MakeJSON, AppendJSON and Write take an array
// of objects and write an array, skipping elements that are not objects;
// Make wants one object; MakeList takes the array.
func TestRawJSONTopLevelArrays(t *testing.T) {
	reg := rjRegistry(t)
	e := reg.Lookup("child")
	cases := []struct{ name, in, want string }{
		{"objects", `[{"name":"a"},{"name":"b","age":"7"}]`, `[{"name":"a","age":null,"mail":null,"kid":null},{"name":"b","age":7,"mail":null,"kid":null}]`},
		{"non-objects skipped", `[1,{"name":"a"},"x",null,[{"name":"no"}],true,{"name":"b"}]`, `[{"name":"a","age":null,"mail":null,"kid":null},{"name":"b","age":null,"mail":null,"kid":null}]`},
		{"empty", ` [ ] `, `[]`},
		{"only scalars", `[1,2]`, `[]`},
		{"values converted, non-objects skipped", `[{"name":1},2,"x",null,[{"name":3}],{"name":"y"}]`, `[{"name":"1","age":null,"mail":null,"kid":null},{"name":"y","age":null,"mail":null,"kid":null}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Every entry point: AppendJSON and Write write the array too.
			runEntryCase(t, e, entryCase{list: true, in: given([]byte(c.in)), out: wantOut(c.want)})
			out, err := e.MakeJSON([]byte(c.in))
			if err != nil || string(out) != c.want {
				t.Fatalf("MakeJSON = %s, %v; want %s", out, err, c.want)
			}
			objs, err := e.MakeList([]byte(c.in))
			if err != nil {
				t.Fatalf("MakeList: %v", err)
			}
			var decoded []any
			if err := json.Unmarshal([]byte(c.in), &decoded); err != nil {
				t.Fatal(err)
			}
			mobjs, err := e.MakeList(decoded)
			if err != nil {
				t.Fatal(err)
			}
			if len(objs) != len(mobjs) {
				t.Fatalf("MakeList: %d objects from raw JSON, %d from the decoded list", len(objs), len(mobjs))
			}
			parts := make([]string, len(objs))
			for i, o := range objs {
				b, err := o.MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				mb, _ := mobjs[i].MarshalJSON()
				if !bytes.Equal(b, mb) {
					t.Errorf("MakeList[%d]: raw %s, map %s", i, b, mb)
				}
				parts[i] = string(b)
			}
			if got := "[" + strings.Join(parts, ",") + "]"; got != c.want {
				t.Errorf("MakeList objects: %s, want %s", got, c.want)
			}
			_, err = e.Make([]byte(c.in))
			var ie *entity.InputError
			if !errors.As(err, &ie) || ie.StatusCode() != 500 || !errors.Is(err, entity.ErrInvalidJSON) {
				t.Errorf("Make of an array: %v, want a 500 InputError (the server's data) wrapping ErrInvalidJSON", err)
			}
		})
	}
	t.Run("nil []byte is no input, as nil is", func(t *testing.T) {
		want, err := e.MakeJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []any{[]byte(nil), json.RawMessage(nil)} {
			out, _ := mustMake(t, e, v)
			if !bytes.Equal(out, want) {
				t.Errorf("%T(nil): got %s, want %s", v, out, want)
			}
		}
	})
	t.Run("MakeList of an object", func(t *testing.T) {
		_, err := e.MakeList([]byte(`{"name":"a"}`))
		var ie *entity.InputError
		if !errors.As(err, &ie) || ie.StatusCode() != 500 || !errors.Is(err, entity.ErrInvalidJSON) {
			t.Errorf("MakeList of an object: %v, want a 500 InputError (the server's data) wrapping ErrInvalidJSON", err)
		}
	})
	t.Run("MakeList validation", func(t *testing.T) {
		_, err := e.MakeList([]byte(`[{"age":1},3,{"age":200}]`))
		fields := fieldErrors(t, err)
		if len(fields) != 1 || fields[0].Path != "[2].age" || fields[0].OutputPath != "[1].age" {
			t.Errorf("got %v", err)
		}
	})
}

// TestRawJSONDuplicateKeys: the last of a repeated key wins, as with
// encoding/json, at every level, from every entry point (runEntryCase).
func TestRawJSONDuplicateKeys(t *testing.T) {
	reg := rjRegistry(t)
	childOut := func(name, age, mail, kid string) func() string {
		return wantOut(`{"name":` + name + `,"age":` + age + `,"mail":` + mail + `,"kid":` + kid + `}`)
	}
	cases := []entryCase{
		{name: "top level", ent: "child", in: given([]byte(`{"name":"a","age":1,"name":"b"}`)), out: childOut(`"b"`, "1", "null", "null")},
		{name: "null last", ent: "child", in: given([]byte(`{"name":"a","name":null}`)), out: childOut("null", "null", "null", "null")},
		{name: "null first", ent: "child", in: given([]byte(`{"name":null,"name":"a"}`)), out: childOut(`"a"`, "null", "null", "null")},
		{name: "null last on a required field fails", ent: "strict", in: given([]byte(`{"name":"Ann","name":null,"mail":"a@b.co","age":1,"kids":[]}`)),
			fails: []string{failAt("name", "req")}},
		{name: "values of different types, the last converts", ent: "child", in: given([]byte(`{"age":[1],"age":{"a":1},"age":"7"}`)), out: childOut("null", "7", "null", "null")},
		{name: "in a $ref object", ent: "child", in: given([]byte(`{"kid":{"name":"a"},"kid":{"name":"b","name":"c"}}`)),
			out: childOut("null", "null", "null", `{"name":"c","age":null,"mail":null,"kid":null}`)},
		{name: "in a $ref list", ent: "strict", in: given([]byte(`{"name":"ab","mail":"a@b.co","age":1,"kids":[{"age":1,"age":2}],"kids":[{"age":3,"age":4}]}`)),
			out: wantOut(`{"name":"ab","mail":"a@b.co","age":1,"kids":[{"name":null,"age":4,"mail":null,"kid":null}]}`)},
		{name: "an invalid last value fails", ent: "child", in: given([]byte(`{"mail":"a@b.co","mail":"bad"}`)), fails: []string{failAt("mail", "email")}},
		{name: "a valid last value passes", ent: "child", in: given([]byte(`{"mail":"bad","mail":"a@b.co"}`)), out: childOut("null", "null", `"a@b.co"`, "null")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runEntryCase(t, reg.Lookup(c.ent), c)
		})
	}
	// Rules see an object's size as the map it decodes to: distinct keys.
	t.Run("an object's size counts distinct keys", func(t *testing.T) {
		reg := entity.NewRegistry()
		if err := reg.RegisterRule(rules.Def{Name: "maxkeys", Compile: func(args []string, _ rules.Kind) (rules.Checker, error) {
			return rules.CheckFunc(func(v rules.Value) error {
				if v.Len > 2 {
					return fmt.Errorf("has %d keys", v.Len)
				}
				return nil
			}), nil
		}}); err != nil {
			t.Fatal(err)
		}
		e := expose(t, reg, "o", "o", "object", "maxkeys")
		for _, in := range []string{
			`{"o":{"a":1,"a":2,"b":3}}`,
			`{"o":{"a":1,"\u0061":2,"b":3,"b":{"x":[1]}}}`,
		} {
			if _, err := e.MakeJSON([]byte(in)); err != nil {
				t.Errorf("%s: %v", in, err)
			}
		}
		if _, err := e.MakeJSON([]byte(`{"o":{"a":1,"b":2,"c":3,"a":4}}`)); err == nil {
			t.Error("3 distinct keys pass maxkeys 2")
		}
	})
	// A passed-through value keeps its text, shadowed duplicates included
	// (README), and the depth limit judges the text written: here the
	// shadowed {} is a level the map that json.Unmarshal builds would not
	// have.
	t.Run("a passed-through value keeps its duplicates, and their depth", func(t *testing.T) {
		reg := entity.NewRegistry()
		setLimit(reg, func(l *entity.Limits) { l.Depth = 2 })
		e := expose(t, reg, "d", "x", "none", "")
		if out, err := e.MakeJSON([]byte(`{"x":{"a":[],"a":1}}`)); err == nil {
			t.Errorf("got %s, want a depth error", out)
		}
		runEntryCase(t, e, entryCase{in: given([]byte(`{"x":{"a":1,"a":2}}`)), out: wantOut(`{"x":{"a":1,"a":2}}`)})
	})
}

// TestRawJSONErrorPaths: field errors from raw JSON carry the Path and
// OutputPath they carry from the same data as maps.
func TestRawJSONErrorPaths(t *testing.T) {
	reg := entity.NewRegistry()
	exposeSeed(t, reg)
	expose(t, reg, "page",
		"items", "$user", "rename list",
		"owner", "$user", "",
		"deep", "{", "",
		"more", "{", "rename m",
		"flag", "bool", "req",
		"more", "}", "",
		"deep", "}", "",
	)
	type fe struct{ Path, OutputPath, Rule string }
	cases := []struct {
		name, entity, in string
		want             []fe
	}{
		{"seed list, skipped elements", "users",
			`{"list":[1,{"id":"1","name":"a","mail":"bad"},null,{"id":"x","mail":"a@b.co"}]}`,
			[]fe{{"list[1].mail", "list[0].details.mail", "email"}, {"list[3].name", "list[1].name", "req"}}},
		{"renamed list, object ref, groups", "page",
			`{"items":[true,{"mail":"nope"}],"owner":{"name":"o","mail":"x"},"flag":"maybe"}`,
			[]fe{{"items[1].name", "list[0].name", "req"}, {"items[1].mail", "list[0].details.mail", "email"},
				{"owner.mail", "owner.details.mail", "email"}, {"flag", "deep.m.flag", "req"}}},
		{"top-level array", "user",
			`[{"name":"ok"},"x",{"mail":"m"}]`,
			[]fe{{"[2].name", "[1].name", "req"}, {"[2].mail", "[1].details.mail", "email"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := reg.Lookup(c.entity)
			_, rawErr := e.MakeJSON([]byte(c.in))
			var decoded any
			if err := json.Unmarshal([]byte(c.in), &decoded); err != nil {
				t.Fatal(err)
			}
			_, mapErr := e.MakeJSON(decoded)
			var got []fe
			for _, f := range fieldErrors(t, rawErr) {
				got = append(got, fe{f.Path, f.OutputPath, f.Rule})
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("raw field errors (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(cmpFieldErrors(mapErr), cmpFieldErrors(rawErr)); diff != "" {
				t.Errorf("raw and map field errors differ (-map +raw):\n%s", diff)
			}
		})
	}
}

// TestRawJSONDepth: the depth limit holds for raw JSON as for maps: a
// recursive $ref on deeply nested raw JSON fails with a "depth" FieldError
// at the same path, and so does a pass-through value nested deeper than the
// limit (ErrDepth's documented contract), rather than being copied through.
func TestRawJSONDepth(t *testing.T) {
	cases := []struct {
		name     string
		decl     []string
		maxDepth int
		in       string
	}{
		{"recursive list $ref, limit 5", []string{"name", "string", "", "children", "$tree", ""}, 5,
			rjNest(`{"name":"n","children":[1,%s]}`, `{"name":"leaf"}`, 10)},
		{"recursive object $ref, limit 5", []string{"name", "string", "", "children", "$tree", ""}, 5,
			rjNest(`{"name":"n","children":%s}`, `{"name":"leaf"}`, 10)},
		{"recursive list $ref, default limit", []string{"name", "string", "", "children", "$tree", ""}, 0,
			rjNest(`{"children":[%s]}`, `{}`, 100)},
		{"groups, limit 1", []string{"g", "{", "", "x", "string", "", "g", "}", ""}, 1, `{"x":1}`},
		{"none, nested deeper than the default limit", []string{"v", "none", ""}, 0,
			`{"v":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`},
		{"list, nested deeper than the default limit", []string{"v", "list", ""}, 0,
			`{"v":` + strings.Repeat(`[{"a":`, 70) + "1" + strings.Repeat("}]", 70) + `}`},
		{"object, nested deeper than limit 3", []string{"v", "object", ""}, 3,
			`{"v":{"a":{"b":{"c":{"d":{}}}}}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			if c.maxDepth > 0 {
				setLimit(reg, func(l *entity.Limits) { l.Depth = c.maxDepth })
			}
			e := expose(t, reg, "tree", c.decl...)
			var decoded any
			if err := json.Unmarshal([]byte(c.in), &decoded); err != nil {
				t.Fatal(err)
			}
			_, mapErr := e.MakeJSON(decoded)
			mapFields := fieldErrors(t, mapErr)
			if len(mapFields) == 0 || mapFields[len(mapFields)-1].Rule != "depth" {
				t.Fatalf("bad case: the map gives %v", mapErr)
			}
			out, _, rawErr := makeAll(t, e, []byte(c.in))
			if rawErr == nil {
				t.Fatalf("raw JSON succeeded (%.80s…), the map failed: %v", out, mapErr)
			}
			if diff := cmp.Diff(cmpFieldErrors(mapErr), cmpFieldErrors(rawErr)); diff != "" {
				t.Errorf("field errors differ (-map +raw):\n%s", diff)
			}
			if !errors.Is(rawErr, entity.ErrDepth) {
				t.Errorf("errors.Is(%v, ErrDepth) = false", rawErr)
			}
		})
	}
	t.Run("within a raised limit", func(t *testing.T) {
		reg := entity.NewRegistry()
		setLimit(reg, func(l *entity.Limits) { l.Depth = 300 })
		e := expose(t, reg, "tree", "name", "string", "", "children", "$tree", "")
		in := rjNest(`{"name":"n","extra":[1],"children":[%s,"skip"]}`, `{"name":"leaf"}`, 100)
		var decoded any
		if err := json.Unmarshal([]byte(in), &decoded); err != nil {
			t.Fatal(err)
		}
		mapOut, err := e.MakeJSON(decoded)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := mustMake(t, e, []byte(in))
		if !bytes.Equal(out, mapOut) {
			t.Errorf("raw %.100s…\nmap %.100s…", out, mapOut)
		}
	})
}

// TestRawJSONNestingBeyondEncodingJSON: JSON nested deeper than
// encoding/json accepts (10000 levels) is invalid JSON for encoding/json;
// the raw path must not accept what the map path could never have been
// given: it must fail (400 InputError or a depth error), not copy it.
// (Much deeper input must not reach a recursive reader: the validator
// counts levels instead of recursing, and stops at 10000.)
func TestRawJSONNestingBeyondEncodingJSON(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "one", "v", "list", "")
	const n = 20000
	in := []byte(`{"v":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
	if json.Valid(in) {
		t.Fatal("bad case: encoding/json accepts it")
	}
	out, err := e.MakeJSON(in)
	if err == nil {
		t.Fatalf("MakeJSON accepted %d levels of nesting (%d bytes written)", n, len(out))
	}
}

// TestRawJSONSurrogates: escaped UTF-16 surrogates decode as encoding/json
// decodes them: a lone or mismatched surrogate is U+FFFD and the escape
// after it is kept.
func TestRawJSONSurrogates(t *testing.T) {
	e := exposeOne(t, "string", "")
	cases := []struct{ name, in, want string }{
		{"pair", `"\ud83d\ude00"`, `"😀"`},
		{"lone high", `"\ud800"`, "\"\ufffd\""},
		{"lone low", `"\udc00"`, "\"\ufffd\""},
		{"high then a letter", `"\ud800\u0041"`, "\"\ufffdA\""},
		{"high then high", `"\ud800\udbff"`, "\"\ufffd\ufffd\""},
		{"high then high then low", `"\ud800\ud83d\ude00"`, "\"\ufffd😀\""},
		{"high then a newline escape", `"\ud800\n"`, "\"\ufffd\\n\""},
		{"low then high", `"\udc00\ud800"`, "\"\ufffd\ufffd\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := `{"v":` + c.in + `}`
			var m map[string]any
			if err := json.Unmarshal([]byte(in), &m); err != nil {
				t.Fatal(err)
			}
			mapOut, _ := mustMake(t, e, m)
			if want := `{"v":` + c.want + `}`; string(mapOut) != want {
				t.Fatalf("bad case: the map gives %s, want %s", mapOut, want)
			}
			out, _ := mustMake(t, e, []byte(in))
			if !bytes.Equal(out, mapOut) {
				t.Errorf("raw %s, map %s", out, mapOut)
			}
		})
	}
}

// TestRawJSONObjectOwnsItsStrings: an Object made from raw JSON keeps its
// own copies: changing the input bytes afterwards (a reused request buffer)
// changes nothing in it.
func TestRawJSONObjectOwnsItsStrings(t *testing.T) {
	reg := rjRegistry(t)
	cases := []struct {
		name, entity, in, key string
	}{
		{"string field", "child", `{"name":"alice"}`, "name"},
		{"string in a $ref", "row", `{"child":{"name":"alice"}}`, "child"},
		{"string in a $ref list", "row", `{"kids":[{"name":"alice"}]}`, "children"},
		{"none given a string", "pass", `{"x":"alice"}`, "x"},
		{"none given an object", "pass", `{"x":{"alice":1}}`, "x"},
		{"string field of a group", "row", `{"gs":"alice@x.io"}`, "group"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			buf := []byte(c.in)
			obj, err := reg.Lookup(c.entity).Make(buf)
			if err != nil {
				t.Fatal(err)
			}
			before := obj.String()
			for i := range buf {
				if buf[i] >= 'a' && buf[i] <= 'z' {
					buf[i] = 'X'
				}
			}
			if after := obj.String(); after != before {
				t.Errorf("the Object changed with its input:\nbefore %s\n after %s", before, after)
			}
		})
	}
}

// TestRawJSONManyFields: an entity reading more than 16 distinct input keys
// (past the inline slots of a JSON object) reads them all.
func TestRawJSONManyFields(t *testing.T) {
	var decl []string
	in := map[string]any{}
	for i := range 40 {
		k := fmt.Sprintf("k%02d", i)
		typ := []string{"string", "number", "float", "bool"}[i%4]
		decl = append(decl, k, typ, "")
		in[k] = fmt.Sprint(i % 2)
	}
	reg := entity.NewRegistry()
	e := expose(t, reg, "wide", decl...)
	expose(t, reg, "small", "k39", "string", "", "k00", "string", "")
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	want, err := e.MakeJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 { // again, with pooled state from the other entity in between
		out, _ := mustMake(t, e, b)
		if !bytes.Equal(out, want) {
			t.Errorf("run %d:\n got %s\nwant %s", i, out, want)
		}
		small, _ := mustMake(t, reg.Lookup("small"), b)
		if want := `{"k39":"1","k00":"0"}`; string(small) != want {
			t.Errorf("small: got %s, want %s", small, want)
		}
	}
	// A list of wide objects, each read into the same pooled object.
	list := []byte("[" + string(b) + "," + `{"k00":"x"}` + "," + string(b) + "]")
	out, err := e.MakeJSON(list)
	if err != nil {
		t.Fatal(err)
	}
	var decoded any
	json.Unmarshal(list, &decoded)
	if mout, _ := e.MakeJSON(decoded); !bytes.Equal(out, mout) {
		t.Errorf("list:\n raw %s\n map %s", out, mout)
	}
}

// TestRawJSONWrite: Write takes raw JSON as it takes maps.
func TestRawJSONWrite(t *testing.T) {
	reg := entity.NewRegistry()
	exposeSeed(t, reg)
	raw, err := json.Marshal(seedUsers())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		entity string
		in     any
		status int
		body   string
	}{
		{"seed as []byte", "users", raw, 200, seedJSON},
		{"seed as json.RawMessage", "users", json.RawMessage(raw), 200, seedJSON},
		{"array of users", "user", []byte(`[{"id":"1","name":"a"},2]`), 200, `[{"number":1,"name":"a","details":{"age":null,"mail":null},"code":"unknown"}]`},
		{"validation error: the server's data", "users", []byte(`{"list":[{"mail":"x"}]}`), 500, generic500},
		{"invalid JSON: the server's data", "users", []byte(`{"list":[`), 500, generic500},
		{"not an object: the server's data", "users", []byte(` 12`), 500, generic500},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			err := reg.Lookup(c.entity).Write(rec, c.in)
			if (err == nil) != (c.status == 200) {
				t.Errorf("Write returned %v", err)
			}
			if rec.Code != c.status {
				t.Errorf("status %d, want %d", rec.Code, c.status)
			}
			if got := withoutInstance(rec.Body.String()); got != c.body {
				t.Errorf("body:\n got %s\nwant %s", got, c.body)
			}
			wantCT := "application/json; charset=utf-8"
			if c.status != 200 {
				wantCT = "application/problem+json"
			}
			if ct := rec.Header().Get("Content-Type"); ct != wantCT {
				t.Errorf("Content-Type %q, want %q", ct, wantCT)
			}
			if cl := rec.Header().Get("Content-Length"); cl != fmt.Sprint(rec.Body.Len()) {
				t.Errorf("Content-Length %q, body %d bytes", cl, rec.Body.Len())
			}
		})
	}
}

// Raw JSON, such as a document column, is read as it is, with no map in
// between. Pass-through fields keep the input's text. Raw JSON that does
// not parse is the server's data at fault, as a field that fails is: the
// error answers 500, and says where for the handler's log.
func ExampleEntity_MakeJSON_rawJSON() {
	reg := entity.NewRegistry()
	e := reg.MustExpose("order",
		"id", "number", "req",
		"total", "float", "min 0",
		"meta", "none", "",
	)
	body := []byte(`{"id":"42","total":"9.90","meta":{"z":1.50,"a":[]},"ignored":true}`)
	out, err := e.MakeJSON(body)
	fmt.Println(string(out), err)

	_, err = e.MakeJSON([]byte(`{"id":`))
	var ie *entity.InputError
	fmt.Println(errors.As(err, &ie), ie.StatusCode(), errors.Is(err, entity.ErrInvalidJSON), ie.Offset)
	// Output:
	// {"id":42,"total":9.9,"meta":{"z":1.50,"a":[]}} <nil>
	// true 500 true 6
}

// The reader remembers where each key came in the previous object of a
// list and tries that name first, reading it in place; these lists change
// their key order, spell keys that are prefixes or extensions of declared
// names, escape declared names, and declare names that are not their own
// JSON literal. Each must read as json.Unmarshal into maps reads it.
func TestRawJSONKeyHints(t *testing.T) {
	reg := entity.NewRegistry()
	reg.MustExpose("item",
		"name", "string", "",
		"na", "string", "",
		`q"uote`, "string", "",
		`back\slash`, "string", "",
		"n", "number", "",
	)
	reg.MustExpose("items", "list", "$item", "")
	items := reg.Lookup("items")
	tests := []struct{ name, list string }{
		{"same order", `[{"name":"a","na":"b","n":1},{"name":"c","na":"d","n":2}]`},
		{"order changes", `[{"name":"a","na":"b","n":1},{"n":2,"na":"d","name":"c"},{"na":"e","name":"f"}]`},
		{"a prefix of the name at that position", `[{"name":"a"},{"na":"b"},{"nam":"x","name":"c"}]`},
		{"an extension of the name at that position", `[{"na":"a"},{"nam":"b"},{"names":"c","name":"d"}]`},
		{"an escaped name", `[{"name":"a"},{"n\u0061me":"b"},{"\u006eame":"c"}]`},
		{"a name followed by an escaped quote", `[{"name":"a"},{"name\"":"b","name":"c"}]`},
		{"names that need escapes", `[{"q\"uote":"a","back\\slash":"b"},{"q\"uote":"c","back\\slash":"d"},{"back\\slash":"e"}]`},
		{"unknown keys between", `[{"x":1,"name":"a"},{"x":2,"name":"b"},{"name":"c","x":3}]`},
		{"duplicate keys", `[{"name":"a","name":"b"},{"name":"c","name":"d","name":"e"}]`},
		{"more keys than hints", `[{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"name":"a","n":1},{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"n":2,"name":"b"}]`},
		{"empty objects", `[{},{"name":"a"},{}]`},
		{"white space", "[ { \"name\" : \"a\" , \"n\" : 1 } , {\n\"name\"\t:\"b\"} ]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := `{"list":` + tt.list + `}`
			var m map[string]any
			if err := json.Unmarshal([]byte(text), &m); err != nil {
				t.Fatal(err)
			}
			want, err := items.MakeJSON(m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := items.MakeJSON([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("raw  %s\nmaps %s", got, want)
			}
			// The Object path reads the same slots.
			o, err := items.Make([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := o.MarshalJSON(); string(b) != string(want) {
				t.Errorf("Make %s\nmaps %s", b, want)
			}
		})
	}
}

// TestRawJSONNestedOffsets checks that fill finds where each nested object
// starts in the document from its first key (no pointer arithmetic): raw
// JSON whose nested objects start after white space, escapes, multi-byte
// text and long strings, with keys that need unquoting, gives the output
// the same input decoded into maps gives.
func TestRawJSONNestedOffsets(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "leaf", "a", "string", "", "é", "string", "", `q"`, "string", "")
	expose(t, reg, "mid", "s", "string", "", "leaf", "$leaf", "", "list", "$leaf", "")
	e := expose(t, reg, "top", "pad", "string", "", "mid", "$mid", "", "mids", "$mid", "")
	tests := []struct {
		name string
		in   string
	}{
		{"plain", `{"mid":{"leaf":{"a":"x"}}}`},
		{"white space before keys", " \n{ \t\"mid\" :\r\n { \"leaf\"\n:\n{\n\"a\" : \"x\" } } }\n"},
		{"escaped first key", `{"mid":{"\u006ceaf":{"\u0061":"x"}}}`},
		{"first key with a quote", `{"mid":{"leaf":{"q\"":"x","a":"y"}}}`},
		{"multi-byte first key", `{"mid":{"leaf":{"é":"x","a":"y"}}}`},
		{"long string before", `{"pad":"` + strings.Repeat("ü\\n", 500) + `","mid":{"s":"` + strings.Repeat("x", 300) + `","leaf":{"a":"x"}}}`},
		{"empty objects", `{"mid":{},"mids":[{},{"leaf":{}},{"leaf":{"a":"x"}}]}`},
		{"list of objects after strings", `{"mids":["s",{"s":"1","list":[{"a":"p"},"x",{"é":"q"},{"q\"":"r"}]},{"leaf":{"a":"z"}}]}`},
		{"duplicate keys", `{"mid":{"leaf":{"a":"x"},"leaf":{"a":"y"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal([]byte(tt.in), &m); err != nil {
				t.Fatal(err)
			}
			want, err := e.MakeJSON(m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.MakeJSON([]byte(tt.in))
			if err != nil || string(got) != string(want) {
				t.Errorf("raw: %s, %v\nmaps: %s", got, err, want)
			}
		})
	}
}

// rmRow is a struct holding json.RawMessage values, for
// TestRawMessageListElements.
type rmRow struct {
	One  json.RawMessage   `json:"one"`
	List []json.RawMessage `json:"list"`
	Any  []any             `json:"any"`
}

// TestRawMessageListElements: a json.RawMessage holding an object is read
// as that object wherever a Go list holds it, as one a $ref field holds is
// and as EncodeSeq reads one: the elements of a []json.RawMessage or of a
// []any given to MakeJSON and MakeList, and of a list under a $ref or a
// []$ref field of a map or a struct. Its fields are checked; one that holds
// no object is no object (left out at the top, null in a field's list).
func TestRawMessageListElements(t *testing.T) {
	reg := entity.NewRegistry()
	item := expose(t, reg, "item", "x", "string", "req")
	page := expose(t, reg, "page", "one", "$item", "", "list", "$item", "", "any", "[]$item", "")
	a, b := json.RawMessage(`{"x":"a"}`), json.RawMessage(`{"x":"b"}`)
	tests := []struct {
		name string
		e    *entity.Entity
		in   any
		want string // the output, or the error's text
	}{
		{"a []json.RawMessage at the top", item, []json.RawMessage{a, b}, `[{"x":"a"},{"x":"b"}]`},
		{"json.RawMessage in a []any at the top", item, []any{a, map[string]any{"x": "m"}}, `[{"x":"a"},{"x":"m"}]`},
		{"an element that holds no object is left out at the top", item, []json.RawMessage{json.RawMessage(`[1]`), a}, `[{"x":"a"}]`},
		{"an element's fields are checked", item, []json.RawMessage{a, json.RawMessage(`{}`)}, `[1].x: is required`},
		{"a map's []json.RawMessage under a $ref", page, map[string]any{"list": []json.RawMessage{a, b}}, `{"one":null,"list":[{"x":"a"},{"x":"b"}],"any":null}`},
		{"a map's []any under a []$ref", page, map[string]any{"any": []any{b, json.RawMessage(`"s"`)}}, `{"one":null,"list":null,"any":[{"x":"b"},null]}`},
		{"a struct's fields", page, rmRow{One: a, List: []json.RawMessage{b}, Any: []any{a}}, `{"one":{"x":"a"},"list":[{"x":"b"}],"any":[{"x":"a"}]}`},
		{"a struct's element's fields are checked", page, &rmRow{List: []json.RawMessage{json.RawMessage(`{"x":null}`)}}, `list[0].x: is required`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := tt.e.MakeJSON(tt.in)
			got := string(out)
			if err != nil {
				got = err.Error()
			}
			if !strings.Contains(got, tt.want) || err == nil && got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}
