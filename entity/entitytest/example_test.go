package entitytest_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
)

// printT stands in for the *testing.T of a test, printing what a checker
// reports, so that the examples can show it.
type printT struct{ testing.TB }

func (printT) Helper()                           {}
func (printT) Errorf(format string, args ...any) { fmt.Printf(format+"\n", args...) }
func (printT) Logf(format string, args ...any)   { fmt.Printf(format+"\n", args...) }

// The seed's entities, in a registry of their own.
var (
	reg  = entity.NewRegistry()
	user = reg.MustExpose("user",
		"id", "number", "num | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown'",
	)
	users = reg.MustExpose("users",
		"offset", "number", "default 0",
		"limit", "number", "default 0",
		"list", "$user", "",
	)
)

func ExampleConform() {
	var t testing.TB = printT{} // in a test, the *testing.T

	payload := []byte(`{"offset":0,"limit":2,"list":[
		{"number":12,"name":"maachang","details":{"age":40,"mail":"maachang@maachang.com"},"code":"unknown"},
		{"number":"21","details":{"age":27,"mail":12},"code":"unknown","admin":true}]}`)
	ok := entitytest.Conform(t, users, payload)
	fmt.Println("conforms:", ok)
	// Output:
	// list[1].number: want number matching num, got "21"
	// list[1].name: missing key, want string
	// list[1].details.mail: want string matching email, got 12
	// list[1].admin: undeclared key, got true
	// conforms: false
}

func ExampleIgnoreOrder() {
	var t testing.TB = printT{}

	payload := []byte(`{"name":"saito","number":21,"code":"unknown","details":{"mail":null,"age":27}}`)
	fmt.Println("strict:", entitytest.Conform(t, user, payload))
	fmt.Println("relaxed:", entitytest.Conform(t, user, payload, entitytest.IgnoreOrder()))
	// Output:
	// (root): keys out of order: got [name number code details], want [number name details code]
	// details: keys out of order: got [mail age], want [age mail]
	// strict: false
	// relaxed: true
}

func ExampleCheckResponse() {
	var t testing.TB = printT{}

	// A handler that writes with the entity.
	rec := httptest.NewRecorder()
	users.Write(rec, map[string]any{"limit": 1, "list": []any{
		map[string]any{"id": 12, "name": "maachang", "mail": "maachang@maachang.com"},
	}})
	fmt.Println("200:", entitytest.CheckResponse(t, rec, users, 200))

	// A request that fails validation: the body lists the field errors.
	rec = httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/users", strings.NewReader(`{"list":{"details":{"mail":"nope"}}}`))
	req.Header.Set("Content-Type", "application/json")
	users.Write(rec, req)
	fmt.Println("400:", entitytest.CheckResponse(t, rec, users, 400))
	fmt.Println("as 200:", entitytest.CheckResponse(t, rec, users, 200))
	// Output:
	// 200: true
	// 400: true
	// status: got 400, want 200; body: {"type":"/problems/validation","title":"Validation failed","status":400,"detail":"2 fields failed validation","errors":[{"pointer":"/list/name","path":"list.name","outputPath":"list.name","code":"requ…
	// as 200: false
}

func ExampleEqual() {
	var t testing.TB = printT{}

	obj, _ := user.Make(map[string]any{"id": "12", "name": "maachang", "age": 40})
	want := `{"number": 12, "name": "maachang", "details": {"age": 40, "mail": null}, "code": "unknown"}`
	fmt.Println(entitytest.Equal(t, obj, want))

	// A map has no key order: only the values count.
	fmt.Println(entitytest.Equal(t, obj.Map(), want))

	// On a mismatch, Equal prints one line per difference, then go-cmp's
	// diff (whose text go-cmp keeps unstable on purpose):
	//
	//	details.age: got 40, want 41
	//	(-want +got):
	//	  &entitytest.object{
	//	  	…

	// Output:
	// true
	// true
}

func ExampleGolden() {
	var t testing.TB = printT{}

	rec := httptest.NewRecorder()
	users.Write(rec, map[string]any{"limit": 0})
	// Compares the body with testdata/users_empty.golden, stored indented;
	// ENTITYTEST_UPDATE=1 go test writes it.
	entitytest.Golden(t, "users_empty.golden", rec.Body.Bytes())
}

func ExampleSample() {
	fmt.Printf("%s\n", entitytest.Sample(user))

	e := reg.MustExpose("signup",
		"mail", "string", "req | email",
		"password", "string", "req | secret | min 8",
		"code", "string", "regex '^[A-Z]{3}-[0-9]{4}$'",
		"site", "string", "url",
		"born", "string", "date",
		"age", "number", "range 18 130",
		"tags", "list", "min 2",
	)
	fmt.Printf("%s\n", entitytest.Sample(e))
	fmt.Println(entitytest.Conform(printT{}, e, entitytest.Sample(e)))
	// Output:
	// {"number":42,"name":"sample","details":{"age":42,"mail":"user@example.com"},"code":"unknown"}
	// {"mail":"user@example.com","password":"aaaaaaaa","code":"AAA-0000","site":"https://example.com/","born":"2024-01-15","age":18,"tags":[1,2]}
	// true
}

// With Request, Sample writes a request body the entity reads, in the wire
// form a client sends: the keys a response writes, groups as nested
// objects, no readonly field, writeonly ones included.
func ExampleSample_input() {
	fmt.Printf("%s\n", entitytest.Sample(user, entitytest.Request()))

	signup := reg.MustExpose("signup_form",
		"id", "number", "readonly",
		"mail", "string", "req | email",
		"password", "string", "req | writeonly | secret | min 8",
	)
	fmt.Printf("%s\n", entitytest.Sample(signup))
	fmt.Printf("%s\n", entitytest.Sample(signup, entitytest.Request()))
	// Output:
	// {"number":42,"name":"sample","details":{"age":42,"mail":"user@example.com"},"code":"unknown"}
	// {"id":1,"mail":"user@example.com"}
	// {"mail":"user@example.com","password":"aaaaaaaa"}
}

// CheckStruct, in a test, catches a struct whose fields Make would read as
// absent: ID and UserName match neither "id" nor "name".
func ExampleCheckStruct() {
	type User struct {
		ID       int
		UserName string
		Age      int    `json:"age"`
		Mail     string `json:"mail"`
		Code     string `json:"code"`
	}
	var t testing.TB = printT{}
	fmt.Println(entitytest.CheckStruct(t, user, User{}))
	// Output:
	// entity "user": type entitytest_test.User has no field for "id", "name"
	// false
}

// Call tells a checker the options of the call that made a payload: here
// an admin's call of version v1, which writes the admin-only score and the
// v1 form of amount.
func ExampleCall() {
	var t testing.TB = printT{}
	r := entity.NewRegistry()
	if err := r.DeclareFlags("admin"); err != nil {
		panic(err)
	}
	order := r.MustExpose("order",
		"id", "number", "req",
		"score", "number", "if 'admin'",
		"amount", "string", "until 'v2'",
		"amount", "number", "since 'v2'",
	)
	payload, err := order.MakeJSON(map[string]any{"id": 1, "score": 7, "amount": 5},
		entity.With("admin"), entity.Version("v1"))
	fmt.Printf("%s %v\n", payload, err)

	fmt.Println(entitytest.Conform(t, order, payload, entitytest.Call(entity.With("admin"), entity.Version("v1"))))
	fmt.Println(entitytest.Conform(t, order, payload))
	// Output:
	// {"id":1,"score":7,"amount":"5"} <nil>
	// true
	// amount: want number, got "5"
	// score: undeclared key (declared for other flags or versions), got 7
	// false
}
