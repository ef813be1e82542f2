package tool_test

import (
	"errors"
	"fmt"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
	"github.com/expose-go/expose/tool"
)

// even is a rule of the program's own: an even integer.
var even = rules.Def{
	Name:  "even",
	Types: rules.Kinds(rules.Int),
	Compile: func([]string, rules.Kind) (rules.Checker, error) {
		return rules.CheckFunc(func(v rules.Value) error {
			if v.Int%2 != 0 {
				return errors.New("is odd")
			}
			return nil
		}), nil
	},
	Sample: func([]string, rules.Kind) any { return int64(2) },
}

// A program's expose, as its main runs it: the commands load
// testdata/pair.entity, which uses the program's rule even, into the
// registry the program set up. The expose command, whose registry has the
// built-in rules only, reports `unknown rule "even"` there.
func ExampleMain() {
	reg := entity.NewRegistry()
	if err := reg.RegisterRule(even); err != nil {
		panic(err)
	}
	// expose sample -f testdata/pair.entity pair
	status := tool.Main(reg, []string{"sample", "-f", "testdata/pair.entity", "pair"})
	fmt.Println("exit status", status)

	// Each call loads into its registry: a new one for the next call.
	reg = entity.NewRegistry()
	if err := reg.RegisterRule(even); err != nil {
		panic(err)
	}
	status = tool.Main(reg, []string{"make", "-f", "testdata/pair.entity", "pair", "testdata/pair.json"})
	fmt.Println("exit status", status)
	// Output:
	// {"left":2,"right":2}
	// exit status 0
	// {"left":4,"right":null}
	// exit status 0
}
