package engine

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/expose-go/expose/rules"
)

// Requests: an entity's request view reads what a client sends in the wire
// form (compile_view.go). A top-level field is read from one place: a
// header field from the headers; any other from the body when the request
// has one (JSON or a form), else from the query string.

// requestSource reads the top-level fields of a request.
type requestSource struct {
	r      *http.Request
	env    *Env // its PathValues
	query  url.Values
	form   url.Values
	files  []string    // the names of a multipart body's file parts (for DenyUnknown)
	js     *jsonObject // the JSON body, nil if none
	header http.Header
	body   bool // the request has a body (JSON or a form): fields are not read from the query
}

// get reads a field from where it comes: a parameter (path, query, header,
// cookie) from there only (a header a trusted proxy sets, X-User-Id, must
// not be supplied by the client in the query or the body when the proxy
// leaves it out); any other from the body, or from the query when there is
// no body. A list field gets every value of a repeated key (a query's, a
// header's); others get the first.
func (s *requestSource) get(n *node) raw {
	switch {
	case n.src == srcHeader:
		if vs := s.header[n.header]; len(vs) > 0 {
			return values(n, vs)
		}
	case n.src == srcQuery:
		if vs := s.query[n.in]; len(vs) > 0 {
			return values(n, vs)
		}
	case n.src == srcPath:
		if v := s.env.pathValue(s.r, n.in); v != "" {
			return raw{kind: rawStr, s: v}
		}
	case n.src == srcCookie:
		if c, err := s.r.Cookie(n.in); err == nil {
			return raw{kind: rawStr, s: c.Value}
		}
	case s.js != nil:
		return s.js.get(n.slot)
	case s.form != nil:
		if vs := s.form[n.in]; len(vs) > 0 {
			return values(n, vs)
		}
	case !s.body:
		if vs := s.query[n.in]; len(vs) > 0 {
			return values(n, vs)
		}
	}
	return raw{}
}

// isHeaderName reports whether a field of this name is read from the
// request's headers (only): a name that starts with X-.
func isHeaderName(name string) bool {
	return len(name) > 2 && strings.EqualFold(name[:2], "x-")
}

func values(n *node, vs []string) raw {
	if n.typ == rules.List {
		return raw{a: vs}
	}
	return raw{kind: rawStr, s: vs[0]}
}
