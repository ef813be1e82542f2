package main

import (
	"log"
	"net/http"
	"slices"
	"strconv"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// apiRoutes are the server's API routes, for its OpenAPI document: the
// entity each reads its request with and makes its answer with. The naive
// and constant twins of the load test are left out: they are the same API.
func apiRoutes() []schema.Route {
	return []schema.Route{
		{Method: "GET", Path: "/api/test", Response: usersEntity, Summary: "msful's load test payload: two users"},
		{Method: "GET", Path: "/api/users", Request: usersQueryEntity, Response: membersEntity, Summary: "n generated users"},
		{Method: "POST", Path: "/api/users", Request: newUserEntity, Response: createdUserEntity, Status: http.StatusCreated, Summary: "create a user"},
		{Method: "GET", Path: "/api/db/users", Response: dbUsersEntity, Summary: "the users of the SQLite database"},
	}
}

// apiInfo is the OpenAPI document's info.
var apiInfo = schema.Info{
	Title:       "seedserver",
	Version:     "1.0.0",
	Description: "msful's load test server, in Go, with expose: every schema here is exported from the entities the handlers run.",
}

// openAPIDoc returns the server's OpenAPI 3.1 document for an audience:
// with no option, what a caller without flags sees (no admin-only score);
// with entity.With("admin"), an admin's.
func openAPIDoc(opts ...entity.Option) ([]byte, error) {
	return schema.OpenAPI(apiInfo, apiRoutes(), opts...)
}

// openAPIHandler serves the documents made once, at start-up: the admin's
// to a request whose context carries the admin flag (withRoles), the
// public one to any other. The answer varies with X-Role, and says so, so
// that a cache never gives the admin's document to the public.
func openAPIHandler(public, admin []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		doc := public
		if slices.Contains(entity.FlagsFromContext(r.Context()), "admin") {
			doc = admin
		}
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Content-Length", strconv.Itoa(len(doc)))
		h.Add("Vary", "X-Role")
		if _, err := w.Write(doc); err != nil {
			log.Printf("GET /openapi.json: %v", err)
		}
	}
}
