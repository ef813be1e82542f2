// Package reqsource says where a request reads the fields of an entity's
// request view that no source directive places (body fields): the one
// rule that package entity's request reading and package schema's
// documents share, so that a document lists what a request reads.
package reqsource

import "net/http"

// QueryMethod reports whether a request of method reads its body fields
// from the query string rather than from a body: GET, HEAD, DELETE,
// OPTIONS, TRACE and CONNECT, whose requests carry no body a server is
// meant to read (RFC 9110: their content has no defined semantics, or is
// not allowed). A request of any other method (POST, PUT, PATCH, and
// methods of other specifications) reads them from its body only. Only
// value fields are read from a query, which holds text: a group or a
// reference, an object, is read from a body only.
func QueryMethod(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodDelete, http.MethodOptions, http.MethodTrace, http.MethodConnect:
		return true
	}
	return false
}
