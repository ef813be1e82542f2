// Package api registers HTTP handlers with the entities their operations
// read and answer, and serves the OpenAPI 3.1 document made from what was
// registered, so that the document cannot drift from the handlers, with a
// docs page made from the document.
//
// It stays a library a handler calls: the application keeps its
// http.ServeMux (or any router with a Handle method that takes its
// patterns), its server and its handlers, which read requests and write
// answers with package entity as they would without it.
//
//	mux := http.NewServeMux()
//	a := api.New(mux, api.Config{Info: schema.Info{Title: "shop", Version: "1.0.0"}, Vary: []string{"X-Role"}})
//	a.HandleFunc("GET /customers/{id}", getCustomer, api.Operation{
//		Summary:  "a customer",
//		Request:  customerRef, // id, number, path: the {id} wildcard, an integer
//		Response: customer,
//		Errors:   []schema.ErrorResponse{{Status: 404, Description: "no customer has this id"}},
//	})
//	http.ListenAndServe(addr, roles(mux)) // roles: entity.NewContext(r.Context(), "admin") for the staff
//
// Each operation records its method and pattern (Go 1.22 patterns: "POST
// /customers", "GET /customers/{id}"), its entities, success status, error
// answers, operationId (derived from the pattern when not given), tags,
// summary, description and security. Its {name} wildcards are typed by the
// path fields of its entities ([entity.Field.In]); a PATCH's body is a JSON
// Merge Patch of its Request entity (entity.Entity.Patch); an operation
// whose handler passes a query parameter to entity.Select names it
// ([Operation.Select]), so that the document says its grammar and keys and
// that a 200 may leave out any field; see [schema.OpenAPI] for the rest.
//
// The API registers GET /openapi.json, GET /docs and, for the answers of
// paths no route takes, "/": an unknown path is a 404, a method that no
// route of the path takes a 405 with Allow, both problem details in the
// request's language (entity.Registry.WriteRequestError).
//
// # Audiences
//
// The documents are made per audience: the flags and the version of the
// calls they describe ([Config.Audience]; by default the flags a
// middleware put in the request's context with entity.NewContext), so that
// the public document lists no field that only the staff see, each made
// once and kept. Their answers say Vary with the headers the application
// picks the audience by ([Config.Vary]), so that a cache never serves the
// staff's document to the public.
//
// # Caches and conditional requests
//
// A route whose Response entity, or an entity it references, has fields
// that flags or a version show or hide (if, unless, since, until)
// answers with Vary and the Config.Vary headers, every answer of it (its
// problems and 304s too), or Cache-Control: private when Config.Vary
// names none.
//
// A GET (HEAD), PUT or PATCH route with a Response entity, not a
// stream, answers a strong ETag of the bytes its handler wrote whole (its
// Content-Length says so, as entity.Write sets it): the first 16 bytes of
// their SHA-256 in hexadecimal, quoted, so that two audiences or two
// selections of one value have two tags. A GET or HEAD whose
// If-None-Match names the tag (weakly: W/"x" names "x"; a list; *) is
// answered 304 Not Modified with no body. A handler's own ETag is kept and
// compared; a body written in parts, or flushed, passes through untagged.
// A change checks If-Match before it changes anything with
// [Precondition], given the options the same caller's GET writes with:
//
//	opts := []entity.Option{entity.WithContext(r.Context()), entity.Select(q.Fields)}
//	if err := api.Precondition(r, customers, current, opts...); err != nil {
//		reg.WriteError(w, err) // 412: nothing is changed
//		return
//	}
//	// … the change, then customers.Write(w, changed, opts...): the new value's ETag
//
// and says so with [Operation.IfMatch]. The document gives every tagged
// operation's ETag header, a GET's If-None-Match and 304, and If-Match
// and the 412 where the handler checks it.
//
// # Streams
//
// An operation whose handler answers with entity.EncodeSeq says so with
// [Operation.Stream]: the document gives its media types
// (application/x-ndjson with the element's schema, described as one JSON
// value per line; application/json with an array of it), and the docs
// page says "a stream of".
//
// # The docs page
//
// /docs is one HTML page made from the audience's document: every
// operation with its parameters, request body and responses, every schema
// with its fields, their types, their rules in words as the schemas state
// them (and so nothing of a secret field's values, nor of the fields under
// a secret reference, which the schemas never hold), their descriptions
// and examples. Its style is inline; it has no script and asks nothing of
// any other host (its Content Security Policy lets it load nothing), and
// reads on a phone's width without scrolling sideways.
package api
