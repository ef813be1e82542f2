package main

// expose schema: the JSON Schema and OpenAPI export (issue 15), printed
// from the entities of the files, with what the schemas cannot say
// (entity.Registry.SchemaWarnings) as warnings on stderr.

import (
	"encoding/json"
	"fmt"

	"github.com/expose-go/expose/entity"
)

var schemaCmd = &command{
	name:  "schema",
	usage: "-f FILE… [-flags NAMES] [--mode input|output] [--openapi] [ENTITY]",
	help: `Schema prints the JSON Schema (2020-12) of ENTITY (without ENTITY, an
object of every entity's schema by name), or with --openapi the OpenAPI
3.1 components of every entity of the files. What a schema cannot say (a
custom rule without a Schema hook, a regex ECMA-262 reads otherwise) is
printed on stderr as a warning; the schema names it in a "$comment".

  -f FILE        an .entity file or glob (repeatable)
  -flags NAMES   the flags the files' if and unless name (comma separated)
  --mode         output (what Make writes; the default) or input (what
                 MakeRequest accepts)
  --openapi      the OpenAPI components.schemas of every entity
`,
	run: runSchema,
}

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
	reg, err := load(env, fl)
	if err != nil {
		return err
	}
	m := entity.OutputSchema
	if *mode == "input" {
		m = entity.InputSchema
	}
	var out []byte
	pretty := false // the export is indented already
	warnings := reg.SchemaWarnings()
	switch {
	case *openapi:
		out, err = reg.OpenAPIComponents()
	case len(pos) == 1:
		out, err = reg.JSONSchema(pos[0], m)
		warnings = reg.Lookup(pos[0]).SchemaWarnings()
	default:
		all := map[string]json.RawMessage{}
		for _, name := range reg.Names() {
			if all[name], err = reg.JSONSchema(name, m); err != nil {
				return err
			}
		}
		out, err = json.Marshal(all)
		pretty = true
	}
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintln(env.stderr, "warning: "+w)
	}
	return writeJSON(env, out, pretty)
}
