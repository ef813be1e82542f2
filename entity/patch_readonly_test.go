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
