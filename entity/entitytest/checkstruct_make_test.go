package entitytest

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
)

// CheckStruct: does a struct type supply every declared field, as Make
// reads structs?

type ctBase struct {
	ID int `json:"id"`
}

type ctNameA struct{ Name string }

type ctNameB struct{ Name string }

type ctPost struct {
	Title string `json:"title"`
	Body  string
}

type ctPostNoTitle struct {
	Body string
}

type ctBlogBase struct {
	Posts []ctPostNoTitle `json:"posts"`
}

type ctTree struct {
	Name     string
	Children []ctTree `json:"children"`
	Parent   *ctTree  `json:"parent"`
}

type ctTreeNoName struct {
	Children []ctTreeNoName `json:"children"`
	Parent   *ctTreeNoName  `json:"parent"`
}

func checkStructRegistry(t testing.TB) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry()
	reg.MustExpose("user",
		"id", "number", "rename 'number'",
		"user_name", "string", "req",
	)
	reg.MustExpose("goNames",
		"Name", "string", "",
		"Age", "int", "",
	)
	reg.MustExpose("grouped",
		"id", "number", "",
		"info", "{", "",
		"name", "string", "",
		"more", "{", "rename 'More'",
		"mail", "string", "",
		"more", "}", "",
		"info", "}", "",
		"name2", "{", "",
		"name", "string", "rename 'n'", // the same input name as info.name
		"name2", "}", "",
	)
	reg.MustExpose("post",
		"title", "string", "req",
		"Body", "string", "",
	)
	reg.MustExpose("blog",
		"posts", "$post", "",
	)
	reg.MustExpose("tree",
		"Name", "string", "",
		"children", "$tree", "",
		"parent", "$tree", "",
	)
	reg.MustExpose("ghost",
		"g", "$nobody", "",
	)
	reg.MustExpose("headers",
		"X-Request-Id", "string", "rename requestId",
	)
	return reg
}

// TestCheckStructReadsAsMake: CheckStruct matches struct fields as Make
// reads them (json tags, Go names, embedded structs, groups flattened,
// $refs' element types).
func TestCheckStructReadsAsMake(t *testing.T) {
	reg := checkStructRegistry(t)
	tests := []struct {
		name   string
		entity string
		typ    reflect.Type
		want   string // the error, "" for none
	}{
		{name: "json tags name the input names", entity: "user", typ: reflect.TypeFor[struct {
			ID       int    `json:"id"`
			UserName string `json:"user_name,omitempty"`
		}]()},
		{name: "Go names where untagged", entity: "goNames", typ: reflect.TypeFor[struct {
			Name string
			Age  int `json:",omitempty"`
		}]()},
		{name: "Go names do not match other spellings", entity: "user", typ: reflect.TypeFor[struct {
			ID       int
			UserName string
		}](), want: `entity "user": type struct { ID int; UserName string } has no field for "id", "user_name"`},
		{name: "a renamed field is read by its input name, not its output name", entity: "user", typ: reflect.TypeFor[struct {
			Number   int    `json:"number"`
			UserName string `json:"user_name"`
		}](), want: `entity "user": type struct { Number int "json:\"number\""; UserName string "json:\"user_name\"" } has no field for "id"`},
		{name: "a field tagged - is not read", entity: "user", typ: reflect.TypeFor[struct {
			ID       int    `json:"-"`
			UserName string `json:"user_name"`
		}](), want: `entity "user": type struct { ID int "json:\"-\""; UserName string "json:\"user_name\"" } has no field for "id"`},
		{name: "unexported fields are not read", entity: "goNames", typ: reflect.TypeFor[struct {
			Name string
			age  int
		}](), want: `entity "goNames": type struct { Name string; age int } has no field for "Age"`},
		{name: "embedded structs are flattened", entity: "user", typ: reflect.TypeFor[struct {
			ctBase
			UserName string `json:"user_name"`
		}]()},
		{name: "an embedded struct of an unexported type a tag names is a field of that name", entity: "goNames", typ: reflect.TypeFor[struct {
			ctNameA `json:"Age"`
			Name    string
		}]()},
		{name: "embedded pointers too", entity: "user", typ: reflect.TypeFor[struct {
			*ctBase
			UserName string `json:"user_name"`
		}]()},
		{name: "a name two embedded structs give at one depth is ambiguous", entity: "goNames", typ: reflect.TypeFor[struct {
			ctNameA
			ctNameB
			Age int
		}](), want: `entity "goNames": type struct { entitytest.ctNameA; entitytest.ctNameB; Age int } has no field for "Name"`},
		{name: "a shallower field wins over an embedded one", entity: "goNames", typ: reflect.TypeFor[struct {
			ctNameA
			ctNameB
			Name string
			Age  int
		}]()},
		{name: "a pointer to a struct", entity: "user", typ: reflect.TypeFor[*struct {
			ID       int    `json:"id"`
			UserName string `json:"user_name"`
		}]()},
		{name: "a pointer to a pointer, reported as the struct", entity: "user", typ: reflect.TypeFor[**ctBase](),
			want: `entity "user": type entitytest.ctBase has no field for "user_name"`},
		{name: "group fields are read beside their siblings", entity: "grouped", typ: reflect.TypeFor[struct {
			ID   int    `json:"id"`
			Name string `json:"name"`
			Mail string `json:"mail"`
		}]()},
		{name: "group fields missing, an input name two fields read once", entity: "grouped", typ: reflect.TypeFor[struct {
			ID int `json:"id"`
		}](), want: `entity "grouped": type struct { ID int "json:\"id\"" } has no field for "name", "mail"`},
		{name: "a group's own name is not read", entity: "grouped", typ: reflect.TypeFor[struct {
			ID   int `json:"id"`
			Info struct {
				Name string `json:"name"`
				Mail string `json:"mail"`
			} `json:"info"`
		}](), want: `entity "grouped": type struct { ID int "json:\"id\""; Info struct { Name string "json:\"name\""; Mail string "json:\"mail\"" } "json:\"info\"" } has no field for "name", "mail"`},
		{name: "a reference to a slice of structs", entity: "blog", typ: reflect.TypeFor[struct {
			Posts []ctPost `json:"posts"`
		}]()},
		{name: "a reference to a slice of structs that lack a field", entity: "blog", typ: reflect.TypeFor[struct {
			Posts []*ctPostNoTitle `json:"posts"`
		}](), want: `entity "blog": type struct { Posts []*entitytest.ctPostNoTitle "json:\"posts\"" } has no field for "posts[].title"`},
		{name: "a reference to an array of structs", entity: "blog", typ: reflect.TypeFor[struct {
			Posts [2]ctPostNoTitle `json:"posts"`
		}](), want: `entity "blog": type struct { Posts [2]entitytest.ctPostNoTitle "json:\"posts\"" } has no field for "posts[].title"`},
		{name: "a reference to a pointer to a struct", entity: "blog", typ: reflect.TypeFor[struct {
			Posts *ctPostNoTitle `json:"posts"`
		}](), want: `entity "blog": type struct { Posts *entitytest.ctPostNoTitle "json:\"posts\"" } has no field for "posts.title"`},
		{name: "a reference in an embedded pointer's field", entity: "blog", typ: reflect.TypeFor[struct{ *ctBlogBase }](),
			want: `entity "blog": type struct { *entitytest.ctBlogBase } has no field for "posts[].title"`},
		{name: "a reference missing", entity: "blog", typ: reflect.TypeFor[struct{ Post []ctPost }](),
			want: `entity "blog": type struct { Post []entitytest.ctPost } has no field for "posts"`},
		{name: "a reference in a map, an interface, raw JSON or an Object is not checked", entity: "blog", typ: reflect.TypeFor[struct {
			Posts []map[string]any `json:"posts"`
		}]()},
		{name: "a reference in an interface", entity: "blog", typ: reflect.TypeFor[struct {
			Posts any `json:"posts"`
		}]()},
		{name: "a reference in raw JSON", entity: "blog", typ: reflect.TypeFor[struct {
			Posts json.RawMessage `json:"posts"`
		}]()},
		{name: "a reference in Objects", entity: "blog", typ: reflect.TypeFor[struct {
			Posts []*entity.Object `json:"posts"`
		}]()},
		{name: "a recursive type ends", entity: "tree", typ: reflect.TypeFor[ctTree]()},
		{name: "a recursive type lacking a field says so once", entity: "tree", typ: reflect.TypeFor[ctTreeNoName](),
			want: `entity "tree": type entitytest.ctTreeNoName has no field for "Name"`},
		{name: "a reference to an entity not declared is Check's to report", entity: "ghost", typ: reflect.TypeFor[struct {
			G struct{} `json:"g"`
		}]()},
		{name: "a header field by its name", entity: "headers", typ: reflect.TypeFor[struct {
			RequestID string `json:"X-Request-Id"`
		}]()},
		{name: "an int is not a struct", entity: "user", typ: reflect.TypeFor[int](),
			want: `entity "user": type int is not a struct, nor a pointer to one: Make does not read it by field`},
		{name: "a map is not a struct", entity: "user", typ: reflect.TypeFor[map[string]any](),
			want: `entity "user": type map[string]interface {} is not a struct, nor a pointer to one: Make does not read it by field`},
		{name: "a slice of structs is not a struct", entity: "user", typ: reflect.TypeFor[[]ctBase](),
			want: `entity "user": type []entitytest.ctBase is not a struct, nor a pointer to one: Make does not read it by field`},
		{name: "a time is a value", entity: "user", typ: reflect.TypeFor[*time.Time](),
			want: `entity "user": type *time.Time is not a struct, nor a pointer to one: Make does not read it by field`},
		{name: "an Object is read by key", entity: "user", typ: reflect.TypeFor[*entity.Object](),
			want: `entity "user": type *entity.Object is not a struct, nor a pointer to one: Make does not read it by field`},
		{name: "no type", entity: "user", typ: nil, want: `entity "user": CheckStruct: the type is nil`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &fakeTB{}
			ok := CheckStruct(tb, reg.Lookup(tt.entity), tt.typ)
			var want []string
			if tt.want != "" {
				want = []string{tt.want}
			}
			checkReport(t, tb, ok, want)
		})
	}
}

// TestCheckStructAgreesWithMake: a field CheckStruct says the type lacks is
// absent in what Make reads from a value of it; one it finds is read.
func TestCheckStructAgreesWithMake(t *testing.T) {
	reg := checkStructRegistry(t)
	type half struct {
		ID       int `json:"id"`
		UserName string
	}
	e := reg.Lookup("user")
	if CheckStruct(&fakeTB{}, e, half{}) {
		t.Fatal("CheckStruct found user_name")
	}
	got, err := e.MakeJSON(half{ID: 7, UserName: "ann"})
	if err == nil {
		t.Fatalf("MakeJSON = %s, want user_name's req to fail", got)
	}
	var ve *entity.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Path != "user_name" {
		t.Errorf("MakeJSON: %v, want one error at user_name", err)
	}
}
