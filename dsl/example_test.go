package dsl_test

import (
	"errors"
	"fmt"

	"github.com/expose-go/expose/dsl"
)

func ExampleParse() {
	e, err := dsl.Parse("user",
		"id", "INT", "num|rename 'number'",
		"name", "text", "req | max 64",
		"details", "{", "",
		"age", "number", "num | between 0 150",
		"mail", "string", "email | regex '^[^@ ]+@[^@ ]+$'",
		"details", "}", "",
		"team", "$team", "",
		"motto", "string", `default "it's fine"`,
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(e)
	r := e.Fields[2].Fields[1].Rules[1]
	fmt.Printf("field %q, rule %q, argument %q\n", e.Fields[2].Fields[1].Name, r.Name, r.Args[0].Text)
	// Output:
	// "user",
	// 	"id", "number", "num | rename 'number'",
	// 	"name", "string", "req | max 64",
	// 	"details", "{", "",
	// 		"age", "number", "num | between 0 150",
	// 		"mail", "string", "email | regex '^[^@ ]+@[^@ ]+$'",
	// 	"details", "}", "",
	// 	"team", "$team", "",
	// 	"motto", "string", "default \"it's fine\"",
	// field "mail", rule "regex", argument "^[^@ ]+@[^@ ]+$"
}

func ExampleParse_error() {
	_, err := dsl.Parse("user",
		"id", "number", "num",
		"age", "number", "num | between 0 150 |",
		"mail", "strin", "email",
	)
	fmt.Println(err)

	var l dsl.ErrorList
	if errors.As(err, &l) {
		for _, e := range l {
			fmt.Printf("triple %d, %s, offset %d: %s\n", e.Pos.Triple, e.Pos.Part, e.Pos.Offset, e.Msg)
		}
	}
	// Output:
	// dsl: entity "user", field "age" (triple 2, rules): empty rule after "|"
	//     num | between 0 150 |
	//                         ^
	// (and 1 more errors)
	// triple 2, rules, offset 20: empty rule after "|"
	// triple 3, type, offset -1: unknown type "strin" (want none, string, number, float, bool, date, list, object, "[]type", "{", "}" or "$entity")
}
