package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
	"github.com/expose-go/expose/internal/reqsource"
)

// Operation is what a route's handler reads and answers, for the OpenAPI
// document (see schema.Route, which it becomes, for what each says there).
type Operation struct {
	// ID is the operationId; "" derives one from the pattern: the method
	// and the path's words, each wildcard as "By" and its name ("GET
	// /customers/{id}": "getCustomersById"), with a number after it when
	// another operation has it.
	ID          string
	Summary     string
	Description string // CommonMark
	Tags        []string
	// Params is the entity the handler reads the request's parameters
	// with, apart from its body (Request's own path, query, header and
	// cookie fields are parameters too: MakeRequest, Bind and Patch read
	// them). Nil for none.
	Params *entity.Entity
	// Request is the entity the handler reads the request with:
	// MakeRequest or Bind, or Patch on PATCH (a JSON Merge Patch body).
	// Its path fields type the pattern's wildcards. Nil for none.
	Request *entity.Entity
	// Response is the entity the answer is written with; nil for an answer
	// without a body.
	Response *entity.Entity
	// Status is the success status: 200 when 0.
	Status int
	// Select names the query parameter the handler passes to
	// entity.Select ("fields": Select(r.FormValue("fields"))), "" for
	// none: the document then says its grammar and the Response entity's
	// keys, and that a success response may leave out any field (see
	// schema.Route.Select). A field of Params or Request that reads it
	// must default to a selection of the Response entity.
	Select string
	// Errors are the handler's own error answers, problem details (404
	// for an id that names nothing, 409 for a conflict), beside the
	// library's (400, 413, 415, 500).
	Errors []schema.ErrorResponse
	// Security lists the ways a client may authenticate, any one of which
	// is enough.
	Security []schema.Security
	// IfMatch says that the handler evaluates the request's If-Match (a
	// PUT's or a PATCH's) with Precondition before it changes anything: the
	// document lists the If-Match header and the 412 answer.
	IfMatch bool
	// Stream says that the handler answers a stream of Response objects
	// with entity.EncodeSeq: schema.StreamNDJSON when it sets the
	// Content-Type application/x-ndjson, schema.StreamArray when it
	// writes the JSON array, both when it picks by the request's Accept.
	// The document then gives each media type with the element's schema,
	// and the docs page says "a stream of"; a stream's answer carries no
	// ETag.
	Stream schema.Stream
}

// clone returns a copy of the operation that shares no slice with the
// caller's.
func (op Operation) clone() Operation {
	op.Tags = slices.Clone(op.Tags)
	op.Errors = slices.Clone(op.Errors)
	op.Security = slices.Clone(op.Security)
	for i, s := range op.Security {
		op.Security[i].Scopes = slices.Clone(s.Scopes)
	}
	return op
}

// entities returns the operation's entities, in the order Params,
// Request, Response.
func (op Operation) entities() []*entity.Entity {
	var out []*entity.Entity
	for _, e := range []*entity.Entity{op.Params, op.Request, op.Response} {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// schemaRoute returns the route as the schema package describes it.
func (rt *route) schemaRoute() schema.Route {
	op := rt.op
	return schema.Route{
		Method: rt.method, Path: rt.path, OperationID: op.ID, Summary: op.Summary, Description: op.Description,
		Tags: op.Tags, Params: op.Params, Request: op.Request, Response: op.Response, Status: op.Status,
		Select: op.Select, Errors: op.Errors, Security: op.Security,
		ETag: rt.tagged, IfMatch: op.IfMatch, Stream: op.Stream,
	}
}

// parsePattern splits an http.ServeMux pattern into its method and its
// path as OpenAPI templates it: "{name...}" as "{name}", "{$}" left out.
func parsePattern(pattern string) (method, path string, err error) {
	bad := func(why string) error { return fmt.Errorf("api: pattern %q: %s", pattern, why) }
	method, rest, found := strings.Cut(strings.TrimLeft(pattern, " \t"), " ")
	rest = strings.TrimLeft(rest, " \t")
	switch {
	case !found || strings.HasPrefix(method, "/"):
		return "", "", bad(`it names no method: an operation is "METHOD /path"`)
	case !isToken(method):
		return "", "", bad("its method is not one")
	case !strings.HasPrefix(rest, "/"):
		return "", "", bad("its path does not start with / (an operation's pattern names no host)")
	}
	var b strings.Builder
	for rest != "" {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			b.WriteString(rest)
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return "", "", bad("a { has no }")
		}
		b.WriteString(rest[:i])
		name := rest[i+1 : i+j]
		switch {
		case name == "$":
		case strings.HasSuffix(name, "..."):
			b.WriteString("{" + strings.TrimSuffix(name, "...") + "}")
		default:
			b.WriteString("{" + name + "}")
		}
		rest = rest[i+j+1:]
	}
	return method, b.String(), nil
}

// isToken reports whether s is an HTTP token (RFC 9110), as a method is.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// wildcards returns the names of the {name} of an OpenAPI path.
func wildcards(path string) []string {
	var names []string
	for {
		i := strings.IndexByte(path, '{')
		if i < 0 {
			return names
		}
		j := strings.IndexByte(path[i:], '}')
		if j < 0 {
			return names
		}
		names = append(names, path[i+1:i+j])
		path = path[i+j+1:]
	}
}

// checkPathFields checks that each path field of the operation's entities
// (of the entities they merge too: the parameters the document lists)
// reads a wildcard of the pattern: one that does not would read nothing.
func checkPathFields(pattern, path string, op Operation) error {
	names := wildcards(path)
	for _, e := range []*entity.Entity{op.Params, op.Request} {
		if e == nil {
			continue
		}
		ps, err := schema.NewComponents().Parameters(e, false)
		if err != nil {
			continue // a $ref that names no entity (yet): the document says so
		}
		for _, p := range ps {
			if p.In == "path" && !slices.Contains(names, p.Name) {
				return fmt.Errorf("api: Handle %s: entity %q reads the path value %q, which the pattern has no wildcard for", pattern, e.Name(), p.Name)
			}
		}
	}
	return nil
}

// checkSelect checks that an operation that names a selection parameter
// has a Response entity to select from, and that the default of the field
// that reads the parameter (if any) is a selection of it: otherwise every
// request without the parameter would fail.
func checkSelect(pattern, method string, op Operation) error {
	if op.Select == "" {
		return nil
	}
	if op.Response == nil {
		return fmt.Errorf("api: Handle %s: Select names the parameter %q, but the operation has no Response entity to select from", pattern, op.Select)
	}
	for _, e := range []*entity.Entity{op.Params, op.Request} {
		if e == nil {
			continue
		}
		ps, err := schema.NewComponents().Parameters(e, reqsource.QueryMethod(method))
		if err != nil {
			continue // a $ref that names no entity (yet): the document says so
		}
		for _, p := range ps {
			var s struct{ Default *string }
			if p.In != "query" || p.Name != op.Select || json.Unmarshal(p.Schema, &s) != nil || s.Default == nil {
				continue
			}
			if _, err := op.Response.MakeJSON(map[string]any{}, entity.Select(*s.Default)); errors.Is(err, entity.ErrInvalidFields) {
				return fmt.Errorf("api: Handle %s: entity %q reads the selection %q with a default that is no selection of entity %q: %w", pattern, e.Name(), op.Select, op.Response.Name(), err)
			}
		}
	}
	return nil
}

// deriveID returns an operationId for a route of method and path that no
// operation has: "getCustomersById", then "getCustomersById2".
func (a *API) deriveID(method, path string) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, seg := range strings.Split(path, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			b.WriteString("By")
			seg = seg[1 : len(seg)-1]
		}
		upper := true
		for _, c := range seg {
			switch {
			case c < unicode.MaxASCII && (unicode.IsLetter(c) || unicode.IsDigit(c)):
				if upper {
					c = unicode.ToUpper(c)
				}
				b.WriteRune(c)
				upper = false
			default:
				upper = true
			}
		}
	}
	id := b.String()
	for n := 2; a.ids[id]; n++ {
		id = b.String() + strconv.Itoa(n)
	}
	return id
}
