package entity_test

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
)

// patchSourcesEntity has a field of every source: a PATCH /accounts/{id}
// reads them from the request as MakeRequest does.
func patchSourcesEntity(t testing.TB) *entity.Entity {
	t.Helper()
	return expose(t, entity.NewRegistry(), "account",
		"id", "number", "path",
		"X-Tenant", "string", "",
		"owner", "string", "header 'X-Owner'",
		"sid", "string", "cookie 'sid'",
		"dry", "string", "query",
		"name", "string", "",
	)
}

// patchSourcesRequest is a PATCH of body with every parameter set.
func patchSourcesRequest(body string) *http.Request {
	r := patchRequest(body)
	r.SetPathValue("id", "7")
	r.Header.Set("X-Tenant", "t1")
	r.Header.Set("X-Owner", "ann")
	r.Header.Set("Cookie", "sid=s1")
	q := r.URL.Query()
	q.Set("dry", "yes")
	r.URL.RawQuery = q.Encode()
	return r
}

// TestPatchReadsParameters: Patch judges the merged value "as the entity
// judges a request" and its errors are MakeRequest's: a path, header,
// cookie or query field is read from the request (never from the patch
// body), not dropped to null.
func TestPatchReadsParameters(t *testing.T) {
	e := patchSourcesEntity(t)
	current := map[string]any{"id": 7, "X-Tenant": "t1", "owner": "ann", "sid": "s1", "dry": "yes", "name": "old"}
	want := map[string]any{"id": int64(7), "X-Tenant": "t1", "owner": "ann", "sid": "s1", "dry": "yes"}
	tests := []struct{ name, patch string }{
		{"a body field patched", `{"name":"new"}`},
		{"parameters named in the body", `{"id":1,"X-Tenant":"evil","owner":"evil","sid":"evil","dry":"evil"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchSourcesRequest(tt.patch), current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			for k, w := range want {
				if got, _ := o.Get(k); got != w {
					t.Errorf("%s = %#v, want %#v (the request's); merged: %s", k, got, w, o)
				}
			}
		})
	}
}

// TestPatchDenyUnknownRefusesOnlyWhatWasSent: with DenyUnknown, a patch
// that sends only declared body keys is not refused for a key it never
// sent (the current value's parameter fields, at the top level or in an
// entity it nests, or fields of another version than the call's); what it does send is judged as MakeRequest
// judges it (a query key the entity does not read is unknown).
func TestPatchDenyUnknownRefusesOnlyWhatWasSent(t *testing.T) {
	reg := entity.NewRegistry()
	params := patchSourcesEntity(t)
	versioned := expose(t, reg, "versioned",
		"name", "string", "",
		"nick", "string", "since 'v2'",
		"old", "string", "until 'v2'",
	)
	expose(t, reg, "account", "id", "number", "path", "X-Tenant", "string", "", "name", "string", "")
	holder := expose(t, reg, "holder", "name", "string", "", "inner", "$account", "", "inners", "[]$account", "")
	nested := map[string]any{"id": 7, "X-Tenant": "t1", "name": "in"}
	tests := []struct {
		name    string
		e       *entity.Entity
		r       func(body string) *http.Request
		current map[string]any
		opts    []entity.Option
		unknown string // the one key refused, or ""
	}{
		{"parameter fields", params, patchSourcesRequest, map[string]any{"id": 7, "name": "old"}, nil, ""},
		{"a since-v2 field in a v1 call", versioned, patchRequest, map[string]any{"name": "old", "old": "o"}, []entity.Option{entity.Version("v1")}, ""},
		{"an until-v2 field in a v3 call", versioned, patchRequest, map[string]any{"name": "old", "nick": "n"}, []entity.Option{entity.Version("v3")}, ""},
		{"a query key the entity does not read", versioned, patchSourcesRequest, map[string]any{"name": "old"}, nil, "dry"},
		{"parameter fields of a nested entity", holder, patchRequest, map[string]any{"name": "old", "inner": nested, "inners": []any{nested}}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := tt.e.Patch(tt.r(`{"name":"new"}`), tt.current, append(tt.opts, entity.DenyUnknown())...)
			if tt.unknown == "" {
				if err != nil {
					t.Errorf(`Patch of {"name":"new"} with DenyUnknown: %v; want no error (the client sent no unknown key)`, err)
				}
				return
			}
			if fes := fieldErrorsOrNone(err); len(fes) != 1 || fes[0].Path != tt.unknown || fes[0].Code != "unknown" {
				t.Errorf(`Patch of {"name":"new"} with DenyUnknown: %v; want %s unknown, as MakeRequest answers`, err, tt.unknown)
			}
		})
	}
}

// TestPatchKeepsAReadonlyObjectAsStored: a readonly $name's object is
// the server's, taken as stored, its parameter fields' values with it (no
// request fills them there), while the top level's parameters are the
// request's.
func TestPatchKeepsAReadonlyObjectAsStored(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "account", "id", "number", "path", "X-Tenant", "string", "", "name", "string", "")
	e := expose(t, reg, "holder", "name", "string", "", "X-Tenant", "string", "", "owner", "$account", "readonly")
	current := map[string]any{"name": "old", "X-Tenant": "stored", "owner": map[string]any{"id": 7, "X-Tenant": "t1", "name": "in"}}
	r := patchRequest(`{"name":"new","owner":{"X-Tenant":"evil"}}`)
	r.Header.Set("X-Tenant", "sent")
	o, _, err := e.Patch(r, current, entity.DenyUnknown())
	if err != nil {
		t.Fatalf("Patch: %v", err)
	}
	want := map[string]any{"name": "new", "X-Tenant": "sent", "owner": map[string]any{"id": int64(7), "X-Tenant": "t1", "name": "in"}}
	if got := o.Map(); !reflect.DeepEqual(got, want) {
		t.Errorf("merged = %#v, want %#v", got, want)
	}
}

// TestPatchTakesAReadonlyParameterAsStored: a readonly parameter field is
// the server's, as any readonly value: a patch takes it from the current
// value, never from the request (which a request never reads it from),
// and its key in the patch is ignored, as a readonly key is.
func TestPatchTakesAReadonlyParameterAsStored(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "doc", "name", "string", "", "X-Trace", "string", "readonly", "sid", "string", "cookie | readonly")
	r := patchRequest(`{"name":"n","X-Trace":null,"sid":"evil"}`)
	r.Header.Set("X-Trace", "evil")
	r.Header.Set("Cookie", "sid=evil")
	o, _, err := e.Patch(r, map[string]any{"name": "old", "X-Trace": "t1", "sid": "s1"}, entity.DenyUnknown())
	if err != nil {
		t.Fatalf("Patch: %v", err)
	}
	for k, want := range map[string]any{"name": "n", "X-Trace": "t1", "sid": "s1"} {
		if got, _ := o.Get(k); got != want {
			t.Errorf("%s = %v, want %v (merged: %s)", k, got, want, o)
		}
	}
}

// TestPatchTakesAReadonlyMergedRefAsStored: the keys of a readonly merged
// $name are the server's, its parameter fields' too, taken from the
// current value as a readonly parameter of the top level is: the
// request's parameters of those names, and the patch's keys, are ignored;
// DenyUnknown knows the stored keys, and judges the patch's as a POST
// does (no body key reads a parameter).
func TestPatchTakesAReadonlyMergedRefAsStored(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "origin", "kid", "number", "query", "day", "string", "header 'X-Day'", "role", "string", "")
	e := expose(t, reg, "doc", "zip", "$origin", "merge | readonly", "k", "number", "query | readonly", "n", "number", "")
	current := map[string]any{"zip": map[string]any{"kid": 12, "day": "d", "role": "r"}, "k": 5, "n": 1}
	tests := []struct{ name, patch, unknown string }{
		{"a patch of another field", `{"n":2}`, ""},
		{"a patch naming the stored keys", `{"n":2,"kid":1,"day":"evil","role":"evil","k":9}`, "day kid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := patchRequest(tt.patch)
			r.Header.Set("X-Day", "sent")
			q := r.URL.Query()
			q.Set("kid", "3")
			r.URL.RawQuery = q.Encode()
			o, _, err := e.Patch(r, current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			want := map[string]any{"kid": int64(12), "day": "d", "role": "r", "k": int64(5), "n": int64(2)}
			if got := o.Map(); !reflect.DeepEqual(got, want) {
				t.Errorf("merged = %#v, want %#v", got, want)
			}
			r = patchRequest(tt.patch)
			_, _, err = e.Patch(r, current, entity.DenyUnknown())
			var unknown []string
			if ve := (*entity.ValidationError)(nil); errors.As(err, &ve) {
				for _, f := range ve.Fields {
					unknown = append(unknown, f.Path+":"+f.Code)
				}
			} else if err != nil {
				t.Fatalf("Patch with DenyUnknown: %v", err)
			}
			var wantUnknown []string
			for _, k := range strings.Fields(tt.unknown) {
				wantUnknown = append(wantUnknown, k+":unknown")
			}
			slices.Sort(unknown)
			if strings.Join(unknown, " ") != strings.Join(wantUnknown, " ") {
				t.Errorf("Patch with DenyUnknown: %v, want %v", err, wantUnknown)
			}
		})
	}
}

// TestPatchGivesNoWriteOnlyParameterOfANestedObject: a nested object's
// parameter field is the server's (the request's parameters are the top
// level's), so a patch never gives a writeonly one there: it is not
// required, and no cross-field rule naming it is judged, as for any
// writeonly field the patch does not give. At the top level it is read
// from the request.
func TestPatchGivesNoWriteOnlyParameterOfANestedObject(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "opts", "id", "number", "path 'pid' | req", "tok", "string", "header 'X-Tok' | writeonly")
	expose(t, reg, "item", "login", "string", "", "o", "$opts", "writeonly | merge")
	expose(t, reg, "tokens", "tok", "string", "header 'X-Tok' | writeonly", "n", "string", "required_without 'tok'")
	e := expose(t, reg, "doc", "list", "[]$item", "", "sub", "$tokens", "", "o", "$opts", "writeonly | merge")
	current := map[string]any{"list": []any{map[string]any{"login": "a"}}, "sub": map[string]any{"n": nil}} // list[0] holds no id: not required
	r := patchRequest(`{"sub":{"tok":"body"}}`)
	r.SetPathValue("pid", "3")
	r.Header.Set("X-Tok", "t")
	o, _, err := e.Patch(r, current)
	if err != nil {
		t.Fatalf("Patch: %v", err)
	}
	if got, _ := o.Get("id"); got != int64(3) {
		t.Errorf("the top level's id = %v, want 3, the request's (merged %s)", got, o)
	}
	if _, _, err := e.Patch(patchRequest(`{}`), current); err == nil || !strings.Contains(err.Error(), "pid") || strings.Contains(err.Error(), "required_without") {
		t.Errorf("Patch without the path value: %v, want the top level's id required, and nothing else", err)
	}
}

// TestPatchReadsTheParametersOfAMergeOfAMerge: an entity merged at the
// top level through another one merged there is the top level too: a
// patch reads its parameters from the request, a writeonly merge's as
// well (though the patch gives none of its keys); a readonly merge's are
// the stored ones, whose keys DenyUnknown knows at every depth.
func TestPatchReadsTheParametersOfAMergeOfAMerge(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "inner", "id", "number", "path", "pn", "string", "")
	expose(t, reg, "mid", "m", "string", "", "pp", "$inner", "merge")
	current := map[string]any{"t": "a", "mm": map[string]any{"m": "b", "pp": map[string]any{"id": 7, "pn": "c"}}}
	tests := []struct {
		name, rules string
		want        map[string]any
	}{
		{"a merge", "merge", map[string]any{"t": "x", "m": "b", "id": int64(5), "pn": "c"}},
		{"a readonly merge", "merge | readonly", map[string]any{"t": "x", "m": "b", "id": int64(7), "pn": "c"}},
		{"a writeonly merge", "merge | writeonly", map[string]any{"t": "x", "id": int64(5)}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := expose(t, reg, fmt.Sprintf("outer%d", i), "t", "string", "", "mm", "$mid", tt.rules)
			r := patchRequest(`{"t":"x"}`)
			r.SetPathValue("id", "5")
			o, _, err := e.Patch(r, current, entity.DenyUnknown())
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if diff := cmp.Diff(tt.want, o.Map()); diff != "" {
				t.Errorf("Patch (-want +got):\n%s", diff)
			}
		})
	}
}
