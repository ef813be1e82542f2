package api

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// Router is what an API registers its routes on: an *http.ServeMux, or
// any router that takes the patterns of http.ServeMux (Go 1.22: "GET
// /customers/{id}") through this method. A router whose patterns differ
// is given one through a small adapter that translates them; its path
// values reach the entities through entity.PathValues.
type Router interface {
	Handle(pattern string, handler http.Handler)
}

// Config is what an API is made with. Only Info is required.
type Config struct {
	// Info is the OpenAPI document's info: a Title and a Version (the
	// API's) are required.
	Info schema.Info
	// Registry writes the problems of the API's own answers (an unknown
	// path, a method no route takes, a bad version, a document that cannot
	// be made) with its problem type base and log hook. Nil: the registry
	// of the first entity a route names, else entity.Default.
	Registry *entity.Registry
	// Audience says who a request for the documents (/openapi.json and
	// /docs) is: the flags and the version of the calls they describe, so
	// that each audience reads what it sees, and nothing else. Nil: the
	// flags a middleware put in the request's context (entity.NewContext),
	// and no version.
	Audience func(r *http.Request) Audience
	// Vary names the request headers the audience is picked by (the one a
	// middleware reads a role from, such as "X-Role"; a version header):
	// the documents' answers say Vary with them, and so do those of every
	// route whose Response entity has fields that flags or a version show
	// (see the package doc), so that a cache never serves one audience's
	// answer to another. When it names none, those answers are
	// Cache-Control: private (the documents' while audiences may differ:
	// Audience is set, or a registry declares flags).
	Vary []string
	// OpenAPIPath and DocsPath are where the document and the docs page
	// are served: "/openapi.json" and "/docs" when empty.
	OpenAPIPath, DocsPath string
	// NoFallback leaves the pattern "/" to the application, which then
	// calls API.Fallback for the paths it does not serve. Otherwise the
	// API registers "/" on its router: an unknown path is a 404, a method
	// that no route of the path takes a 405 with Allow, problem details
	// both.
	NoFallback bool
}

// Audience is who the documents are for: the flags and the version of
// the calls they describe (entity.With, entity.Version). A flag that no
// registry of the API's entities declares is ignored, as
// entity.WithContext ignores one.
type Audience struct {
	Flags   []string
	Version string // "v2", "2.1"; "" for none
}

// API is a set of routes that write their OpenAPI document: each handler
// is registered on the application's router with what its operation reads
// and answers, and the document, built from what was registered, cannot
// drift from it. It serves the document and a docs page per audience. An
// API is safe for concurrent use; routes are usually registered at start.
type API struct {
	router Router
	cfg    Config
	shadow *http.ServeMux // the routes' patterns, for the methods of a path

	mu     sync.Mutex
	routes []*route
	ids    map[string]bool // the operationIds
	gen    int             // counts the routes registered, for the cache
	cache  map[string]*documents
}

// route is a registered operation.
type route struct {
	pattern string
	method  string
	path    string // as OpenAPI templates it
	op      Operation
	tagged  bool // its answers carry the ETag of their body (taggedMethod, a Response, no stream)

	callerOnce sync.Once
	caller     bool // its answers depend on the caller (dependsOnCaller)
}

// New returns an API whose routes are registered on router, and registers
// its own: GET /openapi.json, GET /docs and, unless cfg.NoFallback, "/".
// It panics, as http.ServeMux.Handle does, when the info has no Title or
// no Version, or the router refuses a pattern.
func New(router Router, cfg Config) *API {
	if router == nil {
		panic("api: New: a nil Router")
	}
	if cfg.Info.Title == "" || cfg.Info.Version == "" {
		panic("api: New: the info needs a Title and a Version")
	}
	if cfg.OpenAPIPath == "" {
		cfg.OpenAPIPath = "/openapi.json"
	}
	if cfg.DocsPath == "" {
		cfg.DocsPath = "/docs"
	}
	for _, p := range []string{cfg.OpenAPIPath, cfg.DocsPath} {
		if !strings.HasPrefix(p, "/") {
			panic(fmt.Sprintf("api: New: path %q does not start with /", p))
		}
	}
	cfg.Vary = slices.Clone(cfg.Vary)
	a := &API{router: router, cfg: cfg, shadow: http.NewServeMux(), ids: map[string]bool{}, cache: map[string]*documents{}}
	router.Handle(http.MethodGet+" "+cfg.OpenAPIPath, http.HandlerFunc(a.serveOpenAPI))
	router.Handle(http.MethodGet+" "+cfg.DocsPath, http.HandlerFunc(a.serveDocs))
	for _, p := range []string{cfg.OpenAPIPath, cfg.DocsPath} {
		a.shadow.Handle(http.MethodGet+" "+p, http.NotFoundHandler())
	}
	if !cfg.NoFallback {
		router.Handle("/", http.HandlerFunc(a.Fallback))
	}
	return a
}

// Handle registers h on the router under pattern, an http.ServeMux
// pattern with a method ("POST /customers", "GET /customers/{id}"), and
// records its operation for the document. An operation without an ID gets
// one from its pattern ("getCustomersById"), unique among the API's.
//
// It panics, as http.ServeMux.Handle does, on a pattern without a method
// or with a host, on an ID another operation has, on an entity's path
// field ([entity.Field.In] "path") that the pattern has no wildcard for,
// on a Select without a Response entity or whose parameter defaults to
// no selection of it, and when the router refuses the pattern; and on a pattern the document
// cannot state as the router serves it: a method that is not upper case
// (methods are case-sensitive: "get" is not GET), a path another route
// of the same method already documents ("GET /a/{$}" and "GET /a/" are
// both /a/), or one that differs from another route's only in its
// wildcards' names (OpenAPI allows one name a place: /x/{id} for both
// "GET /x/{id}" and "POST /x/{id}").
//
// The router gets h behind the API's own answers: Vary (or Cache-Control:
// private) on a route whose answers depend on the caller, and the ETag and
// 304 of a GET, HEAD, PUT or PATCH route with a Response entity (see the
// package doc). Its ResponseWriter then holds back a success status until
// the body's first write; it implements http.Flusher and Unwrap, for
// http.ResponseController.
func (a *API) Handle(pattern string, h http.Handler, op Operation) {
	if h == nil {
		panic("api: Handle " + pattern + ": a nil handler")
	}
	method, path, err := parsePattern(pattern)
	if err != nil {
		panic(err.Error())
	}
	if err := checkPathFields(pattern, path, op); err != nil {
		panic(err.Error())
	}
	if err := checkSelect(pattern, method, op); err != nil {
		panic(err.Error())
	}
	op = op.clone()
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.documentable(pattern, method, path); err != nil {
		panic(err.Error())
	}
	if op.ID == "" {
		op.ID = a.deriveID(method, path)
	} else if a.ids[op.ID] {
		panic(fmt.Sprintf("api: Handle %s: another operation has ID %q", pattern, op.ID))
	}
	rt := &route{pattern: pattern, method: method, path: path, op: op,
		tagged: op.Response != nil && op.Stream == 0 && taggedMethod(method)}
	// The router first, so that a pattern it refuses records nothing.
	a.router.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { a.serveRoute(rt, h, w, r) }))
	a.shadow.Handle(pattern, http.NotFoundHandler())
	a.ids[op.ID] = true
	a.routes = append(a.routes, rt)
	a.gen++
	clear(a.cache)
}

// HandleFunc is Handle for a handler function.
func (a *API) HandleFunc(pattern string, f func(http.ResponseWriter, *http.Request), op Operation) {
	if f == nil {
		panic("api: HandleFunc " + pattern + ": a nil handler")
	}
	a.Handle(pattern, http.HandlerFunc(f), op)
}

// Fallback answers a request that no route of the router takes: problem
// details (entity.Registry.WriteRequestError: in the request's language)
// of 405 with Allow when routes of its path take other methods, else of
// 404. The API registers it on "/" unless Config.NoFallback.
func (a *API) Fallback(w http.ResponseWriter, r *http.Request) {
	reg := a.registry()
	if allow := a.allowed(r); len(allow) > 0 {
		reg.WriteRequestError(w, r, &entity.InputError{Status: http.StatusMethodNotAllowed, Err: entity.ErrMethod, Allow: strings.Join(allow, ", ")})
		return
	}
	reg.WriteRequestError(w, r, &entity.InputError{Status: http.StatusNotFound})
}

// candidateMethods are the methods Fallback tries on a path, with those
// of the routes.
var candidateMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
	http.MethodDelete, http.MethodOptions, http.MethodTrace, http.MethodConnect}

// handlerFinder is what an http.ServeMux tells of a request: the pattern
// that takes it.
type handlerFinder interface {
	Handler(r *http.Request) (h http.Handler, pattern string)
}

// allowed returns the methods that a route of r's path takes, in the
// order of candidateMethods: of the router's routes when it tells them
// (an http.ServeMux), else of the API's.
func (a *API) allowed(r *http.Request) []string {
	var find handlerFinder = a.shadow
	if f, ok := a.router.(handlerFinder); ok {
		find = f
	}
	methods := slices.Clone(candidateMethods)
	a.mu.Lock()
	for _, rt := range a.routes {
		if !slices.Contains(methods, rt.method) {
			methods = append(methods, rt.method)
		}
	}
	a.mu.Unlock()
	var allow []string
	for _, m := range methods {
		if m == r.Method {
			continue
		}
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := find.Handler(probe); pattern != "" && pattern != "/" {
			allow = append(allow, m)
		}
	}
	return allow
}

// registry returns the registry that writes the API's own problems.
func (a *API) registry() *entity.Registry {
	if a.cfg.Registry != nil {
		return a.cfg.Registry
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, rt := range a.routes {
		for _, e := range rt.op.entities() {
			return e.Registry()
		}
	}
	return entity.Default
}

// documentable reports why the document could not state a route of
// pattern (method, path as the document writes it) beside the routes
// already registered, or nil.
func (a *API) documentable(pattern, method, path string) error {
	if method != strings.ToUpper(method) {
		return fmt.Errorf("api: Handle %s: the method %q is not upper case: methods are case-sensitive, and the document would name it %s", pattern, method, strings.ToUpper(method))
	}
	shape := wildcardNames.ReplaceAllString(path, "{}")
	for _, rt := range a.routes {
		switch {
		case rt.pattern == pattern: // the router's to refuse, in its words
		case rt.path == path && rt.method == method:
			return fmt.Errorf("api: Handle %s: %s also documents %s %s: the document has one operation a method and path", pattern, rt.pattern, method, path)
		case rt.path != path && wildcardNames.ReplaceAllString(rt.path, "{}") == shape:
			return fmt.Errorf("api: Handle %s: its path %s differs from %s (%s) only in the names of its wildcards, which OpenAPI allows one of: name them alike", pattern, path, rt.path, rt.pattern)
		}
	}
	return nil
}

// wildcardNames matches the wildcards of a documented path.
var wildcardNames = regexp.MustCompile(`\{[^}]*\}`)
