package entitytest

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// compact returns b without insignificant white space.
func compact(b []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}

// want describes what a field holds: "string matching email | min 3",
// "object (group)", "object or list ($user)".
func want(f *entity.Field) string {
	switch f.Kind {
	case dsl.FieldGroup:
		return "object (group)"
	case dsl.FieldRef:
		if f.List {
			return "list ([]$" + strings.ReplaceAll(f.Ref, "|", "|$") + ")"
		}
		if f.Variants != nil {
			return "object ($" + strings.Join(f.Variants, "|$") + ")"
		}
		return refWant(f.Ref)
	}
	s := f.Type.String()
	if f.Each != nil {
		s = dsl.ListPrefix + f.Each.Type.String()
	}
	if f.Type == rules.Any {
		s = "any value"
	}
	if r := rulesText(f); r != "" {
		s += " matching " + r
	}
	if f.Format != "" {
		s += " written as format " + f.Format
	}
	return s
}

// refWant describes a reference to the entity named.
func refWant(name string) string { return "object or list ($" + name + ")" }

// rulesText prints a field's checks as DSL, without req, default, rename
// and secret: "email | min 3".
func rulesText(f *entity.Field) string {
	if f.Decl == nil {
		return strings.Join(f.Rules, " | ")
	}
	var parts []string
	for _, r := range f.Decl.Rules {
		if !isDirective(r.Name) {
			parts = append(parts, r.String())
		}
	}
	return strings.Join(parts, " | ")
}

// isDirective reports whether a rule name is one the entity interprets
// itself rather than a check.
func isDirective(name string) bool {
	name = strings.ToLower(name)
	for _, r := range rules.Reserved {
		if r == name {
			return true
		}
	}
	return false
}

// maxShown bounds the bytes of a value quoted in a message.
const maxShown = 60

// shown quotes a JSON value for a message: compacted and cut to maxShown
// bytes. A secret value is only named by its JSON type: "a string (secret)".
func shown(v gjson.Result, secret bool) string {
	if secret {
		return typeOf(v) + " (secret)"
	}
	return clip(string(compact([]byte(v.Raw))), maxShown)
}

// clip cuts s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// typeOf names a JSON value's type with its article: "a string", "an
// array", "null".
func typeOf(v gjson.Result) string {
	switch t := jsonType(v); t {
	case "null":
		return t
	case "array", "object":
		return "an " + t
	default:
		return "a " + t
	}
}

// jsonType names a JSON value's type.
func jsonType(v gjson.Result) string {
	switch {
	case v.Type == gjson.String:
		return "string"
	case v.Type == gjson.Number:
		return "number"
	case v.IsBool():
		return "boolean"
	case v.IsArray():
		return "array"
	case v.IsObject():
		return "object"
	}
	return "null"
}
