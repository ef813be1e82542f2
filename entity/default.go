package entity

import (
	"io/fs"
	"net/http"

	"github.com/expose-go/expose/rules"
)

// The Default registry and the package-level functions that use it:
// msful's by-name verbs (Expose, Make, MakeJSON, Write) and what a program
// declaring its entities in Default needs. Everything else is a method of
// a *Registry or an *Entity handle (Lookup, MustLookup).

// Default is the registry the package-level functions use.
var Default = NewRegistry()

// Expose declares an entity in the Default registry. See Registry.Expose.
func Expose(name string, decl ...string) (*Entity, error) { return Default.Expose(name, decl...) }

// MustExpose declares an entity in the Default registry and panics on a
// declaration error. See Registry.MustExpose.
func MustExpose(name string, decl ...string) *Entity { return Default.MustExpose(name, decl...) }

// Extend declares an entity as base's fields plus decl's in the Default
// registry. See Registry.Extend.
func Extend(name, base string, decl ...string) (*Entity, error) {
	return Default.Extend(name, base, decl...)
}

// MustExtend is like Extend but panics with every declaration error.
func MustExtend(name, base string, decl ...string) *Entity {
	return Default.MustExtend(name, base, decl...)
}

// Make makes v with the entity named in the Default registry (see
// Entity.Make); a name not exposed is an error wrapping ErrUnknownEntity.
func Make(name string, v any, opts ...Option) (*Object, error) {
	e, err := Default.entity(name)
	if err != nil {
		return nil, err
	}
	return e.Make(v, opts...)
}

// MakeJSON makes v with the entity named in the Default registry and
// returns its JSON (see Entity.MakeJSON).
func MakeJSON(name string, v any, opts ...Option) ([]byte, error) {
	e, err := Default.entity(name)
	if err != nil {
		return nil, err
	}
	return e.MakeJSON(v, opts...)
}

// Write makes v with the entity named in the Default registry and writes it
// as an HTTP response (see Entity.Write).
func Write(w http.ResponseWriter, name string, v any, opts ...Option) error {
	e, err := Default.entity(name)
	if err != nil {
		if w != nil {
			WriteError(w, err) // the server's: a name not exposed
		}
		return err
	}
	return e.Write(w, v, opts...)
}

// Lookup returns the entity named in the Default registry, or nil (whose
// methods fail with ErrUnknownEntity).
func Lookup(name string) *Entity { return Default.Lookup(name) }

// MustLookup returns the entity named in the Default registry, and panics
// when there is none, naming the nearest names. See Registry.MustLookup.
func MustLookup(name string) *Entity {
	if e := Default.Lookup(name); e != nil {
		return e
	}
	panic(unknownEntityMessage("MustLookup", name, Default.Names()))
}

// Verify reports what the Default registry's declarations cannot do once
// all are exposed. See Registry.Verify.
func Verify() error { return Default.Verify() }

// LoadFS loads .entity files in the Default registry (see
// Registry.LoadFS).
func LoadFS(fsys fs.FS, patterns ...string) error { return Default.LoadFS(fsys, patterns...) }

// RegisterRule adds a custom rule to the Default registry.
func RegisterRule(d rules.Def) error { return Default.RegisterRule(d) }

// DeclareFlags declares flags in the Default registry. See
// Registry.DeclareFlags.
func DeclareFlags(names ...string) error { return Default.DeclareFlags(names...) }
