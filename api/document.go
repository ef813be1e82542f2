package api

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// documents are an audience's OpenAPI document and docs page, made once.
type documents struct {
	openapi, docs []byte
	err           error
}

// maxCached bounds the audiences whose documents are kept: those of
// others are made for each request (the flags are the declared ones, but
// versions are many).
const maxCached = 64

// OpenAPI returns the OpenAPI 3.1 document of the API's routes for the
// audience: what calls with its flags and version see (the public one,
// Audience{}, lists no field only flagged calls see), the same bytes every
// time. It fails as schema.OpenAPI does (a route whose status is not one,
// a $ref that names no entity…), and on a version that is not one. The
// bytes are the caller's.
func (a *API) OpenAPI(aud Audience) ([]byte, error) {
	d, err := a.documents(aud)
	if err != nil {
		return nil, err
	}
	return slices.Clone(d.openapi), d.err
}

// Docs returns the docs page of the API for the audience: one HTML page,
// made from its OpenAPI document, that needs nothing from any other place
// (no script, style sheet, font or image of another host). It fails as
// OpenAPI does. The bytes are the caller's.
func (a *API) Docs(aud Audience) ([]byte, error) {
	d, err := a.documents(aud)
	if err != nil {
		return nil, err
	}
	return slices.Clone(d.docs), d.err
}

// documents returns the audience's documents, from the cache when they
// are there.
func (a *API) documents(aud Audience) (*documents, error) {
	flags, version, err := a.normalize(aud)
	if err != nil {
		return nil, err
	}
	key := audienceKey(flags, version)
	a.mu.Lock()
	if d, ok := a.cache[key]; ok {
		a.mu.Unlock()
		return d, nil
	}
	gen := a.gen
	routes := make([]schema.Route, len(a.routes))
	for i, rt := range a.routes {
		routes[i] = rt.schemaRoute()
	}
	a.mu.Unlock()

	var opts []entity.Option
	if len(flags) > 0 {
		opts = append(opts, entity.With(flags...))
	}
	if version != "" {
		opts = append(opts, entity.Version(version))
	}
	d := &documents{}
	d.openapi, d.err = schema.OpenAPI(a.cfg.Info, routes, opts...)
	if d.err == nil {
		d.docs, d.err = renderDocs(d.openapi, a.cfg.OpenAPIPath, a.cfg.DocsPath)
	}
	if d.err != nil {
		d.openapi, d.docs = nil, nil
	}
	a.mu.Lock()
	if a.gen == gen && len(a.cache) < maxCached {
		a.cache[key] = d
	}
	a.mu.Unlock()
	return d, nil
}

// normalize returns the audience's flags that a registry of the routes'
// entities declares, sorted and each once, and its version in one
// spelling ("v2.1": no trailing zeros), so that one audience is one key.
func (a *API) normalize(aud Audience) (flags []string, version string, err error) {
	declared := a.declaredFlags()
	for _, f := range aud.Flags {
		if slices.Contains(declared, f) && !slices.Contains(flags, f) {
			flags = append(flags, f)
		}
	}
	slices.Sort(flags)
	if aud.Version == "" {
		return flags, "", nil
	}
	v, ok := canonicalVersion(aud.Version)
	if !ok {
		return nil, "", fmt.Errorf("api: %w", entity.ErrInvalidVersion)
	}
	return flags, v, nil
}

// audienceKey returns the cache key of an audience (its flags
// normalized): each flag quoted, so that no two audiences share a key
// whatever their flags' names hold ({"a", "b"} and {"a,b"} are two).
func audienceKey(flags []string, version string) string {
	var b strings.Builder
	for _, f := range flags {
		b.WriteString(strconv.Quote(f))
		b.WriteByte(' ')
	}
	b.WriteString(version)
	return b.String()
}

// declaredFlags returns the flags the registries of the routes' entities
// declare.
func (a *API) declaredFlags() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var regs []*entity.Registry
	var flags []string
	for _, rt := range a.routes {
		for _, e := range rt.op.entities() {
			if r := e.Registry(); !slices.Contains(regs, r) {
				regs = append(regs, r)
				flags = append(flags, r.DeclaredFlags()...)
			}
		}
	}
	return flags
}

// canonicalVersion returns the version v as entity.Version reads it (an
// optional v, then at most 4 dotted numbers of at most 9 digits), written
// "v" and its numbers without the trailing zeros (v2.0 is v2): the same
// text for versions a call does not tell apart.
func canonicalVersion(v string) (string, bool) {
	ver, ok := dsl.ParseVersion(v)
	if !ok {
		return "", false
	}
	return ver.String(), true
}

// audienceOf returns the audience of a request for the documents.
func (a *API) audienceOf(r *http.Request) Audience {
	if a.cfg.Audience != nil {
		return a.cfg.Audience(r)
	}
	return Audience{Flags: entity.FlagsFromContext(r.Context())}
}

// serveOpenAPI answers GET /openapi.json with the audience's document.
func (a *API) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "application/json", func(d *documents) []byte { return d.openapi })
}

// serveDocs answers GET /docs with the audience's docs page. Its Content
// Security Policy lets it load nothing: no script, no style sheet but its
// own, nothing of another host.
func (a *API) serveDocs(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", docsCSP)
	a.serve(w, r, "text/html; charset=utf-8", func(d *documents) []byte { return d.docs })
}

// docsCSP is the Content-Security-Policy of the docs page: its own inline
// style, nothing else.
const docsCSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// serve writes the audience's document that pick returns, or the problem
// that stops it: 400 for a bad version, 500 for a document that cannot be
// made (the registry's log hook gets the error).
func (a *API) serve(w http.ResponseWriter, r *http.Request, contentType string, pick func(*documents) []byte) {
	h := w.Header()
	a.vary(h)
	reg := a.registry()
	d, err := a.documents(a.audienceOf(r))
	if err == nil {
		err = d.err
	}
	if err != nil {
		h.Del("Content-Security-Policy")
		reg.WriteError(w, err)
		return
	}
	body := pick(d)
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// vary says what the documents' answers vary with: the headers the
// audience is picked by, or, when none is named but audiences may differ,
// that no shared cache may keep them.
func (a *API) vary(h http.Header) {
	if len(a.cfg.Vary) > 0 {
		for _, v := range a.cfg.Vary {
			h.Add("Vary", v)
		}
		return
	}
	if a.cfg.Audience != nil || len(a.declaredFlags()) > 0 {
		h.Set("Cache-Control", "private")
	}
}
