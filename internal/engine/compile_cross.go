package engine

import (
	"slices"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/rules"
)

// Cross-field rules: a field judged with its siblings, the fields of the
// same object (a group's fields with the group's), named by their
// declared names.
//
//	required_if 'other' 'v'…   required when other has one of the values
//	required_with 'a' 'b'…     required when any of a, b… is present
//	required_without 'a' 'b'…  required when none of a, b… is: at least one of them
//	excluded_with 'a' 'b'…     absent when any of a, b… is present
//
// Present means written and not null (after defaults). They are judged on
// requests and responses alike, once the object's fields are made
// (cross.go), each view with the siblings it holds: a rule that names
// a field the view lacks (a writeonly one in a response) is not judged
// there.

// crossKind is a cross-field rule.
type crossKind uint8

const (
	crossRequiredIf crossKind = iota
	crossRequiredWith
	crossRequiredWithout
	crossExcludedWith
)

// crossCodes are the rules' codes, as FieldError.Code says them.
var crossCodes = [...]string{"required_if", "required_with", "required_without", "excluded_with"}

// maxCross bounds the cross-field rules of one object and the fields they
// name, so that a walk keeps their state on its stack.
const maxCross = 16

// crossDecl is a cross-field rule as a field declares it, before its
// siblings are known.
type crossDecl struct {
	kind  crossKind
	rule  *dsl.Rule
	names []string // the siblings named
	vals  []dsl.Arg
}

// crossRule is a compiled cross-field rule of an object: it judges the
// field target with the fields others; for required_if, others holds one
// field and values the JSON text it writes for each value.
type crossRule struct {
	kind   crossKind
	target *node
	others []*node     // by name: a name declared in several version ranges has a node for each
	name   []int       // the name of each of others, an index of the rule's names
	values [][][]byte  // required_if's values, for each of others, as it writes them
	params []RuleParam // its failures' params: other/others, values
	msg    string      // the kind of its message: "secret" for a required_if on a secret field, which names none of its values
}

// cross reads a cross-field directive of a field: its arguments, checked
// once the field's object is compiled (resolveCross).
func (c *compiler) cross(f *dsl.Field, n *node, r *dsl.Rule, d rules.Directive) {
	kind := crossKind(d - rules.DirectiveRequiredIf)
	want := 1
	if kind == crossRequiredIf {
		want = 2
	}
	if len(r.Args) < want {
		what := "the fields it depends on"
		if kind == crossRequiredIf {
			what = "the field it depends on, then its values"
		}
		c.errorf(f, r.Pos, "rule %q takes %s: %s", r.Name, what, crossExample[kind])
		return
	}
	cd := crossDecl{kind: kind, rule: r}
	for i, a := range r.Args {
		if kind == crossRequiredIf && i > 0 {
			cd.vals = append(cd.vals, a)
			continue
		}
		if a.Text == f.Name {
			c.errorf(f, a.Pos, "%s names the field itself", r.Name)
			return
		}
		cd.names = append(cd.names, a.Text)
	}
	n.crossDecls = append(n.crossDecls, cd)
}

var crossExample = [...]string{
	"required_if 'delivery' 'ship'",
	"required_with 'billing_address'",
	"required_without 'phone'",
	"excluded_with 'phone'",
}

// resolveCross compiles the cross-field rules of the fields of p, whose
// siblings are now known, into p.cross.
func (c *compiler) resolveCross(p *objectPlan) {
	for _, n := range p.nodes {
		for _, cd := range n.crossDecls {
			cr := &crossRule{kind: cd.kind, target: n}
			ok := true
			if n.kind == nodeGroup {
				c.errorf(n.decl, cd.rule.Pos, "%s: a group is always written, so present: a cross-field rule is a value field's or a reference's", cd.rule.Name)
				continue
			}
			for i, name := range cd.names {
				j := slices.IndexFunc(p.nodes, func(o *node) bool { return o.decl.Name == name })
				if j < 0 {
					c.errorf(n.decl, cd.rule.Args[i].Pos, "%s: no field %q in the same object (a cross-field rule names a sibling by its declared name)", cd.rule.Name, name)
					ok = false
					break
				}
				for _, o := range p.nodes[j:] { // every version range's field of the name
					if o.decl.Name != name {
						continue
					}
					if o.kind == nodeGroup && cd.kind != crossRequiredIf {
						c.errorf(n.decl, cd.rule.Args[i].Pos, "%s: %q is a group, always written, so always present: a cross-field rule names value fields and references", cd.rule.Name, name)
						ok = false
						break
					}
					cr.others = append(cr.others, o)
					cr.name = append(cr.name, i)
				}
				if !ok {
					break
				}
			}
			if !ok {
				continue
			}
			if cd.kind == crossRequiredIf {
				// The values as each version range's field writes them (its
				// type, transforms and format), compared with what it wrote.
				other := cr.others[0]
				var shown []any
				for _, a := range cd.vals {
					shown = append(shown, typedArg(a.Text, a.Quoted))
				}
				for _, o := range cr.others {
					if o.kind != nodeValue {
						c.errorf(n.decl, cd.rule.Args[0].Pos, "required_if compares the values of a value field, and %q is a %s", o.decl.Name, kindWord(o))
						ok = false
						break
					}
					var vals [][]byte
					for _, a := range cd.vals {
						js, fine := c.constantOf(o, a)
						if !fine {
							ok = false
							break
						}
						vals = append(vals, js)
					}
					cr.values = append(cr.values, vals)
					if o.secret { // its values would say what the secret field holds
						cr.msg = "secret"
					}
				}
				if !ok {
					continue
				}
				cr.params = []RuleParam{{"other", other.out}, {"values", shown}}
				if cr.msg == "secret" {
					cr.params = cr.params[:1]
				}
			} else {
				var keys []any
				for _, o := range cr.others {
					if !slices.Contains(keys, any(o.out)) {
						keys = append(keys, o.out)
					}
				}
				cr.params = []RuleParam{{"others", keys}}
			}
			if len(p.cross) == maxCross || len(crossNodes(append(p.cross, cr))) > 2*maxCross {
				c.errorf(n.decl, cd.rule.Pos, "an object takes at most %d cross-field rules, naming at most %d fields", maxCross, 2*maxCross)
				return
			}
			p.cross = append(p.cross, cr)
		}
	}
}

// crossNodes returns the distinct nodes the rules name.
func crossNodes(rs []*crossRule) []*node {
	var ns []*node
	for _, r := range rs {
		for _, n := range append([]*node{r.target}, r.others...) {
			if !slices.Contains(ns, n) {
				ns = append(ns, n)
			}
		}
	}
	return ns
}

// constantOf compiles a value a rule compares a field's values with, as
// the field would write it: converted, transformed and formatted as a
// default is (but not judged by the field's checks: a value the field
// refuses is a condition that never holds, which is no error).
func (c *compiler) constantOf(n *node, a dsl.Arg) ([]byte, bool) {
	tmp := *n
	tmp.hasDefault, tmp.defJSON, tmp.req = false, nil, false
	tmp.inChecks, tmp.outChecks = nil, nil
	c.example = true
	c.defaultValue(n.decl, &tmp, &dsl.Rule{Name: "required_if", Args: []dsl.Arg{a}, Pos: a.Pos})
	c.example = false
	return tmp.defJSON, tmp.hasDefault && !tmp.defNull
}

// kindWord names what a node is, for messages.
func kindWord(n *node) string {
	switch n.kind {
	case nodeGroup:
		return "group"
	case nodeRef:
		return "reference"
	}
	return strings.ToLower(n.typ.String()) + " field"
}

// crossView returns the cross-field rules of a base plan for a view whose
// nodes copy the base's (copies maps each base node to its copy): a rule
// that names a field the view lacks is not judged there, nor one of a
// field the view does not judge (unjudged: a patch's readonly fields,
// taken as stored). Each node a rule
// names gets its index among the nodes the view's rules track.
func crossView(base []*crossRule, copies map[*node]*node, unjudged map[*node]bool) []*crossRule {
	var out []*crossRule
	track := map[*node]int8{}
	idx := func(n *node) {
		if _, ok := track[n]; !ok {
			track[n] = int8(len(track))
			n.crossIdx = track[n]
		}
	}
rules:
	for _, br := range base {
		cr := &crossRule{kind: br.kind, params: br.params, msg: br.msg, target: copies[br.target]}
		if cr.target == nil || unjudged[cr.target] {
			continue
		}
		for k, o := range br.others {
			if copies[o] != nil {
				cr.others = append(cr.others, copies[o])
				cr.name = append(cr.name, br.name[k])
				if br.values != nil {
					cr.values = append(cr.values, br.values[k])
				}
			}
		}
		for k := range br.others { // a name none of whose fields the view has
			if !slices.Contains(cr.name, br.name[k]) {
				continue rules
			}
		}
		idx(cr.target)
		for _, o := range cr.others {
			idx(o)
		}
		out = append(out, cr)
	}
	return out
}
