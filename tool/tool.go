package tool

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/expose-go/expose/entity"
)

// command is one subcommand: its usage line, its help text and its run.
type command struct {
	name  string
	usage string // the arguments, after "expose NAME"
	help  string
	run   func(env *env, args []string) error
}

// commands lists the subcommands in the order help prints them.
var commands = []*command{checkCmd, fmtCmd, makeCmd, sampleCmd, schemaCmd, genCmd}

// env is what a command reads and writes, and the registry the commands
// that load files load them into.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	reg            *entity.Registry
}

// errUsage is wrapped by the errors of a command line that is wrong: the
// exit status is then 2 and the command's usage is printed.
var errUsage = errors.New("usage")

// errReported is returned by a command that has printed its errors: the
// exit status is 1 and nothing more is printed.
var errReported = errors.New("errors reported")

// Main runs the expose command line args (the arguments after the
// program's name, os.Args[1:]) with the registry reg and returns its exit
// status (0, 1 or 2, as the command documents: go doc
// github.com/expose-go/expose/cmd/expose). It reads standard input and
// writes standard output and standard error.
//
// The commands that load files (check, make, sample, schema, gen) load
// them into reg with [entity.Registry.LoadFS], after declaring their
// -flags in it with [entity.Registry.DeclareFlags]: the files may use
// every rule and format reg has, name its declared flags, and reference
// the entities it holds; its key case, limits and problem type base are
// those of every payload and schema. The commands that list every entity
// (schema without ENTITY, gen without ENTITY, check -unused) list every
// entity of reg. fmt and help use no registry. A nil reg is a new
// registry with the built-in rules only, as cmd/expose gives.
//
// reg keeps what a command put in it: the flags of -flags, and the files'
// entities once they all load (LoadFS is all or nothing). A second call
// given the same registry and the same files therefore fails, each entity
// being already exposed in it. Give each call a registry of its own, made
// by the function that sets up the program's registry before it loads
// anything.
func Main(reg *entity.Registry, args []string) int {
	if reg == nil {
		reg = entity.NewRegistry()
	}
	return run(&env{os.Stdin, os.Stdout, os.Stderr, reg}, args)
}

// run runs the command line args and returns the exit status.
func run(env *env, args []string) int {
	if len(args) == 0 {
		usage(env.stderr)
		return 2
	}
	name, args := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) == 0 {
			usage(env.stdout)
			return 0
		}
		if c := lookup(args[0]); c != nil {
			c.printHelp(env.stdout)
			return 0
		}
		if args[0] == "help" {
			usage(env.stdout)
			return 0
		}
		fmt.Fprintf(env.stderr, "expose: help: unknown command %q\n", args[0])
		return 2
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(env.stderr, "expose: unknown command %q\n\n", name)
		usage(env.stderr)
		return 2
	}
	err := c.run(env, args)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errHelp):
		c.printHelp(env.stdout)
		return 0
	case errors.Is(err, errUsage):
		msg := strings.TrimPrefix(err.Error(), errUsage.Error()+": ") // the usage line follows
		fmt.Fprintf(env.stderr, "expose %s: %s\nusage: expose %s %s\n(expose help %s for more)\n", c.name, msg, c.name, c.usage, c.name)
		return 2
	case errors.Is(err, errReported):
		return 1
	}
	fmt.Fprintf(env.stderr, "expose %s: %v\n", c.name, err)
	return 1
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func usage(w io.Writer) {
	fmt.Fprint(w, `expose checks, formats and runs .entity files (expose help COMMAND for more).

usage:
`)
	for _, c := range commands {
		fmt.Fprintf(w, "  expose %s %s\n", c.name, c.usage)
	}
	fmt.Fprint(w, `  expose help [COMMAND]

FILE may be a glob, and -f may be repeated. Exit status: 0 on success, 1 when
the files or the data have errors, 2 on a usage error.
`)
}

func (c *command) printHelp(w io.Writer) {
	fmt.Fprintf(w, "usage: expose %s %s\n\n%s", c.name, c.usage, c.help)
}
