// Package dsl parses expose's entity declarations, flat lists of string
// triples (field name, type, rules) or .entity files (ParseFile), into a
// syntax tree of fields, groups and references, and prints trees back in
// either form. It knows the syntax only; which rules exist and what they mean
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
// # The .entity file format
//
// The same declarations can be written in files, which reviewers read and
// tools check (ParseFile reads them, File.Print prints them):
//
//	# users.entity
//	user {
//	  id       number  num | rename 'number'
//	  name     string  req
//	  details  {
//	    age   number  num
//	    mail  string  email
//	  }
//	  code     string  default 'unknown'
//	}
//
//	users POST {
//	  offset  number  default 0
//	  limit   number  default 0
//	  list    $user
//	}
//
// The grammar, a line at a time (white space is spaces and tabs, and any
// other white space rune):
//
//	file    = { entity | comment | NL } .
//	entity  = name [ methods ] "{" NL { field | group } "}" NL .
//	methods = method { ( " " | "|" | "," ) method } .   GET, POST, …, as in triples
//	field   = name type [ rules ] NL .
//	group   = name "{" [ rules ] NL { field | group } "}" [ name ] NL .
//	name    = word | quoted .
//	type    = word | "$" word | "$" quoted .               as in triples
//	rules   = the rest of the line, read as a triple's rules string .
//
// A word is a run of anything but white space that starts with no quote and
// no "#"; quoted text is written in ' or " with the quote doubled inside,
// as in rules strings, and ends on its line. A "#" that starts a token
// outside quotes (at the start of the line, after white space, or after a
// "|" in rules) starts a comment that runs to the end of the line. The
// closing "}" of a group may repeat the group's name (it is the name of a
// triple's closing "}"); the closing "}" of an entity takes nothing.
// Blank lines and indentation mean nothing.
//
// Each field line is read as the triple of its name, type and rules would
// be, by the same parser, so a file means exactly what its triples mean
// (Entity.Triples gives them), and an entity read from triples is written
// as a file by PrintEntities. File.Print prints the canonical form: two
// spaces of indentation a level, the columns of an entity's or a group's
// fields aligned, one blank line between entities and where the source had
// blank lines, comments where they were. Positions in a file are the file,
// the line and the column (Pos.File, Pos.Line, Pos.Col), and its errors
// read as compilers' do, with the line and a caret under the fault:
//
//	users.entity:4:25: entity "user", field "age": unknown rule "rnge"
//	     4 |     age   number  num | rnge 1 5
//	       |                         ^
//
// Every error of a file is reported: an error in a line hides none in
// another.
//
// # Errors
//
// Errors are reported all at once as an ErrorList of *Error sorted by
// position, each naming the entity, the field, the triple and, inside a rules
// string, the byte with a caret under it. Each triple is read on its own, so
// an error in one hides none in another; ParsePartial also returns the tree
// read, for a compiler that adds its own errors to the list.
package dsl
