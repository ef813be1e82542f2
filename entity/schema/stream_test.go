package schema_test

import (
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
	"github.com/expose-go/expose/internal/testkit"
)

// streamRoutes are routes of one entity, each answering it in another
// way: whole, as an NDJSON stream, as a JSON array stream, as either; and
// the conditional ones, tagged and evaluating If-Match.
func streamRoutes(t *testing.T) []schema.Route {
	reg := entity.NewRegistry()
	event := expose(t, reg, "event", "id", "number", "req", "name", "string", "")
	return []schema.Route{
		{Method: "GET", Path: "/events/{id}", Response: event, ETag: true},
		{Method: "PATCH", Path: "/events/{id}", Request: event, Response: event, ETag: true, IfMatch: true},
		{Method: "GET", Path: "/events.ndjson", Response: event, Stream: schema.StreamNDJSON},
		{Method: "GET", Path: "/events.json", Response: event, Stream: schema.StreamArray},
		{Method: "GET", Path: "/events", Response: event, Stream: schema.StreamArray | schema.StreamNDJSON, ETag: true, Select: "fields"},
	}
}

// TestOpenAPIStreams: a stream's success response gives each media type
// it names, marked x-stream: application/x-ndjson with the element's
// schema, described as one JSON value per line; application/json with an
// array of it; and says "a stream of". A stream has no ETag.
func TestOpenAPIStreams(t *testing.T) {
	doc, err := schema.OpenAPI(seedInfo, streamRoutes(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path []string
		want string
	}{
		{"NDJSON", []string{"paths", "/events.ndjson", "get", "responses", "200"},
			`{"content":{"application/x-ndjson":{"schema":{"$ref":"#/components/schemas/event","description":"a stream of event: one JSON value per line (NDJSON), each one event"},"x-stream":true}},"description":"OK: a stream of event"}`},
		{"a JSON array", []string{"paths", "/events.json", "get", "responses", "200"},
			`{"content":{"application/json":{"schema":{"description":"a stream of event: one JSON array, written as its elements come","items":{"$ref":"#/components/schemas/event"},"type":"array"},"x-stream":true}},"description":"OK: a stream of event"}`},
		{"either, of a selection", []string{"paths", "/events", "get", "responses", "200", "content", "application/x-ndjson", "schema", "$ref"},
			`"#/components/schemas/event.partial"`},
		{"either, the array", []string{"paths", "/events", "get", "responses", "200", "content", "application/json", "schema", "items"},
			`{"$ref":"#/components/schemas/event.partial"}`},
		{"a stream has no ETag", []string{"paths", "/events", "get", "responses", "200", "headers"}, `null`},
		{"nor a 304", []string{"paths", "/events", "get", "responses", "304"}, `null`},
		{"one object is no stream", []string{"paths", "/events/{id}", "get", "responses", "200", "content"},
			`{"application/json":{"schema":{"$ref":"#/components/schemas/event"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := testkit.At(t, doc, tt.path...); got != tt.want {
				t.Errorf("%s = %s\nwant %s", strings.Join(tt.path, "/"), got, tt.want)
			}
		})
	}
}

// TestOpenAPIConditional: a tagged route's success response gives its
// ETag header, a GET's the If-None-Match parameter and the 304; a route
// that evaluates If-Match the If-Match parameter and the 412 problem.
func TestOpenAPIConditional(t *testing.T) {
	doc, err := schema.OpenAPI(seedInfo, streamRoutes(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path []string
		want string
	}{
		{"the GET's ETag", []string{"paths", "/events/{id}", "get", "responses", "200", "headers", "ETag", "schema"}, `{"type":"string"}`},
		{"the GET's If-None-Match", []string{"paths", "/events/{id}", "get", "parameters", "1", "name"}, `"If-None-Match"`},
		{"the GET's 304", []string{"paths", "/events/{id}", "get", "responses", "304", "description"},
			`"Not Modified: the representation If-None-Match names is current; no body"`},
		{"no 412 without IfMatch", []string{"paths", "/events/{id}", "get", "responses", "412"}, `null`},
		{"the PATCH's ETag", []string{"paths", "/events/{id}", "patch", "responses", "200", "headers", "ETag", "schema"}, `{"type":"string"}`},
		{"the PATCH's If-Match", []string{"paths", "/events/{id}", "patch", "parameters", "1", "name"}, `"If-Match"`},
		{"no If-None-Match on the PATCH", []string{"paths", "/events/{id}", "patch", "parameters", "2"}, `null`},
		{"no 304 on the PATCH", []string{"paths", "/events/{id}", "patch", "responses", "304"}, `null`},
		{"the PATCH's 412", []string{"paths", "/events/{id}", "patch", "responses", "412"}, `{"$ref":"#/components/responses/Problem412"}`},
		{"the 412 problem", []string{"components", "responses", "Problem412", "description"}, `"Precondition Failed: RFC 9457 problem details"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := testkit.At(t, doc, tt.path...); got != tt.want {
				t.Errorf("%s = %s\nwant %s", strings.Join(tt.path, "/"), got, tt.want)
			}
		})
	}
}

// TestOpenAPIStreamErrors: a stream of no media type OpenAPI knows, or of
// no entity, is an error.
func TestOpenAPIStreamErrors(t *testing.T) {
	event := expose(t, entity.NewRegistry(), "event", "id", "number", "")
	tests := []struct {
		name  string
		route schema.Route
		want  string
	}{
		{"an unknown stream", schema.Route{Method: "GET", Path: "/x", Response: event, Stream: 4},
			"schema: OpenAPI: GET /x: stream 4 is not StreamArray, StreamNDJSON or both"},
		{"a stream of nothing", schema.Route{Method: "GET", Path: "/x", Stream: schema.StreamNDJSON},
			"schema: OpenAPI: GET /x: a stream needs the Response entity of its elements"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := schema.OpenAPI(seedInfo, []schema.Route{tt.route}); err == nil || err.Error() != tt.want {
				t.Errorf("OpenAPI: %v, want %q", err, tt.want)
			}
		})
	}
}
