package entity_test

import (
	"database/sql/driver"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestFrom: a field reads its value at a path of the input, from every
// input kind; a $ref reads the object there; a group moves the level its
// fields are read from.
func TestFrom(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "city", "name", "string", "", "zip", "string", "")
	e := expose(t, reg, "user",
		"id", "number", "from 'user.id'",
		"first", "string", "from 'user.names.0'",
		"dotted", "string", `from 'a\.b'`,
		"city", "$city", "from 'user.address.city'",
		"geo", "{", "from 'user.address.geo'",
		"lat", "float", "",
		"lng", "float", "req",
		"geo", "}", "",
		"missing", "string", "from 'user.nope.deeper'",
		"scalar", "string", "from 'user.id.x'",
	)
	type geo struct {
		Lat float64 `json:"lat"`
		Lng float64 `json:"lng"`
	}
	type city struct {
		Name string `json:"name"`
		Zip  string `json:"zip"`
	}
	type address struct {
		City city `json:"city"`
		Geo  *geo `json:"geo"`
	}
	type user struct {
		ID      int      `json:"id"`
		Names   []string `json:"names"`
		Address address  `json:"address"`
	}
	type input struct {
		User user   `json:"user"`
		AB   string `json:"a.b"`
	}
	in := input{User: user{ID: 7, Names: []string{"Ann", "Lee"}, Address: address{City: city{Name: "Kyoto", Zip: "600"}, Geo: &geo{Lat: 35.0, Lng: 135.7}}}, AB: "dot"}
	js, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	want := `{"id":7,"first":"Ann","dotted":"dot","city":{"name":"Kyoto","zip":"600"},"geo":{"lat":35,"lng":135.7},"missing":null,"scalar":null}`
	for form, v := range map[string]any{"struct": in, "pointer": &in, "map": m, "raw JSON": js} {
		t.Run(form, func(t *testing.T) {
			out, err := shapeAll(t, e, v)
			if err != nil {
				t.Fatal(err)
			}
			if out != want {
				t.Errorf("got  %s\nwant %s", out, want)
			}
		})
	}
	t.Run("errors name the path read", func(t *testing.T) {
		_, err := e.MakeJSON(map[string]any{"user": map[string]any{"address": map[string]any{"geo": map[string]any{"lat": 1}}}})
		fe := fieldErrors(t, err)
		if len(fe) != 1 || fe[0].Path != "user.address.geo.lng" || fe[0].OutputPath != "geo.lng" || fe[0].Pointer != "/user/address/geo/lng" {
			t.Errorf("got %+v", fe)
		}
		e2 := expose(t, reg, "req", "x", "number", "req | from 'a.list.1'")
		_, err = e2.MakeJSON(map[string]any{})
		fe = fieldErrors(t, err)
		if len(fe) != 1 || fe[0].Path != "a.list[1]" || fe[0].OutputPath != "x" || fe[0].Pointer != "/a/list/1" {
			t.Errorf("got %+v", fe)
		}
	})
	t.Run("through an unexported embedded struct a tag names", func(t *testing.T) {
		e4 := expose(t, reg, "emb", "pet", "string", "from 'o.pet.name'", "v", "string", "from 'o.v'", "n", "string", "from 'o.pet'")
		type outer struct {
			stPetTagged   `json:"pet"`
			fromLowValuer `json:"v"` // read through its Value
		}
		o := outer{stPetTagged{Name: "rex"}, fromLowValuer{"val"}}
		want := `{"pet":"rex","v":"val","n":null}`
		// In a map, as a value and by pointer (a struct's field of type
		// outer would be read through the Value that outer gets from its
		// embedded field, as a driver.Valuer).
		for form, v := range map[string]any{"a struct": map[string]any{"o": o}, "a pointer": map[string]any{"o": &o}} {
			if out, err := e4.MakeJSON(v); err != nil || string(out) != want {
				t.Errorf("%s: got %s, %v, want %s", form, out, err, want)
			}
		}
	})
	t.Run("the declared name is no input key", func(t *testing.T) {
		e3 := expose(t, reg, "dn", "x", "number", "from 'y'")
		if out, err := e3.MakeJSON(map[string]any{"x": 1, "y": 2}); err != nil || string(out) != `{"x":2}` {
			t.Errorf("got %s, %v", out, err)
		}
		_, err := e3.MakeJSON(map[string]any{"x": 1, "y": 2}, entity.DenyUnknown())
		if fe := fieldErrors(t, err); len(fe) != 1 || fe[0].Path != "x" || fe[0].Code != "unknown" {
			t.Errorf("got %v", err)
		}
	})
}

// fromLowValuer is a driver.Valuer of an unexported type, embedded under
// a tag in TestFrom.
type fromLowValuer struct{ s string }

func (v fromLowValuer) Value() (driver.Value, error) { return v.s, nil }

func TestFromDeclarations(t *testing.T) {
	for _, tt := range []struct {
		name, rules, err string
	}{
		{"empty step", "from 'a..b'", "has an empty step"},
		{"no path", "from", `rule "from" takes one argument`},
		{"empty path", "from ''", "has an empty step"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := entity.NewRegistry().Expose("e", "x", "string", tt.rules)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("got %v, want %q", err, tt.err)
			}
		})
	}
}

// TestFromRequest: a request's JSON body is read at the path, strictly.
func TestFromRequest(t *testing.T) {
	// from says where server data is read; a request reads the wire form,
	// the key a response writes.
	e := expose(t, entity.NewRegistry(), "r", "id", "number", "req | from 'user.id'", "tag", "string", "from 'tags.1'")
	for _, tt := range []struct {
		name, body, want, fail string
	}{
		{"read under the wire key", `{"id":7,"tag":"b","user":{"id":8}}`, `{"id":7,"tag":"b"}`, ""},
		{"not at the from path", `{"user":{"id":7},"tags":["a","b"]}`, "", "id required"},
		{"strict under the wire key", `{"id":"x"}`, "", "id type"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			o, err := e.MakeRequest(req)
			if tt.fail != "" {
				fe := fieldErrors(t, err)
				if len(fe) != 1 || fe[0].Path+" "+fe[0].Code != tt.fail {
					t.Errorf("got %v, want %s", err, tt.fail)
				}
				return
			}
			if err != nil || o.String() != tt.want {
				t.Errorf("got %v, %v; want %s", o, err, tt.want)
			}
		})
	}
}

// TestFromListErrors: the error of a list's element read at a from path is
// at the path read and the element's index, once (a.b[0]), and at the
// list's output key and the index (t[0]).
func TestFromListErrors(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "k", "k", "string", "req")
	for _, tt := range []struct {
		name, typ, rules string
		in               any
		strict           bool
		want             string // path, pointer, output path and code of the one error
	}{
		{"a typed list's element check", "[]string", "from 'a.b' | each 'min 3'",
			map[string]any{"a": map[string]any{"b": []any{"x"}}}, false, "a.b[0] /a/b/0 t[0] min"},
		{"a typed list's element that does not convert", "[]number", "from 'a.b'",
			map[string]any{"a": map[string]any{"b": []any{"x"}}}, true, "a.b[0] /a/b/0 t[0] type"},
		{"a typed list read from raw JSON", "[]string", "from 'a.b' | each 'min 3'",
			[]byte(`{"a":{"b":["ok!","x"]}}`), false, "a.b[1] /a/b/1 t[1] min"},
		{"an element of a []$x that is no object", "[]$k", "from 'a.b'",
			map[string]any{"a": map[string]any{"b": []any{7}}}, true, "a.b[0] /a/b/0 t[0] type"},
		{"a field of an element of a []$x", "[]$k", "from 'a.b'",
			map[string]any{"a": map[string]any{"b": []any{map[string]any{}}}}, false, "a.b[0].k /a/b/0/k t[0].k required"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := expose(t, reg, "e", "t", tt.typ, tt.rules)
			var opts []entity.Option
			if tt.strict {
				opts = append(opts, entity.Strict())
			}
			_, err := e.MakeJSON(tt.in, opts...)
			fe := fieldErrors(t, err)
			if len(fe) != 1 {
				t.Fatalf("got %v, want one error", err)
			}
			if got := fe[0].Path + " " + fe[0].Pointer + " " + fe[0].OutputPath + " " + fe[0].Code; got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestFromRawJSONDuplicates: a from path into raw JSON reads the last of
// duplicate keys at every step, as a field under its name does.
func TestFromRawJSONDuplicates(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "e", "n", "string", "from 'meta.n'", "d", "string", "from 'a.b.c'", "i", "string", "from 'l.1'")
	for _, tt := range []struct {
		name, in, want string
	}{
		{"at the first step", `{"meta":{"n":"a"},"meta":{"n":"b"}}`, `{"n":"b","d":null,"i":null}`},
		{"past the first step", `{"meta":{"n":"a","n":"b"}}`, `{"n":"b","d":null,"i":null}`},
		{"deeper", `{"a":{"b":{"c":"x"},"b":{"c":"y","c":"z"}}}`, `{"n":null,"d":"z","i":null}`},
		{"the last is null", `{"meta":{"n":"a","n":null}}`, `{"n":null,"d":null,"i":null}`},
		{"the last is no object", `{"a":{"b":{"c":"x"},"b":1}}`, `{"n":null,"d":null,"i":null}`},
		{"an index", `{"l":["a","b","c"]}`, `{"n":null,"d":null,"i":"b"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := e.MakeJSON([]byte(tt.in))
			if err != nil || string(out) != tt.want {
				t.Errorf("got %s, %v; want %s", out, err, tt.want)
			}
		})
	}
}

// TestFromGoSteps: a number step of a from path goes into a Go list, not
// into a []byte, which is text.
func TestFromGoSteps(t *testing.T) {
	type bytes []byte
	e := expose(t, entity.NewRegistry(), "e", "n", "number", "from 'b.1'")
	for _, tt := range []struct {
		name string
		b    any
		want string
	}{
		{"a []byte", []byte("07"), `{"n":null}`},
		{"a named []byte", bytes("07"), `{"n":null}`},
		{"a pointer to a []byte", func() *[]byte { b := []byte("07"); return &b }(), `{"n":null}`},
		{"a []int", []int{0, 7}, `{"n":7}`},
		{"an array", [2]int{0, 7}, `{"n":7}`},
		{"a []any", []any{0, "7"}, `{"n":7}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := e.MakeJSON(map[string]any{"b": tt.b})
			if err != nil || string(out) != tt.want {
				t.Errorf("got %s, %v; want %s", out, err, tt.want)
			}
		})
	}
}

// TestFromObjectMadeAgain: an Object of the entity, made again (under
// shaping options, or strictly), holds a from field's value under its key,
// where it was written, and is read there: a value, a typed list and a
// reference alike.
func TestFromObjectMadeAgain(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "city", "name", "string", "")
	e := expose(t, reg, "e",
		"n", "string", "from 'a.b'",
		"tags", "[]string", "from 'a.t'",
		"city", "$city", "from 'a.c'",
		"g", "{", "from 'a'",
		"b", "string", "",
		"g", "}", "",
	)
	o, err := e.Make(map[string]any{"a": map[string]any{"b": "y", "t": []any{"x"}, "c": map[string]any{"name": "K"}}})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"n":"y","tags":["x"],"city":{"name":"K"},"g":{"b":"y"}}`
	if o.String() != want {
		t.Fatalf("made %s, want %s", o, want)
	}
	for _, tt := range []struct {
		name string
		opts []entity.Option
		want string
	}{
		{"a version", []entity.Option{entity.Version("v1")}, want},
		{"a selection", []entity.Option{entity.Select("n,tags,city")}, `{"n":"y","tags":["x"],"city":{"name":"K"}}`},
		{"strictly", []entity.Option{entity.Strict()}, want},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := e.MakeJSON(o, tt.opts...); err != nil || string(got) != tt.want {
				t.Errorf("got %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}

// TestFromObjectMadeAgainErrors: the error of a from field of an Object
// made again is at the key it was read under.
func TestFromObjectMadeAgainErrors(t *testing.T) {
	reg := entity.NewRegistry(entity.KeyCase(entity.CamelCase))
	expose(t, reg, "city", "name", "string", "", "zip", "string", "since 'v2' | req")
	e := expose(t, reg, "e",
		"the_name", "string", "until 'v2' | from 'a.b'",
		"the_name", "string", "since 'v2' | from 'a.b' | min 3",
		"n", "string", "until 'v2' | from 'a.n' | rename 'label'",
		"n", "string", "since 'v2' | from 'a.n' | rename 'label' | min 3",
		"home", "$city", "from 'a.c'",
	)
	o, err := e.Make(map[string]any{"a": map[string]any{"b": "y", "n": "z", "c": map[string]any{"name": "K"}}}, entity.Version("v1"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.MakeJSON(o, entity.Version("v2"))
	var got []string
	for _, f := range fieldErrors(t, err) {
		got = append(got, f.Path+" "+f.Pointer+" "+f.OutputPath+" "+f.Code)
	}
	for _, want := range []string{
		"theName /theName theName min",
		"label /label label min",
		"home.zip /home/zip home.zip required",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("got %q, want %q among them", got, want)
		}
	}
	if len(got) != 3 {
		t.Errorf("got %q, want three errors", got)
	}
}

// TestFromNumberStepPaths: a number step of a from path names, in an
// error's path, the key it read of an object (a.0.b) and the index it read
// of a list (a[0].b), in every input kind, for a value, a reference's
// fields and a typed list's elements.
func TestFromNumberStepPaths(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "k", "k", "string", "req")
	for _, tt := range []struct {
		name, typ, rules string
		in               any
		want             string // path and pointer of the one error
	}{
		{"an object's key", "string", "from 'a.0.b' | min 3", map[string]any{"a": map[string]any{"0": map[string]any{"b": "x"}}}, "a.0.b /a/0/b"},
		{"a list's index", "string", "from 'a.0.b' | min 3", map[string]any{"a": []any{map[string]any{"b": "x"}}}, "a[0].b /a/0/b"},
		{"an object's key in raw JSON", "string", "from 'a.0.b' | min 3", []byte(`{"a":{"0":{"b":"x"}}}`), "a.0.b /a/0/b"},
		{"a list's index in raw JSON", "string", "from 'a.0.b' | min 3", []byte(`{"a":[{"b":"x"}]}`), "a[0].b /a/0/b"},
		{"nothing there", "string", "from 'a.0.b' | req", map[string]any{}, "a[0].b /a/0/b"},
		{"a reference's field", "$k", "from 'a.1'", map[string]any{"a": map[string]any{"1": map[string]any{}}}, "a.1.k /a/1/k"},
		{"a typed list's element", "[]string", "from 'a.1' | each 'min 3'", map[string]any{"a": map[string]any{"1": []any{"x"}}}, "a.1[0] /a/1/0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := expose(t, reg, "e", "v", tt.typ, tt.rules)
			_, err := e.MakeJSON(tt.in)
			fs := fieldErrors(t, err)
			if len(fs) != 1 || fs[0].Path+" "+fs[0].Pointer != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}
