package entitytest

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

// secretShown is what a message shows in place of a value under a secret
// field.
const secretShown = `"(secret)"`

// redact returns a JSON payload of e with every value that may be secret
// replaced by "(secret)", compacted, and false when the payload is not
// JSON (and cannot be redacted). A value is replaced under a key that a
// field declares secret or writeonly in any view (see view), under a
// secret merged $ref, and where e wants an object but finds anything else
// that what it stands for holds a secret: a group's, a $ref's, or e's
// itself.
func redact(e *entity.Entity, payload []byte, v *view) ([]byte, bool) {
	if !gjson.ValidBytes(payload) {
		return nil, false
	}
	p := gjson.ParseBytes(payload)
	if e == nil {
		return compact([]byte(p.Raw)), true
	}
	return compact(v.redactRef(nil, e, p)), true
}

// redactRef writes r, an object of e or a list of them.
func (v *view) redactRef(dst []byte, e *entity.Entity, r gjson.Result) []byte {
	switch {
	case r.IsObject():
		return v.redactObject(dst, v.entity(e), r)
	case r.IsArray():
		dst = append(dst, '[')
		i := 0
		r.ForEach(func(_, el gjson.Result) bool {
			if i > 0 {
				dst = append(dst, ',')
			}
			i++
			switch {
			case el.Type == gjson.Null:
				dst = append(dst, el.Raw...)
			case el.IsObject():
				dst = v.redactObject(dst, v.entity(e), el)
			case v.entityHolds(e):
				dst = append(dst, secretShown...)
			default:
				dst = append(dst, el.Raw...)
			}
			return true
		})
		return append(dst, ']')
	case r.Type != gjson.Null && v.entityHolds(e):
		return append(dst, secretShown...)
	}
	return append(dst, r.Raw...)
}

// redactObject writes r, an object of the level lv.
func (v *view) redactObject(dst []byte, lv *level, r gjson.Result) []byte {
	dst = append(dst, '{')
	i := 0
	r.ForEach(func(k, val gjson.Result) bool {
		if i > 0 {
			dst = append(dst, ',')
		}
		i++
		dst = append(dst, k.Raw...)
		dst = append(dst, ':')
		f := lv.byKey[k.Str]
		switch {
		case f == nil && lv.holdsAt(k.Str):
			dst = append(dst, secretShown...)
		case f == nil:
			dst = append(dst, val.Raw...)
		case f.Secret || lv.secretMerge[f] || lv.secretAt(k.Str):
			dst = append(dst, secretShown...)
		case f.Kind == dsl.FieldGroup && val.IsObject():
			dst = v.redactObject(dst, v.group(lv, f), val)
		case f.Kind == dsl.FieldGroup && val.Type != gjson.Null && lv.holdsAt(k.Str):
			dst = append(dst, secretShown...)
		case f.Variants != nil && lv.holdsAt(k.Str): // a union whose variants hold a secret: all of it
			dst = append(dst, secretShown...)
		case f.Kind == dsl.FieldRef && f.Entity() != nil:
			dst = v.redactRef(dst, f.Entity(), val)
		default:
			dst = append(dst, val.Raw...)
		}
		return true
	})
	return append(dst, '}')
}

// showBody quotes a response body of e for a message, cut to maxBodyShown
// bytes, with each value that may be secret replaced by "(secret)". A body
// that is not JSON is shown only when e has no secret field.
func showBody(e *entity.Entity, body []byte, v *view) string {
	if len(body) == 0 {
		return "the body is empty"
	}
	if r, ok := redact(e, body, v); ok {
		return "body: " + clip(string(r), maxBodyShown)
	}
	if v.entityHolds(e) {
		return "body: " + strconv.Itoa(len(body)) + " bytes, not shown: not JSON, and $" + e.Name() + " has secret fields"
	}
	return "body: " + clip(strings.TrimSpace(string(body)), maxBodyShown)
}
