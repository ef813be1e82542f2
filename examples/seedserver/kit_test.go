package main

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/expose-go/expose/entity/entitytest"
)

// TestAPITestContract checks GET /api/test against the entity it promises,
// "users", and against the payload reviewed in testdata/api_test.golden.
// After a deliberate change, `ENTITYTEST_UPDATE=1 go test -run
// TestAPITestContract` rewrites the golden file; review its diff before
// committing it.
func TestAPITestContract(t *testing.T) {
	rec := httptest.NewRecorder()
	newMux().ServeHTTP(rec, httptest.NewRequest("GET", "/api/test", nil))

	entitytest.CheckResponse(t, rec, usersEntity, http.StatusOK)
	entitytest.Golden(t, "api_test.golden", rec.Body.Bytes())
}

// TestNewUserSuppliesCreatedUser: newUser, which answers POST /api/users
// through createdUserEntity, has a field for every key that entity writes,
// so that Make reads none of them as absent.
func TestNewUserSuppliesCreatedUser(t *testing.T) {
	entitytest.CheckStruct(t, createdUserEntity, newUser{})
}
