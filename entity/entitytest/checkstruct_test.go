package entitytest

import (
	"reflect"
	"testing"

	"github.com/expose-go/expose/entity"
)

type csUser struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Age  int    `json:"age"`
	Mail string `json:"mail"`
	Code string `json:"code"`
}

type csUserGoNames struct {
	ID   int
	Name string
}

type csList struct {
	Offset int      `json:"offset"`
	Limit  int      `json:"limit"`
	List   []csUser `json:"list"`
}

type csListOfGoNames struct {
	Offset, Limit int
	List          []*csUserGoNames `json:"list"`
}

func TestCheckStruct(t *testing.T) {
	tests := []struct {
		name   string
		entity string
		value  any
		want   []string
	}{
		{name: "every field, groups flattened", entity: "user", value: csUser{}},
		{name: "a nil pointer names the type", entity: "user", value: (*csUser)(nil)},
		{name: "a reflect.Type", entity: "user", value: reflect.TypeFor[csUser]()},
		{name: "every missing key at once", entity: "user", value: csUserGoNames{},
			want: []string{`entity "user": type entitytest.csUserGoNames has no field for "id", "name", "age", "mail", "code"`}},
		{name: "a list of references", entity: "users", value: &csList{}},
		{name: "keys missing in a reference", entity: "users", value: csListOfGoNames{},
			want: []string{`entity "users": type entitytest.csListOfGoNames has no field for "offset", "limit", "list[].id", "list[].name", "list[].age", "list[].mail", "list[].code"`}},
		{name: "not a struct", entity: "user", value: map[string]any{},
			want: []string{`entity "user": type map[string]interface {} is not a struct, nor a pointer to one: Make does not read it by field`}},
		{name: "nil", entity: "user", value: nil,
			want: []string{`entity "user": CheckStruct: the type is nil`}},
		{name: "no entity", entity: "", value: csUser{},
			want: []string{`entitytest: CheckStruct: no entity to check against (nil *entity.Entity)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e *entity.Entity
			if tt.entity != "" {
				e = corpus.Lookup(tt.entity)
			}
			tb := &fakeTB{}
			ok := CheckStruct(tb, e, tt.value)
			checkReport(t, tb, ok, tt.want)
		})
	}
}
