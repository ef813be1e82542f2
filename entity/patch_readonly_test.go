package entity_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestPatchKeepsReadonlyInReplacedValues: a merge patch replaces a list
// whole, but a readonly field is the server's at every depth: the
// elements of a []$line a patch gives have their readonly values ignored,
// as a POST ignores them, never taken from the client.
func TestPatchKeepsReadonlyInReplacedValues(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "line",
		"id", "number", "readonly",
		"sku", "string", "",
		"price", "number", "readonly",
		"g", "{", "",
		"owner", "string", "readonly",
		"g", "}", "",
	)
	e := expose(t, reg, "order",
		"id", "number", "readonly",
		"items", "[]$line", "",
	)
	current := map[string]any{"id": 1, "items": []any{map[string]any{"id": 10, "sku": "a", "price": 100, "owner": "ann"}}}
	tests := []struct {
		name, patch string
		key         string // the readonly key, in the first item
		notWant     any    // the client's value, which must not be there
	}{
		{"a list element's readonly value", `{"items":[{"sku":"a","price":0}]}`, "price", int64(0)},
		{"a list element's readonly id", `{"items":[{"id":99,"sku":"a"}]}`, "id", int64(99)},
		{"a readonly value in a list element's group", `{"items":[{"sku":"a","g":{"owner":"mallory"}}]}`, "g.owner", "mallory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(tt.patch), current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			items, _ := o.Get("items")
			list, _ := items.([]*entity.Object)
			if len(list) != 1 {
				t.Fatalf("items = %v, want one element", items)
			}
			var got any
			var ok bool
			if tt.key == "g.owner" {
				g, _ := list[0].Get("g")
				if gobj, isObj := g.(*entity.Object); isObj {
					got, ok = gobj.Get("owner")
				}
			} else {
				got, ok = list[0].Get(tt.key)
			}
			if ok && got == tt.notWant {
				t.Errorf("items[0].%s = %v: the client set a readonly value (a POST ignores it); merged: %s", tt.key, got, o)
			}
		})
	}
}

// TestPatchKeepsReadonlyInMergedObjects: a patch's object merges into a
// group's or a $name's: a readonly key in it is ignored there too, and the
// current value's readonly value stays (none when the current value has
// none: the $name's object is then read as MakeRequest reads it, without
// its readonly fields).
func TestPatchKeepsReadonlyInMergedObjects(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "addr", "id", "number", "readonly", "city", "string", "", "zip", "string", "")
	e := expose(t, reg, "person",
		"name", "string", "",
		"a", "$addr", "",
		"g", "{", "",
		"by", "string", "readonly",
		"note", "string", "",
		"g", "}", "",
	)
	tests := []struct {
		name    string
		current map[string]any
		patch   string
		want    string
	}{
		{"a $name's readonly key", map[string]any{"name": "n", "a": map[string]any{"id": 3, "city": "c"}}, `{"a":{"id":9,"zip":"z"}}`,
			`{"name":"n","a":{"id":3,"city":"c","zip":"z"},"g":{"by":null,"note":null}}`},
		{"a $name the current value lacks", map[string]any{"name": "n"}, `{"a":{"id":9,"zip":"z"}}`,
			`{"name":"n","a":{"city":null,"zip":"z"},"g":{"by":null,"note":null}}`},
		{"a group's readonly key", map[string]any{"name": "n", "by": "ann"}, `{"g":{"by":"mallory","note":"x"}}`,
			`{"name":"n","a":null,"g":{"by":"ann","note":"x"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(tt.patch), tt.current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if got := o.String(); got != tt.want {
				t.Errorf("merged = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestPatchTakesReadonlyFromTheStoredValue: a readonly value comes from
// the current value only, always, and from the stored value itself, not
// from its response form: a group the patch sets to null keeps its
// readonly fields (a null clears what a client may write), a value a
// response leaves out (omitempty) or defaults keeps the stored value (one
// the row lacks stays null),
// and a readonly value is not judged again (a readonly req under
// omitempty does not make the patch a 400, nor does a stored value its
// rule or its cross-field rule would refuse now, in a readonly group or
// $name too).
func TestPatchTakesReadonlyFromTheStoredValue(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "user", "email", "string", "req | email", "pw", "string", "writeonly | req")
	expose(t, reg, "stamp", "on", "string", "req | min 5")
	e := expose(t, reg, "doc",
		"name", "string", "",
		"f6", "{", "",
		"f7", "string", "readonly",
		"f8", "string", "",
		"inner", "{", "",
		"at", "string", "readonly",
		"note", "string", "",
		"inner", "}", "",
		"f6", "}", "",
		"flag", "bool", "readonly | default true | omitempty",
		"owner", "string", "readonly | req | omitempty",
		"code", "string", "readonly | min 3",
		"closed", "string", "readonly | excluded_with 'name'",
		"level", "number", "readonly | default 5",
		"audit", "{", "readonly",
		"by", "string", "req",
		"who", "$user", "",
		"audit", "}", "",
		"author", "$user", "readonly",
		"reviewers", "$user", "readonly",
		"team", "[]$user", "readonly",
		"st", "$stamp", "readonly | merge",
	)
	stored := map[string]any{"name": "n", "f7": "ab", "f8": "x", "at": "t1", "note": "y",
		"flag": false, "owner": "", "code": "z", "closed": "yes", "by": "ann", "who": map[string]any{"email": "not-an-email"},
		"reviewers": []any{map[string]any{"email": "a@example.com"}, map[string]any{"email": "b"}},
		"team":      []any{5, map[string]any{"email": "x"}}, "author": map[string]any{"email": "not-an-email"},
		"st": map[string]any{"on": "x"}}
	tests := []struct {
		name, patch string
		want        map[string]any // keys of the merged value's Map
	}{
		{"a group set to null keeps its readonly fields", `{"f6":null}`,
			map[string]any{"f6": map[string]any{"f7": "ab", "f8": nil, "inner": map[string]any{"at": "t1", "note": nil}}}},
		{"a readonly value a response leaves out", `{}`, map[string]any{"flag": false, "owner": ""}},
		{"a readonly value its rule refuses now", `{"name":"m"}`, map[string]any{"code": "z"}},
		{"a readonly $name holding a list, as a response writes one", `{"name":"m"}`,
			map[string]any{"reviewers": []any{map[string]any{"email": "a@example.com"}, map[string]any{"email": "b"}}}},
		{"a readonly list holding what no request may send", `{"name":"m"}`,
			map[string]any{"team": []any{nil, map[string]any{"email": "x"}}}},
		{"a readonly value the row lacks has no default", `{"name":"m"}`, map[string]any{"level": nil}},
		{"a readonly value its cross-field rule refuses now", `{"name":"m"}`, map[string]any{"closed": "yes", "name": "m"}},
		{"a readonly group's req field", `{"audit":{"by":null}}`, map[string]any{"audit": map[string]any{"by": "ann", "who": map[string]any{"email": "not-an-email"}}}},
		{"a readonly group's $name its rules refuse now", `{"name":"m"}`, map[string]any{"audit": map[string]any{"by": "ann", "who": map[string]any{"email": "not-an-email"}}}},
		{"a readonly $name's values its rules refuse now", `{"author":{"email":"a@example.com"}}`,
			map[string]any{"author": map[string]any{"email": "not-an-email"}}},
		{"a readonly merged $name's values", `{"on":"yesterday"}`, map[string]any{"on": "x"}},
		{"a patch's readonly keys", `{"f6":{"f7":"zz","inner":{"at":"t9"}},"flag":true,"code":"abcd"}`,
			map[string]any{"flag": false, "code": "z", "f6": map[string]any{"f7": "ab", "f8": "x", "inner": map[string]any{"at": "t1", "note": "y"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(tt.patch), stored)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			got := o.Map()
			for k, want := range tt.want {
				if !reflect.DeepEqual(got[k], want) {
					t.Errorf("%s = %#v, want %#v; merged: %s", k, got[k], want, o)
				}
			}
		})
	}
	t.Run("a req group without readonly fields set to null", func(t *testing.T) {
		e := expose(t, reg, "addressed", "name", "string", "", "address", "{", "req", "city", "string", "req", "address", "}", "")
		_, reqErr := e.MakeRequest(bindRequest("POST", "/", `{"address":null}`))
		_, _, err := e.Patch(patchRequest(`{"address":null}`), map[string]any{"name": "n", "city": "c"})
		got, want := fieldErrorsOrNone(err), fieldErrorsOrNone(reqErr)
		if len(got) != 1 || len(want) != 1 || got[0].Path != want[0].Path || got[0].Code != want[0].Code {
			t.Errorf("Patch: %v; want MakeRequest's %v (the group is missing)", err, reqErr)
		}
	})
}

// TestPatchLeavesOutAMergedRefTheStoredValueLacks: a merged $name that a
// readonly value of the current value does not hold (none of its keys is
// there) is not in the merged value, as Make of the current value writes
// none of its keys; one it holds is, as stored.
func TestPatchLeavesOutAMergedRefTheStoredValueLacks(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "trace", "id", "string", "", "sid", "string", "")
	expose(t, reg, "ext", "x", "string", "")
	expose(t, reg, "part", "t", "$trace", "merge | omitempty", "u", "$ext", "merge", "n", "number", "")
	e := expose(t, reg, "doc", "role", "$part", "readonly", "k", "string", "", "st", "$ext", "merge | readonly")
	tests := []struct {
		name, role string
		want       map[string]any // the merged value's role
	}{
		{"neither merged $name held", `{"n":3}`, map[string]any{"n": int64(3)}},
		{"a null for each", `{"n":3,"t":null,"u":null}`, map[string]any{"n": int64(3)}},
		{"an empty object for each", `{"n":3,"t":{},"u":{}}`, map[string]any{"id": nil, "sid": nil, "x": nil, "n": int64(3)}},
		{"one held", `{"n":3,"t":{"id":"a"}}`, map[string]any{"id": "a", "sid": nil, "n": int64(3)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			current := json.RawMessage(`{"role":` + tt.role + `,"k":"v"}`)
			made, err := e.MakeJSON(current)
			if err != nil {
				t.Fatalf("Make: %v", err)
			}
			o, _, err := e.Patch(patchRequest(`{"k":"w"}`), current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			got := o.Map()
			if !reflect.DeepEqual(got["role"], tt.want) {
				t.Errorf("role = %#v, want %#v", got["role"], tt.want)
			}
			if _, ok := got["x"]; ok {
				t.Errorf("the merged value holds the readonly merged $ext the current value lacks: %#v", got)
			}
			b, _ := o.MarshalJSON()
			if want := strings.Replace(string(made), `"k":"v"`, `"k":"w"`, 1); string(b) != want {
				t.Errorf("response form %s, want Make's %s", b, want)
			}
		})
	}
	t.Run("one with parameters the request sends", func(t *testing.T) {
		// a readonly merged $name's parameter fields are stored, as its
		// other fields: the request's header of that name holds none of it
		expose(t, reg, "audit", "X-Trace", "string", "", "by", "string", "")
		d := expose(t, reg, "note", "a", "$audit", "merge | readonly", "k", "string", "")
		r := patchRequest(`{"k":"w"}`)
		r.Header.Set("X-Trace", "t1")
		o, _, err := d.Patch(r, map[string]any{"k": "v"})
		if err != nil {
			t.Fatalf("Patch: %v", err)
		}
		if got := o.String(); got != `{"k":"w"}` {
			t.Errorf("merged %s, want {\"k\":\"w\"}", got)
		}
	})
}

// TestPatchKeepsTheReadonlyValuesOfARefMadeFromItsDefault: a null for a
// $name with a bare default, or for a group holding one, makes its object
// from nothing, but its readonly values stay as stored, as a group's do.
func TestPatchKeepsTheReadonlyValuesOfARefMadeFromItsDefault(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "cred", "note", "string", "", "login", "string", "readonly", "pw", "string", "writeonly")
	e := expose(t, reg, "user", "name", "string", "",
		"b", "$cred", "default | omitnil",
		"c", "$cred", "",
		"g", "{", "",
		"d", "$cred", "default",
		"n", "integer", "",
		"g", "}", "")
	current := map[string]any{"name": "a", "b": map[string]any{"note": "n", "login": "bob"}, "c": map[string]any{"note": "n", "login": "ann"},
		"d": map[string]any{"note": "m", "login": "eve", "pw": "s"}, "n": 3}
	for _, tc := range []struct {
		name, patch string
		want        map[string]any
	}{
		{"null for the $name", `{"b":null,"c":null}`, map[string]any{
			"name": "a", "b": map[string]any{"note": nil, "login": "bob"}, "c": nil,
			"g": map[string]any{"d": map[string]any{"note": "m", "login": "eve"}, "n": int64(3)}}},
		{"null for its group", `{"g":null}`, map[string]any{
			"name": "a", "b": map[string]any{"note": "n", "login": "bob"}, "c": map[string]any{"note": "n", "login": "ann"},
			"g": map[string]any{"d": map[string]any{"note": nil, "login": "eve"}, "n": nil}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj, _, err := e.Patch(patchRequest(tc.patch), current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if got := obj.Map(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("merged = %#v, want %#v", got, tc.want)
			}
		})
	}
}

// TestPatchTakesAReadonlyListAsStored: a readonly typed list's null
// elements (what the stored list held that its type does not) are the
// server's, taken as stored as any readonly value: a patch of another
// field is no type error, Strict or not.
func TestPatchTakesAReadonlyListAsStored(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "doc", "items", "[]string", "readonly", "n", "[]number", "readonly", "k", "string", "")
	current := map[string]any{"items": []any{map[string]any{}, "x"}, "n": []any{"7", true}, "k": "a"}
	for _, opt := range []entity.Option{entity.Strict(), entity.Lax()} {
		o, _, err := e.Patch(patchRequest(`{"k":"b"}`), current, opt)
		if err != nil {
			t.Fatalf("Patch: %v", err)
		}
		if got, want := o.String(), `{"items":[null,"x"],"n":[7,null],"k":"b"}`; got != want {
			t.Errorf("merged %s, want %s", got, want)
		}
	}
}

// TestPatchHoldsNoReadonlyValueOfAWriteonlyValue: a readonly field in a
// writeonly group or $name is given by no request, and the current value
// holds none (its response form hides the writeonly value): the merged
// value holds none either, whatever the patch gives there, so Bind of it
// leaves the field as the destination holds it.
func TestPatchHoldsNoReadonlyValueOfAWriteonlyValue(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "cred", "id", "string", "readonly", "x", "string", "")
	expose(t, reg, "box", "h", "{", "", "id", "string", "readonly", "x", "string", "", "h", "}", "")
	e := expose(t, reg, "user", "name", "string", "",
		"g", "{", "writeonly", "id", "string", "readonly", "x", "string", "", "g", "}", "",
		"c", "$cred", "writeonly | default",
		"m", "$box", "merge | writeonly")
	current := map[string]any{"name": "a", "g": map[string]any{"id": "g1"}, "c": map[string]any{"id": "c1"}, "h": map[string]any{"id": "h1"}}
	for _, tc := range []struct {
		name, patch string
		want        map[string]any
	}{
		{"a writeonly group the patch gives", `{"g":{"x":"a","id":"mallory"}}`, map[string]any{
			"name": "a", "g": map[string]any{"x": "a"}}},
		{"a null for a writeonly group", `{"g":null}`, map[string]any{
			"name": "a", "g": map[string]any{"x": nil}}},
		{"a null for a writeonly $name with a bare default", `{"c":null}`, map[string]any{
			"name": "a", "c": map[string]any{"x": nil}}},
		{"a writeonly $name the patch gives", `{"c":{"x":"b","id":"mallory"}}`, map[string]any{
			"name": "a", "c": map[string]any{"x": "b"}}},
		{"a group of a writeonly merged $name", `{"h":{"x":"d","id":"mallory"}}`, map[string]any{
			"name": "a", "h": map[string]any{"x": "d"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj, _, err := e.Patch(patchRequest(tc.patch), current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			var got map[string]any
			if err := obj.Decode(&got); err != nil {
				t.Fatalf("Decode: %v", err)
			}
			want, _ := json.Marshal(tc.want)
			if b, _ := json.Marshal(got); string(b) != string(want) {
				t.Errorf("merged (with its writeonly values) %s, want %s", b, want)
			}
		})
	}
}

// TestPatchClearsTheFieldsOfAWriteonlyValue: in a writeonly $name's
// object, and in a group of a writeonly merged $name, a null clears each
// field (a bare default makes a $name again), and the merged value holds
// the values omitnil and omitempty leave out, so that Bind clears them;
// no readonly value is there.
func TestPatchClearsTheFieldsOfAWriteonlyValue(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "cred", "id", "string", "readonly", "x", "string", "")
	expose(t, reg, "box", "y", "string", "",
		"h", "{", "", "id", "string", "readonly", "x", "string", "", "c", "$cred", "default", "h", "}", "")
	expose(t, reg, "secret", "id", "string", "readonly", "x", "string", "default 'dx'", "y", "string", "omitempty")
	e := expose(t, reg, "user", "name", "string", "",
		"m", "$box", "merge | writeonly",
		"cd", "$secret", "writeonly | default")
	current := map[string]any{"name": "a"}
	for _, tc := range []struct {
		name, patch, want string
	}{
		{"a null in a group of a writeonly merged $name", `{"h":{"x":null}}`, `{"h":{"x":null},"name":"a"}`},
		{"a null for that group", `{"h":null}`, `{"h":{"c":{"x":null},"x":null},"name":"a"}`},
		{"a null for a $name in it", `{"h":{"c":null}}`, `{"h":{"c":{"x":null}},"name":"a"}`},
		{"a value in it", `{"h":{"x":"d","id":"mallory"}}`, `{"h":{"x":"d"},"name":"a"}`},
		{"a null for a writeonly $name with a bare default", `{"cd":null}`, `{"cd":{"x":"dx","y":null},"name":"a"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj, _, err := e.Patch(patchRequest(tc.patch), current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			got, _ := json.Marshal(obj.Map())
			if string(got) != tc.want {
				t.Errorf("merged (with its writeonly and hidden values) %s, want %s", got, tc.want)
			}
		})
	}
}

// TestPatchBindKeepsAReadonlyValueOfAWriteonlyGroup: Bind of a patch's
// merged value leaves a readonly field of a writeonly group as the
// destination holds it, the patch giving the group.
func TestPatchBindKeepsAReadonlyValueOfAWriteonlyGroup(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "user", "name", "string", "",
		"g", "{", "writeonly", "id", "string", "readonly", "x", "string", "", "g", "}", "")
	type user struct { // a group's fields flattened, as Bind and Make read them
		Name string  `json:"name"`
		ID   *string `json:"id"`
		X    string  `json:"x"`
	}
	id := "g1"
	dst := user{Name: "a", ID: &id, X: "old"}
	obj, _, err := e.Patch(patchRequest(`{"g":{"x":"new","id":"mallory"}}`), dst)
	if err != nil {
		t.Fatalf("Patch: %v", err)
	}
	if err := obj.Bind(&dst); err != nil {
		t.Fatalf("Bind: %v", err)
	}
	if dst.Name != "a" || dst.ID == nil || *dst.ID != "g1" || dst.X != "new" {
		t.Errorf("bound %+v (id %v), want name a, id g1, x new", dst, dst.ID)
	}
}

// TestPatchFindsADefaultCycleOfARefMadeAgain: a null for a $name with a
// bare default makes its object again from the default, around its
// stored readonly values: a cycle of defaults is found at the same place
// whether the stored object holds readonly values or not.
func TestPatchFindsADefaultCycleOfARefMadeAgain(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "part", "owner", "$doc", "default", "rev", "integer", "readonly")
	e := expose(t, reg, "doc", "item", "$part", "", "m", "$part", "merge")
	for _, tc := range []struct{ name, current string }{
		{"no readonly value stored", `{"item":{"owner":{}}}`},
		{"a readonly value stored", `{"item":{"owner":{"rev":5}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := e.Patch(patchRequest(`{"item":{"owner":null}}`), json.RawMessage(tc.current))
			var paths []string
			for _, fe := range fieldErrors(t, err) {
				paths = append(paths, fe.Path+":"+fe.Code)
			}
			want := []string{"item.owner.owner:default", "owner.owner:default"}
			if !reflect.DeepEqual(paths, want) {
				t.Errorf("failures %v, want %v", paths, want)
			}
		})
	}
}

// TestPatchJudgesNoRuleNamingAReadonlyValueOfAWriteonlyValue: a
// cross-field rule naming a readonly field of a writeonly group or $name
// is not judged in a patch, as in a request: the merged value holds no
// value of it (the server may).
func TestPatchJudgesNoRuleNamingAReadonlyValueOfAWriteonlyValue(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "cred", "id", "string", "readonly", "x", "string", "required_without 'id'")
	e := expose(t, reg, "user", "name", "string", "",
		"g", "{", "writeonly", "id", "string", "readonly", "x", "string", "required_without 'id'", "g", "}", "",
		"c", "$cred", "writeonly | default")
	for _, patch := range []string{`{"g":null}`, `{"g":{}}`, `{"c":null}`, `{"c":{}}`} {
		t.Run(patch, func(t *testing.T) {
			if _, _, err := e.Patch(patchRequest(patch), map[string]any{"name": "a"}); err != nil {
				t.Errorf("Patch: %v", err)
			}
		})
	}
}

// TestPatchReadsAGroupGivenNoObjectAsNull: a lax patch that gives a group
// or a $name something other than an object clears it as its null does,
// keeping its readonly values as stored (a $name with a bare default made
// again around them); a strict one refuses it as a type error.
func TestPatchReadsAGroupGivenNoObjectAsNull(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "inner", "id", "number", "readonly", "x", "string", "")
	expose(t, reg, "card", "number", "string", "")
	expose(t, reg, "invoice", "po", "string", "")
	e := expose(t, reg, "doc",
		"pay", "$card|$invoice", "by 'method'",
		"addr", "{", "", "zip", "string", "", "c", "[]string", "readonly", "addr", "}", "",
		"name", "string", "",
		"r", "$inner", "default")
	current := map[string]any{"zip": "z", "c": []any{}, "name": "n", "r": map[string]any{"id": 7, "x": "a"}}
	tests := []struct {
		name, patch string
		opts        []entity.Option
		merged      string // "" when it fails
		fails       string
	}{
		{"a string, lax", `{"addr":"x y"}`, []entity.Option{entity.Lax()}, `{"pay":null,"addr":{"zip":null,"c":[]},"name":"n","r":{"id":7,"x":"a"}}`, ""},
		{"a number, lax", `{"addr":1}`, []entity.Option{entity.Lax()}, `{"pay":null,"addr":{"zip":null,"c":[]},"name":"n","r":{"id":7,"x":"a"}}`, ""},
		{"a list, lax", `{"addr":[1]}`, []entity.Option{entity.Lax()}, `{"pay":null,"addr":{"zip":null,"c":[]},"name":"n","r":{"id":7,"x":"a"}}`, ""},
		{"null", `{"addr":null}`, nil, `{"pay":null,"addr":{"zip":null,"c":[]},"name":"n","r":{"id":7,"x":"a"}}`, ""},
		{"a string for a $name, lax", `{"r":"s"}`, []entity.Option{entity.Lax()}, `{"pay":null,"addr":{"zip":"z","c":[]},"name":"n","r":{"id":7,"x":null}}`, ""},
		{"a null for a $name", `{"r":null}`, nil, `{"pay":null,"addr":{"zip":"z","c":[]},"name":"n","r":{"id":7,"x":null}}`, ""},
		{"a string, strict", `{"addr":"x y"}`, nil, "", "addr type"},
		{"a string for a $name, strict", `{"r":"s"}`, nil, "", "r type"},
		{"a string for a union, lax: a type error, as MakeRequest reads it", `{"pay":"s"}`, []entity.Option{entity.Lax()}, "", "pay type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(tt.patch), current, tt.opts...)
			if tt.fails != "" {
				got := failedFields(err)
				if strings.Join(got, ",") != tt.fails {
					t.Fatalf("Patch(%s) fails %q, want %q", tt.patch, got, tt.fails)
				}
				return
			}
			if err != nil {
				t.Fatalf("Patch(%s): %v", tt.patch, err)
			}
			if got := o.String(); got != tt.merged {
				t.Errorf("Patch(%s) = %s, want %s", tt.patch, got, tt.merged)
			}
		})
	}
}
