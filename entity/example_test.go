package entity_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// The seed: msful's load-test payload, declared once and made into exactly
// the 227 bytes the article measured.
func ExampleMakeJSON() {
	entity.MustExpose("user",
		"id", "number", "num | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown'",
	)
	entity.MustExpose("users",
		"offset", "number", "default 0",
		"limit", "number", "default 0",
		"list", "$user", "",
	)
	out, err := entity.MakeJSON("users", map[string]any{"limit": 2, "list": []any{
		map[string]any{"id": "12", "name": "maachang", "age": 40, "mail": "maachang@maachang.com"},
		map[string]any{"id": "21", "name": "saito", "age": 27, "mail": "saito@maachang.com"}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	fmt.Println(len(out), "bytes")
	// Output:
	// {"offset":0,"limit":2,"list":[{"number":12,"name":"maachang","details":{"age":40,"mail":"maachang@maachang.com"},"code":"unknown"},{"number":21,"name":"saito","details":{"age":27,"mail":"saito@maachang.com"},"code":"unknown"}]}
	// 227 bytes
}

// Expose compiles a declaration once; the entity then turns flat rows into
// nested JSON: converted, renamed, defaulted, undeclared keys dropped.
func ExampleRegistry_Expose() {
	reg := entity.NewRegistry()
	row, err := reg.Expose("row",
		"id", "int", "req | rename 'ID'",
		"price", "float", "min 0",
		"seller", "{", "",
		"seller_name", "text", "rename name",
		"since", "date", "",
		"seller", "}", "",
		"tags", "list", "default",
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := row.MakeJSON(map[string]string{
		"id": "42", "price": "9.90", "seller_name": "ACME", "since": "2019/04/01", "password": "dropped",
	})
	fmt.Println(string(out), err)
	// Output:
	// {"ID":42,"price":9.9,"seller":{"name":"ACME","since":"2019-04-01T00:00:00Z"},"tags":[]} <nil>
}

// Make returns an Object: the output as ordered Go values.
func ExampleEntity_Make() {
	reg := entity.NewRegistry()
	e := reg.MustExpose("event",
		"id", "number", "",
		"at", "date", "",
		"ok", "bool", "",
		"ratio", "float", "",
		"note", "string", "",
	)
	obj, err := e.Make(map[string]any{"id": "7", "at": 1577934245000, "ok": "on", "ratio": "0.25"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range obj.Keys() {
		v, _ := obj.Get(k)
		fmt.Printf("%s: %T %v\n", k, v, v)
	}
	fmt.Println(obj)
	// Output:
	// id: int64 7
	// at: time.Time 2020-01-02 03:04:05 +0000 UTC
	// ok: bool true
	// ratio: float64 0.25
	// note: <nil> <nil>
	// {"id":7,"at":"2020-01-02T03:04:05Z","ok":true,"ratio":0.25,"note":null}
}

// A ValidationError lists every failing field: where its value was read,
// where it would have been written, the rule and why.
func ExampleValidationError() {
	reg := entity.NewRegistry()
	reg.MustExpose("user",
		"name", "string", "req",
		"details", "{", "",
		"mail", "string", "email",
		"details", "}", "",
	)
	reg.MustExpose("users", "list", "$user", "")
	_, err := reg.Lookup("users").MakeJSON(map[string]any{"list": []any{
		map[string]any{"name": "ok", "mail": "ok@example.com"},
		"not an object",
		map[string]any{"mail": "nope"},
	}})
	var ve *entity.ValidationError
	if errors.As(err, &ve) {
		// The server's data fails its entity: the server's fault (500). A
		// request's fields (MakeRequest, Bind) are the client's (400).
		fmt.Println(ve.StatusCode(), errors.Is(err, entity.ErrValidation))
		for _, f := range ve.Fields {
			fmt.Printf("%s (%s): %s %s\n", f.Path, f.OutputPath, f.Rule, f.Message)
		}
	}
	// Output:
	// 500 true
	// list[2].name (list[1].name): req is required
	// list[2].mail (list[1].details.mail): email must be a valid email address
}

// A custom rule is registered once with its arguments' count and the types
// it applies to; its arguments are checked when a declaration uses it.
func ExampleRegistry_RegisterRule() {
	reg := entity.NewRegistry()
	err := reg.RegisterRule(rules.Def{
		Name:    "prefix",
		MinArgs: 1, MaxArgs: 1,
		Types: rules.Kinds(rules.String),
		Compile: func(args []string, _ rules.Kind) (rules.Checker, error) {
			p := args[0]
			if p == "" {
				return nil, errors.New("the prefix is empty")
			}
			msg := errors.New("must start with " + p)
			return rules.CheckFunc(func(v rules.Value) error {
				if !strings.HasPrefix(v.Str, p) {
					return msg
				}
				return nil
			}), nil
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = reg.Expose("bad", "sku", "string", "prefix")
	fmt.Println(err)

	e := reg.MustExpose("item", "sku", "string", "req | PREFIX 'SKU-'")
	out, err := e.MakeJSON(map[string]any{"sku": "SKU-1"})
	fmt.Println(string(out), err)
	_, err = e.MakeJSON(map[string]any{"sku": "X-1"})
	fmt.Println(err)
	// Output:
	// dsl: entity "bad", field "sku" (triple 1, rules): rule "prefix" takes 1 argument, got 0
	//     prefix
	//     ^
	// {"sku":"SKU-1"} <nil>
	// entity "item": 1 field failed: sku: must start with SKU- (prefix)
}

// Check reports, at once, every reference that names no entity: call it
// when every declaration is exposed.
func ExampleRegistry_Verify() {
	reg := entity.NewRegistry()
	reg.MustExpose("order",
		"id", "number", "",
		"customer", "$customer", "",
		"lines", "$line", "",
	)
	reg.MustExpose("line", "sku", "string", "", "product", "$product", "")
	var list dsl.ErrorList
	if errors.As(reg.Verify(), &list) {
		for _, e := range list {
			fmt.Println(e)
		}
	}
	reg.MustExpose("customer", "name", "string", "")
	reg.MustExpose("product", "title", "string", "")
	fmt.Println(reg.Verify())
	// Output:
	// dsl: entity "line", field "product" (triple 2, type): $product names no entity
	// dsl: entity "order", field "customer" (triple 2, type): $customer names no entity
	// <nil>
}
