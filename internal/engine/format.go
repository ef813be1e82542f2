package engine

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/internal/suggest"
	"github.com/expose-go/expose/rules"
)

// Formats: `format name [args]` says how a value field is written, after
// its conversion, transforms and checks (which judge the value, not its
// text). The built-in formats write dates (rfc1123, unix, unixms, date, or
// a Go layout in quotes) and floats (fixed n); a registry adds its own with
// RegisterFormat. A format is compiled once, at Expose.

// FormatFunc formats a value for RegisterFormat: it returns the Go value
// the field writes, which the library encodes itself: a string, a number
// (any Go integer or float type, finite), a bool or nil. Anything else,
// or an error, is the field's error (code "format"), so that a formatter
// can never write invalid JSON. args are the format's arguments as written
// after its name. It is called concurrently, on the request path.
type FormatFunc func(v rules.Value, args []string) (any, error)

// formatDef is one format a declaration may name.
type formatDef struct {
	types rules.KindSet
	// A built-in compiles its arguments into the format's own fields; a
	// registered one (user) is called with them.
	compile func(f *format, args []string) error
	user    FormatFunc
}

// format is a compiled use of a format.
type format struct {
	text     string     // as written: "unix", "fixed 2", "'2006-01-02'"
	writes   rules.Kind // the JSON a built-in writes: String, Int or Float; Any for a user's
	layout   string     // a date layout
	unit     time.Duration
	decimals int
	user     FormatFunc
	args     []string
}

// builtinFormats are the built-in formats, by name.
var builtinFormats = map[string]*formatDef{
	"rfc1123": {types: rules.Kinds(rules.Time), compile: layoutFormat("Mon, 02 Jan 2006 15:04:05 GMT")},
	"date":    {types: rules.Kinds(rules.Time), compile: layoutFormat("2006-01-02")},
	"unix":    {types: rules.Kinds(rules.Time), compile: unixFormat(time.Second)},
	"unixms":  {types: rules.Kinds(rules.Time), compile: unixFormat(time.Millisecond)},
	"fixed":   {types: rules.Kinds(rules.Float), compile: fixedFormat},
}

// builtinFormatNames lists the built-in formats for a message, in the
// order of dsl's table of formats: the map's keys, with fixed's argument.
func builtinFormatNames() string {
	names := make([]string, 0, len(builtinFormats))
	for name := range builtinFormats {
		if name == "fixed" {
			name = "fixed n"
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// layoutDef is the format of a Go layout written in quotes.
var layoutDef = &formatDef{types: rules.Kinds(rules.Time), compile: func(f *format, args []string) error {
	layout := args[0]
	if sampleTime := time.Date(2024, 1, 15, 12, 30, 45, 0, time.UTC); sampleTime.Format(layout) == layout {
		return fmt.Errorf("layout %q holds no element of a date or time (2006, 01, 02, 15, 04, 05…)", layout)
	}
	if len(args) > 1 {
		return fmt.Errorf("a layout takes no arguments, got %d", len(args)-1)
	}
	f.writes, f.layout = rules.String, layout
	return nil
}}

func layoutFormat(layout string) func(*format, []string) error {
	return func(f *format, args []string) error {
		if len(args) > 0 {
			return fmt.Errorf("takes no arguments, got %d", len(args))
		}
		f.writes, f.layout = rules.String, layout
		return nil
	}
}

func unixFormat(unit time.Duration) func(*format, []string) error {
	return func(f *format, args []string) error {
		if len(args) > 0 {
			return fmt.Errorf("takes no arguments, got %d", len(args))
		}
		f.writes, f.unit = rules.Int, unit
		return nil
	}
}

// fixedFormat compiles `fixed n`: n decimals, 0 to 17.
func fixedFormat(f *format, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("takes 1 argument, the number of decimals, got %d", len(args))
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 0 || n > 17 || strings.HasPrefix(args[0], "+") {
		return fmt.Errorf("the number of decimals %q is not a whole number from 0 to 17", args[0])
	}
	f.writes, f.decimals = rules.Float, n
	return nil
}

// format compiles `format name [args]` on a value field: the name is a
// format's, or, quoted and no format's name, a Go date layout.
func (c *compiler) format(f *dsl.Field, n *node, r *dsl.Rule) {
	if f.Kind != dsl.FieldValue {
		return // a group or a reference reports it as a rule it does not take
	}
	if f.List && n.elemOf == nil {
		c.errorf(f, r.Pos, "format applies to the elements of a typed list: write each '%s'", r)
		return
	}
	if len(r.Args) == 0 {
		c.errorf(f, r.Pos, "rule %q takes the name of a format: %s, a layout in quotes ('2006-01-02 15:04'), or a registered one", r.Name, builtinFormatNames())
		return
	}
	a := r.Args[0]
	def := c.env.lookupFormat(a.Text)
	args := make([]string, 0, len(r.Args))
	for _, x := range r.Args[1:] {
		args = append(args, x.Text)
	}
	switch {
	case def == nil && a.Quoted:
		def, args = layoutDef, append([]string{a.Text}, args...)
	case def == nil:
		if hint := suggest.DidYouMean(a.Text, c.env.formatNames(), strconv.Quote); hint != "" {
			c.errorf(f, a.Pos, "unknown format %q%s", a.Text, hint)
			return
		}
		c.errorf(f, a.Pos, "unknown format %q (want %s, a layout in quotes, or a registered one)", a.Text, builtinFormatNames())
		return
	}
	typ := f.Type
	if n.elemOf != nil {
		typ = n.typ
	}
	if !def.types.Has(typ) {
		c.errorf(f, a.Pos, "format %q cannot apply to %s %s field", a.Text, article(typ.String()), typ)
		return
	}
	text := make([]string, len(r.Args))
	for i, x := range r.Args {
		text[i] = x.String()
	}
	fm := &format{text: strings.Join(text, " "), writes: rules.Any, user: def.user, args: args}
	if def.compile != nil {
		if err := def.compile(fm, args); err != nil {
			c.errorf(f, a.Pos, "format %s: %v", a.Text, err)
			return
		}
	}
	n.format = fm
}

// unformat reads text, what a built-in format wrote, back into the value
// it formatted (a registered format cannot be read back: ok is false), so
// that Bind gives a struct what Make reads.
func (f *format) unformat(text []byte) (v rules.Value, ok bool) {
	switch {
	case f.user != nil:
		return v, false
	case f.layout != "":
		if len(text) < 2 || text[0] != '"' {
			return v, false
		}
		t, err := time.Parse(f.layout, stringValue(text))
		return rules.TimeValue(t.UTC()), err == nil
	case f.unit != 0:
		n, err := strconv.ParseInt(bytesString(text), 10, 64)
		if err != nil {
			return v, false
		}
		if f.unit == time.Second {
			return rules.TimeValue(time.Unix(n, 0).UTC()), true
		}
		return rules.TimeValue(time.UnixMilli(n).UTC()), true
	}
	return v, false // fixed: a number, read as it is
}

// unformatRaw reads a request's value in, as the format writes it (the
// wire form), into the value it formats; ok is false for a value of
// another form, which the field's conversion then reads.
func (f *format) unformatRaw(in raw) (v rules.Value, ok bool) {
	switch {
	case f.user != nil || f.layout == "" && f.unit == 0:
		return v, false
	case f.layout != "":
		s, isText := textOf(in)
		if !isText {
			return v, false
		}
		t, err := time.Parse(f.layout, s)
		return rules.TimeValue(t.UTC()), err == nil
	}
	var text string
	switch in.kind {
	case rawNum: // a JSON number, as the format writes it (text is read as any date)
		text = in.s
	default:
		return v, false
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return v, false
	}
	t := time.UnixMilli(n).UTC()
	if f.unit == time.Second {
		t = time.Unix(n, 0).UTC()
	}
	if y := t.Year(); y < 0 || y > 9999 { // as a date's conversion refuses it
		return v, false
	}
	return rules.TimeValue(t), true
}

// errFormatValue is a registered format's result that is no JSON scalar.
var errFormatValue = errors.New("the format gave a value that is no string, number, bool or null")

// append writes v formatted.
func (f *format) append(dst []byte, v rules.Value) ([]byte, error) {
	switch {
	case f.user != nil:
		return f.appendUser(dst, v)
	case f.layout != "":
		// Formatted aside and written as a JSON string: a layout may hold
		// quotes, backslashes or control characters.
		var buf [64]byte
		return jsonwire.AppendString(dst, bytesString(v.Time.UTC().AppendFormat(buf[:0], f.layout))), nil
	case f.unit == time.Second:
		return strconv.AppendInt(dst, v.Time.Unix(), 10), nil
	case f.unit == time.Millisecond:
		return strconv.AppendInt(dst, v.Time.UnixMilli(), 10), nil
	}
	if math.IsNaN(v.Float) || math.IsInf(v.Float, 0) {
		return dst, errUnsupportedValue
	}
	return strconv.AppendFloat(dst, v.Float, 'f', f.decimals, 64), nil
}

// appendUser writes what a registered format returns: a JSON scalar only.
func (f *format) appendUser(dst []byte, v rules.Value) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = dst, newRulePanic("format", p)
		}
	}()
	x, err := f.user(v, f.args)
	if err != nil {
		return dst, err
	}
	switch x.(type) {
	case nil, string, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return appendAny(dst, x, 1, math.MaxInt)
	}
	return dst, errFormatValue
}
