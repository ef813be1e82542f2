package entitytest

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

// An Option changes what Conform checks.
type Option struct{ apply func(*config) }

type config struct {
	ignoreOrder bool
	// errorFormat: the payload is checked against the kit's own entities
	// for entity.Write's error JSON. A value is shown only at a declared
	// value field and of its declared type, where the library writes only
	// its own words; any other is named by its JSON type, since it may be
	// anything the handler wrote, secrets included.
	errorFormat bool
	// secretBody: the payload may be that of an entity with secret fields
	// (an error body checked for such an entity).
	secretBody bool
	// optional: keys that may be absent (the extension members of problem
	// details, which apply to some problems only).
	optional map[string]bool
	// partial: any declared key may be absent (Partial).
	partial bool
}

// configOf applies options.
func configOf(opts []Option) config {
	var cfg config
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&cfg)
		}
	}
	return cfg
}

// Partial makes Conform accept a payload in which declared keys are
// absent, as a call with a selection (entity.Select, Only, Except) writes
// it: everything present is still checked, in order. Without it only the
// fields a call may leave out whatever it selects (lazy, if, unless,
// since, until: entity.Field.Optional) may be absent.
func Partial() Option { return Option{func(c *config) { c.partial = true }} }

// IgnoreOrder makes Conform accept an object's declared keys in any order.
// By default they must come in declaration order, as the entity writes them.
func IgnoreOrder() Option { return Option{func(c *config) { c.ignoreOrder = true }} }

// Conform checks that payload is JSON the entity could have written: an
// object, or an array of objects (what MakeJSON writes for a list input).
// In each object:
//
//   - every declared output key is present, in declaration order (unless
//     IgnoreOrder is given), and no other key is; a field a call may leave
//     out (lazy, if, unless, since, until: entity.Field.Optional) may be
//     absent, and with Partial any declared key may (a selection's
//     payload); fields that share a key by version range accept what
//     either writes;
//   - each value is of the declared JSON type: a string for string, an
//     integer for number, a number for float, true or false for bool, an
//     RFC 3339 string for date, an array for list, an object for object and
//     for a group, anything for none;
//   - a value is null only where the entity can write null: on a field
//     without req and without default (or whose default is null);
//   - groups are checked field by field, and $refs with the entity they
//     name, an object or each element of a list of objects;
//   - every rule that judges a value (min, max, range, regex, email, url,
//     date, time, num, float, bool, timestamp and custom rules) holds.
//
// Conform reports every mismatch at once, one t.Errorf each, with the
// value's path in the payload, written as the Path of an entity.FieldError
// ("(root)" for the payload itself), so that a path copied from a test
// failure finds the same field in an error body:
//
//	list[1].details.mail: want string matching email, got 12
//
// No value under a field declared `secret` is printed: not the field's own,
// nor, under a secret group or $ref, its fields' values, the elements of a
// list, or the values of undeclared keys; each is named by its JSON type
// followed by "(secret)", and a rule's own message is replaced by "is not
// valid", since it may quote the value:
//
//	card.number: want string matching min 16, got a string (secret): is not valid (min)
//
// Under a secret field an undeclared key is not named either (a path into
// a secret holds only declared keys):
//
//	card: an undeclared key (secret)
//
// A value of the wrong JSON type where a group or a $ref (or the payload
// itself) holding a secret field at any depth wants an object is named by
// its type in the same way, as is an undeclared key's value when the key is
// the declared name of a renamed field that holds a secret:
//
//	g: want object (group), got an array (secret)
//
// Conform returns whether the payload conformed. It walks the payload with gjson and never
// decodes it into maps, except a list, object or none value that a rule
// judges, for rules.Value.Any.
func Conform(t testing.TB, e *entity.Entity, payload []byte, opts ...Option) bool {
	t.Helper()
	msgs := conform(e, payload, configOf(opts))
	for _, m := range msgs {
		t.Errorf("%s", m)
	}
	return len(msgs) == 0
}

// conform returns Conform's messages.
func conform(e *entity.Entity, payload []byte, cfg config) []string {
	c := &checker{cfg: cfg, sec: newSecrets()}
	if e == nil {
		c.add("", "no entity to check against (nil *entity.Entity)")
		return c.msgs
	}
	if !gjson.ValidBytes(payload) {
		// encoding/json quotes the character it stopped at: maybe one of
		// a secret, so it is left out when the payload may hold one.
		c.add("", "invalid JSON: "+syntaxError(payload, cfg.secretBody || c.sec.inEntity(e)))
		return c.msgs
	}
	c.top(e, gjson.ParseBytes(payload))
	return c.msgs
}

// syntaxError describes why payload is not JSON, as encoding/json says it,
// without the character it quotes when hide is set.
func syntaxError(payload []byte, hide bool) string {
	var raw json.RawMessage
	err := json.Unmarshal(payload, &raw)
	if se, ok := err.(*json.SyntaxError); ok {
		msg := se.Error()
		if rest, ok := strings.CutPrefix(msg, "invalid character '"); hide && ok {
			// The character is quoted as strconv.QuoteRune's body: find
			// the closing quote after its first byte.
			if i := strings.Index(rest[1:], "' "); i >= 0 {
				msg = "invalid character " + rest[i+3:]
			}
		}
		return msg + " (at byte " + strconv.FormatInt(se.Offset, 10) + ")"
	}
	if err != nil {
		return err.Error()
	}
	return "not a JSON value" // gjson and encoding/json disagree: should not happen
}

// checker walks a payload and collects mismatches.
type checker struct {
	cfg  config
	sec  *secrets
	msgs []string
}

// show quotes v for a message, or names its JSON type when secret is set
// ("a string (secret)") or in an error body ("a string"; an empty array or
// object, which holds nothing, is still shown).
func (c *checker) show(v gjson.Result, secret bool) string {
	if c.cfg.errorFormat && !secret {
		if s := shown(v, false); s == "[]" || s == "{}" {
			return s
		}
		return typeOf(v)
	}
	return shown(v, secret)
}

// path is a path in the payload, written as entity's FieldError paths are
// (entity.AppendPathKey): "list[1].details.mail", `meta["a.b"]`.
type path string

func (p path) key(k string) path {
	if p == "" {
		return path(entity.AppendPathFirstKey(nil, k))
	}
	return path(entity.AppendPathKey([]byte(p), k))
}

func (p path) index(i int) path { return path(entity.AppendPathIndex([]byte(p), i)) }

// String renders the path, or "(root)" for the payload itself.
func (p path) String() string {
	if p == "" {
		return "(root)"
	}
	return string(p)
}

func (c *checker) add(p path, msg string) { c.msgs = append(c.msgs, p.String()+": "+msg) }

// top checks the payload: an object of e, or an array of them.
func (c *checker) top(e *entity.Entity, v gjson.Result) {
	switch {
	case v.IsObject():
		c.object("", c.sec.fieldsOf(e), v, false)
	case v.IsArray():
		c.list("", e, v, false)
	default:
		c.add("", "want "+refWant(e.Name())+", got "+c.show(v, c.sec.inEntity(e)))
	}
}

// list checks each element of an array as an object of e. When secret is
// set the array is under a secret field, and no value of it is shown; an
// element that is not an object is not shown either when e holds a secret.
func (c *checker) list(p path, e *entity.Entity, v gjson.Result, secret bool) {
	i := 0
	v.ForEach(func(_, el gjson.Result) bool {
		ep := p.index(i)
		i++
		if !el.IsObject() {
			c.add(ep, "want object ($"+e.Name()+"), got "+c.show(el, secret || c.sec.inEntity(e)))
			return true
		}
		c.object(ep, c.sec.fieldsOf(e), el, secret)
		return true
	})
}

// member is one key of a payload object.
type member struct {
	key string
	val gjson.Result
}

// object checks one payload object against declared fields. When secret is
// set the object is under a secret field: no value of it is shown, and no
// key of it that is not declared.
func (c *checker) object(p path, fields []*entity.Field, v gjson.Result, secret bool) {
	var members []member
	v.ForEach(func(k, val gjson.Result) bool {
		members = append(members, member{k.Str, val})
		return true
	})
	fields, merged := expandMerged(fields)
	declared := make(map[string]*entity.Field, len(fields))
	shared := map[string][]*entity.Field{} // keys fields share by version range
	for _, f := range fields {
		if prev := declared[f.Key]; prev != nil {
			if shared[f.Key] == nil {
				shared[f.Key] = []*entity.Field{prev}
			}
			shared[f.Key] = append(shared[f.Key], f)
			continue
		}
		declared[f.Key] = f
	}

	// Keys: duplicates, and the order of the declared ones.
	first := make(map[string]gjson.Result, len(members)) // a key's first value
	var order []string                                   // declared keys as they come
	var dups []string
	for _, m := range members {
		if _, dup := first[m.key]; dup {
			dups = append(dups, m.key)
			continue
		}
		first[m.key] = m.val
		if declared[m.key] != nil && shared[m.key] == nil { // a key shared by version comes where its writer is declared
			order = append(order, m.key)
		}
	}
	if !c.cfg.ignoreOrder {
		var declOrder []string
		for _, f := range fields {
			if _, ok := first[f.Key]; ok && declared[f.Key] == f && shared[f.Key] == nil {
				declOrder = append(declOrder, f.Key)
			}
		}
		if strings.Join(order, "\x00") != strings.Join(declOrder, "\x00") {
			c.add(p, "keys out of order: got ["+strings.Join(order, " ")+"], want ["+strings.Join(declOrder, " ")+"]")
		}
	}
	for _, k := range dups {
		if secret && declared[k] == nil {
			c.add(p, "a duplicate undeclared key (secret)")
			continue
		}
		c.add(p.key(k), "duplicate key")
	}

	// Declared fields, in declaration order.
	for _, f := range fields {
		if declared[f.Key] != f {
			continue // a key shared by version: checked with its first field
		}
		val, ok := first[f.Key]
		if !ok {
			if !c.cfg.optional[f.Key] && !c.cfg.partial && !f.Optional() && !merged[f] {
				c.add(p.key(f.Key), "missing key, want "+want(f))
			}
			continue
		}
		if same := shared[f.Key]; same != nil {
			c.sharedField(p.key(f.Key), same, val, secret)
			continue
		}
		c.field(p.key(f.Key), f, val, secret || f.Secret)
	}

	// Undeclared keys, in payload order.
	var hidden map[string]bool // keys that are a secret's declared name
	if !secret {
		hidden = c.sec.undeclared(fields)
	}
	reported := map[string]bool{}
	for _, m := range members {
		if declared[m.key] != nil || reported[m.key] {
			continue
		}
		reported[m.key] = true
		if secret {
			c.add(p, "an undeclared key (secret)")
			continue
		}
		c.add(p.key(m.key), "undeclared key, got "+c.show(m.val, hidden[m.key]))
	}
}

// expandMerged replaces each merged $ref among fields by the fields of
// the entity it names (at any depth), as the entity writes them, and
// reports which fields came from a merge: their keys may be absent (a
// merged $ref that is null writes none).
func expandMerged(fields []*entity.Field) ([]*entity.Field, map[*entity.Field]bool) {
	var merged map[*entity.Field]bool
	var out []*entity.Field
	var walk func(fs []*entity.Field, depth int, inMerge bool)
	walk = func(fs []*entity.Field, depth int, inMerge bool) {
		for _, f := range fs {
			if !f.Merge {
				out = append(out, f)
				if inMerge {
					merged[f] = true
				}
				continue
			}
			if merged == nil {
				merged = map[*entity.Field]bool{}
			}
			if t := f.Entity(); t != nil && depth < maxMergeDepth {
				walk(t.Fields(), depth+1, true)
			}
		}
	}
	walk(fields, 0, false)
	if merged == nil {
		return fields, nil
	}
	return out, merged
}

// maxMergeDepth bounds expandMerged: declarations refuse merge cycles, and
// no real chain of merges is this long.
const maxMergeDepth = 64

// sharedField checks the value of a key that fields of disjoint version
// ranges share: it conforms when it is what one of them writes; otherwise
// the first field's mismatches are reported.
func (c *checker) sharedField(p path, fields []*entity.Field, v gjson.Result, secret bool) {
	mark := len(c.msgs)
	for _, f := range fields {
		c.field(p, f, v, secret || f.Secret)
		if len(c.msgs) == mark {
			return
		}
		c.msgs = c.msgs[:mark]
	}
	c.field(p, fields[0], v, secret || fields[0].Secret)
}

// field checks one declared field's value; secret says that it is a secret
// field or under one.
func (c *checker) field(p path, f *entity.Field, v gjson.Result, secret bool) {
	if v.Type == gjson.Null {
		if why := nullReason(f); why != "" {
			c.add(p, "want "+want(f)+", got null"+why)
		}
		return
	}
	switch f.Kind {
	case dsl.FieldGroup:
		if !v.IsObject() {
			c.add(p, "want "+want(f)+", got "+c.show(v, secret || c.sec.inField(f)))
			return
		}
		c.object(p, f.Fields, v, secret)
	case dsl.FieldRef:
		e := f.Entity()
		switch {
		case e == nil:
			c.add(p, "cannot check: $"+f.Ref+" names no declared entity")
		case v.IsObject() && !f.List: // []$name is always a list
			c.object(p, c.sec.fieldsOf(e), v, secret)
		case v.IsArray():
			c.list(p, e, v, secret)
		default:
			c.add(p, "want "+want(f)+", got "+c.show(v, secret || c.sec.inField(f)))
		}
	default:
		c.value(p, f, v, secret)
	}
}

// value checks a value field: its JSON type, then its rules.
func (c *checker) value(p path, f *entity.Field, v gjson.Result, secret bool) {
	rv, why, ok := f.ReadJSON([]byte(v.Raw))
	if !ok {
		c.add(p, "want "+want(f)+", got "+c.show(v, secret)+why)
		return
	}
	if f.Each != nil { // a typed list: element by element, nulls allowed
		for i, el := range v.Array() {
			if el.Type != gjson.Null {
				c.value(p.index(i), f.Each, el, secret)
			}
		}
	}
	if len(f.Rules) == 0 {
		return
	}
	for _, re := range f.Check(rv) {
		msg := re.Err.Error()
		if secret {
			msg = "is not valid" // a rule's words may quote the value
		}
		c.add(p, "want "+want(f)+", got "+shown(v, secret)+": "+msg+" ("+re.Rule+")")
	}
}

// nullReason returns why a field cannot be null in the entity's output
// (": is required (req)"), or "" when it can.
func nullReason(f *entity.Field) string {
	switch {
	case f.Nullable():
		return ""
	case f.Kind == dsl.FieldGroup:
		return ": a group is always an object"
	case f.HasDefault && string(f.Default) != "null":
		return ": has a default (default)"
	}
	return ": is required (req)"
}
