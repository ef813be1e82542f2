// Package schematest tests the schemas expose exports against what the
// library really does, with third-party validators kept out of the
// library's go.mod: JSON Schema 2020-12 with
// github.com/santhosh-tekuri/jsonschema/v6 (format assertion on), OpenAPI
// 3.1 with github.com/pb33f/libopenapi. It holds tests only.
package schematest
