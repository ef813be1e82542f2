package entity

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/expose-go/expose/rules"
)

// OpenAPI 3.1 export: the registry's entities as components, and a whole
// document for a list of routes, built from the same walk as JSONSchema.

// OpenAPIVersion is the "openapi" member of the documents OpenAPI writes.
const OpenAPIVersion = "3.1.0"

// APIInfo is the "info" of an OpenAPI document.
type APIInfo struct {
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
	// (MakeRequest or Bind), or "" for none. Its X- fields are header
	// parameters; its other fields are query parameters on GET, HEAD and
	// DELETE, and a JSON request body otherwise.
	Request string
	// Response is the entity the answer is made with (Write), or "" for
	// an answer without a body.
	Response string
	// Status is the success status, 200 when 0.
	Status  int
	Summary string // optional
}

// The names of the components OpenAPI writes besides the entities'.
const (
	problemComponent    = "Problem"
	fieldErrorComponent = "ProblemFieldError"
	inputSuffix         = ".input"
)

// OpenAPIComponents returns an OpenAPI 3.1 fragment, {"components":
// {"schemas": …}}, indented, its keys sorted, to merge into a document:
// for every entity of the registry its output schema (see OutputSchema)
// under its name and its input schema (InputSchema, X- fields included,
// as they are keys inside another object) under its name and ".input"; a
// `$ref` is a reference to the component of the entity named. Names are
// written as OpenAPI allows component names (letters, digits, ".", "-",
// "_"; any other byte as "_" and its two hexadecimal digits). It also
// holds Problem and ProblemFieldError, the schemas of the RFC 9457
// problem details the registry writes (see WriteError).
//
// It fails when a `$ref` names no entity, or when two names become one
// component name.
func (r *Registry) OpenAPIComponents() ([]byte, error) {
	schemas, err := r.componentSchemas()
	if err != nil {
		return nil, err
	}
	return marshalSchema(map[string]any{"components": map[string]any{"schemas": schemas}})
}

// OpenAPI returns a whole OpenAPI 3.1 document for the routes, indented,
// its keys sorted: "info", "paths" and the "components" of
// OpenAPIComponents, plus the problem responses. Each operation has:
//
//   - a path parameter for each {name} of its path;
//   - its Request entity's X- fields as header parameters (required where
//     `req` has no default), and its other fields as query parameters on
//     GET, HEAD and DELETE (groups flattened as the query reads them), or
//     else as a JSON request body (the entity's input schema, without its
//     X- fields);
//   - its success response: the Response entity's output schema as
//     application/json, or no content;
//   - the problem details error responses (application/problem+json,
//     the Problem schema) the handler may answer: 400 (validation, invalid
//     JSON), 405 where the Request entity names its methods, 413 and 415
//     where there is a request body, and 500.
//
// It fails on a route whose method, path or status is not one, on two
// routes of one method and path, on an entity that is not exposed, and as
// OpenAPIComponents does.
func (r *Registry) OpenAPI(info APIInfo, routes []Route) ([]byte, error) {
	if info.Title == "" || info.Version == "" {
		return nil, fmt.Errorf("entity: OpenAPI: the info needs a Title and a Version")
	}
	schemas, err := r.componentSchemas()
	if err != nil {
		return nil, err
	}
	paths := map[string]any{}
	for _, rt := range routes {
		op, err := r.operation(rt)
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
			return nil, fmt.Errorf("entity: OpenAPI: two routes for %s %s", rt.Method, rt.Path)
		}
		item[m] = op
	}
	infoObj := map[string]any{"title": info.Title, "version": info.Version}
	if info.Description != "" {
		infoObj["description"] = info.Description
	}
	doc := map[string]any{
		"openapi": OpenAPIVersion,
		"info":    infoObj,
		"paths":   paths,
		"components": map[string]any{
			"schemas":   schemas,
			"responses": problemResponses(),
		},
	}
	return marshalSchema(doc)
}

// componentSchemas returns the components.schemas of the registry.
func (r *Registry) componentSchemas() (map[string]any, error) {
	out := map[string]any{}
	owner := map[string]string{} // component name → what it was made from
	add := func(comp, from string, s map[string]any) error {
		if prev, dup := owner[comp]; dup {
			return fmt.Errorf("entity: OpenAPI: %s and %s are both the component %q", prev, from, comp)
		}
		owner[comp] = from
		out[comp] = s
		return nil
	}
	problem, fieldError := problemSchemas(r.ProblemTypeBase(), componentRef(fieldErrorComponent))
	if err := add(problemComponent, "the problem details", problem); err != nil {
		return nil, err
	}
	if err := add(fieldErrorComponent, "a problem's field error", fieldError); err != nil {
		return nil, err
	}
	for _, mode := range []SchemaMode{OutputSchema, InputSchema} {
		g, _ := newSchemaGen(mode, entityComponentRef)
		for _, name := range r.Names() {
			e := r.Lookup(name)
			if e == nil {
				continue
			}
			s := g.entity(e, false)
			if g.err != nil {
				return nil, g.err
			}
			from := fmt.Sprintf("the %s schema of entity %q", mode, name)
			if err := add(componentName(name, mode), from, s); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// componentName returns the component name of an entity's schema in a
// mode: the name, bytes OpenAPI does not allow in one written as "_" and
// two hexadecimal digits, and ".input" for InputSchema.
func componentName(name string, mode SchemaMode) string {
	comp := escapeBytes(name, func(c byte) bool {
		return isAlnumByte(c) || c == '.' || c == '-' || c == '_'
	}, '_', "0123456789abcdef")
	if mode == InputSchema {
		comp += inputSuffix
	}
	return comp
}

func componentRef(comp string) string { return "#/components/schemas/" + comp }

func entityComponentRef(name string, mode SchemaMode) string {
	return componentRef(componentName(name, mode))
}

// operation returns the OpenAPI operation of a route.
func (r *Registry) operation(rt Route) (map[string]any, error) {
	method := strings.ToUpper(rt.Method)
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodTrace:
	default:
		return nil, fmt.Errorf("entity: OpenAPI: %q is not an HTTP method OpenAPI describes", rt.Method)
	}
	if !strings.HasPrefix(rt.Path, "/") {
		return nil, fmt.Errorf("entity: OpenAPI: path %q does not start with /", rt.Path)
	}
	status := rt.Status
	if status == 0 {
		status = http.StatusOK
	}
	if status < 100 || status > 399 {
		return nil, fmt.Errorf("entity: OpenAPI: %s %s: status %d is no success status", rt.Method, rt.Path, rt.Status)
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
	if rt.Request != "" {
		e, err := r.entity(rt.Request)
		if err != nil {
			return nil, err
		}
		g, _ := newSchemaGen(InputSchema, entityComponentRef)
		inQuery := method == http.MethodGet || method == http.MethodHead || method == http.MethodDelete
		params = append(params, g.requestParams(e, e.base, inQuery)...)
		if !inQuery {
			body := map[string]any{"$ref": entityComponentRef(e.name, InputSchema)}
			if hasHeaderFields(e.base) {
				body = g.entity(e, true) // the input schema without its headers
			}
			op["requestBody"] = map[string]any{"content": map[string]any{"application/json": map[string]any{"schema": body}}}
			errorStatuses = append(errorStatuses, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType)
		}
		if g.err != nil {
			return nil, g.err
		}
		if len(e.methods) > 0 {
			errorStatuses = append(errorStatuses, http.StatusMethodNotAllowed)
		}
	}
	if len(params) > 0 {
		op["parameters"] = params
	}
	success := map[string]any{"description": http.StatusText(status)}
	if rt.Response != "" {
		e, err := r.entity(rt.Response)
		if err != nil {
			return nil, err
		}
		if bodyAllowed(status) && method != http.MethodHead {
			success["content"] = map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": entityComponentRef(e.name, OutputSchema)}}}
		}
	}
	responses := map[string]any{strconv.Itoa(status): success}
	for _, s := range errorStatuses {
		responses[strconv.Itoa(s)] = map[string]any{"$ref": "#/components/responses/" + problemResponseName(s)}
	}
	op["responses"] = responses
	return op, nil
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
			return nil, fmt.Errorf("entity: OpenAPI: path %q has a { without a name and }", path)
		}
		name := rest[i+1 : i+j]
		params = append(params, map[string]any{"name": name, "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		rest = rest[i+j+1:]
	}
	return params, nil
}

// requestParams returns the parameters a request entity reads: its X-
// fields as headers, and its other fields, groups flattened, as query
// parameters when inQuery. References are left to the body.
func (g *schemaGen) requestParams(e *Entity, p *objectPlan, inQuery bool) []any {
	return g.params(e, p, inQuery, map[string]bool{})
}

// params is requestParams; seen holds the parameters listed already: a
// name read by two fields (a group's and the top's) is one parameter, as
// the request has one value under it.
func (g *schemaGen) params(e *Entity, p *objectPlan, inQuery bool, seen map[string]bool) []any {
	var params []any
	for _, n := range p.nodes {
		switch {
		case !n.readByDefault():
			continue // readonly, or read only under a flag or another version
		case n.kind == nodeGroup:
			params = append(params, g.params(e, n.group, inQuery, seen)...)
			continue
		case n.kind == nodeRef:
			continue
		case n.header == "" && !inQuery:
			continue
		}
		where := "query"
		if n.header != "" {
			where = "header"
		}
		if seen[where+" "+n.in] {
			continue
		}
		seen[where+" "+n.in] = true
		// A parameter is text, or not there: never null.
		param := map[string]any{"name": n.in, "in": where, "schema": g.valueSchemaOf(e, n, false)}
		if n.inputRequired() {
			param["required"] = true
		}
		if n.typ == rules.List && where == "query" {
			param["explode"] = true // a repeated key: ?tag=a&tag=b
		}
		params = append(params, param)
	}
	return params
}

// hasHeaderFields reports whether a request reads some of p's fields from
// its headers.
func hasHeaderFields(p *objectPlan) bool {
	for _, n := range p.nodes {
		if n.header != "" || n.kind == nodeGroup && hasHeaderFields(n.group) {
			return true
		}
	}
	return false
}

// problemResponseStatuses are the error statuses an operation may list.
var problemResponseStatuses = []int{
	http.StatusBadRequest, http.StatusMethodNotAllowed, http.StatusRequestEntityTooLarge,
	http.StatusUnsupportedMediaType, http.StatusInternalServerError,
}

func problemResponseName(status int) string {
	return "Problem" + strconv.Itoa(status)
}

// problemResponses returns the components.responses of the error answers:
// problem details, as WriteError writes them.
func problemResponses() map[string]any {
	out := map[string]any{}
	for _, s := range problemResponseStatuses {
		out[problemResponseName(s)] = map[string]any{
			"description": http.StatusText(s) + ": RFC 9457 problem details",
			"content": map[string]any{problemContentType: map[string]any{
				"schema": map[string]any{"$ref": componentRef(problemComponent)},
			}},
		}
	}
	return out
}
