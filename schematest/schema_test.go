package schematest

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/expose-go/expose/entity"
)

// inputsPerEntity is how many generated inputs each entity is made from.
const inputsPerEntity = 400

// callOptions returns the per-call shapes each input of e is made with:
// flags, versions and, for each lazy field, a selection that names it. A
// field a call may leave out is not required, so every shape validates.
func callOptions(e *entity.Entity) [][]entity.Option {
	opts := [][]entity.Option{nil, {entity.With("admin")}, {entity.With("guest"), entity.Version("v1")}, {entity.Version("v3")}}
	for _, f := range e.Fields() {
		if f.Lazy {
			opts = append(opts, []entity.Option{entity.Select("*," + f.Key)})
		}
	}
	return opts
}

// TestOutputSchemaHoldsForMake: for every entity of the corpus, whatever
// Make writes for the generated inputs, with each of callOptions,
// validates against its OutputSchema.
func TestOutputSchemaHoldsForMake(t *testing.T) {
	reg, names, _ := loadCorpus(t)
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			e := reg.Lookup(name)
			schema, err := e.JSONSchema(entity.OutputSchema)
			if err != nil {
				t.Fatal(err)
			}
			sch := compile(t, name+".output", schema)
			g := newGenerator(uint64(i))
			shapes := callOptions(e)
			made := 0
			for range inputsPerEntity {
				in, _ := json.Marshal(g.object(e, 3))
				opts := shapes[g.r.IntN(len(shapes))]
				out, err := e.MakeJSON(in, opts...)
				if err != nil {
					continue // a failing field: nothing is written
				}
				made++
				if err := validate(sch, out); err != nil {
					t.Fatalf("Make(%s, %v) = %s, which the output schema refuses: %v", in, opts, out, err)
				}
			}
			if made == 0 {
				t.Fatalf("no input of %d made", inputsPerEntity)
			}
			t.Logf("%d outputs validated", made)
		})
	}
}

// TestInputSchemaAgreesWithMakeRequest: for every entity of the corpus,
// each generated JSON body that MakeRequest accepts validates against its
// InputSchema, and each that it refuses for a field's type or a missing
// `req` field does not. Entities that Registry.Check reports are left out:
// a bare default on a reference whose entity fails from an empty input
// makes every request fail, which no schema of the request says.
func TestInputSchemaAgreesWithMakeRequest(t *testing.T) {
	reg, names, checked := loadCorpus(t)
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			if !checked(name) {
				t.Skip("Registry.Check reports the declaration")
			}
			e := reg.Lookup(name)
			schema, err := e.JSONSchema(entity.InputSchema)
			if err != nil {
				t.Fatal(err)
			}
			sch := compile(t, name+".input", schema)
			g := newGenerator(uint64(1000 + i))
			accepted, refused := 0, 0
			for range inputsPerEntity {
				body, _ := json.Marshal(g.object(e, 3))
				r := httptest.NewRequest("POST", "/", bytes.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				_, err := e.MakeRequest(r)
				verr := validate(sch, body)
				switch {
				case err == nil:
					accepted++
					if verr != nil {
						t.Fatalf("MakeRequest accepts %s, which the input schema refuses: %v", body, verr)
					}
				case refusedForTypeOrReq(err):
					refused++
					if verr == nil {
						t.Fatalf("MakeRequest refuses %s (%v), which the input schema accepts", body, err)
					}
				}
			}
			if accepted == 0 {
				t.Errorf("no input of %d accepted", inputsPerEntity)
			}
			t.Logf("%d accepted inputs validated, %d refused for type or req rejected", accepted, refused)
		})
	}
}

// refusedForTypeOrReq reports whether err refuses a field for its type or
// a missing `req` field, which the input schema must say too. A type error
// for text or a number beyond the type's range ("99999999999999999999" for
// a number) is not counted: no pattern says a range.
func refusedForTypeOrReq(err error) bool {
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		return false
	}
	for _, f := range ve.Fields {
		switch f.Code {
		case "required":
			return true
		case "type":
			if got, _ := f.Params["got"].(string); got != "string out of range" && got != "number out of range" {
				return true
			}
		}
	}
	return false
}
