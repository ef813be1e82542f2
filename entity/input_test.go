package entity_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
)

// inputCases: typed nils. (Inputs that are not objects are
// TestUnsupportedInput's.)
func inputCases() []entryCase {
	jsonV := []string{failAt("v", "json")}
	return []entryCase{
		{name: "nil *int into none", ent: "none", in: givenV((*int)(nil)), out: wantOut(`{"v":null}`)},
		{name: "nil *int into a required string", ent: "reqstr", in: givenV((*int)(nil)), fails: []string{failAt("v", "req")}},
		{name: "nil error interface into none", ent: "none", in: givenV(error(nil)), out: wantOut(`{"v":null}`)},
		{name: "nil map into object", ent: "object", in: givenV(map[string]any(nil)), out: wantOut(`{"v":null}`)},
		{name: "nil slice into list", ent: "list", in: givenV([]any(nil)), out: wantOut(`{"v":null}`)},
		{name: "nil *Object into none", ent: "none", in: givenV((*entity.Object)(nil)), out: wantOut(`{"v":null}`)},
		{name: "nil pointers inside a list", ent: "list", in: givenV([]any{(*int)(nil), (*linkedNode)(nil), (map[string]any)(nil)}), out: wantOut(`{"v":[null,null,null]}`)},
		{name: "nil func inside a map: encoding/json refuses func types", ent: "none", in: givenV(map[string]any{"f": (func())(nil)}), fails: jsonV},
		{name: "nil channel inside a map: encoding/json refuses chan types", ent: "none", in: givenV(map[string]any{"c": (chan int)(nil)}), fails: jsonV},
		{name: "nil *struct as the input is empty", ent: "node", in: given((*linkedNode)(nil)), out: wantOut(`{"v":null,"n":null,"p":null}`)},
		{name: "nil *Object as the input is empty", ent: "string", in: given((*entity.Object)(nil)), out: wantOut(`{"v":null}`)},
		{name: "nil map as the input is empty", ent: "string", in: given(map[string]any(nil)), out: wantOut(`{"v":null}`)},
		{name: "nil []byte as the input is empty", ent: "string", in: given([]byte(nil)), out: wantOut(`{"v":null}`)},
		{name: "pointer to pointer to map as the input", ent: "string",
			in: func() any { m := map[string]any{"v": "x"}; p := &m; return &p }, out: wantOut(`{"v":"x"}`)},
		{name: "nil pointer to a struct inside a $ref", ent: "node", in: given(&linkedNode{P: nil}), out: wantOut(`{"v":"","n":null,"p":null}`)},
	}
}

// TestTypedNilInputs: a typed nil is null, or an empty input.
func TestTypedNilInputs(t *testing.T) {
	runEntryCases(t, inputCases())
}

// TestEntryCases: the tables that every subject runs through every entry
// point (runEntryCases) are, together, the hostile-input suite: at least
// 100 cases, each named once across them all.
func TestEntryCases(t *testing.T) {
	var all []entryCase
	for _, table := range [][]entryCase{
		depthCases(), cycleCases(), errorCapCases(), encodeCases(), numberCases(), nonFiniteCases(),
		unencodableCases(), inputCases(), valuerCases(), rulePanicCases(),
	} {
		all = append(all, table...)
	}
	if len(all) < 100 {
		t.Errorf("%d hostile cases, want at least 100", len(all))
	}
	seen := map[string]bool{}
	for _, c := range all {
		if seen[c.name] {
			t.Errorf("two cases named %q", c.name)
		}
		seen[c.name] = true
	}
}

// TestInputKinds makes the same entity from every kind of input the spec
// lists.
func TestInputKinds(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "row",
		"id", "number", "",
		"name", "string", "",
		"g", "{", "",
		"n", "number", "",
		"g", "}", "",
	)
	other := expose(t, reg, "other", "id", "string", "", "name", "none", "", "n", "float", "")
	obj, err := other.Make(map[string]any{"id": "7", "name": "x", "n": 2.5})
	if err != nil {
		t.Fatal(err)
	}
	var nilMap map[string]any
	var nilStrings map[string]string
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"map[string]any", map[string]any{"id": 7, "name": "x", "n": 2.5, "extra": 1}, `{"id":7,"name":"x","g":{"n":2}}`},
		{"map[string]string", map[string]string{"id": "7", "name": "x", "n": "2.5"}, `{"id":7,"name":"x","g":{"n":2}}`},
		{"map[string]int", map[string]int{"id": 7, "name": 8, "n": 9}, `{"id":7,"name":"8","g":{"n":9}}`},
		{"map[string]float64", map[string]float64{"id": 7.9}, `{"id":7,"name":null,"g":{"n":null}}`},
		{"map with named key type", map[myKey]any{"id": "7", "name": true}, `{"id":7,"name":"true","g":{"n":null}}`},
		{"map[string]json.Number", map[string]json.Number{"id": "7"}, `{"id":7,"name":null,"g":{"n":null}}`},
		{"*Object", obj, `{"id":7,"name":"x","g":{"n":2}}`},
		{"nil", nil, `{"id":null,"name":null,"g":{"n":null}}`},
		{"nil map[string]any", nilMap, `{"id":null,"name":null,"g":{"n":null}}`},
		{"nil map[string]string", nilStrings, `{"id":null,"name":null,"g":{"n":null}}`},
		{"empty map", map[string]any{}, `{"id":null,"name":null,"g":{"n":null}}`},
		{"map[string]string absent fields", map[string]string{"id": "1"}, `{"id":1,"name":null,"g":{"n":null}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _ := mustMake(t, e, c.in)
			if string(out) != c.want {
				t.Errorf("got  %s\nwant %s", out, c.want)
			}
		})
	}
}

// TestInputLists: MakeJSON and AppendJSON take a list of objects and write
// a JSON array, skipping elements that are not objects.
func TestInputLists(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "row", "id", "number", "", "name", "string", "req")
	obj, err := e.Make(map[string]any{"id": 3, "name": "o"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"[]any, non-objects skipped", []any{map[string]any{"id": 1, "name": "a"}, 42, "x", nil, []any{}, map[string]string{"id": "2", "name": "b"}}, `[{"id":1,"name":"a"},{"id":2,"name":"b"}]`},
		{"[]map[string]any", []map[string]any{{"id": 1, "name": "a"}}, `[{"id":1,"name":"a"}]`},
		{"[]map[string]string", []map[string]string{{"id": "1", "name": "a"}, {"name": "b"}}, `[{"id":1,"name":"a"},{"id":null,"name":"b"}]`},
		{"[]*Object", []*entity.Object{obj, nil, obj}, `[{"id":3,"name":"o"},{"id":3,"name":"o"}]`},
		{"[]map[string]int", []map[string]int{{"id": 1, "name": 2}}, `[{"id":1,"name":"2"}]`},
		{"array of maps", [2]map[string]any{{"name": "a"}, {"name": "b"}}, `[{"id":null,"name":"a"},{"id":null,"name":"b"}]`},
		{"empty list", []any{}, `[]`},
		{"only non-objects", []any{1, "a", true}, `[]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := e.MakeJSON(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != c.want {
				t.Errorf("MakeJSON: got %s, want %s", out, c.want)
			}
			app, err := e.AppendJSON([]byte("["), c.in)
			if err != nil || string(app) != "["+c.want {
				t.Errorf("AppendJSON = %s, %v", app, err)
			}
			out, err = reg.Lookup("row").MakeJSON(c.in)
			if err != nil || string(out) != c.want {
				t.Errorf("Registry.MakeJSON = %s, %v", out, err)
			}
		})
	}
	t.Run("failure in a list", func(t *testing.T) {
		in := []any{map[string]any{"name": "a"}, 1, map[string]any{"id": 2}}
		dst := []byte("keep")
		got, err := e.AppendJSON(dst, in)
		if err == nil || string(got) != "keep" {
			t.Errorf("AppendJSON = %q, %v; want dst unchanged and an error", got, err)
		}
		fields := fieldErrors(t, err)
		if len(fields) != 1 || fields[0].Path != "[2].name" || fields[0].OutputPath != "[1].name" {
			t.Errorf("fields = %+v", fields[0])
		}
		if b, err := e.MakeJSON(in); b != nil || err == nil {
			t.Errorf("MakeJSON = %q, %v", b, err)
		}
	})
	t.Run("Make of a list is an error, not a panic", func(t *testing.T) {
		o, err := e.Make([]any{map[string]any{}})
		if err == nil || o != nil {
			t.Errorf("Make(list) = %v, %v; want an error", o, err)
		}
	})
}

// TestUnsupportedInput: an input that is not an object, a list of them or
// raw JSON is ErrUnsupportedInput from every entry point (Write: status
// 500), never a validation error.
func TestUnsupportedInput(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "row", "id", "number", "")
	for _, in := range []any{42, "str", true, 1.5, time.Now(), make(chan int), map[int]any{1: 2}, func() {}, json.Number("1")} {
		t.Run(fmt.Sprintf("%T", in), func(t *testing.T) {
			if o, err := e.Make(in); o != nil || !errors.Is(err, entity.ErrUnsupportedInput) {
				t.Errorf("Make(%T) = %v, %v; want ErrUnsupportedInput", in, o, err)
			}
			if b, err := e.MakeJSON(in); b != nil || !errors.Is(err, entity.ErrUnsupportedInput) {
				t.Errorf("MakeJSON(%T) = %q, %v; want ErrUnsupportedInput", in, b, err)
			}
			if b, err := e.AppendJSON([]byte("keep"), in); string(b) != "keep" || !errors.Is(err, entity.ErrUnsupportedInput) {
				t.Errorf("AppendJSON(%T) = %q, %v; want dst unchanged, ErrUnsupportedInput", in, b, err)
			}
			if _, err := reg.Lookup("row").MakeJSON(in); !errors.Is(err, entity.ErrUnsupportedInput) {
				t.Errorf("Registry.MakeJSON(%T) = %v", in, err)
			}
			var ve *entity.ValidationError
			if _, err := e.MakeJSON(in); errors.As(err, &ve) || errors.Is(err, entity.ErrValidation) {
				t.Errorf("unsupported input reported as a validation error: %v", err)
			}
			rec := httptest.NewRecorder()
			err := e.Write(rec, in)
			if !errors.Is(err, entity.ErrUnsupportedInput) || rec.Code != 500 {
				t.Errorf("Write(%T) = %d, %v; want 500, ErrUnsupportedInput", in, rec.Code, err)
			}
			if pb, ok := checkProblem(t, rec, 500); ok && pb.Type != "about:blank" {
				t.Errorf("Write(%T): problem type %q, want about:blank", in, pb.Type)
			}
		})
	}
}
