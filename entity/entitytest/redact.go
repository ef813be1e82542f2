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

// redact returns a JSON payload of e with every value under a field
// declared secret replaced by "(secret)", compacted, and false when the
// payload is not JSON (and cannot be redacted).
func redact(e *entity.Entity, payload []byte) ([]byte, bool) {
	if !gjson.ValidBytes(payload) {
		return nil, false
	}
	v := gjson.ParseBytes(payload)
	if e == nil {
		return compact([]byte(v.Raw)), true
	}
	return compact(redactRef(nil, e, v)), true
}

// redactRef writes v, an object of e or a list of them.
func redactRef(dst []byte, e *entity.Entity, v gjson.Result) []byte {
	switch {
	case v.IsObject():
		return redactObject(dst, e.Fields(), v)
	case v.IsArray():
		dst = append(dst, '[')
		i := 0
		v.ForEach(func(_, el gjson.Result) bool {
			if i > 0 {
				dst = append(dst, ',')
			}
			i++
			if el.IsObject() {
				dst = redactObject(dst, e.Fields(), el)
			} else {
				dst = append(dst, el.Raw...)
			}
			return true
		})
		return append(dst, ']')
	}
	return append(dst, v.Raw...)
}

// redactObject writes v, an object of the fields declared.
func redactObject(dst []byte, fields []*entity.Field, v gjson.Result) []byte {
	declared := make(map[string]*entity.Field, len(fields))
	for _, f := range fields {
		declared[f.Key] = f
	}
	dst = append(dst, '{')
	i := 0
	v.ForEach(func(k, val gjson.Result) bool {
		if i > 0 {
			dst = append(dst, ',')
		}
		i++
		dst = append(dst, k.Raw...)
		dst = append(dst, ':')
		f := declared[k.Str]
		switch {
		case f == nil:
			dst = append(dst, val.Raw...)
		case f.Secret:
			dst = append(dst, secretShown...)
		case f.Kind == dsl.FieldGroup && val.IsObject():
			dst = redactObject(dst, f.Fields, val)
		case f.Kind == dsl.FieldRef && f.Entity() != nil:
			dst = redactRef(dst, f.Entity(), val)
		default:
			dst = append(dst, val.Raw...)
		}
		return true
	})
	return append(dst, '}')
}

// hasSecret reports whether e, or an entity it references, has a field
// declared secret.
func hasSecret(e *entity.Entity) bool {
	seen := map[*entity.Entity]bool{}
	var walk func(fs []*entity.Field) bool
	walk = func(fs []*entity.Field) bool {
		for _, f := range fs {
			switch {
			case f.Secret:
				return true
			case f.Kind == dsl.FieldGroup:
				if walk(f.Fields) {
					return true
				}
			case f.Kind == dsl.FieldRef:
				if r := f.Entity(); r != nil && !seen[r] {
					seen[r] = true
					if walk(r.Fields()) {
						return true
					}
				}
			}
		}
		return false
	}
	if e == nil {
		return false
	}
	seen[e] = true
	return walk(e.Fields())
}

// showBody quotes a response body of e for a message, cut to maxBodyShown
// bytes, with each value under a secret field replaced by "(secret)". A
// body that is not JSON is shown only when e has no secret field.
func showBody(e *entity.Entity, body []byte) string {
	if len(body) == 0 {
		return "the body is empty"
	}
	if r, ok := redact(e, body); ok {
		return "body: " + clip(string(r), maxBodyShown)
	}
	if hasSecret(e) {
		return "body: " + strconv.Itoa(len(body)) + " bytes, not shown: not JSON, and $" + e.Name() + " has secret fields"
	}
	return "body: " + clip(strings.TrimSpace(string(body)), maxBodyShown)
}
