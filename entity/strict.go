package entity

import (
	"encoding/json"
	"math"
	"reflect"
	"time"

	"github.com/expose-go/expose/rules"
)

// Strict input (see Strict): a present value must convert to its field's
// type without loss. strictly judges a conversion that convert made, and
// the run reports a failure as a FieldError of code "type".

// strictly reports whether v, what convert made of the present input in for
// a field of kind k, lost nothing; when it did, got says what the input
// arrived as ("string", "number", "fraction"…: see arrivedAs).
func strictly(k rules.Kind, in raw, v rules.Value) (got string, ok bool) {
	switch k {
	case rules.Any:
		return "", true
	case rules.String:
		if got = arrivedAs(in); got != "string" {
			return got, false
		}
	case rules.Int:
		if v.Kind == rules.Null {
			if got = arrivedAs(in); got == "number" {
				got = "number out of range" // a number, but none int64 holds
			}
			return got, false
		}
		return exactInt(in)
	}
	if v.Kind == rules.Null {
		return arrivedAs(in), false
	}
	return "", true
}

// exactInt reports whether an input that converted to an integer is one
// exactly: an integral number (12, 12.0, 1e3), or text ParseInt reads with
// no fraction but zeros ("27", "007", "12.0"; never "12.5").
func exactInt(in raw) (got string, ok bool) {
	var text string
	switch {
	case in.kind == rawStr || in.kind == rawNum:
		text = in.s
	case in.kind == rawFloat:
		return fractionOf("number", in.f)
	case in.kind == rawAny:
		switch x := in.a.(type) {
		case string:
			text = x
		case []byte:
			text = bytesString(x)
		case json.Number:
			text = string(x)
		case float64:
			return fractionOf("number", x)
		case float32:
			return fractionOf("number", float64(x))
		default:
			return "", true // Go integers
		}
	default:
		return "", true
	}
	if _, ok := rules.ExactInt(text); !ok {
		return arrivedAs(in) + " with a fraction", false
	}
	return "", true
}

// fractionOf reports whether f is integral.
func fractionOf(kind string, f float64) (string, bool) {
	if f != math.Trunc(f) {
		return kind + " with a fraction", false
	}
	return "", true
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
	case string, []byte:
		return "string"
	case bool:
		return "boolean"
	case json.Number, float64, float32, int, int64, int32, int16, int8, uint, uint64, uint32, uint16, uint8:
		return "number"
	case time.Time:
		return "date"
	case *Object, map[string]any, map[string]string:
		return "object"
	case []any, []string:
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
	return "must be " + w + ", got " + article(got) + " " + got
}
