package schema

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/internal/reqsource"
)

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
	// "/api/users/{id}". Each {name} is a required path parameter, of the
	// type of the path field of Params or Request that reads it (`path`:
	// see entity.Field.In), a string when none does.
	Path string
	// OperationID names the operation, unique among the document's; ""
	// leaves it out (package api derives one).
	OperationID string
	Summary     string   // optional
	Description string   // optional, CommonMark
	Tags        []string // optional
	// Params is the entity the handler reads the request's parameters with
	// apart from its body, or nil (a Request entity's own path, query,
	// header and cookie fields are parameters too). Its path, query,
	// header and cookie fields are parameters, and so are, on a method whose
	// requests read their body fields from the query (GET, HEAD, DELETE,
	// OPTIONS), its other value fields (query parameters); see
	// Components.Parameters.
	Params *entity.Entity
	// Request is the entity the handler reads the request with
	// (MakeRequest, Bind, or Patch on PATCH), or nil for none. Its path,
	// query, header and cookie fields are parameters; its other value
	// fields are query parameters on GET, HEAD, DELETE and OPTIONS
	// (its groups and references, objects, are not read there); on PATCH
	// its body is a JSON Merge Patch (application/merge-patch+json, its
	// Patch schema, which holds no parameter: entity.Entity.Patch reads
	// those from the request as MakeRequest does), and on another method a
	// JSON request body (its Request schema).
	Request *entity.Entity
	// Response is the entity the answer is made with (Write), or nil for
	// an answer without a body.
	Response *entity.Entity
	// Status is the success status, 200 when 0.
	Status int
	// Select names the query parameter whose value the handler passes to
	// entity.Select ("fields"), "" for none. Its schema then says the
	// selection's grammar and the Response entity's keys, with an example
	// and a default that select from it (the default of a field that
	// reads the parameter, which must be a selection of the Response
	// entity); the parameter is added when no entity reads it. And the
	// success response is the Response entity's schema as a selection
	// shapes it, the component NAME.partial: no field is required there,
	// nor judged by a cross-field rule, since a selection may leave out
	// any of them.
	Select string
	// Errors are the operation's other error answers, problem details of
	// the handler's own (404 for an unknown id, 409 for a conflict),
	// beside those of the library (see OpenAPI); one of a status the
	// library answers too replaces its description.
	Errors []ErrorResponse
	// Security lists the ways a client may authenticate for the
	// operation, any one of which is enough; nil for none.
	Security []Security
	// ETag says that the success response carries the strong ETag of its
	// body (package api's routes do on GET, HEAD, PUT and PATCH): the
	// document gives its ETag header, and on GET and HEAD the
	// If-None-Match header parameter and the 304 Not Modified response.
	ETag bool
	// IfMatch says that the handler evaluates the request's If-Match
	// against the current value (api.Precondition): the document gives the
	// If-Match header parameter and the 412 Precondition Failed problem
	// response.
	IfMatch bool
	// Stream says that the success response is a stream of the Response
	// entity's objects, as entity.EncodeSeq writes it, in the media types
	// it names; 0 for one response of the Response entity.
	Stream Stream
}

// Stream is the media types of a stream of objects, entity.EncodeSeq's,
// any of which a handler may answer (by the request's Accept).
type Stream uint8

// The media types of a stream.
const (
	// StreamArray: application/json, one JSON array, written as its
	// elements come. Its schema is an array of the element's.
	StreamArray Stream = 1 << iota
	// StreamNDJSON: application/x-ndjson, newline-delimited JSON, one
	// object a line. Its schema is the element's (OpenAPI 3.1 has no
	// keyword for a sequence of values), with a description that says
	// one JSON value per line.
	StreamNDJSON
)

// NDJSONType is the media type of newline-delimited JSON, which
// entity.EncodeSeq writes when the response's Content-Type says it.
const NDJSONType = "application/x-ndjson"

// ErrorResponse is an error answer of an operation: problem details
// (application/problem+json, the Problem schema) of a status.
type ErrorResponse struct {
	Status      int    // 400–599
	Description string // what it means for the operation; "" for the status's own words
}

// SecurityScheme is a way a client authenticates, an OpenAPI Security
// Scheme Object under components.securitySchemes.
type SecurityScheme struct {
	Name string // its name in the document: letters, digits, ".", "-", "_"
	// Type is "http", "apiKey", "mutualTLS" or "openIdConnect".
	Type         string
	Scheme       string // http: "bearer", "basic"…
	BearerFormat string // http bearer, optional: "JWT"
	In           string // apiKey: "header", "query" or "cookie"
	Param        string // apiKey: the name of the header, query parameter or cookie
	// OpenIDConnectURL is, for openIdConnect, the URL of the discovery
	// document.
	OpenIDConnectURL string
	Description      string // optional
}

// Security is one requirement of an operation: a scheme, and for
// openIdConnect the scopes it needs.
type Security struct {
	Scheme SecurityScheme
	Scopes []string
}

// formMediaTypes are the media types of the form bodies a Request entity
// whose methods hold the word form reads (dsl.Entity.Forms).
var formMediaTypes = [...]string{"application/x-www-form-urlencoded", "multipart/form-data"}

// OpenAPI returns an OpenAPI 3.1 document for the routes, as calls made
// with opts see the entities (With, Version: see JSON; the document of an
// audience lists only what it sees), indented, its keys sorted, the same
// bytes every time: "info", "paths", and "components" with the schemas
// of the routes' entities (and of those they reference), the problem
// responses and the security schemes, each one an operation uses (no
// component is declared that nothing references). Each operation has:
//
//   - its operationId, summary, description, tags and security, as the
//     route gives them;
//   - a path parameter for each {name} of its path, typed by the path field
//     that reads it;
//   - the parameters of its Params and Request entities
//     (Components.Parameters): their path, query, header and cookie
//     fields, those of the entities they merge included (required where
//     `req` has no default), and on GET, HEAD, DELETE and OPTIONS,
//     whose requests read their body fields from the query, their other
//     value fields as query parameters;
//   - its request body, on another method: on PATCH the Request entity's
//     Patch schema as application/merge-patch+json, required (Patch
//     refuses a request without one), else its Request schema as
//     application/json, and as application/x-www-form-urlencoded and
//     multipart/form-data too when the entity reads forms (the word form
//     among its methods), required when the schema requires a key (a
//     request without a body reads as an empty object);
//   - its success response: the Response entity's Response schema as
//     application/json, or no content; for a 201, its Location header,
//     the URI of the resource created (RFC 9110); for a Stream, the
//     media types it names, each marked "x-stream": true (StreamArray:
//     application/json, an array of the element's schema; StreamNDJSON:
//     application/x-ndjson, the element's schema, described as one JSON
//     value per line), and a description that says "a stream of";
//   - for ETag, the success response's ETag header, and on GET and HEAD
//     the If-None-Match header parameter and the 304 response; for
//     IfMatch, the If-Match header parameter and the 412 problem
//     response;
//   - the problem details error responses (application/problem+json,
//     the Problem schema) the library may answer: 400 (validation, invalid
//     JSON), 405 where the Request entity names its methods, 413 and 415
//     where there is a request body, and 500; and the route's Errors.
//
// The problem types are under the problem type base of the routes'
// registry. It fails on a route whose method, path, status or stream is
// not one (a stream needs a Response entity),
// on two routes of one method and path, on two operations of one
// operationId, on a path parameter of an entity that the path does not
// hold, on a security scheme that is not one or two of one name, and as
// Components does.
func OpenAPI(info Info, routes []Route, opts ...entity.Option) ([]byte, error) {
	if info.Title == "" || info.Version == "" {
		return nil, fmt.Errorf("schema: OpenAPI: the info needs a Title and a Version")
	}
	c := NewComponents(opts...)
	var reg *entity.Registry // its problem type base; a nil registry's is the default
	for _, rt := range routes {
		for _, e := range []*entity.Entity{rt.Params, rt.Request, rt.Response} {
			if e != nil && reg == nil {
				reg = e.Registry()
			}
		}
	}
	d := &document{c: c, ids: map[string]string{}, schemes: map[string]SecurityScheme{}}
	paths := map[string]any{}
	for _, rt := range routes {
		op, err := d.operation(rt)
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
	if len(d.statuses) > 0 { // the problem details, which the problem responses name
		if _, err := c.Problem(reg.ProblemTypeBase()); err != nil {
			return nil, err
		}
	}
	infoObj := map[string]any{"title": info.Title, "version": info.Version}
	if info.Description != "" {
		infoObj["description"] = info.Description
	}
	components := map[string]any{"schemas": c.schemas}
	if len(d.statuses) > 0 {
		components["responses"] = problemResponses(d.statuses)
	}
	if len(d.schemes) > 0 {
		s := map[string]any{}
		for name, sc := range d.schemes {
			s[name] = sc.object()
		}
		components["securitySchemes"] = s
	}
	return marshal(map[string]any{
		"openapi":    OpenAPIVersion,
		"info":       infoObj,
		"paths":      paths,
		"components": components,
	})
}

// document is what OpenAPI gathers from the routes of a document.
type document struct {
	c        *Components
	ids      map[string]string         // operationId → the route that has it
	schemes  map[string]SecurityScheme // by name
	statuses []int                     // of the problem responses referenced, each once
}

// operation returns the OpenAPI operation of a route.
func (d *document) operation(rt Route) (map[string]any, error) {
	c := d.c
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
	where := method + " " + rt.Path
	status := rt.Status
	if status == 0 {
		status = http.StatusOK
	}
	if status < 100 || status > 399 {
		return nil, fmt.Errorf("schema: OpenAPI: %s: status %d is no success status", where, rt.Status)
	}
	switch {
	case rt.Stream&^(StreamArray|StreamNDJSON) != 0:
		return nil, fmt.Errorf("schema: OpenAPI: %s: stream %d is not StreamArray, StreamNDJSON or both", where, rt.Stream)
	case rt.Stream != 0 && rt.Response == nil:
		return nil, fmt.Errorf("schema: OpenAPI: %s: a stream needs the Response entity of its elements", where)
	}
	op := map[string]any{}
	if id := rt.OperationID; id != "" {
		if prev, dup := d.ids[id]; dup {
			return nil, fmt.Errorf("schema: OpenAPI: %s and %s are both operation %q", prev, where, id)
		}
		d.ids[id] = where
		op["operationId"] = id
	}
	if rt.Summary != "" {
		op["summary"] = rt.Summary
	}
	if rt.Description != "" {
		op["description"] = rt.Description
	}
	if len(rt.Tags) > 0 {
		tags := make([]any, len(rt.Tags))
		for i, t := range rt.Tags {
			tags[i] = t
		}
		op["tags"] = tags
	}

	inQuery := reqsource.QueryMethod(method) // its body fields are read from the query
	errorStatuses := []int{http.StatusBadRequest, http.StatusInternalServerError}
	var params []Parameter
	seen := map[string]bool{}
	for _, e := range []*entity.Entity{rt.Params, rt.Request} {
		if e == nil {
			continue
		}
		ps, err := c.Parameters(e, inQuery)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			key := p.In + " " + p.Name
			if p.In == "header" {
				key = p.In + " " + strings.ToLower(p.Name)
			}
			if !seen[key] {
				seen[key] = true
				params = append(params, p)
			}
		}
		if len(e.Decl().Methods) > 0 {
			errorStatuses = append(errorStatuses, http.StatusMethodNotAllowed)
		}
	}
	if rt.Select != "" {
		var err error
		if params, err = d.selection(where, rt, params); err != nil {
			return nil, err
		}
	}
	for _, c := range conditionHeaders(method, rt) {
		if !seen["header "+strings.ToLower(c.Name)] {
			params = append(params, c)
		}
	}
	all, err := pathParams(where, rt.Path, params)
	if err != nil {
		return nil, err
	}
	if len(all) > 0 {
		op["parameters"] = all
	}
	if e := rt.Request; e != nil && !inQuery {
		mode, media := Request, "application/json"
		if method == http.MethodPatch {
			mode, media = Patch, entity.MergePatchType
		}
		body, err := c.Ref(e, mode)
		if err != nil {
			return nil, err
		}
		content := map[string]any{media: map[string]any{"schema": body}}
		if mode == Request && e.Decl().Forms { // the forms it reads too, of the same fields
			for _, mt := range formMediaTypes {
				content[mt] = map[string]any{"schema": body}
			}
		}
		rb := map[string]any{"content": content}
		if mode == Patch || c.requires(e, mode) {
			rb["required"] = true // Patch refuses a request without a merge patch; no other body reads as {}
		}
		op["requestBody"] = rb
		errorStatuses = append(errorStatuses, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType)
	}
	success := map[string]any{"description": http.StatusText(status)}
	if status == http.StatusCreated { // RFC 9110: a 201 names the resource it created in Location
		success["headers"] = map[string]any{"Location": map[string]any{
			"description": "the URI of the resource created",
			"schema":      map[string]any{"type": "string", "format": "uri-reference"},
		}}
	}
	if e := rt.Response; e != nil {
		var ref json.RawMessage
		var err error
		if rt.Select != "" {
			ref, err = c.partialRef(e)
		} else {
			ref, err = c.Ref(e, Response)
		}
		if err != nil {
			return nil, err
		}
		if bodyAllowed(status) && method != http.MethodHead {
			success["content"] = responseContent(e.Name(), ref, rt.Stream)
			if rt.Stream != 0 {
				success["description"] = http.StatusText(status) + ": a stream of " + e.Name()
			}
		}
	}
	responses := map[string]any{strconv.Itoa(status): success}
	if rt.ETag && rt.Stream == 0 && bodyAllowed(status) {
		headers, _ := success["headers"].(map[string]any)
		if headers == nil {
			headers = map[string]any{}
			success["headers"] = headers
		}
		headers["ETag"] = map[string]any{
			"description": "the strong entity tag of the body, for If-None-Match and If-Match",
			"schema":      map[string]any{"type": "string"},
		}
		if method == http.MethodGet || method == http.MethodHead {
			responses["304"] = map[string]any{"description": "Not Modified: the representation If-None-Match names is current; no body"}
		}
	}
	if rt.IfMatch {
		errorStatuses = append(errorStatuses, http.StatusPreconditionFailed)
	}
	for _, s := range errorStatuses {
		responses[strconv.Itoa(s)] = d.problemResponseRef(s)
	}
	own := map[int]bool{}
	for _, r := range rt.Errors {
		switch {
		case r.Status < 400 || r.Status > 599:
			return nil, fmt.Errorf("schema: OpenAPI: %s: response status %d is no error status", where, r.Status)
		case own[r.Status] || r.Status == status:
			return nil, fmt.Errorf("schema: OpenAPI: %s: two responses of status %d", where, r.Status)
		}
		own[r.Status] = true
		if r.Description == "" {
			responses[strconv.Itoa(r.Status)] = d.problemResponseRef(r.Status)
			continue
		}
		responses[strconv.Itoa(r.Status)] = map[string]any{"description": r.Description, "content": problemContent()}
	}
	op["responses"] = responses
	if len(rt.Security) > 0 {
		var reqs []any
		for _, s := range rt.Security {
			if err := d.scheme(where, s.Scheme); err != nil {
				return nil, err
			}
			scopes := make([]any, len(s.Scopes))
			for i, sc := range s.Scopes {
				scopes[i] = sc
			}
			reqs = append(reqs, map[string]any{s.Scheme.Name: scopes})
		}
		op["security"] = reqs
	}
	return op, nil
}

// conditionHeaders returns the header parameters of a route's
// conditional requests: If-None-Match on a tagged GET or HEAD, If-Match
// where the handler evaluates it.
func conditionHeaders(method string, rt Route) []Parameter {
	str := json.RawMessage(`{"type":"string"}`)
	var out []Parameter
	if rt.ETag && rt.Stream == 0 && (method == http.MethodGet || method == http.MethodHead) {
		out = append(out, Parameter{Name: "If-None-Match", In: "header", Schema: str,
			Description: "entity tags (ETag) of representations the client holds, or *: when one is current, the answer is 304 Not Modified, with no body"})
	}
	if rt.IfMatch {
		out = append(out, Parameter{Name: "If-Match", In: "header", Schema: str,
			Description: "the entity tag (ETag) of the representation the change is made to, or * for any: when it is not current, the answer is 412 Precondition Failed and nothing changes"})
	}
	return out
}

// responseContent returns the content of a success response of the
// entity name, whose schema is ref: application/json, or the media types
// of a stream of them.
func responseContent(name string, ref json.RawMessage, stream Stream) map[string]any {
	if stream == 0 {
		return map[string]any{"application/json": map[string]any{"schema": ref}}
	}
	content := map[string]any{}
	if stream&StreamArray != 0 {
		content["application/json"] = map[string]any{"x-stream": true, "schema": map[string]any{
			"type": "array", "items": ref,
			"description": "a stream of " + name + ": one JSON array, written as its elements come",
		}}
	}
	if stream&StreamNDJSON != 0 {
		var el map[string]any
		json.Unmarshal(ref, &el)
		el["description"] = "a stream of " + name + ": one JSON value per line (NDJSON), each one " + name
		content[NDJSONType] = map[string]any{"x-stream": true, "schema": el}
	}
	return content
}

// scheme records a security scheme an operation names, checking that it
// is one and that no other of its name is.
func (d *document) scheme(where string, s SecurityScheme) error {
	bad := func(why string) error {
		return fmt.Errorf("schema: OpenAPI: %s: security scheme %q: %s", where, s.Name, why)
	}
	switch {
	case s.Name == "" || ComponentName(s.Name, Response) != s.Name:
		return bad("its name is not a component name (letters, digits, \".\", \"-\", \"_\")")
	case s.Type == "http" && s.Scheme == "":
		return bad("an http scheme names its Scheme (bearer, basic…)")
	case s.Type == "apiKey" && (s.Param == "" || s.In != "header" && s.In != "query" && s.In != "cookie"):
		return bad("an apiKey scheme names its Param and where it is (In: header, query or cookie)")
	case s.Type == "openIdConnect" && s.OpenIDConnectURL == "":
		return bad("an openIdConnect scheme names its OpenIDConnectURL")
	case s.Type != "http" && s.Type != "apiKey" && s.Type != "mutualTLS" && s.Type != "openIdConnect":
		return bad(fmt.Sprintf("type %q is not http, apiKey, mutualTLS or openIdConnect", s.Type))
	}
	if prev, ok := d.schemes[s.Name]; ok && prev != s {
		return bad("two schemes have this name")
	}
	d.schemes[s.Name] = s
	return nil
}

// object returns the scheme as an OpenAPI Security Scheme Object.
func (s SecurityScheme) object() map[string]any {
	m := map[string]any{"type": s.Type}
	set := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	switch s.Type {
	case "http":
		set("scheme", s.Scheme)
		set("bearerFormat", s.BearerFormat)
	case "apiKey":
		set("in", s.In)
		set("name", s.Param)
	case "openIdConnect":
		set("openIdConnectUrl", s.OpenIDConnectURL)
	}
	set("description", s.Description)
	return m
}

// bodyAllowed reports whether a response of the status may have a body.
func bodyAllowed(status int) bool {
	return !(status >= 100 && status < 200 || status == http.StatusNoContent || status == http.StatusNotModified)
}

// pathParams returns the parameters of an operation: a path parameter for
// each {name} of path, in order, the one of params when it has one (else a
// string), then the others of params. A path parameter of params that
// path does not hold is an error.
func pathParams(where, path string, params []Parameter) ([]any, error) {
	var names []string
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
		names = append(names, rest[i+1:i+j])
		rest = rest[i+j+1:]
	}
	var out []any
	for _, name := range names {
		i := slices.IndexFunc(params, func(p Parameter) bool { return p.In == "path" && p.Name == name })
		if i >= 0 {
			out = append(out, params[i])
			continue
		}
		out = append(out, Parameter{Name: name, In: "path", Required: true, Schema: json.RawMessage(`{"type":"string"}`)})
	}
	for _, p := range params {
		if p.In != "path" {
			out = append(out, p)
		} else if !slices.Contains(names, p.Name) {
			return nil, fmt.Errorf("schema: OpenAPI: %s: an entity reads path parameter %q, which the path does not hold", where, p.Name)
		}
	}
	return out, nil
}

func problemResponseName(status int) string { return "Problem" + strconv.Itoa(status) }

// problemResponseRef returns the reference to the problem response of the
// status, recording it: the document declares the problem responses its
// operations name, and no other.
func (d *document) problemResponseRef(status int) map[string]any {
	if !slices.Contains(d.statuses, status) {
		d.statuses = append(d.statuses, status)
	}
	return map[string]any{"$ref": "#/components/responses/" + problemResponseName(status)}
}

// problemContent is the content of an error answer: problem details, as
// entity.WriteError writes them.
func problemContent() map[string]any {
	return map[string]any{"application/problem+json": map[string]any{
		"schema": map[string]any{"$ref": componentRef(ProblemName)},
	}}
}

// problemResponses returns the components.responses of the error answers
// of the statuses.
func problemResponses(statuses []int) map[string]any {
	out := map[string]any{}
	for _, s := range statuses {
		out[problemResponseName(s)] = map[string]any{
			"description": http.StatusText(s) + ": RFC 9457 problem details",
			"content":     problemContent(),
		}
	}
	return out
}
