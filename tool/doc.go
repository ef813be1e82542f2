// Package tool is the expose command as a function, [Main], that a program
// runs with a registry of its own, so that the commands know what the
// program registers before it loads its .entity files: its rules
// ([entity.Registry.RegisterRule]), formats
// ([entity.Registry.RegisterFormat]), declared flags, key case and limits.
// The expose command (cmd/expose) is Main given a new registry, which
// knows the built-in rules and formats only: a file that uses a rule of
// the program's own fails there with `unknown rule`, and loads in a
// program built on this package:
//
//	// Command expose is the expose tool with the shop's own rules.
//	package main
//
//	import (
//		"os"
//
//		"example.com/shop/shoprules"
//		"github.com/expose-go/expose/tool"
//	)
//
//	func main() {
//		os.Exit(tool.Main(shoprules.NewRegistry(), os.Args[1:]))
//	}
//
// where shoprules.NewRegistry is the function the program's server calls
// too, to make its registry before it loads its files: NewRegistry with its
// options, then RegisterRule, RegisterFormat and DeclareFlags. Run it as
// the tool is run, from go:generate too:
//
//	//go:generate go run example.com/shop/cmd/expose gen -f schemas/*.entity -o entities_gen.go
//
// The commands (check, fmt, make, sample, schema, gen, help), their flags,
// their output and their exit statuses are the expose command's, which go
// doc github.com/expose-go/expose/cmd/expose documents. A program built on
// this package links no testing package and nothing of the test kit
// (net/http/httptest, go-cmp).
package tool
