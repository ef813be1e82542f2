package entity

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/engine"
)

// LoadFS loads the entities declared in the .entity files of fsys that the
// patterns (fs.Glob patterns, such as "schemas/*.entity") match, in the
// registry, as if each were exposed with Expose; the file format is package
// dsl's (dsl.ParseFile). It is meant for files embedded in the program:
//
//	//go:embed schemas/*.entity
//	var schemas embed.FS
//
//	func init() {
//		if err := entity.LoadFS(schemas, "schemas/*.entity"); err != nil {
//			log.Fatal(err)
//		}
//	}
//
// It is all or nothing: every file is read, parsed and compiled, then,
// once they all compile, every reference of the files' entities is checked
// as Verify checks it (a $ref names an entity of the files or of the
// registry; a bare default on a reference does not fail; merges write no
// key twice, in the files' entities and in the registry's entities that
// merge them), and only when nothing failed are the entities exposed. An entity declared twice across the files, or already exposed
// in the registry, is an error: LoadFS replaces nothing. A pattern that
// matches no file is an error.
//
// The error (but for no pattern at all) is a *LoadError listing every error of every file, each as
// path:line:col: message with the line and a caret under the fault, the
// path being the file's within fsys.
func (r *Registry) LoadFS(fsys fs.FS, patterns ...string) error {
	if r == nil {
		return errNilRegistry
	}
	if len(patterns) == 0 {
		return errors.New("entity: LoadFS: no pattern: give the files to load, such as \"schemas/*.entity\"")
	}
	var errs dsl.ErrorList
	var decls []*dsl.Entity
	seen := map[string]bool{}
	for _, pat := range patterns {
		paths, err := fs.Glob(fsys, pat)
		if err != nil {
			errs.Add(&dsl.Error{Pos: dsl.Pos{File: pat}, Msg: "bad pattern: " + err.Error()})
			continue
		}
		if len(paths) == 0 && !fs.ValidPath(strings.TrimRight(pat, "/")) {
			errs.Add(&dsl.Error{Pos: dsl.Pos{File: pat}, Msg: "the pattern is no path of an fs.FS: paths are slash-separated and relative, without \"./\" or \"..\" (\"schemas/*.entity\")"})
			continue
		}
		if len(paths) == 0 {
			errs.Add(&dsl.Error{Pos: dsl.Pos{File: pat}, Msg: "the pattern matches no file"})
			continue
		}
		for _, path := range paths {
			if seen[path] {
				continue
			}
			seen[path] = true
			src, err := fs.ReadFile(fsys, path)
			if err != nil {
				errs.Add(&dsl.Error{Pos: dsl.Pos{File: path}, Msg: err.Error()})
				continue
			}
			f, err := dsl.ParseFilePartial(path, src)
			if l, ok := err.(dsl.ErrorList); ok {
				errs = append(errs, l...)
			}
			decls = append(decls, f.Entities...)
		}
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	errs = append(errs, r.declaredOnce(decls)...)
	// Compile in a scratch registry that sees the registry's entities, so
	// that references are checked, and bare defaults probed, before
	// anything is exposed here.
	s := r.scratch()
	var compiled, failed []*engine.Entity
	for _, d := range decls {
		e, err := s.compile(d)
		if l, ok := err.(dsl.ErrorList); ok {
			errs = append(errs, l...)
			failed = append(failed, e.c)
			// An empty entity in its place, so that references to it are
			// not reported as naming nothing.
			e, _ = s.compile(&dsl.Entity{Name: d.Name})
		} else {
			compiled = append(compiled, e.c)
		}
		if e != nil {
			s.env.Put(e.c)
		}
	}
	// Every error at once: the references, flags and merges of every
	// entity are checked whatever else failed, those of an entity in
	// error too (as far as it compiled), so that nothing is reported
	// only on a second run. An error found twice is reported once.
	errs = append(errs, s.checkEntities(append(compiled, failed...))...)
	if len(errs) > 0 {
		errs.Sort()
		return &LoadError{Errors: uniqueErrors(errs)}
	}
	ch := r.begin()
	defer ch.end()
	for _, d := range decls {
		e, err := r.compile(d)
		if err != nil { // the scratch compile passed: it cannot fail here
			return &LoadError{Errors: dsl.ErrorList{{Entity: d.Name, Pos: d.Pos, Msg: "LoadFS: " + err.Error()}}}
		}
		ch.stage(e) // the next file's flags are numbered after these
	}
	// The registry's entities that merge them must not write a key twice,
	// as Expose checks.
	err := ch.commitWith(func(p *Entity) string { return fmt.Sprintf("if %q were loaded as declared", p.Name()) })
	if l, ok := err.(dsl.ErrorList); ok {
		return &LoadError{Errors: l}
	}
	return err
}

// uniqueErrors returns the errors of a sorted list, each once: an entity
// in error may have its merges reported by its compile and by the checks
// after it.
func uniqueErrors(errs dsl.ErrorList) dsl.ErrorList {
	type key struct {
		pos                dsl.Pos
		entity, field, msg string
	}
	seen := make(map[key]bool, len(errs))
	out := errs[:0]
	for _, e := range errs {
		k := key{e.Pos, e.Entity, e.Field, e.Msg}
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

// declaredOnce reports the entities of decls declared twice, or already
// exposed in the registry.
func (r *Registry) declaredOnce(decls []*dsl.Entity) dsl.ErrorList {
	var errs dsl.ErrorList
	first := map[string]*dsl.Entity{}
	for _, d := range decls {
		if prev, dup := first[d.Name]; dup {
			errs.Add(&dsl.Error{Entity: d.Name, Pos: d.Pos, Msg: fmt.Sprintf("entity %q is declared twice: first at %v", d.Name, prev.Pos), Source: d.SourceLine})
			continue
		}
		first[d.Name] = d
		if r.Lookup(d.Name) != nil {
			errs.Add(&dsl.Error{Entity: d.Name, Pos: d.Pos, Msg: fmt.Sprintf("entity %q is already exposed in the registry: LoadFS replaces nothing", d.Name), Source: d.SourceLine})
		}
	}
	return errs
}

// scratch returns a registry with r's rules, formats, key case, single
// references, messages and limits, whose slots hold r's entities (each slot, as it is made,
// takes r's entity of that name: see slotFor): what a declaration compiled in it
// means is what it would mean in r, and it changes nothing in r.
func (r *Registry) scratch() *Registry {
	s := &Registry{env: r.env.Scratch(), parent: r}
	s.msgs.Store(r.msgs.Load())
	s.problemBase.Store(r.problemBase.Load())
	return s
}
