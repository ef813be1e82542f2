package main

import "github.com/expose-go/expose/entity"

// The seed's entities, declared once at start-up: msful's lib/entities.js
// and lib/entityParent.js. Declaration errors panic here, before the server
// listens, never in a handler.
var (
	userEntity = entity.MustExpose("user",
		"id", "number", "num | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown'",
	)
	usersEntity = entity.MustExpose("users",
		"offset", "number", "default 0",
		"limit", "number", "default 0",
		"list", "$user", "",
	)

	// newUserEntity validates POST /api/users, as msful's validate checked
	// request parameters with the same triples. The leading "POST" is the
	// declaration's method restriction: MakeRequest answers any other
	// method with a 405 InputError naming it.
	newUserEntity = entity.MustExpose("newuser", "POST",
		"name", "string", "req",
		"mail", "string", "req | email",
		"age", "number", "range 0 150",
		"X-Request-Id", "string", "rename requestId",
	)
)

// checkEntities fails when a $ref names no entity.
func checkEntities() error { return entity.Check() }
