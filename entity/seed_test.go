package entity_test

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// seedUsers is the payload of msful's load test (the seed article).
func seedUsers() map[string]any {
	return map[string]any{"limit": 2, "list": []any{
		map[string]any{"id": "12", "name": "maachang", "age": 40, "mail": "maachang@maachang.com"},
		map[string]any{"id": "21", "name": "saito", "age": 27, "mail": "saito@maachang.com"}}}
}

const seedJSON = `{"offset":0,"limit":2,"list":[{"number":12,"name":"maachang","details":{"age":40,"mail":"maachang@maachang.com"},"code":"unknown"},{"number":21,"name":"saito","details":{"age":27,"mail":"saito@maachang.com"},"code":"unknown"}]}`

// exposeSeed declares the seed's two entities in reg.
func exposeSeed(t testing.TB, reg *entity.Registry) {
	t.Helper()
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
		t.Fatal(err)
	}
}

func TestSeed(t *testing.T) {
	reg := entity.NewRegistry()
	exposeSeed(t, reg)
	out, err := reg.Lookup("users").MakeJSON(seedUsers())
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != seedJSON {
		t.Errorf("MakeJSON:\n got %s\nwant %s", out, seedJSON)
	}
	if len(out) != 227 {
		t.Errorf("len = %d, want the seed's Document Length 227", len(out))
	}
	obj, err := reg.Lookup("users").Make(seedUsers())
	if err != nil {
		t.Fatal(err)
	}
	b, err := obj.MarshalJSON()
	if err != nil || string(b) != seedJSON {
		t.Errorf("Object.MarshalJSON = %s, %v", b, err)
	}
}
