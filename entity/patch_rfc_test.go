package entity_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/expose-go/expose/entity"
)

// rfc7396Examples are the examples of RFC 7396, Appendix A: the original
// value, the patch, and the result.
var rfc7396Examples = []struct{ original, patch, result string }{
	{`{"a":"b"}`, `{"a":"c"}`, `{"a":"c"}`},
	{`{"a":"b"}`, `{"b":"c"}`, `{"a":"b","b":"c"}`},
	{`{"a":"b"}`, `{"a":null}`, `{}`},
	{`{"a":"b","b":"c"}`, `{"a":null}`, `{"b":"c"}`},
	{`{"a":["b"]}`, `{"a":"c"}`, `{"a":"c"}`},
	{`{"a":"c"}`, `{"a":["b"]}`, `{"a":["b"]}`},
	{`{"a":{"b":"c"}}`, `{"a":{"b":"d","c":null}}`, `{"a":{"b":"d"}}`},
	{`{"a":[{"b":"c"}]}`, `{"a":[1]}`, `{"a":[1]}`},
	{`["a","b"]`, `["c","d"]`, `["c","d"]`},
	{`{"a":"b"}`, `["c"]`, `["c"]`},
	{`{"a":"foo"}`, `null`, `null`},
	{`{"a":"foo"}`, `"bar"`, `"bar"`},
	{`{"e":null}`, `{"a":1}`, `{"e":null,"a":1}`},
	{`[1,2]`, `{"a":"b","c":null}`, `{"a":"b"}`},
	{`{}`, `{"a":{"bb":{"ccc":null}}}`, `{"a":{"bb":{}}}`},
}

// TestPatchMergesAsRFC7396: Patch's merge is RFC 7396's, checked against
// the RFC's own examples (Appendix A), on fields of type none, which hold
// any JSON:
//
//   - as the value of a none field, v: every example, its original the
//     field's current value, its patch the field's, its result the
//     field's merged value (a result without v: v is null);
//   - as the resource itself, an entity of none fields a, b, c and e: every
//     example whose original and patch are objects. The others cannot be
//     said of a resource, which an entity declares as an object: a patch
//     that is no object ([…], null, "bar") is a 400 (ErrInvalidJSON), and a
//     current value that is no object (a list) is refused as input (500).
func TestPatchMergesAsRFC7396(t *testing.T) {
	reg := entity.NewRegistry()
	field := expose(t, reg, "holder", "v", "none", "")
	resource := expose(t, reg, "resource", "a", "none", "", "b", "none", "", "c", "none", "", "e", "none", "")
	decode := func(t *testing.T, s string) any {
		t.Helper()
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		return v
	}
	for _, ex := range rfc7396Examples {
		name := ex.original + " + " + ex.patch
		t.Run("as a field's value: "+name, func(t *testing.T) {
			current := map[string]any{"v": decode(t, ex.original)}
			o, _, err := field.Patch(patchRequest(`{"v":`+ex.patch+`}`), current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			got, _ := o.Get("v")
			if want := decode(t, ex.result); !reflect.DeepEqual(got, want) {
				t.Errorf("v = %#v, want %s", got, ex.result)
			}
		})
		t.Run("as the resource: "+name, func(t *testing.T) {
			original, patch := decode(t, ex.original), decode(t, ex.patch)
			_, objOriginal := original.(map[string]any)
			_, objPatch := patch.(map[string]any)
			o, _, err := resource.Patch(patchRequest(ex.patch), []byte(ex.original))
			switch {
			case !objPatch:
				if !errors.Is(err, entity.ErrInvalidJSON) {
					t.Errorf("Patch of %s: %v, want ErrInvalidJSON: a resource's patch is an object", ex.patch, err)
				}
				return
			case !objOriginal:
				if err == nil {
					t.Errorf("Patch onto %s: no error, want one: a resource's current value is an object", ex.original)
				}
				return
			case err != nil:
				t.Fatalf("Patch: %v", err)
			}
			want := map[string]any{"a": nil, "b": nil, "c": nil, "e": nil} // an entity writes each of its fields: null for none
			for k, v := range decode(t, ex.result).(map[string]any) {
				want[k] = v
			}
			if got := o.Map(); !reflect.DeepEqual(got, want) {
				t.Errorf("merged = %v, want %v", got, want)
			}
		})
	}
}

// TestPatchMergesAnObjectIntoAnyField: RFC 7396 merges an object into an
// object recursively whatever holds it: into a none or object field's
// object as into a group's, a null removing a key, a key it leaves out
// kept; into anything else (no value, a string) as into nothing, its
// nulls removed.
func TestPatchMergesAnObjectIntoAnyField(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "doc", "meta", "none", "", "attrs", "object", "")
	tests := []struct {
		name         string
		current      map[string]any
		patch, field string
		want         string
	}{
		{"a none field's object", map[string]any{"meta": map[string]any{"a": 1, "b": map[string]any{"x": 1, "y": 2}}},
			`{"meta":{"a":null,"b":{"y":3,"z":4},"c":5}}`, "meta", `{"b":{"x":1,"y":3,"z":4},"c":5}`},
		{"an object field's object", map[string]any{"attrs": map[string]any{"k": "v", "l": "w"}},
			`{"attrs":{"l":null,"m":"n"}}`, "attrs", `{"k":"v","m":"n"}`},
		{"into no value", map[string]any{}, `{"meta":{"a":{"b":null,"c":1},"d":null}}`, "meta", `{"a":{"c":1}}`},
		{"into a string", map[string]any{"meta": "s"}, `{"meta":{"a":null,"b":1}}`, "meta", `{"b":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, touched, err := e.Patch(patchRequest(tt.patch), tt.current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			got, _ := o.Get(tt.field)
			var want any
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s = %v, want %s", tt.field, got, tt.want)
			}
			if !reflect.DeepEqual(touched, []string{tt.field}) {
				t.Errorf("touched = %q, want [%s]", touched, tt.field)
			}
		})
	}
}

// TestPatchMergesIntoAStoredObjectThatRepeatsAKey: stored JSON that
// repeats a key holds its last value, as a body is read: the object a
// patch merges into writes it once.
func TestPatchMergesIntoAStoredObjectThatRepeatsAKey(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "doc", "attrs", "object", "")
	tests := []struct{ name, current, patch, want string }{
		{"a key the patch leaves", `{"attrs":{"k":"a","j":0,"k":1}}`, `{"attrs":{"b":"c"}}`, `{"attrs":{"j":0,"k":1,"b":"c"}}`},
		{"a key the patch sets", `{"attrs":{"k":"a","k":1}}`, `{"attrs":{"k":2}}`, `{"attrs":{"k":2}}`},
		{"a key the patch removes", `{"attrs":{"k":"a","k":1,"l":3}}`, `{"attrs":{"k":null}}`, `{"attrs":{"l":3}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(tt.patch), json.RawMessage(tt.current))
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if got, _ := o.MarshalJSON(); string(got) != tt.want {
				t.Errorf("merged %s, want %s", got, tt.want)
			}
		})
	}
}

// TestPatchReadsARepeatedKeyAsMakeRequestDoes: a key the patch gives
// twice has its last value, as MakeRequest reads it (and encoding/json):
// a later null clears, a later object is the one merged, at every depth.
func TestPatchReadsARepeatedKeyAsMakeRequestDoes(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "person",
		"name", "string", "",
		"nick", "string", "req",
		"g", "{", "",
		"a", "string", "",
		"b", "string", "",
		"g", "}", "",
		"meta", "none", "",
	)
	current := map[string]any{"name": "ann", "nick": "an", "a": "1", "b": "2", "meta": map[string]any{"x": 1}}
	tests := []struct {
		name, patch string
		key         string
		want        any
		fails       string // the path of the one error, a 400, when the merged value fails
	}{
		{"a later null clears", `{"name":"x","name":null}`, "name", nil, ""},
		{"a later value wins", `{"name":null,"name":"x"}`, "name", "x", ""},
		{"a later null of a req field fails", `{"nick":"x","nick":null}`, "", nil, "nick"},
		{"a later object is the one merged", `{"g":{"a":"9"},"g":{"b":"8"}}`, "g", map[string]any{"a": "1", "b": "8"}, ""},
		{"inside an object", `{"g":{"a":"9","a":null}}`, "g", map[string]any{"a": nil, "b": "2"}, ""},
		{"inside a none field's object", `{"meta":{"x":2,"x":null,"y":1,"y":2}}`, "meta", map[string]any{"y": float64(2)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(tt.patch), current)
			if tt.fails != "" {
				fes := fieldErrorsOrNone(err)
				if len(fes) != 1 || fes[0].Path != tt.fails || fes[0].Code != "required" {
					t.Errorf("Patch of %s: %v, want %s required", tt.patch, err, tt.fails)
				}
				return
			}
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			got, _ := o.Get(tt.key)
			if g, ok := got.(*entity.Object); ok {
				got = g.Map()
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s = %#v, want %#v", tt.key, got, tt.want)
			}
		})
	}
	t.Run("MakeRequest reads the same", func(t *testing.T) {
		body := `{"nick":"x","name":"x","name":null,"g":{"a":"9"},"g":{"b":"8"}}`
		made, err := e.MakeRequest(bindRequest("POST", "/", body))
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := made.Get("name"); v != nil {
			t.Errorf("MakeRequest: name = %v, want nil", v)
		}
		if g, _ := made.Get("g"); g.(*entity.Object).Map()["a"] != nil {
			t.Errorf("MakeRequest: g = %v, want the last object", g)
		}
	})
}

// TestPatchKeepsTheKeyOrderOfAnObject: an object merged into the JSON of a
// none field (which no entity orders) keeps the current value's keys in
// their places, a key the patch sets with its new value, and the patch's
// new keys follow in its order, a repeated one at its last place.
func TestPatchKeepsTheKeyOrderOfAnObject(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "doc", "meta", "none", "")
	tests := []struct{ name, current, patch, want string }{
		{"a new key", `{"meta":{"k":1}}`, `{"meta":{"a":"007"}}`, `{"meta":{"k":1,"a":"007"}}`},
		{"a key set and a key added", `{"meta":{"k":1,"m":2}}`, `{"meta":{"b":1,"m":3}}`, `{"meta":{"k":1,"m":3,"b":1}}`},
		{"a repeated key", `{"meta":{"k":1}}`, `{"meta":{"a":"x","b":1,"a":"y"}}`, `{"meta":{"k":1,"b":1,"a":"y"}}`},
		{"a key removed", `{"meta":{"k":1,"m":2,"n":{"x":1}}}`, `{"meta":{"m":null,"n":{"y":2}}}`, `{"meta":{"k":1,"n":{"x":1,"y":2}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(tt.patch), []byte(tt.current))
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if got := o.String(); got != tt.want {
				t.Errorf("merged = %s, want %s", got, tt.want)
			}
		})
	}
}
