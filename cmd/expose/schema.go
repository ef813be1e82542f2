package main

// ---------------------------------------------------------------------------
// expose schema: the JSON Schema and OpenAPI export (issue 15).
//
// The export itself ((*entity.Entity).JSONSchema, Registry.OpenAPIComponents)
// is built apart and is not in this tree yet: the command line is parsed
// here, and runSchema answers that the export is not available. Wiring it
// is: in runSchema, replace the errNoSchema return with
//
//	reg, err := load(env, fl)
//	… e.JSONSchema(mode) for ENTITY, or reg.OpenAPIComponents() with
//	--openapi, or every entity's schema without ENTITY …
//	return writeJSON(env, out, true)
// ---------------------------------------------------------------------------

import (
	"errors"
	"fmt"
)

var schemaCmd = &command{
	name:  "schema",
	usage: "-f FILE… [-flags NAMES] [--mode input|output] [--openapi] [ENTITY]",
	help: `Schema prints the JSON Schema (2020-12) of ENTITY, or with --openapi the
OpenAPI 3.1 components of every entity of the files.

  -f FILE        an .entity file or glob (repeatable)
  -flags NAMES   the flags the files' if and unless name (comma separated)
  --mode         output (what Make writes; the default) or input (what
                 MakeRequest accepts)
  --openapi      the OpenAPI components.schemas of every entity

Not available in this build: the schema export is not part of it yet.
`,
	run: runSchema,
}

// errNoSchema is what schema answers until the export is wired in.
var errNoSchema = errors.New("not available: this build has no JSON Schema export")

func runSchema(env *env, args []string) error {
	fs, fl := newFlags("schema", true)
	mode := fs.String("mode", "output", "input or output")
	openapi := fs.Bool("openapi", false, "the OpenAPI components of every entity")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *mode != "input" && *mode != "output" {
		return fmt.Errorf("%w: --mode is input or output, not %q", errUsage, *mode)
	}
	if len(pos) > 1 || *openapi && len(pos) > 0 {
		return fmt.Errorf("%w: want at most one ENTITY, and none with --openapi", errUsage)
	}
	if len(fl.names) == 0 {
		return fmt.Errorf("%w: no file: give .entity files with -f FILE", errUsage)
	}
	return errNoSchema
}
