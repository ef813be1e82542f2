package entity_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// singleRefsRegistry declares, in a registry made with opts, an address and
// an order that holds one ($address), many ([]$address) and a merged one.
func singleRefsRegistry(t testing.TB, opts ...entity.RegistryOption) *entity.Entity {
	t.Helper()
	reg := entity.NewRegistry(opts...)
	expose(t, reg, "address", "city", "string", "")
	expose(t, reg, "stamp", "at", "string", "")
	return expose(t, reg, "order", "ship", "$address", "", "stops", "[]$address", "", "stamp", "$stamp", "merge")
}

// TestSingleRefsHoldOneObject: in a registry of SingleRefs a response's
// $name holds one object: an object is made, a list given to it is the
// server's error (a type failure, strict or not, in every way a list
// comes: []any, a Go slice, raw JSON), and Write answers it 500; []$name
// and a merged $name are as they are without it; without it a $name is
// made from a list too (msful's reading).
func TestSingleRefsHoldOneObject(t *testing.T) {
	single, msful := singleRefsRegistry(t, entity.SingleRefs()), singleRefsRegistry(t)
	city := map[string]any{"city": "Kyoto"}
	tests := []struct {
		name   string
		in     any
		single string // the output, or the failure
		msful  string
	}{
		{"an object", map[string]any{"ship": city}, `{"ship":{"city":"Kyoto"},"stops":null}`, `{"ship":{"city":"Kyoto"},"stops":null}`},
		{"null", map[string]any{"ship": nil}, `{"ship":null,"stops":null}`, `{"ship":null,"stops":null}`},
		{"a list of maps", map[string]any{"ship": []any{city}}, "ship type", `{"ship":[{"city":"Kyoto"}],"stops":null}`},
		{"a Go slice", map[string]any{"ship": []map[string]any{city}}, "ship type", `{"ship":[{"city":"Kyoto"}],"stops":null}`},
		{"raw JSON", json.RawMessage(`{"ship":[{"city":"Kyoto"}]}`), "ship type", `{"ship":[{"city":"Kyoto"}],"stops":null}`},
		{"a struct's slice", struct {
			Ship []struct {
				City string `json:"city"`
			} `json:"ship"`
		}{Ship: []struct {
			City string `json:"city"`
		}{{"Kyoto"}}}, "ship type", `{"ship":[{"city":"Kyoto"}],"stops":null}`},
		{"an empty list", map[string]any{"ship": []any{}}, "ship type", `{"ship":[],"stops":null}`},
		{"[]$name and merge as ever", map[string]any{"stops": []any{city}, "stamp": map[string]any{"at": "noon"}}, `{"ship":null,"stops":[{"city":"Kyoto"}],"at":"noon"}`, `{"ship":null,"stops":[{"city":"Kyoto"}],"at":"noon"}`},
	}
	outcome := func(out []byte, err error) string {
		if err == nil {
			return string(out)
		}
		var l []string
		for _, fe := range fieldErrors(t, err) {
			l = append(l, fe.Path+" "+fe.Code)
		}
		return strings.Join(l, ", ")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := makeAll(t, single, tt.in)
			if got := outcome(out, err); got != tt.single {
				t.Errorf("SingleRefs: %s, want %s", got, tt.single)
			}
			out, err = single.MakeJSON(tt.in, entity.Strict())
			if got := outcome(out, err); got != tt.single {
				t.Errorf("SingleRefs, strict: %s, want %s", got, tt.single)
			}
			out, _, err = makeAll(t, msful, tt.in)
			if got := outcome(out, err); got != tt.msful {
				t.Errorf("without: %s, want %s", got, tt.msful)
			}
		})
	}
	rec := httptest.NewRecorder()
	single.Write(rec, map[string]any{"ship": []any{city}})
	if rec.Code != http.StatusInternalServerError {
		t.Errorf("Write of a list to a single $name: %d %s, want 500", rec.Code, rec.Body)
	}
	for _, f := range single.Fields() {
		if want := f.Name != "stops"; f.One != want { // a merged $name holds one object too
			t.Errorf("SingleRefs: Field %s One %v, want %v", f.Name, f.One, want)
		}
	}
	for _, f := range msful.Fields() {
		if f.One {
			t.Errorf("without SingleRefs: Field %s One", f.Name)
		}
	}
}

// TestSingleRefsBeforeAnythingIsExposed: SingleRefs is compiled into the
// plans, so Configure refuses it once an entity is exposed, and takes it
// before.
func TestSingleRefsBeforeAnythingIsExposed(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.Configure(entity.SingleRefs()); err != nil {
		t.Fatalf("Configure before Expose: %v", err)
	}
	expose(t, reg, "a", "v", "string", "")
	if err := reg.Configure(entity.SingleRefs()); err != nil {
		t.Errorf("Configure of the setting in force: %v", err)
	}
	late := entity.NewRegistry()
	expose(t, late, "a", "v", "string", "")
	err := late.Configure(entity.SingleRefs())
	if want := `entity: Configure(SingleRefs()) after entity "a" was exposed: set it before exposing anything`; err == nil || err.Error() != want {
		t.Errorf("Configure after Expose: %v, want %s", err, want)
	}
}
