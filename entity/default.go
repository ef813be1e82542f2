package entity

import (
	"io/fs"
	"net/http"

	"github.com/expose-go/expose/rules"
)

// Default is the registry the package-level functions use.
var Default = NewRegistry()

// Expose declares an entity in the Default registry. See Registry.Expose.
func Expose(name string, decl ...string) (*Entity, error) { return Default.Expose(name, decl...) }

// MustExpose declares an entity in the Default registry and panics on a
// declaration error. See Registry.MustExpose.
func MustExpose(name string, decl ...string) *Entity { return Default.MustExpose(name, decl...) }

// Make makes v with the entity named in the Default registry.
func Make(name string, v any, opts ...Option) (*Object, error) {
	return Default.Make(name, v, opts...)
}

// MakeList makes each object of v with the entity named in the Default
// registry.
func MakeList(name string, v any, opts ...Option) ([]*Object, error) {
	return Default.MakeList(name, v, opts...)
}

// MakeJSON makes v with the entity named in the Default registry and returns
// its JSON.
func MakeJSON(name string, v any, opts ...Option) ([]byte, error) {
	return Default.MakeJSON(name, v, opts...)
}

// AppendJSON makes v with the entity named in the Default registry and
// appends its JSON to dst.
func AppendJSON(dst []byte, name string, v any, opts ...Option) ([]byte, error) {
	return Default.AppendJSON(dst, name, v, opts...)
}

// Lookup returns the entity named in the Default registry, or nil.
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

// Check is Verify.
func Check() error { return Default.Verify() }

// LoadFS loads .entity files in the Default registry (see
// Registry.LoadFS).
func LoadFS(fsys fs.FS, patterns ...string) error { return Default.LoadFS(fsys, patterns...) }

// RegisterRule adds a custom rule to the Default registry.
func RegisterRule(d rules.Def) error { return Default.RegisterRule(d) }

// SetMaxOutputBytes sets the output limit of the Default registry. See
// Registry.SetMaxOutputBytes.
func SetMaxOutputBytes(n int64) { Default.SetMaxOutputBytes(n) }

// Extend declares an entity as base's fields plus decl's in the Default
// registry. See Registry.Extend.
func Extend(name, base string, decl ...string) (*Entity, error) {
	return Default.Extend(name, base, decl...)
}

// MustExtend is like Extend but panics with every declaration error.
func MustExtend(name, base string, decl ...string) *Entity {
	return Default.MustExtend(name, base, decl...)
}

// DeclareFlags declares flags in the Default registry. See
// Registry.DeclareFlags.
func DeclareFlags(names ...string) error { return Default.DeclareFlags(names...) }

// SetKeyCase sets the style the Default registry writes output keys in,
// before anything is exposed in it. See Registry.SetKeyCase.
func SetKeyCase(style KeyCaseStyle) error { return Default.SetKeyCase(style) }

// Bind reads the request r with the entity named in the Default registry
// and stores the values it made in dst. See Entity.Bind.
func Bind(name string, r *http.Request, dst any, opts ...Option) error {
	return Default.Bind(name, r, dst, opts...)
}
