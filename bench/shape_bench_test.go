package bench

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// BenchmarkShape times per-call shaping (issue 13) on the seed payload:
// the plain call (impl=plain), the selection
// Select("offset,list(name,details(mail))") (impl=Select: it writes less,
// and reads less), the same selection given as Only (impl=Only), and the
// plain call with flags and a version that change nothing here
// (impl=With+Version: the cost of options an entity does not use). The
// spec is compiled on the first call and looked up from the cache after.
func BenchmarkShape(b *testing.B) {
	const spec = "offset,list(name,details(mail))"
	only := entity.Only("offset", "list.name", "list.details.mail")
	for _, n := range Sizes {
		in := Users(n)
		want, err := usersEntity.MakeJSON(in, entity.Select(spec))
		if err != nil {
			b.Fatal(err)
		}
		if got, err := usersEntity.MakeJSON(in, only); err != nil || string(got) != string(want) {
			b.Fatalf("Only: %s, %v; Select: %s", got, err, want)
		}
		b.Run(name("plain", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return usersEntity.AppendJSON(dst, in) })
		})
		b.Run(name("Select", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return usersEntity.AppendJSON(dst, in, entity.Select(spec)) })
		})
		b.Run(name("Only", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return usersEntity.AppendJSON(dst, in, only) })
		})
		b.Run(name("With+Version", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) {
				return usersEntity.AppendJSON(dst, in, entity.Version("v2"))
			})
		})
	}
}
