package entity_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
)

// A nil *Object and the zero Object are empty objects: no method panics,
// and Make reads them as empty inputs.
func TestObjectNilAndZero(t *testing.T) {
	var nilObj *entity.Object
	zero := &entity.Object{}
	cases := []struct {
		name     string
		o        *entity.Object
		marshals string
		asRef    string // MakeJSON of {"r": o}
	}{
		{"nil", nilObj, "null", `{"v":1,"r":null}`},
		{"zero", zero, "{}", `{"v":1,"r":{"v":1,"r":null}}`},
	}
	e := expose(t, entity.NewRegistry(), "one", "v", "number", "default 1", "r", "$one", "")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			noPanic(t, "its methods", func() {
				if c.o.Len() != 0 || len(c.o.Keys()) != 0 || len(c.o.Map()) != 0 {
					t.Errorf("Len %d, Keys %v, Map %v: want empty", c.o.Len(), c.o.Keys(), c.o.Map())
				}
				if v, ok := c.o.Get("v"); ok || v != nil {
					t.Errorf("Get = %v, %t", v, ok)
				}
				if b, err := c.o.MarshalJSON(); err != nil || string(b) != c.marshals {
					t.Errorf("MarshalJSON = %s, %v; want %s", b, err, c.marshals)
				}
				if b, err := json.Marshal(c.o); err != nil || string(b) != c.marshals {
					t.Errorf("json.Marshal = %s, %v; want %s", b, err, c.marshals)
				}
				var m map[string]any
				if err := c.o.Decode(&m); err != nil {
					t.Errorf("Decode: %v", err)
				}
			})
			noPanic(t, "making it", func() {
				if out, err := e.MakeJSON(c.o); err != nil || string(out) != `{"v":1,"r":null}` {
					t.Errorf("MakeJSON = %s, %v", out, err)
				}
				if out, err := e.MakeJSON(map[string]any{"r": c.o}); err != nil || string(out) != c.asRef {
					t.Errorf("MakeJSON of a reference to it = %s, %v; want %s", out, err, c.asRef)
				}
				if _, err := e.Make(c.o); err != nil {
					t.Errorf("Make: %v", err)
				}
			})
		})
	}
	t.Run("Decode errors say where they come from", func(t *testing.T) {
		o, err := e.Make(nil)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := o.Decode(&n); err == nil || err.Error()[:7] != "entity:" {
			t.Errorf("Decode into an int: %v, want an entity: error", err)
		}
	})
}

// A key holding invalid UTF-8 is written with U+FFFD, and Keys, Get and Map
// give it as written, so that Map equals the JSON decoded.
func TestObjectKeysAsWritten(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "k", "a\xffb", "string", "", "<&>", "number", "", "é", "bool", "")
	o, err := e.Make(map[string]any{"a\xffb": "x", "<&>": 1, "é": true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a\ufffdb", "<&>", "é"}, o.Keys()); diff != "" {
		t.Errorf("Keys (-want +got):\n%s", diff)
	}
	for _, k := range []string{"a\ufffdb", "<&>", "é"} {
		if _, ok := o.Get(k); !ok {
			t.Errorf("Get(%q): no key", k)
		}
	}
	var fromJSON map[string]any
	b, _ := o.MarshalJSON()
	if err := json.Unmarshal(b, &fromJSON); err != nil {
		t.Fatal(err)
	}
	m := o.Map()
	m["<&>"] = float64(m["<&>"].(int64))
	if diff := cmp.Diff(fromJSON, m); diff != "" {
		t.Errorf("Map differs from the JSON (-json +map):\n%s", diff)
	}
}
