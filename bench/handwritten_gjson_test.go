package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"testing"

	"github.com/expose-go/expose/entity"
)

// The tests in this file check that HandwrittenGJSON gives the library's
// bytes for the raw JSON the library is given, and fails where it fails,
// with the same field errors.

// libraryRaw returns the library's output and field errors for raw JSON.
// errs is nil on success; err is any error that is not a ValidationError.
func libraryRaw(tb testing.TB, raw []byte) (out []byte, errs Errors, err error) {
	tb.Helper()
	out, err = usersEntity.AppendJSON([]byte("x"), raw)
	var ve *entity.ValidationError
	if errors.As(err, &ve) {
		for _, f := range ve.Fields {
			errs = append(errs, FieldError{f.Path, f.OutputPath, f.Rule, f.Message})
		}
		err = nil
	}
	if (errs != nil || err != nil) && string(out) != "x" {
		tb.Errorf("library appended %q on failure", out)
	}
	if errs == nil && err == nil {
		if string(out[:1]) != "x" {
			tb.Fatalf("library lost the prefix: %q", out)
		}
		out = out[1:]
	}
	return out, errs, err
}

// checkGJSON checks HandwrittenGJSON against the library on raw.
func checkGJSON(t *testing.T, raw []byte) {
	t.Helper()
	want, wantErrs, wantErr := libraryRaw(t, raw)
	got, err := HandwrittenGJSON([]byte("x"), raw)
	var gotErrs Errors
	isFields := errors.As(err, &gotErrs)
	switch {
	case wantErr != nil:
		if err == nil || isFields {
			t.Errorf("library: %v; gjson: %v, %s", wantErr, err, got)
		}
	case wantErrs != nil:
		if !isFields || !reflect.DeepEqual(gotErrs, wantErrs) {
			t.Errorf("gjson errors:\n got %v\nwant %q", err, wantErrs)
		}
	case err != nil:
		t.Errorf("gjson: %v; library: %s", err, want)
	case !bytes.Equal(got[1:], want):
		t.Errorf("gjson:\n got %s\nwant %s", got[1:], want)
	}
	if err != nil && string(got) != "x" {
		t.Errorf("gjson appended %q on failure", got)
	}
	// The library's own MakeJSON gives the same bytes.
	if mk, err := usersEntity.MakeJSON(raw); (err == nil) != (wantErr == nil && wantErrs == nil) ||
		err == nil && !bytes.Equal(mk, want) {
		t.Errorf("MakeJSON = %s, %v; AppendJSON = %s", mk, err, want)
	}
}

func TestGJSONSizes(t *testing.T) {
	for _, n := range Sizes {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			raw, err := json.Marshal(Users(n))
			if err != nil {
				t.Fatal(err)
			}
			want, err := usersEntity.MakeJSON(raw)
			if err != nil {
				t.Fatal(err)
			}
			got, err := HandwrittenGJSON(nil, raw)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("HandwrittenGJSON = %s, %v\nwant %s", got, err, want)
			}
			// A reused buffer gives the same bytes again.
			if got, err = HandwrittenGJSON(got[:0], raw); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("reused buffer: %s, %v", got, err)
			}
			checkGJSON(t, raw)

			raw, err = json.Marshal(FailingUsers(n))
			if err != nil {
				t.Fatal(err)
			}
			checkGJSON(t, raw)
			if _, err := HandwrittenGJSON(nil, raw); err == nil {
				t.Fatal("FailingUsers: no error")
			}
		})
	}
	if got, err := HandwrittenGJSON(nil, []byte(`{"limit":2,"list":[{"id":"12","name":"maachang","age":40,"mail":"maachang@maachang.com"},{"id":"21","name":"saito","age":27,"mail":"saito@maachang.com"}]}`)); err != nil || string(got) != SeedJSON {
		t.Fatalf("seed: %s, %v", got, err)
	}
}

// TestGJSONEdgeCases runs raw inputs the generated payloads do not
// exercise. Each one is a user inside {"list":[…]} unless it starts with
// '!', in which case it is the whole body.
func TestGJSONEdgeCases(t *testing.T) {
	const ok = `"id":"1","name":"n","age":1,"mail":"a@b.co"`
	cases := []struct{ name, user string }{
		// Strings that need unescaping, and escaping on the way out.
		{"escapes", `"id":"1","name":"q\"b\\s\/<>&\n\r\t\b\f\u0001\u007f \u00e9 é \u2028\u2029 end","age":1,"mail":"a@b.co"`},
		{"unicode escapes", `"id":"1","name":"\u65e5\u672c\u8a9e \ud83d\ude00 😀","age":1,"mail":"a@b.co"`},
		{"lone surrogate", `"id":"1","name":"a\ud800b","age":1,"mail":"a@b.co"`},
		{"surrogate then escape", `"id":"1","name":"a\ud800\nb","age":1,"mail":"a@b.co"`},
		{"invalid utf8 run", "\"id\":\"1\",\"name\":\"\xff\xfe\xc3\x28\",\"age\":1,\"mail\":\"a@b.co\""},
		{"lone low surrogate", `"id":"1","name":"a\udc00b","age":1,"mail":"a@b.co"`},
		{"invalid utf8", "\"id\":\"1\",\"name\":\"a\xffb\xc3\",\"age\":1,\"mail\":\"a@b.co\""},
		{"invalid utf8 with escapes", "\"id\":\"1\",\"name\":\"a\\n\xffb\",\"age\":1,\"mail\":\"a@b.co\""},
		{"escaped html mail", `"id":"1","name":"n","age":1,"mail":"\u003ca\u003e\u0026@x.yz"`},
		{"html mail", `"id":"1","name":"n","age":1,"mail":"<a>&@x.yz"`},
		{"invalid utf8 mail local", "\"id\":\"1\",\"name\":\"n\",\"age\":1,\"mail\":\"a\xff@x.yz\""},
		{"invalid utf8 mail domain", "\"id\":\"1\",\"name\":\"n\",\"age\":1,\"mail\":\"a@x\xff.yz\""},
		{"escaped id", `"id":"\u0031\u0032","name":"n"`},
		{"escaped key", `"i\u0064":"5","n\u0061me":"n"`},
		{"html in code", `"id":"1","name":"n","code":"<&>"`},
		{"white space", " \n\t\"id\" : \"1\" ,\r\n \"name\" :\"n\" , \"age\" : 2 "},

		// Missing and null fields: defaults and nulls.
		{"only required", `"name":"n"`},
		{"nulls", `"id":null,"name":"n","age":null,"mail":null,"code":null`},
		{"code given", ok + `,"code":"x"`},
		{"code number", ok + `,"code":5`},
		{"code bool", ok + `,"code":true`},
		{"code list", ok + `,"code":[]`},
		{"code object", ok + `,"code":{"a":1}`},
		{"extra fields", ok + `,"extra":1,"details":{"age":2},"number":3`},
		{"duplicate keys", `"id":"1","id":"2","name":"x","name":"n","age":1,"age":null,"mail":"bad","mail":"a@b.co"`},
		{"duplicate to null", `"id":"1","name":"n","code":"x","code":null`},

		// Number conversions.
		{"id number", `"id":12,"name":"n"`},
		{"id fraction", `"id":12.7,"name":"n"`},
		{"id negative fraction", `"id":-3.9,"name":"n"`},
		{"id minus zero", `"id":-0,"name":"n"`},
		{"id exponent", `"id":1e3,"name":"n"`},
		{"id big exponent", `"id":1E+18,"name":"n"`},
		{"id too big", `"id":1e19,"name":"n"`},
		{"id huge", `"id":1e400,"name":"n"`},
		{"id tiny", `"id":1e-400,"name":"n"`},
		{"id beyond float precision", `"id":9007199254740993,"name":"n"`},
		{"id 16 digits", `"id":1234567890123456,"name":"n"`},
		{"id min int64", `"id":-9223372036854775808,"name":"n"`},
		{"id max int64", `"id":9223372036854775807,"name":"n"`},
		{"id string fraction", `"id":"12.7","name":"n"`},
		{"id string negative", `"id":"-3.9","name":"n"`},
		{"id string zeros", `"id":"007","name":"n"`},
		{"id string exponent", `"id":"1e3","name":"n"`},
		{"id string two dots", `"id":"1.2.3","name":"n"`},
		{"id string empty", `"id":"","name":"n"`},
		{"id string too big", `"id":"99999999999999999999","name":"n"`},
		{"id string max", `"id":"9223372036854775807","name":"n"`},
		{"id bool", `"id":true,"name":"n"`},
		{"id list", `"id":[1],"name":"n"`},
		{"id object", `"id":{},"name":"n"`},
		{"age string", `"id":"1","name":"n","age":"40"`},
		{"age bad string", `"id":"1","name":"n","age":"x"`},
		{"age float", `"id":"1","name":"n","age":40.9`},
		{"age false", `"id":"1","name":"n","age":false`},

		// String conversions.
		{"name int", `"id":"1","name":40`},
		{"name float", `"id":"1","name":1.50`},
		{"name minus zero", `"id":"1","name":-0`},
		{"name minus zero float", `"id":"1","name":-0.0`},
		{"name big", `"id":"1","name":1e21`},
		{"name below 1e21", `"id":"1","name":123456789012345678901`},
		{"name small", `"id":"1","name":1e-7`},
		{"name exponent", `"id":"1","name":1E2`},
		{"name beyond precision", `"id":"1","name":9007199254740993`},
		{"name huge", `"id":"1","name":1e400`},
		{"name true", `"id":"1","name":true`},
		{"name false", `"id":"1","name":false`},
		{"name empty", `"id":"1","name":""`},

		// Failing fields.
		{"name absent", `"id":"1"`},
		{"name null", `"id":"1","name":null`},
		{"name list", `"id":"1","name":["x"]`},
		{"name object", `"id":"1","name":{}`},
		{"mail no dot", `"id":"1","name":"n","mail":"a@b"`},
		{"mail escaped no dot", `"id":"1","name":"n","mail":"a\u0040b"`},
		{"mail number", `"id":"1","name":"n","mail":40`},
		{"mail true", `"id":"1","name":"n","mail":true`},
		{"mail false", `"id":"1","name":"n","mail":false`},
		{"mail object", `"id":"1","name":"n","mail":{"a":1}`},
		{"mail list", `"id":"1","name":"n","mail":[]`},
		{"mail space", `"id":"1","name":"n","mail":"a b@c.co"`},
		{"every field bad", `"id":"x","age":true,"mail":"nope"`},
		{"empty user", ``},

		// The list and the top level.
		{"!skipped elements", `{"list":[1,null,"x",{` + ok + `},[],{"name":"n","mail":"bad"},true]}`},
		{"!skipped elements, all good", `{"list":[1,null,"x",{` + ok + `},[],{"name":"m"},true]}`},
		{"!skipped elements, one bad", `{"list":[1,{` + ok + `},{}]}`},
		{"!skipped elements, good", `{"list":[1,{` + ok + `},{"name":"m"},false]}`},
		{"!list single object", `{"list":{"name":"n","mail":"bad"}}`},
		{"!list single good object", `{"list":{` + ok + `}}`},
		{"!list empty", `{"list":[]}`},
		{"!list absent", `{}`},
		{"!list null", `{"list":null}`},
		{"!list string", `{"list":"x"}`},
		{"!list number", `{"list":1}`},
		{"!list twice", `{"list":[{"name":"a"}],"list":[{"name":"b"}]}`},
		{"!offset strings", `{"offset":"3","limit":"2.9","list":[]}`},
		{"!offset bad", `{"offset":"abc","limit":true,"list":[]}`},
		{"!offset floats", `{"offset":3.5,"limit":-7.9}`},
		{"!offset huge", `{"offset":1e30,"limit":1e400}`},
		{"!offset null", `{"offset":null,"limit":[],"list":[]}`},
		{"!offset twice", `{"offset":1,"offset":2}`},
		{"!white space", " \r\n\t{ \"limit\" : 2 , \"list\" : [ { " + ok + " } ] }\n "},
		{"!deep ignored", `{"x":[[[[{"a":[{}]}]]]],"list":[]}`},

		// Bodies that are not a users payload.
		{"!empty body", ``},
		{"!spaces", `  `},
		{"!null", `null`},
		{"!number", `1`},
		{"!string", `"x"`},
		{"!truncated", `{"list":[{"name":"n"}`},
		{"!trailing garbage", `{} x`},
		{"!two objects", `{}{}`},
		{"!bad value", `{"list":[{"name":}]}`},
		{"!trailing comma", `{"list":[],}`},
		{"!single quotes", `{'list':[]}`},
		{"!control in string", "{\"list\":[{\"name\":\"a\nb\"}]}"},
		{"!bad escape", `{"list":[{"name":"\x"}]}`},
		{"!short unicode escape", `{"list":[{"name":"\u12"}]}`},
		{"!NaN", `{"offset":NaN}`},
		{"!plus number", `{"offset":+1}`},
		{"!leading zero", `{"offset":01}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw := c.user
			if c.name[0] != '!' {
				raw = `{"list":[{` + c.user + `}]}`
			}
			checkGJSON(t, []byte(raw))
		})
	}
}

// TestGJSONDifferences pins down where HandwrittenGJSON and the library
// knowingly part: each input here is outside what the baseline is for.
func TestGJSONDifferences(t *testing.T) {
	// A high surrogate escape followed by a \u escape that is not a low
	// surrogate: encoding/json (and the library) decode U+FFFD and then the
	// second escape; gjson's Result.Str, which the hand-written function
	// takes as it is, consumes both escapes into one U+FFFD.
	for _, c := range []struct{ name, want, gjson string }{
		{`a\ud800\u0041b`, "a\uFFFDAb", "a\uFFFDb"},
		{`\ud800\ud800\udc00`, "\uFFFD\U00010000", "\uFFFD\uFFFD"},
	} {
		raw := []byte(`{"list":[{"name":"` + c.name + `"}]}`)
		var m struct{ List []struct{ Name string } }
		if err := json.Unmarshal(raw, &m); err != nil || m.List[0].Name != c.want {
			t.Errorf("encoding/json decodes %s as %+q, %v", c.name, m.List[0].Name, err)
		}
		lib, err := usersEntity.MakeJSON(raw)
		if err != nil || !bytes.Contains(lib, []byte(`"name":"`+c.want+`"`)) {
			t.Errorf("library: %s, %v", lib, err)
		}
		got, err := HandwrittenGJSON(nil, raw)
		if err != nil || !bytes.Contains(got, []byte(`"name":"`+c.gjson+`"`)) {
			t.Errorf("gjson: %s, %v", got, err)
		}
	}

	// A top-level array is a list of payloads to the library and not this
	// shape to the hand-written function.
	raw := []byte(`[{"list":[]}]`)
	if _, err := usersEntity.MakeJSON(raw); err != nil {
		t.Errorf("library: %v", err)
	}
	if _, err := HandwrittenGJSON(nil, raw); !errors.Is(err, ErrGJSONNotObject) {
		t.Errorf("gjson: got %v, want ErrGJSONNotObject", err)
	}
}
