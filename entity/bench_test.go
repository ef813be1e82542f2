package entity_test

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
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

// BenchmarkRequestBody measures reading a request body of 4 MiB (a JSON
// object of one long string): stating its length, not stating it, and
// claiming 256 MiB for a body of 9 bytes. B/op shows what the body read
// allocates besides the Object.
func BenchmarkRequestBody(b *testing.B) {
	reg := entity.NewRegistry(entity.Limits{BodyBytes: 1 << 30, OutputBytes: 64 << 20})
	e := reg.MustExpose("doc", "text", "string", "")
	large := []byte(`{"text":"` + strings.Repeat("a", 4<<20-11) + `"}`)
	small := []byte(`{"text":1}`)
	for _, bc := range []struct {
		name   string
		body   []byte
		length int64
	}{
		{"4 MiB stated", large, int64(len(large))},
		{"4 MiB unstated", large, -1},
		{"9 bytes claiming 256 MiB", small[:9], 256 << 20},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.body)))
			for b.Loop() {
				r := httptest.NewRequest("POST", "/", bytes.NewReader(bc.body))
				r.Header.Set("Content-Type", "application/json")
				r.ContentLength = bc.length
				_, _ = e.MakeRequest(r)
			}
		})
	}
}
