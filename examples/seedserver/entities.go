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
)

// checkEntities fails when a $ref names no entity.
func checkEntities() error { return entity.Check() }
