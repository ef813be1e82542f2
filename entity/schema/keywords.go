package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// mergeKeywords adds kw to s: a bound that s has too is kept at the
// tighter of the two (min 1 and min 3 are minimum 3); when s has another
// of kw's keywords, kw's others go to s's "allOf", so that every rule
// holds.
func mergeKeywords(s, kw map[string]any) {
	rest := make(map[string]any, len(kw))
	for k, v := range kw {
		prev, clash := s[k]
		tighter, isBound := boundKeywords[k]
		switch {
		case !clash:
			rest[k] = v
		case isBound && isNumber(prev) && isNumber(v):
			if less(v, prev) == tighter {
				s[k] = v
			}
		default:
			rest[k] = v
		}
	}
	for k := range rest {
		if _, clash := s[k]; clash {
			all, _ := s["allOf"].([]any)
			s["allOf"] = append(all, rest)
			return
		}
	}
	for k, v := range rest {
		s[k] = v
	}
}

// boundKeywords are the keywords that bound a number, a length or a
// count, each mapped to what less(new, old) is when the new bound is the
// tighter: false for lower bounds, true for upper ones.
var boundKeywords = map[string]bool{
	"minimum": false, "exclusiveMinimum": false, "minLength": false, "minItems": false, "minProperties": false,
	"maximum": true, "exclusiveMaximum": true, "maxLength": true, "maxItems": true, "maxProperties": true,
}

func isNumber(v any) bool {
	switch v.(type) {
	case int64, float64:
		return true
	}
	return false
}

// less reports whether the number a is less than b (int64 or float64),
// exactly when both are int64.
func less(a, b any) bool {
	ai, aInt := a.(int64)
	bi, bInt := b.(int64)
	if aInt && bInt {
		return ai < bi
	}
	return boundFloat(a) < boundFloat(b)
}

func boundFloat(v any) float64 {
	if i, ok := v.(int64); ok {
		return float64(i)
	}
	return v.(float64)
}

// withNull returns s allowing null too: "null" added to its type when the
// type is all that refuses null (and once: a type that has it already is
// left as it is), else s and null as alternatives.
func withNull(s map[string]any) map[string]any {
	if alts, ok := s["anyOf"].([]any); ok && len(s) == 1 {
		for _, a := range alts {
			if m, ok := a.(map[string]any); ok && len(m) == 1 && m["type"] == "null" {
				return s
			}
		}
		return map[string]any{"anyOf": append(alts, map[string]any{"type": "null"})}
	}
	for _, k := range []string{"allOf", "oneOf", "enum", "const", "not", "$ref", "anyOf", "if"} {
		if _, ok := s[k]; ok {
			return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
		}
	}
	switch t := s["type"].(type) {
	case string:
		if t != "null" {
			s["type"] = []any{t, "null"}
		}
	case []any:
		for _, x := range t {
			if x == "null" {
				return s
			}
		}
		s["type"] = append(t, "null")
	}
	return s
}

// defsRef is the URI reference of an entity's schema among a JSON
// Schema's $defs.
func defsRef(name string) string { return "#/$defs/" + pointerFragment(name) }

// pointerFragment returns name as one token of a JSON Pointer (RFC 6901: ~
// as ~0, / as ~1) written in a URI fragment (RFC 3986: what a fragment may
// not hold percent-encoded).
func pointerFragment(name string) string {
	name = strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
	return escapeBytes(name, func(c byte) bool {
		return isAlnum(c) || strings.IndexByte("-._~!$&'()*+,;=:@?", c) >= 0
	}, '%', "0123456789ABCDEF")
}

// escapeBytes returns s with each byte that keep refuses written as esc
// and its two hexadecimal digits (of digits, upper or lower case).
func escapeBytes(s string, keep func(byte) bool, esc byte, digits string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; keep(c) {
			b.WriteByte(c)
		} else {
			b.WriteByte(esc)
			b.WriteByte(digits[c>>4])
			b.WriteByte(digits[c&15])
		}
	}
	return b.String()
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// marshal writes v as indented JSON with its keys sorted, and without
// encoding/json's HTML escapes (patterns hold < and &): the same bytes for
// the same value, every time.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// compact writes v as JSON without white space, keys sorted, HTML as it is.
func compact(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
