package engine

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/expose-go/expose/rules"
)

// Requests: an entity's request view reads what a client sends in the wire
// form (compile_view.go). A top-level field is read from one place: a
// parameter from where its directive says (a header field from the
// headers); any other from the body when the request has one (JSON or a
// form) or its method has one (package entity's methodHasBody: no body
// is then an empty object), else from the query string.

// requestSource reads the top-level fields of a request.
type requestSource struct {
	r      *http.Request
	env    *Env // its PathValues
	query  url.Values
	form   url.Values
	files  []string    // the names of a multipart body's file parts (for DenyUnknown)
	js     *jsonObject // the JSON body, nil if none
	header http.Header
	body   bool // the request has a body (JSON or a form), or its method has one: fields are not read from the query
	strict bool // the call reads strictly: a repeated key is a list, for every field (see keyValues)
}

// get reads a field from where it comes: a parameter (path, query, header,
// cookie) from there only (a header a trusted proxy sets, X-User-Id, must
// not be supplied by the client in the query or the body when the proxy
// leaves it out); any other from the body, or from the query when there is
// no body and the method has none (GET, HEAD, DELETE, OPTIONS). What the
// path, the query, a header or a cookie gives is a parameter's text
// (raw.param: an integer there is decimal digits). A query or form key is
// read by keyValues; a header gives a list field all its values, another
// field the first.
func (s *requestSource) get(n *node) raw {
	switch {
	case n.src == srcHeader:
		if vs := s.header[n.header]; len(vs) > 0 {
			if n.typ == rules.List {
				return raw{a: vs, param: true}
			}
			return raw{kind: rawStr, s: vs[0], param: true}
		}
	case n.src == srcQuery:
		if vs := s.query[n.in]; len(vs) > 0 {
			return s.keyValues(n, vs, true)
		}
	case n.src == srcPath:
		if v := s.env.pathValue(s.r, n.in); v != "" {
			return raw{kind: rawStr, s: v, param: true}
		}
	case n.src == srcCookie:
		if c, err := s.r.Cookie(n.in); err == nil {
			return raw{kind: rawStr, s: c.Value, param: true}
		}
	case s.js != nil:
		return s.js.get(n.slot)
	case s.form != nil:
		if vs := s.form[n.in]; len(vs) > 0 {
			return s.keyValues(n, vs, false)
		}
	case !s.body:
		if vs := s.query[n.in]; len(vs) > 0 {
			return s.keyValues(n, vs, true)
		}
	}
	return raw{}
}

// keyValues reads the values vs of a query or form key (param: the
// query's) for the field n: a list field gets them all; another field its
// one value, and a key repeated for it is a list (a type error, when
// strict: the client said two things where one is read), never the first
// of them silently (under Lax it is, as msful read it).
func (s *requestSource) keyValues(n *node, vs []string, param bool) raw {
	if n.typ == rules.List || len(vs) > 1 && s.strict {
		return raw{a: vs, param: param}
	}
	return raw{kind: rawStr, s: vs[0], param: param}
}

// isHeaderName reports whether a field of this name is read from the
// request's headers (only): a name that starts with X-.
func isHeaderName(name string) bool {
	return len(name) > 2 && strings.EqualFold(name[:2], "x-")
}
