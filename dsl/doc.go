// Package dsl parses expose's entity declarations: flat lists of string
// triples (field name, type, rules) into a syntax tree of fields, groups and
// references. It knows the syntax only; which rules exist and what they mean
// is decided by package rules, and package entity compiles the tree.
//
// A declaration:
//
//	e, err := dsl.Parse("user",
//		"id", "number", "num | rename 'number'",
//		"name", "string", "req",
//		"details", "{", "",
//		"age", "number", "num",
//		"mail", "string", "email",
//		"details", "}", "",
//		"code", "string", "default 'unknown'",
//	)
//
// Types are case-insensitive and have aliases: none/no, string/text,
// number/num/int/integer/long, float/double, bool/boolean/flag,
// date/datetime/timestamp, list/array, object/map/json. The type "{" opens a
// group and "}" closes the innermost one; groups nest at most MaxNesting
// (10000) deep; "$name" refers to another entity. A typed list is "[]"
// and a scalar type ("[]string", "[]int", "[]date": Field.List and
// Field.Elem) or a reference ("[]$user", always a list). The types are package
// rules' kinds (rules.Kind, rules.LookupKind), where their names and
// aliases are defined; dsl imports rules for that vocabulary only.
//
// A rules string is a list of rules separated by "|"; a rule is a name
// followed by arguments separated by white space. An argument that holds
// white space or "|" is quoted with ' or "; inside quotes a doubled quote
// stands for one (there are no backslash escapes, so regular expressions are
// written as they are).
//
// Errors are reported all at once as an ErrorList of *Error sorted by
// position, each naming the entity, the field, the triple and, inside a rules
// string, the byte with a caret under it. Each triple is read on its own, so
// an error in one hides none in another; ParsePartial also returns the tree
// read, for a compiler that adds its own errors to the list.
package dsl
