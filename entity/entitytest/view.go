package entitytest

import (
	"strings"
	"unicode"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// view holds, for one check, the objects of the entities met: each read
// once, in the response direction and with the options of the call (so
// that a *entity.Field is the same pointer wherever an entity recurs).
//
// What a message may show is decided from the declarations, in every view:
// a key that any field of the object declares secret or writeonly, in any
// version or under any flag, never shows its value, since the payload may
// have been made by a call the check was not told of.
type view struct {
	call   []entity.Option
	levels map[levelKey]*level
	decls  map[*entity.Entity][]*dsl.Field
	holds  map[*entity.Entity]bool // an entity has a field that holds a secret
	// groupHolds: a declared group has a secret or writeonly field under it.
	groupHolds map[*dsl.Field]bool
}

func newView(call []entity.Option) *view {
	return &view{call: call,
		levels: map[levelKey]*level{},
		decls:  map[*entity.Entity][]*dsl.Field{},
		holds:  map[*entity.Entity]bool{},

		groupHolds: map[*dsl.Field]bool{},
	}
}

// levelKey names one object shape: an entity's top, or one of its groups.
type levelKey struct {
	e *entity.Entity
	g *entity.Field
}

// level is one object shape as the view sees it.
type level struct {
	e *entity.Entity // the entity the object belongs to
	// fields are the object's fields in output order, each merged $ref
	// replaced by its entity's fields (at any depth).
	fields []*entity.Field
	// merged marks the fields that came from a merged $ref (absent when it
	// was null); secretMerge those of a merged $ref declared secret.
	merged, secretMerge map[*entity.Field]bool
	byKey               map[string]*entity.Field
	// Of every field declared at this level, in any view, by normal key
	// (normKey of its name and of its rename): secret, its whole value is
	// secret (secret, writeonly, or under a secret merge); holds, a secret
	// is in it at some depth; writeOnly, a writeonly field's; hidden, a
	// field of another view (flags, version) or direction.
	secret, holds, writeOnly, hidden map[string]bool
}

// entity returns the level of e's top object.
func (v *view) entity(e *entity.Entity) *level {
	k := levelKey{e: e}
	if lv := v.levels[k]; lv != nil {
		return lv
	}
	lv := v.newLevel(e, e.Fields(v.call...), v.declsOf(e))
	v.levels[k] = lv
	return lv
}

// group returns the level of the group g, a field of lv.
func (v *view) group(lv *level, g *entity.Field) *level {
	k := levelKey{e: lv.e, g: g}
	if l := v.levels[k]; l != nil {
		return l
	}
	var decls []*dsl.Field
	if g.Decl != nil {
		decls = g.Decl.Fields
	}
	l := v.newLevel(lv.e, g.Fields, decls)
	v.levels[k] = l
	return l
}

// declsOf returns e's declared fields, read once.
func (v *view) declsOf(e *entity.Entity) []*dsl.Field {
	ds, ok := v.decls[e]
	if !ok {
		if d := e.Decl(); d != nil {
			ds = d.Fields
		}
		v.decls[e] = ds
	}
	return ds
}

// maxMergeDepth bounds the expansion of merged $refs: declarations refuse
// merge cycles, and no real chain of merges is this long.
const maxMergeDepth = 64

func (v *view) newLevel(e *entity.Entity, fields []*entity.Field, decls []*dsl.Field) *level {
	lv := &level{e: e, byKey: map[string]*entity.Field{},
		secret: map[string]bool{}, holds: map[string]bool{}, writeOnly: map[string]bool{}, hidden: map[string]bool{}}
	var expand func(fs []*entity.Field, depth int, inMerge, secret bool)
	expand = func(fs []*entity.Field, depth int, inMerge, secret bool) {
		for _, f := range fs {
			if !f.Merge {
				lv.fields = append(lv.fields, f)
				if inMerge {
					if lv.merged == nil {
						lv.merged, lv.secretMerge = map[*entity.Field]bool{}, map[*entity.Field]bool{}
					}
					lv.merged[f], lv.secretMerge[f] = true, secret
				}
				continue
			}
			if t := f.Entity(); t != nil && depth < maxMergeDepth {
				expand(t.Fields(v.call...), depth+1, true, secret || f.Secret)
			}
		}
	}
	expand(fields, 0, false, false)
	visible := map[string]bool{}
	for _, f := range lv.fields {
		if lv.byKey[f.Key] == nil {
			lv.byKey[f.Key] = f
		}
		visible[normKey(f.Key)], visible[normKey(f.Name)] = true, true
	}

	reg := e.Registry()
	var walk func(ds []*dsl.Field, depth int, secret bool)
	walk = func(ds []*dsl.Field, depth int, secret bool) {
		for _, d := range ds {
			if d == nil {
				continue
			}
			if d.Kind == dsl.FieldRef && hasDirective(d, rules.DirectiveMerge) {
				if t := reg.Lookup(d.Ref); t != nil && depth < maxMergeDepth {
					walk(v.declsOf(t), depth+1, secret || hasDirective(d, rules.DirectiveSecret))
				}
				continue
			}
			own := secret || isSecretDecl(d)
			holds := own || v.declHolds(reg, d)
			for _, k := range declKeys(d) {
				n := normKey(k)
				lv.secret[n] = lv.secret[n] || own
				lv.holds[n] = lv.holds[n] || holds
				if hasDirective(d, rules.DirectiveWriteOnly) {
					lv.writeOnly[n] = true
				}
				if !visible[n] {
					lv.hidden[n] = true
				}
			}
		}
	}
	walk(decls, 0, false)
	return lv
}

// secretAt reports whether the value under key k is secret as a whole.
func (lv *level) secretAt(k string) bool { return lv.secret[normKey(k)] }

// holdsAt reports whether a secret may be under key k, at some depth.
func (lv *level) holdsAt(k string) bool { return lv.holds[normKey(k)] }

// entityHolds reports whether e has a field that holds a secret, in any
// view: secret or writeonly, or with one in a group or a $ref under it.
func (v *view) entityHolds(e *entity.Entity) bool {
	if e == nil {
		return false
	}
	if _, ok := v.holds[e]; !ok {
		v.solveHolds(e)
	}
	return v.holds[e]
}

// solveHolds answers entityHolds for every entity reachable from root
// through $refs that has no answer yet, in time linear in their
// declarations: an entity holds a secret when a field of it is secret or
// writeonly (in a group at any depth), or a $ref of it names one that
// holds a secret.
func (v *view) solveHolds(root *entity.Entity) {
	type node struct {
		direct bool
		refs   []*entity.Entity
	}
	nodes := map[*entity.Entity]*node{}
	queue := []*entity.Entity{root}
	for len(queue) > 0 {
		e := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if _, done := v.holds[e]; done || nodes[e] != nil {
			continue
		}
		n := &node{}
		nodes[e] = n
		reg := e.Registry()
		var walk func(ds []*dsl.Field)
		walk = func(ds []*dsl.Field) {
			for _, d := range ds {
				switch {
				case d == nil:
				case isSecretDecl(d):
					n.direct = true
				case d.Kind == dsl.FieldGroup:
					walk(d.Fields)
				case d.Kind == dsl.FieldRef && reg != nil:
					for _, name := range refNames(d) {
						if t := reg.Lookup(name); t != nil {
							n.refs = append(n.refs, t)
							queue = append(queue, t)
						}
					}
				}
			}
		}
		walk(v.declsOf(e))
	}
	// Propagate from the entities that hold one to those that reference
	// them.
	holds := map[*entity.Entity]bool{}
	referrers := map[*entity.Entity][]*entity.Entity{}
	var work []*entity.Entity
	mark := func(e *entity.Entity) {
		if !holds[e] {
			holds[e] = true
			work = append(work, e)
		}
	}
	for e, n := range nodes {
		if n.direct {
			mark(e)
		}
		for _, t := range n.refs {
			if h, done := v.holds[t]; done {
				if h {
					mark(e)
				}
				continue
			}
			referrers[t] = append(referrers[t], e)
		}
	}
	for len(work) > 0 {
		t := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range referrers[t] {
			mark(e)
		}
	}
	for e := range nodes {
		v.holds[e] = holds[e]
	}
}

// declHolds reports whether a secret or writeonly field is under d: in
// its group (at any depth), or in the entity its $ref names. A group's
// answer is kept, so that nested groups are walked once.
func (v *view) declHolds(reg *entity.Registry, d *dsl.Field) bool {
	switch d.Kind {
	case dsl.FieldGroup:
		if h, ok := v.groupHolds[d]; ok {
			return h
		}
		h := false
		for _, c := range d.Fields {
			if c != nil && (isSecretDecl(c) || v.declHolds(reg, c)) {
				h = true
				break
			}
		}
		v.groupHolds[d] = h
		return h
	case dsl.FieldRef:
		if reg == nil {
			return false
		}
		for _, name := range refNames(d) {
			if v.entityHolds(reg.Lookup(name)) {
				return true
			}
		}
	}
	return false
}

// refNames returns the entities a reference names: a union's variants, or
// its one entity.
func refNames(d *dsl.Field) []string {
	if d.Variants != nil {
		return d.Variants
	}
	return []string{d.Ref}
}

// isSecretDecl reports whether a declared field is secret or writeonly:
// a message shows no value of it.
func isSecretDecl(d *dsl.Field) bool {
	return hasDirective(d, rules.DirectiveSecret) || hasDirective(d, rules.DirectiveWriteOnly)
}

// hasDirective reports whether d's rules hold the directive.
func hasDirective(d *dsl.Field, dir rules.Directive) bool {
	for _, r := range d.Rules {
		if rules.LookupDirective(r.Name) == dir {
			return true
		}
	}
	return false
}

// declKeys returns the keys a declared field may be written under: its
// name, and the key its rename gives.
func declKeys(d *dsl.Field) []string {
	keys := []string{d.Name}
	for _, r := range d.Rules {
		if rules.LookupDirective(r.Name) == rules.DirectiveRename && len(r.Args) > 0 {
			keys = append(keys, r.Args[0].Text)
		}
	}
	return keys
}

// normKey folds a key to its letters and digits, in lower case, so that
// every key case a registry may write (user_id, userId, user-id, UserId)
// is one key: a match is safe for hiding a value, never for showing one.
func normKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
