package main

import (
	"log"
	"net/http"
	"strconv"
	"sync"

	"github.com/expose-go/expose/entity"
)

// GET /api/users?n=…: the seed's payload at scale. The input data, users
// of the seed's shape, is generated once per distinct n and cached, so that
// what a request measures is the shaping, as in /api/test.

// maxUsers is the largest n that GET /api/users answers.
const maxUsers = 10000

var firstNames = []string{
	"maachang", "saito", "tanaka", "suzuki", "takahashi",
	"watanabe", "ito", "yamamoto", "nakamura", "kobayashi",
}

// genUser returns user i of the seed's shape: id a numeric string (as the
// seed's "12"), a name, age an int and a valid mail address.
func genUser(i int) map[string]any {
	name := firstNames[i%len(firstNames)] + strconv.Itoa(i)
	return map[string]any{
		"id":    strconv.Itoa(1000 + i*7),
		"name":  name,
		"age":   18 + i%60,
		"mail":  name + "@example" + strconv.Itoa(i%5) + ".com",
		"score": i * 37 % 101,
	}
}

var (
	// allUsers is user 0 to maxUsers-1, generated on first use: the list of
	// n users is its first n elements.
	allUsers = sync.OnceValue(func() []any {
		list := make([]any, maxUsers)
		for i := range list {
			list[i] = genUser(i)
		}
		return list
	})
	// usersByN caches the input of each n asked for: a small map around a
	// prefix of allUsers, so that at most maxUsers of them exist.
	usersByN sync.Map // int → map[string]any
)

// generatedUsers returns the input for n users, 1 <= n <= maxUsers: the
// seed's {"limit": n, "list": [...]}. The same n gives the same value,
// which callers must not modify.
func generatedUsers(n int) map[string]any {
	if v, ok := usersByN.Load(n); ok {
		return v.(map[string]any)
	}
	v, _ := usersByN.LoadOrStore(n, map[string]any{"limit": n, "list": allUsers()[:n:n]})
	return v.(map[string]any)
}

// listUsers answers GET /api/users?n=…: n generated users shaped through
// the members entity, or 400 when n is missing, not a number or outside
// 1..10000. `fields` selects the fields written (Google's partial-response
// grammar: fields=list(name,details/mail)), `v` the API version (v1
// writes ids as strings); an admin (X-Role: admin, see withRoles) also
// gets each user's score. A bad selection or version is a 400 naming it.
func listUsers(w http.ResponseWriter, r *http.Request) {
	q, err := usersQueryEntity.MakeRequest(r)
	if err != nil {
		entity.WriteError(w, err)
		return
	}
	n, _ := q.Get("n")
	fields, _ := q.Get("fields")
	version, _ := q.Get("v")
	err = membersEntity.Write(w, generatedUsers(int(n.(int64))),
		entity.Select(str(fields)), entity.Version(str(version)), entity.WithContext(r.Context()))
	if err != nil {
		log.Printf("GET /api/users: %v", err)
	}
}

// str returns a string an Object's Get gave, or "" for null.
func str(v any) string {
	s, _ := v.(string)
	return s
}

// withRoles sets the request's flags from its X-Role header, once for
// every handler (entity.NewContext; handlers pass entity.WithContext). A
// real server takes roles from its authentication, never from a header
// the client sets: this one is an example.
func withRoles(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Role") == "admin" {
			r = r.WithContext(entity.NewContext(r.Context(), "admin"))
		}
		next.ServeHTTP(w, r)
	})
}
