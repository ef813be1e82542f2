package entity_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
)

// TestMerge: a merged $ref writes its entity's keys into the object
// around it, read from the field's own input.
func TestMerge(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "address", "street", "string", "", "city", "string", "req")
	expose(t, reg, "geo", "lat", "float", "", "lng", "float", "")
	expose(t, reg, "place", "addr", "$address", "merge", "pos", "$geo", "merge")
	e := expose(t, reg, "user",
		"name", "string", "",
		"addr", "$address", "merge",
		"meta", "{", "",
		"where", "$place", "merge",
		"meta", "}", "",
		"last", "number", "",
	)
	first := expose(t, reg, "first", "addr", "$address", "merge", "n", "number", "")
	tests := []struct {
		name string
		e    *entity.Entity
		in   map[string]any
		want string
	}{
		{"merged in the middle and nested", e, map[string]any{"name": "n", "addr": map[string]any{"street": "s", "city": "c"},
			"where": map[string]any{"addr": map[string]any{"city": "x"}, "pos": map[string]any{"lat": 1.5, "lng": 2}}, "last": 1},
			`{"name":"n","street":"s","city":"c","meta":{"street":null,"city":"x","lat":1.5,"lng":2},"last":1}`},
		{"absent: nothing merged", e, map[string]any{"name": "n", "last": 1}, `{"name":"n","meta":{},"last":1}`},
		{"a list is no object to merge", e, map[string]any{"addr": []any{map[string]any{"city": "c"}}}, `{"name":null,"meta":{},"last":null}`},
		{"a list's objects are neither made nor judged", e, map[string]any{"addr": []any{map[string]any{"street": "s"}, map[string]any{}}}, `{"name":null,"meta":{},"last":null}`},
		{"merged first", first, map[string]any{"addr": map[string]any{"city": "c"}, "n": 2}, `{"street":null,"city":"c","n":2}`},
		{"merged first, absent", first, map[string]any{"n": 2}, `{"n":2}`},
	}
	for _, tt := range tests {
		for form, in := range map[string]any{"map": tt.in, "raw JSON": []byte(marshal(t, tt.in))} {
			t.Run(tt.name+"/"+form, func(t *testing.T) {
				out, err := shapeAll(t, tt.e, in)
				if err != nil {
					t.Fatal(err)
				}
				if out != tt.want {
					t.Errorf("got  %s\nwant %s", out, tt.want)
				}
			})
		}
	}
	t.Run("errors name the input path, and the output path without the merged key", func(t *testing.T) {
		_, err := e.MakeJSON(map[string]any{"addr": map[string]any{"street": "s"}})
		fe := fieldErrors(t, err)
		if len(fe) != 1 || fe[0].Path != "addr.city" || fe[0].OutputPath != "city" || fe[0].Pointer != "/addr/city" {
			t.Errorf("got %+v", fe[0])
		}
	})
	for _, tt := range []struct {
		name string
		in   any
	}{
		{"an empty list", map[string]any{"addr": []any{}}},
		{"a list of objects", map[string]any{"addr": []any{map[string]any{"street": "s"}, map[string]any{}}}},
		{"a list of numbers", map[string]any{"addr": []any{1}}},
		{"a list of structs", map[string]any{"addr": []struct{ Street string }{{"s"}}}},
		{"a JSON array", []byte(`{"addr":[{"street":"s"},{}]}`)},
		{"a nil slice, an empty list to a $ref", map[string]any{"addr": []any(nil)}},
		{"a nil slice of structs", map[string]any{"addr": []struct{ Street string }(nil)}},
	} {
		t.Run("strict: a list is one type error: "+tt.name, func(t *testing.T) {
			_, err := e.MakeJSON(tt.in, entity.Strict())
			if fe := fieldErrors(t, err); len(fe) != 1 || fe[0].Code != "type" || fe[0].Path != "addr" || fe[0].Message != "must be an object, got an array" {
				t.Errorf("got %v", err)
			}
		})
	}
}

func TestMergeDeclarations(t *testing.T) {
	t.Run("a clash with the parent's key", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "address", "city", "string", "")
		_, err := reg.Expose("user", "city", "string", "", "addr", "$address", "merge")
		if err == nil || !strings.Contains(err.Error(), `merge: output key "city" is written by field "city" and by field "city" of $address (merged)`) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("a clash between two merges", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "a", "x", "string", "")
		expose(t, reg, "b", "x", "number", "")
		_, err := reg.Expose("c", "a", "$a", "merge", "b", "$b", "merge")
		if err == nil || !strings.Contains(err.Error(), `output key "x"`) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("forward: Check finds the clash", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "user", "city", "string", "", "addr", "$address", "merge")
		expose(t, reg, "address", "street", "string", "")
		if err := reg.Verify(); err != nil {
			t.Fatal(err)
		}
		// Re-exposing address with a clashing key is refused, and the
		// old address stays.
		_, err := reg.Expose("address", "city", "string", "")
		if err == nil || !strings.Contains(err.Error(), `if "address" were exposed as declared`) {
			t.Errorf("re-expose: %v", err)
		}
		if out, err := reg.Lookup("user").MakeJSON(map[string]any{"addr": map[string]any{"street": "s"}}); err != nil || string(out) != `{"city":null,"street":"s"}` {
			t.Errorf("got %s, %v", out, err)
		}
	})
	t.Run("a cycle", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "a", "x", "string", "", "b", "$b", "merge")
		_, err := reg.Expose("b", "y", "string", "", "a", "$a", "merge")
		if err == nil || !strings.Contains(err.Error(), "merge cycle: $b merges $a merges $b") {
			t.Errorf("got %v", err)
		}
		_, err = reg.Expose("self", "me", "$self", "merge")
		if err == nil || !strings.Contains(err.Error(), "merge cycle: $self merges $self") {
			t.Errorf("got %v", err)
		}
	})
}

// TestMergeSelect: a selection names merged keys where they are written.
func TestMergeSelect(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "address", "street", "string", "", "city", "string", "")
	e := expose(t, reg, "user", "name", "string", "", "addr", "$address", "merge", "n", "number", "")
	in := map[string]any{"name": "a", "addr": map[string]any{"street": "s", "city": "c"}, "n": 1}
	// A merge field named as a key its merged entity writes: the key is
	// the merged one.
	expose(t, reg, "kid", "kid", "string", "")
	expose(t, reg, "full", "fullName", "string", "")
	same := expose(t, reg, "same", "fullName", "$kid", "merge", "m", "$full", "merge")
	sameIn := map[string]any{"fullName": map[string]any{"kid": "K"}, "m": map[string]any{"fullName": "F"}}
	for _, tt := range []struct {
		name string
		e    *entity.Entity
		opt  entity.Option
		want string // the output, or "!" and the error's text
	}{
		{"a merged key", e, entity.Select("city"), `{"city":"c"}`},
		{"merged and own keys", e, entity.Select("n,street,name"), `{"name":"a","street":"s","n":1}`},
		{"Only", e, entity.Only("city", "n"), `{"city":"c","n":1}`},
		{"Except a merged key", e, entity.Except("street"), `{"name":"a","city":"c","n":1}`},
		{"Select of a merge field's name", e, entity.Select("addr"), `!no field here has that name (there are "name", "street", "city", "n")`},
		{"Only of a merge field's name", e, entity.Only("addr"), `!no "addr" here (there are "name", "street", "city", "n")`},
		{"Except of a merge field's name", e, entity.Except("addr"), `!no "addr" here (there are "name", "street", "city", "n")`},
		{"Select of a merged key a merge field is named", same, entity.Select("fullName"), `{"fullName":"F"}`},
		{"Only of a merged key a merge field is named", same, entity.Only("fullName"), `{"fullName":"F"}`},
		{"Except of a merged key a merge field is named", same, entity.Except("fullName"), `{"kid":"K"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := in
			if tt.e == same {
				v = sameIn
			}
			out, err := shapeAll(t, tt.e, v, tt.opt)
			if msg, ok := strings.CutPrefix(tt.want, "!"); ok {
				if err == nil || !strings.Contains(err.Error(), msg) {
					t.Errorf("got %s, %v; want an error with %s", out, err, msg)
				}
				return
			}
			if err != nil || out != tt.want {
				t.Errorf("got %s, %v; want %s", out, err, tt.want)
			}
		})
	}
}

// TestMergeLeftOutWhole: a merged entity whose every key the selection
// leaves out is not read: DenyUnknown does not judge its object.
func TestMergeLeftOutWhole(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "e1", "k", "string", "", "j", "string", "")
	expose(t, reg, "lazy", "k", "string", "lazy")
	e := expose(t, reg, "e0", "a", "string", "", "m", "$e1", "merge")
	lazy := expose(t, reg, "e2", "a", "string", "", "m", "$lazy", "merge")
	in := map[string]any{"a": "x", "m": map[string]any{"k": "y", "j": "w", "z": 1}}
	for _, tt := range []struct {
		name string
		e    *entity.Entity
		opt  entity.Option
		want string // the output, or "!" and the unknown keys' paths
	}{
		{"Except every merged key", e, entity.Except("k", "j"), `{"a":"x"}`},
		{"Select no merged key", e, entity.Select("a"), `{"a":"x"}`},
		{"Only no merged key", e, entity.Only("a"), `{"a":"x"}`},
		{"Except one merged key", e, entity.Except("k"), "!m.z"},
		{"Select a merged key", e, entity.Select("j"), "!m.z"},
		{"a merged entity of lazy fields only", lazy, entity.Except(), `{"a":"x"}`},
		{"a lazy field of it selected", lazy, entity.Select("a,k"), "!m.j m.z"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := tt.e.MakeJSON(in, tt.opt, entity.DenyUnknown())
			if paths, ok := strings.CutPrefix(tt.want, "!"); ok {
				var got []string
				for _, f := range fieldErrorsOrNone(err) {
					if f.Code == "unknown" {
						got = append(got, f.Path)
					}
				}
				slices.Sort(got)
				if strings.Join(got, " ") != paths {
					t.Errorf("got %s, %v; want %s unknown", out, err, paths)
				}
				return
			}
			if err != nil || string(out) != tt.want {
				t.Errorf("got %s, %v; want %s", out, err, tt.want)
			}
		})
	}
}

// TestMergeGet: Object.Get decodes a merged key as the merged entity's
// field declares it.
func TestMergeGet(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "geo", "lat", "float", "", "n", "number", "")
	expose(t, reg, "place", "pos", "$geo", "merge")
	e := expose(t, reg, "user", "name", "string", "", "where", "$place", "merge")
	o, err := e.Make(map[string]any{"name": "a", "where": map[string]any{"pos": map[string]any{"lat": 1.5, "n": 7}}})
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]any{"name": "a", "lat": 1.5, "n": int64(7)} {
		if got, ok := o.Get(key); !ok || got != want {
			t.Errorf("Get(%q) = %#v, %v; want %#v", key, got, ok, want)
		}
	}
}

// TestMergeFieldNamedAsAMergedKey: a merge field whose name is a key its
// merged entity writes writes no key of its own: the Object's member under
// that key is the merged entity's field's, for Get (a date of the
// referenced entity is a time.Time) and when the Object is made again.
func TestMergeFieldNamedAsAMergedKey(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "geo", "d", "date", "")
	expose(t, reg, "inner", "ab", "$geo", "", "n", "number", "")
	e := expose(t, reg, "outer", "ab", "$inner", "merge", "k", "string", "")
	o, err := e.Make(map[string]any{"ab": map[string]any{"ab": map[string]any{"d": 0}, "n": 7}, "k": "x"})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"ab":{"d":"1970-01-01T00:00:00Z"},"n":7,"k":"x"}`
	for _, tt := range []struct {
		name string
		got  func() (string, error)
	}{
		{"made", func() (string, error) { return o.String(), nil }},
		{"Get", func() (string, error) {
			v, _ := o.Get("ab")
			g, ok := v.(*entity.Object)
			if !ok {
				return fmt.Sprintf("%T", v), nil
			}
			d, _ := g.Get("d")
			if _, ok := d.(time.Time); !ok {
				return fmt.Sprintf("a date of %T", d), nil
			}
			return want, nil
		}},
		{"made again", func() (string, error) { b, err := e.MakeJSON(o, entity.Version("v1")); return string(b), err }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := tt.got(); err != nil || got != want {
				t.Errorf("got %s, %v; want %s", got, err, want)
			}
		})
	}
}

// TestMergeGetOfAVersionedKey: Object.Get decodes a merged key that the
// merged entity's fields share by version ranges as the field of the
// version the Object was made in.
func TestMergeGetOfAVersionedKey(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "x", "k", "string", "")
	expose(t, reg, "m", "amount", "string", "until 'v2'", "amount", "$x", "since 'v2'")
	e := expose(t, reg, "e", "mm", "$m", "merge")
	for _, tt := range []struct {
		name    string
		opts    []entity.Option
		in      any
		wantGet string // the Go type Get gives
	}{
		{"the latest", nil, map[string]any{"k": "v"}, "*entity.Object"},
		{"a version of the object", []entity.Option{entity.Version("v2")}, map[string]any{"k": "v"}, "*entity.Object"},
		{"a version of the string", []entity.Option{entity.Version("v1")}, "s", "string"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, err := e.Make(map[string]any{"mm": map[string]any{"amount": tt.in}}, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			v, _ := o.Get("amount")
			if got := fmt.Sprintf("%T", v); got != tt.wantGet {
				t.Errorf("Get gives %s (%v), want %s", got, v, tt.wantGet)
			}
		})
	}
}

// TestMergeRefusesKeySharedByVersions: fields may share a key by disjoint
// version ranges within one entity, never with a merged entity's key nor
// across two merged entities: Expose or Verify refuses it, whatever the
// order of the fields and of the Exposes.
func TestMergeRefusesKeySharedByVersions(t *testing.T) {
	versioned := []string{"x", "string", "until 'v2'", "x", "number", "since 'v2'"}
	for _, tt := range []struct {
		name  string
		decls [][]string // name, then triples; exposed in order
	}{
		{"the merge after the versioned key", [][]string{
			{"m", "x", "string", ""},
			append(append([]string{"e"}, versioned...), "ref", "$m", "merge"),
		}},
		{"the merge before the versioned key", [][]string{
			{"m", "x", "string", ""},
			append([]string{"e", "ref", "$m", "merge"}, versioned...),
		}},
		{"two merged entities with versioned keys", [][]string{
			append([]string{"a"}, versioned...),
			append([]string{"b"}, versioned...),
			{"e", "ra", "$a", "merge", "rb", "$b", "merge"},
		}},
		{"the merged entity exposed after", [][]string{
			append([]string{"e", "ref", "$m", "merge"}, versioned...),
			{"m", "x", "string", ""},
		}},
		{"the merged entity exposed after, merge last", [][]string{
			append(append([]string{"e"}, versioned...), "ref", "$m", "merge"),
			{"m", "x", "string", ""},
		}},
		{"the merged entity with versioned keys exposed after", [][]string{
			{"e", "x", "string", "", "ref", "$m", "merge"},
			append([]string{"m"}, versioned...),
		}},
		{"merged twice through another entity", [][]string{
			append([]string{"a"}, versioned...),
			{"b", "ra", "$a", "merge"},
			{"e", "ra", "$a", "merge", "rb", "$b", "merge"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			var err error
			for _, d := range tt.decls {
				if _, err = reg.Expose(d[0], d[1:]...); err != nil {
					break
				}
			}
			if err == nil {
				err = reg.Verify()
			}
			if err == nil || !strings.Contains(err.Error(), `merge: output key "x" is written by`) {
				t.Fatalf("got %v, want the key written twice", err)
			}
		})
	}
	t.Run("versioned keys in the merged entity alone are fine", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "m", versioned...)
		e := expose(t, reg, "e", "n", "string", "", "ref", "$m", "merge")
		if err := reg.Verify(); err != nil {
			t.Fatal(err)
		}
		for v, want := range map[string]string{"v1": `{"n":"a","x":"7"}`, "v3": `{"n":"a","x":7}`} {
			if out, err := e.MakeJSON(map[string]any{"n": "a", "ref": map[string]any{"x": 7}}, entity.Version(v)); err != nil || string(out) != want {
				t.Errorf("%s: got %s, %v; want %s", v, out, err, want)
			}
		}
	})
}
