// Command seedserver is the server of msful's load test, in Go: it answers
// GET /api/test with the seed's users payload made through the entity, and
// POST /api/users with a new user validated by the same DSL.
//
// For the load test (../loadtest.sh) it also answers:
//
//	GET /api/users?n=100   n generated users (1..10000) through the entity
//	GET /naive/test        /api/test built as a map and encoding/json.Marshal
//	GET /naive/users?n=100 /api/users the same naive way
//	GET /const/test        /api/test's bytes, precomputed: the ceiling
//	GET /api/db/users      the first 100 rows of an in-memory SQLite database through an entity
//	GET /api/db/users?stream=1   every row of it (100,000: -db-rows), streamed from its *sql.Rows
//	                       at flat memory (?stream=ndjson: NDJSON; &fields=id,name: a selection)
//	GET /openapi.json      the server's OpenAPI 3.1 document, exported from its entities
//	                       (an admin's, with the admin-only fields, for X-Role: admin)
//
//	cd examples && go run ./seedserver            # listens on :3333
//	curl http://127.0.0.1:3333/api/test
//	curl 'http://127.0.0.1:3333/api/users?n=3'
//	curl -i -H 'Content-Type: application/json' -H 'X-Request-Id: r-1' \
//	     -d '{"name":"Ann","mail":"ann@example.com","age":30}' http://127.0.0.1:3333/api/users
package main

import (
	"flag"
	"log"
	"net"
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
	mux.Handle("GET /api/users", withRoles(http.HandlerFunc(listUsers)))
	mux.HandleFunc("POST /api/users", createUser)
	// Any other method: a JSON 405 naming both, where the mux's own would
	// be text.
	mux.HandleFunc("/api/users", methodNotAllowed("GET, HEAD, POST"))
	mux.HandleFunc("GET /api/db/users", dbUsersHandler(usersDB))
	public, err := openAPIDoc()
	if err != nil {
		panic("seedserver: the OpenAPI document does not make: " + err.Error())
	}
	admin, err := openAPIDoc(entity.With("admin"))
	if err != nil {
		panic("seedserver: the admin's OpenAPI document does not make: " + err.Error())
	}
	mux.Handle("GET /openapi.json", withRoles(openAPIHandler(public, admin)))

	mux.HandleFunc("GET /naive/test", naiveTest)
	mux.HandleFunc("GET /naive/users", naiveListUsers)
	mux.Handle("GET /const/test", constHandler(seedBody()))
	return mux
}

// seedBody returns what GET /api/test answers, made once.
func seedBody() []byte {
	b, err := usersEntity.MakeJSON(seedUsers)
	if err != nil {
		panic("seedserver: the seed payload does not make: " + err.Error())
	}
	return b
}

// methodNotAllowed answers 405 with the Allow header and problem details, as
// entity.Write answers a method that a declaration does not allow.
func methodNotAllowed(allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		entity.WriteError(w, &entity.InputError{Status: http.StatusMethodNotAllowed, Err: entity.ErrMethod,
			Allow: allow, Msg: "method " + r.Method + " is not allowed; use " + allow})
	}
}

// newUser is a user as POST /api/users creates it: Bind fills it from the
// request once newUserEntity has read, converted, defaulted and validated
// it (the declared names as json tags: the struct Make reads).
type newUser struct {
	Name      string  `json:"name"`
	Mail      string  `json:"mail"`
	Age       *int64  `json:"age"`
	RequestID *string `json:"X-Request-Id"`
}

// createUser binds a new user from a JSON or form body (a POST without a
// body has none of its fields, whatever its query holds) and the
// X-Request-Id header, strictly (a present value that does not convert
// is an error), and answers 201 with the user; 400 with every field error
// in the language the client's Accept-Language prefers (English or
// Japanese), 413 for a body over the limit, 415 for a body that is neither
// JSON nor a form. The mux sends it POST only; the declaration's "POST"
// would answer any other method with a 405 too.
func createUser(w http.ResponseWriter, r *http.Request) {
	var u newUser
	if err := newUserEntity.Bind(r, &u); err != nil {
		log.Printf("%s /api/users: %v", r.Method, err)
		entity.WriteError(w, err) // as problem details, in the messages' language
		return
	}
	// A real service stores u here.
	if err := createdUserEntity.WriteStatus(w, http.StatusCreated, u); err != nil {
		log.Printf("%s /api/users: %v", r.Method, err)
	}
}

func main() {
	addr := flag.String("addr", ":3333", "address to listen on (port 0: any free port)")
	flag.IntVar(&dbRows, "db-rows", dbRows, "rows of the SQLite users table")
	flag.Parse()
	if err := checkEntities(); err != nil {
		log.Fatal(err)
	}
	if _, err := usersDB(); err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	// The address as bound: with -addr 127.0.0.1:0, the port chosen (the
	// load test reads it from this line).
	log.Printf("seedserver listening on %s", ln.Addr())
	srv := &http.Server{Handler: newMux(), ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(srv.Serve(ln))
}
