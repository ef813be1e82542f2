package entity_test

import (
	"context"
	"fmt"

	"github.com/expose-go/expose/entity"
)

// exampleMembers declares the entities of the shaping examples: members
// with a flagged score, a lazy bio, and an id whose type changes with the
// API's version.
func exampleMembers() (*entity.Registry, *entity.Entity) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		panic(err)
	}
	reg.MustExpose("member",
		"id", "string", "until 'v2'",
		"id", "number", "num | since 'v2'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "",
		"mail", "string", "email",
		"details", "}", "",
		"score", "number", "if 'admin'",
		"bio", "string", "lazy",
	)
	page := reg.MustExpose("page",
		"offset", "number", "default 0",
		"list", "[]$member", "",
	)
	return reg, page
}

var exampleMemberRows = map[string]any{"list": []any{
	map[string]any{"id": 7, "name": "ann", "age": 30, "mail": "ann@example.com", "score": 12, "bio": "…"},
}}

// Select takes a client's fields parameter as it comes; a field it does
// not name is neither read nor written. A bad selection is the client's
// error (400), quoting nothing of it.
func ExampleSelect() {
	_, page := exampleMembers()
	b, _ := page.MakeJSON(exampleMemberRows, entity.Select("list(name,details/mail)"))
	fmt.Println(string(b))
	b, _ = page.MakeJSON(exampleMemberRows, entity.Select("list(bio)")) // a lazy field, named
	fmt.Println(string(b))
	_, err := page.MakeJSON(exampleMemberRows, entity.Select("list(nmae)"))
	fmt.Println(err)
	// Output:
	// {"list":[{"name":"ann","details":{"mail":"ann@example.com"}}]}
	// {"list":[{"bio":"…"}]}
	// entity: the field selection is not valid: at byte 5, no field here has that name (there are "id", "name", "details", "bio")
}

// Only and Except are selections for code: dotted output paths, an
// unknown one a programming error.
func ExampleOnly() {
	_, page := exampleMembers()
	b, _ := page.MakeJSON(exampleMemberRows, entity.Only("list.name", "list.details"), entity.Except("list.details.age"))
	fmt.Println(string(b))
	_, err := page.MakeJSON(exampleMemberRows, entity.Only("list.nmae"))
	fmt.Println(err)
	// Output:
	// {"list":[{"name":"ann","details":{"mail":"ann@example.com"}}]}
	// entity: unknown field: entity "page" has no field at "list.nmae": no "nmae" here (there are "id", "name", "details", "score", "bio")
}

// Flags are declared once, set per call by With or by middleware through
// the request's context, and a field they hide does not exist for the
// call.
func ExampleWith() {
	_, page := exampleMembers()
	b, _ := page.MakeJSON(exampleMemberRows)
	fmt.Println(string(b))
	b, _ = page.MakeJSON(exampleMemberRows, entity.With("admin"))
	fmt.Println(string(b))
	ctx := entity.NewContext(context.Background(), "admin") // what a middleware does
	b, _ = page.MakeJSON(exampleMemberRows, entity.WithContext(ctx), entity.Select("list(score)"))
	fmt.Println(string(b))
	_, err := page.MakeJSON(exampleMemberRows, entity.Select("list(score)"))
	fmt.Println(err)
	_, err = page.MakeJSON(exampleMemberRows, entity.With("admni"))
	fmt.Println(err)
	// Output:
	// {"offset":0,"list":[{"id":7,"name":"ann","details":{"age":30,"mail":"ann@example.com"}}]}
	// {"offset":0,"list":[{"id":7,"name":"ann","details":{"age":30,"mail":"ann@example.com"},"score":12}]}
	// {"list":[{"score":12}]}
	// entity: the field selection is not valid: at byte 5, no field here has that name (there are "id", "name", "details", "bio")
	// entity: undeclared flag "admni" in With: declare it with Registry.DeclareFlags
}

// A version picks the fields of its range: here id is a string before
// v2 and a number from v2 on, under one key.
func ExampleVersion() {
	_, page := exampleMembers()
	for _, v := range []string{"v1", "v2.1", ""} {
		b, err := page.MakeJSON(exampleMemberRows, entity.Version(v), entity.Only("list.id"))
		fmt.Println(string(b), err)
	}
	_, err := page.MakeJSON(exampleMemberRows, entity.Version("two"))
	fmt.Println(err)
	// Output:
	// {"list":[{"id":"7"}]} <nil>
	// {"list":[{"id":7}]} <nil>
	// {"list":[{"id":7}]} <nil>
	// entity: the version asked for is not a version: want dotted numbers with an optional leading v, such as v2 or v2.1
}

// merge writes a referenced entity's keys into the object around the
// field, Grape's merge: true.
func ExampleRegistry_Expose_merge() {
	reg := entity.NewRegistry()
	reg.MustExpose("audit", "created_by", "string", "", "created_at", "date", "format date")
	doc := reg.MustExpose("doc",
		"title", "string", "req",
		"audit", "$audit", "merge",
	)
	b, err := doc.MakeJSON(map[string]any{"title": "notes", "audit": map[string]any{"created_by": "ann", "created_at": "2026-12-01T10:00:00Z"}})
	fmt.Println(string(b), err)
	// Output:
	// {"title":"notes","created_by":"ann","created_at":"2026-12-01"} <nil>
}
