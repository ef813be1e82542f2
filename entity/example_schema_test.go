package entity_test

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/expose-go/expose/entity"
)

// An entity's output schema says what Make writes: output names, nested
// groups, nullability (no req and no default: null), each rule's keywords.
func ExampleEntity_JSONSchema() {
	reg := entity.NewRegistry()
	e := reg.MustExpose("account",
		"id", "number", "req | rename 'ID'",
		"name", "string", "min 2 | max 40",
		"plan", "string", "default 'free'",
	)
	out, err := e.JSONSchema(entity.OutputSchema)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// {
	//   "$schema": "https://json-schema.org/draft/2020-12/schema",
	//   "additionalProperties": false,
	//   "properties": {
	//     "ID": {
	//       "type": "integer"
	//     },
	//     "name": {
	//       "maxLength": 40,
	//       "minLength": 2,
	//       "type": [
	//         "string",
	//         "null"
	//       ]
	//     },
	//     "plan": {
	//       "type": "string"
	//     }
	//   },
	//   "required": [
	//     "ID",
	//     "name",
	//     "plan"
	//   ],
	//   "type": "object"
	// }
}

// The input schema says what MakeRequest accepts: declared names, every
// lossless form (an integer or its text), required where req has no
// default, and the defaults.
func ExampleEntity_JSONSchema_input() {
	reg := entity.NewRegistry()
	e := reg.MustExpose("account",
		"id", "number", "req | rename 'ID'",
		"plan", "string", "default 'free'",
	)
	out, err := e.JSONSchema(entity.InputSchema)
	if err != nil {
		panic(err)
	}
	var s struct {
		Properties map[string]json.RawMessage
		Required   []string
	}
	if err := json.Unmarshal(out, &s); err != nil {
		panic(err)
	}
	for _, k := range []string{"id", "plan"} {
		fmt.Println(k, compact(s.Properties[k]))
	}
	fmt.Println("required", s.Required)
	// Output:
	// id {"anyOf":[{"maximum":9223372036854775807,"minimum":-9223372036854775808,"type":"integer"},{"pattern":"^-?[0-9]+(?:\\.0+)?$","type":"string"}]}
	// plan {"default":"free","type":["string","null"]}
	// required [id]
}

// A whole OpenAPI 3.1 document for an API's routes: the entities as
// components, X- fields as header parameters, and the problem details
// every operation may answer.
func ExampleRegistry_OpenAPI() {
	reg := entity.NewRegistry()
	reg.MustExpose("newuser", "POST",
		"name", "string", "req",
		"X-Request-Id", "string", "",
	)
	reg.MustExpose("user", "name", "string", "req")
	doc, err := reg.OpenAPI(entity.APIInfo{Title: "users", Version: "1.0.0"}, []entity.Route{
		{Method: "POST", Path: "/users", Request: "newuser", Response: "user", Status: 201},
	})
	if err != nil {
		panic(err)
	}
	var d struct {
		Paths map[string]map[string]struct {
			Parameters  []json.RawMessage
			RequestBody json.RawMessage
			Responses   map[string]json.RawMessage
		}
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		panic(err)
	}
	op := d.Paths["/users"]["post"]
	fmt.Println("parameters", compact(op.Parameters[0]))
	fmt.Println("body", compact(op.RequestBody))
	for _, status := range []string{"201", "400", "405", "413", "415", "500"} {
		fmt.Println(status, compact(op.Responses[status]))
	}
	// Output:
	// parameters {"in":"header","name":"X-Request-Id","schema":{"type":"string"}}
	// body {"content":{"application/json":{"schema":{"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"}}}}
	// 201 {"content":{"application/json":{"schema":{"$ref":"#/components/schemas/user"}}},"description":"Created"}
	// 400 {"$ref":"#/components/responses/Problem400"}
	// 405 {"$ref":"#/components/responses/Problem405"}
	// 413 {"$ref":"#/components/responses/Problem413"}
	// 415 {"$ref":"#/components/responses/Problem415"}
	// 500 {"$ref":"#/components/responses/Problem500"}
}

// compact returns JSON text without its white space.
func compact(b []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return err.Error()
	}
	return buf.String()
}
