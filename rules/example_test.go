package rules_test

import (
	"errors"
	"fmt"

	"github.com/expose-go/expose/rules"
)

// A custom rule is registered in a Set the way the built-in rules are. Its
// Compile function parses the arguments and builds the messages once, so
// that Check allocates nothing.
func ExampleSet_Register() {
	set := rules.Builtin()
	err := set.Register(rules.Def{
		Name:    "even",
		Aliases: []string{"isEven"},
		Types:   rules.Kinds(rules.Int, rules.Any),
		Compile: func(args []string, declared rules.Kind) (rules.Checker, error) {
			errOdd := errors.New("must be even")
			errKind := errors.New("must be a whole number")
			return rules.CheckFunc(func(v rules.Value) error {
				switch {
				case v.Kind != rules.Int:
					return errKind
				case v.Int%2 != 0:
					return errOdd
				}
				return nil
			}), nil
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	def, _ := set.Lookup("ISEVEN")
	check, _ := def.Compile(nil, rules.Int)
	for _, n := range []int64{4, 7} {
		fmt.Println(n, check.Check(rules.IntValue(n)))
	}
	fmt.Println(set.Register(rules.Def{Name: "Even", Compile: def.Compile}))
	// Output:
	// 4 <nil>
	// 7 must be even
	// rules: rule "Even" is already registered
}

// The entity compiler looks a rule up by the name written in the
// declaration, checks the argument count and the field's type against the
// Def, compiles it once and checks values with the result.
func ExampleSet_Lookup() {
	set := rules.Builtin()
	def, ok := set.Lookup("Range")
	if !ok {
		return
	}
	args := []string{"2", "4"}
	fmt.Println(def.Name, len(args) >= def.MinArgs && len(args) <= def.MaxArgs, def.Types.Has(rules.String))

	check, err := def.Compile(args, rules.String)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range []string{"go", "gopher"} {
		fmt.Printf("%q: %v\n", s, check.Check(rules.StringValue(s)))
	}

	_, err = def.Compile([]string{"5", "1"}, rules.String)
	fmt.Println(err)
	// Output:
	// range true true
	// "go": <nil>
	// "gopher": must be between 2 and 4 characters long
	// range: minimum 5 is greater than maximum 1
}
