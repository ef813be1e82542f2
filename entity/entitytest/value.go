package entitytest

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// valueOf reads a JSON value as a field of declared kind k holds it: the
// rules.Value its checks judge. When the JSON type is not the declared one,
// ok is false and why may say more (": not an integer"). A list or object
// is decoded for Value.Any only when decode is true (when there are rules to
// look at it).
func valueOf(k rules.Kind, v gjson.Result, decode bool) (rv rules.Value, why string, ok bool) {
	switch k {
	case rules.String:
		if v.Type == gjson.String {
			return rules.Value{Kind: rules.String, Str: v.Str, Any: v.Str}, "", true
		}
	case rules.Int:
		if v.Type == gjson.Number {
			n, err := strconv.ParseInt(v.Raw, 10, 64)
			if err == nil {
				return rules.Value{Kind: rules.Int, Int: n, Any: n}, "", true
			}
			if errors.Is(err, strconv.ErrRange) {
				return rv, ": out of the int64 range", false
			}
			return rv, ": not an integer", false
		}
	case rules.Float:
		if v.Type == gjson.Number {
			return rules.Value{Kind: rules.Float, Float: v.Num, Any: v.Num}, "", true
		}
	case rules.Bool:
		if v.IsBool() {
			return rules.Value{Kind: rules.Bool, Bool: v.Bool(), Any: v.Bool()}, "", true
		}
	case rules.Time:
		if v.Type == gjson.String {
			t, err := time.Parse(time.RFC3339, v.Str)
			if err != nil {
				return rv, ": not an RFC 3339 date", false
			}
			return rules.Value{Kind: rules.Time, Time: t, Any: t}, "", true
		}
	case rules.List:
		if v.IsArray() {
			return anyValue(v, decode), "", true
		}
	case rules.Object:
		if v.IsObject() {
			return anyValue(v, decode), "", true
		}
	case rules.Any:
		return anyValue(v, decode), "", true
	}
	return rv, "", false
}

// anyValue reads a JSON value as its own kind, as a field declared `none`
// holds it. Lists and objects are measured for Value.Len and, when decode is
// true, decoded for Value.Any (custom rules may look inside).
func anyValue(v gjson.Result, decode bool) rules.Value {
	switch v.Type {
	case gjson.String:
		return rules.Value{Kind: rules.String, Str: v.Str, Any: v.Str}
	case gjson.Number:
		if n, err := strconv.ParseInt(v.Raw, 10, 64); err == nil {
			return rules.Value{Kind: rules.Int, Int: n, Any: n}
		}
		return rules.Value{Kind: rules.Float, Float: v.Num, Any: v.Num}
	case gjson.True, gjson.False:
		return rules.Value{Kind: rules.Bool, Bool: v.Bool(), Any: v.Bool()}
	case gjson.JSON:
		n := 0
		v.ForEach(func(_, _ gjson.Result) bool { n++; return true })
		var x any
		if decode {
			x = v.Value()
		}
		if v.IsArray() {
			return rules.Value{Kind: rules.List, Len: n, Any: x}
		}
		return rules.Value{Kind: rules.Object, Len: n, Any: x}
	}
	return rules.Value{}
}

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
		return refWant(f.Ref)
	}
	s := f.Type.String()
	if f.Type == rules.Any {
		s = "any value"
	}
	if r := rulesText(f); r != "" {
		s += " matching " + r
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
// bytes. A secret value is only named by its JSON type.
func shown(v gjson.Result, secret bool) string {
	if secret {
		return "a " + jsonType(v) + " (secret)"
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
