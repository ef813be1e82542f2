package entitytest

import (
	"database/sql"
	"database/sql/driver"
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

// directionRegistry declares a customer that a response writes (id,
// readonly) and a request reads (password, writeonly), with an admin-only
// field.
func directionRegistry(t *testing.T) *entity.Registry {
	t.Helper()
	r := entity.NewRegistry()
	if err := r.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	r.MustExpose("customer",
		"id", "number", "readonly",
		"name", "string", "req",
		"password", "string", "writeonly | secret | min 8",
		"score", "number", "if 'admin'",
	)
	return r
}

type customer struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type newCustomer struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

// nullCustomer holds sql.NullString fields, which Make reads through
// their driver.Valuer and Bind fills through their sql.Scanner;
// valuedCustomer holds a driver.Valuer that Bind cannot fill; nullRow is
// the response struct of the same kind.
type nullCustomer struct {
	Name     sql.NullString `json:"name"`
	Password sql.NullString `json:"password"`
}

type valuedCustomer struct {
	Name     valuedOnly `json:"name"`
	Password valuedOnly `json:"password"`
}

// valuedOnly is a driver.Valuer and nothing Bind fills.
type valuedOnly struct{ s string }

func (v valuedOnly) Value() (driver.Value, error) { return v.s, nil }

type nullRow struct {
	ID   sql.NullInt64  `json:"id"`
	Name sql.NullString `json:"name"`
}

// TestCheckStructChecksItsDirection: CheckStruct asks of a struct what its
// direction reads: no writeonly field of a response struct, by default,
// no readonly field of a request struct, with Request.
func TestCheckStructChecksItsDirection(t *testing.T) {
	e := directionRegistry(t).Lookup("customer")
	tests := []struct {
		name  string
		value any
		opts  []Option
		want  []string
	}{
		{name: "a response struct is asked no writeonly field", value: customer{}},
		{name: "a request struct is asked no readonly field", value: newCustomer{}, opts: []Option{Request()}},
		{name: "a request struct is no response struct", value: newCustomer{},
			want: []string{`entity "customer": type entitytest.newCustomer has no field for "id"`}},
		{name: "a response struct is no request struct", value: customer{}, opts: []Option{Request()},
			want: []string{`entity "customer": request type entitytest.customer has no field for "password"`}},
		{name: "a request struct of sql.Scanners Bind fills", value: nullCustomer{}, opts: []Option{Request()}},
		{name: "a request struct Bind cannot fill", value: valuedCustomer{}, opts: []Option{Request()},
			want: []string{`entity "customer": request type entitytest.valuedCustomer cannot hold what Bind decodes for "name", "password" (a driver.Valuer, which Make reads, that is no sql.Scanner, json.Unmarshaler or encoding.TextUnmarshaler, which Bind fills: use a pointer, or a sql.Null type)`}},
		{name: "a response struct of Valuers is read through them", value: nullRow{}},
		{name: "a request of something else", value: map[string]any{}, opts: []Option{Request()},
			want: []string{`entity "customer": type map[string]interface {} is not a struct, nor a pointer to one: Bind does not fill it by field`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &fakeTB{}
			ok := CheckStruct(tb, e, tt.value, tt.opts...)
			checkReport(t, tb, ok, tt.want)
		})
	}
}

// TestCheckStructReadsTheCallsView: with Call, CheckStruct asks what a
// call of those flags reads; a flag the registry has not declared is an
// error, as it is to the call.
func TestCheckStructReadsTheCallsView(t *testing.T) {
	e := directionRegistry(t).Lookup("customer")
	tests := []struct {
		name string
		opts []Option
		want []string
	}{
		{name: "without flags, no admin field", opts: nil},
		{name: "an admin's response", opts: []Option{Call(entity.With("admin"))},
			want: []string{`entity "customer": type entitytest.customer has no field for "score"`}},
		{name: "an admin's request", opts: []Option{Request(), Call(entity.With("admin"))},
			want: []string{`entity "customer": request type entitytest.customer has no field for "password", "score"`}},
		{name: "an undeclared flag", opts: []Option{Call(entity.With("admni"))},
			want: []string{`entitytest: Call: entity: undeclared flag "admni" in With: declare it with Registry.DeclareFlags`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &fakeTB{}
			ok := CheckStruct(tb, e, customer{}, tt.opts...)
			checkReport(t, tb, ok, tt.want)
		})
	}
}

type fromAddr struct {
	City string `json:"city"`
}

// TestCheckStructFollowsFromPaths: a response reads a field with `from` at
// its path, which a struct must supply, step by step; a request reads it
// by its name.
func TestCheckStructFollowsFromPaths(t *testing.T) {
	r := entity.NewRegistry()
	e := r.MustExpose("shipment",
		"ID", "number", "",
		"city", "string", "from 'addr.city'",
		"first", "string", "from 'lines.0.sku'",
		"where", "{", "from 'addr'",
		"city", "string", "",
		"where", "}", "",
	)
	tests := []struct {
		name  string
		value any
		opts  []Option
		want  []string
	}{
		{name: "every step supplied", value: struct {
			ID    int
			Addr  *fromAddr `json:"addr"`
			Lines []struct {
				SKU string `json:"sku"`
			} `json:"lines"`
		}{}},
		{name: "steps into a map or an interface are not checked", value: struct {
			ID    int
			Addr  map[string]string `json:"addr"`
			Lines any               `json:"lines"`
		}{}},
		{name: "a first step missing", value: struct{ ID int }{},
			want: []string{`entity "shipment": type struct { ID int } has no field for "addr", "lines"`}},
		{name: "a later step missing", value: struct {
			ID    int
			Addr  struct{ Zip string } `json:"addr"`
			Lines []struct{ Qty int }  `json:"lines"`
		}{},
			want: []string{`entity "shipment": type struct { ID int; Addr struct { Zip string } "json:\"addr\""; Lines []struct { Qty int } "json:\"lines\"" } has no field for "addr.city", "lines[0].sku"`}},
		{name: "a request reads by name", value: struct {
			ID    int
			City  string `json:"city"`
			First string `json:"first"`
		}{}, opts: []Option{Request()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &fakeTB{}
			ok := CheckStruct(tb, e, tt.value, tt.opts...)
			checkReport(t, tb, ok, tt.want)
		})
	}
}

// TestCheckStructAsksNoNestedParameter: a request struct is asked the
// parameter fields of its entity's top level (of an entity merged there
// too), and none of an entity read below it, which Bind does not set.
func TestCheckStructAsksNoNestedParameter(t *testing.T) {
	reg := entity.NewRegistry()
	for _, d := range [][]string{
		{"account", "id", "number", "path", "X-Tenant", "string", "", "name", "string", ""},
		{"holder", "title", "string", "", "acct", "$account", "merge", "owner", "$account", "", "others", "[]$account", "",
			"meta", "{", "", "inner", "$account", "merge", "meta", "}", ""},
	} {
		if _, err := reg.Expose(d[0], d[1:]...); err != nil {
			t.Fatal(err)
		}
	}
	type name struct {
		Name string `json:"name"`
	}
	type full struct {
		ID     int64  `json:"id"`
		Tenant string `json:"X-Tenant"`
		Name   string `json:"name"`
	}
	type holder struct {
		Title  string `json:"title"`
		Acct   full   `json:"acct"`
		Owner  name   `json:"owner"`
		Others []name `json:"others"`
		Inner  name   `json:"inner"`
	}
	type topless struct {
		Title string `json:"title"`
		Acct  name   `json:"acct"`
	}
	e := reg.Lookup("holder")
	tests := []struct {
		name  string
		value any
		want  []string
	}{
		{"no nested parameter asked", holder{}, nil},
		{"a top-level merge's parameters asked", topless{},
			[]string{`entity "holder": request type entitytest.topless has no field for "acct.id", "acct.X-Tenant", "owner", "others", "inner"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &fakeTB{}
			ok := CheckStruct(tb, e, tt.value, Request())
			checkReport(t, tb, ok, tt.want)
		})
	}
}
