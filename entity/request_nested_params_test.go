package entity_test

import (
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
)

// A request's parameters (path, query, header, cookie) are its top
// level's. An entity read below the top level (a $name's object, a
// []$name's element, one merged into a group) has its parameter fields
// as the server's, as readonly fields are: a request never reads them
// (nor judges them: a `req` one is not required there), a key for one
// in the body is ignored (DenyUnknown accepts it, as it accepts a
// readonly key), and a patch keeps their stored values.

// nestedParamsEntity is a holder of accounts, whose id is a path
// parameter and whose tenant a header: "owner" a $account, "others" a
// []$account, "meta" a group merging one.
func nestedParamsEntity(t testing.TB) *entity.Entity {
	t.Helper()
	reg := entity.NewRegistry()
	expose(t, reg, "account", "id", "number", "path | req | min 1", "X-Tenant", "string", "req", "name", "string", "")
	return expose(t, reg, "holder",
		"name", "string", "",
		"owner", "$account", "",
		"others", "[]$account", "",
		"meta", "{", "",
		"acct", "$account", "merge",
		"meta", "}", "",
	)
}

func TestRequestReadsNoParameterOfANestedObject(t *testing.T) {
	e := nestedParamsEntity(t)
	tests := []struct {
		name, body string
		want       map[string]any
	}{
		{"no key of a nested parameter", `{"name":"h","owner":{"name":"a"},"others":[{"name":"b"}],"meta":{"name":"c"}}`,
			map[string]any{"name": "h", "owner": map[string]any{"name": "a"}, "others": []any{map[string]any{"name": "b"}}, "meta": map[string]any{"name": "c"}}},
		{"the parameters' keys in the body, ignored", `{"name":"h","owner":{"id":9,"X-Tenant":"evil","name":"a"},"others":[{"id":9,"X-Tenant":"evil","name":"b"}],"meta":{"id":9,"X-Tenant":"evil","name":"c"}}`,
			map[string]any{"name": "h", "owner": map[string]any{"name": "a"}, "others": []any{map[string]any{"name": "b"}}, "meta": map[string]any{"name": "c"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/holders/7", strings.NewReader(tt.body))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("X-Tenant", "t1")
			r.SetPathValue("id", "7")
			o, err := e.MakeRequest(r, entity.DenyUnknown())
			if err != nil {
				t.Fatalf("MakeRequest: %v; want no error (a nested object's parameters are not the request's)", err)
			}
			if got := o.Map(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("MakeRequest = %#v, want %#v", got, tt.want)
			}
		})
	}
}

// TestBindLeavesTheParametersOfANestedObject: Bind of a request sets no
// parameter field of a nested object, which the request does not read.
func TestBindLeavesTheParametersOfANestedObject(t *testing.T) {
	e := nestedParamsEntity(t)
	type account struct {
		ID     int64  `json:"id"`
		Tenant string `json:"X-Tenant"`
		Name   string `json:"name"`
	}
	type holder struct {
		Name  string  `json:"name"`
		Owner account `json:"owner"`
	}
	dst := holder{Name: "old", Owner: account{ID: 7, Tenant: "t1", Name: "a"}}
	r := httptest.NewRequest("POST", "/holders", strings.NewReader(`{"name":"h","owner":{"id":9,"X-Tenant":"evil","name":"b"}}`))
	r.Header.Set("Content-Type", "application/json")
	if err := e.Bind(r, &dst); err != nil {
		t.Fatalf("Bind: %v", err)
	}
	want := holder{Name: "h", Owner: account{ID: 7, Tenant: "t1", Name: "b"}}
	if dst != want {
		t.Errorf("Bind = %+v, want %+v", dst, want)
	}
}

// TestPatchKeepsTheParametersOfANestedObject: a patch keeps the stored
// values of a nested object's parameter fields, whatever keys it sends;
// a list it replaces holds none (read as a request reads it).
func TestPatchKeepsTheParametersOfANestedObject(t *testing.T) {
	e := nestedParamsEntity(t)
	acct := func(name string) map[string]any { return map[string]any{"id": 7, "X-Tenant": "t1", "name": name} }
	// (server data: a group reads its parent's keys, so meta's merged
	// account is the holder's acct)
	stored := func() map[string]any {
		return map[string]any{"name": "h", "acct": acct("c"), "owner": acct("a"), "others": []any{acct("b")}}
	}
	kept := func(name string) map[string]any {
		return map[string]any{"id": int64(7), "X-Tenant": "t1", "name": name}
	}
	tests := []struct {
		name, patch string
		want        map[string]any
	}{
		{"a patch of other keys", `{"name":"new"}`,
			map[string]any{"name": "new", "owner": kept("a"), "others": []any{kept("b")}, "meta": kept("c")}},
		{"a patch of the nested objects", `{"owner":{"name":"a2"},"meta":{"name":"c2"}}`,
			map[string]any{"name": "h", "owner": kept("a2"), "others": []any{kept("b")}, "meta": kept("c2")}},
		{"the parameters' keys in the patch, ignored", `{"owner":{"id":9,"X-Tenant":"evil"},"meta":{"id":9,"X-Tenant":null}}`,
			map[string]any{"name": "h", "owner": kept("a"), "others": []any{kept("b")}, "meta": kept("c")}},
		{"a list replaced", `{"others":[{"id":9,"name":"b2"}]}`,
			map[string]any{"name": "h", "owner": kept("a"), "others": []any{map[string]any{"name": "b2"}}, "meta": kept("c")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := patchRequest(tt.patch)
			r.Header.Set("X-Tenant", "sent")
			o, _, err := e.Patch(r, stored(), entity.DenyUnknown())
			if err != nil {
				t.Fatalf("Patch: %v; want no error", err)
			}
			if diff := cmp.Diff(tt.want, o.Map()); diff != "" {
				t.Errorf("Patch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRequestReadsTheParametersOfATopLevelMerge: an entity merged at the
// top level is the top level: its parameters are the request's.
func TestRequestReadsTheParametersOfATopLevelMerge(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "account", "id", "number", "path | req | min 1", "X-Tenant", "string", "req", "name", "string", "")
	e := expose(t, reg, "doc", "title", "string", "", "acct", "$account", "merge")
	r := httptest.NewRequest("POST", "/docs/7", strings.NewReader(`{"title":"t","name":"n"}`))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-Tenant", "t1")
	r.SetPathValue("id", "7")
	o, err := e.MakeRequest(r)
	if err != nil {
		t.Fatalf("MakeRequest: %v", err)
	}
	want := map[string]any{"title": "t", "id": int64(7), "X-Tenant": "t1", "name": "n"}
	if got := o.Map(); !reflect.DeepEqual(got, want) {
		t.Errorf("MakeRequest = %#v, want %#v", got, want)
	}
	r = httptest.NewRequest("POST", "/docs", strings.NewReader(`{"title":"t"}`))
	r.Header.Set("Content-Type", "application/json")
	_, err = e.MakeRequest(r)
	if fes := fieldErrorsOrNone(err); len(fes) != 2 {
		t.Errorf("MakeRequest without the parameters: %v; want id and X-Tenant required", fes)
	}
}
