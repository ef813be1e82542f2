package main

import (
	"log"
	"net/http"
	"strconv"

	"github.com/expose-go/expose/entity"
)

// apiRoutes are the server's API routes, for its OpenAPI document: the
// entity each reads its request with and makes its answer with. The naive
// and constant twins of the load test are left out: they are the same API.
var apiRoutes = []entity.Route{
	{Method: "GET", Path: "/api/test", Response: "users", Summary: "msful's load test payload: two users"},
	{Method: "GET", Path: "/api/users", Request: "usersquery", Response: "users", Summary: "n generated users"},
	{Method: "POST", Path: "/api/users", Request: "newuser", Response: "createduser", Status: http.StatusCreated, Summary: "create a user"},
	{Method: "GET", Path: "/api/db/users", Response: "dbusers", Summary: "the users of the SQLite database"},
}

// apiInfo is the OpenAPI document's info.
var apiInfo = entity.APIInfo{
	Title:       "seedserver",
	Version:     "1.0.0",
	Description: "msful's load test server, in Go, with expose: every schema here is exported from the entities the handlers run.",
}

// openAPIDoc returns the server's OpenAPI 3.1 document, made from the
// Default registry's entities.
func openAPIDoc() ([]byte, error) {
	return entity.Default.OpenAPI(apiInfo, apiRoutes)
}

// openAPIHandler serves the document made once, at start-up.
func openAPIHandler(doc []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Content-Length", strconv.Itoa(len(doc)))
		if _, err := w.Write(doc); err != nil {
			log.Printf("GET /openapi.json: %v", err)
		}
	}
}
