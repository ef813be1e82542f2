package schema_test

import (
	"encoding/json"
	"fmt"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// A Response schema says what a response writes: output names, nested
// groups, nullability (no req and no default: null), each rule's keywords.
func ExampleJSON() {
	reg := entity.NewRegistry()
	e := reg.MustExpose("account",
		"id", "number", "req | rename 'ID'",
		"name", "string", "min 2 | max 40",
		"plan", "string", "default 'free'",
	)
	out, err := schema.JSON(e, schema.Response)
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
	//       "format": "int64",
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

// A Request schema says what a request reads: the keys a client sends,
// every form strict input converts without loss (a number or its text, the
// text matching the rule's bounds too), required where req has no default,
// and the defaults.
func ExampleJSON_request() {
	reg := entity.NewRegistry()
	e := reg.MustExpose("order",
		"qty", "number", "req | range 1 99",
		"gift", "bool", "default false",
	)
	out, err := schema.JSON(e, schema.Request)
	if err != nil {
		panic(err)
	}
	var s struct {
		Properties map[string]struct {
			AnyOf []map[string]any
		}
		Required []string
	}
	if err := json.Unmarshal(out, &s); err != nil {
		panic(err)
	}
	qty := s.Properties["qty"].AnyOf
	fmt.Println("qty as a number:", qty[0]["minimum"], qty[0]["maximum"])
	fmt.Println("qty as text:", qty[1]["allOf"])
	fmt.Println("required:", s.Required)
	// Output:
	// qty as a number: 1 99
	// qty as text: [map[pattern:^(?:0*(?:[1-9]|[1-9][0-9]))(?:\.0+)?$]]
	// required: [qty]
}

// A document is made for an audience: the public one lists no field that
// only flagged calls see.
func ExampleJSON_audience() {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		panic(err)
	}
	e := reg.MustExpose("member",
		"name", "string", "req",
		"score", "number", "if 'admin'",
	)
	for _, opts := range [][]entity.Option{nil, {entity.With("admin")}} {
		out, err := schema.JSON(e, schema.Response, opts...)
		if err != nil {
			panic(err)
		}
		var s struct{ Required []string }
		if err := json.Unmarshal(out, &s); err != nil {
			panic(err)
		}
		fmt.Println(s.Required)
	}
	// Output:
	// [name]
	// [name score]
}

// A whole OpenAPI 3.1 document for an API's routes: the entities as
// components, X- fields as header parameters, and the problem details
// every operation may answer.
func ExampleOpenAPI() {
	reg := entity.NewRegistry()
	newUser := reg.MustExpose("newuser", "POST",
		"name", "string", "req",
		"X-Request-Id", "string", "",
	)
	user := reg.MustExpose("user", "name", "string", "req")
	doc, err := schema.OpenAPI(schema.Info{Title: "users", Version: "1.0.0"}, []schema.Route{
		{Method: "POST", Path: "/users", Request: newUser, Response: user, Status: 201},
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
	// body {"content":{"application/json":{"schema":{"$ref":"#/components/schemas/newuser.request"}}},"required":true}
	// 201 {"content":{"application/json":{"schema":{"$ref":"#/components/schemas/user"}}},"description":"Created","headers":{"Location":{"description":"the URI of the resource created","schema":{"format":"uri-reference","type":"string"}}}}
	// 400 {"$ref":"#/components/responses/Problem400"}
	// 405 {"$ref":"#/components/responses/Problem405"}
	// 413 {"$ref":"#/components/responses/Problem413"}
	// 415 {"$ref":"#/components/responses/Problem415"}
	// 500 {"$ref":"#/components/responses/Problem500"}
}

// Components gives another package the pieces of a document: references
// to entity schemas, kept once each under their component names.
func ExampleComponents() {
	reg := entity.NewRegistry()
	reg.MustExpose("address", "city", "string", "req")
	customer := reg.MustExpose("customer", "name", "string", "req", "address", "$address", "req")
	c := schema.NewComponents()
	ref, err := c.Ref(customer, schema.Request)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(ref))
	for name, s := range c.Schemas() {
		if name == "customer.request" {
			fmt.Println(compact(s))
		}
	}
	// Output:
	// {"$ref":"#/components/schemas/customer.request"}
	// {"properties":{"address":{"$ref":"#/components/schemas/address.request"},"name":{"type":"string"}},"required":["address","name"],"type":"object"}
}

// Sample builds an example payload from the declaration, for a response or
// for a request body: defaults where there are (never a secret's), else a
// value that passes every rule of the field.
func ExampleSample() {
	reg := entity.NewRegistry()
	e := reg.MustExpose("signup",
		"id", "number", "readonly",
		"mail", "string", "req | email",
		"password", "string", "req | writeonly | secret | min 8",
		"plan", "string", "default 'free'",
	)
	fmt.Printf("%s\n", schema.Sample(e, schema.Response))
	fmt.Printf("%s\n", schema.Sample(e, schema.Request))
	// Output:
	// {"id":1,"mail":"user@example.com","plan":"free"}
	// {"mail":"user@example.com","password":"aaaaaaaa","plan":"free"}
}
