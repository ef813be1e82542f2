package bench

import (
	"bytes"
	"encoding/json"
	"io"
	"iter"
	"strconv"
	"testing"

	"github.com/expose-go/expose/entity"
)

// BenchmarkGrowth times the seed's shape at 1 to 100,000 users for each
// kind of input: maps (AppendJSON of Users(n)), structs (the same data as
// a struct holding a slice of structs), raw JSON (its bytes) and a stream
// (EncodeSeq of the list's maps, element by element, to a writer that
// drops them). Each reports ns/elem, the time per user: what a list costs
// should not grow with its length (growth.sh and cmd/growth turn the
// medians into the table of results/growth.txt).
func BenchmarkGrowth(b *testing.B) {
	reg := NewRegistry()
	users, user := reg.Lookup("users"), reg.Lookup("user")
	for _, n := range GrowthSizes {
		in := Users(n)
		list := in["list"].([]any)
		want, err := users.AppendJSON(nil, in)
		if err != nil {
			b.Fatal(err)
		}
		raw, err := json.Marshal(in)
		if err != nil {
			b.Fatal(err)
		}
		st := growthStructs(in)
		check := func(name string, got []byte, err error) {
			if err != nil || !bytes.Equal(got, want) {
				b.Fatalf("%s at %d users: not the library's JSON (%v)", name, n, err)
			}
		}
		got, err := users.AppendJSON(nil, st)
		check("structs", got, err)
		got, err = users.AppendJSON(nil, raw)
		check("raw JSON", got, err)
		wantList, err := user.AppendJSON(nil, list)
		if err != nil {
			b.Fatal(err)
		}
		var streamed bytes.Buffer
		if err := entity.EncodeSeq(&streamed, user, elems(list)); err != nil || !bytes.Equal(streamed.Bytes(), wantList) {
			b.Fatalf("stream at %d users: not the library's JSON (%v)", n, err)
		}

		appendOf := func(v any) func(*testing.B) {
			return func(b *testing.B) {
				buf := make([]byte, 0, 2*len(want))
				b.ReportAllocs()
				for b.Loop() {
					var err error
					if buf, err = users.AppendJSON(buf[:0], v); err != nil {
						b.Fatal(err)
					}
				}
				perElem(b, n)
			}
		}
		b.Run(growthName("maps", n), appendOf(in))
		b.Run(growthName("structs", n), appendOf(st))
		b.Run(growthName("raw", n), appendOf(raw))
		b.Run(growthName("stream", n), func(b *testing.B) {
			seq := elems(list)
			b.ReportAllocs()
			for b.Loop() {
				if err := entity.EncodeSeq(io.Discard, user, seq); err != nil {
					b.Fatal(err)
				}
			}
			perElem(b, n)
		})
	}
}

// GrowthSizes are the list lengths BenchmarkGrowth runs at.
var GrowthSizes = []int{1, 10, 100, 1000, 10_000, 100_000}

func growthName(impl string, n int) string {
	return "impl=" + impl + "/users=" + strconv.Itoa(n)
}

// perElem reports the time per list element.
func perElem(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
}

// elems returns the list as a sequence.
func elems(list []any) iter.Seq2[any, error] {
	return func(yield func(any, error) bool) {
		for _, v := range list {
			if !yield(v, nil) {
				return
			}
		}
	}
}

// growthUser and growthUsers hold Users(n) as structs, field for field.
type growthUser struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Age  int    `json:"age"`
	Mail string `json:"mail"`
}

type growthUsers struct {
	Limit int          `json:"limit"`
	List  []growthUser `json:"list"`
}

func growthStructs(in map[string]any) growthUsers {
	list := in["list"].([]any)
	out := growthUsers{Limit: in["limit"].(int), List: make([]growthUser, len(list))}
	for i, v := range list {
		m := v.(map[string]any)
		out.List[i] = growthUser{ID: m["id"].(string), Name: m["name"].(string), Age: m["age"].(int), Mail: m["mail"].(string)}
	}
	return out
}
