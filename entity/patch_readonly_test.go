package entity_test

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestPatchKeepsReadonlyInReplacedValues: a merge patch replaces a list
// whole, but a readonly field is the server's at every depth: the
// elements of a []$line a patch gives have their readonly values ignored,
// as a POST ignores them, never taken from the client.
func TestPatchKeepsReadonlyInReplacedValues(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "line",
		"id", "number", "readonly",
		"sku", "string", "",
		"price", "number", "readonly",
		"g", "{", "",
		"owner", "string", "readonly",
		"g", "}", "",
	)
	e := expose(t, reg, "order",
		"id", "number", "readonly",
		"items", "[]$line", "",
	)
	current := map[string]any{"id": 1, "items": []any{map[string]any{"id": 10, "sku": "a", "price": 100, "owner": "ann"}}}
	tests := []struct {
		name, patch string
		key         string // the readonly key, in the first item
		notWant     any    // the client's value, which must not be there
	}{
		{"a list element's readonly value", `{"items":[{"sku":"a","price":0}]}`, "price", int64(0)},
		{"a list element's readonly id", `{"items":[{"id":99,"sku":"a"}]}`, "id", int64(99)},
		{"a readonly value in a list element's group", `{"items":[{"sku":"a","g":{"owner":"mallory"}}]}`, "g.owner", "mallory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(tt.patch), current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			items, _ := o.Get("items")
			list, _ := items.([]*entity.Object)
			if len(list) != 1 {
				t.Fatalf("items = %v, want one element", items)
			}
			var got any
			var ok bool
			if tt.key == "g.owner" {
				g, _ := list[0].Get("g")
				if gobj, isObj := g.(*entity.Object); isObj {
					got, ok = gobj.Get("owner")
				}
			} else {
				got, ok = list[0].Get(tt.key)
			}
			if ok && got == tt.notWant {
				t.Errorf("items[0].%s = %v: the client set a readonly value (a POST ignores it); merged: %s", tt.key, got, o)
			}
		})
	}
}

// TestPatchKeepsReadonlyInMergedObjects: a patch's object merges into a
// group's or a $name's: a readonly key in it is ignored there too, and the
// current value's readonly value stays (none when the current value has
// none).
func TestPatchKeepsReadonlyInMergedObjects(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "addr", "id", "number", "readonly", "city", "string", "", "zip", "string", "")
	e := expose(t, reg, "person",
		"name", "string", "",
		"a", "$addr", "",
		"g", "{", "",
		"by", "string", "readonly",
		"note", "string", "",
		"g", "}", "",
	)
	tests := []struct {
		name    string
		current map[string]any
		patch   string
		want    string
	}{
		{"a $name's readonly key", map[string]any{"name": "n", "a": map[string]any{"id": 3, "city": "c"}}, `{"a":{"id":9,"zip":"z"}}`,
			`{"name":"n","a":{"id":3,"city":"c","zip":"z"},"g":{"by":null,"note":null}}`},
		{"a $name the current value lacks", map[string]any{"name": "n"}, `{"a":{"id":9,"zip":"z"}}`,
			`{"name":"n","a":{"id":null,"city":null,"zip":"z"},"g":{"by":null,"note":null}}`},
		{"a group's readonly key", map[string]any{"name": "n", "by": "ann"}, `{"g":{"by":"mallory","note":"x"}}`,
			`{"name":"n","a":null,"g":{"by":"ann","note":"x"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(tt.patch), tt.current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if got := o.String(); got != tt.want {
				t.Errorf("merged = %s, want %s", got, tt.want)
			}
		})
	}
}
