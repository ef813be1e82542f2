package entitytest

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/internal/pathfmt"
)

// Conform checks that payload is JSON a response call of the entity could
// have written: an object, or an array of objects (what MakeJSON writes for
// a list input). It checks against what a call with the options given by
// Call writes ([entity.Entity.Fields]): without Call, a call without flags
// or version; a field such a call does not write is not declared to it.
// In each object:
//
//   - every declared output key is present, in declaration order (unless
//     IgnoreOrder is given), and no other key is; a field a call may leave
//     out whatever it selects (lazy, omitnil, omitempty) may be absent,
//     and with Partial any declared key may (a selection's payload);
//   - no key of a writeonly field is there: a response never writes one;
//   - each value is of the declared JSON type: a string for string, an
//     integer for number, a number for float, true or false for bool, an
//     RFC 3339 string for date, an array for list, an object for object and
//     for a group, anything for none;
//   - a value is null only where the entity can write null: on a field
//     without req and without default (or whose default is null), and as
//     an element of a list of $refs (Make writes null for an element that
//     is not an object);
//   - groups are checked field by field, and $refs with the entity they
//     name, an object or each element of a list of objects;
//   - a formatted value is what its format writes (Field.Unformat: a date
//     its layout reads back, a float with fixed's decimals; a registered
//     format's value, its JSON type only); its rules judged the value
//     before the format rounded or truncated it, and are not judged again;
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
// A key that the call does not write but the entity declares for other
// flags or another version says so, to hint at a missing Call:
//
//	token: undeclared key (declared for other flags or versions), got "t"
//
// No value under a field declared `secret` or `writeonly` is printed: not
// the field's own, nor, under a secret group, $ref or merged $ref, its
// fields' values, the elements of a list, or the values of undeclared
// keys; each is named by its JSON type followed by "(secret)", and a
// rule's own message is replaced by "is not valid", since it may quote the
// value:
//
//	card.number: want string matching min 16, got a string (secret): is not valid (min)
//	password: writeonly key: a response never writes it
//
// A key counts as secret when any field of the object declares it secret
// or writeonly, under any flag or version, by its name or its rename, in
// any key case: the payload may come from a call Conform was not told of.
// Under a secret field an undeclared key is not named either (a path into
// a secret holds only declared keys):
//
//	card: an undeclared key (secret)
//
// A value of the wrong JSON type where a group or a $ref (or the payload
// itself) holding a secret field at any depth wants an object is named by
// its type in the same way:
//
//	g: want object (group), got an array (secret)
//
// Conform takes Call, Partial and IgnoreOrder; given Request it reports a
// mistake, since it checks responses. It returns whether the payload
// conformed. It walks the payload with gjson and never decodes it into
// maps, except a list, object or none value that a rule judges, for
// rules.Value.Any.
func Conform(t testing.TB, e *entity.Entity, payload []byte, opts ...Option) bool {
	t.Helper()
	cfg := configOf(opts)
	if cfg.input {
		t.Errorf("entitytest: Conform: Request is for Sample and CheckStruct: Conform checks what a response writes")
		return false
	}
	if msg := callError(e, cfg.call); msg != "" {
		t.Errorf("%s", msg)
		return false
	}
	msgs := conform(e, payload, cfg)
	for _, m := range msgs {
		t.Errorf("%s", m)
	}
	return len(msgs) == 0
}

// conform returns Conform's messages.
func conform(e *entity.Entity, payload []byte, cfg config) []string {
	c := &checker{cfg: cfg, view: newView(cfg.call)}
	if e == nil {
		c.add("", "no entity to check against (nil *entity.Entity)")
		return c.msgs
	}
	if !gjson.ValidBytes(payload) {
		// encoding/json quotes the character it stopped at: maybe one of
		// a secret, so it is left out when the payload may hold one.
		c.add("", "invalid JSON: "+syntaxError(payload, cfg.secretBody || c.view.entityHolds(e)))
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
	view *view
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
// (pathfmt.AppendKey): "list[1].details.mail", `meta["a.b"]`.
type path string

func (p path) key(k string) path {
	if p == "" {
		return path(pathfmt.AppendFirstKey(nil, k))
	}
	return path(pathfmt.AppendKey([]byte(p), k))
}

func (p path) index(i int) path { return path(pathfmt.AppendIndex([]byte(p), i)) }

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
		c.object("", c.view.entity(e), v, false)
	case v.IsArray():
		c.list("", e, v, false)
	default:
		c.add("", "want "+refWant(e.Name())+", got "+c.show(v, c.view.entityHolds(e)))
	}
}

// list checks each element of an array as an object of e; a null element
// is what Make writes for one that is not an object. When secret is set
// the array is under a secret field, and no value of it is shown; an
// element that is not an object is not shown either when e holds a secret.
func (c *checker) list(p path, e *entity.Entity, v gjson.Result, secret bool) {
	i := 0
	v.ForEach(func(_, el gjson.Result) bool {
		ep := p.index(i)
		i++
		switch {
		case el.Type == gjson.Null:
		case el.IsObject():
			c.object(ep, c.view.entity(e), el, secret)
		default:
			c.add(ep, "want object ($"+e.Name()+"), got "+c.show(el, secret || c.view.entityHolds(e)))
		}
		return true
	})
}

// union checks the value of a union field: an object whose first key is
// the union's, naming a variant, and whose other keys are that variant's
// object; for []$a|$b a list of them (null elements allowed, as for a
// []$name).
func (c *checker) union(p path, f *entity.Field, v gjson.Result, secret bool) {
	variants := "$" + strings.Join(f.Variants, "|$")
	one := func(p path, v gjson.Result) {
		if !v.IsObject() {
			c.add(p, "want object ("+variants+"), got "+c.show(v, secret))
			return
		}
		var name string
		first := true
		rest := []byte{'{'}
		v.ForEach(func(k, val gjson.Result) bool {
			switch {
			case first && k.String() == f.By && val.Type == gjson.String:
				name = val.String()
			default:
				if len(rest) > 1 {
					rest = append(rest, ',')
				}
				rest = append(append(append(rest, k.Raw...), ':'), val.Raw...)
			}
			first = false
			return true
		})
		e := f.Variant(name)
		if e == nil {
			c.add(p.key(f.By), "want the first key, a string naming one of "+variants+", got none of them")
			return
		}
		c.object(p, c.view.entity(e), gjson.Parse(string(append(rest, '}'))), secret)
	}
	if !f.List {
		one(p, v)
		return
	}
	if !v.IsArray() {
		c.add(p, "want list ([]"+variants+"), got "+c.show(v, secret))
		return
	}
	i := 0
	v.ForEach(func(_, el gjson.Result) bool {
		if el.Type != gjson.Null {
			one(p.index(i), el)
		}
		i++
		return true
	})
}

// member is one key of a payload object.
type member struct {
	key string
	val gjson.Result
}

// object checks one payload object against the fields of a level. When
// secret is set the object is under a secret field: no value of it is
// shown, and no key of it that is not declared.
func (c *checker) object(p path, lv *level, v gjson.Result, secret bool) {
	var members []member
	v.ForEach(func(k, val gjson.Result) bool {
		members = append(members, member{k.Str, val})
		return true
	})

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
		if lv.byKey[m.key] != nil {
			order = append(order, m.key)
		}
	}
	if !c.cfg.ignoreOrder {
		var declOrder []string
		for _, f := range lv.fields {
			if _, ok := first[f.Key]; ok && lv.byKey[f.Key] == f {
				declOrder = append(declOrder, f.Key)
			}
		}
		if strings.Join(order, "\x00") != strings.Join(declOrder, "\x00") {
			c.add(p, "keys out of order: got ["+strings.Join(order, " ")+"], want ["+strings.Join(declOrder, " ")+"]")
		}
	}
	for _, k := range dups {
		if secret && lv.byKey[k] == nil {
			c.add(p, "a duplicate undeclared key (secret)")
			continue
		}
		c.add(p.key(k), "duplicate key")
	}

	// Declared fields, in declaration order.
	for _, f := range lv.fields {
		if lv.byKey[f.Key] != f {
			continue // two fields of one key: the first is checked
		}
		val, ok := first[f.Key]
		if !ok {
			if !c.cfg.optional[f.Key] && !c.cfg.partial && !mayBeAbsent(f) && !lv.merged[f] {
				c.add(p.key(f.Key), "missing key, want "+want(f))
			}
			continue
		}
		c.field(p.key(f.Key), lv, f, val, secret || f.Secret || lv.secretMerge[f] || lv.secretAt(f.Key))
	}

	// Cross-field rules, as Make judges them on what it wrote: present is
	// written and not null.
	if !c.cfg.partial {
		for _, f := range lv.fields {
			if lv.byKey[f.Key] == f {
				for _, cr := range f.Cross {
					c.cross(p, lv, f, cr, first)
				}
			}
		}
	}

	// Undeclared keys, in payload order.
	reported := map[string]bool{}
	for _, m := range members {
		if lv.byKey[m.key] != nil || reported[m.key] {
			continue
		}
		reported[m.key] = true
		n := normKey(m.key)
		switch {
		case secret:
			c.add(p, "an undeclared key (secret)")
		case lv.writeOnly[n]:
			c.add(p.key(m.key), "writeonly key: a response never writes it")
		case lv.hidden[n]:
			c.add(p.key(m.key), "undeclared key (declared for other flags or versions), got "+c.show(m.val, lv.holds[n]))
		default:
			c.add(p.key(m.key), "undeclared key, got "+c.show(m.val, lv.holds[n]))
		}
	}
}

// cross checks the cross-field rule cr of field f on the members of an
// object (first). A rule naming a field the level does not have is not
// judged, as Make does not judge it for the call.
func (c *checker) cross(p path, lv *level, f *entity.Field, cr entity.CrossRule, first map[string]gjson.Result) {
	present := func(k string) bool {
		v, ok := first[k]
		return ok && v.Type != gjson.Null
	}
	anyPresent, allAbsent := false, true
	for _, k := range cr.Fields {
		if lv.byKey[k] == nil {
			return
		}
		if present(k) {
			anyPresent, allAbsent = true, false
		}
	}
	others := strings.Join(cr.Fields, ", ")
	switch cr.Rule {
	case "required_if":
		v, ok := first[cr.Fields[0]]
		if !ok || present(f.Key) {
			return
		}
		for _, want := range cr.Values {
			if string(want) == v.Raw {
				if lv.byKey[cr.Fields[0]].Secret {
					c.add(p.key(f.Key), "missing, required for the value of "+others+" (required_if)")
				} else {
					c.add(p.key(f.Key), "missing, required when "+others+" is "+v.Raw+" (required_if)")
				}
				return
			}
		}
	case "required_with":
		if anyPresent && !present(f.Key) {
			c.add(p.key(f.Key), "missing, required when "+others+" is given (required_with)")
		}
	case "required_without":
		if allAbsent && !present(f.Key) {
			c.add(p.key(f.Key), "missing, required when none of "+others+" is given (required_without)")
		}
	case "excluded_with":
		if anyPresent && present(f.Key) {
			c.add(p.key(f.Key), "present, must be absent when "+others+" is given (excluded_with)")
		}
	}
}

// mayBeAbsent reports whether a call that writes f may leave its key out
// whatever it selects: a lazy field is written only when selected, an
// omitnil or omitempty one not when null or empty. (The view a check reads
// holds only the conditional fields the call writes.)
func mayBeAbsent(f *entity.Field) bool { return f.Lazy || f.OmitNil || f.OmitEmpty }

// field checks one declared field's value, a field of lv; secret says that
// it is a secret field or under one.
func (c *checker) field(p path, lv *level, f *entity.Field, v gjson.Result, secret bool) {
	if v.Type == gjson.Null {
		if why := nullReason(f); why != "" {
			c.add(p, "want "+want(f)+", got null"+why)
		}
		return
	}
	switch f.Kind {
	case dsl.FieldGroup:
		if !v.IsObject() {
			c.add(p, "want "+want(f)+", got "+c.show(v, secret || lv.holdsAt(f.Key)))
			return
		}
		c.object(p, c.view.group(lv, f), v, secret)
	case dsl.FieldRef:
		if f.Variants != nil {
			c.union(p, f, v, secret)
			return
		}
		e := f.Entity()
		switch {
		case e == nil:
			c.add(p, "cannot check: $"+f.Ref+" names no declared entity")
		case v.IsObject() && !f.List: // []$name is always a list
			c.object(p, c.view.entity(e), v, secret)
		case v.IsArray():
			c.list(p, e, v, secret)
		default:
			c.add(p, "want "+want(f)+", got "+c.show(v, secret || lv.holdsAt(f.Key) || c.view.entityHolds(e)))
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
	if f.Format != "" {
		// What the format writes (a date its layout can read back, a
		// float with fixed's decimals); its rules judged the value before
		// the format changed it (rounded, truncated), so not here.
		if _, why, ok := f.Unformat([]byte(v.Raw)); !ok && why != "" {
			c.add(p, "want "+want(f)+", got "+c.show(v, secret)+why)
		}
		return
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
