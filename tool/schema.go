package tool

// expose schema: the JSON Schema and OpenAPI export of package
// entity/schema, printed from the entities of the files, for the audience
// --with and --version say, with what the schemas cannot say
// (schema.Warnings) as warnings on stderr.

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

var schemaCmd = &command{
	name:  "schema",
	usage: "-f FILE… [-flags NAMES] [--mode response|request|patch] [--with NAMES] [--version V] [--openapi] [ENTITY]",
	help: `Schema prints the JSON Schema (2020-12) of ENTITY (without ENTITY, an
object of every entity's schema by name), or with --openapi the OpenAPI
3.1 components of every entity of the files, as a call with --with's
flags and --version's version sees them (without them: a call without
flags and without a version; a field only flagged calls see is not
there). What a schema cannot say (a custom rule without a Schema hook, a
regex with no ECMA-262 form, a bound of a float's text) is printed on
stderr as a warning; the schema names it in a "$comment".

  -f FILE        an .entity file or glob (repeatable)
  -flags NAMES   the flags the files' if and unless name (comma separated)
  --mode         response (what a response writes; the default), request
                 (the JSON body a request reads) or patch (the JSON Merge
                 Patch body entity.Entity.Patch reads)
  --with NAMES   the flags of the audience (entity.With), comma separated
  --version V    the API version of the audience (entity.Version: "v2")
  --openapi      the OpenAPI components.schemas of every entity, both modes,
                 and the problem details
`,
	run: runSchema,
}

func runSchema(env *env, args []string) error {
	fs, fl := newFlags("schema", true)
	mode := fs.String("mode", "response", "response, request or patch")
	with := fs.String("with", "", "the flags of the audience")
	version := fs.String("version", "", "the API version of the audience")
	openapi := fs.Bool("openapi", false, "the OpenAPI components of every entity")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	m := schema.Response
	switch *mode {
	case "response":
	case "request":
		m = schema.Request
	case "patch":
		m = schema.Patch
	default:
		return fmt.Errorf("%w: --mode is response, request or patch, not %q", errUsage, *mode)
	}
	if len(pos) > 1 || *openapi && len(pos) > 0 {
		return fmt.Errorf("%w: want at most one ENTITY, and none with --openapi", errUsage)
	}
	reg, err := load(env, fl)
	if err != nil {
		return err
	}
	var opts []entity.Option
	if *with != "" {
		opts = append(opts, entity.With(strings.Split(*with, ",")...))
	}
	if *version != "" {
		opts = append(opts, entity.Version(*version))
	}
	var entities []*entity.Entity
	if len(pos) == 1 {
		e := reg.Lookup(pos[0])
		if e == nil {
			return fmt.Errorf("%w: %q is not exposed", entity.ErrUnknownEntity, pos[0])
		}
		entities = []*entity.Entity{e}
	} else {
		for _, name := range reg.Names() {
			entities = append(entities, reg.Lookup(name))
		}
	}
	var out []byte
	pretty := false // the export is indented already
	switch {
	case *openapi:
		c := schema.NewComponents(opts...)
		for _, e := range entities {
			for _, m := range []schema.Mode{schema.Response, schema.Request} {
				if _, err := c.Ref(e, m); err != nil {
					return err
				}
			}
		}
		if _, err := c.Problem(reg.ProblemTypeBase()); err != nil {
			return err
		}
		comps, err := c.MarshalJSON()
		if err != nil {
			return err
		}
		out, pretty = []byte(`{"components":{"schemas":`+string(comps)+`}}`), true
	case len(pos) == 1:
		if out, err = schema.JSON(entities[0], m, opts...); err != nil {
			return err
		}
	default:
		all := map[string]json.RawMessage{}
		for _, e := range entities {
			if all[e.Name()], err = schema.JSON(e, m, opts...); err != nil {
				return err
			}
		}
		if out, err = json.Marshal(all); err != nil {
			return err
		}
		pretty = true
	}
	warned := map[string]bool{}
	for _, e := range entities {
		for _, w := range schema.Warnings(e, opts...) {
			if !warned[w] {
				warned[w] = true
				fmt.Fprintln(env.stderr, "warning: "+w)
			}
		}
	}
	return writeJSON(env, out, pretty)
}
