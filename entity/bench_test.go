package entity_test

import (
	"encoding/json"
	"testing"

	"github.com/expose-go/expose/entity"
)

// BenchmarkSeed measures the seed's users payload through each entry point.
// The full speed comparison lives in the bench module.
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

// BenchmarkSeedRaw measures the seed's payload given as raw JSON bytes, and
// as a struct.
func BenchmarkSeedRaw(b *testing.B) {
	reg := entity.NewRegistry()
	exposeSeed(b, reg)
	users := reg.Lookup("users")
	raw, err := json.Marshal(seedUsers())
	if err != nil {
		b.Fatal(err)
	}
	b.Run("AppendJSON/raw", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 1024)
		for b.Loop() {
			var err error
			if buf, err = users.AppendJSON(buf[:0], raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AppendJSON/unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 1024)
		for b.Loop() {
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				b.Fatal(err)
			}
			var err error
			if buf, err = users.AppendJSON(buf[:0], m); err != nil {
				b.Fatal(err)
			}
		}
	})
	type details struct {
		Age  int    `json:"age"`
		Mail string `json:"mail"`
	}
	type user struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		details
	}
	type usersT struct {
		Limit int    `json:"limit"`
		List  []user `json:"list"`
	}
	st := usersT{Limit: 2, List: []user{{"12", "maachang", details{40, "maachang@maachang.com"}}, {"21", "saito", details{27, "saito@maachang.com"}}}}
	b.Run("AppendJSON/struct", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 1024)
		for b.Loop() {
			var err error
			if buf, err = users.AppendJSON(buf[:0], &st); err != nil {
				b.Fatal(err)
			}
		}
		if string(buf) != seedJSON {
			b.Fatalf("struct input gave %s", buf)
		}
	})
}
