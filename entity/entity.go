package entity

import (
	"context"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/engine"
)

// Entity is a compiled declaration. It is immutable and safe for concurrent
// use. Make one with Registry.Expose.
type Entity struct {
	c   *engine.Entity // the compiled plans, which every call runs
	reg *Registry
	// checks are the handle's request checks (Checked), run in order.
	checks []func(ctx context.Context, o *Object) error
}

// newEntity returns the handle of a compiled entity of reg.
func newEntity(reg *Registry, c *engine.Entity) *Entity {
	e := &Entity{c: c, reg: reg}
	c.Handle = e
	return e
}

// handleOf returns the handle of a compiled entity (nil for none).
func handleOf(c *engine.Entity) *Entity {
	if c == nil {
		return nil
	}
	e, _ := c.Handle.(*Entity)
	return e
}

// Name returns the name the entity was exposed under.
func (e *Entity) Name() string {
	if e == nil {
		return ""
	}
	return e.c.Name()
}

// Decl returns a copy of the parsed declaration the entity was compiled
// from, for tools (documentation, test kits). The copy is the caller's:
// modifying it changes nothing in the entity.
func (e *Entity) Decl() *dsl.Entity {
	if e == nil {
		return nil
	}
	return e.c.Decl()
}

// Registry returns the registry the entity belongs to.
func (e *Entity) Registry() *Registry {
	if e == nil {
		return nil
	}
	return e.reg
}
