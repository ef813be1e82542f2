package seed

// The tests of the types expose gen writes for the example server's files
// (examples/seedserver/schemas/*.entity; seed_gen.go is their golden
// file): package tool's TestGeneratedCode runs them with go test.

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
)

func load(t *testing.T) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	if err := reg.LoadFS(os.DirFS("../../../../examples/seedserver/schemas"), "*.entity"); err != nil {
		t.Fatal(err)
	}
	return reg
}

// types are the generated types, two an entity: its response and request
// structs.
var types = map[string][2]any{
	"member":      {Member{}, MemberRequest{}},
	"members":     {Members{}, MembersRequest{}},
	"user":        {User{}, UserRequest{}},
	"users":       {Users{}, UsersRequest{}},
	"newuser":     {Newuser{}, NewuserRequest{}},
	"createduser": {Createduser{}, CreateduserRequest{}},
	"usersquery":  {Usersquery{}, UsersqueryRequest{}},
	"dbuser":      {Dbuser{}, DbuserRequest{}},
	"dbusers":     {Dbusers{}, DbusersRequest{}},
}

// TestGeneratedTypesPassCheckStruct: every generated type has a field for
// every field its entity reads in its direction, for the admins and for
// API v1 and v2 clients too.
func TestGeneratedTypesPassCheckStruct(t *testing.T) {
	reg := load(t)
	if len(types) != len(reg.Names()) {
		t.Fatalf("%d entities have types here, the files declare %d: %q", len(types), len(reg.Names()), reg.Names())
	}
	calls := map[string][]entity.Option{
		"no options": nil,
		"admin":      {entity.With("admin")},
		"v1":         {entity.Version("v1")},
		"v2 admin":   {entity.Version("v2"), entity.With("admin")},
	}
	for name, ts := range types {
		e := reg.MustLookup(name)
		for call, opts := range calls {
			t.Run(name+"/"+call, func(t *testing.T) {
				entitytest.CheckStruct(t, e, ts[0], entitytest.Call(opts...))
				entitytest.CheckStruct(t, e, ts[1], entitytest.Request(), entitytest.Call(opts...))
			})
		}
	}
}

// TestGeneratedRequestTypeRoundTrips: Bind fills the request type, and
// Make of it writes the request Object's response form again, nulls kept.
func TestGeneratedRequestTypeRoundTrips(t *testing.T) {
	tests := []struct {
		name, entity string
		newDst       func() any
		method, url  string
		body         string
		header       map[string]string
		opts         []entity.Option
	}{
		{name: "a new user, and its header", entity: "newuser", newDst: func() any { return new(NewuserRequest) },
			method: "POST", url: "/api/users", body: `{"name":"ann","mail":"ann@example.com","age":30}`,
			header: map[string]string{"X-Request-Id": "r-1"}},
		{name: "a new user without age", entity: "newuser", newDst: func() any { return new(NewuserRequest) },
			method: "POST", url: "/api/users", body: `{"name":"ann","mail":"ann@example.com","age":null}`},
		{name: "a query", entity: "usersquery", newDst: func() any { return new(UsersqueryRequest) },
			method: "GET", url: "/api/users?n=3&fields=name"},
		{name: "a row with a date", entity: "dbuser", newDst: func() any { return new(DbuserRequest) },
			method: "POST", url: "/rows", body: `{"id":1,"name":"ann","details":{"age":3},"createdAt":"2024-05-01T10:00:00Z"}`},
		{name: "a member of API v1", entity: "member", newDst: func() any { return new(MemberRequest) },
			method: "POST", url: "/members", body: `{"number":"7","name":"ann","score":3}`,
			opts: []entity.Option{entity.Version("v1"), entity.With("admin")}},
		{name: "a member of API v2", entity: "member", newDst: func() any { return new(MemberRequest) },
			method: "POST", url: "/members", body: `{"number":7,"name":"ann"}`,
			opts: []entity.Option{entity.Version("v2")}},
		{name: "users and one user", entity: "users", newDst: func() any { return new(UsersRequest) },
			method: "POST", url: "/users", body: `{"offset":1,"limit":2,"list":{"number":1,"name":"ann"}}`},
	}
	reg := load(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := reg.MustLookup(tt.entity)
			newRequest := func() *http.Request {
				r := httptest.NewRequest(tt.method, tt.url, strings.NewReader(tt.body))
				if tt.body != "" {
					r.Header.Set("Content-Type", "application/json")
				}
				for k, v := range tt.header {
					r.Header.Set(k, v)
				}
				return r
			}
			o, err := e.MakeRequest(newRequest(), tt.opts...)
			if err != nil {
				t.Fatalf("MakeRequest: %v", err)
			}
			dst := tt.newDst()
			if err := e.Bind(newRequest(), dst, tt.opts...); err != nil {
				t.Fatalf("Bind: %v", err)
			}
			made, err := e.MakeJSON(dst, tt.opts...)
			if err != nil {
				t.Fatalf("Make of the bound %T: %v", dst, err)
			}
			want, err := o.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			var got any
			if err := json.Unmarshal(made, &got); err != nil {
				t.Fatal(err)
			}
			entitytest.Equal(t, got, want)
		})
	}
}
