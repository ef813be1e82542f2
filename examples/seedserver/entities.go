package main

import (
	"errors"

	"github.com/expose-go/expose/entity"
)

// The seed's entities, declared once at start-up: msful's lib/entities.js
// and lib/entityParent.js. Declaration errors panic here, before the server
// listens, never in a handler.
// The flags the declarations may name (`if 'admin'`), declared before
// anything is exposed: a misspelled flag in a declaration or a call is
// then an error, never a field shown to the wrong client.
var _ = func() error {
	if err := entity.DeclareFlags("admin"); err != nil {
		panic(err)
	}
	return nil
}()

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

	// memberEntity and membersEntity shape GET /api/users: the seed's
	// user and users, written the same by default, with what one
	// declaration can serve to every caller (docs/shaping.md):
	// a `fields` selection, a score written only to admins (the admin flag,
	// set from a header by withRoles), and an id that API v1 clients get as
	// a string and v2 clients (and callers without a version) as a number.
	_ = entity.MustExpose("member",
		"id", "string", "until 'v2' | rename 'number'",
		"id", "number", "num | since 'v2' | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown'",
		"score", "number", "if 'admin'",
	)
	membersEntity = entity.MustExpose("members",
		"offset", "number", "default 0",
		"limit", "number", "default 0",
		"list", "$member", "",
	)

	// newUserEntity validates POST /api/users, as msful's validate checked
	// request parameters with the same triples. The leading "POST" is the
	// declaration's method restriction: MakeRequest answers any other
	// method with a 405 InputError naming it; the word form lets the
	// request send a form body (as msful read one) besides JSON.
	newUserEntity = entity.MustExpose("newuser", "POST form",
		"name", "string", "req",
		"mail", "string", "req | email",
		"age", "number", "range 0 150",
		"X-Request-Id", "string", "rename requestId",
	)

	// createdUserEntity shapes the answer to POST /api/users from the bound
	// newUser, read by its json tags.
	createdUserEntity = entity.MustExpose("createduser",
		"name", "string", "req",
		"mail", "string", "req | email",
		"age", "number", "",
		"X-Request-Id", "string", "rename requestId",
	)

	// usersQueryEntity reads GET /api/users?n=…: how many generated users
	// to answer with. Requests are read strictly: "abc" or "3.5" is a type
	// error, a missing n fails req, and 0 and 10001 fail range.
	usersQueryEntity = entity.MustExpose("usersquery", "GET",
		"n", "number", "req | range 1 10000",
		"fields", "string", "",
		"v", "string", "",
	)

	// The dbuser entity (referenced by dbusers, and streamed alone) shapes one row of the users table (db.go): the row's
	// int64 columns stay numbers, its TEXT name (scanned as []byte) becomes
	// a string, its DATETIME created_at (a time.Time) an RFC 3339 date in
	// UTC, and the flat row becomes nested JSON through the details group.
	dbUserEntity = entity.MustExpose("dbuser",
		"id", "number", "req",
		"name", "string", "req | min 1",
		"details", "{", "",
		"age", "number", "range 0 150",
		"mail", "string", "email",
		"details", "}", "",
		"created_at", "date", "req | rename createdAt",
	)
	dbUsersEntity = entity.MustExpose("dbusers",
		"count", "number", "default 0",
		"list", "$dbuser", "",
	)
)

// checkEntities fails when a $ref names no entity, or a path a handler
// asks Selected about names no field. (That newUser has a
// field for every key the answer to POST /api/users declares is checked by
// a test: TestNewUserSuppliesCreatedUser.)
func checkEntities() error {
	if err := entity.Verify(); err != nil {
		return err
	}
	// The paths the handlers ask Selected about: Only refuses one that
	// names no field.
	if _, err := dbUserEntity.MakeJSON(nil, entity.Only("createdAt")); errors.Is(err, entity.ErrUnknownField) {
		return err
	}
	return nil
}
