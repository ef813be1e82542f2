package entity_test

// The reference model's cross-field rules, written from go doc dsl
// ("Cross-field rules") and docs/requests.md ("Rules between fields"),
// with the request issue's statement that a field is reported once per
// cause: required_if, required_with, required_without and excluded_with
// judge a field with its siblings (the fields of the same object, by
// declared name) once the object's fields are made, on requests and
// responses alike. Present means written and not null, after defaults; a
// rule naming a field the call does not read is not judged; a field whose
// value did not convert is reported as a type error only, and one already
// required is not required again.

import (
	"slices"

	"github.com/expose-go/expose/dsl"
)

// judgeCross judges the cross-field rules of the fields of one object.
func (c *mdlCall) judgeCross(fields []*mdlField, made map[*mdlField]*mdlMade) {
	for _, f := range fields {
		m := made[f]
		if m == nil || m.unjudged && !m.kept || len(f.cross) == 0 || slices.Contains(m.codes, "type") || slices.Contains(m.codes, "(repeated)") { // one error per field and cause: its type error (a repeated key is one)
			continue
		}
		for _, r := range f.cross {
			var sibs []*mdlMade
			var sibF []*mdlField
			for _, n := range r.names {
				sf := mdlSibling(fields, made, n)
				if sf == nil {
					break
				}
				sibs, sibF = append(sibs, made[sf]), append(sibF, sf)
			}
			if len(sibs) != len(r.names) {
				continue // it names a field this call does not read
			}
			if m.kept && !slices.ContainsFunc(sibs, func(s *mdlMade) bool { return !s.unjudged }) {
				continue // every field it names is the server's, taken as stored (docs/requests.md, PATCH)
			}
			// a secret field's rule keeps its words: it quotes the values of
			// its siblings, but of a secret one (go doc dsl, cross-field
			// rules; docs/requests.md)
			anyPresent, secret := false, false
			for i, s := range sibs {
				anyPresent = anyPresent || s.present
				secret = secret || s.sec || sibF[i].secret
			}
			fire := false
			switch r.rule {
			case "required_if":
				if o := sibs[0]; o.present {
					written := string(mdlEncode(nil, o.out))
					for _, v := range r.values {
						if c.crossText(sibF[0], v) == written {
							fire = !m.present
						}
					}
				}
			case "required_with":
				fire = anyPresent && !m.present
			case "required_without":
				fire = !anyPresent && !m.present
			case "excluded_with":
				fire = anyPresent && m.present
			}
			if !fire || (r.rule != "excluded_with" && m.failed && !m.present) {
				// one error per field and cause: a field whose value failed
				// (required, a type, a rule, in it or in an element of it:
				// a list whose failing elements left it empty) is not
				// missing again
				continue
			}
			c.fail(f, m.path, m.outPath, r.rule, m.sec)
			e := &c.errs[len(c.errs)-1]
			e.secret = e.secret || m.sec
			if secret {
				e.secret = true
				for _, v := range r.values {
					e.forbidden = append(e.forbidden, v.Text)
				}
			}
		}
	}
}

// mdlSibling finds the field of the object declared under name that the
// call made.
func mdlSibling(fields []*mdlField, made map[*mdlField]*mdlMade, name string) *mdlField {
	for _, f := range fields {
		if f.name == name && made[f] != nil {
			return f
		}
	}
	return nil
}

// crossText is the JSON a field writes for a required_if value: the value
// converted as a default of the field is, and formatted as it writes it.
func (c *mdlCall) crossText(f *mdlField, v dsl.Arg) string {
	tmp := *f
	tmp.hasDefault, tmp.defArg = true, &v
	val, src, null := c.defaultValue(&tmp, f.typ)
	if null {
		return "null"
	}
	out, err := c.write(f.typ, val, src, f.format)
	if err != nil {
		return ""
	}
	return string(out)
}
