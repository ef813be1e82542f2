// Package entitytest checks JSON payloads against entity declarations in
// tests: the declarations that shape a handler's response are the contract
// its JSON must meet, as net/http/httptest serves net/http.
//
//   - Conform checks a payload against an entity: every declared key, in
//     order, of the declared JSON type, every rule holding, no other key,
//     no writeonly key (with Partial, declared keys may be absent, as a
//     selection writes them);
//   - CheckResponse checks a recorded response: status, Content-Type, and a
//     body that conforms (2xx) or is entity.Write's RFC 9457 problem details (4xx, 5xx);
//   - Equal compares payloads, Objects and maps with go-cmp, key order
//     included;
//   - Golden compares a payload with an indented file under testdata/,
//     rewritten when ENTITYTEST_UPDATE=1 is set (or -entitytest.update, or
//     the test package's own -update);
//   - Sample builds a valid payload from a declaration, for docs and tests;
//     Sample(e, Request) a valid request body, in the wire form a client
//     sends (schema.Sample, for code outside tests);
//   - CheckStruct checks that a struct type has a field for every field
//     its direction reads, so that Make does not read one as absent (with
//     Request, a struct that Bind fills).
//
// Each checker reads the view of its direction as a call with given
// options sees it: a response's ([entity.Entity.Fields]: no writeonly field)
// by default, a request's ([entity.Entity.RequestFields]: no readonly field)
// with Request. Call gives the options of the call the payload, struct or
// sample serves, its flags and version, so that a field they hide is not
// declared to the check, and of fields sharing a key by version range the
// call's is:
//
//	entitytest.Conform(t, e, payload, entitytest.Call(entity.With("admin"), entity.Version("v1")))
//	entitytest.CheckStruct(t, e, NewCustomer{}, entitytest.Request())
//
// Every checker reports each mismatch with t.Errorf, with its path in the
// payload (written as entity.FieldError writes paths), and returns whether
// there was none:
//
//	func TestUsers(t *testing.T) {
//		rec := httptest.NewRecorder()
//		newMux().ServeHTTP(rec, httptest.NewRequest("GET", "/api/test", nil))
//		entitytest.CheckResponse(t, rec, entity.Lookup("users"), http.StatusOK)
//		entitytest.Golden(t, "api_test.golden", rec.Body.Bytes())
//	}
//
// A failing payload prints, for example (the payload of ExampleConform:
// each object's declared fields in declaration order, then its undeclared
// keys):
//
//	api_test.go:14: list[1].number: want number matching num, got "21"
//	api_test.go:14: list[1].name: missing key, want string
//	api_test.go:14: list[1].details.mail: want string matching email, got 12
//	api_test.go:14: list[1].admin: undeclared key, got true
//
// No checker prints a value of a field declared secret or writeonly
// (Conform's and CheckResponse's messages, the bodies CheckResponse shows,
// Sample's defaults); a key counts as secret when any field of its object
// declares it secret or writeonly, under any flag or version. Equal and
// Golden know no entity and print values as they are.
//
// The package defines no -update flag, so a test package may define its
// own; in test binaries it defines -entitytest.update (unless a package has
// defined that name already). It builds nothing else at init.
package entitytest
