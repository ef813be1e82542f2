// Command expose checks, formats and runs .entity files, the file form of
// expose's entity declarations (package dsl documents the format):
//
//	expose check [-unused] [-flags NAMES] FILE…
//	                                         parse and check; errors as file:line:col
//	expose fmt [-w] [-l] FILE…               print (or rewrite) in the canonical form
//	expose make -f FILE [--with NAMES] [--select SPEC] [--version V] [--strict] [--pretty] ENTITY [input.json]
//	                                         shape a JSON payload (stdin without a file)
//	expose sample -f FILE [--input] [--pretty] ENTITY
//	                                         an example payload of the entity
//	expose schema -f FILE [--mode response|request] [--with NAMES] [--version V] [--openapi] [ENTITY]
//	                                         the JSON Schema or OpenAPI export, for an audience
//	expose help [COMMAND]
//
// FILE may be a glob ("schemas/*.entity"); -f may be repeated. Every
// command but fmt loads its files as entity.LoadFS does: all of them, every
// reference checked, every error reported with its place and a caret
// under the fault; -flags admin,beta declares the flags their if and
// unless rules name, as entity.DeclareFlags does in a program. The exit
// status is 0 on success, 1 when the files or the data have errors, and 2
// on a usage error.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// command is one subcommand: its usage line, its help text and its run.
type command struct {
	name  string
	usage string // the arguments, after "expose NAME"
	help  string
	run   func(env *env, args []string) error
}

// commands lists the subcommands in the order help prints them.
var commands = []*command{checkCmd, fmtCmd, makeCmd, sampleCmd, schemaCmd}

// env is what a command reads and writes.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// errUsage is wrapped by the errors of a command line that is wrong: the
// exit status is then 2 and the command's usage is printed.
var errUsage = errors.New("usage")

// errReported is returned by a command that has printed its errors: the
// exit status is 1 and nothing more is printed.
var errReported = errors.New("errors reported")

func main() {
	os.Exit(run(&env{os.Stdin, os.Stdout, os.Stderr}, os.Args[1:]))
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
