package entity_test

import (
	"database/sql/driver"
	"encoding/json"
	"net/http/httptest"
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
