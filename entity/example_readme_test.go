package entity_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/expose-go/expose/entity"
)

// The README's quick start: one declaration, made from a map, and the two
// handlers, a response shaped per call and a request bound into the
// struct Make reads.
func Example_readme() {
	reg := entity.NewRegistry()
	users := reg.MustExpose("user",
		"id", "number", "num | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown'",
	)
	out, err := users.MakeJSON(map[string]any{"id": "12", "name": "maachang", "age": 40, "mail": "m@example.com"})
	fmt.Println(string(out), err)

	newUsers := reg.MustExpose("newuser", "POST",
		"name", "string", "req | min 2",
		"mail", "string", "req | email",
	)
	type User struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
		Mail string `json:"mail"`
	}
	rows := map[string]User{"12": {12, "maachang", "m@example.com"}}

	get := func(w http.ResponseWriter, r *http.Request) {
		row := rows[r.PathValue("id")]                            // a struct, a map, raw JSON: whatever the handler has
		users.Write(w, row, entity.Select(r.FormValue("fields"))) // 200 + JSON; 500 if the server's data fails
	}
	create := func(w http.ResponseWriter, r *http.Request) {
		var u User // the struct Make reads (expose gen writes it)
		if err := newUsers.Bind(r, &u); err != nil {
			entity.WriteError(w, err) // 400 with every failing field, by path, in the client's language
			return
		}
		u.ID = 13
		users.WriteStatus(w, http.StatusCreated, u)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /users/{id}", get)
	mux.HandleFunc("POST /users", create)

	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/users/12?fields=number,details(mail)", nil))
	fmt.Println(rec.Code, rec.Body)

	rec = httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/users", strings.NewReader(`{"name":"ann","mail":"ann@example.com"}`))
	r.Header.Set("Content-Type", "application/json")
	mux.ServeHTTP(rec, r)
	fmt.Println(rec.Code, rec.Body)

	rec = httptest.NewRecorder()
	r = httptest.NewRequest("POST", "/users", strings.NewReader(`{"name":"a","mail":"nope"}`))
	r.Header.Set("Content-Type", "application/json")
	mux.ServeHTTP(rec, r)
	fmt.Println(rec.Code, rec.Body)
	// Output:
	// {"number":12,"name":"maachang","details":{"age":40,"mail":"m@example.com"},"code":"unknown"} <nil>
	// 200 {"number":12,"details":{"mail":"m@example.com"}}
	// 201 {"number":13,"name":"ann","details":{"age":null,"mail":"ann@example.com"},"code":"unknown"}
	// 400 {"type":"/problems/validation","title":"Validation failed","status":400,"detail":"2 fields failed validation","errors":[{"pointer":"/name","path":"name","outputPath":"name","code":"min","params":{"min":2},"message":"must be at least 2 characters long"},{"pointer":"/mail","path":"mail","outputPath":"mail","code":"email","message":"must be a valid email address"}]}
}
