package entity_test

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// inputCases: inputs that are not objects, and typed nils.
func inputCases() []entryCase {
	jsonV := []string{failAt("v", "json")}
	return []entryCase{
		{name: "channel as the input", ent: "string", in: given(make(chan int)), errIs: entity.ErrUnsupportedInput, status: 500},
		{name: "func as the input", ent: "string", in: given(func() {}), errIs: entity.ErrUnsupportedInput, status: 500},
		{name: "int as the input", ent: "string", in: given(42), errIs: entity.ErrUnsupportedInput, status: 500},

		{name: "nil *int into none", ent: "none", in: givenV((*int)(nil)), out: wantOut(`{"v":null}`)},
		{name: "nil *int into a required string", ent: "reqstr", in: givenV((*int)(nil)), fails: []string{failAt("v", "req")}},
		{name: "nil error interface into none", ent: "none", in: givenV(error(nil)), out: wantOut(`{"v":null}`)},
		{name: "nil map into object", ent: "object", in: givenV(map[string]any(nil)), out: wantOut(`{"v":null}`)},
		{name: "nil slice into list", ent: "list", in: givenV([]any(nil)), out: wantOut(`{"v":null}`)},
		{name: "nil *Object into none", ent: "none", in: givenV((*entity.Object)(nil)), out: wantOut(`{"v":null}`)},
		{name: "nil pointers inside a list", ent: "list", in: givenV([]any{(*int)(nil), (*linkedNode)(nil), (map[string]any)(nil)}), out: wantOut(`{"v":[null,null,null]}`)},
		{name: "nil func inside a map: encoding/json refuses func types", ent: "none", in: givenV(map[string]any{"f": (func())(nil)}), fails: jsonV},
		{name: "nil channel inside a map: encoding/json refuses chan types", ent: "none", in: givenV(map[string]any{"c": (chan int)(nil)}), fails: jsonV},
		{name: "nil *struct as the input is empty", ent: "node", in: given((*linkedNode)(nil)), out: wantOut(`{"v":null,"n":null,"p":null}`)},
		{name: "nil *Object as the input is empty", ent: "string", in: given((*entity.Object)(nil)), out: wantOut(`{"v":null}`)},
		{name: "nil map as the input is empty", ent: "string", in: given(map[string]any(nil)), out: wantOut(`{"v":null}`)},
		{name: "nil []byte as the input is empty", ent: "string", in: given([]byte(nil)), out: wantOut(`{"v":null}`)},
		{name: "pointer to pointer to map as the input", ent: "string",
			in: func() any { m := map[string]any{"v": "x"}; p := &m; return &p }, out: wantOut(`{"v":"x"}`)},
		{name: "nil pointer to a struct inside a $ref", ent: "node", in: given(&linkedNode{P: nil}), out: wantOut(`{"v":"","n":null,"p":null}`)},
	}
}

// TestNilAndUnsupportedInputs: a typed nil is null, or an empty input;
// an input that is not an object is ErrUnsupportedInput (status 500).
func TestNilAndUnsupportedInputs(t *testing.T) {
	runEntryCases(t, inputCases())
}

// TestEntryCases: the tables that every subject runs through every entry
// point (runEntryCases) are, together, the hostile-input suite of the
// reliability issue: at least 100 cases, each named once across them all.
func TestEntryCases(t *testing.T) {
	var all []entryCase
	for _, table := range [][]entryCase{
		depthCases(), cycleCases(), errorCapCases(), encodeCases(), numberCases(),
		unencodableCases(), inputCases(), rawJSONCases(), valuerCases(), rulePanicCases(),
	} {
		all = append(all, table...)
	}
	if len(all) < 100 {
		t.Errorf("%d hostile cases, want at least 100", len(all))
	}
	seen := map[string]bool{}
	for _, c := range all {
		if seen[c.name] {
			t.Errorf("two cases named %q", c.name)
		}
		seen[c.name] = true
	}
}
