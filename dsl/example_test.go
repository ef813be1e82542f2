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
	// (and 1 more error)
	// triple 2, rules, offset 20: empty rule after "|"
	// triple 3, type, offset -1: unknown type "strin" (did you mean "string"?)
}

func ExampleParseFile() {
	src := `# users.entity
user {
  id number num | rename 'number'
  'first name'   string   req  # a quoted name
  details {
    age number num
  }
}
users POST {
  list $user
}
`
	f, err := dsl.ParseFile("users.entity", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range f.Entities {
		fmt.Print(e)
	}
	out, _ := f.Print()
	fmt.Printf("%s", out)
	// Output:
	// "user",
	// 	"id", "number", "num | rename 'number'",
	// 	"first name", "string", "req",
	// 	"details", "{", "",
	// 		"age", "number", "num",
	// 	"details", "}", "",
	// "users",
	// 	"POST",
	// 	"list", "$user", "",
	// # users.entity
	// user {
	//   id            number  num | rename 'number'
	//   'first name'  string  req  # a quoted name
	//   details       {
	//     age  number  num
	//   }
	// }
	//
	// users POST {
	//   list  $user
	// }
}

func ExampleParseFile_errors() {
	src := "user {\n  age  nmber  num\n  name string req | rnge 1 5 | 'x\n"
	_, err := dsl.ParseFile("users.entity", []byte(src))
	var l dsl.ErrorList
	errors.As(err, &l)
	for _, e := range l {
		fmt.Println(e)
	}
	// Output:
	// users.entity:1:1: entity "user": its "{" is never closed with "}"
	//      1 | user {
	//        | ^
	// users.entity:2:8: entity "user", field "age": unknown type "nmber" (did you mean "number"?)
	//      2 |   age  nmber  num
	//        |        ^
	// users.entity:3:32: entity "user", field "name": unclosed quote '
	//      3 |   name string req | rnge 1 5 | 'x
	//        |                                ^
}

func ExamplePrintEntities() {
	e, _ := dsl.Parse("newuser", "POST",
		"name", "string", "req",
		"mail", "string", "req | email",
		"X-Request-Id", "string", "rename requestId",
	)
	out, _ := dsl.PrintEntities(e)
	fmt.Printf("%s", out)
	// Output:
	// newuser POST {
	//   name          string  req
	//   mail          string  req | email
	//   X-Request-Id  string  rename requestId
	// }
}

func ExampleParseSelection() {
	terms, _ := dsl.ParseSelection("id,list(name,details/mail)")
	for _, t := range terms {
		fmt.Println(t.Path[0].Offset, t)
	}
	_, err := dsl.ParseSelection("list(name")
	fmt.Println(err)
	// Output:
	// 0 id
	// 3 list(name,details/mail)
	// dsl: field selection: at byte 9, expected a closing parenthesis for the one at byte 4
}
