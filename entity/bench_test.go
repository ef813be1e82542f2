package entity_test

import (
	"encoding/json"
	"testing"

	"github.com/expose-go/expose/entity"
)

// BenchmarkSeed measures the seed's users payload through each entry point.
// The speed issue's full comparison lives in the bench module.
func BenchmarkSeed(b *testing.B) {
	reg := entity.NewRegistry()
	exposeSeed(b, reg)
	users := reg.Lookup("users")
	in := seedUsers()
	b.Run("AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 1024)
		for b.Loop() {
			var err error
			if buf, err = users.AppendJSON(buf[:0], in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MakeJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := users.MakeJSON(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Make+Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			o, err := users.Make(in)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := json.Marshal(o); err != nil {
				b.Fatal(err)
			}
		}
	})
}
