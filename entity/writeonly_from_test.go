package entity_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestRequestObjectReadByAnotherEntityGivesNoWriteOnly: "any entity's
// Make/MakeJSON/Write reading the Object as input" sees it without its
// writeonly members: a response entity reading a writeonly member by a
// `from` path (into a group, a $ref, a []$ref element, a merged $ref's
// key), or by its key at any depth, finds nothing there; and EncodeSeq and
// MakeList, which write a list of such Objects, write none either.
func TestRequestObjectReadByAnotherEntityGivesNoWriteOnly(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "cred", "login", "string", "", "pw", "string", "writeonly")
	expose(t, reg, "m", "mk", "string", "", "mpw", "string", "writeonly")
	e := expose(t, reg, "signup",
		"name", "string", "",
		"pw", "string", "writeonly",
		"g", "{", "", "pin", "string", "writeonly", "city", "string", "", "g", "}", "",
		"wg", "{", "writeonly", "x", "string", "", "wg", "}", "",
		"cred", "$cred", "",
		"creds", "[]$cred", "",
		"mm", "$m", "merge",
	)
	body := `{"name":"vn","pw":"hunter2","g":{"pin":"hunter2","city":"vc"},"wg":{"x":"hunter2"},` +
		`"cred":{"login":"vl","pw":"hunter2"},"creds":[{"login":"v0","pw":"hunter2"}],"mk":"vm","mpw":"hunter2"}`
	o, err := e.MakeRequest(bindRequest("POST", "/", body))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		from string
		want string // the visible value the path finds, "" for null
	}{
		{"a top-level writeonly", "pw", ""},
		{"a visible top-level", "name", "vn"},
		{"a group's writeonly", "g.pin", ""},
		{"a group's visible", "g.city", "vc"},
		{"a writeonly group's field", "wg.x", ""},
		{"a $ref's writeonly", "cred.pw", ""},
		{"a $ref's visible", "cred.login", "vl"},
		{"a []$ref element's writeonly", "creds.0.pw", ""},
		{"a []$ref element's visible", "creds.0.login", "v0"},
		{"a merged $ref's writeonly key", "mpw", ""},
		{"a merged $ref's visible key", "mk", "vm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pub := expose(t, reg, "pub", "v", "none", fmt.Sprintf("from '%s'", tt.from))
			out, err := pub.MakeJSON(o)
			if err != nil {
				t.Fatalf("MakeJSON: %v", err)
			}
			want := `{"v":null}`
			if tt.want != "" {
				want = `{"v":"` + tt.want + `"}`
			}
			if string(out) != want {
				t.Errorf("an entity reading %s from a request's Object = %s, want %s", tt.from, out, want)
			}
		})
	}
	t.Run("MakeList and EncodeSeq", func(t *testing.T) {
		pub := expose(t, reg, "pub2", "pw", "string", "", "name", "string", "", "g", "object", "", "wg", "none", "", "mpw", "string", "")
		for _, ent := range []*entity.Entity{e, pub} {
			objs, err := ent.MakeList([]any{o, o})
			if err != nil {
				t.Fatalf("MakeList: %v", err)
			}
			for i, x := range objs {
				if bytes.Contains([]byte(x.String()), []byte(woSecret)) {
					t.Errorf("%s.MakeList([o,o])[%d] = %s: writes a writeonly value", ent.Name(), i, x)
				}
			}
			var buf bytes.Buffer
			if err := entity.EncodeSeq(&buf, ent, func(yield func(*entity.Object, error) bool) {
				for range 3 {
					if !yield(o, nil) {
						return
					}
				}
			}); err != nil {
				t.Fatalf("EncodeSeq: %v", err)
			}
			woCheckOut(t, ent.Name()+" EncodeSeq", buf.Bytes(), nil)
		}
	})
	t.Run("Keys and Get agree", func(t *testing.T) {
		keys := o.Keys()
		for _, k := range []string{"name", "g", "cred", "creds", "mk"} {
			if !slices.Contains(keys, k) {
				t.Errorf("Keys() = %v lacks %q", keys, k)
			}
		}
		if v, ok := o.Get("pw"); !ok || v != woSecret {
			t.Errorf("Get(pw) = %v, %v; want the request's writeonly value", v, ok)
		}
		if v, ok := o.Get("mpw"); !ok || v != woSecret {
			t.Errorf("Get(mpw) = %v, %v; want the request's merged writeonly value", v, ok)
		}
		m := o.Map()
		if g, _ := m["g"].(map[string]any); g["pin"] != woSecret {
			t.Errorf("Map()[g] = %v; want the writeonly pin there", m["g"])
		}
	})
}
