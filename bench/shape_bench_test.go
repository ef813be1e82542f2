package bench

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// BenchmarkShape times per-call shaping on the seed payload:
// the plain call (impl=plain), the target's selection
// Select("offset,list(name,details(mail))") (impl=Select: it writes less,
// and reads less), the same selection given as Only (impl=Only), what
// Except leaves out of the plain call (impl=Except), With("brief") on
// entities whose other fields are `unless 'brief'` (impl=flag; impl=flag-unset
// is their plain call), and the plain call with flags and a version that
// change nothing here (impl=With+Version: the cost of options an entity
// does not use). Each writes ShapeSpec's bytes, or the plain call's. The
// spec is compiled on the first call and looked up from the cache after.
// impl=conditional is the plain call on an entity that writes the same
// bytes but declares an `if` field and an id shared by two version ranges
// (the example server's members): the cost of the shaped walk itself.
// See shape.go for the entities.
func BenchmarkShape(b *testing.B) {
	reg := NewShapeRegistry()
	users, members, briefUsers := reg.MustLookup("users"), reg.MustLookup("members"), reg.MustLookup("briefusers")
	sel, only, except, brief := entity.Select(ShapeSpec), entity.Only(ShapeOnly...), entity.Except(ShapeExcept...), entity.With("brief")
	for _, n := range Sizes {
		in := Users(n)
		want, err := users.MakeJSON(in, sel)
		if err != nil {
			b.Fatal(err)
		}
		for what, call := range map[string]func() ([]byte, error){
			"Only":        func() ([]byte, error) { return users.MakeJSON(in, only) },
			"Except":      func() ([]byte, error) { return users.MakeJSON(in, except) },
			"With(brief)": func() ([]byte, error) { return briefUsers.MakeJSON(in, brief) },
		} {
			if got, err := call(); err != nil || string(got) != string(want) {
				b.Fatalf("%s: %s, %v; Select: %s", what, got, err, want)
			}
		}
		for what, e := range map[string]*entity.Entity{"members": members, "briefusers": briefUsers} {
			if got, err := e.MakeJSON(in); err != nil || string(got) != string(mustJSON(b, in)) {
				b.Fatalf("%s: %s, %v", what, got, err)
			}
		}
		b.Run(name("conditional", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return members.AppendJSON(dst, in) })
		})
		b.Run(name("plain", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return users.AppendJSON(dst, in) })
		})
		b.Run(name("Select", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return users.AppendJSON(dst, in, sel) })
		})
		b.Run(name("Only", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return users.AppendJSON(dst, in, only) })
		})
		b.Run(name("Except", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return users.AppendJSON(dst, in, except) })
		})
		b.Run(name("flag", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return briefUsers.AppendJSON(dst, in, brief) })
		})
		b.Run(name("flag-unset", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return briefUsers.AppendJSON(dst, in) })
		})
		b.Run(name("With+Version", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) {
				return users.AppendJSON(dst, in, entity.Version("v2"))
			})
		})
	}
}

// mustJSON is the users entity's output for in.
func mustJSON(b *testing.B, in any) []byte {
	out, err := usersEntity.MakeJSON(in)
	if err != nil {
		b.Fatal(err)
	}
	return out
}
