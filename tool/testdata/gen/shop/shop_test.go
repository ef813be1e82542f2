package shop

// The tests of the types expose gen writes for shop.entity (shop_gen.go,
// its golden file): package tool's TestGeneratedCode runs them with go test.

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
)

// load returns a registry of the files in the key case style, with the
// flags their fields name.
func load(t *testing.T, style entity.KeyCaseStyle, files ...string) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry(entity.KeyCase(style))
	if err := reg.DeclareFlags("admin", "beta"); err != nil {
		t.Fatal(err)
	}
	if err := reg.LoadFS(os.DirFS("."), files...); err != nil {
		t.Fatal(err)
	}
	return reg
}

// types are the generated types, two an entity: its response and request
// structs.
var types = map[string][2]any{
	"address":          {Address{}, AddressRequest{}},
	"customer":         {Customer{}, CustomerRequest2{}},
	"item":             {Item{}, ItemRequest{}},
	"order":            {Order{}, OrderRequest{}},
	"ticket":           {Ticket{}, TicketRequest{}},
	"profile":          {Profile{}, ProfileRequest{}},
	"customerquery":    {Customerquery{}, CustomerqueryRequest{}},
	"naming":           {Naming{}, NamingRequest{}},
	"customer_request": {CustomerRequest{}, CustomerRequestRequest{}},
	"category":         {Category{}, CategoryRequest{}},
	"merged":           {Merged{}, MergedRequest{}},
}

// TestGeneratedTypesPassCheckStruct: every generated type has a field for
// every field its entity reads in its direction, for every audience the
// file names (a field of the admins, one of API v1 or v2).
func TestGeneratedTypesPassCheckStruct(t *testing.T) {
	reg := load(t, entity.AsDeclared, "*.entity")
	if len(types) != len(reg.Names()) {
		t.Fatalf("%d entities have types here, the file declares %d: %q", len(types), len(reg.Names()), reg.Names())
	}
	calls := map[string][]entity.Option{
		"no options":    nil,
		"admin":         {entity.With("admin")},
		"beta":          {entity.With("beta")},
		"v1":            {entity.Version("v1")},
		"v2, all flags": {entity.Version("v2"), entity.With("admin", "beta")},
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
// Make of it writes what Make of the request's Object writes, nulls kept
// (apart from the readonly fields, which Make writes and a request never
// reads), in every key case.
func TestGeneratedRequestTypeRoundTrips(t *testing.T) {
	tests := []struct {
		name, entity string
		newDst       func() any
		method, url  string
		body         string
		header       map[string]string
		path         map[string]string
		opts         []entity.Option // the request's and Make's
		selectLazy   string          // a lazy field to select, by declared name
	}{
		{name: "customer", entity: "customer", newDst: func() any { return new(CustomerRequest2) },
			method: "POST", url: "/customers",
			body: `{"name":"Ann","phoneNumber":"+81 3","email":"ann@example.com","password":"12345678","tier":"gold",` +
				`"address":{"city":"Kyoto","zip":"600-8216","lines":["1-2 Shiokoji"]},"settings":{"newsletter":true},"tags":["a","b"]}`},
		{name: "customer with nulls and defaults", entity: "customer", newDst: func() any { return new(CustomerRequest2) },
			method: "POST", url: "/customers",
			body: `{"name":"Ann","phoneNumber":null,"email":"ann@example.com","password":"12345678",` +
				`"address":{"city":"Kyoto","zip":"600-8216"},"settings":{"language":null},"tags":null}`},
		{name: "order", entity: "order", newDst: func() any { return new(OrderRequest) },
			method: "POST", url: "/orders",
			body: `{"customer_id":7,"items":[{"sku":"A-1","quantity":2,"price":1.5},{"sku":"B-2","quantity":1}],` +
				`"delivery":"ship","ship":{"city":"Nara","zip":"630"},"notes":[1,"two",null],"meta":{"k":{"n":1}},"extra":true}`},
		{name: "order without a ship", entity: "order", newDst: func() any { return new(OrderRequest) },
			method: "POST", url: "/orders", body: `{"customer_id":7,"items":[{"sku":"A-1","quantity":2}],"ship":null}`},
		{name: "ticket v1", entity: "ticket", newDst: func() any { return new(TicketRequest) },
			method: "POST", url: "/tickets", body: `{"id":"T-1","title":"t","lazy_body":"b"}`,
			opts: []entity.Option{entity.Version("v1")}, selectLazy: "lazy_body"},
		{name: "ticket v2", entity: "ticket", newDst: func() any { return new(TicketRequest) },
			method: "POST", url: "/tickets", body: `{"id":12,"title":"t"}`,
			opts: []entity.Option{entity.Version("v2")}},
		{name: "query, path, header and cookie", entity: "customerquery", newDst: func() any { return new(CustomerqueryRequest) },
			method: "GET", url: "/customers/42?limit=5&fields=name",
			path: map[string]string{"id": "42"}, header: map[string]string{"X-Role": "admin", "Cookie": "session=abc"}},
		{name: "a tree", entity: "category", newDst: func() any { return new(CategoryRequest) },
			method: "POST", url: "/categories",
			body: `{"name":"root","parent":{"name":"up","parent":null,"children":[]},"children":[{"name":"leaf","children":[]}]}`}, // a nil slice is an empty list: [] round-trips, null does not
	}
	for _, style := range []entity.KeyCaseStyle{entity.AsDeclared, entity.SnakeCase, entity.CamelCase} {
		reg := load(t, style, "shop.entity")
		for _, tt := range tests {
			t.Run(tt.name+"/"+style.String(), func(t *testing.T) {
				e := reg.MustLookup(tt.entity)
				opts := tt.opts
				if tt.selectLazy != "" {
					for _, f := range e.Fields(opts...) {
						if f.Name == tt.selectLazy {
							opts = append(slices.Clip(opts), entity.Select("*,"+f.Key))
						}
					}
				}
				body := tt.body
				if style != entity.AsDeclared { // the body in the wire form: keys in the key case
					body = wireKeys(t, e, body)
				}
				newRequest := func() *http.Request {
					r := httptest.NewRequest(tt.method, tt.url, strings.NewReader(body))
					if body != "" {
						r.Header.Set("Content-Type", "application/json")
					}
					for k, v := range tt.header {
						r.Header.Set(k, v)
					}
					for k, v := range tt.path {
						r.SetPathValue(k, v)
					}
					return r
				}
				o, err := e.MakeRequest(newRequest(), opts...)
				if err != nil {
					t.Fatalf("MakeRequest: %v", err)
				}
				dst := tt.newDst()
				if err := e.Bind(newRequest(), dst, opts...); err != nil {
					t.Fatalf("Bind: %v", err)
				}
				made, err := e.MakeJSON(dst, opts...)
				if err != nil {
					t.Fatalf("Make of the bound %T: %v", dst, err)
				}
				var got any
				if err := json.Unmarshal(made, &got); err != nil {
					t.Fatal(err)
				}
				dropReadOnly(e.Fields(opts...), got)
				resp, err := e.MakeJSON(o, opts...) // the response form: no writeonly value, lazy fields as the call selects them
				if err != nil {
					t.Fatal(err)
				}
				var want any
				if err := json.Unmarshal(resp, &want); err != nil {
					t.Fatal(err)
				}
				dropReadOnly(e.Fields(opts...), want)
				entitytest.Equal(t, got, want)
			})
		}
	}
}

// wireKeys returns body, written with the declared names, with the keys
// a request of e reads: each field's Key in the request view.
func wireKeys(t *testing.T, e *entity.Entity, body string) string {
	t.Helper()
	if body == "" {
		return ""
	}
	var v any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rekey(e.RequestFields(), v))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func rekey(fs []*entity.Field, v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for _, f := range fs {
		val, ok := m[f.Name]
		if !ok {
			continue
		}
		switch f.Kind {
		case dsl.FieldGroup:
			val = rekey(f.Fields, val)
		case dsl.FieldRef:
			if l, isList := val.([]any); isList {
				for i := range l {
					l[i] = rekey(f.Entity().RequestFields(), l[i])
				}
			} else {
				val = rekey(f.Entity().RequestFields(), val)
			}
		}
		out[f.Key] = val
	}
	return out
}

// dropReadOnly deletes from v, a response of fields, the keys of the
// readonly fields, at every depth.
func dropReadOnly(fs []*entity.Field, v any) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	for _, f := range fs {
		switch {
		case f.ReadOnly:
			delete(m, f.Key)
		case f.Kind == dsl.FieldGroup:
			dropReadOnly(f.Fields, m[f.Key])
		case f.Kind == dsl.FieldRef:
			if l, isList := m[f.Key].([]any); isList {
				for _, el := range l {
					dropReadOnly(f.Entity().Fields(), el)
				}
			} else {
				dropReadOnly(f.Entity().Fields(), m[f.Key])
			}
		}
	}
}

// TestGeneratedNamesRoundTrip: Go names that clash (user_id and userId
// are both UserID) and names that are no Go words keep their json tags, so
// that Bind then Make keeps every value.
func TestGeneratedNamesRoundTrip(t *testing.T) {
	e := load(t, entity.AsDeclared, "naming.entity").MustLookup("naming")
	body := `{"user_id":1,"userId":2,"URL":"https://example.com","homepage":"h","HTTPServer":"s","first name":"f"}`
	r := httptest.NewRequest("POST", "/naming", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	var n NamingRequest
	if err := e.Bind(r, &n); err != nil {
		t.Fatal(err)
	}
	if n.UserID == nil || *n.UserID != 1 || n.UserID2 == nil || *n.UserID2 != 2 {
		t.Errorf("UserID %v, UserID2 %v; want 1 and 2", n.UserID, n.UserID2)
	}
	made, err := e.MakeJSON(n)
	if err != nil {
		t.Fatal(err)
	}
	entitytest.Equal(t, made, body)
}

// TestGeneratedTypesHoldTheDeclaredTypes: the Go types of the fields, as
// the declarations ask them, through reflection of the generated code.
func TestGeneratedTypesHoldTheDeclaredTypes(t *testing.T) {
	tests := []struct {
		name  string
		value any
		field string
		want  string
	}{
		{"a req number", Order{}, "CustomerID", "int64"},
		{"a readonly number", Order{}, "ID", "*int64"},
		{"a default string", Order{}, "Status", "string"},
		{"a typed list of references", Order{}, "Items", "[]shop.Item"},
		{"the request's references", OrderRequest{}, "Items", "[]shop.ItemRequest"},
		{"a nullable reference", Order{}, "Ship", "*shop.Address"},
		{"a req reference", Customer{}, "Address", "shop.Address"},
		{"a list", Order{}, "Notes", "[]interface {}"},
		{"an object", Order{}, "Meta", "map[string]interface {}"},
		{"none", Order{}, "Extra", "interface {}"},
		{"a date", Customer{}, "CreatedAt", "*time.Time"},
		{"a float", Item{}, "Price", "*float64"},
		{"a group's field beside its siblings", Customer{}, "Newsletter", "bool"},
		{"a typed list", Customer{}, "Tags", "[]string"},
		{"versions of one key", Ticket{}, "ID", "interface {}"},
		{"a writeonly field in the request", CustomerRequest2{}, "Password", "string"},
		{"a from path", Profile{}, "Home", "struct { Address struct { City *string \"json:\\\"city\\\"\"; Zip *string \"json:\\\"zip\\\"\" } \"json:\\\"address\\\"\" }"},
		{"a from path's index", Profile{}, "Orders", "[]struct { Sku *string \"json:\\\"sku\\\"\" }"},
		{"a self reference", Category{}, "Parent", "*shop.Category"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sf, ok := reflect.TypeOf(tt.value).FieldByName(tt.field)
			if !ok {
				t.Fatalf("%T has no field %s", tt.value, tt.field)
			}
			if got := sf.Type.String(); got != tt.want {
				t.Errorf("%T.%s is a %s, want %s", tt.value, tt.field, got, tt.want)
			}
		})
	}
	for _, tt := range []struct {
		name  string
		value any
		field string
	}{
		{"no writeonly field in the response", Customer{}, "Password"},
		{"no readonly field in the request", CustomerRequest2{}, "ID"},
		{"no readonly group-less field in the request", CustomerRequest2{}, "CreatedAt"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := reflect.TypeOf(tt.value).FieldByName(tt.field); ok {
				t.Errorf("%T has a field %s", tt.value, tt.field)
			}
		})
	}
}
