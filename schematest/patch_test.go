package schematest

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// TestPatchSchemaAgreesWithPatch: a merge patch is accepted by
// entity.Entity.Patch, applied to a valid current value, exactly when the
// entity's Patch schema takes it, by the Go validator and by ajv: every
// key optional, null where clearing is accepted (not a req field without a
// default, nor a group holding one), readonly keys ignored, a $name's
// object merged, a []$name's list replaced.
func TestPatchSchemaAgreesWithPatch(t *testing.T) {
	reg := mixedRegistry(t, [][]string{
		{"addr", "city", "string", "req", "zip", "string", "len 5"},
		{"customer",
			"id", "number", "readonly",
			"name", "string", "req | min 1 | max 10",
			"tier", "string", "in bronze gold | default bronze",
			"password", "string", "writeonly | req | min 8",
			"note", "string", "",
			"address", "$addr", "req",
			"old", "[]$addr", "max 2",
			"pref", "{", "",
			"lang", "string", "req",
			"pref", "}", "",
			"opt", "{", "",
			"size", "number", "range 1 3",
			"opt", "}", "",
		},
	})
	e := reg.Lookup("customer")
	current := `{"id":1,"name":"Ann","tier":"gold","note":"n","address":{"city":"Oslo","zip":"12345"},"old":[],"lang":"en","size":2}` // server data: a group reads the level it is at
	values := map[string][]string{
		"id":       {"2", `"x"`},
		"name":     {`"Bo"`, `""`, "null", "1"},
		"tier":     {`"gold"`, `"silver"`, "null"},
		"password": {`"12345678"`, `"short"`, "null"},
		"note":     {"null", `"m"`},
		"address":  {`{"city":"Rome"}`, `{"city":null}`, `{"zip":"123"}`, "null", `{"zip":null}`},
		"old":      {`[{"city":"a"}]`, `[{"zip":"1"}]`, "null", `[{"city":"a"},{"city":"b"},{"city":"c"}]`},
		"pref":     {`{"lang":"ja"}`, `{"lang":null}`, "null"},
		"opt":      {`{"size":5}`, "null", `{"size":null}`},
	}
	var cases []string
	for key, vs := range values {
		for _, v := range vs {
			cases = append(cases, `{"`+key+`":`+v+`}`)
		}
	}
	cases = append(cases, `{}`, `{"name":"Bo","address":{"city":"Rome"},"opt":null}`)

	s, err := schema.JSON(e, schema.Patch)
	if err != nil {
		t.Fatal(err)
	}
	sch := compile(t, "customer.patch", s)
	var js ajvBatch
	js.schema("patch", s)
	accepted := 0
	for _, in := range cases {
		r := httptest.NewRequest("PATCH", "/", strings.NewReader(in))
		r.Header.Set("Content-Type", entity.MergePatchType)
		_, _, err := e.Patch(r, []byte(current))
		ok := err == nil
		if ok {
			accepted++
		}
		if verr := validate(sch, []byte(in)); (verr == nil) != ok {
			t.Errorf("Patch accepts %s: %v (%v); the Go validator: %v", in, ok, err, verr)
		}
		js.check("patch", []byte(in), ok, fmt.Sprintf("Patch accepts it: %v", ok))
	}
	if accepted == 0 || accepted == len(cases) {
		t.Errorf("%d of %d patches accepted: the probes miss a side", accepted, len(cases))
	}
	js.run(t, 20)
}
