// Package bench compares the entity library with the code a Go developer
// would otherwise write for the seed's `users` payload: a hand-written
// function for that one shape (handwritten.go), and the usual pipeline of a
// hand-built map marshalled by encoding/json or a third-party encoder
// (naive.go). The tests check that every baseline gives the library's JSON
// before the benchmarks time them; run.sh runs the benchmarks and prints
// the speed targets' ratios.
//
// This is its own module so that the comparison libraries never enter the
// library's go.mod.
package bench

import (
	"strconv"

	"github.com/expose-go/expose/entity"
)

// NewRegistry returns a registry holding the seed's two entities, `user`
// and `users`, exactly as msful's load test declares them.
func NewRegistry() *entity.Registry {
	reg := entity.NewRegistry()
	reg.MustExpose("user",
		"id", "number", "num | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown'",
	)
	reg.MustExpose("users",
		"offset", "number", "default 0",
		"limit", "number", "default 0",
		"list", "$user", "",
	)
	if err := reg.Verify(); err != nil {
		panic(err)
	}
	return reg
}

// SeedPayload is the seed's payload (msful's load test), exactly.
func SeedPayload() map[string]any {
	return map[string]any{"limit": 2, "list": []any{
		map[string]any{"id": "12", "name": "maachang", "age": 40, "mail": "maachang@maachang.com"},
		map[string]any{"id": "21", "name": "saito", "age": 27, "mail": "saito@maachang.com"}}}
}

// SeedJSON is what the library writes for SeedPayload: the seed's 227 bytes.
const SeedJSON = `{"offset":0,"limit":2,"list":[{"number":12,"name":"maachang","details":{"age":40,"mail":"maachang@maachang.com"},"code":"unknown"},{"number":21,"name":"saito","details":{"age":27,"mail":"saito@maachang.com"},"code":"unknown"}]}`

// Sizes are the list lengths every benchmark runs at.
var Sizes = []int{2, 100, 1000}

var firstNames = []string{"maachang", "saito", "tanaka", "suzuki", "takahashi", "watanabe", "ito", "yamamoto", "nakamura", "kobayashi"}

// Users returns a payload of the seed's shape with n users. It is the seed
// payload itself for n == 2, and otherwise generated deterministically: id
// a numeric string, name, age an int, mail a valid address.
func Users(n int) map[string]any {
	if n == 2 {
		return SeedPayload()
	}
	list := make([]any, n)
	for i := range list {
		name := firstNames[i%len(firstNames)] + strconv.Itoa(i)
		list[i] = map[string]any{
			"id":   strconv.Itoa(1000 + i*7),
			"name": name,
			"age":  18 + i%60,
			"mail": name + "@example" + strconv.Itoa(i%5) + ".com",
		}
	}
	return map[string]any{"limit": n, "list": list}
}

// BadMail is the address FailingUsers puts in the list: it has no dot in
// its domain, so the `email` rule rejects it.
const BadMail = "broken@localhost"

// FailingUsers returns Users(n) with one bad mail deep in the list: in the
// last user. Only that one field fails.
func FailingUsers(n int) map[string]any {
	p := Users(n)
	list := p["list"].([]any)
	last := list[len(list)-1].(map[string]any)
	bad := make(map[string]any, len(last))
	for k, v := range last {
		bad[k] = v
	}
	bad["mail"] = BadMail
	list = append([]any(nil), list...)
	list[len(list)-1] = bad
	p["list"] = list
	return p
}
