package entity_test

import (
	"fmt"
	"testing/fstest"

	"github.com/expose-go/expose/entity"
)

func ExampleRegistry_LoadFS() {
	// In a program: //go:embed schemas/*.entity, var schemas embed.FS.
	schemas := fstest.MapFS{
		"schemas/users.entity": {Data: []byte(`
user {
  id    number  num | rename 'number'
  name  string  req
}
users {
  list  $user
}
`)},
	}
	reg := entity.NewRegistry()
	if err := reg.LoadFS(schemas, "schemas/*.entity"); err != nil {
		fmt.Println(err)
		return
	}
	b, err := reg.Lookup("users").MakeJSON(map[string]any{"list": []any{map[string]any{"id": "12", "name": "maachang"}}})
	fmt.Println(string(b), err)

	// Every error of the files at once, each with the file, the line and
	// the column, and nothing is exposed.
	schemas["schemas/orders.entity"] = &fstest.MapFile{Data: []byte("order {\n  buyer  $usr\n  qty    number  min 5 | max 1\n}\n")}
	fmt.Println(entity.NewRegistry().LoadFS(schemas, "schemas/*.entity"))
	// Output:
	// {"list":[{"number":12,"name":"maachang"}]} <nil>
	// entity: LoadFS: 2 errors
	// schemas/orders.entity:2:10: entity "order", field "buyer": $usr names no entity (did you mean $user?)
	//      2 |   buyer  $usr
	//        |          ^
	// schemas/orders.entity:3:26: entity "order", field "qty": max: minimum 5 is greater than maximum 1: no value meets both
	//      3 |   qty    number  min 5 | max 1
	//        |                          ^
}
