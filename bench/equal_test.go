package bench

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"testing"

	"github.com/expose-go/expose/entity"
)

// The tests in this file run before anything is timed: each baseline must
// give the library's JSON (byte for byte for the hand-written function and
// the library's own entry points; decoded-equal for the map pipelines,
// whose keys come out sorted or unordered) and fail where it fails.

var usersEntity = NewRegistry().Lookup("users")

// libraryJSON is the library's output for in, the reference.
func libraryJSON(tb testing.TB, in map[string]any) []byte {
	tb.Helper()
	out, err := usersEntity.AppendJSON(nil, in)
	if err != nil {
		tb.Fatalf("library: %v", err)
	}
	return out
}

// decode reads JSON into plain values, numbers as json.Number.
func decode(tb testing.TB, b []byte) any {
	tb.Helper()
	d := stdjson.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		tb.Fatalf("decode %s: %v", b, err)
	}
	return v
}

// sameJSON reports whether a and b decode to equal values.
func sameJSON(tb testing.TB, a, b []byte) bool {
	return reflect.DeepEqual(decode(tb, a), decode(tb, b))
}

// checkAll checks every implementation against the library on in, which
// must succeed.
func checkAll(tb testing.TB, in map[string]any) {
	tb.Helper()
	want := libraryJSON(tb, in)
	check := func(name string, got []byte, err error, byteEqual bool) {
		tb.Helper()
		switch {
		case err != nil:
			tb.Errorf("%s: %v", name, err)
		case byteEqual && !bytes.Equal(got, want):
			tb.Errorf("%s:\n got %s\nwant %s", name, got, want)
		case !byteEqual && !sameJSON(tb, got, want):
			tb.Errorf("%s: not the library's JSON once decoded:\n got %s\nwant %s", name, got, want)
		}
	}
	got, err := usersEntity.MakeJSON(in)
	check("MakeJSON", got, err, true)
	obj, err := usersEntity.Make(in)
	if err == nil {
		got, err = stdjson.Marshal(obj)
	}
	check("Make+Marshal", got, err, true)
	if obj, err = usersEntity.Make(in); err == nil {
		got, err = obj.MarshalJSON()
	}
	check("Make+MarshalJSON", got, err, true)
	got, err = AppendUsers(nil, in)
	check("handwritten", got, err, true)
	for _, enc := range Encoders {
		got, err := Naive(enc.Marshal, in)
		check(enc.Name, got, err, false)
	}
}

func TestSeed(t *testing.T) {
	if got := libraryJSON(t, SeedPayload()); string(got) != SeedJSON || len(got) != 227 {
		t.Fatalf("library gives %d bytes: %s", len(got), got)
	}
	got, err := AppendUsers(nil, SeedPayload())
	if err != nil || string(got) != SeedJSON {
		t.Fatalf("AppendUsers = %s, %v", got, err)
	}
	checkAll(t, SeedPayload())
}

func TestSameJSON(t *testing.T) {
	for _, n := range Sizes {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			in := Users(n)
			if got := len(in["list"].([]any)); got != n {
				t.Fatalf("Users(%d) has %d users", n, got)
			}
			checkAll(t, in)
		})
	}
}

// libraryErrors returns the library's field errors for in, which must fail.
func libraryErrors(tb testing.TB, in map[string]any) Errors {
	tb.Helper()
	out, err := usersEntity.AppendJSON([]byte("x"), in)
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		tb.Fatalf("library: want a ValidationError, got %v", err)
	}
	if string(out) != "x" {
		tb.Errorf("library appended %q on failure", out)
	}
	var errs Errors
	for _, f := range ve.Fields {
		errs = append(errs, FieldError{f.Path, f.OutputPath, f.Rule, f.Message})
	}
	return errs
}

// checkFails checks that every implementation fails on in with the
// library's field errors.
func checkFails(tb testing.TB, in map[string]any) {
	tb.Helper()
	want := libraryErrors(tb, in)
	if _, err := usersEntity.MakeJSON(in); err == nil {
		tb.Errorf("MakeJSON did not fail")
	}
	if _, err := usersEntity.Make(in); err == nil {
		tb.Errorf("Make did not fail")
	}
	out, err := AppendUsers([]byte("x"), in)
	var got Errors
	if !errors.As(err, &got) {
		tb.Errorf("handwritten: want Errors, got %v", err)
	} else if !reflect.DeepEqual(got, want) {
		tb.Errorf("handwritten errors:\n got %q\nwant %q", got, want)
	}
	if string(out) != "x" {
		tb.Errorf("handwritten appended %q on failure", out)
	}
	for _, enc := range Encoders {
		_, err := Naive(enc.Marshal, in)
		if !errors.As(err, &got) || !reflect.DeepEqual(got, want) {
			tb.Errorf("%s: got %v, want %q", enc.Name, err, want)
		}
	}
}

func TestFailing(t *testing.T) {
	for _, n := range Sizes {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			in := FailingUsers(n)
			want := Errors{{
				Path:       "list[" + strconv.Itoa(n-1) + "].mail",
				OutputPath: "list[" + strconv.Itoa(n-1) + "].details.mail",
				Rule:       "email", Message: msgEmail}}
			if got := libraryErrors(t, in); !reflect.DeepEqual(got, want) {
				t.Fatalf("library errors %q, want %q", got, want)
			}
			checkFails(t, in)
			// FailingUsers must not have touched the payload it copied.
			checkAll(t, Users(n))
		})
	}
}

// TestEdgeCases runs the hand-written function and the naive pipelines on
// the conversions and checks the seed's payload does not exercise, and
// compares each result with the library's.
func TestEdgeCases(t *testing.T) {
	user := func(kv ...any) map[string]any {
		u := map[string]any{"id": "1", "name": "n", "age": 1, "mail": "a@b.co"}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == absent {
				delete(u, kv[i].(string))
				continue
			}
			u[kv[i].(string)] = kv[i+1]
		}
		return u
	}
	one := func(kv ...any) map[string]any {
		return map[string]any{"list": []any{user(kv...)}}
	}
	cases := []struct {
		name string
		in   map[string]any
	}{
		{"id fraction", one("id", "12.7")},
		{"id negative fraction", one("id", "-3.9")},
		{"id minus half", one("id", "-0.5")},
		{"id leading zeros", one("id", "007")},
		{"id two dots", one("id", "1.2.3")},
		{"id letters", one("id", "abc")},
		{"id lone dot", one("id", ".")},
		{"id dot five", one("id", ".5")},
		{"id trailing dot", one("id", "1.")},
		{"id minus", one("id", "-")},
		{"id empty", one("id", "")},
		{"id plus", one("id", "+1")},
		{"id space", one("id", " 1")},
		{"id exponent", one("id", "1e3")},
		{"id huge exponent", one("id", "1e400")},
		{"id too big", one("id", "99999999999999999999")},
		{"id min int64", one("id", "-9223372036854775808")},
		{"id max int64", one("id", "9223372036854775807")},
		{"id max int64 plus one", one("id", "9223372036854775808")},
		{"id float", one("id", 12.7)},
		{"id negative float", one("id", -3.9)},
		{"id huge float", one("id", 1e300)},
		{"id NaN", one("id", math.NaN())},
		{"id Inf", one("id", math.Inf(1))},
		{"id int64", one("id", int64(-5))},
		{"id bool", one("id", true)},
		{"id list", one("id", []any{1})},
		{"id object", one("id", map[string]any{})},
		{"id null", one("id", nil)},
		{"id absent", one("id", absent)},
		{"name absent", one("name", absent)},
		{"name null", one("name", nil)},
		{"name int", one("name", 40)},
		{"name float", one("name", 1.5)},
		{"name big float", one("name", 1e21)},
		{"name small float", one("name", 1e-7)},
		{"name NaN", one("name", math.NaN())},
		{"name bool", one("name", false)},
		{"name list", one("name", []any{"x"})},
		{"name empty", one("name", "")},
		{"name escapes", one("name", "q\"b\\s/<>&\n\r\t\b\f\x01\x7f é \u2028\u2029 \xff end")},
		{"name unicode", one("name", "日本語")},
		{"mail no dot", one("mail", "a@b")},
		{"mail one-letter labels", one("mail", "a@b.c")},
		{"mail no local", one("mail", "@b.co")},
		{"mail two at", one("mail", "a@@b.co")},
		{"mail at in domain", one("mail", "a@b@c.co")},
		{"mail space", one("mail", "a b@c.co")},
		{"mail hyphen start", one("mail", "a@-b.co")},
		{"mail hyphen end", one("mail", "a@b-.co")},
		{"mail empty label", one("mail", "a@b..co")},
		{"mail trailing dot", one("mail", "a@b.co.")},
		{"mail leading dot", one("mail", "a@.b.co")},
		{"mail underscore", one("mail", "a@b_c.co")},
		{"mail unicode local", one("mail", "é@x.yz")},
		{"mail nbsp local", one("mail", "a\u00a0@x.yz")},
		{"mail control local", one("mail", "a\x01@x.yz")},
		{"mail del local", one("mail", "a\x7f@x.yz")},
		{"mail invalid utf8 local", one("mail", "a\xff@x.yz")},
		{"mail unicode domain", one("mail", "a@é.yz")},
		{"mail html", one("mail", "<a>&@x.yz")},
		{"mail empty", one("mail", "")},
		{"mail int", one("mail", 40)},
		{"mail bool", one("mail", true)},
		{"mail null", one("mail", nil)},
		{"mail absent", one("mail", absent)},
		{"mail object", one("mail", map[string]any{"a": 1})},
		{"age string", one("age", "40")},
		{"age bad string", one("age", "x")},
		{"age float", one("age", 40.9)},
		{"age absent", one("age", absent)},
		{"code given", one("code", "x")},
		{"code int", one("code", 5)},
		{"code list", one("code", []any{})},
		{"code null", one("code", nil)},
		{"every field bad", one("id", "x", "name", absent, "age", true, "mail", "nope")},
		{"extra fields", one("extra", 1, "details", map[string]any{"age": 2})},
		{"empty user", map[string]any{"list": []any{map[string]any{}}}},
		{"nil user map", map[string]any{"list": []any{map[string]any(nil)}}},
		{"skipped elements", map[string]any{"list": []any{1, nil, "x", user(), []any{}, user("mail", "bad")}}},
		{"list of maps", map[string]any{"list": []map[string]any{user(), user("id", "x")}}},
		{"list single object", map[string]any{"list": user("mail", "bad")}},
		{"list single good object", map[string]any{"list": user()}},
		{"list empty", map[string]any{"list": []any{}}},
		{"list absent", map[string]any{}},
		{"list string", map[string]any{"list": "x"}},
		{"offset string", map[string]any{"offset": "3", "limit": "2.9", "list": []any{}}},
		{"offset bad", map[string]any{"offset": "abc", "limit": true, "list": []any{}}},
		{"offset float", map[string]any{"offset": 3.5, "limit": int64(7)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := usersEntity.AppendJSON(nil, c.in); err != nil {
				checkFails(t, c.in)
			} else {
				checkAll(t, c.in)
			}
		})
	}
}

// absent marks a field to delete in TestEdgeCases.
var absent = new(int)
