package jsonfields

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"testing"
)

type Inner struct {
	A int
	B int `json:"bee"`
}

type Other struct {
	A int
	C int
}

type inner struct{ D int }

// dashes and badTag hold the tags encoding/json reads unusually, which
// vet-like checkers question: they are meant.
type dashes struct {
	X int `json:"-"`
	//lint:ignore SA5008 "-," names the field "-", as encoding/json documents
	Y int `json:"-,"`
}

type badTag struct {
	//lint:ignore SA5008 a tag name encoding/json does not accept, which it ignores
	X int `json:"a\"b"`
}

type Tagged struct {
	A int `json:"A"`
}

// TestOfNamesWhatEncodingJSONWrites: the names Of gives a struct type are
// the keys encoding/json writes for a value of it, for each way a field is
// named, hidden, embedded or in conflict.
func TestOfNamesWhatEncodingJSONWrites(t *testing.T) {
	cases := []struct {
		name string
		v    any // a value whose embedded pointers are set, so that json.Marshal writes every field
		want []string
	}{
		{name: "Go names", v: struct{ X, Y int }{}, want: []string{"X", "Y"}},
		{name: "tag names", v: struct {
			X int `json:"x"`
			Y int `json:"why,omitempty"`
		}{Y: 1}, want: []string{"why", "x"}},
		{name: "dash hides, dash-comma names it -", v: dashes{}, want: []string{"-"}},
		{name: "an invalid tag name is the Go name", v: badTag{}, want: []string{"X"}},
		{name: "unexported fields are not fields", v: struct {
			x int
			Y int
		}{}, want: []string{"Y"}},
		{name: "embedded struct flattened", v: struct {
			Inner
			Z int
		}{}, want: []string{"A", "Z", "bee"}},
		{name: "embedded pointer flattened", v: struct{ *Inner }{&Inner{}}, want: []string{"A", "bee"}},
		{name: "the shallower field wins", v: struct {
			Inner
			A string
		}{}, want: []string{"A", "bee"}},
		{name: "a conflict at one depth drops the name", v: struct {
			Inner
			Other
		}{}, want: []string{"C", "bee"}},
		{name: "a tagged field wins a conflict at its depth", v: struct {
			Tagged
			Other
		}{}, want: []string{"A", "C"}},
		{name: "an unexported embedded struct is flattened", v: struct{ inner }{}, want: []string{"D"}},
		{name: "an unexported embedded struct a tag names is a field", v: struct {
			inner `json:"in"`
		}{}, want: []string{"in"}},
		{name: "an embedded struct a tag names is not flattened", v: struct {
			Inner `json:"inner"`
		}{}, want: []string{"inner"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := slices.Sorted(maps.Keys(Of(reflect.TypeOf(tc.v))))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Of: %q, want %q", got, tc.want)
			}
			b, err := json.Marshal(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if keys := slices.Sorted(maps.Keys(m)); !slices.Equal(keys, got) {
				t.Errorf("encoding/json writes %q, Of gives %q", keys, got)
			}
		})
	}
}

// TestOfIndexReachesTheField: each field's Index leads to a field of its
// Type, and Tagged says whether a tag named it.
func TestOfIndexReachesTheField(t *testing.T) {
	type T struct {
		*Inner
		E string `json:"e"`
	}
	typ := reflect.TypeFor[T]()
	fields := Of(typ)
	for name, f := range fields {
		sf := typ.FieldByIndex(f.Index)
		if sf.Type != f.Type {
			t.Errorf("%s: Index leads to a %v, Type is %v", name, sf.Type, f.Type)
		}
	}
	if f := fields["e"]; f == nil || !f.Tagged || f.Name != "e" {
		t.Errorf(`"e": %+v, want a tagged field named e`, f)
	}
	if f := fields["A"]; f == nil || f.Tagged || !slices.Equal(f.Index, []int{0, 0}) {
		t.Errorf(`"A": %+v, want the untagged field at [0 0]`, f)
	}
	if Of(typ)["e"] != fields["e"] {
		t.Error("Of computed the fields of one type twice")
	}
}
