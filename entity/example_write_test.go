package entity_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/expose-go/expose/entity"
)

// Declare once, make by name in the Default registry.
func Example_quickStart() {
	entity.MustExpose("quickuser", "id", "number", "num | rename 'number'", "name", "string", "req")
	out, err := entity.MakeJSON("quickuser", map[string]any{"id": "12", "name": "maachang", "x": 1})
	fmt.Println(string(out), err)
	// Output: {"number":12,"name":"maachang"} <nil>
}

// Write answers a handler's request: 200 with the JSON; 400 with every
// field error of a client's request; 500, saying nothing, when the
// server's own data fails its entity.
func ExampleEntity_Write() {
	reg := entity.NewRegistry()
	user := reg.MustExpose("user", "name", "string", "req", "mail", "string", "email")

	rec := httptest.NewRecorder()
	user.Write(rec, map[string]any{"name": "saito", "mail": "saito@maachang.com"})
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"), rec.Body)

	// A client's request that fails: 400, with every field error.
	rec = httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/users", strings.NewReader(`{"mail":"not-an-address"}`))
	req.Header.Set("Content-Type", "application/json")
	user.Write(rec, req)
	fmt.Println(rec.Code, rec.Body)

	// The server's own data that fails: 500, a body that says nothing of
	// it but the instance id the log hook gets, and the error returned.
	rec = httptest.NewRecorder()
	err := user.Write(rec, map[string]any{"mail": "not-an-address"})
	fmt.Println(rec.Code, strings.Contains(rec.Body.String(), `"instance":"urn:uuid:`))
	fmt.Println(err)
	// Output:
	// 200 application/json; charset=utf-8 {"name":"saito","mail":"saito@maachang.com"}
	// 400 {"type":"/problems/validation","title":"Validation failed","status":400,"detail":"2 fields failed validation","errors":[{"pointer":"/name","path":"name","outputPath":"name","code":"required","message":"is required"},{"pointer":"/mail","path":"mail","outputPath":"mail","code":"email","message":"must be a valid email address"}]}
	// 500 true
	// entity "user": 2 fields failed: name: is required (req); mail: must be a valid email address (email)
}

// Raw JSON bytes and structs are read directly, without an intermediate
// map.
func ExampleEntity_AppendJSON_inputs() {
	reg := entity.NewRegistry()
	user := reg.MustExpose("user", "id", "number", "rename 'number'", "name", "string", "req")

	buf, _ := user.AppendJSON(nil, []byte(`{"id":"12","name":"maachang","extra":[1,2]}`))
	fmt.Println(string(buf))

	type row struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	buf, _ = user.AppendJSON(buf[:0], []row{{21, "saito"}, {22, "sato"}})
	fmt.Println(string(buf))
	// Output:
	// {"number":12,"name":"maachang"}
	// [{"number":21,"name":"saito"},{"number":22,"name":"sato"}]
}
