package schematest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// inputsPerEntity is how many generated inputs each entity is made from.
const inputsPerEntity = 400

// callOptions returns the per-call shapes each input of e is made with:
// flags, versions and, for each lazy field, a selection that names it.
// Each shape's output is checked against the schema of its audience (its
// flags and version; a selection leaves out only fields the schema does
// not require).
func callOptions(e *entity.Entity) [][]entity.Option {
	opts := [][]entity.Option{nil, {entity.With("admin")}, {entity.With("guest"), entity.Version("v1")}, {entity.Version("v3")}}
	for _, f := range e.Fields() {
		if f.Lazy {
			opts = append(opts, []entity.Option{entity.Select("*," + f.Key)})
		}
	}
	return opts
}

// TestResponseSchemaHoldsForMake: for every entity of the corpus, whatever
// Make writes for the generated inputs, with each of callOptions,
// validates against the Response schema of the call's audience, with the
// Go validator and with ajv.
func TestResponseSchemaHoldsForMake(t *testing.T) {
	reg, names, _ := loadCorpus(t)
	var js ajvBatch
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			e := reg.Lookup(name)
			shapes := callOptions(e)
			schemas := make([]*jsonschema.Schema, len(shapes))
			for j, opts := range shapes {
				s, err := schema.JSON(e, schema.Response, opts...)
				if err != nil {
					t.Fatal(err)
				}
				schemas[j] = compile(t, fmt.Sprintf("%s.%d", name, j), s)
				js.schema(fmt.Sprintf("%s/%d", name, j), s)
			}
			g := newGenerator(uint64(i))
			made := 0
			for range inputsPerEntity {
				in, _ := json.Marshal(g.object(e, 3))
				j := g.r.IntN(len(shapes))
				out, err := e.MakeJSON(in, shapes[j]...)
				if err != nil {
					continue // a failing field: nothing is written
				}
				made++
				if err := validate(schemas[j], out); err != nil {
					t.Fatalf("MakeJSON(%s, %v) = %s, which the response schema refuses: %v", in, shapes[j], out, err)
				}
				js.check(fmt.Sprintf("%s/%d", name, j), out, true, fmt.Sprintf("%s: MakeJSON(%s) wrote it, which the response schema refuses", name, in))
			}
			if made == 0 {
				t.Fatalf("no input of %d made", inputsPerEntity)
			}
		})
	}
	t.Logf("ajv: %d outputs validated", js.run(t, 10))
}

// TestRequestSchemaAgreesWithMakeRequest: for every entity of the corpus,
// each generated JSON body that MakeRequest accepts validates against its
// Request schema, and each that it refuses for a field's type or a missing
// `req` field does not, with the Go validator and with ajv. Entities that
// Registry.Check reports are left out (a bare default on a reference whose
// entity fails from an empty input makes every request fail, which no
// schema of the request says), and so are those whose request the library
// does not yet read in the wire form RequestFields describes (see
// wireFormGap).
// endlessRequest names the corpus entities no request can make: a
// required $name that recurses needs one object inside another without
// end (both sides agree on refusing every body).
var endlessRequest = map[string]bool{"chain": true, "pong": true}

func TestRequestSchemaAgreesWithMakeRequest(t *testing.T) {
	requestSchemaAgrees(t, nil)
}

// TestRequestSchemaAgreesUnderJSONTypes: as
// TestRequestSchemaAgreesWithMakeRequest, in a registry of JSONTypes,
// whose request schemas take each number, bool and date as its JSON type
// only. (The entity "required" accepts none of the generated bodies
// there: its four req fields are all of JSON types, of which the
// generator's candidates are mostly text.)
func TestRequestSchemaAgreesUnderJSONTypes(t *testing.T) {
	requestSchemaAgrees(t, map[string]bool{"required": true}, entity.JSONTypes())
}

// requestSchemaAgrees checks the corpus, declared in a registry of opts,
// as TestRequestSchemaAgreesWithMakeRequest says; of the entities rare
// (and those of endlessRequest) no body need be accepted.
func requestSchemaAgrees(t *testing.T, rare map[string]bool, opts ...entity.RegistryOption) {
	reg, names, checked := loadCorpus(t, opts...)
	var js ajvBatch
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			if !checked(name) {
				t.Skip("Registry.Check reports the declaration")
			}
			e := reg.Lookup(name)
			if gap := wireFormGap(t, e); gap != "" {
				t.Skip(gap)
			}
			s, err := schema.JSON(e, schema.Request)
			if err != nil {
				t.Fatal(err)
			}
			sch := compile(t, name+".request", s)
			js.schema(name, s)
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
						t.Fatalf("MakeRequest accepts %s, which the request schema refuses: %v", body, verr)
					}
					js.check(name, body, true, name+": MakeRequest accepts it, the request schema refuses it")
				case refusedForTypeOrReq(err):
					refused++
					if verr == nil {
						t.Fatalf("MakeRequest refuses %s (%v), which the request schema accepts", body, err)
					}
					js.check(name, body, false, name+": MakeRequest refuses it, the request schema accepts it")
				}
			}
			if accepted == 0 && !endlessRequest[name] && !rare[name] {
				t.Errorf("no input of %d accepted", inputsPerEntity)
			}
			t.Logf("%d accepted inputs validated, %d refused for type or req rejected", accepted, refused)
		})
	}
	t.Logf("ajv: %d request bodies validated", js.run(t, 10))
}

// refusedForTypeOrReq reports whether err refuses a field of the body for
// its type or a missing `req` field, which the request schema must say
// too. A header field (X-) is not the body's: its schema does not say it.
func refusedForTypeOrReq(err error) bool {
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		return false
	}
	for _, f := range ve.Fields {
		if header := len(f.Path) > 2 && strings.EqualFold(f.Path[:2], "x-"); header {
			continue
		}
		switch f.Code {
		case "required", "type":
			return true
		}
	}
	return false
}
