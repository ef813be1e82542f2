// Package reqsource says where a request reads the fields of an entity's
// request view that no source directive places (body fields): the one
// rule that package entity's request reading and package schema's
// documents share, so that a document lists what a request reads.
package reqsource

import "net/http"

// QueryMethod reports whether a request of method reads its body fields
// from the query string when it has no body: GET, HEAD, DELETE and
// OPTIONS (and "", GET to net/http's client), which give a request's
// content no meaning. A request of any other method (POST, PUT, PATCH,
// TRACE, methods of other specifications) reads them from its body only,
// an absent body being an empty object: a link or a cross-site form can
// set a URL's query. Only value fields are read from a query, which holds
// text: a group or a reference, an object, is read from a body only.
func QueryMethod(method string) bool {
	switch method {
	case "", http.MethodGet, http.MethodHead, http.MethodDelete, http.MethodOptions:
		return true
	}
	return false
}
