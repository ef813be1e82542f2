package entity_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestPatchReadsReferencesAsARequestDoes: the merged value is judged as a
// request: a null element of a []$line is a type error at its index, and
// a list for a $name (one object) a type error at its key, as MakeRequest
// answers for the same body.
func TestPatchReadsReferencesAsARequestDoes(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "line", "sku", "string", "req", "qty", "number", "range 1 10")
	e := expose(t, reg, "order",
		"items", "[]$line", "",
		"ship", "$line", "",
	)
	current := map[string]any{"items": []any{map[string]any{"sku": "a", "qty": 1}}}
	tests := []struct{ name, patch, path string }{
		{"a null element of a []$line", `{"items":[null]}`, "items[0]"},
		{"a null element after a good one", `{"items":[{"sku":"a"},null]}`, "items[1]"},
		{"a list for a $name", `{"ship":[]}`, "ship"},
		{"a list of objects for a $name", `{"ship":[{"sku":"a"}]}`, "ship"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, reqErr := e.MakeRequest(bindRequest("POST", "/", tt.patch))
			if reqErr == nil {
				t.Fatalf("MakeRequest of %s: no error; the case expects a type error", tt.patch)
			}
			o, _, err := e.Patch(patchRequest(tt.patch), current)
			if err == nil {
				t.Fatalf("Patch of %s = %s, want a type error at %s (MakeRequest: %v)", tt.patch, o, tt.path, reqErr)
			}
			fes := fieldErrors(t, err)
			if len(fes) != 1 || fes[0].Path != tt.path || fes[0].Code != "type" {
				t.Errorf("Patch of %s: %v, want one type error at %s", tt.patch, err, tt.path)
			}
		})
	}
}

// TestPatchRequiresWriteOnlyInWhatItGivesWhole: a list the patch gives
// replaces the current one whole, and so does a $name's object where the
// current value holds none: the server holds no writeonly value of
// theirs, so they are read as MakeRequest reads them, and a writeonly
// req field inside is required, as a POST requires it. Where the patch
// merges into an object the server holds, or leaves a list as it is, the
// server's writeonly values stay and are not required.
func TestPatchRequiresWriteOnlyInWhatItGivesWhole(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "member", "name", "string", "", "pin", "string", "writeonly | req",
		"g", "{", "", "key", "string", "writeonly | req", "g", "}", "")
	e := expose(t, reg, "team",
		"title", "string", "",
		"members", "[]$member", "",
		"lead", "$member", "",
	)
	stored := map[string]any{"title": "t", "members": []any{map[string]any{"name": "a"}}, "lead": map[string]any{"name": "l"}}
	tests := []struct {
		name    string
		current map[string]any
		patch   string
		fails   []string // the paths required, in order; none when the patch passes
	}{
		{"a replaced list's element without them", stored, `{"members":[{"name":"b"}]}`, []string{"members[0].pin", "members[0].g.key"}},
		{"a replaced list's second element", stored, `{"members":[{"name":"b","pin":"1","g":{"key":"k"}},{"name":"c","g":{"key":"k"}}]}`, []string{"members[1].pin"}},
		{"a replaced list's elements with them", stored, `{"members":[{"name":"b","pin":"1","g":{"key":"k"}}]}`, nil},
		{"a list the patch leaves", stored, `{"title":"u"}`, nil},
		{"a $name's object merged into the server's", stored, `{"lead":{"name":"m"}}`, nil},
		{"a $name's object where the server holds none", map[string]any{"title": "t"}, `{"lead":{"name":"m","g":{"key":"k"}}}`, []string{"lead.pin"}},
		{"a $name's writeonly req field cleared", stored, `{"lead":{"pin":null}}`, []string{"lead.pin"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := e.Patch(patchRequest(tt.patch), tt.current)
			var got []string
			for _, fe := range fieldErrorsOrNone(err) {
				if fe.Code != "required" {
					t.Errorf("%s: %s, want only required fields", fe.Path, fe.Code)
				}
				got = append(got, fe.Path)
			}
			if err != nil && len(got) == 0 {
				t.Fatalf("Patch: %v", err)
			}
			if !slices.Equal(got, tt.fails) {
				t.Errorf("Patch of %s: required %q, want %q", tt.patch, got, tt.fails)
			}
		})
	}
	t.Run("with a selection", func(t *testing.T) {
		o, _, err := e.Patch(patchRequest(`{"members":[{"name":"b","pin":"1","g":{"key":"k"}}]}`), stored, entity.Select("members(name)"))
		if err != nil {
			t.Fatalf("Patch: %v", err)
		}
		if got, _ := o.Get("members"); len(got.([]*entity.Object)) != 1 {
			t.Errorf("members = %v, want the list the patch gives", got)
		}
	})
	t.Run("as a POST of the same list", func(t *testing.T) {
		_, err := e.MakeRequest(bindRequest("POST", "/", `{"members":[{"name":"b"}],"lead":{"name":"l","pin":"1","g":{"key":"k"}}}`))
		var got []string
		for _, fe := range fieldErrorsOrNone(err) {
			got = append(got, fe.Path)
		}
		if want := []string{"members[0].pin", "members[0].g.key"}; !slices.Equal(got, want) {
			t.Errorf("MakeRequest: %q, want %q", got, want)
		}
	})
}

// TestPatchReadsAReplacedListAsMakeRequestDoes: a list in a patch is
// replaced whole (RFC 7396) and read as MakeRequest reads it: a null
// inside an object of one of its elements is kept, as MakeRequest keeps
// it, where a patch's object merged into nothing loses its nulls.
func TestPatchReadsAReplacedListAsMakeRequestDoes(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "el", "f", "none", "", "id", "number", "readonly")
	e := expose(t, reg, "l", "l", "[]$el", "", "raw", "list", "", "tags", "[]string", "")
	tests := []struct{ name, patch string }{
		{"a null in a none field's object", `{"l":[{"f":{"y":null}}]}`},
		{"a null value of an element's field", `{"l":[{"f":null},{"f":[null,{"z":null}]}]}`},
		{"a readonly key of an element", `{"l":[{"f":1,"id":7}]}`},
		{"an untyped list holding objects", `{"raw":[{"a":null},null]}`},
		{"a typed list", `{"tags":["a","b"]}`},
	}
	current := map[string]any{"l": []any{map[string]any{"f": "old", "id": 1}}, "raw": []any{1}, "tags": []any{"x"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			posted, err := e.MakeRequest(bindRequest("POST", "/", tt.patch))
			if err != nil {
				t.Fatalf("MakeRequest: %v", err)
			}
			o, _, err := e.Patch(patchRequest(tt.patch), current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			for _, k := range []string{"l", "raw", "tags"} {
				if !strings.Contains(tt.patch, `"`+k+`"`) {
					continue
				}
				got, _ := o.Get(k)
				want, _ := posted.Get(k)
				if g, w := fmt.Sprint(plainList(got)), fmt.Sprint(plainList(want)); g != w {
					t.Errorf("Patch: %s = %s, want %s, as MakeRequest reads it", k, g, w)
				}
			}
		})
	}
}

// plainList turns a []*entity.Object into their maps, for comparisons.
func plainList(v any) any {
	l, ok := v.([]*entity.Object)
	if !ok {
		return v
	}
	out := make([]any, len(l))
	for i, o := range l {
		out[i] = o.Map()
	}
	return out
}
