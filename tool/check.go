package tool

import (
	"fmt"
	"sort"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

var checkCmd = &command{
	name:  "check",
	usage: "[-unused] [-flags NAMES] [-f FILE]… FILE…",
	help: `Check parses the files and checks them as entity.LoadFS does: syntax, types
and rules, the compiler's checks (an unknown rule, output keys written twice,
a default that fails the field's own rules, bounds no value meets), entities
declared twice, and every $ref. Every error of the files is printed at once,
in file order, as file:line:col: message, with the line and a caret under the
fault, and a misspelt type, rule, directive, format or entity name with the
known one it was likely meant to be. The exit status is 1 when there are
errors.

  -flags NAMES   the flags the files' if and unless may name (comma
                 separated; repeatable), as the program declares them with
                 entity.DeclareFlags: a flag not declared is an error
  -unused        also warn of the entities that no other entity references
                 (roots such as a response entity are expected: warnings do
                 not fail)
`,
	run: runCheck,
}

func runCheck(env *env, args []string) error {
	fs, fl := newFlags("check", true)
	unused := fs.Bool("unused", false, "warn of entities nothing references")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	reg, err := load(env, fl, pos...)
	if err != nil {
		return err
	}
	if *unused {
		for _, w := range unusedEntities(reg) {
			fmt.Fprintln(env.stderr, w)
		}
	}
	return nil
}

// unusedEntities returns a warning for each entity of reg that no field of
// another entity references, in file order.
func unusedEntities(reg *entity.Registry) []string {
	used := map[string]bool{}
	var decls []*dsl.Entity
	for _, name := range reg.Names() {
		d := reg.Lookup(name).Decl()
		decls = append(decls, d)
		stack := append([]*dsl.Field(nil), d.Fields...)
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f.Kind == dsl.FieldRef && f.Ref != d.Name {
				used[f.Ref] = true
			}
			stack = append(stack, f.Fields...)
		}
	}
	sort.SliceStable(decls, func(i, j int) bool {
		a, b := decls[i].Pos, decls[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	var out []string
	for _, d := range decls {
		if !used[d.Name] {
			out = append(out, fmt.Sprintf("%v: warning: entity %q is referenced by no other entity", d.Pos, d.Name))
		}
	}
	return out
}
