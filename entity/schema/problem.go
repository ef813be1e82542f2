package schema

// The schemas of the RFC 9457 problem details the entity package writes
// (entity.WriteError, Write's failures): the members it writes and those of
// one entry of a validation problem's "errors". Other members are allowed,
// as RFC 9457 allows extensions. The schematest module checks that what
// WriteError writes validates.

// The names of the problem components.
const (
	// ProblemName is the component of a problem details body.
	ProblemName = "Problem"
	// FieldErrorName is the component of one entry of its "errors".
	FieldErrorName = "ProblemFieldError"
)

// problemSchemas returns the schema of the problem details whose types
// are URI references under base (see entity.ProblemTypeBase), and of one
// entry of "errors"; fieldRef is the URI reference of the entry's schema.
func problemSchemas(base, fieldRef string) (problem, fieldError map[string]any) {
	str := map[string]any{"type": "string"}
	count := map[string]any{"type": "integer", "minimum": int64(0)}
	fieldError = map[string]any{
		"type":        "object",
		"description": "one field that failed: where its value was and what it failed",
		"properties": map[string]any{
			"pointer":    map[string]any{"type": "string", "description": "an RFC 6901 JSON Pointer to where the value was read in the body"},
			"parameter":  map[string]any{"type": "string", "description": "the name of the request parameter the value was read from, when not from the body"},
			"in":         map[string]any{"type": "string", "enum": []any{"path", "query", "header", "cookie"}, "description": "where the parameter was"},
			"path":       map[string]any{"type": "string", "description": "where the value was read: list[1].mail"},
			"outputPath": map[string]any{"type": "string", "description": "where the value would be written: list[1].details.mail"},
			"code":       map[string]any{"type": "string", "description": "the stable name of what failed: required, type, min, email…"},
			"params":     map[string]any{"type": "object", "description": "the rule's arguments by name"},
			"message":    map[string]any{"type": "string", "description": "the message, in the client's language"},
		},
		"required": []any{"code", "message"},
	}
	problem = map[string]any{
		"type":        "object",
		"description": "RFC 9457 problem details: type is about:blank (a problem that means no more than its status) or a problem type under " + base,
		"properties": map[string]any{
			"type":     map[string]any{"type": "string", "format": "uri-reference"},
			"title":    str,
			"status":   map[string]any{"type": "integer", "minimum": int64(400), "maximum": int64(599)},
			"detail":   str,
			"instance": map[string]any{"type": "string"},
			"errors":   map[string]any{"type": "array", "items": map[string]any{"$ref": fieldRef}},
			"omitted":  count,
			"offset":   count,
			"accept":   map[string]any{"type": "array", "items": str},
		},
		"required": []any{"detail", "status", "title", "type"},
	}
	return problem, fieldError
}
