package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/expose-go/expose/internal/jsonwire"
	"github.com/expose-go/expose/rules"
)

// This file reads JSON text back into values: the other way of encode.go.

// decodeValue reads text, the JSON of one value (white space around it
// allowed), as a field of declared kind k holds it. It fails when the JSON
// type is not the one k writes; why then says more when it can (": not an
// integer"). A list, an object or a none value is decoded as encoding/json
// decodes it into an any (Value.Any; numbers as float64), with Len its
// count of elements or keys; a none number is also an Int when its text is
// an integer. Strings view text when they hold no escape: clone what is
// kept.
func decodeValue(k rules.Kind, text []byte) (v rules.Value, why string, ok bool) {
	text = bytes.TrimSpace(text)
	if len(text) == 0 {
		return v, "", false
	}
	switch k {
	case rules.String:
		if text[0] == '"' {
			s := jsonwire.Unquote(bytesString(text))
			return rules.Value{Kind: rules.String, Str: s}, "", true
		}
	case rules.Int:
		if jsonwire.IsNumberStart(text[0]) {
			n, err := strconv.ParseInt(bytesString(text), 10, 64)
			switch {
			case err == nil:
				return rules.Value{Kind: rules.Int, Int: n}, "", true
			case errors.Is(err, strconv.ErrRange):
				return v, ": out of the int64 range", false
			}
			return v, ": not an integer", false
		}
	case rules.Float:
		if jsonwire.IsNumberStart(text[0]) {
			if f, err := strconv.ParseFloat(bytesString(text), 64); err == nil {
				return rules.Value{Kind: rules.Float, Float: f}, "", true
			}
			return v, ": out of the float64 range", false
		}
	case rules.Bool:
		switch string(text) {
		case "true":
			return rules.Value{Kind: rules.Bool, Bool: true}, "", true
		case "false":
			return rules.Value{Kind: rules.Bool}, "", true
		}
	case rules.Time:
		if text[0] == '"' {
			t, err := time.Parse(time.RFC3339Nano, jsonwire.Unquote(bytesString(text)))
			if err != nil {
				return v, ": not an RFC 3339 date", false
			}
			return rules.Value{Kind: rules.Time, Time: t.UTC()}, "", true
		}
	case rules.List:
		if text[0] == '[' {
			return decodeAnyValue(text), "", true
		}
	case rules.Object:
		if text[0] == '{' {
			return decodeAnyValue(text), "", true
		}
	case rules.Any:
		return decodeAnyValue(text), "", true
	}
	return v, "", false
}

// decodeAnyValue reads JSON text as its own kind, as a none field holds it.
func decodeAnyValue(text []byte) rules.Value {
	x := decodeAny(text)
	switch x := x.(type) {
	case nil:
		return rules.Value{}
	case string:
		return rules.Value{Kind: rules.String, Str: x, Any: x}
	case float64:
		if n, err := strconv.ParseInt(bytesString(text), 10, 64); err == nil {
			return rules.Value{Kind: rules.Int, Int: n, Any: x}
		}
		return rules.Value{Kind: rules.Float, Float: x, Any: x}
	case bool:
		return rules.Value{Kind: rules.Bool, Bool: x, Any: x}
	case []any:
		return rules.Value{Kind: rules.List, Len: len(x), Any: x}
	case map[string]any:
		return rules.Value{Kind: rules.Object, Len: len(x), Any: x}
	}
	return rules.Value{Kind: rules.Any, Any: x} // a json.RawMessage: 1e400
}

// decodeAny decodes JSON text as encoding/json decodes it into an any. Text
// encoding/json refuses to decode (a number beyond float64, such as 1e400,
// passed through a none field) is returned as a json.RawMessage copy.
func decodeAny(v []byte) any {
	var x any
	if json.Unmarshal(v, &x) != nil {
		return json.RawMessage(bytes.Clone(v))
	}
	return x
}
