package bench

import (
	"encoding/json"
	"testing"
)

// BenchmarkObject times what a caller does with an *Object after Make
// (the one walker's targets): Get of a scalar field, Map, and, as Map's baseline,
// json.Unmarshal of the same bytes into a map[string]any.
func BenchmarkObject(b *testing.B) {
	users := NewRegistry().Lookup("users")
	for _, n := range Sizes {
		o, err := users.Make(Users(n))
		if err != nil {
			b.Fatal(err)
		}
		out, err := o.MarshalJSON()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name("Get", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if v, ok := o.Get("limit"); !ok || v == nil {
					b.Fatal("no limit")
				}
			}
		})
		b.Run(name("Map", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if m := o.Map(); len(m) != 3 {
					b.Fatal("wrong map")
				}
			}
		})
		b.Run(name("json.Unmarshal", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var m map[string]any
				if err := json.Unmarshal(out, &m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
