package entity_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// What one call sees: its flags, its version and its direction decide
// which fields exist for it, for its selection, its DenyUnknown and its
// error messages alike.

// TestDenyUnknownWithFromAndFlags: with DenyUnknown on server data, a key
// hidden by the call's flags is unknown whatever other fields read (from
// paths included); a key read only inside an object a group reads `from`
// is no key of the top level; the unknown key reported is the input's.
func TestDenyUnknownWithFromAndFlags(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	e := expose(t, reg, "u",
		"name", "string", "",
		"lat", "float", "from 'geo.lat'",
		"score", "number", "if 'admin'",
		"place", "{", "from 'addr'",
		"city", "string", "",
		"place", "}", "",
	)
	tests := []struct {
		name  string
		in    map[string]any
		opts  []entity.Option
		fails string
	}{
		{"a hidden field's key is unknown", map[string]any{"name": "n", "score": 1}, nil, "score unknown"},
		{"shown to a flagged call", map[string]any{"name": "n", "score": 1}, []entity.Option{entity.With("admin")}, ""},
		{"a key only a from group reads inside its object", map[string]any{"city": "x", "addr": map[string]any{"city": "y"}}, nil, "city unknown"},
		{"the from path's first key is read", map[string]any{"geo": map[string]any{"lat": 1.5}, "addr": map[string]any{}}, nil, ""},
		{"the field's own name is no input key", map[string]any{"lat": 1.5}, nil, "lat unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.MakeJSON(tt.in, append(tt.opts, entity.DenyUnknown())...)
			var got []string
			for _, f := range fieldErrorsOrNone(err) {
				got = append(got, f.Path+" "+f.Code)
			}
			if strings.Join(got, ",") != tt.fails {
				t.Errorf("got %q (%v), want %q", got, err, tt.fails)
			}
		})
	}
}

// versionRegistry declares an entity whose key "total" is a number until
// v2 and a group since, and a recursive reference shared by two version
// ranges.
func versionRegistry(t testing.TB) *entity.Entity {
	t.Helper()
	reg := entity.NewRegistry()
	return expose(t, reg, "order",
		"id", "number", "",
		"total", "number", "until 'v2'",
		"total", "{", "since 'v2'",
		"amount", "number", "",
		"total", "}", "",
		"note", "string", "since 'v3'",
		"kid", "$order", "until 'v2'",
		"kid", "$order", "since 'v2'",
	)
}

// TestSelectSeesTheCallsVersion: a call's Select names the fields of its
// version only; a bad selection lists those; a sub-selection of a field
// that is a scalar in the call's version is a 400.
func TestSelectSeesTheCallsVersion(t *testing.T) {
	e := versionRegistry(t)
	in := map[string]any{"id": 1, "total": 5, "amount": 5, "note": "n"}
	tests := []struct {
		name, spec, ver string
		want            string // the output, or "!" and a part of the error
	}{
		{"a v3 field in a v1 call", "id,note", "v1", `!no field here has that name (there are "id", "total", "kid")`},
		{"listed without it", "nope", "v1", `!(there are "id", "total", "kid")`},
		{"a v3 field in a v3 call", "id,note", "v3", `{"id":1,"note":"n"}`},
		{"a sub-selection of a v1 scalar", "id,total(amount)", "v1", `!it has no fields to select`},
		{"a sub-selection of the v2 group", "id,total(amount)", "v2", `{"id":1,"total":{"amount":5}}`},
		{"without a version, the latest", "total(amount)", "", `{"total":{"amount":5}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := []entity.Option{entity.Select(tt.spec)}
			if tt.ver != "" {
				opts = append(opts, entity.Version(tt.ver))
			}
			out, err := e.MakeJSON(in, opts...)
			if w, bad := strings.CutPrefix(tt.want, "!"); bad {
				var ie *entity.InputError
				if !errors.As(err, &ie) || ie.StatusCode() != 400 || !strings.Contains(err.Error(), w) {
					t.Errorf("got %s, %v; want a 400 saying %s", out, err, w)
				}
				return
			}
			if err != nil || string(out) != tt.want {
				t.Errorf("got %s, %v; want %s", out, err, tt.want)
			}
		})
	}
}

// TestSelectLinearOnSharedRecursiveRef: a selection down a recursive
// $ref whose key two version ranges share compiles in time linear in its
// length (it doubled at each level: a spec of 200 levels would never
// end).
func TestSelectLinearOnSharedRecursiveRef(t *testing.T) {
	e := versionRegistry(t)
	for _, ver := range []string{"", "v1", "v2"} {
		spec := strings.Repeat("kid/", 60) + "id," + strings.Repeat("kid(", 60) + "id" + strings.Repeat(")", 60)
		opts := []entity.Option{entity.Select(spec)}
		if ver != "" {
			opts = append(opts, entity.Version(ver))
		}
		if _, err := e.MakeJSON(map[string]any{"id": 1}, opts...); err != nil {
			t.Errorf("version %q: %v", ver, err)
		}
		only := entity.Only(strings.Repeat("kid.", 60) + "id")
		if _, err := e.MakeJSON(map[string]any{"id": 1}, only); err != nil {
			t.Errorf("Only, version %q: %v", ver, err)
		}
	}
}
