package bench

import "github.com/expose-go/expose/entity"

// Per-call shaping on the seed's payload (BenchmarkShape, cmd/opcount's
// users/Select…): the selection ShapeSpec, the same fields given as Only
// (ShapeOnly) or as what Except leaves out (ShapeExcept), and a flag,
// brief, that hides the same fields on entities declared for it.

// ShapeSpec is the selection the shaping benchmarks give: it writes 141
// of the seed's 227 bytes.
const ShapeSpec = "offset,list(name,details(mail))"

// ShapeOnly are ShapeSpec's fields as Only's paths.
var ShapeOnly = []string{"offset", "list.name", "list.details.mail"}

// ShapeExcept are the fields ShapeSpec leaves out, as Except's paths.
var ShapeExcept = []string{"limit", "list.number", "list.details.age", "list.code"}

// NewShapeRegistry returns the seed's registry (NewRegistry) with the
// flags admin and brief and two more pairs of entities:
//
//   - member and members write the seed's bytes but declare an `if` field
//     and an id shared by two version ranges (the example server's
//     members): the cost of the shaped walk itself;
//   - briefuser and briefusers are the seed's entities whose fields
//     ShapeSpec does not name are `unless 'brief'`: With("brief") writes
//     ShapeSpec's bytes, a call without it the seed's.
func NewShapeRegistry() *entity.Registry {
	reg := NewRegistry()
	if err := reg.DeclareFlags("admin", "brief"); err != nil {
		panic(err)
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
	reg.MustExpose("members",
		"offset", "number", "default 0",
		"limit", "number", "default 0",
		"list", "$member", "",
	)
	reg.MustExpose("briefuser",
		"id", "number", "num | rename 'number' | unless 'brief'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num | unless 'brief'",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown' | unless 'brief'",
	)
	reg.MustExpose("briefusers",
		"offset", "number", "default 0",
		"limit", "number", "default 0 | unless 'brief'",
		"list", "$briefuser", "",
	)
	if err := reg.Verify(); err != nil {
		panic(err)
	}
	return reg
}
