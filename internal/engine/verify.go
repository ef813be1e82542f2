package engine

import (
	"errors"
	"fmt"
	"slices"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/suggest"
)

// CheckEntities reports, for Verify and LoadFS, the references of es that
// name no entity, the bare defaults on references that fail, the merges
// that write a key twice and the flags not declared. first renders the
// first field error of a call that failed, for the error's text.
func CheckEntities(es []*Entity, first func(c *Call) string) dsl.ErrorList {
	var errs dsl.ErrorList
	type probe struct {
		e               *Entity
		request, nested bool
	}
	probed := map[probe]*Call{}  // each entity is made from {} once a direction
	names := map[*Env][]string{} // the entities a misspelt $ref may have meant
	for _, e := range es {
		e.checkFlags(&errs)
		e.checkMergesOf(&errs)
		for _, n := range e.unions {
			pos := n.decl.TypePos
			for _, v := range n.union.variants {
				switch target := v.slot.e.Load(); {
				case target == nil:
					if names[e.env] == nil {
						names[e.env] = e.env.Names()
					}
					hint := suggest.DidYouMean(v.name, names[e.env], func(s string) string { return "$" + s })
					errs.Add(dsl.NewError(e.name, n.decl, pos, fmt.Sprintf("variant $%s names no entity%s", v.name, hint)))
				case variantKeyClash(target, n.union.key) != "":
					errs.Add(dsl.NewError(e.name, n.decl, pos, variantKeyClash(target, n.union.key)))
				}
			}
		}
		for _, n := range e.refs {
			target := n.ref.e.Load()
			pos := n.decl.Pos // the field's place, in triples or in a file
			pos.Part, pos.Offset = dsl.PartType, -1
			if target == nil {
				if names[e.env] == nil {
					names[e.env] = e.env.Names()
				}
				if n.decl.TypePos != (dsl.Pos{}) { // zero in a declaration built by hand
					pos = n.decl.TypePos
				}
				hint := suggest.DidYouMean(n.ref.name, names[e.env], func(s string) string { return "$" + s })
				errs.Add(dsl.NewError(e.name, n.decl, pos, fmt.Sprintf("$%s names no entity%s", n.ref.name, hint)))
				continue
			}
			if !n.refDefault {
				continue
			}
			pos.Part = dsl.PartRules
			// A response fills the default unless the field is writeonly,
			// a request unless it is readonly.
			for _, request := range []bool{false, true} {
				if request && n.readOnly || !request && n.writeOnly {
					continue
				}
				// (a request reads it with its nested view, but merged at the
				// top level: refView)
				nested := request && (!n.merge || !slices.Contains(e.base.nodes, n))
				p := probe{target, request, nested}
				c, seen := probed[p]
				if !seen {
					c = target.MakeEmpty(request, nested, checkOutputLimit)
					probed[p] = c
				}
				by := "" // a response, as Make
				if request {
					by = " in a request"
				}
				switch {
				case c.Fatal == nil && len(c.Failures) > 0:
					errs.Add(dsl.NewError(e.name, n.decl, pos,
						fmt.Sprintf("its bare default makes $%s from an empty input, which fails%s: %s", n.ref.name, by, first(c))))
				case errors.Is(c.Fatal, ErrTooLarge):
					errs.Add(dsl.NewError(e.name, n.decl, pos,
						fmt.Sprintf("its bare default makes $%s from an empty input, which writes more than %d bytes: bare defaults on references multiply objects", n.ref.name, checkOutputLimit)))
				}
				if c.Failed() {
					break // one error a field
				}
			}
		}
	}
	return errs
}

// checkOutputLimit bounds what Verify lets an entity write when it makes
// it from an empty input: no bare default worth having writes a megabyte
// from nothing, and a chain of them that doubles at every reference must
// not make Verify itself run away.
const checkOutputLimit = 1 << 20
