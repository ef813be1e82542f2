package entity_test

import (
	"bytes"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
)

// Struct input: fields are found as encoding/json finds them when it
// encodes (json tag name, else Go name; embedded structs flattened; the
// shallowest field wins, then a lone tagged one; ambiguous names dropped;
// `json:"-"` and unexported fields never read, but an embedded struct a tag
// names, which is a field of that name), and driver.Valuer fields are
// read through Value.

// Exported types, so that embedding them gives exported embedded fields.
type (
	StPet struct {
		Name string `json:"name"`
		Kind string `json:"kind"`
	}
	StBase struct {
		ID      int64     `json:"id"`
		Created time.Time `json:"created"`
	}
	StNamed struct {
		Name string `json:"name"`
	}
	StTagNick struct {
		Alias string `json:"Nick"`
	}
	StTagNick2 struct {
		Other string `json:"Nick"`
	}
	StPlainNick struct {
		Nick string
	}
	StPlainNick2 struct {
		Nick string
	}
	StViaA struct{ StBase }
	StViaB struct{ StBase }
	StDeep struct{ StViaA }
)

// stHidden is embedded as an unexported embedded field: encoding/json
// still flattens its exported fields.
type stHidden struct {
	Mail string    `json:"mail"`
	Born time.Time `json:"born"`
	Pet  *StPet    `json:"pet"`
	Pets []StPet   `json:"pets"`
}

// stPetTagged is embedded under a json tag as an unexported embedded
// field: encoding/json makes it a field of that name.
type stPetTagged struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// Named types of every kind the person entity reads.
type (
	stAge   int
	stName  string
	stScore float32
	stFlag  bool
	stPets  []StPet
)

// stCents is a driver.Valuer (value receiver) read as a float.
type stCents int64

func (c stCents) Value() (driver.Value, error) { return float64(c) / 100, nil }

// stPtrValuer is a driver.Valuer with a pointer receiver.
type stPtrValuer struct{ s string }

func (p *stPtrValuer) Value() (driver.Value, error) { return "v:" + p.s, nil }

// stTree is a recursive struct type for a recursive entity.
type stTree struct {
	Name     string    `json:"name"`
	Children []*stTree `json:"children"`
}

// stLoop embeds a pointer to itself: finding its fields must end.
type stLoop struct {
	*stLoop
	Name string `json:"name"`
}

// stRegistry declares the entities struct inputs are made with.
func stRegistry(t testing.TB) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry()
	expose(t, reg, "pet",
		"name", "string", "req | min 1",
		"kind", "string", "default 'cat'",
	)
	expose(t, reg, "person",
		"name", "string", "",
		"Nick", "string", "",
		"age", "number", "range 0 150",
		"score", "float", "",
		"active", "bool", "",
		"born", "date", "",
		"id", "number", "",
		"created", "date", "",
		"mail", "string", "email",
		"Secret", "string", "",
		"-", "string", "",
		"hidden", "string", "",
		"pet", "$pet", "",
		"pets", "$pet", "",
	)
	expose(t, reg, "tree", "name", "string", "", "children", "$tree", "")
	if err := reg.Verify(); err != nil {
		t.Fatal(err)
	}
	return reg
}

// stNulls is the person entity's output for an empty input, with fields
// set by name: stOut("name", `"x"`) is {"name":"x", every other key null}.
func stOut(kv ...string) string {
	keys := []string{"name", "Nick", "age", "score", "active", "born", "id", "created", "mail", "Secret", "-", "hidden", "pet", "pets"}
	vals := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		vals[kv[i]] = kv[i+1]
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		v, ok := vals[k]
		if !ok {
			v = "null"
		}
		fmt.Fprintf(&b, "%q:%s", k, v)
	}
	b.WriteByte('}')
	return b.String()
}

// stRoundTrip is encoding/json's view of v: v marshaled, then decoded into
// a map. A struct input must give what that map gives.
func stRoundTrip(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("json.Unmarshal(%s): %v", b, err)
	}
	return m
}

func stPtr[T any](v T) *T { return &v }

var (
	stT1 = time.Date(2020, 1, 2, 3, 4, 5, 0, time.FixedZone("JST", 9*3600))
	stT2 = time.Date(1999, 12, 31, 23, 59, 59, 500, time.UTC)
)

func TestStructInput(t *testing.T) {
	reg := stRegistry(t)
	e := reg.Lookup("person")
	cases := []struct {
		name string
		in   any
		want string
		// eq, when set, is a map input that must give the same bytes.
		eq map[string]any
		// notJSON skips the encoding/json round-trip oracle: the field is
		// read through driver.Valuer, which encoding/json does not use.
		notJSON bool
	}{
		{name: "json tag names",
			in: struct {
				Name   string  `json:"name"`
				Age    int     `json:"age,omitempty"`
				Score  float64 `json:"score"`
				Active bool    `json:"active"`
			}{"Ann", 30, 1.5, true},
			want: stOut("name", `"Ann"`, "age", "30", "score", "1.5", "active", "true"),
			eq:   map[string]any{"name": "Ann", "age": 30, "score": 1.5, "active": true}},
		{name: "Go field names when untagged",
			in:   struct{ Nick, Secret string }{"nn", "ss"},
			want: stOut("Nick", `"nn"`, "Secret", `"ss"`),
			eq:   map[string]any{"Nick": "nn", "Secret": "ss"}},
		{name: "a tag with options only keeps the Go name",
			in: struct {
				Nick string `json:",omitempty"`
			}{"nn"},
			want: stOut("Nick", `"nn"`)},
		{name: "the Go name is matched exactly, not folded",
			in:   struct{ Name, NICK string }{"n", "x"},
			want: stOut()},
		{name: `json:"-" is never read`,
			in: struct {
				Secret string `json:"-"`
				Name   string `json:"name"`
			}{"s3cr3t", "n"},
			want: stOut("name", `"n"`)},
		{name: `json:"-," names the field "-"`,
			in: struct {
				//lint:ignore SA5008 the tag encoding/json reads as the name "-", on purpose
				Dash string `json:"-,"`
			}{"d"},
			want: stOut("-", `"d"`)},
		{name: "unexported fields are ignored, tagged or not",
			in: struct {
				hidden string
				name   string
				Nick   string
			}{"h", "n", "k"},
			want: stOut("Nick", `"k"`)},
		{name: "embedded struct flattened",
			in: struct {
				StBase
				Name string `json:"name"`
			}{StBase{7, stT1}, "n"},
			want: stOut("name", `"n"`, "id", "7", "created", `"2020-01-01T18:04:05Z"`),
			eq:   map[string]any{"name": "n", "id": 7, "created": stT1}},
		{name: "pointer-embedded struct flattened",
			in: struct {
				*StBase
				Name string `json:"name"`
			}{&StBase{ID: 8}, "n"},
			want: stOut("name", `"n"`, "id", "8", "created", `"0001-01-01T00:00:00Z"`)},
		{name: "nil embedded pointer: its fields are absent",
			in: struct {
				*StBase
				Name string `json:"name"`
			}{nil, "n"},
			want: stOut("name", `"n"`),
			eq:   map[string]any{"name": "n"}},
		{name: "embedded struct of an unexported type",
			in: struct{ stHidden }{stHidden{Mail: "a@b.co", Born: stT2, Pet: &StPet{Name: "rex"}, Pets: []StPet{{Name: "a"}, {Name: "b", Kind: "dog"}}}},
			want: stOut("born", `"1999-12-31T23:59:59.0000005Z"`, "mail", `"a@b.co"`,
				"pet", `{"name":"rex","kind":""}`, "pets", `[{"name":"a","kind":""},{"name":"b","kind":"dog"}]`)},
		{name: "pointer-embedded struct of an unexported type",
			in:   struct{ *stHidden }{&stHidden{Mail: "a@b.co"}},
			want: stOut("born", `"0001-01-01T00:00:00Z"`, "mail", `"a@b.co"`, "pets", `[]`),
			// Its nil Pets is an empty list to a reference; encoding/json
			// writes it null.
			notJSON: true},
		{name: "embedded struct with a tag is a field, not flattened",
			in: struct {
				StPet `json:"pet"`
			}{StPet{Name: "rex"}},
			want: stOut("pet", `{"name":"rex","kind":""}`)},
		{name: "embedded struct of an unexported type with a tag is a field",
			in: struct {
				stPetTagged `json:"pet"`
			}{stPetTagged{Name: "rex", Kind: "dog"}},
			want: stOut("pet", `{"name":"rex","kind":"dog"}`)},
		{name: "pointer-embedded struct of an unexported type with a tag is a field",
			in: struct {
				*stPetTagged `json:"pet"`
				Name         string `json:"name"`
			}{&stPetTagged{Name: "rex"}, "n"},
			want: stOut("name", `"n"`, "pet", `{"name":"rex","kind":""}`)},
		{name: "deeply embedded",
			in:   struct{ StDeep }{StDeep{StViaA{StBase{ID: 3}}}},
			want: stOut("id", "3", "created", `"0001-01-01T00:00:00Z"`)},
		{name: "conflict: the shallower field wins",
			in: struct {
				StNamed
				Name string `json:"name"`
			}{StNamed{"deep"}, "shallow"},
			want: stOut("name", `"shallow"`)},
		{name: "conflict: a shallower untagged field beats a deeper tagged one",
			in: struct {
				StTagNick
				Nick string
			}{StTagNick{"deep"}, "shallow"},
			want: stOut("Nick", `"shallow"`)},
		{name: "conflict: the tagged field wins at the same depth",
			in: struct {
				StPlainNick
				StTagNick
			}{StPlainNick{"plain"}, StTagNick{"tagged"}},
			want: stOut("Nick", `"tagged"`)},
		{name: "conflict: two tagged at the same depth, dropped",
			in:   stEmbed(StTagNick{"a"}, StTagNick2{"b"}),
			want: stOut()},
		{name: "conflict: two untagged at the same depth, dropped",
			in: struct {
				StPlainNick
				StPlainNick2
			}{StPlainNick{"a"}, StPlainNick2{"b"}},
			want: stOut()},
		{name: "conflict: one embedded type reached twice at the same depth, dropped",
			in:   stEmbed(StViaA{StBase{ID: 1}}, StViaB{StBase{ID: 2}}),
			want: stOut()},
		{name: "a tag name encoding/json finds invalid falls back to the Go name",
			in: struct {
				//lint:ignore SA5008 a tag name encoding/json finds invalid, on purpose
				Nick string `json:"it's"`
			}{"n"},
			want: stOut("Nick", `"n"`)},
		{name: "pointer fields",
			in: struct {
				Name *string `json:"name"`
				Age  *int    `json:"age"`
				Nick **string
			}{stPtr("n"), stPtr(40), stPtr(stPtr("k"))},
			want: stOut("name", `"n"`, "Nick", `"k"`, "age", "40"),
			eq:   map[string]any{"name": "n", "Nick": "k", "age": 40}},
		{name: "nil pointer fields are null",
			in: struct {
				Name *string    `json:"name"`
				Born *time.Time `json:"born"`
				Pet  *StPet     `json:"pet"`
				Pets *[]StPet   `json:"pets"`
				Nick any
			}{},
			want: stOut(),
			eq:   map[string]any{"name": nil, "born": nil, "pet": nil, "pets": nil, "Nick": nil}},
		{name: "an interface holding a nil pointer is null",
			in: struct {
				Name any `json:"name"`
				Pet  any `json:"pet"`
			}{(*string)(nil), (*StPet)(nil)},
			want: stOut()},
		{name: "nested struct for a $ref object",
			in: struct {
				Pet StPet `json:"pet"`
			}{StPet{Name: "rex", Kind: "dog"}},
			want: stOut("pet", `{"name":"rex","kind":"dog"}`),
			eq:   map[string]any{"pet": map[string]any{"name": "rex", "kind": "dog"}}},
		{name: "pointer to a struct for a $ref object",
			in: struct {
				Pet *StPet `json:"pet"`
			}{&StPet{Name: "rex"}},
			want: stOut("pet", `{"name":"rex","kind":""}`)},
		{name: "struct in an interface for a $ref object",
			in: struct {
				Pet any `json:"pet"`
			}{StPet{Name: "rex"}},
			want: stOut("pet", `{"name":"rex","kind":""}`)},
		{name: "slice of structs for a $ref list",
			in: struct {
				Pets []StPet `json:"pets"`
			}{[]StPet{{Name: "a"}, {Name: "b", Kind: "dog"}}},
			want: stOut("pets", `[{"name":"a","kind":""},{"name":"b","kind":"dog"}]`),
			eq:   map[string]any{"pets": []any{map[string]any{"name": "a", "kind": ""}, map[string]any{"name": "b", "kind": "dog"}}}},
		{name: "slice of pointers for a $ref list, nil elements skipped",
			in: struct {
				Pets []*StPet `json:"pets"`
			}{[]*StPet{nil, {Name: "a"}, nil, {Name: "b"}}},
			want: stOut("pets", `[{"name":"a","kind":""},{"name":"b","kind":""}]`),
			eq:   map[string]any{"pets": []any{nil, map[string]any{"name": "a", "kind": ""}, nil, map[string]any{"name": "b", "kind": ""}}}},
		{name: "array of structs and a named slice type",
			in: struct {
				Pets stPets   `json:"pets"`
				Pet  [1]StPet `json:"pet"`
			}{stPets{{Name: "a"}}, [1]StPet{{Name: "b"}}},
			want: stOut("pet", `[{"name":"b","kind":""}]`, "pets", `[{"name":"a","kind":""}]`)},
		{name: "mixed list: structs, maps, scalars",
			in: struct {
				Pets []any `json:"pets"`
			}{[]any{StPet{Name: "a"}, 3, &StPet{Name: "b"}, map[string]any{"name": "c"}, nil}},
			want: stOut("pets", `[{"name":"a","kind":""},{"name":"b","kind":""},{"name":"c","kind":"cat"}]`)},
		{name: "empty and nil slices are empty lists to a reference",
			in: struct {
				Pets []StPet `json:"pets"`
				Pet  []StPet `json:"pet"`
			}{[]StPet{}, nil},
			want: stOut("pets", `[]`, "pet", `[]`),
			eq:   map[string]any{"pets": []StPet{}, "pet": []StPet(nil)},
			// encoding/json writes the nil slice null.
			notJSON: true},
		{name: "sql.Null* valid",
			in: struct {
				Name   sql.NullString  `json:"name"`
				Age    sql.NullInt64   `json:"age"`
				Score  sql.NullFloat64 `json:"score"`
				Active sql.NullBool    `json:"active"`
				Born   sql.NullTime    `json:"born"`
				Nick   sql.NullInt32
			}{sql.NullString{String: "n", Valid: true}, sql.NullInt64{Int64: 42, Valid: true},
				sql.NullFloat64{Float64: 0.25, Valid: true}, sql.NullBool{Bool: true, Valid: true},
				sql.NullTime{Time: stT1, Valid: true}, sql.NullInt32{Int32: 7, Valid: true}},
			want:    stOut("name", `"n"`, "Nick", `"7"`, "age", "42", "score", "0.25", "active", "true", "born", `"2020-01-01T18:04:05Z"`),
			eq:      map[string]any{"name": "n", "age": int64(42), "score": 0.25, "active": true, "born": stT1, "Nick": int64(7)},
			notJSON: true},
		{name: "sql.Null* invalid are null",
			in: struct {
				Name   sql.NullString  `json:"name"`
				Age    sql.NullInt64   `json:"age"`
				Score  sql.NullFloat64 `json:"score"`
				Active sql.NullBool    `json:"active"`
				Born   sql.NullTime    `json:"born"`
				Nick   *sql.NullString
			}{Name: sql.NullString{String: "ignored"}, Age: sql.NullInt64{Int64: 42}},
			want:    stOut(),
			notJSON: true},
		{name: "pointer to a valid sql.NullString",
			in: struct {
				Nick *sql.NullString
			}{&sql.NullString{String: "k", Valid: true}},
			want:    stOut("Nick", `"k"`),
			notJSON: true},
		{name: "sql.Null[T]",
			in: struct {
				Name sql.Null[string] `json:"name"`
				Age  sql.Null[int64]  `json:"age"`
			}{sql.Null[string]{V: "g", Valid: true}, sql.Null[int64]{}},
			want:    stOut("name", `"g"`),
			notJSON: true},
		{name: "custom driver.Valuer",
			in: struct {
				Score stCents `json:"score"`
			}{Score: 1234},
			want:    stOut("score", "12.34"),
			notJSON: true},
		{name: "driver.Valuer with a pointer receiver, struct given by pointer",
			in: &struct {
				Name stPtrValuer `json:"name"`
			}{stPtrValuer{"x"}},
			want:    stOut("name", `"v:x"`),
			notJSON: true},
		{name: "time.Time fields",
			in: struct {
				Born    time.Time `json:"born"`
				Created time.Time `json:"created"`
				Name    time.Time `json:"name"`
			}{stT1, time.Time{}, stT2},
			want: stOut("name", `"1999-12-31T23:59:59.0000005Z"`, "born", `"2020-01-01T18:04:05Z"`, "created", `"0001-01-01T00:00:00Z"`),
			eq:   map[string]any{"born": stT1, "created": time.Time{}, "name": stT2}},
		{name: "named types",
			in: struct {
				Name   stName  `json:"name"`
				Age    stAge   `json:"age"`
				Score  stScore `json:"score"`
				Active stFlag  `json:"active"`
			}{"n", 33, 0.1, true},
			want: stOut("name", `"n"`, "age", "33", "score", "0.1", "active", "true"),
			eq:   map[string]any{"name": "n", "age": 33, "score": 0.1, "active": true}},
		{name: "numbers of every size",
			in: struct {
				Age   uint8   `json:"age"`
				ID    uint64  `json:"id"`
				Score float32 `json:"score"`
				Name  int16   `json:"name"`
				Nick  uint64
			}{150, 1 << 40, 1.1, -3, 1<<64 - 1},
			want: stOut("name", `"-3"`, "Nick", `"18446744073709551615"`, "age", "150", "score", "1.1", "id", "1099511627776"),
			// encoding/json's view decodes the uint64 as a float64.
			notJSON: true},
		{name: "omitempty is not read: an empty value is a value",
			in: struct {
				Nick string  `json:",omitempty"`
				Age  int     `json:"age,omitempty"`
				Pets []StPet `json:"pets,omitempty"`
			}{Pets: []StPet{}},
			want: stOut("Nick", `""`, "age", "0", "pets", "[]"),
			// encoding/json's view leaves the empty fields out.
			notJSON: true},
		{name: "[]byte and json.Number",
			in: struct {
				Name []byte      `json:"name"`
				Age  json.Number `json:"age"`
				Nick json.Number
			}{[]byte("bytes"), "12.9", "007"},
			want:    stOut("name", `"bytes"`, "Nick", `"7"`, "age", "12"),
			notJSON: true},
		{name: "map field for a $ref object",
			in: struct {
				Pet map[string]any `json:"pet"`
			}{map[string]any{"name": "m"}},
			want: stOut("pet", `{"name":"m","kind":"cat"}`)},
		{name: "undeclared fields are not read",
			in: struct {
				Name  string         `json:"name"`
				Extra chan int       `json:"extra"`
				Fn    func()         `json:"fn"`
				M     map[int]string `json:"m"`
			}{Name: "n", Extra: make(chan int)},
			want:    stOut("name", `"n"`),
			notJSON: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _ := mustMake(t, e, c.in)
			if string(out) != c.want {
				t.Errorf("struct:\n got %s\nwant %s", out, c.want)
			}
			if c.eq != nil {
				mout, _ := mustMake(t, e, c.eq)
				if !bytes.Equal(out, mout) {
					t.Errorf("struct and map differ:\nstruct %s\n   map %s", out, mout)
				}
			}
			if !c.notJSON {
				jout, _ := mustMake(t, e, stRoundTrip(t, c.in))
				if !bytes.Equal(out, jout) {
					t.Errorf("struct and encoding/json's view of it differ:\n struct %s\n   json %s", out, jout)
				}
			}
			// A pointer to the struct reads the same.
			pout, _ := mustMake(t, e, stAddr(c.in))
			if !bytes.Equal(out, pout) {
				t.Errorf("pointer to the struct differs:\n got %s\nwant %s", pout, out)
			}
		})
	}
}

// stEmbed returns a struct embedding each of vals, built with reflection:
// go vet rejects, rightly, struct types whose embedded fields repeat a json
// name, and conflicts are what these cases are about.
func stEmbed(vals ...any) any {
	fields := make([]reflect.StructField, len(vals))
	for i, v := range vals {
		t := reflect.TypeOf(v)
		fields[i] = reflect.StructField{Name: t.Name(), Type: t, Anonymous: true}
	}
	s := reflect.New(reflect.StructOf(fields)).Elem()
	for i, v := range vals {
		s.Field(i).Set(reflect.ValueOf(v))
	}
	return s.Interface()
}

// stAddr returns a pointer to a copy of v, or v itself when it is a
// pointer.
func stAddr(v any) any {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		return v
	}
	p := reflect.New(rv.Type())
	p.Elem().Set(rv)
	return p.Interface()
}

// TestStructErrors: a struct's failing fields are reported with the paths
// a map's would be.
func TestStructErrors(t *testing.T) {
	reg := stRegistry(t)
	e := reg.Lookup("person")
	in := struct {
		Age  int      `json:"age"`
		Mail string   `json:"mail"`
		Pets []*StPet `json:"pets"`
		Pet  *StPet   `json:"pet"`
	}{200, "nope", []*StPet{nil, {Kind: "dog"}, {Name: "ok"}, {}}, &StPet{}}
	_, _, err := makeAll(t, e, in)
	got := cmpFieldErrors(err)
	_, mapErr := e.MakeJSON(map[string]any{"age": 200, "mail": "nope",
		"pets": []any{nil, map[string]any{"name": "", "kind": "dog"}, map[string]any{"name": "ok", "kind": ""}, map[string]any{"name": "", "kind": ""}},
		"pet":  map[string]any{"name": "", "kind": ""}})
	want := cmpFieldErrors(mapErr)
	if len(want) != 5 {
		t.Fatalf("bad case: the map gives %v", mapErr)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("struct errors:\n got %v\nwant %v", got, want)
	}
}

// TestStructLists: MakeJSON and MakeList take slices of structs and of
// pointers to structs, at the top level, skipping nil elements.
func TestStructLists(t *testing.T) {
	reg := stRegistry(t)
	e := reg.Lookup("pet")
	const want = `[{"name":"a","kind":""},{"name":"b","kind":"dog"}]`
	cases := []struct {
		name string
		in   any
	}{
		{"[]T", []StPet{{Name: "a"}, {Name: "b", Kind: "dog"}}},
		{"[]*T with nils", []*StPet{nil, {Name: "a"}, nil, {Name: "b", Kind: "dog"}}},
		{"*[]T", &[]StPet{{Name: "a"}, {Name: "b", Kind: "dog"}}},
		{"[2]T", [2]StPet{{Name: "a"}, {Name: "b", Kind: "dog"}}},
		{"[]any of structs", []any{StPet{Name: "a"}, "skip", &StPet{Name: "b", Kind: "dog"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := e.MakeJSON(c.in)
			if err != nil || string(out) != want {
				t.Errorf("MakeJSON = %s, %v; want %s", out, err, want)
			}
			objs, err := e.MakeList(c.in)
			if err != nil || len(objs) != 2 {
				t.Fatalf("MakeList = %v, %v", objs, err)
			}
			if b, _ := json.Marshal(objs); string(b) != want {
				t.Errorf("MakeList: %s, want %s", b, want)
			}
		})
	}
}

// TestStructRecursive: recursive struct types through a recursive entity,
// and a type that embeds a pointer to itself.
func TestStructRecursive(t *testing.T) {
	reg := stRegistry(t)
	tr := &stTree{Name: "a", Children: []*stTree{{Name: "b"}, nil, {Name: "c", Children: []*stTree{{Name: "d"}}}}}
	out, _ := mustMake(t, reg.Lookup("tree"), tr)
	// A nil Children is an empty list, as a nil slice is to every reference.
	want := `{"name":"a","children":[{"name":"b","children":[]},{"name":"c","children":[{"name":"d","children":[]}]}]}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	loop := stLoop{Name: "outer", stLoop: &stLoop{Name: "inner"}}
	out, _ = mustMake(t, reg.Lookup("pet"), loop)
	if want := `{"name":"outer","kind":"cat"}`; string(out) != want {
		t.Errorf("self-embedding: got %s, want %s", out, want)
	}
}

// TestStructNilTop: a nil pointer to a struct is no input, as nil is.
func TestStructNilTop(t *testing.T) {
	reg := stRegistry(t)
	e := reg.Lookup("person")
	want, err := e.MakeJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := mustMake(t, e, (*StPet)(nil))
	if !bytes.Equal(out, want) {
		t.Errorf("got %s, want %s", out, want)
	}
}

// TestStructConcurrent: the per-type caches fill safely under concurrent
// use of new types by many entities (run with -race).
func TestStructConcurrent(t *testing.T) {
	reg := stRegistry(t)
	inputs := []any{
		struct{ StBase }{StBase{ID: 1}},
		&struct{ *StBase }{&StBase{ID: 1}},
		struct {
			ID int `json:"id"`
		}{1},
		map[string]any{"id": 1},
	}
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				in := inputs[(g+i)%len(inputs)]
				for _, name := range []string{"person"} {
					out, err := reg.Lookup(name).MakeJSON(in)
					if err != nil {
						t.Errorf("%s: %v", name, err)
						return
					}
					if name == "person" && !bytes.Contains(out, []byte(`"id":1,`)) {
						t.Errorf("person from %T: %s", in, out)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// Structs are read as encoding/json sees them: tag names, embedded structs
// flattened, `json:"-"` skipped; sql.Null* types through their Value.
func ExampleEntity_Make_struct() {
	type Audit struct {
		CreatedBy string `json:"created_by"`
	}
	type User struct {
		ID       int64          `json:"id"`
		Name     string         `json:"name"`
		Password string         `json:"-"`
		Nickname sql.NullString `json:"nickname"`
		Audit
	}
	reg := entity.NewRegistry()
	e := reg.MustExpose("user",
		"id", "number", "req",
		"name", "string", "req",
		"password", "string", "",
		"nickname", "string", "default 'none'",
		"created_by", "string", "rename by",
	)
	obj, err := e.Make(&User{ID: 7, Name: "Ann", Password: "secret", Audit: Audit{"admin"}})
	fmt.Println(obj, err)
	// Output:
	// {"id":7,"name":"Ann","password":null,"nickname":"none","by":"admin"} <nil>
}

// stSeedUser and stSeedUsers are the seed's payload as Go structs.
type stSeedUser struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Age  int    `json:"age"`
	Mail string `json:"mail"`
}

type stSeedUsers struct {
	Limit int          `json:"limit"`
	List  []stSeedUser `json:"list"`
}

// BenchmarkStructVsMap compares the seed's payload given as maps with the
// same data given as structs (the target: struct at most 1.5× map).
func BenchmarkStructVsMap(b *testing.B) {
	reg := entity.NewRegistry()
	exposeSeed(b, reg)
	users := reg.Lookup("users")
	st := &stSeedUsers{Limit: 2, List: []stSeedUser{
		{"12", "maachang", 40, "maachang@maachang.com"},
		{"21", "saito", 27, "saito@maachang.com"}}}
	ptrs := struct {
		Limit int           `json:"limit"`
		List  []*stSeedUser `json:"list"`
	}{2, []*stSeedUser{&st.List[0], &st.List[1]}}
	for _, c := range []struct {
		name string
		in   any
	}{{"map", seedUsers()}, {"struct", st}, {"struct-pointers", &ptrs}} {
		b.Run("AppendJSON/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 1024)
			for b.Loop() {
				var err error
				if buf, err = users.AppendJSON(buf[:0], c.in); err != nil {
					b.Fatal(err)
				}
			}
			if string(buf) != seedJSON {
				b.Fatalf("got %s", buf)
			}
		})
		b.Run("Make/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := users.Make(c.in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type panicValuer struct{}

func (panicValuer) Value() (driver.Value, error) { panic("valuer panicked") }

type errValuer struct{}

func (errValuer) Value() (driver.Value, error) { return nil, errors.New("valuer failed") }

type cycleValuer struct{}

func (cycleValuer) Value() (driver.Value, error) { return mapCycle(1), nil }

type valuerRow struct {
	V driver.Valuer `json:"v"`
}

type panicValuerRow struct {
	V panicValuer `json:"v"`
}

// valuerCases: driver.Valuers that panic or fail are the field's error.
func valuerCases() []entryCase {
	depthV := []string{failAt("v", "depth")}
	return []entryCase{
		{name: "driver.Valuer that panics", ent: "string", in: given(panicValuerRow{}), fails: []string{failAt("v", "value")}},
		{name: "driver.Valuer that panics, into a required field", ent: "reqstr", in: given(&panicValuerRow{}), fails: []string{failAt("v", "value")}},
		{name: "driver.Valuer that fails is the field's error", ent: "string", in: given(valuerRow{V: errValuer{}}), fails: []string{failAt("v", "value")}},
		{name: "driver.Valuer giving a cyclic map, into none", ent: "none", in: given(valuerRow{V: cycleValuer{}}), fails: depthV},
		{name: "driver.Valuer in a nil interface field", ent: "string", in: given(valuerRow{}), out: wantOut(`{"v":null}`)},
		// A map, a list or an interface holding one is read as a struct field of that type.
		{name: "sql.NullString in a map", ent: "string", in: givenV(sql.NullString{String: "x", Valid: true}), out: wantOut(`{"v":"x"}`)},
		{name: "invalid sql.NullString in a map is null", ent: "string", in: givenV(sql.NullString{}), out: wantOut(`{"v":null}`)},
		{name: "invalid sql.NullString in a map, required", ent: "reqstr", in: givenV(sql.NullString{}), fails: []string{failAt("v", "req")}},
		{name: "sql.NullInt64 behind a pointer in a map", ent: "number", in: givenV(&sql.NullInt64{Int64: 7, Valid: true}), out: wantOut(`{"v":7}`)},
		{name: "nil *sql.NullInt64 in a map is null", ent: "number", in: givenV((*sql.NullInt64)(nil)), out: wantOut(`{"v":null}`)},
		{name: "sql.NullTime in a map", ent: "date", in: givenV(sql.NullTime{Time: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), Valid: true}), out: wantOut(`{"v":"2026-01-02T00:00:00Z"}`)},
		{name: "a driver.Valuer in a map that fails", ent: "string", in: givenV(errValuer{}), fails: []string{failAt("v", "value")}},
		{name: "a driver.Valuer in a map that panics", ent: "string", in: givenV(panicValuer{}), fails: []string{failAt("v", "value")}},
	}
}

// TestValuers: a driver.Valuer, a struct's field or held by a map, is read
// through its Value; one that panics or fails is a field error of rule
// value, from every entry point.
func TestValuers(t *testing.T) {
	runEntryCases(t, valuerCases())
}

// nsRow is the element type of the nil slices TestNilSliceReference reads.
type nsRow struct {
	ID int `json:"id"`
}

// TestNilSliceReference: a nil slice (var rows []T, a query that found
// nothing) read into a $ref field is an empty list, [], from every input
// kind (a map value, a struct field, through a pointer, a list element),
// as it is at the top level of a call; req accepts it. On a list or none
// field a nil slice keeps encoding/json's meaning, null (req rejects it),
// from maps and structs alike. A nil map with string keys is an empty
// input to a reference from a struct as from a map, and a nil []byte is
// null text.
func TestNilSliceReference(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "row", "id", "number", "")
	refs := map[string]*entity.Entity{
		"$ref":     expose(t, reg, "ref", "l", "$row", ""),
		"$ref req": expose(t, reg, "refreq", "l", "$row", "req"),
		"list":     expose(t, reg, "list", "l", "list", ""),
		"list req": expose(t, reg, "listreq", "l", "list", "req"),
		"none":     expose(t, reg, "none", "l", "none", ""),
		"none req": expose(t, reg, "nonereq", "l", "none", "req"),
		"string":   expose(t, reg, "string", "l", "string", ""),
	}
	var rows []nsRow
	type rowsStruct struct {
		L []nsRow `json:"l"`
	}
	type rowPtrsStruct struct {
		L []*nsRow `json:"l"`
	}
	type anyStruct struct {
		L any `json:"l"`
	}
	type ptrStruct struct {
		L *[]nsRow `json:"l"`
	}
	type mapStruct struct {
		L map[string]any `json:"l"`
	}
	type bytesStruct struct {
		L []byte `json:"l"`
	}
	type rawStruct struct {
		L json.RawMessage `json:"l"`
	}
	type embedded struct{ rowsStruct }
	nilSlices := []struct {
		name string
		in   any
	}{
		{"map[string]any", map[string]any{"l": rows}},
		{"map[string][]T", map[string][]nsRow{"l": nil}},
		{"[]any(nil) in a map", map[string]any{"l": []any(nil)}},
		{"struct", rowsStruct{}},
		{"pointer to a struct", &rowsStruct{}},
		{"struct of []*T", rowPtrsStruct{}},
		{"struct of any", anyStruct{L: rows}},
		{"struct of a pointer to a nil slice", ptrStruct{L: &rows}},
		{"embedded struct", embedded{}},
		{"map through a pointer", map[string]any{"l": &rows}},
	}
	wants := map[string]string{
		"$ref": `{"l":[]}`, "$ref req": `{"l":[]}`,
		"list": `{"l":null}`, "list req": "req",
		"none": `{"l":null}`, "none req": "req", "string": `{"l":null}`,
	}
	type tcase struct {
		name, entity string
		in           any
		want         string // the output, or the rule of l's one field error
	}
	var cases []tcase
	for _, in := range nilSlices {
		for ent, want := range wants {
			cases = append(cases, tcase{in.name + " into " + ent, ent, in.in, want})
		}
	}
	cases = append(cases,
		tcase{"list of structs with nil slices", "$ref", []rowsStruct{{}, {L: []nsRow{{ID: 1}}}}, `[{"l":[]},{"l":[{"id":1}]}]`},
		tcase{"nil pointer to a slice is null", "$ref", ptrStruct{}, `{"l":null}`},
		tcase{"nil pointer to a slice is null from a map", "$ref", map[string]any{"l": (*[]nsRow)(nil)}, `{"l":null}`},
		tcase{"nil pointer to a slice fails req", "$ref req", ptrStruct{}, "req"},
		tcase{"nil map from a struct is an empty input", "$ref", mapStruct{}, `{"l":{"id":null}}`},
		tcase{"nil map from a map is an empty input", "$ref", map[string]any{"l": map[string]any(nil)}, `{"l":{"id":null}}`},
		tcase{"nil map from a struct is null on none", "none", mapStruct{}, `{"l":null}`},
		tcase{"nil []byte from a struct is null", "string", bytesStruct{}, `{"l":null}`},
		tcase{"nil []byte from a map is null", "string", map[string]any{"l": []byte(nil)}, `{"l":null}`},
		tcase{"nil []byte is no list to a reference", "$ref", bytesStruct{}, `{"l":null}`},
		tcase{"nil json.RawMessage is no list to a reference", "$ref", rawStruct{}, `{"l":null}`},
		tcase{"JSON null stays null", "$ref", []byte(`{"l":null}`), `{"l":null}`},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out []byte
			var err error
			if _, isList := c.in.([]rowsStruct); isList {
				out, err = refs[c.entity].MakeJSON(c.in) // Make takes no list
			} else {
				out, _, err = makeAll(t, refs[c.entity], c.in)
			}
			if strings.HasPrefix(c.want, "{") || strings.HasPrefix(c.want, "[") {
				if err != nil || string(out) != c.want {
					t.Fatalf("got %s, %v; want %s", out, err, c.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("got %s, want a field error of rule %q", out, c.want)
			}
			if fes := fieldErrors(t, err); len(fes) != 1 || fes[0].Path != "l" || fes[0].Rule != c.want {
				t.Fatalf("error %v, want one field error on l of rule %q", err, c.want)
			}
		})
	}
}

// countingValuer is a driver.Valuer with a pointer receiver that writes
// its receiver: how many times it was asked.
type countingValuer struct{ n int }

func (c *countingValuer) Value() (driver.Value, error) {
	c.n++
	return int64(c.n), nil
}

// TestStructValuerCalledOnce: a field's Value is called once per call
// (not once by the fast path and again by the general one), on the
// caller's struct when it is given by pointer, as a method call on it
// would be; a pointer-receiver Value of a struct given by value is called
// on a copy, never on the interface's own copy of the struct, which Go
// keeps immutable: the same interface value made twice gives the same
// output.
func TestStructValuerCalledOnce(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "counted", "c", "number", "")
	type row struct {
		C countingValuer `json:"c"`
	}
	var byValue any = row{}
	for range 2 {
		if out, _ := mustMake(t, e, byValue); string(out) != `{"c":1}` {
			t.Fatalf("by value: got %s, want {\"c\":1} every time", out)
		}
	}
	if got := byValue.(row).C.n; got != 0 {
		t.Errorf("the interface's copy was written: n = %d", got)
	}
	p := &row{}
	out, err := e.MakeJSON(p)
	if err != nil || string(out) != `{"c":1}` || p.C.n != 1 {
		t.Errorf("by pointer: got %s, %v, n = %d; want {\"c\":1} and n = 1", out, err, p.C.n)
	}
}

// TestStructFieldReads: each way a struct's field is reached reads what
// the same data in a map reads: through embedded structs and pointers (a
// nil one: absent), pointers to scalars (nil: null), named types, the
// structs of a list given by value, in an array, through pointers with
// nils, and a struct field or a list field of a $ref given by value or
// behind a pointer.
func TestStructFieldReads(t *testing.T) {
	reg := stRegistry(t)
	e := reg.Lookup("person")
	type (
		inner struct {
			Mail *string `json:"mail"`
			ID   uint16  `json:"id"`
		}
		mid struct {
			*inner
			Age stAge `json:"age"`
		}
	)
	mail := "a@b.co"
	cases := []struct {
		name string
		in   any
		eq   map[string]any
	}{
		{"two levels of embedding, the inner through a pointer",
			struct{ mid }{mid{&inner{&mail, 9}, 30}},
			map[string]any{"mail": "a@b.co", "id": 9, "age": 30}},
		{"a nil pointer two levels down: its fields absent",
			&struct{ mid }{mid{nil, 30}},
			map[string]any{"age": 30}},
		{"a nil pointer to a scalar: null",
			struct{ mid }{mid{&inner{nil, 1}, 2}},
			map[string]any{"id": 1, "age": 2}},
		{"a struct field for a $ref, by value",
			struct {
				Pet StPet `json:"pet"`
			}{StPet{Name: "a", Kind: "b"}},
			map[string]any{"pet": map[string]any{"name": "a", "kind": "b"}}},
		{"a struct field for a $ref, behind the caller's pointer",
			&struct {
				Pet  StPet   `json:"pet"`
				Pets []StPet `json:"pets"`
			}{StPet{Name: "a"}, []StPet{{Name: "c"}}},
			map[string]any{"pet": map[string]any{"name": "a", "kind": ""}, "pets": []any{map[string]any{"name": "c", "kind": ""}}}},
		{"an array of pointers for a $ref list, nils skipped",
			struct {
				Pets [3]*StPet `json:"pets"`
			}{[3]*StPet{nil, {Name: "x"}, nil}},
			map[string]any{"pets": []any{map[string]any{"name": "x", "kind": ""}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _ := mustMake(t, e, c.in)
			want, _ := mustMake(t, e, c.eq)
			if !bytes.Equal(out, want) {
				t.Errorf("struct %s\n   map %s", out, want)
			}
		})
	}
}

// TestNumberChecksOnEveryInput: a number field with rules that judge the
// converted value (range) writes and fails alike whatever carries the
// number — an int, an int64 or a numeric string in a map, a struct's
// integer of any size, a raw JSON number (read on the fast path) and a
// float, a json.Number or a float field (read on the general path) —
// with Strict or without.
func TestNumberChecksOnEveryInput(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "aged", "age", "number", "range 0 150")
	type (
		intRow struct {
			Age int `json:"age"`
		}
		u8Row struct {
			Age uint8 `json:"age"`
		}
		floatRow struct {
			Age float64 `json:"age"`
		}
	)
	for _, age := range []int{40, 200, 0, 150, 151} {
		want, wantErr := e.MakeJSON(map[string]any{"age": float64(age)}) // the general path
		inputs := map[string]any{
			"int":         map[string]any{"age": age},
			"int64":       map[string]any{"age": int64(age)},
			"string":      map[string]any{"age": strconv.Itoa(age)},
			"json.Number": map[string]any{"age": json.Number(strconv.Itoa(age))},
			"raw JSON":    []byte(`{"age":` + strconv.Itoa(age) + `}`),
			"struct int":  intRow{age},
			"struct *int": &intRow{age},
			"float field": floatRow{float64(age)},
		}
		if age <= 255 {
			inputs["struct uint8"] = u8Row{uint8(age)}
		}
		for name, in := range inputs {
			for _, opts := range [][]entity.Option{nil, {entity.Strict()}} {
				t.Run(fmt.Sprintf("%d from %s, %d options", age, name, len(opts)), func(t *testing.T) {
					got, err := e.MakeJSON(in, opts...)
					if !bytes.Equal(got, want) || fmt.Sprint(cmpFieldErrors(err)) != fmt.Sprint(cmpFieldErrors(wantErr)) {
						t.Errorf("got %s, %v\nwant %s, %v", got, err, want, wantErr)
					}
				})
			}
		}
	}
}

// TestStructArrayValuerOnCopy: the structs of an array or struct field of
// a struct given by value are the interface's copy too: a pointer-receiver
// Value of theirs is called on a copy; those of a slice field are the
// caller's.
func TestStructArrayValuerOnCopy(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "counted", "c", "number", "")
	e := expose(t, reg, "counts", "l", "$counted", "")
	type elem struct {
		C countingValuer `json:"c"`
	}
	type arrayRow struct {
		L [2]elem `json:"l"`
	}
	var byValue any = arrayRow{}
	for range 2 {
		if out, err := e.MakeJSON(byValue); err != nil || string(out) != `{"l":[{"c":1},{"c":1}]}` {
			t.Fatalf("array by value: got %s, %v", out, err)
		}
	}
	type objectRow struct {
		L elem `json:"l"`
	}
	var objectByValue any = objectRow{}
	for range 2 {
		if out, err := e.MakeJSON(objectByValue); err != nil || string(out) != `{"l":{"c":1}}` {
			t.Fatalf("struct field by value: got %s, %v", out, err)
		}
	}
	type sliceRow struct {
		L []elem `json:"l"`
	}
	s := sliceRow{L: make([]elem, 2)}
	if out, err := e.MakeJSON(s); err != nil || string(out) != `{"l":[{"c":1},{"c":1}]}` || s.L[0].C.n != 1 {
		t.Errorf("slice: got %s, %v, n = %d", out, err, s.L[0].C.n)
	}
}
