package entity_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestDenyUnknownRefusesHiddenKeysAtEveryDepth: with DenyUnknown "a key
// the call does not see (flags, versions, readonly keys of hidden fields,
// query fields hidden by a flag) is unknown, at every depth": in groups,
// references, lists of references, merged references, for value fields,
// groups and references alike, on MakeRequest, Patch and Make; a key the
// call sees (its flag set, its version) is not.
func TestDenyUnknownRefusesHiddenKeysAtEveryDepth(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	expose(t, reg, "leaf", "v", "string", "", "hx", "string", "if 'admin'", "hv", "string", "since 'v2'", "hr", "string", "readonly | if 'admin'")
	expose(t, reg, "mid", "g", "{", "", "l", "$leaf", "", "gx", "string", "if 'admin'", "g", "}", "", "ls", "[]$leaf", "")
	expose(t, reg, "mg", "mv", "string", "", "mx", "string", "if 'admin'", "mold", "string", "until 'v2'")
	e := expose(t, reg, "top",
		"name", "string", "",
		"g", "{", "", "x", "string", "if 'admin'", "y", "string", "", "g", "}", "",
		"hg", "{", "if 'admin'", "z", "string", "", "hg", "}", "",
		"vg", "{", "since 'v2'", "z2", "string", "", "vg", "}", "",
		"rg", "{", "readonly | if 'admin'", "rz", "string", "", "rg", "}", "",
		"l", "$leaf", "",
		"hl", "$leaf", "if 'admin'",
		"ls", "[]$leaf", "",
		"m", "$mid", "",
		"mm", "$mg", "merge",
		"wo", "string", "writeonly | if 'admin'",
		"k", "string", "until 'v2'",
		"k", "number", "since 'v3'",
	)
	tests := []struct {
		name string
		body string
		opts []entity.Option
		want string // the Path of the one unknown key; "" for none
	}{
		{"a group's field a flag hides", `{"g":{"x":"1"}}`, nil, "g.x"},
		{"a group's field its flag shows", `{"g":{"x":"1"}}`, []entity.Option{entity.With("admin")}, ""},
		{"a group a flag hides", `{"hg":{"z":"1"}}`, nil, "hg"},
		{"a group of a later version", `{"vg":{"z2":"1"}}`, []entity.Option{entity.Version("v1")}, "vg"},
		{"a group of its version", `{"vg":{"z2":"1"}}`, []entity.Option{entity.Version("v2")}, ""},
		{"a readonly group a flag hides", `{"rg":{"rz":"1"}}`, nil, "rg"},
		{"a readonly group its flag shows", `{"rg":{"rz":"1"}}`, []entity.Option{entity.With("admin")}, ""},
		{"a reference a flag hides", `{"hl":{"v":"1"}}`, nil, "hl"},
		{"a reference's field a flag hides", `{"l":{"hx":"1"}}`, nil, "l.hx"},
		{"a reference's field of a later version", `{"l":{"hv":"1"}}`, []entity.Option{entity.Version("v1")}, "l.hv"},
		{"a reference's readonly field a flag hides", `{"l":{"hr":"1"}}`, nil, "l.hr"},
		{"a list element's field a flag hides", `{"ls":[{"v":"a"},{"hx":"1"}]}`, nil, "ls[1].hx"},
		{"a list element's field of a later version", `{"ls":[{"hv":"1"}]}`, []entity.Option{entity.Version("v1.5")}, "ls[0].hv"},
		{"deep: ref, group, ref", `{"m":{"g":{"l":{"hx":"1"}}}}`, nil, "m.g.l.hx"},
		{"deep: ref, group", `{"m":{"g":{"gx":"1"}}}`, nil, "m.g.gx"},
		{"deep: ref, list, field", `{"m":{"ls":[{"hr":"1"}]}}`, nil, "m.ls[0].hr"},
		{"a merged reference's field a flag hides", `{"mx":"1"}`, nil, "mx"},
		{"a merged reference's field of an earlier version", `{"mold":"1"}`, []entity.Option{entity.Version("v3")}, "mold"},
		{"a merged reference's field its version shows", `{"mold":"1"}`, []entity.Option{entity.Version("v1")}, ""},
		{"a writeonly field a flag hides", `{"wo":"1"}`, nil, "wo"},
		{"a key of no range of the call's version", `{"k":"1"}`, []entity.Option{entity.Version("v2.5")}, "k"},
		{"a key of the call's version range", `{"k":"1"}`, []entity.Option{entity.Version("v1")}, ""},
	}
	calls := map[string]func(body string, opts []entity.Option) error{
		"MakeRequest": func(body string, opts []entity.Option) error {
			_, err := e.MakeRequest(bindRequest("POST", "/", body), opts...)
			return err
		},
		"Patch": func(body string, opts []entity.Option) error {
			_, _, err := e.Patch(patchRequest(body), nil, opts...)
			return err
		},
		"Make": func(body string, opts []entity.Option) error {
			_, err := e.Make([]byte(body), opts...)
			return err
		},
	}
	for _, tt := range tests {
		for what, call := range calls {
			if what == "Make" && (strings.Contains(tt.name, "readonly") || strings.Contains(tt.name, "merged") || strings.Contains(tt.name, "writeonly") || strings.Contains(tt.name, "group")) {
				continue // a response reads those by another form (a group's fields beside their siblings)
			}
			t.Run(tt.name+"/"+what, func(t *testing.T) {
				err := call(tt.body, append(slices.Clone(tt.opts), entity.DenyUnknown()))
				if tt.want == "" {
					if err != nil {
						t.Errorf("%s of %s: %v, want no error (the call sees the key)", what, tt.body, err)
					}
					return
				}
				if err == nil {
					t.Fatalf("%s of %s with DenyUnknown succeeded, want %s unknown", what, tt.body, tt.want)
				}
				fes := fieldErrors(t, err)
				if len(fes) != 1 || fes[0].Code != "unknown" || fes[0].Path != tt.want {
					t.Errorf("%s of %s: %v, want one unknown key at %s", what, tt.body, err, tt.want)
				}
			})
		}
	}
}

// TestPatchDenyUnknownRefusesOnlyThePatchKeys: Patch's errors "are
// MakeRequest's": with DenyUnknown, a key is unknown when the patch sends
// it and the call does not see it; a field the patch does not send (a
// group of a later version, a key of no range of the call's version) is
// no unknown key of the client's, whatever current holds.
func TestPatchDenyUnknownRefusesOnlyThePatchKeys(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "p",
		"n", "string", "",
		"old", "string", "until 'v2'",
		"vg", "{", "since 'v2'", "z", "string", "", "vg", "}", "",
		"k", "string", "until 'v2'",
		"k", "number", "since 'v3'",
	)
	tests := []struct {
		name    string
		current any
		opts    []entity.Option
	}{
		{"v1, no current", nil, []entity.Option{entity.Version("v1")}},
		{"v2.5, no current", nil, []entity.Option{entity.Version("v2.5")}},
		{"v3, no current", nil, []entity.Option{entity.Version("v3")}},
		{"v1, a current value", map[string]any{"n": "a", "old": "o", "z": "zz", "k": "1"}, []entity.Option{entity.Version("v1")}},
		{"v3, a current value", map[string]any{"n": "a", "old": "o", "z": "zz", "k": 1}, []entity.Option{entity.Version("v3")}},
		{"no version", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(`{"n":"x"}`), tt.current, append(slices.Clone(tt.opts), entity.DenyUnknown())...)
			if err != nil {
				t.Errorf("Patch of {\"n\":\"x\"} with DenyUnknown: %v, want no error (the patch sends only n)", err)
				return
			}
			if v, _ := o.Get("n"); v != "x" {
				t.Errorf("Patch: n = %v, want x", v)
			}
		})
	}
}

// TestDenyUnknownRefusesAHiddenQueryField: a query field a flag hides is
// unknown, with a body and without, and under a version it is not of.
func TestDenyUnknownRefusesAHiddenQueryField(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	e := expose(t, reg, "q",
		"name", "string", "",
		"qa", "string", "query | if 'admin'",
		"qv", "string", "query | since 'v2'",
		"qn", "string", "query 'page-size' | unless 'admin'",
	)
	tests := []struct {
		name string
		r    func() *http.Request
		opts []entity.Option
		want string
	}{
		{"hidden by a flag, with a body", func() *http.Request { return bindRequest("POST", "/?qa=1", `{"name":"n"}`) }, nil, "qa"},
		{"hidden by a flag, GET", func() *http.Request { return bindRequest("GET", "/?qa=1", "") }, nil, "qa"},
		{"of a later version", func() *http.Request { return bindRequest("GET", "/?qv=1", "") }, []entity.Option{entity.Version("v1")}, "qv"},
		{"renamed, hidden by unless", func() *http.Request { return bindRequest("GET", "/?page-size=1", "") }, []entity.Option{entity.With("admin")}, "page-size"},
		{"renamed, shown", func() *http.Request { return bindRequest("GET", "/?page-size=1", "") }, nil, ""},
		{"shown by its flag", func() *http.Request { return bindRequest("POST", "/?qa=1", `{"name":"n"}`) }, []entity.Option{entity.With("admin")}, ""},
		{"the body key of a query field", func() *http.Request { return bindRequest("POST", "/", `{"qa":"1"}`) }, []entity.Option{entity.With("admin")}, "qa"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.MakeRequest(tt.r(), append(slices.Clone(tt.opts), entity.DenyUnknown())...)
			if tt.want == "" {
				if err != nil {
					t.Errorf("MakeRequest: %v, want no error", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("MakeRequest with DenyUnknown succeeded, want %s unknown", tt.want)
			}
			fes := fieldErrors(t, err)
			if len(fes) != 1 || fes[0].Code != "unknown" || fes[0].Path != tt.want {
				t.Errorf("MakeRequest: %v, want one unknown key %s", err, tt.want)
			}
		})
	}
}
