// Command seedserver is the server of msful's load test, in Go: it answers
// GET /api/test with the seed's users payload made through the entity, and
// POST /api/users with a new user validated by the same DSL.
//
//	cd examples && go run ./seedserver            # listens on :3333
//	curl http://127.0.0.1:3333/api/test
//	curl -i -H 'Content-Type: application/json' -H 'X-Request-Id: r-1' \
//	     -d '{"name":"Ann","mail":"ann@example.com","age":30}' http://127.0.0.1:3333/api/users
package main

import (
	"flag"
	"log"
	"net/http"
	"time"

	"github.com/expose-go/expose/entity"
)

// seedUsers is the data of msful's test API, built once: the handler shapes
// it through the entity on every request, as msful did.
var seedUsers = map[string]any{
	"limit": 2,
	"list": []any{
		map[string]any{"id": "12", "name": "maachang", "age": 40, "mail": "maachang@maachang.com"},
		map[string]any{"id": "21", "name": "saito", "age": 27, "mail": "saito@maachang.com"},
	},
}

// newMux returns the server's routes.
func newMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/test", func(w http.ResponseWriter, r *http.Request) {
		if err := entity.Write(w, "users", seedUsers); err != nil {
			log.Printf("GET /api/test: %v", err)
		}
	})
	// No method in the pattern: the entity's declaration ("POST") decides,
	// and its 405 carries the Allow header.
	mux.HandleFunc("/api/users", createUser)
	return mux
}

// createUser validates a new user from the query, a form or JSON body and
// the X-Request-Id header, and answers 201 with the shaped user; 400 with
// every field error, 405 for another method, 413 for a body over the
// limit. WriteStatus reads the request with MakeRequest.
func createUser(w http.ResponseWriter, r *http.Request) {
	if err := newUserEntity.WriteStatus(w, http.StatusCreated, r); err != nil {
		log.Printf("%s /api/users: %v", r.Method, err)
	}
}

func main() {
	addr := flag.String("addr", ":3333", "address to listen on")
	flag.Parse()
	if err := checkEntities(); err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Addr: *addr, Handler: newMux(), ReadHeaderTimeout: 5 * time.Second}
	log.Printf("seedserver listening on %s", *addr)
	log.Fatal(srv.ListenAndServe())
}
