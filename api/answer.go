package api

import (
	"net/http"
	"slices"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

// What the API adds to its routes' answers around their handlers: Vary
// (or Cache-Control: private) on a route whose answer depends on who
// asks, and the ETag and 304 of a tagged route (conditional.go).

// serveRoute answers r with the route's handler h: with the caches' headers
// first, and through a tagWriter on a tagged route.
func (a *API) serveRoute(rt *route, h http.Handler, w http.ResponseWriter, r *http.Request) {
	if rt.dependsOnCaller() {
		a.varyByCaller(w.Header())
	}
	if !rt.tagged {
		h.ServeHTTP(w, r)
		return
	}
	tw := &tagWriter{ResponseWriter: w, r: r}
	h.ServeHTTP(tw, r)
	tw.pass() // a success status held back with no body
}

// dependsOnCaller reports whether the route's answer holds fields that
// some calls see and others do not: its Response entity's, or those of
// the entities it references, declared `if`, `unless`, `since` or `until`.
// It is found once, at the route's first answer, when every entity it
// references is exposed.
func (rt *route) dependsOnCaller() bool {
	rt.callerOnce.Do(func() {
		if e := rt.op.Response; e != nil {
			rt.caller = shapedByCaller(e, map[*entity.Entity]bool{})
		}
	})
	return rt.caller
}

// shapedByCaller reports whether e, or an entity it references, has a
// field that flags or a version show or hide. It reads both views a
// caller may have: that of no flag, and that of every flag declared.
func shapedByCaller(e *entity.Entity, seen map[*entity.Entity]bool) bool {
	if e == nil || seen[e] {
		return false
	}
	seen[e] = true
	reg := e.Registry()
	var walk func(fs []*entity.Field) bool
	walk = func(fs []*entity.Field) bool {
		for _, f := range fs {
			switch {
			case len(f.If) > 0 || len(f.Unless) > 0 || f.Since != "" || f.Until != "":
				return true
			case f.Kind == dsl.FieldGroup && walk(f.Fields):
				return true
			case f.Kind == dsl.FieldRef && f.Variants == nil && shapedByCaller(reg.Lookup(f.Ref), seen):
				return true
			case f.Variants != nil: // a union: any of its variants
				for _, v := range f.Variants {
					if shapedByCaller(reg.Lookup(v), seen) {
						return true
					}
				}
			}
		}
		return false
	}
	return walk(e.Fields()) || walk(e.Fields(entity.With(reg.DeclaredFlags()...)))
}

// varyByCaller says what an answer that depends on its caller varies
// with: the headers the audience is picked by (Config.Vary), or, when
// none is named, that no shared cache may keep it.
func (a *API) varyByCaller(h http.Header) {
	if len(a.cfg.Vary) == 0 {
		h.Set("Cache-Control", "private")
		return
	}
	have := h.Values("Vary")
	for _, v := range a.cfg.Vary {
		if !slices.Contains(have, v) {
			h.Add("Vary", v)
		}
	}
}
