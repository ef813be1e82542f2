package engine

import (
	"encoding/json"
	"math"
	"reflect"
	"time"

	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/internal/textconv"
	"github.com/expose-go/expose/rules"
)

// Strict input (see Strict): a present value must convert to its field's
// type without loss. strictly judges a conversion that convert made, and
// the run reports a failure as a FieldError of code "type".

// strictly judges v, what convert made of the present input in for a
// field of kind k: it returns the value to use (an integer read exactly
// from a number's text, never through float64) and true, or, when the
// conversion lost something or failed, what the input arrived as ("string",
// "number with a fraction", "number out of range"… see arrivedAs) and
// false.
func strictly(k rules.Kind, in raw, v rules.Value) (rules.Value, string, bool) {
	switch k {
	case rules.Any:
		return v, "", true
	case rules.String:
		if got := arrivedAs(in); got != "string" {
			return v, got, false
		}
	case rules.Int:
		return exactInt(in, v)
	}
	if v.Kind == rules.Null {
		got := arrivedAs(in)
		switch {
		case got == "number" && k == rules.Float:
			got = "number out of range" // 1e400, NaN
		case got == "date" && k == rules.Time:
			got = "date out of range" // year 10000
		case got == "object" && k == rules.Object:
			got = "value that is no JSON object" // a struct, a map of other keys
		}
		return v, got, false
	}
	return v, "", true
}

// exactInt reads a present input for an integer field without loss: an
// integral number, read exactly from its text (12, 12.0, 1e3,
// 9007199254740993), or text ParseInt reads with no fraction but zeros
// ("27", "007", "12.0"; never "12.5", "1e3" or "+27"), but a request
// parameter's text, which is decimal digits with an optional minus sign
// ("27", "007", "-3"; never "12.0"); v is what the lenient conversion made
// of it.
func exactInt(in raw, v rules.Value) (rules.Value, string, bool) {
	text, isText := "", false
	switch {
	case in.kind == rawStr:
		text, isText = in.s, true
	case in.kind == rawNum:
		text = in.s
	case in.kind == rawFloat:
		return fractionOf(v, in.f)
	case in.kind == rawAny:
		switch x := in.a.(type) {
		case string:
			text, isText = x, true
		case []byte:
			text, isText = bytesString(x), true
		case json.Number:
			text = string(x)
			if !jsonwire.IsNumber(text) {
				return v, "value", false // a json.Number that is no number
			}
		case float64:
			return fractionOf(v, x)
		case float32:
			return fractionOf(v, float64(x))
		default:
			if p, ok := pointee(x); ok && !p.isNull() {
				return exactInt(p, v) // &"12.5" is no integer either
			}
			if v.Kind == rules.Null {
				return v, arrivedAs(in), false
			}
			return v, "", true // Go integers
		}
	default:
		if v.Kind == rules.Null {
			return v, arrivedAs(in), false
		}
		return v, "", true
	}
	if isText && v.Kind == rules.Null { // ParseInt's syntax refused it ("1e3", "+27", "abc")
		if jsonwire.IsInt(text) {
			return v, "string out of range", false
		}
		return v, "string", false
	}
	if n, ok := textconv.ExactInt(text); ok {
		if in.param && !isDecimal(text) { // "12.0" in a URL is no integer a client means
			return v, "string with a fraction", false
		}
		return rules.Value{Kind: rules.Int, Int: n}, "", true
	}
	if _, fits := textconv.TruncInt(text); !fits {
		if isText {
			return v, "string out of range", false
		}
		return v, "number out of range", false
	}
	if isText {
		return v, "string with a fraction", false
	}
	return v, "number with a fraction", false
}

// isDecimal reports whether s is decimal digits with an optional minus
// sign: the text of an integer parameter.
func isDecimal(s string) bool {
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// fractionOf judges a Go float read for an integer field: integral, in
// range (v is what the lenient conversion made of it), or neither.
func fractionOf(v rules.Value, f float64) (rules.Value, string, bool) {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0) || v.Kind == rules.Null:
		return v, "number out of range", false
	case f != math.Trunc(f):
		return v, "number with a fraction", false
	}
	return v, "", true
}

// arrivedAs names what an input arrived as, in JSON's terms, for a "type"
// error: "string", "number", "boolean", "array", "object", or "value" for
// anything else. It names the kind, never the value.
func arrivedAs(in raw) string {
	switch in.kind {
	case rawStr:
		return "string"
	case rawNum, rawInt, rawFloat:
		return "number"
	case rawJSON:
		if in.s[0] == '[' {
			return "array"
		}
		return "object"
	case rawAny:
	default:
		return "value"
	}
	switch x := in.a.(type) {
	case json.RawMessage:
		return jsonKindOf(x)
	case string, []byte:
		return "string"
	case bool:
		return "boolean"
	case json.Number, float64, float32, int, int64, int32, int16, int8, uint, uint64, uint32, uint16, uint8:
		return "number"
	case time.Time:
		return "date"
	case holder, *Made, Sub, map[string]any, map[string]string:
		return "object"
	case []any, []string, Subs:
		return "array"
	default:
		rv := reflect.ValueOf(x)
		switch rv.Kind() {
		case reflect.Slice, reflect.Array:
			return "array"
		case reflect.Map, reflect.Struct:
			return "object"
		case reflect.Pointer:
			if p, ok := pointee(x); ok {
				return arrivedAs(p)
			}
			return "object"
		case reflect.String:
			return "string"
		case reflect.Bool:
			return "boolean"
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			return "number"
		}
	}
	return "value"
}

// typeWant names a declared kind for a "type" error's message.
var typeWant = [...]string{
	rules.String: "a string",
	rules.Int:    "an integer",
	rules.Float:  "a number",
	rules.Bool:   "a boolean",
	rules.Time:   "a date",
	rules.List:   "a list",
	rules.Object: "an object",
}

// typeMessage is a "type" error's English message: "must be an integer,
// got a string".
func typeMessage(want rules.Kind, got string) string {
	w := "a value"
	if int(want) < len(typeWant) && typeWant[want] != "" {
		w = typeWant[want]
	}
	if got == "null" {
		return "must be " + w + ", got null"
	}
	return "must be " + w + ", got " + article(got) + " " + got
}

// jsonKindOf names the kind of a JSON text's value ("value" for text that
// is no JSON).
func jsonKindOf(b []byte) string {
	t := jsonwire.TrimSpace(bytesString(b))
	if t == "" || !json.Valid(b) {
		return "value"
	}
	switch t[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}
