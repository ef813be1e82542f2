package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
)

func TestListUsers(t *testing.T) {
	if err := checkEntities(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		method string
		target string
		n      int
	}{
		{"one user", "GET", "/api/users?n=1", 1},
		{"the seed's two", "GET", "/api/users?n=2", 2},
		{"the load test's 100", "GET", "/api/users?n=100", 100},
		{"the most", "GET", "/api/users?n=10000", 10000},
		{"leading zeros", "GET", "/api/users?n=004", 4},
		{"HEAD", "HEAD", "/api/users?n=5", 5},
	}
	mux := newMux()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.target, nil))
			if rec.Code != http.StatusOK {
				t.Fatalf("status = %d, want 200 (body %s)", rec.Code, rec.Body)
			}
			want, err := usersEntity.MakeJSON(generatedUsers(tt.n))
			if err != nil {
				t.Fatal(err)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type = %q", ct)
			}
			if cl := rec.Header().Get("Content-Length"); cl != strconv.Itoa(len(want)) {
				t.Errorf("Content-Length = %q, want %d", cl, len(want))
			}
			if tt.method == "HEAD" {
				return // the recorder keeps the body a HEAD would not send
			}
			if got := rec.Body.String(); got != string(want) {
				t.Errorf("body is not the entity's output:\n got %.300s\nwant %.300s", got, want)
			}
			entitytest.CheckResponse(t, rec, usersEntity, http.StatusOK)
			var body struct {
				Offset, Limit int
				List          []json.RawMessage
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatal(err)
			}
			if body.Offset != 0 || body.Limit != tt.n || len(body.List) != tt.n {
				t.Errorf("offset %d, limit %d, %d users; want 0, %d, %d", body.Offset, body.Limit, len(body.List), tt.n, tt.n)
			}
			const first = `{"number":1000,"name":"maachang0","details":{"age":18,"mail":"maachang0@example0.com"},"code":"unknown"}`
			if string(body.List[0]) != first {
				t.Errorf("first user %s, want %s", body.List[0], first)
			}
		})
	}
}

func TestListUsersN(t *testing.T) {
	tests := []struct {
		name     string
		target   string
		wantRule string
	}{
		{"no n", "/api/users", "required"},
		{"empty n", "/api/users?n=", "type"},
		{"not a number", "/api/users?n=abc", "type"},
		{"an exponent", "/api/users?n=1e3", "type"},
		{"a fraction", "/api/users?n=3.9", "type"},
		{"a decimal n of zeros only", "/api/users?n=3.00", "type"},
		{"a repeated n", "/api/users?n=4&n=5", "type"},
		{"a plus sign", "/api/users?n=%2B3", "type"},
		{"zero", "/api/users?n=0", "range"},
		{"negative", "/api/users?n=-1", "range"},
		{"too many", "/api/users?n=10001", "range"},
		{"beyond int64", "/api/users?n=99999999999999999999", "type"},
	}
	mux := newMux()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest("GET", tt.target, nil))
			if !entitytest.CheckResponse(t, rec, usersQueryEntity, http.StatusBadRequest) {
				return
			}
			var body struct {
				Errors []struct{ Pointer, Path, Code string }
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatal(err)
			}
			if len(body.Errors) != 1 || body.Errors[0].Path != "n" || body.Errors[0].Code != tt.wantRule {
				t.Errorf("body %s, want one error at n of code %q", rec.Body, tt.wantRule)
			}
		})
	}
}

func TestGeneratedUsers(t *testing.T) {
	a, b := generatedUsers(7), generatedUsers(7)
	if reflect.ValueOf(a).UnsafePointer() != reflect.ValueOf(b).UnsafePointer() {
		t.Error("the input of n = 7 is generated twice, not cached")
	}
	want := map[string]any{"id": "1007", "name": "saito1", "age": 19, "mail": "saito1@example1.com", "score": 37}
	if got := a["list"].([]any)[1]; !reflect.DeepEqual(got, want) {
		t.Errorf("user 1 = %v, want %v", got, want)
	}
	if a["limit"] != 7 || len(a["list"].([]any)) != 7 {
		t.Errorf("limit %v with %d users, want 7", a["limit"], len(a["list"].([]any)))
	}
	// Every generated user is valid: the whole list makes.
	if _, err := usersEntity.MakeJSON(generatedUsers(maxUsers)); err != nil {
		t.Fatal(err)
	}
}

// TestListUsersShaped: GET /api/users serves every caller from one
// declaration: a fields selection, an admin-only score, ids as strings for
// API v1; bad selections and versions are 400s naming the fault.
func TestListUsersShaped(t *testing.T) {
	tests := []struct {
		name   string
		target string
		role   string
		status int
		want   string
		call   []entity.Option // the call's options, for the test kit
	}{
		{"fields", "/api/users?n=3&fields=list(name)", "", 200,
			`{"list":[{"name":"maachang0"},{"name":"saito1"},{"name":"tanaka2"}]}`, nil},
		{"nested fields", "/api/users?n=2&fields=limit,list(number,details/mail)", "", 200,
			`{"limit":2,"list":[{"number":1000,"details":{"mail":"maachang0@example0.com"}},{"number":1007,"details":{"mail":"saito1@example1.com"}}]}`, nil},
		{"admin gets the score", "/api/users?n=2&fields=list(name,score)", "admin", 200,
			`{"list":[{"name":"maachang0","score":0},{"name":"saito1","score":37}]}`, []entity.Option{entity.With("admin")}},
		{"others do not", "/api/users?n=2", "guest", 200,
			`{"offset":0,"limit":2,"list":[{"number":1000,"name":"maachang0","details":{"age":18,"mail":"maachang0@example0.com"},"code":"unknown"},{"number":1007,"name":"saito1","details":{"age":19,"mail":"saito1@example1.com"},"code":"unknown"}]}`, nil},
		{"nor may they name it", "/api/users?n=2&fields=list(name,score)", "guest", 400,
			`no field here has that name (there are \"number\", \"name\", \"details\", \"code\")`, nil},
		{"v1 ids are strings", "/api/users?n=2&v=v1&fields=list(number)", "", 200,
			`{"list":[{"number":"1000"},{"number":"1007"}]}`, []entity.Option{entity.Version("v1")}},
		{"v2 ids are numbers", "/api/users?n=2&v=v2&fields=list(number)", "", 200,
			`{"list":[{"number":1000},{"number":1007}]}`, []entity.Option{entity.Version("v2")}},
		{"an unknown field", "/api/users?n=2&fields=list(nmae)", "", 400,
			`"detail":"the field selection is not valid: at byte 5, no field here has that name`, nil},
		{"a bad version", "/api/users?n=2&v=two", "", 400, `"type":"/problems/invalid-version"`, nil},
	}
	mux := newMux()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tt.target, nil)
			if tt.role != "" {
				req.Header.Set("X-Role", tt.role)
			}
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
			if tt.status != 200 {
				if !strings.Contains(rec.Body.String(), tt.want) {
					t.Errorf("body %s, want it to hold %s", rec.Body, tt.want)
				}
				entitytest.CheckResponse(t, rec, membersEntity, tt.status)
				return
			}
			if got := rec.Body.String(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			entitytest.CheckResponse(t, rec, membersEntity, http.StatusOK, entitytest.Partial(), entitytest.Call(tt.call...))
		})
	}
}
