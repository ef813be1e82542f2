package schema

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

// OpenAPI 3.1: Components holds the schemas of a set of entities for one
// audience, under OpenAPI component names, and gives the pieces an API
// document is made of (a reference to an entity's schema, a request body,
// the parameters a request reads outside its body, the problem details);
// OpenAPI assembles a whole document for a list of Routes from them.

// OpenAPIVersion is the "openapi" member of the documents OpenAPI writes.
const OpenAPIVersion = "3.1.0"

// requestSuffix ends the component name of an entity's Request schema.
const requestSuffix = ".request"

// Components is the components.schemas of an OpenAPI 3.1 document, for
// the audience its options say (see JSON): each entity added, in the modes
// asked, and every entity their schemas reference, each once, under its
// component name (ComponentName); the problem details when asked. A
// Components is built by one goroutine at a time.
type Components struct {
	opts     []entity.Option
	schemas  map[string]json.RawMessage
	owner    map[string]string // component name → what it was made from
	warnings map[string]bool
}

// NewComponents returns an empty set of components whose schemas describe
// what calls made with opts see (With, Version; other options are
// ignored).
func NewComponents(opts ...entity.Option) *Components {
	return &Components{opts: opts, schemas: map[string]json.RawMessage{}, owner: map[string]string{}, warnings: map[string]bool{}}
}

// ComponentName returns the component name of an entity's schema in a
// mode: its name, each byte OpenAPI does not allow in one (letters,
// digits, ".", "-", "_") written as "_" and two hexadecimal digits, and
// ".request" for a Request.
func ComponentName(name string, mode Mode) string {
	comp := escapeBytes(name, func(c byte) bool {
		return isAlnum(c) || c == '.' || c == '-' || c == '_'
	}, '_', "0123456789abcdef")
	if mode == Request {
		comp += requestSuffix
	}
	return comp
}

func componentRef(comp string) string { return "#/components/schemas/" + comp }

func entityComponentRef(name string, mode Mode) string {
	return componentRef(ComponentName(name, mode))
}

// Ref adds the schema of e in mode, and of every entity it references, and
// returns a reference to it: {"$ref":"#/components/schemas/NAME"}. A
// Request component is e as an object inside another (its X- fields are
// keys there); see Body for a request's body. It fails as JSON does, and
// when two names become one component name.
func (c *Components) Ref(e *entity.Entity, mode Mode) (json.RawMessage, error) {
	if e == nil {
		return nil, errNilEntity
	}
	if err := c.add(e, mode); err != nil {
		return nil, err
	}
	return compact(map[string]any{"$ref": entityComponentRef(e.Name(), mode)})
}

// Body returns the schema of a body made with e: in a Response, the
// reference Ref gives; in a Request, the same unless e has header fields,
// else e's object schema without them, inline, its references to
// components. Every entity it references is added.
func (c *Components) Body(e *entity.Entity, mode Mode) (json.RawMessage, error) {
	if e == nil {
		return nil, errNilEntity
	}
	if mode != Request || !hasHeaders(e.RequestFields(c.opts...)) {
		return c.Ref(e, mode)
	}
	g, err := newGen(mode, c.opts, entityComponentRef)
	if err != nil {
		return nil, err
	}
	s := g.entity(e, true)
	if err := c.drain(g); err != nil {
		return nil, err
	}
	return compact(s)
}

// hasHeaders reports whether a request reads some of fs from its headers.
func hasHeaders(fs []*entity.Field) bool {
	for _, f := range fs {
		if isHeader(f) || f.Kind == dsl.FieldGroup && hasHeaders(f.Fields) {
			return true
		}
	}
	return false
}

// Parameter is a value a request reads outside its body, as OpenAPI
// lists it in an operation's "parameters".
type Parameter struct {
	Name     string          // the header's or the query key's name
	In       string          // "header" or "query"
	Required bool            // `req` without a default
	Schema   json.RawMessage // the value's request schema, never null (a parameter is text, or not there)
}

// MarshalJSON writes the parameter as an OpenAPI Parameter Object.
func (p Parameter) MarshalJSON() ([]byte, error) {
	m := map[string]any{"name": p.Name, "in": p.In, "schema": p.Schema}
	if p.Required {
		m["required"] = true
	}
	return compact(m)
}

// Parameters returns the parameters a request made with e reads: its
// header fields (X-), and when query is true (a request without a body:
// GET, HEAD, DELETE) its other value fields, groups' fields included, as
// query parameters. References are read from a body only. A name read by
// two fields is one parameter.
func (c *Components) Parameters(e *entity.Entity, query bool) ([]Parameter, error) {
	if e == nil {
		return nil, errNilEntity
	}
	g, _ := newGen(Request, c.opts, entityComponentRef)
	var out []Parameter
	seen := map[string]bool{}
	var walk func(fs []*entity.Field, path string) error
	walk = func(fs []*entity.Field, path string) error {
		for _, f := range fs {
			switch {
			case f.Kind == dsl.FieldGroup:
				if err := walk(f.Fields, path+f.Name+"."); err != nil {
					return err
				}
				continue
			case f.Kind == dsl.FieldRef:
				continue
			case !isHeader(f) && !query:
				continue
			}
			p := Parameter{Name: f.Key, In: "query", Required: requestRequired(f)}
			if isHeader(f) {
				p.Name, p.In = f.Name, "header"
			}
			if key := p.In + " " + strings.ToLower(p.Name); seen[key] {
				continue
			} else {
				seen[key] = true
			}
			s, err := compact(g.value(e, f, path+f.Name, false, f.Secret))
			if err != nil {
				return err
			}
			p.Schema = s
			out = append(out, p)
		}
		return nil
	}
	if err := walk(e.RequestFields(c.opts...), ""); err != nil {
		return nil, err
	}
	if err := c.drain(g); err != nil {
		return nil, err
	}
	return out, nil
}

// Problem adds the schemas of the problem details (ProblemName) and of one
// entry of their "errors" (FieldErrorName), with problem types under base
// (see entity.Registry.ProblemTypeBase), and returns the reference to the
// first.
func (c *Components) Problem(base string) (json.RawMessage, error) {
	problem, fieldError := problemSchemas(base, componentRef(FieldErrorName))
	for _, s := range []struct {
		name string
		v    map[string]any
	}{{ProblemName, problem}, {FieldErrorName, fieldError}} {
		if err := c.put(s.name, "the problem details", s.v); err != nil {
			return nil, err
		}
	}
	return compact(map[string]any{"$ref": componentRef(ProblemName)})
}

// Schemas returns the components, by name: the caller's to modify.
func (c *Components) Schemas() map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(c.schemas))
	for k, v := range c.schemas {
		out[k] = append(json.RawMessage(nil), v...)
	}
	return out
}

// MarshalJSON writes the components as the JSON object of
// components.schemas, its keys sorted.
func (c *Components) MarshalJSON() ([]byte, error) { return compact(c.schemas) }

// Warnings returns what the schemas added so far cannot say, sorted (see
// the package's Warnings).
func (c *Components) Warnings() []string { return sortedKeys(c.warnings) }

// add adds the schema of e in mode, and those of the entities it
// references.
func (c *Components) add(e *entity.Entity, mode Mode) error {
	g, err := newGen(mode, c.opts, entityComponentRef)
	if err != nil {
		return err
	}
	g.queue, g.queued[e.Name()] = []*entity.Entity{e}, true
	return c.drain(g)
}

// drain adds the schema of each entity g has queued, and of those they
// reference, in g's mode; and g's warnings.
func (c *Components) drain(g *gen) error {
	for len(g.queue) > 0 {
		d := g.queue[0]
		g.queue = g.queue[1:]
		name := ComponentName(d.Name(), g.mode)
		if c.owner[name] == entityOwner(d.Name(), g.mode) {
			continue // added before
		}
		s := g.entity(d, false)
		if g.err != nil {
			return g.err
		}
		if err := c.put(name, entityOwner(d.Name(), g.mode), s); err != nil {
			return err
		}
	}
	for w := range g.warnings {
		c.warnings[w] = true
	}
	return g.err
}

func entityOwner(name string, mode Mode) string {
	return fmt.Sprintf("the %s schema of entity %q", mode, name)
}

// put sets the component name to s, made from what from says.
func (c *Components) put(name, from string, s map[string]any) error {
	if prev, dup := c.owner[name]; dup && prev != from {
		return fmt.Errorf("schema: %s and %s are both the component %q", prev, from, name)
	}
	b, err := compact(s)
	if err != nil {
		return err
	}
	c.owner[name], c.schemas[name] = from, b
	return nil
}

// Info is the "info" of an OpenAPI document.
type Info struct {
	Title       string // required
	Version     string // the API's version (not OpenAPI's); required
	Description string // optional, CommonMark
}

// Route is one operation of an API, for OpenAPI.
type Route struct {
	Method string // an HTTP method: GET, POST…
	// Path is the route's path as OpenAPI templates it: "/api/users" or
	// "/api/users/{id}" (each {name} is a required path parameter, a
	// string: MakeRequest does not read the path).
	Path string
	// Request is the entity the handler reads the request with
	// (MakeRequest or Bind), or nil for none. Its X- fields are header
	// parameters; its other fields are query parameters on GET, HEAD and
	// DELETE, and a JSON request body otherwise.
	Request *entity.Entity
	// Response is the entity the answer is made with (Write), or nil for
	// an answer without a body.
	Response *entity.Entity
	// Status is the success status, 200 when 0.
	Status  int
	Summary string // optional
}

// OpenAPI returns an OpenAPI 3.1 document for the routes, as calls made
// with opts see the entities (With, Version: see JSON; the document of an
// audience lists only what it sees), indented, its keys sorted, the same
// bytes every time: "info", "paths", and "components" with the schemas
// of the routes' entities (and of those they reference) and the problem
// responses. Each operation has:
//
//   - a path parameter for each {name} of its path;
//   - its Request entity's X- fields as header parameters (required where
//     `req` has no default), and its other fields as query parameters on
//     GET, HEAD and DELETE (groups flattened), or else as a JSON request
//     body (the entity's Request schema, without its X- fields);
//   - its success response: the Response entity's Response schema as
//     application/json, or no content;
//   - the problem details error responses (application/problem+json,
//     the Problem schema) the handler may answer: 400 (validation, invalid
//     JSON), 405 where the Request entity names its methods, 413 and 415
//     where there is a request body, and 500.
//
// The problem types are under the problem type base of the routes'
// registry. It fails on a route whose method, path or status is not one,
// on two routes of one method and path, and as Components does.
func OpenAPI(info Info, routes []Route, opts ...entity.Option) ([]byte, error) {
	if info.Title == "" || info.Version == "" {
		return nil, fmt.Errorf("schema: OpenAPI: the info needs a Title and a Version")
	}
	c := NewComponents(opts...)
	var reg *entity.Registry // its problem type base; a nil registry's is the default
	for _, rt := range routes {
		for _, e := range []*entity.Entity{rt.Request, rt.Response} {
			if e != nil && reg == nil {
				reg = e.Registry()
			}
		}
	}
	if _, err := c.Problem(reg.ProblemTypeBase()); err != nil {
		return nil, err
	}
	paths := map[string]any{}
	for _, rt := range routes {
		op, err := c.operation(rt)
		if err != nil {
			return nil, err
		}
		item, _ := paths[rt.Path].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[rt.Path] = item
		}
		m := strings.ToLower(rt.Method)
		if _, dup := item[m]; dup {
			return nil, fmt.Errorf("schema: OpenAPI: two routes for %s %s", strings.ToUpper(rt.Method), rt.Path)
		}
		item[m] = op
	}
	infoObj := map[string]any{"title": info.Title, "version": info.Version}
	if info.Description != "" {
		infoObj["description"] = info.Description
	}
	return marshal(map[string]any{
		"openapi": OpenAPIVersion,
		"info":    infoObj,
		"paths":   paths,
		"components": map[string]any{
			"schemas":   c.schemas,
			"responses": problemResponses(),
		},
	})
}

// operation returns the OpenAPI operation of a route.
func (c *Components) operation(rt Route) (map[string]any, error) {
	method := strings.ToUpper(rt.Method)
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodTrace:
	default:
		return nil, fmt.Errorf("schema: OpenAPI: %q is not an HTTP method OpenAPI describes", rt.Method)
	}
	if !strings.HasPrefix(rt.Path, "/") {
		return nil, fmt.Errorf("schema: OpenAPI: path %q does not start with /", rt.Path)
	}
	status := rt.Status
	if status == 0 {
		status = http.StatusOK
	}
	if status < 100 || status > 399 {
		return nil, fmt.Errorf("schema: OpenAPI: %s %s: status %d is no success status", method, rt.Path, rt.Status)
	}
	op := map[string]any{}
	if rt.Summary != "" {
		op["summary"] = rt.Summary
	}
	params, err := pathParams(rt.Path)
	if err != nil {
		return nil, err
	}
	errorStatuses := []int{http.StatusBadRequest, http.StatusInternalServerError}
	if e := rt.Request; e != nil {
		inQuery := method == http.MethodGet || method == http.MethodHead || method == http.MethodDelete
		ps, err := c.Parameters(e, inQuery)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			params = append(params, p)
		}
		if !inQuery {
			body, err := c.Body(e, Request)
			if err != nil {
				return nil, err
			}
			op["requestBody"] = map[string]any{"content": map[string]any{"application/json": map[string]any{"schema": body}}}
			errorStatuses = append(errorStatuses, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType)
		}
		if len(e.Decl().Methods) > 0 {
			errorStatuses = append(errorStatuses, http.StatusMethodNotAllowed)
		}
	}
	if len(params) > 0 {
		op["parameters"] = params
	}
	success := map[string]any{"description": http.StatusText(status)}
	if e := rt.Response; e != nil {
		ref, err := c.Ref(e, Response)
		if err != nil {
			return nil, err
		}
		if bodyAllowed(status) && method != http.MethodHead {
			success["content"] = map[string]any{"application/json": map[string]any{"schema": ref}}
		}
	}
	responses := map[string]any{strconv.Itoa(status): success}
	sort.Ints(errorStatuses)
	for _, s := range errorStatuses {
		responses[strconv.Itoa(s)] = map[string]any{"$ref": "#/components/responses/" + problemResponseName(s)}
	}
	op["responses"] = responses
	return op, nil
}

// bodyAllowed reports whether a response of the status may have a body.
func bodyAllowed(status int) bool {
	return !(status >= 100 && status < 200 || status == http.StatusNoContent || status == http.StatusNotModified)
}

// pathParams returns a path parameter for each {name} of path.
func pathParams(path string) ([]any, error) {
	var params []any
	rest := path
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 || j == 1 {
			return nil, fmt.Errorf("schema: OpenAPI: path %q has a { without a name and }", path)
		}
		name := rest[i+1 : i+j]
		params = append(params, map[string]any{"name": name, "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		rest = rest[i+j+1:]
	}
	return params, nil
}

// problemResponseStatuses are the error statuses an operation may list.
var problemResponseStatuses = []int{
	http.StatusBadRequest, http.StatusMethodNotAllowed, http.StatusRequestEntityTooLarge,
	http.StatusUnsupportedMediaType, http.StatusInternalServerError,
}

func problemResponseName(status int) string { return "Problem" + strconv.Itoa(status) }

// problemResponses returns the components.responses of the error answers:
// problem details, as entity.WriteError writes them.
func problemResponses() map[string]any {
	out := map[string]any{}
	for _, s := range problemResponseStatuses {
		out[problemResponseName(s)] = map[string]any{
			"description": http.StatusText(s) + ": RFC 9457 problem details",
			"content": map[string]any{"application/problem+json": map[string]any{
				"schema": map[string]any{"$ref": componentRef(ProblemName)},
			}},
		}
	}
	return out
}
