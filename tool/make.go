package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

var makeCmd = &command{
	name:  "make",
	usage: "-f FILE… [-flags NAMES] [--with NAMES] [--select SPEC] [--version V] [--strict] [--pretty] ENTITY [input.json]",
	help: `Make shapes a JSON payload with ENTITY, as entity.MakeJSON does, and prints
the result: keys renamed, values converted, defaults filled, groups nested,
references made. The input is the file input.json, or standard input when it
is left out or is "-". When the payload fails the entity's rules, every field
error is printed (path: message) and the exit status is 1.

  -f FILE        an .entity file or glob declaring ENTITY and what it
                 references (repeatable)
  -flags NAMES   the flags the files' if and unless name (comma separated):
                 declared, not set
  --with NAMES   the flags the call sets (entity.With), comma separated
  --select SPEC  the fields to write (entity.Select: "list(name,details/mail)")
  --version V    the API version of the call (entity.Version: "v2")
  --strict       read the input strictly, as a request is read (entity.Strict)
  --pretty       indent the JSON
`,
	run: runMake,
}

func runMake(env *env, args []string) error {
	fs, fl := newFlags("make", true)
	pretty := fs.Bool("pretty", false, "indent the JSON")
	with := fs.String("with", "", "the flags the call sets")
	sel := fs.String("select", "", "the fields to write")
	version := fs.String("version", "", "the API version of the call")
	strict := fs.Bool("strict", false, "read the input strictly")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 1 || len(pos) > 2 {
		return fmt.Errorf("%w: want ENTITY and at most one input file, got %d arguments", errUsage, len(pos))
	}
	opts := []entity.Option{entity.Select(*sel), entity.Version(*version)}
	if *with != "" {
		opts = append(opts, entity.With(strings.Split(*with, ",")...))
	}
	if *strict {
		opts = append(opts, entity.Strict())
	}
	e, err := loadEntity(env, fl, pos[0])
	if err != nil {
		return err
	}
	var in []byte
	if len(pos) == 2 && pos[1] != "-" {
		in, err = os.ReadFile(pos[1])
	} else {
		in, err = io.ReadAll(env.stdin)
	}
	if err != nil {
		return err
	}
	out, err := e.MakeJSON(in, opts...)
	if err != nil {
		var ve *entity.ValidationError
		if !errors.As(err, &ve) {
			var ie *entity.InputError
			if errors.As(err, &ie) && !errors.Is(err, entity.ErrInvalidJSON) {
				return fmt.Errorf("%s", ie.Msg) // a bad --select or --version: its own words
			}
			return err
		}
		for _, fe := range ve.Fields {
			fmt.Fprintln(env.stderr, fe.Error())
		}
		return errReported
	}
	return writeJSON(env, out, *pretty)
}

var sampleCmd = &command{
	name:  "sample",
	usage: "-f FILE… [-flags NAMES] [--input] [--pretty] ENTITY",
	help: `Sample prints an example payload of ENTITY, built from its declaration by
schema.Sample: defaults where there are, else a value that passes every
rule of the field.

  -f FILE        an .entity file or glob declaring ENTITY and what it
                 references (repeatable)
  -flags NAMES   the flags the files' if and unless name (comma separated)
  --input        an input the entity accepts (a request body MakeRequest
                 takes) rather than the output it writes
  --pretty       indent the JSON
`,
	run: runSample,
}

func runSample(env *env, args []string) error {
	fs, fl := newFlags("sample", true)
	input := fs.Bool("input", false, "a sample input rather than output")
	pretty := fs.Bool("pretty", false, "indent the JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want one ENTITY, got %d arguments", errUsage, len(pos))
	}
	e, err := loadEntity(env, fl, pos[0])
	if err != nil {
		return err
	}
	mode := schema.Response
	if *input {
		mode = schema.Request
	}
	return writeJSON(env, schema.Sample(e, mode), *pretty)
}

// loadEntity loads the files and returns the entity named name, or an
// error that lists the entities the files declare.
func loadEntity(env *env, fl *files, name string) (*entity.Entity, error) {
	reg, err := load(env, fl)
	if err != nil {
		return nil, err
	}
	if e := reg.Lookup(name); e != nil {
		return e, nil
	}
	return nil, fmt.Errorf("the files declare no entity %q (they declare %q)", name, reg.Names())
}

// writeJSON prints b and a newline, indented with two spaces if pretty.
func writeJSON(env *env, b []byte, pretty bool) error {
	if pretty {
		var buf bytes.Buffer
		if err := json.Indent(&buf, b, "", "  "); err != nil {
			return err
		}
		b = buf.Bytes()
	}
	_, err := env.stdout.Write(append(b, '\n'))
	return err
}
