package bench

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// BenchmarkShape times per-call shaping on the seed payload:
// the plain call (impl=plain), the target's selection
// Select("offset,list(name,details(mail))") (impl=Select: it writes less,
// and reads less), the same selection given as Only (impl=Only), and the
// plain call with flags and a version that change nothing here
// (impl=With+Version: the cost of options an entity does not use). The
// spec is compiled on the first call and looked up from the cache after.
// impl=conditional is the plain call on an entity that writes the same
// bytes but declares an `if` field and an id shared by two version ranges
// (the example server's members): the cost of the shaped walk itself.
func BenchmarkShape(b *testing.B) {
	reg := NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		b.Fatal(err)
	}
	reg.MustExpose("member",
		"id", "string", "until 'v2' | rename 'number'",
		"id", "number", "num | since 'v2' | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown'",
		"score", "number", "if 'admin'",
	)
	members := reg.MustExpose("members",
		"offset", "number", "default 0",
		"limit", "number", "default 0",
		"list", "$member", "",
	)
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
		if got, err := members.MakeJSON(in); err != nil || string(got) != string(mustJSON(b, in)) {
			b.Fatalf("members: %s, %v", got, err)
		}
		b.Run(name("conditional", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return members.AppendJSON(dst, in) })
		})
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

// mustJSON is the users entity's output for in.
func mustJSON(b *testing.B, in any) []byte {
	out, err := usersEntity.MakeJSON(in)
	if err != nil {
		b.Fatal(err)
	}
	return out
}
