package entitytest

import (
	"reflect"
	"testing"

	"github.com/expose-go/expose/entity"
)

// CheckStruct checks that a struct type supplies every field the entity
// declares: that Make, given a value of value's type, finds a struct field
// to read each declared field from, by its input name, json tag or Go name
// (see entity.Entity.CheckType, which does the work). A field the type
// lacks is read as absent: Make writes null or the default for it without
// a word, which is what CheckStruct catches in a test:
//
//	func TestUserType(t *testing.T) {
//		entitytest.CheckStruct(t, entity.Lookup("user"), User{})
//	}
//
// fails with
//
//	user_test.go:12: entity "user": type main.User has no field for "id", "user_name"
//
// value is a value of the type, a pointer to one (a nil pointer will do:
// (*User)(nil)), or the reflect.Type itself. CheckStruct reports with one
// t.Errorf and returns whether the type passed.
func CheckStruct(t testing.TB, e *entity.Entity, value any) bool {
	t.Helper()
	if e == nil {
		t.Errorf("entitytest: CheckStruct: no entity to check against (nil *entity.Entity)")
		return false
	}
	typ, ok := value.(reflect.Type)
	if !ok {
		typ = reflect.TypeOf(value)
	}
	if err := e.CheckType(typ); err != nil {
		t.Errorf("%v", err)
		return false
	}
	return true
}
