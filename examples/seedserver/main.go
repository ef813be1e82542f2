// Command seedserver is the server of msful's load test, in Go: it answers
// GET /api/test with the seed's users payload made through the entity.
//
//	cd examples && go run ./seedserver            # listens on :3333
//	curl http://127.0.0.1:3333/api/test
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
	return mux
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
