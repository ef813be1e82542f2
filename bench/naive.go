package bench

import (
	stdjson "encoding/json"
	"math"
	"strconv"

	"github.com/bytedance/sonic"
	goccy "github.com/goccy/go-json"
	segjson "github.com/segmentio/encoding/json"
)

// This file is the pipeline a Go developer writes today: build the output
// as a map[string]any by hand, checking fields by hand, then marshal it.
// The checks and conversions are those of handwritten.go (toInt, isEmail),
// so that only the way the output is built and written differs; a typical
// handler would do no better (regexp for the email, strconv.ParseFloat for
// the numbers).
//
// Maps marshal with their keys sorted (encoding/json, goccy, segmentio) or
// in random order (sonic's default configuration), not in declaration
// order, so these bytes are not the library's: the tests decode both sides
// with encoding/json (UseNumber) and compare the decoded values with
// reflect.DeepEqual.

// NaiveMap builds the `users` output as nested maps. On error, the map is
// nil and the error an Errors listing every failing field.
func NaiveMap(in map[string]any) (map[string]any, error) {
	var errs Errors
	out := map[string]any{
		"offset": intOrZero(in["offset"]),
		"limit":  intOrZero(in["limit"]),
	}
	switch l := in["list"].(type) {
	case []any:
		list := make([]any, 0, len(l))
		for i, e := range l {
			if u, ok := e.(map[string]any); ok {
				list = append(list, naiveUser(u, i, len(list), &errs))
			}
		}
		out["list"] = list
	case []map[string]any:
		list := make([]any, 0, len(l))
		for i, u := range l {
			list = append(list, naiveUser(u, i, i, &errs))
		}
		out["list"] = list
	case map[string]any:
		out["list"] = naiveUser(l, -1, -1, &errs)
	default:
		out["list"] = nil
	}
	if errs != nil {
		return nil, errs
	}
	return out, nil
}

func intOrZero(v any) int64 {
	n, ok := toInt(v)
	if !ok {
		return 0
	}
	return n
}

func naiveUser(u map[string]any, idx, out int, errs *Errors) map[string]any {
	var id, age any
	if n, ok := toInt(u["id"]); ok {
		id = n
	}
	name, ok := textValue(u["name"])
	if !ok {
		errs.add(idx, out, "name", "", "name", "req", msgReq)
	}
	if n, ok := toInt(u["age"]); ok {
		age = n
	}
	mail, ok := textValue(u["mail"])
	if ok && !isEmail(mail.(string)) {
		errs.add(idx, out, "mail", "details", "mail", "email", msgEmail)
	}
	code, ok := textValue(u["code"])
	if !ok {
		code = "unknown"
	}
	return map[string]any{
		"number":  id,
		"name":    name,
		"details": map[string]any{"age": age, "mail": mail},
		"code":    code,
	}
}

// textValue converts v for a string field: a string, or nil when v does
// not convert.
func textValue(v any) (any, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case int:
		return strconv.Itoa(v), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
		return string(appendFloat(nil, v)), true
	case bool:
		return strconv.FormatBool(v), true
	}
	return nil, false
}

// A Marshal function of one of the encoders compared.
type marshalFunc func(any) ([]byte, error)

// Encoders are the encoders the naive pipeline is timed with, each in its
// default configuration: encoding/json, goccy/go-json, segmentio's
// encoding/json (all three sort map keys and escape HTML) and sonic's
// ConfigDefault (its fastest: no key sorting, no HTML escaping).
var Encoders = []struct {
	Name    string
	Marshal marshalFunc
}{
	{"naive-std", stdjson.Marshal},
	{"naive-goccy", goccy.Marshal},
	{"naive-sonic", sonic.Marshal},
	{"naive-segmentio", segjson.Marshal},
}

// Naive builds the map and marshals it with marshal.
func Naive(marshal marshalFunc, in map[string]any) ([]byte, error) {
	m, err := NaiveMap(in)
	if err != nil {
		return nil, err
	}
	return marshal(m)
}
