// Package schema exports entities as JSON Schema 2020-12 and OpenAPI 3.1,
// built on package entity's Field view: a Response schema says what a
// response writes (entity.Entity.Fields), a Request schema what a request
// reads (entity.Entity.RequestFields), a Patch schema the JSON Merge Patch
// entity.Entity.Patch reads, so that the documents cannot drift from what
// the library does.
//
//	reg := entity.NewRegistry()
//	users := reg.MustExpose("user",
//		"id", "number", "req",
//		"name", "string", "req | min 2 | max 40",
//		"score", "number", "if 'admin'",
//	)
//	public, _ := schema.JSON(users, schema.Response)                     // no score
//	admin, _ := schema.JSON(users, schema.Response, entity.With("admin")) // with score
//
// Every document is per audience: given a call's options ([entity.With],
// [entity.Version]) it describes what such a call writes or reads, and
// without them what a call without flags and without a version does, so
// that a public document never lists a field only flagged calls see.
//
// Each type's schema comes from package rules' type table
// ([rules.Kind.Schema], [rules.Kind.InputSchema], [rules.Kind.InputKeywords]),
// each rule's keywords from its [rules.Def]'s Schema hook. What no
// keyword says (a rule without a hook, a regex with no ECMA-262 form, the
// checks of a formatted or transformed value) is named in the property's
// "$comment" and returned by [Warnings]. A field's description and example
// ([entity.Field.Doc], [entity.Field.Example]) are its "description" and
// "examples"; the cross-field rules ([entity.Field.Cross]) are constraints
// of their object, said as the library judges them. Nothing of a secret
// field's values is published, nor of any field under a secret `$ref`.
// The documents are deterministic: the same bytes for the same
// declarations.
//
// [Components] gives the pieces an OpenAPI document is made of (entity
// schemas as components, references to them, which are the bodies, parameters,
// problem details) to a package that assembles one; [OpenAPI] assembles a
// document for a list of [Route]s: each operation's parameters (path,
// query, header and cookie fields, typed as their text's value), its body,
// its answers, the problem details of its errors and its security. Package
// api records the routes as handlers are registered.
package schema
