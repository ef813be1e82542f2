package engine

import (
	"github.com/expose-go/expose/rules"
)

// JSON types (package entity's JSONTypes): in a registry of JSONTypes, a
// strict request's JSON body gives a number or float field's value as a
// JSON number, a bool field's as a JSON boolean and a date field's as RFC
// 3339 date-time text (what a response writes); a string for a number, a
// number for a bool or a date, other text for a date are "type" errors,
// where a registry without it converts them ("10", 1, "2026/12/1", Unix
// milliseconds). A Lax call converts as a registry without it does.
//
// It is compiled into the request views: jsonTypes marks the body's value
// nodes and their typed lists' elements (jsonTyped), and resolve judges a
// marked node's input with jsonTyped before strictly; a number node's fast
// path hands a marked node's text to resolve (intText). A registry without
// it pays nothing. The parameters (path, query, header, cookie), a form's
// text, a field with a format, the server's values (a patch's readonly
// ones, taken as stored) and every response are read as before.

// jsonTypes marks a value node of a request view, and its typed list's
// element node, as read by their JSON types when their kind has one
// other than text (number, float, bool, date) and no format says what
// they read.
func jsonTypes(n *node) {
	if n.kind != nodeValue {
		return
	}
	n.jsonTyped = hasJSONType(n)
	if n.each != nil && hasJSONType(n.each) {
		each := *n.each // the base's, which the response view shares
		each.jsonTyped = true
		n.each = &each
	}
}

// hasJSONType reports whether a value node's kind is read as a JSON type
// of its own under JSONTypes.
func hasJSONType(n *node) bool {
	switch n.typ {
	case rules.Int, rules.Float, rules.Bool, rules.Time:
		return n.format == nil
	}
	return false
}

// jsonTyped judges the present input in of a jsonTyped node of kind k,
// after convert made v of it: what the input arrived as and false when a
// JSON body's value is not of the kind's JSON type. A JSON string is told
// by raw.view (a form's text and the parameters' are no views: they pass,
// to be read as text).
func jsonTyped(k rules.Kind, in raw, v rules.Value) (string, bool) {
	jsonText := in.kind == rawStr && in.view
	switch k {
	case rules.Int, rules.Float:
		if jsonText {
			return "string", false
		}
	case rules.Bool:
		switch {
		case jsonText:
			return "string", false
		case in.kind == rawNum:
			return "number", false
		}
	case rules.Time:
		switch {
		case in.kind == rawNum:
			return "number", false
		case jsonText && v.Kind != rules.Null && !isDateTime(in.s):
			return "string", false // "2026/12/1", "2026-12-01": no RFC 3339 date-time
		}
	}
	return "", true
}

// isDateTime reports whether s, text textconv.ParseTime read, is RFC
// 3339's date-time: a date, "T" (or "t"), a time and an offset, not a
// date alone nor a date and a time apart by a space.
func isDateTime(s string) bool { return len(s) > len("2006-01-02") && s[10] != ' ' }
