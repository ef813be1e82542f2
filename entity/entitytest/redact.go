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

// secrets answers, for one check, which fields hold a secret. Each
// entity's fields are read once (so that a *entity.Field is the same
// pointer wherever the entity recurs) and each answer is computed once.
type secrets struct {
	fields map[*entity.Entity][]*entity.Field
	field  map[*entity.Field]bool  // holds: a field is secret or has one under it
	entity map[*entity.Entity]bool // holds: an entity has a field that holds one
}

func newSecrets() *secrets {
	return &secrets{
		fields: map[*entity.Entity][]*entity.Field{},
		field:  map[*entity.Field]bool{},
		entity: map[*entity.Entity]bool{},
	}
}

// fieldsOf returns e's fields, the same slice each time.
func (s *secrets) fieldsOf(e *entity.Entity) []*entity.Field {
	fs, ok := s.fields[e]
	if !ok {
		fs = e.Fields()
		s.fields[e] = fs
	}
	return fs
}

// inField reports whether f is declared secret or holds, at any depth, a
// field that is: in a group, or in the entity a $ref names.
func (s *secrets) inField(f *entity.Field) bool {
	if h, ok := s.field[f]; ok {
		return h
	}
	h := s.walk([]*entity.Field{f}, map[*entity.Entity]bool{})
	s.field[f] = h
	return h
}

// inEntity reports whether e has a field that holds a secret.
func (s *secrets) inEntity(e *entity.Entity) bool {
	if e == nil {
		return false
	}
	if h, ok := s.entity[e]; ok {
		return h
	}
	h := s.walk(s.fieldsOf(e), map[*entity.Entity]bool{e: true})
	s.entity[e] = h
	return h
}

// walk reports whether a field of fs holds a secret, entering each entity
// once (seen guards the recursion through $refs). Only complete answers
// are kept: an entity cut short by seen is not.
func (s *secrets) walk(fs []*entity.Field, seen map[*entity.Entity]bool) bool {
	for _, f := range fs {
		switch {
		case f.Secret:
			return true
		case f.Kind == dsl.FieldGroup:
			if s.walk(f.Fields, seen) {
				return true
			}
		case f.Kind == dsl.FieldRef:
			r := f.Entity()
			if r == nil {
				continue
			}
			if h, ok := s.entity[r]; ok {
				if h {
					return true
				}
				continue
			}
			if !seen[r] {
				seen[r] = true
				if s.walk(s.fieldsOf(r), seen) {
					return true
				}
			}
		}
	}
	return false
}

// undeclared returns, for an object of fields, the keys that are not
// declared but name a field that holds a secret: a renamed field's
// declared name, under which a payload made without the entity carries it.
func (s *secrets) undeclared(fields []*entity.Field) map[string]bool {
	var m map[string]bool
	for _, f := range fields {
		if f.Name != f.Key && s.inField(f) {
			if m == nil {
				m = map[string]bool{}
			}
			m[f.Name] = true
		}
	}
	for _, f := range fields {
		delete(m, f.Key)
	}
	return m
}

// redact returns a JSON payload of e with every value under a field
// declared secret replaced by "(secret)", compacted, and false when the
// payload is not JSON (and cannot be redacted). A value where e wants an
// object, given anything else, is replaced when what it stands for holds a
// secret: a group's, a $ref's, or e's itself.
func redact(e *entity.Entity, payload []byte) ([]byte, bool) {
	if !gjson.ValidBytes(payload) {
		return nil, false
	}
	v := gjson.ParseBytes(payload)
	if e == nil {
		return compact([]byte(v.Raw)), true
	}
	s := newSecrets()
	return compact(s.redactRef(nil, e, v)), true
}

// redactRef writes v, an object of e or a list of them.
func (s *secrets) redactRef(dst []byte, e *entity.Entity, v gjson.Result) []byte {
	switch {
	case v.IsObject():
		return s.redactObject(dst, s.fieldsOf(e), v)
	case v.IsArray():
		dst = append(dst, '[')
		i := 0
		v.ForEach(func(_, el gjson.Result) bool {
			if i > 0 {
				dst = append(dst, ',')
			}
			i++
			switch {
			case el.Type == gjson.Null:
				dst = append(dst, el.Raw...)
			case el.IsObject():
				dst = s.redactObject(dst, s.fieldsOf(e), el)
			case s.inEntity(e):
				dst = append(dst, secretShown...)
			default:
				dst = append(dst, el.Raw...)
			}
			return true
		})
		return append(dst, ']')
	case v.Type != gjson.Null && s.inEntity(e):
		return append(dst, secretShown...)
	}
	return append(dst, v.Raw...)
}

// redactObject writes v, an object of the fields declared.
func (s *secrets) redactObject(dst []byte, fields []*entity.Field, v gjson.Result) []byte {
	declared := make(map[string]*entity.Field, len(fields))
	for _, f := range fields {
		declared[f.Key] = f
	}
	hidden := s.undeclared(fields)
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
		case f == nil && hidden[k.Str]:
			dst = append(dst, secretShown...)
		case f == nil:
			dst = append(dst, val.Raw...)
		case f.Secret:
			dst = append(dst, secretShown...)
		case f.Kind == dsl.FieldGroup && val.IsObject():
			dst = s.redactObject(dst, f.Fields, val)
		case f.Kind == dsl.FieldGroup && val.Type != gjson.Null && s.inField(f):
			dst = append(dst, secretShown...)
		case f.Kind == dsl.FieldRef && f.Entity() != nil:
			dst = s.redactRef(dst, f.Entity(), val)
		default:
			dst = append(dst, val.Raw...)
		}
		return true
	})
	return append(dst, '}')
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
	if newSecrets().inEntity(e) {
		return "body: " + strconv.Itoa(len(body)) + " bytes, not shown: not JSON, and $" + e.Name() + " has secret fields"
	}
	return "body: " + clip(strings.TrimSpace(string(body)), maxBodyShown)
}
