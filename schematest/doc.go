// Package schematest tests the schemas package entity/schema exports
// against what the library really does, with validators kept out of the
// library's go.mod: JSON Schema 2020-12 with
// github.com/santhosh-tekuri/jsonschema/v6 (format assertion on) and with
// ajv 8 and ajv-formats (strict mode, formats asserted), OpenAPI 3.1 with
// github.com/pb33f/libopenapi and @seriousme/openapi-schema-validator, and
// live requests and responses of package api's servers against the
// documents they serve with github.com/pb33f/libopenapi-validator. The
// JavaScript validators are run through node from js/, where test.sh
// installs them from js/package-lock.json (npm ci). It holds tests only.
package schematest
