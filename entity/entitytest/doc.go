// Package entitytest checks JSON payloads against entity declarations in
// tests: the declarations that shape a handler's response are the contract
// its JSON must meet, as net/http/httptest serves net/http.
//
//   - Conform checks a payload against an entity: every declared key, in
//     order, of the declared JSON type, every rule holding, no other key;
//   - CheckResponse checks a recorded response: status, Content-Type, and a
//     body that conforms (2xx) or is entity.Write's error JSON (4xx, 5xx);
//   - Equal compares payloads, Objects and maps with go-cmp, key order
//     included;
//   - Golden compares a payload with an indented file under testdata/,
//     rewritten by go test -update;
//   - Sample builds a valid payload from a declaration, for docs and tests.
//
// Every checker reports each mismatch with t.Errorf, with its path in the
// payload, and returns whether there was none:
//
//	func TestUsers(t *testing.T) {
//		rec := httptest.NewRecorder()
//		newMux().ServeHTTP(rec, httptest.NewRequest("GET", "/api/test", nil))
//		entitytest.CheckResponse(t, rec, entity.Lookup("users"), http.StatusOK)
//		entitytest.Golden(t, "api_test.golden", rec.Body.Bytes())
//	}
//
// A failing payload prints, for example:
//
//	kit_test.go:14: list.1.details.mail: want string matching email, got 12
//	kit_test.go:14: list.1: undeclared key, got "x"
//
// The package defines the -update flag in each test binary that imports it
// (unless a package initialized before it defined one); a test package that
// imports entitytest must not define its own.
package entitytest
