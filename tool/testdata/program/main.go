// Command program is the expose tool of a program that has rules of its
// own: a rule (rfc3339), a format (cents), a flag (staff) and a key case,
// set up before tool.Main runs, as docs/files.md shows. Package tool's
// tests build it and run each command with it.
package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
	"github.com/expose-go/expose/tool"
)

func main() {
	os.Exit(tool.Main(newRegistry(), os.Args[1:]))
}

// newRegistry is the program's registry before it loads any file: what
// its server would call too.
func newRegistry() *entity.Registry {
	reg := entity.NewRegistry(entity.KeyCase(entity.CamelCase))
	err := errors.Join(
		reg.RegisterRule(rfc3339),
		reg.RegisterFormat("cents", rules.Kinds(rules.Int), cents),
		reg.DeclareFlags("staff"),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return reg
}

// rfc3339 is the rule `rfc3339`: a string that is an RFC 3339 time.
var rfc3339 = rules.Def{
	Name:  "rfc3339",
	Types: rules.Kinds(rules.String),
	Compile: func([]string, rules.Kind) (rules.Checker, error) {
		return rules.CheckFunc(func(v rules.Value) error {
			if _, err := time.Parse(time.RFC3339, v.Str); err != nil {
				return errors.New("is not an RFC 3339 time")
			}
			return nil
		}), nil
	},
	Sample: func([]string, rules.Kind) any { return "2026-12-01T09:30:00Z" },
	Schema: func([]string, rules.Kind) map[string]any { return map[string]any{"format": "date-time"} },
}

// cents is the format `cents`: an amount in cents written as a decimal
// text with two places ("12.50").
func cents(v rules.Value, _ []string) (any, error) {
	if v.Int < 0 {
		return nil, errors.New("is negative")
	}
	return fmt.Sprintf("%d.%02d", v.Int/100, v.Int%100), nil
}
