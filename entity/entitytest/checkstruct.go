package entitytest

import (
	"database/sql"
	"database/sql/driver"
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/internal/jsonfields"
)

// CheckStruct checks that a struct type has a field for every field the
// entity reads from it, in the direction the type serves: by default a
// struct that Make reads to write a response ([entity.Entity.Fields]: no
// writeonly field is asked of it), with Request a struct that Bind fills from
// a request ([entity.Entity.RequestFields]: no readonly field is asked of
// it, nor a parameter field of an entity read below the top level, and no value field may be of a driver.Valuer type, which Make
// reads, that Bind cannot fill: one that is no sql.Scanner (as
// sql.NullString is), json.Unmarshaler nor encoding.TextUnmarshaler). Call gives the flags and version of the calls the type serves: a
// field they hide is not asked of it (check a type that serves several
// audiences once per audience).
//
// A struct field is matched as Make reads structs: by its json tag, else
// its Go name, to the field's declared name (not the key a rename gives),
// with embedded structs flattened and conflicts settled as encoding/json
// settles them (the shallowest field wins; of several at one depth, the
// one tagged alone; else none). The fields of a group are read from the
// same struct as their siblings. On a response, a field with `from` is
// read at its path (`from 'addr.city'`: field addr, then its field city;
// a step into a map, a slice or an interface is not checked further). A
// reference is read from the struct field of its name; when that field is
// a struct, or a slice or array of structs (through pointers), its type
// is checked against the referenced entity the same way (each pair of
// entity and type once, so recursive types end). A reference held in a
// map, an interface, raw JSON, an *entity.Object or a driver.Valuer is not
// checked: its keys are known only at run time; nor one to an entity not
// declared yet (entity.Registry.Verify reports those).
//
// A field the type lacks is read as absent: Make writes null or the
// default for it without a word, which is what CheckStruct catches in a
// test:
//
//	func TestUserType(t *testing.T) {
//		entitytest.CheckStruct(t, entity.Lookup("user"), User{})
//		entitytest.CheckStruct(t, entity.Lookup("newuser"), NewUser{}, entitytest.Request())
//	}
//
// fails with one message that lists every field the type lacks, by
// declared name, those of references as paths from the type
// ("posts[].title"):
//
//	user_test.go:12: entity "user": type main.User has no field for "id", "user_name"
//	user_test.go:13: entity "newuser": request type main.NewUser has no field for "password"
//
// value is a value of the type, a pointer to one (a nil pointer will do:
// (*User)(nil)), or the reflect.Type itself; a type that is not a struct,
// nor a pointer to one, is an error too. CheckStruct takes Call and Request
// and ignores the other options. It reports with one t.Errorf and
// returns whether the type passed.
func CheckStruct(t testing.TB, e *entity.Entity, value any, opts ...Option) bool {
	t.Helper()
	if e == nil {
		t.Errorf("entitytest: CheckStruct: no entity to check against (nil *entity.Entity)")
		return false
	}
	typ, ok := value.(reflect.Type)
	if !ok {
		typ = reflect.TypeOf(value)
	}
	cfg := configOf(opts)
	if msg := callError(e, cfg.call); msg != "" {
		t.Errorf("%s", msg)
		return false
	}
	if msg := checkStruct(e, typ, cfg); msg != "" {
		t.Errorf("%s", msg)
		return false
	}
	return true
}

// checkStruct returns CheckStruct's message, "" when the type passes.
func checkStruct(e *entity.Entity, t reflect.Type, cfg config) string {
	prefix := "entity " + strconv.Quote(e.Name()) + ": "
	if t == nil {
		return prefix + "CheckStruct: the type is nil"
	}
	st := derefType(t)
	if !readsFields(st) {
		reader := "Make does not read it by field"
		if cfg.input {
			reader = "Bind does not fill it by field"
		}
		return prefix + "type " + t.String() + " is not a struct, nor a pointer to one: " + reader
	}
	c := structCheck{call: cfg.call, input: cfg.input, seen: map[structPair]bool{}, reported: map[path]bool{}}
	c.entity(e, st, "", false)
	if len(c.missing) == 0 && len(c.unfillable) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(prefix)
	if cfg.input {
		b.WriteString("request ")
	}
	b.WriteString("type ")
	b.WriteString(st.String())
	if len(c.missing) > 0 {
		b.WriteString(" has no field for ")
		writePaths(&b, c.missing)
	}
	if len(c.unfillable) > 0 {
		if len(c.missing) > 0 {
			b.WriteString(";")
		}
		b.WriteString(" cannot hold what Bind decodes for ")
		writePaths(&b, c.unfillable)
		b.WriteString(" (a driver.Valuer, which Make reads, that is no sql.Scanner, json.Unmarshaler or encoding.TextUnmarshaler, which Bind fills: use a pointer, or a sql.Null type)")
	}
	return b.String()
}

// writePaths writes ps quoted, separated by commas.
func writePaths(b *strings.Builder, ps []path) {
	for i, p := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(string(p)))
	}
}

// structCheck collects the fields a struct type cannot supply.
type structCheck struct {
	call     []entity.Option
	input    bool
	seen     map[structPair]bool
	reported map[path]bool
	missing  []path // in declaration order

	// unfillable are the request fields whose struct field Make reads
	// through driver.Valuer but Bind cannot fill: no sql.Scanner,
	// json.Unmarshaler nor encoding.TextUnmarshaler.
	unfillable []path
}

// valuerOnly reports whether t (or *t) is a driver.Valuer, which Make reads
// through Value, and *t none of what Bind fills a type it does not know
// through: a json.Unmarshaler, an encoding.TextUnmarshaler, a sql.Scanner.
func valuerOnly(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return (t.Implements(valuerType) || pt.Implements(valuerType)) &&
		!pt.Implements(unmarshalerType) && !pt.Implements(textUnmarshalerType) && !pt.Implements(scannerType)
}

// structPair is an entity checked against a type.
type structPair struct {
	e      *entity.Entity
	t      reflect.Type
	nested bool // read below the top level of a request
}

// entity checks the struct type t against e; at is where t is read, from
// the type CheckStruct was given ("" at its top); nested says e is read
// below the top level of a call, where a request reads no parameter field
// of it (they are the server's there, as readonly fields are).
func (c *structCheck) entity(e *entity.Entity, t reflect.Type, at path, nested bool) {
	nested = nested && c.input
	if c.seen[structPair{e, t, nested}] {
		return
	}
	c.seen[structPair{e, t, nested}] = true
	fields := e.Fields(c.call...)
	if c.input {
		fields = e.RequestFields(c.call...)
	}
	c.object(fields, t, at, !nested)
}

// object checks fields, read from the struct type t; top says they are
// the top level's of a call (a request's parameters are read there).
func (c *structCheck) object(fields []*entity.Field, t reflect.Type, at path, top bool) {
	for _, f := range fields {
		if c.input && !top && f.In != "" {
			continue // a parameter field below the top level: Bind sets none
		}
		steps := []string{f.Name}
		if f.From != nil && !c.input { // a request reads a field by its name
			steps = f.From
		} else if f.Kind == dsl.FieldGroup {
			c.object(f.Fields, t, at, false) // read from the same struct
			continue
		}
		ft, fat, found := c.descend(t, steps, at)
		if !found {
			if !c.reported[fat] {
				c.reported[fat] = true
				c.missing = append(c.missing, fat)
			}
			continue
		}
		if ft == nil {
			continue // in a map, a slice or an interface: known at run time only
		}
		if c.input && f.Kind == dsl.FieldValue && valuerOnly(ft) && !c.reported[fat] {
			c.reported[fat] = true
			c.unfillable = append(c.unfillable, fat)
			continue
		}
		switch f.Kind {
		case dsl.FieldGroup:
			if readsFields(ft) {
				c.object(f.Fields, ft, fat, false)
			}
		case dsl.FieldRef:
			ref := f.Entity()
			if ref == nil {
				continue // not declared: Registry.Verify's to report
			}
			if k := ft.Kind(); (k == reflect.Slice || k == reflect.Array) && ft.Elem().Kind() != reflect.Uint8 {
				ft = derefType(ft.Elem())
				fat += "[]"
			}
			if readsFields(ft) {
				c.entity(ref, ft, fat, !(f.Merge && top))
			}
		}
	}
}

// descend follows steps, names of struct fields (and, after the first,
// indexes of slices and arrays), from the struct type t at path at. It
// returns the type found (nil when a step leads where types say nothing:
// a map, an interface, raw JSON) and its path; found is false when a
// struct has no field for a step, and the path is then that step's.
func (c *structCheck) descend(t reflect.Type, steps []string, at path) (ft reflect.Type, fat path, found bool) {
	ft, fat = t, at
	for i, step := range steps {
		switch k := ft.Kind(); {
		case readsFields(ft):
			sf := jsonfields.Of(ft)[step] // the fields Make reads
			fat = fat.key(step)
			if sf == nil {
				return nil, fat, false
			}
			ft = derefType(sf.Type)
		case i > 0 && (k == reflect.Slice || k == reflect.Array) && ft.Elem().Kind() != reflect.Uint8:
			n, err := strconv.Atoi(step)
			if err != nil || n < 0 || strconv.Itoa(n) != step {
				return nil, fat, true // a key of a list: Make reads nothing there
			}
			fat = fat.index(n)
			ft = derefType(ft.Elem())
		default:
			return nil, fat, true
		}
	}
	return ft, fat, true
}

// readsFields reports whether Make reads a value of type t field by field:
// a struct, but not a time.Time, an Object (read by its keys) or a
// driver.Valuer (read through its Value method).
func readsFields(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t != timeType && t != entityObjectType &&
		!t.Implements(valuerType) && !reflect.PointerTo(t).Implements(valuerType)
}

var (
	timeType            = reflect.TypeFor[time.Time]()
	entityObjectType    = reflect.TypeFor[entity.Object]()
	valuerType          = reflect.TypeFor[driver.Valuer]()
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	scannerType         = reflect.TypeFor[sql.Scanner]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// derefType returns the type a chain of pointers ends at.
func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}
